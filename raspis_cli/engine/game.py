"""A game: the deals in order, the dealer's turn, the schedule, the totals.

:class:`Game` checks what lies between deals (the dealer moved one seat, the
schedule's card count and kind, the deal number, the hands dealt and the
trump) and opens a :class:`~raspis_cli.engine.deal.Deal` for the rest.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from raspis_cli.engine.actions import Violation
from raspis_cli.engine.deal import PLAY, Deal
from raspis_cli.engine.scoring import KINDS_WITHOUT_BIDS
from raspis_cli.model.cards import Card, Suit
from raspis_cli.model.deal_kinds import has_trump
from raspis_cli.rules import Rules
from raspis_cli.rules.bidding import bids_allowed, next_pass_streak, pass_limit
from raspis_cli.rules.schedule import Schedule, schedule_for
from raspis_cli.rules.seats import bidding_order
from raspis_cli.rules.standings import first_place_shared, first_places
from raspis_cli.rules.trumps import trump_holder
from raspis_cli.rules.values import DealKind, is_deal_kind, judged_kind
from raspis_cli.text.messages import Quoted, Span, msg

__all__ = ["Game", "TrumpInput", "effective_trump"]

TrumpInput = Card | Suit | None
"""A trump as recorded: the card turned up or shown, a bare suit, or ``None``
(no trump, when ``trump_given``; not written otherwise)."""


def _sheet_engine_deal(rules: Rules, players: int, dealer: int, cards: int, kind: DealKind,
                       trump: TrumpInput, pass_streaks: Sequence[int], names: Sequence[str],
                       bids: Sequence[int] | None) -> Deal:
    """The engine's deal of a sheet's line :meth:`Game.sheet_deal` found in
    order: opened, its bids made, ready for play (which a sheet has none of)."""
    deal = Deal(rules, players, dealer, cards, kind, effective_trump(rules, kind, trump), None,
                pass_streaks, names)
    if bids is not None:
        deal.bids = list(bids)
        deal.bid_count = players
    deal.phase = PLAY
    return deal


def effective_trump(rules: Rules, kind: str, trump: TrumpInput) -> Suit | None:
    """The deal's trump suit from what the record gives."""
    if rules.circular_trumps or not has_trump(judged_kind(kind)) or trump is None:
        return None
    if isinstance(trump, Suit):
        return trump
    return rules.deck_cards.suit_of(trump)


_BITS: tuple[int, ...] = tuple(1 << card for card in range(54))
"""Each card index's bit in a hand mask."""


class Game:
    """The state between deals of one game.

    ``names`` label seats in messages; the engine itself knows only seats.
    """

    def __init__(self, rules: Rules, players: int, names: Sequence[str] = ()) -> None:
        self.rules = rules
        self.players = players
        self.names = list(names) or [f"player {i + 1}" for i in range(players)]
        self.schedule: Schedule = schedule_for(rules, players)
        self.totals = [0] * players
        self.pass_streaks = [0] * players
        self._orders: dict[int, list[int]] = {}
        """The seats in bidding order, by dealer, as a sheet's lines ask for them
        (one per dealer met: a record of many players makes no table of squares)."""
        self.scored_deals = 0
        self.last_number: int | None = None
        self.last_replayed = False
        self.first_dealer: int | None = None
        self.rotation = 0
        """Seats the deal has moved on from the first recorded deal's dealer."""

    def player_problems(self) -> list[Violation]:
        """A ``players`` violation when the count is outside the rules' range."""
        low, high = self.rules.players
        if not low <= self.players <= high:
            return [Violation("players", msg("{n} players; the rules allow {low} to {high}").format(
                n=self.players, low=low, high=high), at="players")]
        if self.players * 1 > self.rules.deck:  # pragma: no cover - ranges forbid it
            return [Violation("players", msg("more players than cards"), at="players")]
        return []

    def start_deal(
        self,
        number: int,
        kind: str,
        dealer: int,
        cards: int,
        trump: TrumpInput = None,
        trump_given: bool = True,
        hands: Sequence[Sequence[Card]] | None = None,
        hands_complete: bool = True,
        replayed: bool = False,
        gap_explained: bool = False,
    ) -> tuple[Deal, list[Violation]]:
        """Open the next deal and check how it was dealt.

        ``hands`` are per seat (``None``: not recorded); ``hands_complete`` is
        false when they were pieced together from an unfinished play, so their
        size is not checked. ``gap_explained``: deals missing before this one
        are known to be lost (to syntax errors), so the gap is not reported.
        """
        rules = self.rules
        out: list[Violation] = []
        name = self.names
        # numbering and the dealer's turn; a gap in the numbers (deals not
        # recorded, or lost to syntax errors: ``gap_explained``) is reported
        # once, and the checks go on from the number written
        skipped = 0
        if self.last_number is not None:
            want = self.last_number if self.last_replayed else self.last_number + 1
            if number > want:
                skipped = number - want
                if not gap_explained:
                    text = (msg("deal {number} follows deal {last}; deal {missing} is missing")
                            if skipped == 1 else
                            msg("deal {number} follows deal {last}; deals {missing} are missing"))
                    missing: int | Span = want if skipped == 1 else Span(want, number - 1)
                    out.append(Violation("schedule", text.format(number=number, last=self.last_number,
                                                                 missing=missing), at="number"))
            elif number != want:
                out.append(Violation("schedule", msg("deal {number} follows deal {last}; expected deal "
                                                   "{want}").format(number=number, last=self.last_number,
                                                                    want=want), at="number"))
        # the rotation is the seating from the first deal on: each deal is checked
        # against it on its own, so one wrong dealer is one violation, not two
        if self.first_dealer is None:
            self.first_dealer = dealer
        else:
            if not self.last_replayed:
                self.rotation += 1 + skipped
            want_dealer = (self.first_dealer + self.rotation) % self.players
            # a control deal's dealer is whoever the last-placed player names
            if dealer != want_dealer and not self.schedule.is_control(self.scored_deals + skipped):
                out.append(Violation("dealer-order", msg("{player} dealt deal {number}; {dealer} was to "
                                                       "deal").format(player=name[dealer], number=number,
                                                                      dealer=name[want_dealer]),
                                     dealer, at="dealer"))
        self.scored_deals += skipped
        # the schedule
        if self.schedule.is_control(self.scored_deals) and self._decided():
            out.append(Violation("schedule", msg("the game was decided after deal {number}: first place "
                                               "is not shared, so no control deal follows").format(
                                                   number=self.last_number), at="number"))
        deal_kind = judged_kind(kind)
        if not is_deal_kind(kind):
            out.append(Violation("schedule", msg("unknown kind of deal {kind}").format(kind=Quoted(kind)),
                                 at="kind"))
        problem = self.schedule.problem(self.scored_deals, cards, deal_kind)
        if problem is not None:
            out.append(Violation("schedule", problem, at="cards"))
        if cards * self.players > rules.deck or cards < 1:
            message = msg("{n} players cannot each be dealt {cards} cards from {deck}").format(
                n=self.players, cards=cards, deck=rules.deck)
            out.append(Violation("deal-size", message, at="cards"))
        masks = None
        if hands is not None:
            masks, hand_problems = self._check_hands(hands, cards, hands_complete)
            out += hand_problems
        out += self._check_trump(deal_kind, dealer, cards, trump, trump_given, masks)
        deal = Deal(rules, self.players, dealer, cards, deal_kind,
                    effective_trump(rules, deal_kind, trump), masks, self.pass_streaks, self.names)
        self.last_number = number
        self.last_replayed = replayed
        return deal, out

    def sheet_deal(self, number: int, kind: str, dealer: int, cards: int, trump: TrumpInput,
                   trump_given: bool, bids: Sequence[int] | None) -> Callable[[], Deal] | None:
        """A deal recorded without hands or play (a score sheet's line) opened
        and bid at once, checked with arithmetic: what :meth:`start_deal` and
        :meth:`Deal.bid` (each seat in bidding order, ``bids`` per seat,
        ``None`` for a kind without bids) would check, without a violation,
        a message or a call per bid made. When none of them finds anything
        wrong, the deal is opened (the game moves on to it, ready for
        :meth:`finish_sheet_deal`) and the answer is a function that makes its
        engine :class:`Deal`, bids made, for whoever asks for it (a sheet's
        deal has no play, so nobody needs it to judge); ``None``, and nothing
        changed, otherwise (the caller then takes the long way, which says
        what is wrong). A deal numbered other than next (a gap, a replayed
        deal's repeat) always takes the long way."""
        rules = self.rules
        n = self.players
        if not is_deal_kind(kind) or cards < 1 or cards * n > rules.deck:
            return None
        last = self.last_number
        if last is not None and (self.last_replayed or number != last + 1):
            return None
        rotation = self.rotation
        control = self.schedule.is_control(self.scored_deals)
        if control and self._decided():
            return None  # no control deal follows: the long way says so
        if self.first_dealer is not None:
            rotation += 1
            if dealer != (self.first_dealer + rotation) % n and not control:
                return None
        if self.schedule.problem(self.scored_deals, cards, kind) is not None:
            return None
        if trump_given and self._check_trump(kind, dealer, cards, trump, True, None):
            return None
        if (bids is None) != (kind in KINDS_WITHOUT_BIDS):
            return None
        if bids is not None:
            if len(bids) != n or min(bids) < 0 or max(bids) > cards:
                return None
            order = self._orders.get(dealer)
            if order is None:
                order = self._orders[dealer] = bidding_order((dealer + 1) % n, n)
            streaks = self.pass_streaks
            if not bids_allowed(rules.dealer_restriction, pass_limit(rules.third_pass, n), cards,
                                [bids[seat] for seat in order], [streaks[seat] for seat in order]):
                return None
        if self.first_dealer is None:
            self.first_dealer = dealer
        else:
            self.rotation = rotation
        self.last_number = number
        self.last_replayed = False
        return functools.partial(_sheet_engine_deal, rules, n, dealer, cards, kind, trump,
                                 self.pass_streaks, self.names, bids)

    def finish_sheet_deal(self, bids: Sequence[int] | None, scores: Sequence[int]) -> None:
        """:meth:`finish_deal` of a deal :meth:`sheet_deal` opened, by
        arithmetic: its scores added to the totals, the pass streaks carried
        on (``bids`` per seat, ``None`` for a kind without bids)."""
        totals = self.totals
        for seat, score in enumerate(scores):
            totals[seat] += score
        self.scored_deals += 1
        if bids is not None:
            self.pass_streaks = [next_pass_streak(streak, bid)
                                 for bid, streak in zip(bids, self.pass_streaks)]  # noqa: B905 (one per seat)

    def _check_hands(self, hands: Sequence[Sequence[Card]], cards: int,
                     complete: bool) -> tuple[list[int], list[Violation]]:
        deck = self.rules.deck_cards
        out: list[Violation] = []
        seen = 0
        masks: list[int] = []
        deck_mask = deck.mask
        bits = _BITS.__getitem__
        for seat, hand in enumerate(hands):
            # the usual hand at once: cards of the deck, none twice, none dealt before
            mask = sum(map(bits, hand))
            if (mask.bit_count() == len(hand) and not mask & seen and not mask & ~deck_mask
                    and (not complete or len(hand) == cards)):
                seen |= mask
                masks.append(mask)
                continue
            mask = 0
            for card in hand:
                if not deck_mask >> card & 1:
                    out.append(Violation("unknown-card", msg("{card} in {player}'s hand is not a card of "
                                                           "this {size}-card deck").format(
                                                               card=card, player=self.names[seat],
                                                               size=deck.size), seat, at="hand"))
                    continue
                if seen >> card & 1:
                    out.append(Violation("duplicate-card", msg("{card} is dealt twice (again to "
                                                             "{player})").format(card=card,
                                                                                 player=self.names[seat]),
                                         seat, at="hand"))
                    continue
                seen |= 1 << card
                mask |= 1 << card
            if complete and len(hand) != cards:
                out.append(Violation("deal-size", msg("{player} holds {n} cards; the deal is of "
                                                    "{cards}").format(player=self.names[seat], n=len(hand),
                                                                      cards=cards), seat, at="hand"))
            masks.append(mask)
        return masks, out

    def _check_trump(self, kind: DealKind, dealer: int, cards: int, trump: TrumpInput,
                     trump_given: bool, masks: Sequence[int] | None) -> list[Violation]:
        rules = self.rules
        deck = rules.deck_cards
        if not trump_given:
            return []
        is_joker = isinstance(trump, Card) and deck.is_joker(trump)
        real_trump = trump is not None and not is_joker
        if isinstance(trump, Card) and trump not in deck:
            return [Violation("unknown-card", msg("the trump card {trump} is not a card of this "
                                                "{size}-card deck").format(trump=trump, size=deck.size),
                              at="trump")]
        if real_trump and not has_trump(kind):
            return [Violation("trump", msg("a no-trump deal has no trump, yet {trump} is given").format(
                trump=trump), at="trump")]
        if real_trump and rules.circular_trumps:
            return [Violation("trump", msg("under circular trumps a deal has no fixed trump, yet {trump} is "
                                         "given").format(trump=trump), at="trump")]
        full = cards * self.players == rules.deck
        holder = trump_holder(rules, full)
        if holder == "no-trump":
            if real_trump:
                return [Violation("trump", msg("every card is dealt and the rules give no trump then, "
                                             "yet {trump} is given").format(trump=trump), at="trump")]
            return []
        if not isinstance(trump, Card) or masks is None:
            return []
        holders = [seat for seat, m in enumerate(masks) if m >> trump & 1]
        if holder == "dealer" and holders != [dealer]:
            rule = (f"full_deal_trump {rules.full_deal_trump}" if full
                    else f"trump_card {rules.trump_card}")
            return [Violation("trump", msg("the trump card {trump} must be the dealer {player}'s "
                                         "own card ({rule})").format(
                                             trump=trump, player=self.names[dealer], rule=rule),
                              dealer, at="trump")]
        if holder == "anyone" and not holders:
            return [Violation("trump", msg("the trump card {trump} is in nobody's hand").format(
                trump=trump), at="trump")]
        if holder == "stock" and holders:
            return [Violation("duplicate-card", msg("the trump card {trump} was turned up from the "
                                                  "stock, yet it is in {player}'s hand").format(
                                                      trump=trump, player=self.names[holders[0]]),
                              holders[0], at="trump")]
        return []

    def finish_deal(self, deal: Deal, scores: Sequence[int], replayed: bool = False) -> None:
        """Add a deal's scores to the totals and carry the pass streaks on."""
        for seat, score in enumerate(scores):
            self.totals[seat] += score
        if not replayed:
            self.scored_deals += 1
            self.pass_streaks = deal.next_pass_streaks()

    def finish(self, unfinished: bool = False) -> list[Violation]:
        """The end of the game: a ``schedule`` violation when deals are missing."""
        if unfinished:
            return []
        problem = self.schedule.missing(self.scored_deals)
        if problem is None and self.schedule.is_control(self.scored_deals - 1) and not self._decided():
            problem = msg("first place is shared after the control deals: another control deal is due "
                        "(if the game was stopped, write 'unfinished' on a line after the last deal)")
        return [Violation("schedule", problem, at="deal")] if problem else []

    def _decided(self) -> bool:
        """Whether, after a control deal, one player alone has the most points
        (no other control deal follows; the places' own rules, such as
        ``zero_total_rank``, count only at the end)."""
        return not first_place_shared(self.totals) and self.scored_deals > len(self.schedule.fixed)

    def winners(self) -> list[int]:
        """The seats in first place (co-winners share a tie; ``zero_total_rank``)."""
        return first_places(self.totals, self.rules.zero_total_rank)
