"""Commands import only what they use: ``raspis --help``, ``raspis validate``,
a command's ``--help`` (``analyze``'s too) and the shell's completion requests
never load DuckDB, Arrow, the store, the solver (numba) or pydantic (typer's
value checker), so they start in a fraction of a second. Nothing here is timed: the times are in
``bench/startup.py``; this test checks the imports that make them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.clikit import HANG
from tests.solverkit import FIRST_ANALYSIS, CompiledSolver

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("duckdb", "pyarrow", "raspis_cli.store", "pydantic", "numpy", "numba", "pyparsing",
         "raspis_cli.solver")
PLAIN_OUTPUT_SKIPS = ("rich.console", "rich.table", "importlib.resources", "csv")
"""What a command writing to a pipe or a file need not import: rich's console
and table (the box table is written by raspis_cli/cli/plaintable.py), the
preset files' resource reader, the CSV writer."""


def _run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1", **(env or {})}
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "raspis_cli", *args], cwd=ROOT, env=full,
                          capture_output=True, text=True, encoding="utf-8", timeout=120)
    assert done.returncode in (0, 1, 2), done.stderr[-2000:]
    return done


def _imported(*args: str, env: dict[str, str] | None = None) -> set[str]:
    return {line.rsplit("|", 1)[1].strip() for line in _run(*args, env=env).stderr.splitlines()
            if line.startswith("import time:") and "|" in line}


def _bash_completion(line: str) -> dict[str, str]:
    """What bash's completion script sets when Tab is pressed after ``line``."""
    words = line.split()
    return {"_RASPIS_COMPLETE": "complete_bash", "COMP_WORDS": line,
            "COMP_CWORD": str(len(words) if line.endswith(" ") else len(words) - 1)}


@pytest.mark.parametrize("args", [
    ("--help",),
    ("--version",),
    ("validate", "samples/raspisnoy-sheet-dispute.rsp", "--max-errors", "5"),
    ("score", "samples/classic.rsp", "--format", "csv"),
    ("rules", "list"),
    ("validate", "--help"),
    ("analyze", "--help"),
    ("simulate", "-h"),
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


@pytest.mark.slow
def test_simulate_with_heuristic_bots_loads_no_solver() -> None:
    """The solver (numba) is loaded by a PIMC decision, not by ``simulate``
    itself: the heuristic bots' games never import it; ``--bot pimc`` does."""
    modules = _imported("simulate", "-p", "3", "-n", "1", "--seed", "1")
    assert "raspis_cli.simulate.simulator" in modules, "the measurement sees the command's imports"
    assert not {m for m in modules if m.startswith("raspis_cli.solver.search") or m.split(".")[0] == "numba"}
    # a short game (no ladder, one special deal: six deals) of the plain-Python solver
    modules = _imported("simulate", "-p", "3", "-n", "1", "--seed", "1", "--rules", "raspisnoy",
                        "--set", "ladder=false", "--set", "specials=no-trump",
                        "--bot", "pimc", "--bot-samples", "1")
    assert "raspis_cli.solver.search" in modules


def test_load_imports_no_value_checker(tmp_path: Path) -> None:
    """``load``'s options (a float among them) pass typer_fixes' quick path:
    its workers fork without pydantic, and it still loads."""
    db = tmp_path / "x.duckdb"
    modules = _imported("load", "samples/classic.rsp", "--db", str(db), "-q", "--wait", "5")
    assert "duckdb" in modules and db.exists()
    assert not {m for m in modules if m.split(".")[0] == "pydantic"}


@pytest.mark.parametrize(("line", "command_module"), [
    ("raspis an", None),
    ("raspis analyze --for", "analyze_cmd"),
    ("raspis --lang ru score --format ", "score_cmd"),
])
def test_a_tab_press_imports_only_the_command_on_the_line(line: str, command_module: str | None) -> None:
    modules = _imported(env=_bash_completion(line))
    assert "raspis_cli.cli.runner" in modules, "the measurement sees the package's imports"
    commands = {m.rsplit(".", 1)[1] for m in modules if m.endswith("_cmd")}
    assert commands == ({command_module} if command_module else set())
    heavy = sorted(m for m in modules if m.split(".")[0] in HEAVY or m.startswith(HEAVY))
    assert not heavy, f"completing {line!r} imported {heavy[:8]}"


@pytest.mark.parametrize(("line", "offered"), [
    ("raspis an", ["analyze"]),
    ("raspis analyze --for", ["--format", "--force"]),
    ("raspis score --format ", ["table", "json", "jsonl", "csv", "markdown"]),
    ("raspis analyze -f ", ["text", "json"]),
    ("raspis stats --format j", ["json", "jsonl"]),
    ("raspis score --rules c", ["classic"]),
    ("raspis score --compare ", ["raspisnoy", "classic", "georgian", "joker54", "online36"]),
    ("raspis rules show ", ["raspisnoy", "classic", "georgian", "joker54", "online36"]),
    ("raspis --lang ", ["ru", "en"]),
    ("raspis --lang ru rules show g", ["georgian"]),
    ("raspis simulate --bot ", ["heuristic", "pimc"]),
])
def test_completion_offers_the_values(line: str, offered: list[str]) -> None:
    done = _run(env=_bash_completion(line))
    assert done.stdout.split() == offered, done.stdout


@pytest.mark.parametrize("args", [(), ("rules",), ("rules", "show"), ("analyze",), ("validate",)])
def test_h_is_help(args: tuple[str, ...]) -> None:
    short, long = _run(*args, "-h"), _run(*args, "--help")
    assert short.returncode == long.returncode == 0, short.stdout + short.stderr
    assert short.stdout == long.stdout and short.stdout.startswith("Usage: raspis")


@pytest.mark.slow  # a fresh install's first analysis compiles the solver (shared by the suite)
def test_the_first_compile_is_announced_with_progress(compiled_solver: CompiledSolver) -> None:
    """A fresh install's first ``raspis analyze`` (numba's cache empty) says it
    compiles before it does, then a line for each part compiled, every part
    counted, the analysis after it; the next run, the cache warm, says nothing."""
    pytest.importorskip("numba")
    lines = compiled_solver.first_stderr.splitlines()
    assert compiled_solver.first_status == 0, compiled_solver.first_stderr
    assert lines[0] == "compiling the solver once, about 20 s (kept for the next runs)"
    total = len(lines) - 1
    assert total > 20 and lines[1:] == [f"solver: {n} of {total} parts compiled" for n in range(1, total + 1)]
    again = subprocess.run([sys.executable, "-m", "raspis_cli", *FIRST_ANALYSIS], cwd=ROOT,
                           env=compiled_solver.env(), capture_output=True, text=True, encoding="utf-8",
                           timeout=HANG)
    assert again.returncode == 0 and again.stderr == "", again.stderr
    assert again.stdout.startswith("Game 1")


@pytest.mark.parametrize(("lang", "words", "part"), [
    ("en", "compiling the solver once, about 20 s", "solver: 2 of 34 parts compiled"),
    ("ru", "решатель компилируется один раз, около 20 с", "решатель: скомпилировано частей: 2 из 34"),
])
def test_the_compile_is_said_in_the_interfaces_language(lang: str, words: str, part: str,
                                                          monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """The announcement and each part compiled in English and in Russian
    (the compile itself stood in for: three parts reported)."""
    from raspis_cli.cli.analyze_cmd import say_if_compiling
    from raspis_cli.solver import kernel, warm
    from raspis_cli.text.i18n import speaking

    monkeypatch.setattr(kernel, "needs_compiling", lambda: True)
    monkeypatch.setattr(kernel, "compiled_functions", lambda: 34)
    monkeypatch.setattr(warm, "compile_kernel", lambda report: [report(n) for n in (1, 2, 3)])
    with speaking(lang):
        say_if_compiling()
    said = capsys.readouterr().err.splitlines()
    assert said[0].startswith(words) and said[2] == part and len(said) == 4, said


def test_nothing_is_said_without_the_compiled_solver() -> None:
    """Under ``RASPIS_NO_JIT`` (or without numba) nothing is compiled, and nothing said."""
    done = subprocess.run([sys.executable, "-c", "from raspis_cli.cli.analyze_cmd import say_if_compiling; "
                           "say_if_compiling()"], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT),
                                                                 "RASPIS_NO_JIT": "1"},
                          capture_output=True, text=True, encoding="utf-8", timeout=HANG)
    assert done.returncode == 0 and done.stderr == "", done.stderr
