"""The kinds of deal (docs/RULES.md §3) and their words: one table.

Every part that names a kind takes it from here: the closed type
:data:`DealKind` the rules and the engine match on, the notation's reader
(every spelling, in both grammars), the writer (the English word, and the
Russian word of a sheet written in Russian), the JSON codec (the kinds it
takes), and a kind as a person reads it in messages and tables
(:func:`kind_label`). What a kind *does* is the rules' and the engine's: the
schedule (:mod:`raspis_cli.rules.schedule`), the scoring
(:mod:`raspis_cli.engine.scoring`), whether it has bids.

**A new kind** is a value of :data:`DealKind` and its row here; ``mypy
--strict`` then names each decision over a kind that must say what it does
(``tests/test_rule_types.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal, TypeGuard, assert_never, get_args

from raspis_cli.text.i18n import N_, _
from raspis_cli.text.messages import Seq, Term, msg, term_words
from raspis_cli.text.suggest import has_cyrillic

__all__ = [
    "DEAL_KINDS",
    "DEAL_KIND_ROWS",
    "DealKind",
    "BidView",
    "DealKindRow",
    "TrickAim",
    "bid_view",
    "has_bids",
    "has_trump",
    "SpecialKind",
    "is_deal_kind",
    "judged_kind",
    "kind_label",
    "kind_words_of",
    "kind_term",
    "kinds_in_words",
    "kind_cards",
    "trick_aim",
]

DealKind = Literal["normal", "no-trump", "dark", "miser", "golden", "forehead", "percent"]
"""A deal's kind (docs/RULES.md §3)."""
SpecialKind = Literal["no-trump", "dark", "miser", "golden", "forehead", "percent"]
"""A kind the ``specials`` option may schedule (every kind but ``normal``)."""


@dataclass(frozen=True, slots=True)
class DealKindRow:
    """One kind of deal and its words.

    ``kind`` is the record's word (the notation's English word, the JSON
    ``kind``); ``russian`` the word a sheet written in Russian has (and the
    first Russian word the reader takes); ``label`` the kind as a message or a
    table says it, marked for the catalogue; ``spellings`` every other word
    the reader takes (Russian, Ukrainian, English), lower case."""

    kind: DealKind
    russian: str
    label: str
    spellings: tuple[str, ...]


DEAL_KIND_ROWS: Final[tuple[DealKindRow, ...]] = (
    DealKindRow("normal", "обычная", N_("normal"), ("обычный", "обычн")),
    DealKindRow("no-trump", "бескозырка", N_("no-trump"),
                ("notrump", "nt", "безкозырка", "бескозырная", "безкозирка", "бк", "б/к")),
    DealKindRow("dark", "тёмная", N_("dark"), ("темная", "тёмна", "темна", "втёмную", "втемную", "втемну")),
    DealKindRow("miser", "мизер", N_("miser"), ("мізер",)),
    DealKindRow("golden", "золотая", N_("golden"), ("золота", "золото")),
    DealKindRow("forehead", "лобовая", N_("forehead"), ("лобова", "лоб")),
    DealKindRow("percent", "проценты", N_("percent"), ("процент", "процентная", "відсотки")),
)
"""The kinds in the order of docs/RULES.md §3."""

DEAL_KINDS: Final[tuple[DealKind, ...]] = get_args(DealKind)
"""Every kind, in the order of the type (the table's, checked below)."""

_LABELS: Final[dict[str, str]] = {row.kind: row.label for row in DEAL_KIND_ROWS}


def is_deal_kind(text: str) -> TypeGuard[DealKind]:
    """Whether a record's word is a deal kind (narrows it to :data:`DealKind`)."""
    return text in _LABELS


def judged_kind(text: str) -> DealKind:
    """A record's kind as the engine judges the deal: a word that is no kind
    (reported as a ``schedule`` violation) is judged as a normal deal."""
    return text if is_deal_kind(text) else "normal"


def kind_label(kind: str) -> str:
    """A kind of deal (``no-trump``) in the language in force (``бескозырка``);
    a word that is no kind, as it is."""
    label = _LABELS.get(kind)
    return _(label) if label is not None else kind


def kind_term(kind: str) -> Term:
    """A kind of deal as a parameter of a message: stored as the record's word
    (``no-trump``), shown in the reader's (``no trump``, ``бескозырка``)."""
    return Term("kind", kind)


def _kind_words(kind: str, lang: str) -> str | None:
    label = _LABELS.get(kind)
    return None if label is None else msg(label).render(lang)


term_words("kind", _kind_words)


def has_bids(kind: DealKind) -> bool:
    """Whether the players bid in a deal of this kind (not in miser and
    golden deals, which score the tricks alone)."""
    match kind:
        case "normal" | "no-trump" | "dark" | "forehead" | "percent":
            return True
        case "miser" | "golden":
            return False
        case _:
            assert_never(kind)


def has_trump(kind: DealKind) -> bool:
    """Whether a deal of this kind has a trump (not a no-trump deal)."""
    match kind:
        case "normal" | "dark" | "miser" | "golden" | "forehead" | "percent":
            return True
        case "no-trump":
            return False
        case _:
            assert_never(kind)


BidView = Literal["own", "none", "others"]
"""What a player sees when bidding: their own hand, nothing (a dark deal),
or the others' hands and not their own (a forehead deal)."""


def bid_view(kind: DealKind) -> BidView:
    """What a player sees when bidding in a deal of this kind (the bots'
    bids and the double-dummy bid advice read it)."""
    match kind:
        case "normal" | "no-trump" | "miser" | "golden" | "percent":
            return "own"
        case "dark":
            return "none"
        case "forehead":
            return "others"
        case _:
            assert_never(kind)


TrickAim = Literal["bid", "none", "all"]
"""What a player wants in a deal: the tricks bid, none (miser), every one (golden)."""


def trick_aim(kind: DealKind) -> TrickAim:
    """What a player of a deal of this kind wants to take (the bots' play)."""
    match kind:
        case "normal" | "no-trump" | "dark" | "forehead" | "percent":
            return "bid"
        case "miser":
            return "none"
        case "golden":
            return "all"
        case _:
            assert_never(kind)


def kind_cards(kind: DealKind, max_cards: int) -> int:
    """The cards each player is dealt in a deal of this kind that a schedule
    plays at its largest deal ``max_cards`` (a special deal, a control deal):
    the largest deal, but 4 in a percent deal (проценты)."""
    match kind:
        case "percent":
            return min(4, max_cards)
        case "normal" | "no-trump" | "dark" | "miser" | "golden" | "forehead":
            return max_cards
        case _:
            assert_never(kind)


def kinds_in_words(written: str = "") -> Seq:
    """Every kind as the notation takes it, for a message, in the words of
    the line's own language: the Russian ones when what was ``written`` is in
    Cyrillic (``обычная, бескозырка, …``), else the English (``normal,
    no-trump, …``) as kinds, which a Russian reader sees in the Russian words
    the notation takes as well."""
    if has_cyrillic(written):
        return Seq(tuple(row.russian for row in DEAL_KIND_ROWS))
    return Seq(tuple(Term("kind", row.kind) for row in DEAL_KIND_ROWS))


def kind_words_of(written: str) -> tuple[str, ...]:
    """The spellings of the kinds to suggest a correction of ``written`` from:
    the Russian ones for a Cyrillic word, else the English."""
    if has_cyrillic(written):
        return tuple(row.russian for row in DEAL_KIND_ROWS)
    return tuple(row.kind for row in DEAL_KIND_ROWS)


if tuple(row.kind for row in DEAL_KIND_ROWS) != DEAL_KINDS:  # pragma: no cover - a table in two places
    raise AssertionError("the table of deal kinds and DealKind list different kinds")
