"""The compiled kernel (numba, the ``fast`` extra) answers as the Python source does.

The rest of the suite runs the kernel as plain Python (tests/conftest.py sets
``RASPIS_NO_JIT``); here a child process without that setting loads the
kernel compiled once for the suite (``tests/solverkit.py``) and solves the
same random positions. Skipped where numba is not installed (it is an
optional extra).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from raspis_cli.rules import Rules
from raspis_cli.solver.pimc import bid_payoffs
from raspis_cli.solver.randomdeal import random_position, random_small_case
from raspis_cli.solver.search import BudgetExceededError, Solver, solve
from tests.solverkit import CompiledSolver

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow  # the suite's one compile of the kernel (20 to 40 s), if it is first

CHILD = """
import json, sys
from raspis_cli.solver import kernel as solver_kernel
from tests.test_solver_jit import expected_counts
assert solver_kernel.JIT
print(json.dumps(expected_counts()))
"""


def expected_counts() -> list[object]:
    """The outcomes of 60 random small positions and two 4-player deals of 5
    and 6 cards (``None`` where a line leaves somebody no legal play); on
    those two deals, what each bid is sure of and how many positions the
    searches visited, and where a budget stops a search: the same positions
    on either kernel, so ``--budget`` gives the same output on both."""
    out: list[object] = []
    rng = random.Random(5)
    for _ in range(60):
        deal, player = random_small_case(rng)
        try:
            out.append(solve(deal, player).to_json())
        except ValueError:
            out.append(None)
    rng = random.Random(6)
    for size in (5, 6):
        deal = random_position(rng, Rules.preset("raspisnoy"), 4, size, joker_chance=1.0,
                               played=0)
        whole = Solver(deal, 0)
        out.append([whole.outcome(deal).to_json(), whole.nodes])
        solver = Solver(deal, 0)
        payoffs = bid_payoffs(deal.rules, "normal", size, range(size + 1))
        out.append([solver.guaranteed(deal, payoffs), solver.nodes])
        budgeted = Solver(deal, 1, budget=300)
        try:
            budgeted.outcome(deal)
            out.append(["solved", budgeted.nodes])
        except BudgetExceededError:
            out.append(["over", budgeted.nodes])
    return out


def test_compiled_kernel_agrees_with_the_python_source(compiled_solver: CompiledSolver) -> None:
    pytest.importorskip("numba")
    done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True,
                          env=compiled_solver.env(), cwd=ROOT, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == expected_counts()
