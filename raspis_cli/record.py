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
from raspis_cli.engine.actions import JokerDecl

__all__ = [
    "NO_TRUMP",
    "DealRecord",
    "GameRecord",
    "JokerDecl",
    "NoTrump",
    "PenaltyRecord",
    "PlayRecord",
    "Pos",
    "TrumpValue",
]


@dataclass(frozen=True, slots=True)
class Pos:
    """A place in a source file: 1-based line and column."""

    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.line}:{self.column}"


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
