"""The grammar module on its own: tokens, lines, declarations, comments."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from raspis_cli.model.cards import Card, Suit, parse_card
from raspis_cli.model.diagnostics import Diagnostic, syntax_error
from raspis_cli.notation import file_grammar, line_grammar, quoting, scanner, tokens
from raspis_cli.text.messages import Message


def test_grammar_imports_only_pyparsing_and_the_card_model() -> None:
    # and the stdlib-only bottom layers: the interface language and "did you mean"
    modules = set()
    trees = [ast.parse(Path(str(m.__file__)).read_text(encoding="utf-8"))
             for m in (tokens, scanner, quoting, line_grammar, file_grammar)]
    for node in (n for tree in trees for n in ast.walk(tree)):
        if isinstance(node, ast.Import):
            modules |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules.add(node.module)
    assert modules <= {"__future__", "re", "collections.abc", "dataclasses", "typing",
                       "pyparsing", "raspis_cli.model.cards", "raspis_cli.model.diagnostics",
                       "raspis_cli.text.i18n", "raspis_cli.text.messages",
                       "raspis_cli.model.lines", "raspis_cli.model.joker_modes", "raspis_cli.text.suggest",
                       "raspis_cli.model.deal_kinds",
                       "raspis_cli.text.textsafe",
                       "raspis_cli.notation.tokens", "raspis_cli.notation.scanner",
                       "raspis_cli.notation.quoting",
                       "raspis_cli.notation.line_grammar"}


@pytest.mark.parametrize("token,code", [
    ("10♥", "10H"), ("10H", "10H"), ("TH", "10H"), ("th", "10H"), ("Д♠", "QS"), ("Тч", "AH"),
    ("RJ", "RJ"), ("bj", "BJ"), ("6♦\ufe0f", "6D"), ("Кп", "KS"),
])
def test_card_tokens(token: str, code: str) -> None:
    assert tokens.read_card_token(token) == parse_card(code)


def test_joker_words_and_non_cards() -> None:
    assert tokens.read_card_token("JK") == tokens.JOKER_WORD
    assert tokens.read_card_token("Дж") == tokens.JOKER_WORD
    assert tokens.read_card_token("Анна") is None
    assert tokens.read_card_token("1O♥") is None


@pytest.mark.parametrize("text,leads,expected", [
    ("take", True, ("take", None, None)),
    ("забрать", False, ("take", None, None)),
    ("discard ♥", False, ("discard", Suit.H, None)),
    ("discard ♥", True, ("discard", Suit.H, None)),  # a mode's own name: the replay judges it
    ("скинуть черви", False, ("discard", Suit.H, None)),
    ("скинуть черви", True, ("low", Suit.H, None)),
    ("по старшим пикам", True, ("high", Suit.S, None)),
    ("по старшим пикам", False, ("high", Suit.S, None)),  # no follow meaning: joker-mode
    ("по старшим козырям", True, ("high", tokens.TRUMP_WORD, None)),
    ("по младшим бубнам", True, ("lowest", Suit.D, None)),
    ("за самую младшую", True, ("low", None, None)),
    ("low ♦", True, ("low", Suit.D, None)),
    ("low ♦", False, ("low", Suit.D, None)),
    ("as A♦", True, ("as", None, parse_card("AD"))),
    ("как 10 ♦", False, ("as", None, parse_card("10D"))),
    ("старшим", True, ("take", None, None)),
    ("старшим пикам", True, ("high", Suit.S, None)),
    ("младшим", True, ("low", None, None)),
    ("младшим бубнам", True, ("lowest", Suit.D, None)),
    ("беру ♥", False, ("take", Suit.H, None)),
])
def test_declarations(text: str, leads: bool, expected: line_grammar.Decl) -> None:
    assert line_grammar.parse_decl(text, leads) == expected


@pytest.mark.parametrize("text", ["jump", "", "take ♥ ♦", "as", "as ♥", "за бубну", "скинуть бубну пику"])
@pytest.mark.parametrize("leads", [True, False])
def test_bad_declarations(text: str, leads: bool) -> None:
    decl = line_grammar.parse_decl(text, leads)
    assert decl is None or (text == "as" and decl == ("as", None, None))


def test_deal_line_values_and_columns() -> None:
    line = line_grammar.parse_line("12. 9 dark Boris K♣ | 1/0 -10 35 | - | 2")
    assert isinstance(line, line_grammar.DealLine)
    assert (line.number, line.cards, line.kind, line.dealer) == (12, 9, "dark", "Boris")
    assert line.trump == parse_card("KC")
    assert line.cols == {"number": 1, "cards": 5, "kind": 7, "dealer": 12, "trump": 18,
                         "cells": 21}
    assert line.cells is not None
    first, empty, bid_only = line.cells
    assert (first.bid, first.taken, first.score, first.total) == (1, 0, -10, 35)
    assert first.cols == {"bid": 23, "taken": 25, "score": 27, "total": 31}
    assert (empty.bid, empty.taken) == (None, None)
    assert (bid_only.bid, bid_only.taken) == (2, None)


@pytest.mark.parametrize("text,trump", [
    ("1. 1 A -", tokens.NONE_WORD), ("1. 1 A нет", tokens.NONE_WORD), ("1. 1 A б/к", tokens.NONE_WORD),
    ("1. 1 A ♥", Suit.H), ("1. 1 A черви", Suit.H), ("1. 1 A JK", tokens.JOKER_WORD),
    ("1. 1 A", None),
])
def test_trump_spellings(text: str, trump: object) -> None:
    line = line_grammar.parse_line(text)
    assert isinstance(line, line_grammar.DealLine)
    assert line.trump == trump


def test_fast_and_full_paths_agree() -> None:
    """A canonical line (fast path) and a loosely spaced one (regex path)."""
    fast = line_grammar.parse_line("  trick Анна: A♥ 7♠ 6♥")
    slow = line_grammar.parse_line("  trick   Анна :  A♥  7♠  6♥")
    assert isinstance(fast, line_grammar.TrickLine) and isinstance(slow, line_grammar.TrickLine)
    assert fast.cards == slow.cards and fast.players == slow.players
    assert fast.cols == [9, 18, 21]
    assert slow.cols == [11, 23, 27]
    code = "1. 1 A 9♥ | 0/0 5 5 | 1/1 - 7"
    bar = code.index("|")
    fast_cells = line_grammar._fast_cells(code, bar)
    slow_cells = line_grammar._parse_cells(code[bar + 1 :], bar + 1)
    assert isinstance(slow_cells, list) and fast_cells is not None
    assert [c.cols for c in fast_cells] == [c.cols for c in slow_cells]
    assert fast_cells[1].cols == {"bid": 23, "taken": 25, "total": 29}


def test_trick_with_names_and_declarations() -> None:
    line = line_grammar.parse_line('trick Анна: 7S(take) Boris QH "Vera K" KH(as 10♦)')
    assert isinstance(line, line_grammar.TrickLine)
    assert line.players == ["Анна", "Boris", "Vera K"]
    assert line.cards == [parse_card(c) for c in ("7S", "QH", "KH")]
    assert line.decls == [("take", None, None), None, ("as", None, parse_card("10D"))]


@pytest.mark.parametrize("text,code,column", [
    ("  trick Boris: A♥ 1O♥", "E303", 19),
    ("  hand Boris: A♥ 1O♥", "E303", 18),
    ("  bids Boris x", "E305", 14),
    ("hello", "E201", 1),
    ("[Event Friday]", "E101", 1),
    ("1. 1 A 9♥ | 1/1 | x", "E211", 19),
])
def test_line_errors(text: str, code: str, column: int) -> None:
    err = line_grammar.parse_line(text)
    assert isinstance(err, Diagnostic)
    assert (err.code, err.column) == (code, column)


def test_scan_keeps_comments_and_columns() -> None:
    errors: list[tuple[str, Message, int, int, str]] = []
    lines = list(scanner.scan(['[Event "a;b{c}"] ; note', "1. 1 A ♥ {x", "y} | 1/1"], errors))
    assert errors == []
    assert lines[0].code.rstrip() == '[Event "a;b{c}"]'
    assert [c.text for c in lines[0].comments] == ["; note"]
    assert [c.text for c in lines[1].comments] == ["{x\ny}"]
    assert lines[2].code == "   | 1/1"


def test_render_diagnostic_has_caret() -> None:
    d = syntax_error("E303", "expected a card", 3, 5, "\ttrick 1O♥", "f.rsp")
    # a tab is shown as \t like every control character (raspis_cli.text.textsafe); the caret follows
    assert d.render() == "f.rsp:3:5: E303: expected a card\n    3 | \\ttrick 1O♥\n      |      ^"


def test_needs_quotes() -> None:
    assert not quoting.needs_quotes("Анна")
    for name in ("Анна Петровна", "dark", "KS", "2pac", "hand", "-", 'a"b', ""):
        assert quoting.needs_quotes(name), name
    assert quoting.quote_name('a"b') == '"a\\"b"'


def test_line_elements_are_the_live_patterns() -> None:
    assert file_grammar.LINE_ELEMENTS["deal"].re.fullmatch("1. 1 A 9♥") is not None
    assert isinstance(tokens.read_card_token("A♥"), Card)
