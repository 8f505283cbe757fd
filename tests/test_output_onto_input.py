"""A careless command line never loses a record: no command writes its
output onto one of its inputs (the same file after resolving links), nor
over an existing file without --force."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.storekit import SAMPLES, run

GAME = SAMPLES / "classic.rsp"

ONTO_INPUT: dict[str, list[str]] = {
    "report onto its record": ["report", "{game}", "-o", "{game}"],
    "report onto a link to its record": ["report", "{game}", "-o", "{link}", "--force"],
    "convert to JSON onto its record": ["convert", "{game}", "--to", "json", "-o", "{game}", "--force"],
    "convert to notation onto a hard link": ["convert", "{game}", "--to", "notation", "-o", "{hard}",
                                             "--force"],
    "convert through a link onto the record": ["convert", "{link}", "--to", "jsonl", "-o", "{game}"],
    "convert a folder into a file of it": ["convert", "{dir}", "--to", "json", "-o", "{game}", "--force"],
    "convert a folder onto a hard link of its file": ["convert", "{dir}", "--to", "json", "-o", "{hard}",
                                                      "--force"],
    "analyze --annotate onto its record": ["analyze", "{game}", "--annotate", "-o", "{game}", "--force"],
}


@pytest.fixture
def game(tmp_path: Path) -> Path:
    folder = tmp_path / "games"
    folder.mkdir()
    path = folder / "game.rsp"
    shutil.copyfile(GAME, path)
    (tmp_path / "link.rsp").symlink_to(path)
    os.link(path, tmp_path / "hard.rsp")
    return path


def _argv(template: list[str], game: Path) -> list[str]:
    root = game.parent.parent
    return [a.format(game=game, link=root / "link.rsp", hard=root / "hard.rsp", dir=game.parent)
            for a in template]


@pytest.mark.parametrize("case", sorted(ONTO_INPUT))
def test_no_output_onto_an_input(case: str, game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = GAME.read_bytes()
    code, out, err = run(capsys, *_argv(ONTO_INPUT[case], game))
    assert code == 2 and "is the input" in err and len(err.splitlines()) == 1, (out, err)
    assert game.read_bytes() == before
    assert (game.parent.parent / "link.rsp").is_symlink()


def test_the_club_page_not_onto_its_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "club.duckdb"
    assert run(capsys, "load", str(GAME), "--db", str(db), "-q")[0] == 0
    before = db.read_bytes()
    code, _, err = run(capsys, "report", "--db", str(db), "-o", str(db), "--force")
    assert code == 2 and "is the input" in err, err
    assert db.read_bytes() == before


EXISTING: dict[str, list[str]] = {
    "simulate": ["simulate", "-p", "3", "-o", "{out}"],
    "report": ["report", str(GAME), "-o", "{out}"],
    "convert": ["convert", str(GAME), "--to", "json", "-o", "{out}"],
    "new": ["new", "-p", "Анна,Boris,Vera", "-o", "{out}"],
}


@pytest.mark.parametrize("command", sorted(EXISTING))
def test_an_existing_file_only_with_force(command: str, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "existing.rsp"
    out.write_text("a record someone wrote\n", encoding="utf-8")
    argv = [a.format(out=out) for a in EXISTING[command]]
    code, _, err = run(capsys, *argv)
    assert code == 2 and "--force" in err and "exists" in err, err
    assert out.read_text(encoding="utf-8") == "a record someone wrote\n"
    code, _, err = run(capsys, *argv, "--force")
    assert code == 0, err
    assert out.read_text(encoding="utf-8") != "a record someone wrote\n"


def test_the_check_is_one_helper() -> None:
    """Every refusal comes from files.outputs (the commands only ask it)."""
    from raspis_cli.files.outputs import output_refusal

    assert output_refusal("-", ["-"]) is None
    assert output_refusal(str(GAME), [str(GAME)], force=True) is not None
    assert output_refusal(str(GAME)) is not None
    assert output_refusal(str(GAME), force=True) is None
    assert output_refusal(str(SAMPLES)) is not None  # a folder
