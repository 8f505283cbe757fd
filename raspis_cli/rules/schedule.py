"""The schedule of deals (docs/RULES.md §4): which card count and kind each deal has."""

from __future__ import annotations

from dataclasses import dataclass
from typing import assert_never

from raspis_cli.model.deal_kinds import kind_cards, kind_term
from raspis_cli.rules import Rules
from raspis_cli.rules.values import DealKind
from raspis_cli.text.messages import Message, msg, msg_n

__all__ = ["Schedule", "ScheduledDeal", "schedule_for"]


@dataclass(frozen=True)
class ScheduledDeal:
    """One deal of a schedule: its 1-based number, card count and kind."""

    number: int
    cards: int
    kind: DealKind

    def to_json(self) -> dict[str, object]:
        """``{"number", "cards", "kind"}`` as ``rules schedule --format json`` prints."""
        return {"number": self.number, "cards": self.cards, "kind": self.kind}


@dataclass(frozen=True)
class Schedule:
    """The deals a game is expected to have.

    ``fixed`` are the deals every game has, in order. ``tail_kinds`` (classic
    only) are the special kinds that may follow at ``tail_cards`` cards in any
    order and number; ``listing`` is the canonical sequence including the tail
    (each special ``players`` times). ``free`` schedules check nothing but
    that the deal fits the deck.
    """

    players: int
    max_cards: int
    free: bool
    fixed: tuple[ScheduledDeal, ...]
    tail_kinds: tuple[str, ...] = ()
    tail_cards: int = 0
    tail_listing: tuple[ScheduledDeal, ...] = ()
    control: bool = False
    """``control_deals``: after the fixed deals, control deals (one at least,
    then more while first place is shared), each of a kind the game has
    played, dealt by whoever the last-placed player names."""

    def is_control(self, index: int) -> bool:
        """Whether deal number ``index + 1`` (counting scored deals) is a control deal."""
        return self.control and index >= len(self.fixed)

    def control_cards(self, kind: DealKind) -> int:
        """The cards each player is dealt in a control deal of ``kind``."""
        return kind_cards(kind, self.max_cards)

    @property
    def control_kinds(self) -> tuple[DealKind, ...]:
        """The kinds a control deal may be: those the fixed deals have."""
        return tuple(dict.fromkeys(deal.kind for deal in self.fixed))

    @property
    def listing(self) -> tuple[ScheduledDeal, ...]:
        """The deal sequence as printed by ``rules schedule``."""
        return self.fixed + self.tail_listing

    def problem(self, index: int, cards: int, kind: DealKind) -> Message | None:
        """Why deal number ``index + 1`` (counting deals actually scored) breaks
        the schedule with this card count and kind, or ``None`` when it fits."""
        if self.free:
            if cards < 1 or cards > self.max_cards:
                return msg("{n} players can be dealt 1 to {max} cards, not {cards}").format(
                    n=self.players, max=self.max_cards, cards=cards)
            return None
        if index < len(self.fixed):
            want = self.fixed[index]
            if want.cards != cards or want.kind != kind:
                return msg("deal {number} of the schedule is {want}, the record has {got}").format(
                    number=index + 1, want=_cards_kind(want.cards, want.kind), got=_cards_kind(cards, kind))
            return None
        if self.tail_kinds:
            if kind not in self.tail_kinds or cards != kind_cards(kind, self.tail_cards):
                return msg("after deal {number} the schedule has special deals ({kinds}) of {want}, "
                           "the record "
                         "has {got}").format(
                    number=len(self.fixed), kinds=Message.joined(", ",
                                                                 (kind_term(k) for k in self.tail_kinds)),
                    want=msg_n("{n} card", "{n} cards", self.tail_cards).format(n=self.tail_cards),
                    got=_cards_kind(cards, kind))
            return None
        if self.control:
            if kind not in self.control_kinds:
                return msg("a control deal is of a kind the game has played ({kinds}), not {kind}").format(
                    kinds=Message.joined(", ",
                                         (kind_term(k) for k in self.control_kinds)), kind=kind_term(kind))
            if cards != self.control_cards(kind):
                return msg("deal {number} is a control deal of {want}, the record has {got}").format(
                    number=index + 1, want=_cards_kind(self.control_cards(kind), kind),
                    got=_cards_kind(cards, kind))
            return None
        return msg("the schedule has {deals} deals; this is deal {number}").format(deals=len(self.fixed),
                                                                                 number=index + 1)

    def missing(self, played: int) -> Message | None:
        """Why a finished game of ``played`` scored deals is too short, or ``None``."""
        if self.free or played > len(self.fixed):
            return None
        if played == len(self.fixed):
            if not self.control:
                return None
            return msg("the schedule ends with a control deal after deal {deals}; the game has none "
                     "(if it was stopped early, write 'unfinished' on a line after the last deal)").format(
                deals=len(self.fixed))
        return msg("the schedule has {deals} deals, the game ends after {played} (if it was stopped "
                 "early, write 'unfinished' on a line after the last deal)").format(
            deals=len(self.fixed), played=played)


def _cards_kind(cards: int, kind: str) -> Message:
    """``9 cards dark`` (``9 карт, тёмная``)."""
    return msg("{cards} {kind}").format(cards=msg_n("{n} card", "{n} cards", cards).format(n=cards),
                                      kind=kind_term(kind))


def schedule_for(rules: Rules, players: int) -> Schedule:
    """The schedule of these rules for this many players."""
    m = rules.max_cards(players)
    n = players
    counts: list[tuple[int, DealKind]] = []
    tail: list[tuple[int, DealKind]] = []
    tail_kinds: tuple[str, ...] = ()
    match rules.schedule:
        case "free":
            return Schedule(n, m, True, ())
        case "raspisnoy":
            if rules.ladder:
                counts += [(c, "normal") for c in range(1, m + 1)]
                counts += [(m, "normal")] * (n - 1)
            else:
                counts += [(m, "normal")] * n
            if rules.ladder_down:
                counts += [(c, "normal") for c in range(m - 1, 0, -1)]
            for special in rules.specials:
                counts += [(kind_cards(special, m), special)] * n
        case "blocks":
            # soufee/rasp-poker §6: the ladder up to the most cards that is a multiple of
            # the players (L), the largest deal once per player, each special block
            if rules.ladder:
                counts += [(c, "normal") for c in range(1, m // n * n + 1)]
            counts += [(m, "normal")] * n
            for special in rules.specials:
                counts += [(kind_cards(special, m), special)] * n
        case "classic":
            counts += [(c, "normal") for c in range(1, m)]
            counts += [(m, "normal")] * n
            counts += [(c, "normal") for c in range(m - 1, 0, -1)]
            for special in rules.specials:
                tail += [(kind_cards(special, m), special)] * n
            tail_kinds = rules.specials
        case "georgian":
            top = min(m, 9)
            counts += [(c, "normal") for c in range(1, top)]
            counts += [(top, "normal")] * 4
            counts += [(c, "normal") for c in range(top - 1, 0, -1)]
            counts += [(top, "normal")] * 4
        case "joker54":
            top = min(8, m)
            counts += [(c, "normal") for c in range(2, top + 1)]
            counts += [(c, "normal") for c in range(top - 1, 1, -1)]
        case _:
            assert_never(rules.schedule)
    fixed = tuple(ScheduledDeal(i + 1, c, k) for i, (c, k) in enumerate(counts))
    tail_listing = tuple(
        ScheduledDeal(len(fixed) + i + 1, c, k) for i, (c, k) in enumerate(tail)
    )
    return Schedule(n, m, False, fixed, tail_kinds, m if tail_kinds else 0, tail_listing,
                    control=rules.control_deals and not tail_kinds)
