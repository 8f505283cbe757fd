"""Commands import only what they use: ``raspis --help`` and ``raspis validate``
never load DuckDB, Arrow, the store or pydantic (typer's value checker), so
they start in a fraction of a second. Nothing here is timed: the times are in
``bench/startup.py``; this test checks the imports that make them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("duckdb", "pyarrow", "raspis_cli.store", "pydantic", "numpy", "pyparsing")
PLAIN_OUTPUT_SKIPS = ("rich.console", "rich.table", "importlib.resources", "csv")
"""What a command writing to a pipe or a file need not import: rich's console
and table (the box table is written by raspis_cli/cli/plaintable.py), the
preset files' resource reader, the CSV writer."""


def _imported(*args: str) -> set[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "raspis_cli", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, encoding="utf-8", timeout=120)
    assert done.returncode in (0, 1, 2), done.stderr[-2000:]
    return {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines()
            if line.startswith("import time:") and "|" in line}


@pytest.mark.parametrize("args", [
    ("--help",),
    ("--version",),
    ("validate", "samples/raspisnoy-sheet-dispute.rsp", "--max-errors", "5"),
    ("score", "samples/classic.rsp", "--format", "csv"),
    ("rules", "list"),
    ("validate", "--help"),
])
def test_light_commands_import_nothing_heavy(args: tuple[str, ...]) -> None:
    modules = _imported(*args)
    assert "raspis_cli.cli.runner" in modules, "the measurement sees the package's imports"
    heavy = sorted(m for m in modules if m.split(".")[0] in HEAVY or m.startswith(HEAVY))
    assert not heavy, f"raspis {' '.join(args)} imported {heavy[:8]}"


@pytest.mark.parametrize("args", [
    ("validate", "samples/errors-friday.rsp"),
    ("score", "samples/raspisnoy-sheet-dispute.rsp"),
    ("rules", "list"),
])
def test_plain_output_does_not_load_rich_console(args: tuple[str, ...]) -> None:
    modules = _imported(*args)
    assert "raspis_cli.cli.runner" in modules
    assert not modules & set(PLAIN_OUTPUT_SKIPS), sorted(modules & set(PLAIN_OUTPUT_SKIPS))


def test_help_does_not_import_the_commands() -> None:
    modules = _imported("--help")
    assert not {m for m in modules if m.endswith("_cmd")}, "the listing needs no command module"


def test_a_store_command_still_loads_the_store(tmp_path: Path) -> None:
    modules = _imported("query", "SELECT 1", "--db", str(tmp_path / "x.duckdb"))
    assert "duckdb" in modules and "raspis_cli.store" in modules


def test_load_help_imports_no_database() -> None:
    modules = _imported("load", "--help")
    assert "raspis_cli.store.schema" in modules, "the measurement sees the command module's imports"
    heavy = sorted(m for m in modules if m.split(".")[0] in ("duckdb", "pyarrow", "pydantic", "numpy"))
    assert not heavy, f"raspis load --help imported {heavy[:8]}"


def test_simulate_with_heuristic_bots_loads_no_solver() -> None:
    """The solver (numba) is loaded by a PIMC decision, not by ``simulate``
    itself: the heuristic bots' games never import it; ``--bot pimc`` does."""
    modules = _imported("simulate", "-p", "3", "-n", "1", "--seed", "1")
    assert "raspis_cli.simulate.simulator" in modules, "the measurement sees the command's imports"
    assert not {m for m in modules if m.startswith("raspis_cli.solver.search") or m.split(".")[0] == "numba"}
    modules = _imported("simulate", "-p", "3", "-n", "1", "--seed", "1", "--rules", "raspisnoy",
                        "--bot", "pimc", "--bot-samples", "2")
    assert "raspis_cli.solver.search" in modules


def test_load_imports_no_value_checker(tmp_path: Path) -> None:
    """``load``'s options (a float among them) pass typer_fixes' quick path:
    its workers fork without pydantic, and it still loads."""
    db = tmp_path / "x.duckdb"
    modules = _imported("load", "samples/classic.rsp", "--db", str(db), "-q", "--wait", "5")
    assert "duckdb" in modules and db.exists()
    assert not {m for m in modules if m.split(".")[0] == "pydantic"}
