"""The README's command list and ``raspis --help`` say the same thing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.clikit import run_cli

ROOT = Path(__file__).resolve().parent.parent


def _commands_in_help() -> set[str]:
    text = run_cli("--help").stdout
    section = text.split("Commands:", 1)[1]
    return {m.group(1) for m in re.finditer(r"^\s{2}(\w+)\s", section, re.MULTILINE)}


def _commands_in_readme() -> set[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    table = text.split("## Commands", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"`raspis (\w+)", table))


def test_every_command_in_help_is_in_the_readme_and_back() -> None:
    assert _commands_in_help() == _commands_in_readme()


@pytest.mark.parametrize("command", sorted(_commands_in_readme()))
def test_every_command_has_help(command: str) -> None:
    done = run_cli(command, "--help")
    assert done.returncode == 0
    assert done.stdout.startswith("Usage: raspis " + command)
