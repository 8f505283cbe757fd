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
its row's ``phrases`` (a phrase may be in two rows where the joker's place or a suit named tells
them apart: :func:`mode_of`): lower case, words separated by one space, as said
(``"по старшим"`` reads ``(по старшим пикам)``: a suit or a card may follow
any phrase). Nothing else is edited; ``tests/test_joker_table.py`` reads a
joker declared with every phrase of every row, in both grammars, and fails
when a phrase names two modes nothing tells apart.

**A new mode** is a new row, its meaning in the engine and the kernel, and
its paragraph in docs/RULES.md; a fast path that does not implement it
refuses it (``tests/test_fast_paths.py`` fails until each fast path lists
it or takes the long way for it).

This module is at the bottom of the package: it imports nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal, assert_never

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
    "JokerMode",
    "JokerModeName",
    "mode_of",
    "mode_rule_ebnf",
    "mode_words",
    "known_mode",
    "wins_when_following",
    "wins_when_led",
]

JokerModeName = Literal["high", "lowest", "low", "take", "discard", "as"]
"""A joker's declaration mode: the closed type every decision over a mode
matches on (a new mode here makes ``mypy --strict`` name each place that
must handle it)."""


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
    no demand, and the declaration may name no suit). Whether a leading
    joker so declared wins is :func:`wins_when_led`.
    """

    mode: JokerModeName
    russian: str
    text: str
    phrases: tuple[str, ...]
    lead: bool
    follow: bool
    names: str = "suit"
    demand: str = ""

    @property
    def spellings(self) -> tuple[str, ...]:
        """Every phrase the reader takes for this mode: the English word, the
        Russian word, the other phrases."""
        return (self.mode, self.russian, *self.phrases)


_LOSING: Final = (
    # the joker thrown away as the lowest card: low when it leads, discard when it follows
    "младшая", "младший", "младшим", "за младшую", "за самую младшую", "самая младшая", "за слабую",
    "скинуть", "скидываю", "сбросить", "сбрасываю", "сброс",
    "за наймолодшу", "наймолодша", "молодша", "скинути", "скидаю", "скидую",
)

JOKER_MODE_ROWS: Final[tuple[JokerMode, ...]] = (
    JokerMode("high", "по старшим", "high (по старшим)",
              ("по старшему", "по старшей", "по страшим", "старшие", "старшим", "старших", "по наивысшим",
               "наивысших", "по старших", "найвищим", "highest"),
              lead=True, follow=False, demand="highest"),
    JokerMode("lowest", "по младшим", "lowest (по младшим)",
              ("по младшей", "младшие", "младшим", "младших", "по молодших"),
              lead=True, follow=False, demand="lowest"),
    JokerMode("low", "младшая", "low (младшая)", tuple(p for p in _LOSING if p != "младшая"),
              lead=True, follow=False),
    JokerMode("take", "забрать", "take (забрать)",
              ("забираю", "беру", "взять", "бью", "перебить", "побить", "старший", "старшим",
               "забираю взятку", "беру взятку", "забрати", "побити"),
              lead=True, follow=True),
    JokerMode("discard", "скинуть", "discard (скинуть)", tuple(p for p in _LOSING if p != "скинуть"),
              lead=False, follow=True),
    JokerMode("as", "как", "as", ("=", "за", "як"), lead=True, follow=True, names="card"),
)
"""The modes in the order of docs/RULES.md §6 (the order option values are
listed and written in)."""

JOKER_MODES: Final = tuple(row.mode for row in JOKER_MODE_ROWS)
LEAD_MODES: Final = tuple(row.mode for row in JOKER_MODE_ROWS if row.lead)
FOLLOW_MODES: Final = tuple(row.mode for row in JOKER_MODE_ROWS if row.follow)
BY_MODE: Final[dict[str, JokerMode]] = {row.mode: row for row in JOKER_MODE_ROWS}
DEMANDS: Final[dict[str, str]] = {row.mode: row.demand for row in JOKER_MODE_ROWS if row.demand}
"""The modes that demand a card of the suit named, and which one."""


def known_mode(text: str) -> JokerModeName | None:
    """The mode a record's word names, as the closed type (``None``: no mode
    of the table; the record keeps what was written, the engine reports it)."""
    row = BY_MODE.get(text)
    return None if row is None else row.mode


def wins_when_led(mode: JokerModeName) -> bool:
    """Whether a joker that leads the trick so declared wins it, barring the
    options that make an exception (``joker_high_winner``,
    ``joker_low_nobody_follows``, ``joker_take_beaten_by_trump``); the one
    answer the engine and the solver's kernel take (docs/RULES.md §6)."""
    match mode:
        case "high" | "lowest" | "take":
            return True
        case "low" | "discard" | "as":
            return False
        case _:
            assert_never(mode)
KERNEL_CODES: Final[dict[str, int]] = {row.mode: code for code, row in enumerate(JOKER_MODE_ROWS, 1)}
"""Mode -> the solver kernel's code (a declaration is ``code * 64 + arg``):
the row's place in the table, from 1 (0 is a natural card's)."""

def wins_when_following(mode: JokerModeName) -> bool:
    """Whether a joker that follows so declared wins the trick, barring a
    later joker and ``joker_take_beaten_by_trump`` (only ``take`` does)."""
    match mode:
        case "take":
            return True
        case "high" | "lowest" | "low" | "discard" | "as":
            return False
        case _:
            assert_never(mode)


MODE_PHRASES: Final[dict[tuple[str, ...], tuple[str, ...]]] = {}
"""Each phrase as its words -> the modes it names, in the table's order (what the reader looks
up; :func:`mode_of` says which one a joker means)."""
for _row in JOKER_MODE_ROWS:
    for _phrase in _row.spellings:
        _key = tuple(_phrase.split())
        MODE_PHRASES[_key] = (*MODE_PHRASES.get(_key, ()), _row.mode)


def _allowed(mode: str, leads: bool) -> bool:
    row = BY_MODE[mode]
    return row.lead if leads else row.follow


def mode_of(modes: tuple[str, ...], leads: bool, named: bool) -> str:
    """Which of the ``modes`` a phrase names (:data:`MODE_PHRASES`) a joker means that ``leads``
    the trick (or follows), its declaration naming a suit or card after the phrase or not.

    The joker's place decides first: "за младшую" is ``low`` on the lead and ``discard``
    following. A phrase of two modes in one place is the demand when a suit follows it and the
    other mode when none does: "старшим пикам" is ``high``, "старшим" alone the 54-card
    "старший Джокер", ``take``. A phrase of no mode of the joker's place means what it means in
    the other (``по старшим пикам`` on a follower is ``high``, which the replay reports)."""
    here = [m for m in modes if _allowed(m, leads)]
    there = [m for m in modes if not _allowed(m, leads)]
    for place in (here, there):
        if place:
            fits = [m for m in place if bool(BY_MODE[m].demand) == named]
            return (fits or place)[0]
    raise ValueError(f"no joker mode among {modes!r}")


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
    # a phrase may name two modes only where the joker's place or the suit named tells them apart
    for key, modes in MODE_PHRASES.items():
        for leads in (True, False):
            here = [m for m in modes if _allowed(m, leads)]
            for demand in (True, False):
                same = [m for m in here if bool(BY_MODE[m].demand) == demand]
                if len(same) > 1:
                    raise AssertionError(f"the joker phrase {' '.join(key)!r} names {' and '.join(same)}")


_check_table()
