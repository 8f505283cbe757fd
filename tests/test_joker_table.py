"""The joker's declarations are one table (``raspis_cli/model/joker_modes.py``): every
part that names a mode takes it from there, so a row (or a phrase) added
works everywhere with no code of its own, and these tests fail where it does not."""

from __future__ import annotations

from pathlib import Path

import pytest

from raspis_cli.model.cards import Suit, parse_card
from raspis_cli.model.joker import JokerDecl
from raspis_cli.model.joker_modes import (
    FOLLOW_MODES,
    JOKER_MODE_ROWS,
    JOKER_MODES,
    KERNEL_CODES,
    LEAD_MODES,
    MODE_RULE_HEAD,
    mode_rule_ebnf,
)
from raspis_cli.notation.file_grammar import FILE
from raspis_cli.notation.line_grammar import parse_decl
from raspis_cli.notation.reader import read_text
from raspis_cli.notation.writer import write_game
from raspis_cli.report.strings import JOKER_WORDS, joker_words
from raspis_cli.rules import OPTIONS
from raspis_cli.solver import kernel as solver_kernel
from raspis_cli.store.schema import TABLES

ROOT = Path(__file__).resolve().parent.parent
PHRASES = [(row.mode, phrase) for row in JOKER_MODE_ROWS for phrase in row.spellings]


@pytest.mark.parametrize(("mode", "phrase"), PHRASES, ids=[p for _, p in PHRASES])
def test_every_phrase_of_the_table_is_read_as_its_mode(mode: str, phrase: str) -> None:
    """Each phrase, alone and with what it names, in the reader's declaration
    parser and in a whole record read by the fast path and the pyparsing grammar."""
    row = next(r for r in JOKER_MODE_ROWS if r.mode == mode)
    assert parse_decl(phrase) == (mode, None, None)
    assert parse_decl(phrase.upper()) == (mode, None, None)
    if row.names == "card":
        assert parse_decl(f"{phrase} A♦") == (mode, None, parse_card("A♦"))
        named = "A♦"
    else:
        assert parse_decl(f"{phrase} ♠") == (mode, Suit.S, None)
        named = "♠"
    seat_phrase = f"{phrase} {named}"
    text = ('[Players "Анна, Boris, Vera"]\n[Option "joker_lead_modes=high,lowest,low,take,as"]\n'
            f"1. 1 Vera 8♣ | 1/1 | 0/0 | 0/0\n  trick Анна: 7♠({seat_phrase}) 6♥ 9♥\n")
    games = read_text(text).games
    plays = games[0].deals[0].tricks
    assert plays is not None and plays[0][0].joker is not None
    assert plays[0][0].joker.mode == mode
    FILE.parse_string(text, parse_all=True)


def test_no_phrase_names_two_modes_and_every_mode_has_its_words() -> None:
    seen: dict[tuple[str, ...], str] = {}
    for mode, phrase in PHRASES:
        assert seen.setdefault(tuple(phrase.split()), mode) == mode, phrase
        assert phrase == phrase.lower().strip() and "  " not in phrase
    assert tuple(row.mode for row in JOKER_MODE_ROWS) == JOKER_MODES


def test_the_options_the_writer_and_the_declarations_take_the_modes_from_the_table() -> None:
    assert OPTIONS["joker_lead_modes"].choices == LEAD_MODES
    assert OPTIONS["joker_follow_modes"].choices == FOLLOW_MODES
    for row in JOKER_MODE_ROWS:
        decl = (JokerDecl(row.mode, card=parse_card("A♦")) if row.names == "card"
                else JokerDecl(row.mode, suit=Suit.H))
        assert str(JokerDecl(row.mode)) == row.text
        text = ('[Players "Анна, Boris, Vera"]\n'
                "1. 1 Vera 8♣ | 1/1 | 0/0 | 0/0\n  trick Анна: 7♠ 6♥ 9♥\n")
        game = read_text(text).games[0]
        tricks = game.deals[0].tricks
        assert tricks is not None
        tricks[0][0].joker = decl
        written = write_game(game)
        assert f"({row.mode} " in written
        again = read_text(written).games[0].deals[0].tricks
        assert again is not None and again[0][0].joker == decl


def test_the_reports_the_kernel_the_schema_and_the_ebnf_take_the_modes_from_the_table() -> None:
    for row in JOKER_MODE_ROWS:
        assert JOKER_WORDS["en"][row.mode] == row.mode
        assert JOKER_WORDS["ru"][row.mode] == row.russian
        assert joker_words("ru", row.mode, None, None) == row.russian
    assert solver_kernel.MODES == KERNEL_CODES
    assert sorted(KERNEL_CODES.values()) == list(range(1, len(JOKER_MODE_ROWS) + 1))
    column = next(c for c in TABLES["plays"] if c.name == "joker_mode")
    assert all(mode in column.doc for mode in JOKER_MODES)
    ebnf = (ROOT / "grammar" / "grammar.ebnf").read_text(encoding="utf-8")
    start = ebnf.index(MODE_RULE_HEAD)
    assert ebnf[start:ebnf.index(" ;\n", start) + 3] == mode_rule_ebnf()
