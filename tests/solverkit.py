"""The compiled solver, compiled once for the whole suite.

The suite runs the kernel as plain Python (``tests/conftest.py``); the few
tests of the compiled kernel share one numba cache, made by the first of them
to ask (whichever pytest-xdist worker it runs in; the others wait for it and
load it): a fresh install's first ``raspis analyze``, whose standard error is
kept for the test of what it says. The rest of the suite never compiles.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from tests.clikit import HANG, ROOT

FIRST_ANALYSIS = ("analyze", "samples/raspisnoy-full-3p.rsp", "--deal", "3", "--samples", "0")
"""A fresh install's first analysis: a small deal, every function of the kernel compiled before it."""


@dataclass(frozen=True)
class CompiledSolver:
    """numba's cache of the compiled kernel, and what the run that made it printed."""

    cache: Path
    first_stderr: str
    first_status: int

    def env(self) -> dict[str, str]:
        """The environment of a child process that loads the compiled kernel from this cache."""
        env = {k: v for k, v in os.environ.items() if k != "RASPIS_NO_JIT"}
        env.update(PYTHONPATH=str(ROOT), NUMBA_CACHE_DIR=str(self.cache), NO_COLOR="1",
                   PYTHONIOENCODING="utf-8")
        return env


def compiled_solver(shared: Path) -> CompiledSolver:
    """The cache under ``shared`` (a folder every worker of one run sees),
    made by a first ``raspis analyze`` into an empty cache when nobody has
    made it yet; a lock makes the others wait."""
    import fcntl

    cache = shared / "numba-cache"
    shared.mkdir(parents=True, exist_ok=True)
    with open(shared / "numba-cache.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        said, status = shared / "numba-cache.stderr", shared / "numba-cache.status"
        if not status.exists():
            cache.mkdir(exist_ok=True)
            made = CompiledSolver(cache, "", 0)
            done = subprocess.run([sys.executable, "-m", "raspis_cli", *FIRST_ANALYSIS], cwd=ROOT,
                                  env=made.env(), capture_output=True, text=True, encoding="utf-8",
                                  timeout=HANG, check=False)
            said.write_text(done.stderr, encoding="utf-8")
            status.write_text(str(done.returncode), encoding="utf-8")
        return CompiledSolver(cache, said.read_text(encoding="utf-8"),
                              int(status.read_text(encoding="utf-8")))
