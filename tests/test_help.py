"""``raspis --help`` lists the commands in groups, in the order of a
scorekeeper's day, and the README's command table says the same."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from raspis_cli.cli.registry import COMMAND_GROUPS, COMMANDS
from tests.clikit import run_cli

ROOT = Path(__file__).resolve().parent.parent
DAY = {"At the table": ["new", "live", "score", "explain"],
       "Records": ["validate", "show", "fmt", "convert"],
       "Club": ["load", "stats", "query", "report", "export"],
       "Analysis": ["analyze", "simulate"],
       "Rules": ["rules"]}


def _sections(text: str) -> dict[str, list[str]]:
    """The help's sections after Options: heading -> the commands listed."""
    out: dict[str, list[str]] = {}
    heading = None
    for line in text.split("\n\n", 2)[-1].splitlines():
        if line and not line.startswith(" "):
            heading = line.rstrip(":")
            out[heading] = []
        elif heading is not None and re.match(r"^  (\w+)\s", line):
            out[heading].append(line.split()[0])
    out.pop("Options", None)
    out.pop("Опции", None)
    return out


def _commands_in_help() -> set[str]:
    return {name for names in _sections(run_cli("--help").stdout).values() for name in names}


def _commands_in_readme() -> set[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    table = text.split("## Commands", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"`raspis (\w+)", table))


def test_help_lists_the_commands_in_the_groups_of_a_day() -> None:
    sections = _sections(run_cli("--help").stdout)
    known = {name for name, *_rest in COMMANDS}
    assert {h: [n for n in names if n in DAY.get(h, [])] for h, names in sections.items()} == DAY
    extra = {n for names in sections.values() for n in names} - {n for names in DAY.values() for n in names}
    assert extra <= known  # a command added later (serve) sits in a group of its own choosing


def test_the_groups_are_russian_too() -> None:
    sections = _sections(run_cli("--help", "--lang", "ru").stdout)
    assert list(sections)[:5] == ["За столом", "Записи", "Клуб", "Анализ", "Правила"]
    assert sections["За столом"][:4] == DAY["At the table"]


def test_every_command_is_in_a_group() -> None:
    groups = {group for group, _heading in COMMAND_GROUPS}
    assert all(group in groups for _name, _module, group, _summary in COMMANDS)


def test_the_readme_table_is_grouped_as_help_is() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    table = text.split("## Commands", 1)[1].split("\n## ", 1)[0]
    order = re.findall(r"`raspis (\w+)", table)
    help_order = [n for names in _sections(run_cli("--help").stdout).values() for n in names]
    assert order == help_order


def test_every_command_in_help_is_in_the_readme_and_back() -> None:
    assert _commands_in_help() == _commands_in_readme()


@pytest.mark.slow
@pytest.mark.parametrize("command", sorted(_commands_in_readme()))
def test_every_command_has_help(command: str) -> None:
    done = run_cli(command, "--help")
    assert done.returncode == 0
    assert done.stdout.startswith("Usage: raspis " + command)
