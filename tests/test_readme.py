"""The README's set-up commands are what CI and a newcomer run."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _readme_commands() -> list[str]:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines[:16] if line.startswith("    ")]


def test_readme_starts_with_two_setup_commands() -> None:
    commands = _readme_commands()
    assert len(commands) == 2
    assert commands[0].startswith("python3 -m venv .venv")
    assert "raspis validate samples/" in commands[0]
    assert commands[1].endswith("python -m pytest -n auto")  # every core (pytest-xdist)


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert _readme_commands()[1] in [line.strip() for line in ci]
