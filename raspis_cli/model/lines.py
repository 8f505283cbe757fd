"""The kinds of line a record's notation has, and their words (a penalty line's reasons too): one table.

Every part that reads or writes a line kind takes it from here: the
grammar's fast path and its pyparsing grammar (which keywords start which
line), the reader (which field of the deal a line of pairs fills), the
writer (which lines to write, in which order, with which English or Russian
keyword), the JSON codec (the field's JSON key), the range check of
:mod:`raspis_cli.model.record` and the EBNF's keyword rules
(``grammar/make_diagram.py`` regenerates them). A new line of ``NAME
NUMBER`` pairs is one row of :data:`PAIRS_LINES` and a field of
:class:`~raspis_cli.model.record.DealRecord` of the same name.

This module is at the bottom of the package: it imports nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

__all__ = [
    "FLAG_LINES",
    "KEYWORD_SPELLINGS",
    "LINE_KEYWORDS",
    "PAIRS_LINES",
    "PAIRS_BY_FIELD",
    "PENALTY_REASONS",
    "keyword_rules_ebnf",
    "penalty_rule",
    "PairsLineKind",
]


@dataclass(frozen=True, slots=True)
class PairsLineKind:
    """A detail line of ``NAME NUMBER`` pairs, one value per player
    (``taken Анна 2, Boris 1``).

    ``field`` is its canonical English keyword, the
    :class:`~raspis_cli.model.record.DealRecord` field it fills and its key in
    JSON; ``one`` names one value (positions ``bid:Анна``, number ranges);
    ``russian`` is the keyword ``fmt --lang ru`` writes; ``spellings`` are
    the other words the reader takes; ``low``/``high`` bound a value.
    ``cell`` is the part of a sheet cell (``bid/taken score total``) the
    values may be written in instead of a line of their own (``None``: a
    line always); ``cell_negative`` whether a cell may hold a negative one.
    """

    field: str
    one: str
    russian: str
    spellings: tuple[str, ...] = ()
    low: int = -999
    high: int = 999
    cell: str | None = None
    cell_negative: bool = True

    @property
    def keyword(self) -> str:
        """The canonical English keyword: the field's name, ``-`` for ``_``."""
        return self.field.replace("_", "-")

    @property
    def words(self) -> tuple[str, ...]:
        """Every keyword that starts such a line: English, Russian, the rest."""
        return (self.keyword, self.russian, *self.spellings)


PAIRS_LINES: Final[tuple[PairsLineKind, ...]] = (
    PairsLineKind("bids", "bid", "заказы", ("bid", "заказ", "заказал"),
                  cell="bid", cell_negative=False),
    PairsLineKind("taken", "taken", "взятки", ("взял", "взяли"), cell="taken", cell_negative=False),
    PairsLineKind("scores", "score", "очки", ("score",), -999_999_999, 999_999_999, cell="score"),
    PairsLineKind("totals", "total", "счёт", ("счет", "сумма"), -999_999_999, 999_999_999,
                  cell="total"),
)
"""The lines of pairs of a deal, in the order the writer writes them (those
written in the sheet cells go there instead)."""

PAIRS_BY_FIELD: Final[dict[str, PairsLineKind]] = {kind.field: kind for kind in PAIRS_LINES}

FLAG_LINES: Final[tuple[str, ...]] = ("replayed", "unfinished")
"""Lines that are one keyword alone."""

_OTHER_LINES: Final[dict[str, tuple[str, ...]]] = {
    # canonical English, canonical Russian, other spellings
    "hand": ("hand", "рука", "hands", "руки", "карты"),
    "trick": ("trick", "взятка", "ход"),
    "penalty": ("penalty", "штраф"),
    "replayed": ("replayed", "пересдача", "переигровка"),
    "final": ("final", "итог", "итого"),
    "unfinished": ("unfinished", "недоиграна", "прервана"),
}

KEYWORD_SPELLINGS: Final[dict[str, tuple[str, ...]]] = {
    "hand": _OTHER_LINES["hand"],
    **{kind.field: kind.words for kind in PAIRS_LINES[:1]},
    "trick": _OTHER_LINES["trick"],
    **{kind.field: kind.words for kind in PAIRS_LINES[1:]},
    "penalty": _OTHER_LINES["penalty"],
    "replayed": _OTHER_LINES["replayed"],
    "final": _OTHER_LINES["final"],
    "unfinished": _OTHER_LINES["unfinished"],
}
"""Every line kind (its canonical English word; for a line of pairs, the
field it fills) with all its spellings, the canonical English first and the
canonical Russian second."""

LINE_KEYWORDS: Final[dict[str, str]] = {
    word: key for key, words in KEYWORD_SPELLINGS.items() for word in words}
"""Each spelling of a keyword (as written, lower case) -> the line kind: its
canonical English word, or for a line of pairs the field it fills."""

PENALTY_REASONS: Final[dict[str, tuple[str, ...]]] = {
    # the rule's code (the engine's penalty reason) first, then the players' words, Russian and
    # Ukrainian, from docs/RULES.md's glossary and the source pages (docs/NOTATION.md lists them)
    "revoke": (
        "revoke", "ренонс", "ход не в масть", "не в масть",
        "ход не в масть при ее наличии",
        "походил картой неподходящей масти", "походившему картой неподходящей масти",
        "ходил картой ненадлежащей масти",
        "походи картою невідповідної масті", "ходив картою неналежної масті",
    ),
    "joker-lead": (
        "joker-lead", "ход джокером", "ход джокером на пустой стол",
    ),
}
"""The penalties the rules prescribe for the play (``revoke``, ``joker-lead``), each with the
words a penalty line may give as its reason. A written penalty with one of these reasons is the
rules' own penalty written down (docs/RULES.md §7), not a penalty for something else."""

_REASON_RULES: Final[dict[str, str]] = {
    word: rule for rule, words in PENALTY_REASONS.items() for word in words}
_REASON_PUNCTUATION: Final = str.maketrans({c: " " for c in ".,;:!?«»\"“”„()[]"})


def penalty_rule(reason: str) -> str | None:
    """The rule a written penalty reason names (``revoke``, ``joker-lead``), ``None`` for free words.

    The reason is read whole, in any case, ``ё`` as ``е``, punctuation and a leading ``за`` or
    ``игроку`` ignored: ``ренонс``, ``за ход не в масть``, ``Ход джокером на пустой стол.``,
    ``игроку, походившему картой неподходящей масти`` (page 000's words)."""
    words = reason.lower().replace("ё", "е").translate(_REASON_PUNCTUATION).split()
    if words[:1] in (["за"], ["игроку"]):
        words = words[1:]
    return _REASON_RULES.get(" ".join(words))


KEYWORD_RULES_HEAD: Final = ("(* --- keywords: English (canonical), Russian (canonical), other spellings;"
                             " made from raspis_cli/model/lines.py by grammar/make_diagram.py --- *)")


def keyword_rules_ebnf() -> str:
    """The EBNF's keyword rules, one per line keyword and ``pairs kw`` (the
    lines of pairs), as ``grammar/grammar.ebnf`` has them."""
    rules = [KEYWORD_RULES_HEAD]
    for key, words in KEYWORD_SPELLINGS.items():
        rules.append(f"{key + ' kw':<16}= " + " | ".join(f'"{w}"' for w in words) + " ;")
    rules.append(f"{'pairs kw':<16}= " + " | ".join(f"{k.field} kw" for k in PAIRS_LINES) + " ;")
    return "\n".join(rules) + "\n"
