"""Helpers of the CLI tests: run `raspis` as a user would; compare with golden files."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"


LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


HANG = 600
"""Seconds after which a command is taken as hung: a guard, not a speed target (the first
``analyze`` of a fresh checkout compiles the solver, over two minutes on a loaded 2-core
machine)."""


def run_cli(*args: str, stdin: str | None = None, env_extra: dict[str, str] | None = None,
            merge_stderr: bool = False) -> subprocess.CompletedProcess[str]:
    """Run ``raspis ARGS`` as a user would (a fresh process, output not a
    terminal, no colour) from the repository root. The locale is neutral
    (English) unless ``env_extra`` sets one (``{"LANG": "ru_RU.UTF-8"}``).
    ``merge_stderr``: standard error into the same pipe as the output, in the
    order written (as ``2>&1``)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("COLUMNS", "FORCE_COLOR") and k not in LOCALE_VARIABLES}
    env["NO_COLOR"] = "1"
    env["PYTHONIOENCODING"] = "utf-8"
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-m", "raspis_cli", *args], cwd=ROOT, env=env, input=stdin,
                          stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT if merge_stderr else subprocess.PIPE,
                          text=True, encoding="utf-8", timeout=HANG)


def check_golden(name: str, actual: str) -> None:
    """Compare output with ``tests/golden/NAME``; ``RASPIS_UPDATE_GOLDEN=1``
    rewrites the file instead (then review the diff before committing)."""
    path = GOLDEN / name
    if os.environ.get("RASPIS_UPDATE_GOLDEN") == "1":
        path.write_text(actual, encoding="utf-8")
        return
    assert path.exists(), f"no golden file {path}; run with RASPIS_UPDATE_GOLDEN=1 to create it"
    expected = path.read_text(encoding="utf-8")
    assert actual == expected, f"output differs from {path}"


def default_sigint() -> None:
    """In a child about to run (``preexec_fn``): Ctrl-C back to its default. A shell that
    starts the suite in the background (``cmd &``) makes SIGINT ignored, and an ignored
    signal is inherited: Python then never turns Ctrl-C into KeyboardInterrupt, and a test
    of what Ctrl-C does would wait for nothing."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


def once_per_run(shared: Path, name: str,
                 make: Callable[[], subprocess.CompletedProcess[str]]) -> tuple[int, str]:
    """``make`` run by the first process of a test run to ask, and its exit status and standard
    error, for every process: ``shared`` is a folder every pytest-xdist worker of the run sees
    (NAME.status and NAME.stderr are kept there); a lock makes the others wait for the first."""
    import fcntl

    shared.mkdir(parents=True, exist_ok=True)
    said, status = shared / f"{name}.stderr", shared / f"{name}.status"
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not status.exists():
            done = make()
            said.write_text(done.stderr, encoding="utf-8")
            status.write_text(str(done.returncode), encoding="utf-8")
    return int(status.read_text(encoding="utf-8")), said.read_text(encoding="utf-8")
