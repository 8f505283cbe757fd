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

from tests.clikit import HANG, ROOT, once_per_run

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
    cache = shared / "numba-cache"
    made = CompiledSolver(cache, "", 0)

    def first_analysis() -> subprocess.CompletedProcess[str]:
        cache.mkdir(parents=True, exist_ok=True)
        return subprocess.run([sys.executable, "-m", "raspis_cli", *FIRST_ANALYSIS], cwd=ROOT,
                              env=made.env(), capture_output=True, text=True, encoding="utf-8",
                              timeout=HANG, check=False)

    status, said = once_per_run(shared, "numba-cache", first_analysis)
    return CompiledSolver(cache, said, status)
