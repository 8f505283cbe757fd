"""The joker's declarations are one table (``raspis_cli/model/joker_modes.py``): every
part that names a mode takes it from there, so a row (or a phrase) added
works everywhere with no code of its own, and these tests fail where it does not."""

from __future__ import annotations

from pathlib import Path

import pytest

from raspis_cli.model.cards import Suit, parse_card
from raspis_cli.model.joker import JOKER_WORDS, JokerDecl
from raspis_cli.model.joker_modes import (
    BY_MODE,
    FOLLOW_MODES,
    JOKER_MODE_ROWS,
    JOKER_MODES,
    KERNEL_CODES,
    LEAD_MODES,
    MODE_PHRASES,
    MODE_RULE_HEAD,
    mode_rule_ebnf,
)
from raspis_cli.notation.file_grammar import FILE
from raspis_cli.notation.line_grammar import parse_decl
from raspis_cli.notation.reader import read_text
from raspis_cli.notation.writer import write_game
from raspis_cli.report.strings import joker_words
from raspis_cli.rules import OPTIONS
from raspis_cli.solver import kernel as solver_kernel
from raspis_cli.store.schema import TABLES
from raspis_cli.text.i18n import _, speaking

ROOT = Path(__file__).resolve().parent.parent
PHRASES = [(row.mode, phrase) for row in JOKER_MODE_ROWS for phrase in row.spellings]


@pytest.mark.parametrize(("mode", "phrase"), PHRASES, ids=[p for _, p in PHRASES])
def test_every_phrase_of_the_table_is_read_as_its_mode(mode: str, phrase: str) -> None:
    """Each phrase, where the mode may be declared (leading, following), with what it names for
    a demand and alone for the rest (and both ways when no other mode shares the phrase there),
    in the reader's declaration parser and in a whole record read by the fast path and the
    pyparsing grammar."""
    row = next(r for r in JOKER_MODE_ROWS if r.mode == mode)
    named = "A♦" if row.names == "card" else "♠"
    what = (mode, None, parse_card("A♦")) if row.names == "card" else (mode, Suit.S, None)
    for leads in [place for place, allowed in ((True, row.lead), (False, row.follow)) if allowed]:
        shared = [m for m in MODE_PHRASES[tuple(phrase.split())] if m != mode
                  and (BY_MODE[m].lead if leads else BY_MODE[m].follow)]
        if not row.demand or not shared:
            assert parse_decl(phrase, leads) == (mode, None, None)
            assert parse_decl(phrase.upper(), leads) == (mode, None, None)
        if row.demand or not shared:
            assert parse_decl(f"{phrase} {named}", leads) == what
        written = f"{phrase} {named}" if row.demand else phrase
        joker = f"7♠({written})"
        trick = f"{joker} 6♥ 9♥" if leads else f"6♥ {joker} 9♥"
        text = ('[Players "Анна, Boris, Vera"]\n[Option "joker_lead_modes=high,lowest,low,take,as"]\n'
                f"1. 1 Vera 8♣ | 1/1 | 0/0 | 0/0\n  trick Анна: {trick}\n")
        games = read_text(text).games
        plays = games[0].deals[0].tricks
        assert plays is not None
        decl = plays[0][0 if leads else 1].joker
        assert decl is not None and decl.mode == mode
        FILE.parse_string(text, parse_all=True)


def test_a_phrase_of_two_modes_is_told_apart_by_the_place_or_the_suit() -> None:
    # the table's own check (model/joker_modes.py) would not import otherwise; here its cases
    assert parse_decl("за младшую", True) == ("low", None, None)
    assert parse_decl("за младшую", False) == ("discard", None, None)
    assert parse_decl("старшим", True) == ("take", None, None)
    assert parse_decl("старшим ♠", True) == ("high", Suit.S, None)
    for _mode, phrase in PHRASES:
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
    assert set(JOKER_WORDS) == set(JOKER_MODES)  # the catalogue's words: one for each row
    for row in JOKER_MODE_ROWS:
        assert JOKER_WORDS[row.mode] == row.mode
        with speaking("en"):
            assert joker_words(row.mode, None, None) == row.mode
        with speaking("ru"):
            assert _(JOKER_WORDS[row.mode]) == row.russian
            assert joker_words(row.mode, None, None) == row.russian
    assert solver_kernel.MODES == KERNEL_CODES
    assert sorted(KERNEL_CODES.values()) == list(range(1, len(JOKER_MODE_ROWS) + 1))
    column = next(c for c in TABLES["plays"] if c.name == "joker_mode")
    assert all(mode in column.doc for mode in JOKER_MODES)
    ebnf = (ROOT / "grammar" / "grammar.ebnf").read_text(encoding="utf-8")
    start = ebnf.index(MODE_RULE_HEAD)
    assert ebnf[start:ebnf.index(" ;\n", start) + 3] == mode_rule_ebnf()
