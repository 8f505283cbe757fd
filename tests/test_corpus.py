"""The conformance corpus of grammar/corpus: valid files read cleanly and
format to their golden text; invalid files give exactly the expected
diagnostics."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from raspis_cli.notation import read_file, read_text, write_games
from raspis_cli.notation.file_grammar import FILE
from raspis_cli.notation.jsoncodec import games_to_json_text, read_json_text
from raspis_cli.notation.reader import split_lines
from tests.notation_helpers import games_key

CORPUS = Path(__file__).resolve().parent.parent / "grammar" / "corpus"
VALID = sorted((CORPUS / "valid").glob("*.rsp"))
INVALID = sorted((CORPUS / "invalid").glob("*.rsp"))


def test_corpus_is_there() -> None:
    assert len(VALID) >= 5 and len(INVALID) >= 5


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.name)
def test_valid_file_formats_to_its_golden_text(path: Path) -> None:
    result = read_file(path)
    assert result.diagnostics == []
    golden = path.with_suffix(".fmt").read_text(encoding="utf-8")
    assert write_games(result.games) == golden
    again = read_text(golden)
    assert again.ok
    assert write_games(again.games) == golden  # idempotent
    assert games_key(again.games) == games_key(result.games)  # parse(fmt(x)) == parse(x)


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.name)
def test_valid_file_round_trips_through_json(path: Path) -> None:
    golden = path.with_suffix(".fmt").read_text(encoding="utf-8")
    games = read_text(golden).games
    back = read_json_text(games_to_json_text(games))
    assert back.ok
    assert write_games(back.games) == golden


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.name)
def test_pyparsing_grammar_accepts_valid_file(path: Path) -> None:
    """The pyparsing grammar (EBNF, diagram) describes the files the reader reads."""
    text = "\n".join(split_lines(path.read_bytes().decode("utf-8-sig"))) + "\n"
    FILE.parse_string(text, parse_all=True)


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.name)
def test_invalid_file_gives_expected_diagnostics(path: Path) -> None:
    old = os.getcwd()
    os.chdir(path.parent)  # the expected files name the file relative to its folder
    try:
        result = read_file(path.name)
    finally:
        os.chdir(old)
    got = "".join(d.render() + "\n" for d in result.diagnostics)
    assert got == path.with_suffix(".expected").read_text(encoding="utf-8")
    assert result.diagnostics, "an invalid file must have diagnostics"


def _examples() -> list[str]:
    text = (CORPUS.parent.parent / "docs" / "NOTATION.md").read_text(encoding="utf-8")
    blocks = text.split("```")[1::2]
    return [b.lstrip("\n") for b in blocks if b.lstrip("\n").startswith("[Event")]


def test_notation_md_examples_are_canonical_records() -> None:
    examples = _examples()
    assert len(examples) == 4  # one complete game at each level of detail, and one stopped early
    for block in examples:
        result = read_text(block)
        assert result.ok, [d.render() for d in result.diagnostics]
        assert write_games(result.games) == block
    # the three levels follow the game stopped early
    sheet, scores, full = (read_text(b).games[0] for b in examples[-3:])
    assert all(d.scores is None and d.tricks is None for d in sheet.deals)
    assert all(d.scores is not None and d.totals is not None for d in scores.deals)
    assert all(d.tricks and d.hands for d in full.deals)
