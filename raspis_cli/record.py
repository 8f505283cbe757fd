"""The game record: what a notation file or a JSON record says happened.

A record is what was *written*, not what the rules allow: it may hold an
unknown option, an illegal bid or a card the player never had; replaying it
through the engine finds those. Every value keeps where it was written
(:class:`Pos`), so a violation can point at it.

The model follows ``docs/RECORD-JSON.md`` field for field; the notation reader,
the notation writer and the JSON codec all produce and consume it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from raspis_cli.cards import Card, Suit
from raspis_cli.diagnostics import Pos
from raspis_cli.engine.actions import JokerDecl
from raspis_cli.lines import PAIRS_LINES

__all__ = [
    "NO_TRUMP",
    "NUMBER_RANGES",
    "OutOfRange",
    "DealRecord",
    "GameRecord",
    "JokerDecl",
    "NoTrump",
    "PenaltyRecord",
    "PlayRecord",
    "Pos",
    "TrumpValue",
    "bound_numbers",
    "shown_number",
]


class NoTrump(Enum):
    """The explicit "no trump" of a deal (JSON ``null``)."""

    NO_TRUMP = "none"

    def __repr__(self) -> str:
        return "NO_TRUMP"


NO_TRUMP = NoTrump.NO_TRUMP

TrumpValue = Card | Suit | NoTrump
"""A deal's trump as written: the card turned up or shown, a bare suit, or no
trump. ``None`` in :attr:`DealRecord.trump` means it was not written."""


@dataclass(slots=True)
class PlayRecord:
    """One card played in a trick, by a player (a name as written)."""

    player: str
    card: Card
    joker: JokerDecl | None = None
    pos: Pos | None = None


@dataclass(slots=True)
class PenaltyRecord:
    """A penalty written in the record: points (usually negative) and a reason."""

    player: str
    points: int
    reason: str
    pos: Pos | None = None


@dataclass(slots=True)
class DealRecord:
    """One deal as recorded. Only number, kind, dealer and cards are required.

    ``positions`` maps a field to where it was written: ``"number"``,
    ``"kind"``, ``"dealer"``, ``"cards"``, ``"trump"``, and per player
    ``"hand:NAME"``, ``"bid:NAME"``, ``"taken:NAME"``, ``"score:NAME"``,
    ``"total:NAME"``; ``"bids"``, ``"tricks"``, ``"taken"``, ``"scores"`` for
    the start of each section.
    """

    number: int
    kind: str
    dealer: str
    cards: int
    trump: TrumpValue | None = None
    hands: dict[str, list[Card]] | None = None
    bids: dict[str, int] | None = None
    tricks: list[list[PlayRecord]] | None = None
    taken: dict[str, int] | None = None
    scores: dict[str, int] | None = None
    totals: dict[str, int] | None = None
    penalties: list[PenaltyRecord] | None = None
    replayed: bool = False
    pos: Pos | None = None
    positions: dict[str, Pos] = field(default_factory=dict)
    comments: list[str] = field(default_factory=list)
    extra: dict[str, object] = field(default_factory=dict)
    comment_anchors: list[str] = field(default_factory=list)
    """Where each of :attr:`comments` sits (added for the notation): ``"on:KEY"``
    at the end of the line of KEY, ``"after:KEY"`` on its own line after it;
    KEY is ``deal`` (the deal line), ``hand:NAME``, ``bids``, ``trick:N``,
    ``taken``, ``scores``, ``totals``, ``penalty:N`` or ``replayed``. Missing
    entries mean ``"after:deal"``. Comments are kept as written, with their
    ``;`` or ``{ }``."""

    def where(self, key: str) -> Pos | None:
        """Where a field was written, falling back to the deal's own place."""
        return self.positions.get(key, self.pos)


@dataclass(slots=True)
class GameRecord:
    """One game: tags, rules, players in seating order, deals, written totals.

    ``rules_preset`` and ``rules_options`` are as written (unchecked): the
    replay turns them into :class:`~raspis_cli.rules.Rules` and reports a
    ``rules`` violation for what it cannot read. ``positions`` maps
    ``"rules"``, ``"option:NAME"``, ``"players"``, ``"player:NAME"`` and
    ``"total:NAME"`` to where they were written; ``span`` is the first and
    last source line of the game.
    """

    players: list[str]
    deals: list[DealRecord] = field(default_factory=list)
    tags: dict[str, str] = field(default_factory=dict)
    rules_preset: str | None = None
    rules_options: dict[str, object] = field(default_factory=dict)
    totals: dict[str, int] | None = None
    unfinished: bool = False
    pos: Pos | None = None
    span: tuple[int, int] | None = None
    positions: dict[str, Pos] = field(default_factory=dict)
    comments: list[str] = field(default_factory=list)
    extra: dict[str, object] = field(default_factory=dict)
    comment_anchors: list[str] = field(default_factory=list)
    """Where each of :attr:`comments` sits (added for the notation): ``"start"``
    before the tags, ``"on:KEY"`` / ``"after:KEY"`` with KEY ``tag:NAME``,
    ``rules``, ``option:NAME``, ``players``, ``final`` or ``unfinished``.
    Missing entries mean ``"start"``."""

    def where(self, key: str) -> Pos | None:
        """Where a field was written, falling back to the game's own place."""
        return self.positions.get(key, self.pos)


# --- the numbers a record may hold ---------------------------------------------

NUMBER_RANGES: dict[str, tuple[int, int]] = {
    "number": (0, 9_999),
    "cards": (0, 999),
    **{kind.one: (kind.low, kind.high) for kind in PAIRS_LINES},
    "penalty": (-999_999_999, 999_999_999),
}
"""The range of each number a record may hold (inclusive), by what it is:
a deal's number and cards, a bid, a taken count, a written score, running
or final total, a penalty's points. Far beyond any real game (a deck has 54
cards), small enough that nothing computed from them overflows. Option
values have their own range (:data:`raspis_cli.rules.options.OPTION_INT_RANGE`)."""


@dataclass(frozen=True, slots=True)
class OutOfRange:
    """A number outside :data:`NUMBER_RANGES`: what it is, its key in the
    record (``bid:Анна``, ``cards``, ``final:Анна``), the value, where."""

    what: str
    key: str
    value: int
    deal: int | None
    pos: Pos | None

    @property
    def message(self) -> str:
        """The diagnostic's words (the value cut to 30 digits)."""
        low, high = NUMBER_RANGES[self.what]
        text = shown_number(self.value)
        place = f"deal {self.deal}: " if self.deal is not None else ""
        return (f"{place}the {self.what} {text} is out of range (a record holds {self.what}s from "
                f"{low:,} to {high:,})")


def shown_number(value: int) -> str:
    """A number as a message quotes it: whole up to 30 digits, else its size
    (``str()`` of a number of more than 4,300 digits raises)."""
    if value.bit_length() <= 96:
        return str(value)
    return f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"


def _outside(what: str, value: int) -> bool:
    low, high = NUMBER_RANGES[what]
    return not low <= value <= high


def bound_numbers(game: GameRecord) -> list[OutOfRange]:
    """Every number of ``game`` outside :data:`NUMBER_RANGES`, removed from
    the record (a deal whose number or cards are out of range is dropped
    whole), so that nothing downstream computes with it; the readers report
    each as a diagnostic at its place."""
    found: list[OutOfRange] = []
    kept: list[DealRecord] = []
    for deal in game.deals:
        bad = [w for w in ("number", "cards") if _outside(w, getattr(deal, w))]
        if bad:
            found.extend(OutOfRange(w, w, getattr(deal, w), None, deal.where(w)) for w in bad)
            continue
        kept.append(deal)
        for kind in PAIRS_LINES:
            what = kind.one
            values: dict[str, int] | None = getattr(deal, kind.field)
            if not values:
                continue
            for name in [n for n, v in values.items() if _outside(what, v)]:
                found.append(OutOfRange(what, f"{what}:{name}", values[name], deal.number,
                                        deal.where(f"{what}:{name}")))
                del values[name]
        if deal.penalties:
            for p in [p for p in deal.penalties if _outside("penalty", p.points)]:
                found.append(OutOfRange("penalty", "penalty", p.points, deal.number,
                                        p.pos or deal.where("penalties")))
                deal.penalties.remove(p)
    if len(kept) != len(game.deals):
        game.deals = kept
    if game.totals:
        for name in [n for n, v in game.totals.items() if _outside("total", v)]:
            found.append(OutOfRange("total", f"final:{name}", game.totals[name], None,
                                    game.where(f"total:{name}")))
            del game.totals[name]
    return found
