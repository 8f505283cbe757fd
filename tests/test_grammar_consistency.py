"""One description of the notation: the reader (the fast path that parses every
file), the pyparsing grammar ``FILE`` (which draws the diagram) and the EBNF
(``grammar/grammar.ebnf``) must agree."""

from __future__ import annotations

import re
from pathlib import Path

import pyparsing as pp
import pytest

from raspis_cli.model.lines import KEYWORD_RULES_HEAD, PAIRS_LINES, keyword_rules_ebnf
from raspis_cli.notation import write_games
from raspis_cli.notation.file_grammar import FILE, build_file_grammar
from raspis_cli.notation.jsoncodec import games_to_json_text, read_json_text
from raspis_cli.notation.reader import read_text, split_lines

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "grammar" / "corpus").rglob("*.rsp")) + sorted((ROOT / "samples").glob("*.rsp"))

CONTEXT_CODES = {
    "E213": "sheet or final cells without a [Players] tag: needs the tags read before",
    "E304": "a joker declared as the joker: needs the deck of the game's rules",
    "E310": "a joker spelling the game's deck does not have: needs the rules' deck",
    "E311": "a joker naming the trump in a deal without one: needs the deal's trump",
}
"""Problems the reader finds from what it read before (the game's tags and
rules, the deal's trump): beyond a context-free grammar, so ``FILE`` accepts
a file that has only these."""

LEXICAL_RULES = {"bare name", "joker word", "mode", "natural", "no trump", "rank", "suit",
                 "suit word"}
"""EBNF rules inside one token: ``FILE`` reads them with the token's regular
expression or the reader's own card reader (``read_card_token``)."""


def _text(path: Path) -> str:
    return "\n".join(split_lines(path.read_bytes().decode("utf-8-sig", "replace"))) + "\n"


def _grammar_accepts(text: str) -> bool:
    try:
        FILE.parse_string(text, parse_all=True)
    except pp.ParseBaseException:
        return False
    return True


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_fast_path_and_the_pyparsing_grammar_give_the_same_verdict(path: Path) -> None:
    text = _text(path)
    codes = {d.code for d in read_text(text).diagnostics}
    assert _grammar_accepts(text) == (not codes - set(CONTEXT_CODES)), sorted(codes)


def test_the_verdicts_differ_where_the_reader_needs_context() -> None:
    """The context codes are real: each is in the corpus, and the grammar alone
    accepts the file that has it."""
    found: set[str] = set()
    for path in FILES:
        codes = {d.code for d in read_text(_text(path)).diagnostics}
        if codes and codes <= set(CONTEXT_CODES):
            assert _grammar_accepts(_text(path))
        found |= codes & set(CONTEXT_CODES)
    assert found == set(CONTEXT_CODES)


@pytest.mark.parametrize("line", [
    "  trick Анна: 3♠ Q♣ 7♦ J♥",     # a face card after the first is a card, not a name
    "  trick Boris 3♠ Q♣ 7♦",
    "  hand Boris: K♠ Д♥ 10♣",
])
def test_face_cards_in_a_trick_are_cards_in_both(line: str) -> None:
    text = f'[Players "Анна, Boris, Вера"]\n\n1. 3 Анна 9♥\n{line}\n'
    assert read_text(text).ok
    assert _grammar_accepts(text)


def test_a_trick_without_its_leader_is_refused_by_both() -> None:
    text = '[Players "Анна, Boris, Вера"]\n\n1. 3 Анна 9♥\n  trick 3♠ Q♣ 7♦\n'
    assert [d.code for d in read_text(text).diagnostics] == ["E312"]
    assert not _grammar_accepts(text)


def _grammar_names() -> set[str]:
    seen: set[int] = set()
    names: set[str] = set()

    def walk(element: pp.ParserElement) -> None:
        if id(element) in seen:
            return
        seen.add(id(element))
        if element.customName:
            names.add(element.customName)
        for sub in getattr(element, "exprs", None) or []:
            walk(sub)
        inner = getattr(element, "expr", None)
        if inner is not None:
            walk(inner)

    grammar = build_file_grammar()  # a fresh one: parsing streamlines (flattens) FILE's tree
    walk(grammar)
    for ignored in grammar.ignoreExprs:
        walk(ignored)
    # pyparsing's own names: literals ("':' | '='") and the end of the text
    return {n for n in names if not n.startswith("'") and n != "end of text"}


def _ebnf_rules() -> set[str]:
    text = (ROOT / "grammar" / "grammar.ebnf").read_text(encoding="utf-8")
    text = re.sub(r"\(\*.*?\*\)", "", text, flags=re.S)
    return {m.group(1).strip() for m in re.finditer(r"^([a-z][a-z0-9 -]*?)\s*=", text, re.M)}


def test_the_ebnf_names_the_rules_of_the_pyparsing_grammar() -> None:
    rules = _ebnf_rules()
    assert {"file", "game", "deal line", "trick line", "cell", "play"} <= rules
    assert rules >= LEXICAL_RULES
    assert _grammar_names() == rules - LEXICAL_RULES


def test_the_ebnf_keyword_rules_are_made_from_the_table_of_line_kinds() -> None:
    """A keyword added to ``raspis_cli/model/lines.py`` is in the EBNF once
    ``python grammar/make_diagram.py`` has run (and only then)."""
    text = (ROOT / "grammar" / "grammar.ebnf").read_text(encoding="utf-8")
    start = text.index(KEYWORD_RULES_HEAD)
    assert text[start:text.index("\n\n", start) + 1] == keyword_rules_ebnf()


def test_every_line_of_pairs_is_read_written_and_carried_in_json() -> None:
    """Each row of the table of lines of pairs works through the reader, the
    writer and the JSON codec with no code of its own: a line of each reads
    into the deal's field and is written back the same."""
    text = '[Players "Анна, Boris, Вера"]\n\n1. 3 Анна 9♥\n' + "".join(
        f"  {kind.keyword} Анна 1, Boris 2, Вера 0\n" for kind in PAIRS_LINES[1:])
    read = read_text(text)
    assert read.ok
    deal = read.games[0].deals[0]
    for kind in PAIRS_LINES:
        if kind.field != "bids":
            assert getattr(deal, kind.field) == {"Анна": 1, "Boris": 2, "Вера": 0}, kind.field
    back = read_json_text(games_to_json_text(read.games)).games[0].deals[0]
    for kind in PAIRS_LINES:
        assert getattr(back, kind.field) == getattr(deal, kind.field)
    russian = write_games(read.games, "ru")
    again = read_text(russian).games[0].deals[0]
    for kind in PAIRS_LINES:
        assert getattr(again, kind.field) == getattr(deal, kind.field)
