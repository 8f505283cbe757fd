"""The notation as one pyparsing grammar, built from the same token patterns as the line parser.

:data:`FILE` documents the language, draws the railroad diagram (``grammar/make_diagram.py``) and
is checked against the conformance corpus; :data:`LINE_ELEMENTS` are the line patterns as pyparsing
elements. Both are built at first use: reading records never imports pyparsing.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pyparsing as pp

from raspis_cli.model.lines import KEYWORD_SPELLINGS, PAIRS_LINES
from raspis_cli.notation.tokens import (
    CANONICAL_KEYWORD,
    KEYWORDS,
    LINE_PATTERNS,
    P_DECL,
    P_INT,
    P_KIND,
    P_NAME,
    P_NAT,
    P_QUOTED,
    P_TAG_NAME,
    P_TOKEN,
    read_card_token,
    read_trump,
)

__all__ = ["build_file_grammar", "FILE", "LINE_ELEMENTS"]


def _line_elements() -> dict[str, pp.Regex]:
    import pyparsing as pp

    elements = {}
    for key, (name, pattern, flags) in LINE_PATTERNS.items():
        element = pp.Regex(pattern, flags=flags)
        element.set_name(name)
        elements[key] = element
    return elements


_LAZY: dict[str, object] = {}


def __getattr__(name: str) -> object:
    """``LINE_ELEMENTS`` and ``FILE``, the pyparsing forms, built at first use."""
    if name in ("LINE_ELEMENTS", "FILE"):
        if name not in _LAZY:
            _LAZY[name] = _line_elements() if name == "LINE_ELEMENTS" else build_file_grammar()
        return _LAZY[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")



# --- the pyparsing grammar of a whole file (documentation, diagram, tests) ----


def build_file_grammar() -> pp.ParserElement:
    """The notation as one pyparsing grammar, token by token.

    The live parser matches one regular expression per line; this grammar is
    built from the same token patterns, describes the same language, and is
    what ``grammar/make_diagram.py`` draws. Comments are ignored, line breaks
    are significant.
    """
    import pyparsing as pp

    ws = " \t\ufeff"
    pp.ParserElement.set_default_whitespace_chars(ws)
    try:
        nl = pp.LineEnd().suppress().set_name("end of line")
        eol = pp.OneOrMore(nl)

        def tok(pattern: str, name: str, flags: int = 0) -> pp.ParserElement:
            return pp.Regex(pattern, flags=flags).set_name(name)

        # a card is a token the reader reads as a card (read_card_token, the same
        # function); a name in a trick or hand is one it does not
        card = tok(P_TOKEN, "card").add_condition(lambda t: read_card_token(t[0]) is not None)
        name = tok(P_NAME, "name")
        player = name.copy().add_condition(lambda t: read_card_token(t[0]) is None)
        number = tok(P_NAT, "number")
        points = tok(P_INT, "integer")
        kw = {k: pp.MatchFirst([pp.Keyword(w, ident_chars=pp.identbodychars + "-/")
                                for w in sorted((w for w, v in KEYWORDS.items() if v == k),
                                                key=len, reverse=True)]
                                ).set_name(f"{KEYWORD_SPELLINGS[k][0]} kw")
              for k in CANONICAL_KEYWORD}

        tag = (pp.Suppress("[") + tok(P_TAG_NAME, "tag name") + tok(P_QUOTED, "string")
               + pp.Suppress("]")).set_name("tag pair")
        tag_line = (pp.OneOrMore(tag) + eol).set_name("tag line")

        kind = tok(P_KIND, "kind", re.IGNORECASE)
        trump = tok(r"[^\s|]+", "trump").add_condition(lambda t: read_trump(t[0]) is not None)
        bid_taken = tok(r"(?:\d+|-)(?:/(?:\d+|-)?)?|/(?:\d+|-)", "bid taken")
        cell = (pp.Opt(bid_taken) + pp.Opt(tok(rf"{P_INT}|-", "score")
                                           + pp.Opt(tok(rf"{P_INT}|-", "total"))))
        cell = cell.set_name("cell")
        cells = (pp.OneOrMore(pp.Suppress("|") + cell)).set_name("cells")
        deal_line = (tok(rf"{P_NAT}[.)]?", "deal number") + number.copy().set_name("cards")
                     + pp.Opt(kind) + name.copy().set_name("dealer")
                     + pp.Opt(trump) + pp.Opt(cells) + eol).set_name("deal line")

        hand_line = (kw["hand"] + name + pp.Opt(":") + pp.ZeroOrMore(card) + eol)
        hand_line = hand_line.set_name("hand line")
        decl = tok(P_DECL, "declaration")
        entry = pp.Opt(player + pp.Opt(":")) + card + pp.Opt(decl)
        lead = (player + pp.Opt(":") + card + pp.Opt(decl)).set_name("lead")
        trick_line = (kw["trick"] + lead + pp.ZeroOrMore(entry.set_name("play")) + eol)
        trick_line = trick_line.set_name("trick line")
        pair = (name + pp.Opt(pp.one_of(": =")) + points + pp.Opt(",")).set_name("pair")
        pairs_kw = pp.MatchFirst([kw[k.field] for k in PAIRS_LINES]).set_name("pairs kw")
        pairs_line = (pairs_kw + pp.OneOrMore(pair) + eol).set_name("pairs line")
        penalty_line = (kw["penalty"] + name + pp.Opt(":") + points
                        + pp.Opt(tok(r"[^\n]+", "reason")) + eol).set_name("penalty line")
        replayed_line = (kw["replayed"] + eol).set_name("replayed line")
        detail_line = (hand_line | trick_line | pairs_line | penalty_line
                       | replayed_line).set_name("detail line")
        deal = (deal_line + pp.ZeroOrMore(detail_line)).set_name("deal")
        final_line = (kw["final"] + (pp.OneOrMore(pp.Suppress("|") + points)
                                     | pp.OneOrMore(pair)) + eol).set_name("final line")
        unfinished_line = (kw["unfinished"] + eol).set_name("unfinished line")
        body = (deal | final_line | unfinished_line).set_name("body line")
        game = (pp.OneOrMore(tag_line) + pp.ZeroOrMore(body)) | pp.OneOrMore(body)
        game = game.set_name("game")
        blank_line = nl.copy().set_name("blank line")
        grammar = (pp.ZeroOrMore(blank_line) + pp.ZeroOrMore(game) + pp.StringEnd())
        grammar = grammar.set_name("file")
        comment = (pp.Regex(r";[^\n]*").set_name("line comment")
                   | pp.Regex(r"\{[^}]*\}").set_name("block comment"))
        grammar.ignore(comment)
        return grammar
    finally:
        pp.ParserElement.set_default_whitespace_chars(" \n\t\r")


if TYPE_CHECKING:
    LINE_ELEMENTS: dict[str, pp.Regex]
    FILE: pp.ParserElement
"""The whole notation as a pyparsing grammar (see :func:`build_file_grammar`)."""
