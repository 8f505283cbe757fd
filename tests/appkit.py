"""Helpers of the phone app's browser tests: the app built once, served on 127.0.0.1 from a
thread (so that a test can stop the server and go on offline), and the taps of a game.

The runtime comes from ``$RASPIS_PYODIDE`` (the npm tarball or folder) when set, else from
raspis's own cache or the npm registry, as ``raspis app build`` takes it; when it cannot be
had the tests skip, loudly.
"""

from __future__ import annotations

import os
import sys
import threading
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

from raspis_cli.app.bundle import BuildError, build_app
from raspis_cli.app.host import AppServer, app_server

STARTED_WITHIN = 180.0
"""Seconds a test waits for the app's first screen (Python started in the browser; a loaded
CI machine is slow, a wait is not a measurement: bench/app_start.py measures)."""


def _skip(why: str) -> None:
    message = f"THE APP CANNOT BE BUILT: the tests of raspis app that need it are SKIPPED ({why})"
    warnings.warn(message, stacklevel=3)
    sys.stderr.write("\n" + "!" * 80 + "\n" + message + "\n" + "!" * 80 + "\n")
    pytest.skip(message)


def built_app(folder: Path) -> Path:
    """The app built into ``folder`` (in this process), or a loud skip when the runtime cannot be had."""
    try:
        build_app(str(folder), os.environ.get("RASPIS_PYODIDE"))
    except BuildError as e:
        _skip(str(e))
    return folder


def build_with_cli(shared: Path) -> tuple[Path, str]:
    """The app built into ``shared/app-site`` by ``raspis app build`` and what it said, or a loud
    skip when the runtime cannot be had (no network and no copy). ``shared`` is a folder every
    pytest-xdist worker of one run sees: the first to ask builds (about 20 s of CPU), a lock
    makes the others wait and they read the same build, which no test writes."""
    from tests.clikit import once_per_run, run_cli

    folder = shared / "app-site"
    runtime = os.environ.get("RASPIS_PYODIDE")
    status, stderr = once_per_run(shared, "app-site", lambda: run_cli(
        "app", "build", str(folder), *(["--pyodide", runtime] if runtime else [])))
    if status != 0:
        assert "Traceback" not in stderr, stderr
        _skip(stderr.strip())
    return folder, stderr


class Hosted:
    """A built app served from a thread on a free port of 127.0.0.1 (``stop`` ends it)."""

    def __init__(self, folder: Path) -> None:
        self.server: AppServer | None = app_server(str(folder), 0)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        """Stop serving: nothing answers at the address any more."""
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
            self.server = None


def wait_screen(driver: Any, screen: str, within: float = STARTED_WITHIN) -> None:
    """Wait until the app shows ``screen`` (``games`` or ``game``)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if driver.execute_script("return window.raspisScreen || null") == screen:
            return
        failed = driver.execute_script("var l = document.getElementById('loading');"
                                       "return l && l.textContent")
        time.sleep(0.2)
    raise AssertionError(f"the app did not show {screen}: {failed!r}; "
                         f"{[e['message'] for e in driver.get_log('browser')]}")


def wait_worker(driver: Any, within: float = 60.0) -> None:
    """Wait until the service worker controls the page (every file kept for offline use)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if driver.execute_script("return !!(navigator.serviceWorker && navigator.serviceWorker.controller)"):
            return
        time.sleep(0.2)
    raise AssertionError("no service worker controls the page")


ENTER = """
var words = arguments[0], done = arguments[arguments.length - 1];
function version() { return document.getElementById("table").getAttribute("data-version"); }
(async function () {
  for (var i = 0; i < words.length; i++) {
    var word = words[i], main = document.getElementById("table"), before = version();
    var button = Array.prototype.find.call(main.querySelectorAll("button[data-say]"), function (b) {
      return b.getAttribute("data-say") === word && !b.disabled; });
    if (button) { button.click(); } else {
      var form = main.querySelector('form[data-form="trump"]');
      if (!form) { done("no key and no field takes " + word); return; }
      form.elements.text.value = word;
      form.requestSubmit();
    }
    for (var k = 0; k < 400 && version() === before; k++) {
      await new Promise(function (r) { setTimeout(r, 5); });
    }
    if (version() === before) {
      done("not taken: " + word + ": " + document.getElementById("msg").textContent);
      return;
    }
  }
  done(null);
})();
"""


def enter(driver: Any, words: list[str]) -> None:
    """Tap each word as a scorekeeper would: its key, or (a card turned up) the trump's field."""
    problem = driver.execute_async_script(ENTER, words)
    assert problem is None, problem


def message(driver: Any) -> str:
    """What the app says now (the line above the table)."""
    return str(driver.execute_script("var m = document.getElementById('msg'); return m ? m.textContent : ''"))
