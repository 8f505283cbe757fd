"""The kernel compiled before the first search, each function told as it is done.

numba compiles a function of :mod:`raspis_cli.solver.kernel` the first time
it is called and keeps the machine code in its on-disk cache, so only the
first search of a fresh install waits (20 to 40 seconds). :func:`compile_kernel`
does that wait up front, in one process, with a search of each kind on a
small deal, and calls back as each function is compiled: a command can show
that it is moving, and processes started after it (``analyze -j N``) load
the cache instead of each compiling on its own.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from raspis_cli.rules import Rules
from raspis_cli.solver import kernel
from raspis_cli.solver.randomdeal import random_position
from raspis_cli.solver.search import Solver

__all__ = ["compile_kernel"]


def compile_kernel(on_compiled: Callable[[int], None]) -> None:
    """Compile every function of the kernel now (those numba's cache holds
    are loaded, not compiled), calling ``on_compiled(done)`` after each
    function compiled for the first time (``done``: how many so far, up to
    :func:`~raspis_cli.solver.kernel.compiled_functions`). Nothing to do without numba."""
    if not kernel.JIT:
        return
    from numba.core import event

    seen: set[str] = set()

    class _Compiled(event.Listener):
        def on_start(self, happened: Any) -> None:
            """Nothing when a compile starts (the functions it calls finish first)."""

        def on_end(self, happened: Any) -> None:
            """A function compiled: counted once, whatever its signatures."""
            name = happened.data["dispatcher"].py_func.__qualname__
            if name not in seen:
                seen.add(name)
                on_compiled(len(seen))

    deal = random_position(random.Random(6), Rules.preset("raspisnoy"), 4, 5, joker_chance=1.0, played=0)
    with event.install_listener("numba:compile", _Compiled()):
        Solver(deal, 0).every_search(deal)
