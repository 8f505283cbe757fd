"""The joker's declaration modes (docs/RULES.md §6) and their words: one table.

Every part that names a mode takes it from here: the options
``joker_lead_modes`` and ``joker_follow_modes`` (the values they take), the
solver's kernel (each mode's integer code), the notation's reader (the
phrases it reads, in every language, in both grammars), the writer (the
word it writes), a declaration's text in messages
(:class:`~raspis_cli.model.joker.JokerDecl`), the reports' and the
statistics' words, the store schema's column text, and the EBNF's ``mode``
rule (``grammar/make_diagram.py`` rewrites it; ``tests/test_joker_table.py``
fails until it has). What a mode *does* in a trick is the engine's
(:mod:`raspis_cli.engine.deal`) and the kernel's (:mod:`raspis_cli.solver.kernel`).

**A new spelling** of a mode (a phrase players say) is one more string in
its row's ``phrases``: lower case, words separated by one space, as said
(``"по старшим"`` reads ``(по старшим пикам)``: a suit or a card may follow
any phrase). Nothing else is edited; ``tests/test_joker_table.py`` reads a
joker declared with every phrase of every row, in both grammars, and fails
when a phrase names two modes.

**A new mode** is a new row, its meaning in the engine and the kernel, and
its paragraph in docs/RULES.md; a fast path that does not implement it
refuses it (``tests/test_fast_paths.py`` fails until each fast path lists
it or takes the long way for it).

This module is at the bottom of the package: it imports nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

__all__ = [
    "BY_MODE",
    "DEMANDS",
    "FOLLOW_MODES",
    "JOKER_MODE_ROWS",
    "JOKER_MODES",
    "KERNEL_CODES",
    "LEAD_MODES",
    "MODE_PHRASES",
    "MODE_RULE_HEAD",
    "WINNING_LEAD_MODES",
    "JokerMode",
    "mode_rule_ebnf",
    "mode_words",
]


@dataclass(frozen=True, slots=True)
class JokerMode:
    """One declaration mode of a joker.

    ``mode`` is the option value, the JSON ``mode`` and the word the
    notation's writer writes; ``russian`` the word a Russian reader sees (the
    reports, the statistics) and the first Russian phrase the reader takes;
    ``text`` the declaration's text in messages (``high (по старшим)``);
    ``phrases`` every other spelling the reader takes (Russian, Ukrainian,
    English). ``lead``/``follow``: whether the mode may be declared by a
    joker that leads / follows (the values ``joker_lead_modes`` /
    ``joker_follow_modes`` accept). ``names``: what the declaration names
    (``"suit"``: a suit; ``"card"``: a card). ``demand``: what the other
    players must give of the suit named (``"highest"``, ``"lowest"``; empty:
    no demand, and the declaration may name no suit). ``wins_led``: a
    leading joker so declared wins the trick (barring options).
    """

    mode: str
    russian: str
    text: str
    phrases: tuple[str, ...]
    lead: bool
    follow: bool
    names: str = "suit"
    demand: str = ""
    wins_led: bool = False

    @property
    def spellings(self) -> tuple[str, ...]:
        """Every phrase the reader takes for this mode: the English word, the
        Russian word, the other phrases."""
        return (self.mode, self.russian, *self.phrases)


JOKER_MODE_ROWS: Final[tuple[JokerMode, ...]] = (
    JokerMode("high", "по старшим", "high (по старшим)",
              ("по старших", "старшие", "старшим", "highest"),
              lead=True, follow=False, demand="highest", wins_led=True),
    JokerMode("lowest", "по младшим", "lowest (по младшим)",
              ("по молодших", "младшие", "младшим"),
              lead=True, follow=False, demand="lowest", wins_led=True),
    JokerMode("low", "младшая", "low (младшая)",
              ("младший", "за младшую", "за самую младшую", "самая младшая", "за наймолодшу",
               "наймолодша", "молодша"),
              lead=True, follow=False),
    JokerMode("take", "забрать", "take (забрать)",
              ("забираю", "беру", "взять", "бью", "старший", "забрати", "забираю взятку",
               "беру взятку"),
              lead=True, follow=True, wins_led=True),
    JokerMode("discard", "скинуть", "discard (скинуть)",
              ("скидываю", "скидую", "скидаю", "сброс", "сбросить", "скинути", "сбрасываю"),
              lead=False, follow=True),
    JokerMode("as", "как", "as", ("=",), lead=True, follow=True, names="card"),
)
"""The modes in the order of docs/RULES.md §6 (the order option values are
listed and written in)."""

JOKER_MODES: Final = tuple(row.mode for row in JOKER_MODE_ROWS)
LEAD_MODES: Final = tuple(row.mode for row in JOKER_MODE_ROWS if row.lead)
FOLLOW_MODES: Final = tuple(row.mode for row in JOKER_MODE_ROWS if row.follow)
BY_MODE: Final[dict[str, JokerMode]] = {row.mode: row for row in JOKER_MODE_ROWS}
DEMANDS: Final[dict[str, str]] = {row.mode: row.demand for row in JOKER_MODE_ROWS if row.demand}
"""The modes that demand a card of the suit named, and which one."""
WINNING_LEAD_MODES: Final = frozenset(row.mode for row in JOKER_MODE_ROWS if row.wins_led)
"""Lead declarations under which the joker wins the trick (barring options)."""
KERNEL_CODES: Final[dict[str, int]] = {row.mode: code for code, row in enumerate(JOKER_MODE_ROWS, 1)}
"""Mode -> the solver kernel's code (a declaration is ``code * 64 + arg``):
the row's place in the table, from 1 (0 is a natural card's)."""

MODE_PHRASES: Final[dict[tuple[str, ...], str]] = {
    tuple(phrase.split()): row.mode for row in JOKER_MODE_ROWS for phrase in row.spellings
}
"""Each phrase as its words -> the mode it names (what the reader looks up)."""


def mode_words(lang: str) -> dict[str, str]:
    """Each mode as a reader of ``lang`` (``en``, ``ru``) sees it in a report."""
    return {row.mode: row.russian if lang == "ru" else row.mode for row in JOKER_MODE_ROWS}


MODE_RULE_HEAD: Final = "mode            = "
"""How the EBNF's ``mode`` rule starts (``grammar/make_diagram.py`` rewrites it)."""
_EBNF_INDENT: Final = " " * 16


def mode_rule_ebnf() -> str:
    """The EBNF's ``mode`` rule, made from the table: the English words, the
    Russian words, the other spellings by reference."""
    english = " | ".join(f'"{row.mode}"' for row in JOKER_MODE_ROWS)
    russian = " | ".join(f'"{row.russian}"' for row in JOKER_MODE_ROWS)
    return (f"{MODE_RULE_HEAD}{english}\n{_EBNF_INDENT}| {russian}\n"
            f"{_EBNF_INDENT}| ? the other spellings of raspis_cli/model/joker_modes.py ? ;\n")


def _check_table() -> None:
    seen: dict[tuple[str, ...], str] = {}
    for row in JOKER_MODE_ROWS:
        for phrase in row.spellings:
            key = tuple(phrase.split())
            if seen.setdefault(key, row.mode) != row.mode:
                raise AssertionError(f"the joker phrase {phrase!r} names {seen[key]} and {row.mode}")


_check_table()
