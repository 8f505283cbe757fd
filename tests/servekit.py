"""Helpers of the ``raspis serve`` tests: a server started as a user starts it, phones in Chromium.

:class:`Served` runs ``raspis serve`` in its own process on 127.0.0.1 (never
another address) with a free port (or the one given: a restart on the same address), reads the address it
prints, and stops it
with Ctrl-C (SIGINT) or ``kill -9``; :func:`phone` is a headless Chromium at
390×844 with touch emulation; :func:`say` sends an entry as the page does.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from tests.browserkit import CHROMIUM, DRIVER
from tests.clikit import HANG, default_sigint

ROOT = Path(__file__).resolve().parent.parent
PHONE = (390, 844)
DESKTOP = (1280, 900)


class Served:
    """``raspis serve ARGS`` in a process of its own; ``url`` is the address it printed."""

    def __init__(self, *args: str, lang: str = "en", port: int = 0, files: int | None = None) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
        env.update(NO_COLOR="1", PYTHONIOENCODING="utf-8", PYTHONUNBUFFERED="1",
                   LANG="ru_RU.UTF-8" if lang == "ru" else "C.UTF-8")
        self.args = ("serve", *args, "--host", "127.0.0.1", "--port", str(port))
        def limit() -> None:  # at most ``files`` open files (as ``ulimit -n``)
            import resource

            if files is not None:
                resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))
            default_sigint()  # stop() sends Ctrl-C, which a suite started with `&` would ignore

        self.process = subprocess.Popen([sys.executable, "-m", "raspis_cli", *self.args], cwd=ROOT, env=env,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                        encoding="utf-8", preexec_fn=limit)
        self.printed: list[str] = []
        self.url = ""
        assert self.process.stdout is not None
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                break
            self.printed.append(line)
            found = re.search(r"(http://127\.0\.0\.1:\d+/\S*)", line)
            if found:
                self.url = found.group(1)
            if "Ctrl-C" in line:
                break
        if not self.url:
            self.process.kill()
            _out, err = self.process.communicate(timeout=30)
            raise AssertionError(f"raspis serve printed no address: {''.join(self.printed)}{err}")

    @property
    def base(self) -> str:
        """The address without the access code."""
        return self.url.split("?", 1)[0]

    @property
    def token(self) -> str:
        """The access code of the printed address ('' without one)."""
        return self.url.split("?t=", 1)[1] if "?t=" in self.url else ""

    def stop(self) -> tuple[int, str, str]:
        """Ctrl-C, as a person stops it: the exit code and the rest of the output."""
        # Ctrl-C again every 10 s while it runs, as a person would: at load 14 a first one was
        # lost (the server still running a minute later); a hung server still fails, after HANG
        for _ in range(HANG // 10):
            if self.process.poll() is None:
                self.process.send_signal(signal.SIGINT)
            try:
                out, err = self.process.communicate(timeout=10)
                break
            except subprocess.TimeoutExpired:
                continue
        else:
            out, err = self.process.communicate(timeout=10)
        return self.process.returncode, "".join(self.printed) + out, err

    def kill(self) -> None:
        """``kill -9``: no chance to save or clean up."""
        self.process.send_signal(signal.SIGKILL)
        self.process.communicate(timeout=60)

    def __enter__(self) -> Served:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.process.poll() is None:
            self.stop()


def request(served: Served, path: str, body: dict[str, Any] | bytes | None = None,
            token: str | None = None, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    """One HTTP request to the server (the access code as the page's cookie
    would carry it; ``token=""`` sends none): status and body."""
    data = json.dumps(body).encode("utf-8") if isinstance(body, dict) else body
    req = urllib.request.Request(served.base + path, data=data, method="POST" if data is not None else "GET")
    given = served.token if token is None else token
    if given:
        req.add_header("X-Raspis-Token", given)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    for key, value in (headers or {}).items():
        req.add_header(key, value)
    try:
        with urllib.request.urlopen(req, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def say(served: Served, text: str, version: int | None = None) -> dict[str, Any]:
    """An entry as the page sends it, against the current version unless given."""
    if version is None:
        version = view(served)["version"]
    status, body = request(served, "api/say", {"version": version, "text": text})
    answer: dict[str, Any] = json.loads(body)
    answer["status"] = status
    return answer


def view(served: Served) -> dict[str, Any]:
    """The sheet as the server shows it now (version, HTML)."""
    status, body = request(served, "api/view")
    assert status == 200, body
    found: dict[str, Any] = json.loads(body)
    return found


def first_allowed(html: str) -> str:
    """The word of the first key of the question that the sheet allows now."""
    keys = html.split('id="keys"', 1)[1].split("</div>", 1)[0]
    for found in re.finditer(r'<button type="button" data-say="([^"]*)" class="([^"]*)"', keys):
        if "refused" not in found.group(2):
            return found.group(1)
    raise AssertionError(f"no key allowed in {keys}")


def play_deal(served: Served) -> dict[str, Any]:
    """Enter the open deal to its end, each time with the first value allowed
    (a suit for the trump); the answer that wrote it."""
    for _ in range(40):
        answer = say(served, first_allowed(view(served)["html"]))
        assert answer["ok"], answer["message"]
        if "written" in answer["message"]:
            return answer
    raise AssertionError("the deal did not end")


def phone(lang: str = "en") -> Any:
    """A headless Chromium as a phone: 390×844, touch, the browser's language ``lang``."""
    return _chromium(lang, mobile={"deviceMetrics": {"width": PHONE[0], "height": PHONE[1],
                                                     "pixelRatio": 1.0, "touch": True}})


def desktop(lang: str = "en") -> Any:
    """A headless Chromium as a desktop screen, 1280×900, the browser's language ``lang``."""
    return _chromium(lang, window=DESKTOP)


def _chromium(lang: str, *, window: tuple[int, int] | None = None,
              mobile: dict[str, Any] | None = None) -> Any:
    """A headless Chromium whose language is ``lang``, at a window size or emulating a
    phone (``mobile``), its console kept for the tests to read."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    assert CHROMIUM is not None and DRIVER is not None
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    size = [f"--window-size={window[0]},{window[1]}"] if window is not None else []
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--hide-scrollbars", *size, f"--lang={'ru-RU' if lang == 'ru' else 'en-US'}"):
        options.add_argument(arg)
    accept = "ru-RU,ru" if lang == "ru" else "en-US,en"
    options.add_experimental_option("prefs", {"intl.accept_languages": accept})
    if mobile is not None:
        options.add_experimental_option("mobileEmulation", mobile)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(options=options, service=Service(DRIVER))


def free_port() -> int:
    """A port free on 127.0.0.1 now (for a server started twice on the same address)."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
