"""docs/cli.md, the command-line reference, is what ``raspis --help`` says."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from tests.clikit import ROOT


def _script() -> ModuleType:
    from scripts import cli_reference

    return cli_reference


@pytest.mark.slow
def test_the_reference_page_is_the_help_of_every_command() -> None:
    script = _script()
    written = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert written == script.page(), "docs/cli.md is out of date: run python -m scripts.cli_reference"


def test_the_reference_has_every_command_and_subcommand() -> None:
    from raspis_cli.cli.registry import COMMANDS

    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    for name, _module, _group, _summary in COMMANDS:
        assert f"### raspis {name}\n" in text
    for sub in ("list", "show", "schedule"):
        assert f"#### raspis rules {sub}\n" in text


def test_subcommands_are_read_from_a_group_help() -> None:
    script = _script()
    text = ("Usage: raspis rules\n\nOptions:\n  --help  Show.\n\n"
            "Commands:\n  list  List.\n  show  Show a\n        preset.\n")
    assert script.subcommands(text) == ["list", "show"]
    assert script.subcommands("Usage: raspis score FILE\n\nOptions:\n  --game N  Only N.\n") == []


def test_the_page_is_in_the_site() -> None:
    assert "cli.md" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert Path(ROOT / "docs" / "cli.md").exists()
