"""The heuristic bots: a bid from the hand's strength, a card by what the seat wants of the trick,
a joker's declaration by what it means; and the skill model (a bot of skill s judges and plays as it
means to with probability s). Used by :mod:`raspis_cli.simulate`'s simulator.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Sequence
from math import pi as _pi
from typing import Final, assert_never

from raspis_cli.engine import Deal, JokerDecl, Play, Violation, trick_winner
from raspis_cli.engine.deal import PLAY
from raspis_cli.engine.trick import ORDER, Entry, led_suit, natural_plays, trick_trump
from raspis_cli.model.cards import NO_SUIT, RANK_INDEX, SUIT_INDEX, Card, Suit
from raspis_cli.model.deal_kinds import DealKind, bid_view, trick_aim
from raspis_cli.model.joker_modes import known_mode
from raspis_cli.model.record import (  # the card tables are the record's: one of each
    SUIT_RUNS,
)
from raspis_cli.rules import Rules
from raspis_cli.rules.values import Void

__all__ = [
    "BID_NOISE",
    "BIT",
    "EngineDisagreementError",
    "HeuristicBot",
    "PLAIN_RANDOM",
    "RANDOM_PLAY",
    "STRENGTH",
    "SUITS",
    "TWOPI",
    "deck_tables",
    "misjudged",
    "misplays",
    "nth_bit",
    "random_below",
    "run_tables",
    "shuffle",
    "strongest",
    "weakest",
]


# how often a bot ignores its plan and plays (or bids) at random
RANDOM_PLAY: Final = 0.07
BID_NOISE: Final = 0.55
TWOPI: Final = 2.0 * _pi
"""random.gauss's constant."""
PLAIN_RANDOM: Final = random.Random
"""The generator whose draws the simulator writes out (not a subclass's)."""


class EngineDisagreementError(RuntimeError):
    """The engine reported a violation for an action it listed as legal, or
    listed no legal action at all (``violations`` empty).

    Either is an engine bug (or a set of options that leaves a player no
    move): ``violations`` are what it said, ``action`` what was done and
    ``where`` the deal (number, cards, kind, dealer seat).
    """

    def __init__(self, action: str, where: str, violations: Sequence[Violation]) -> None:
        self.action = action
        self.where = where
        self.violations = list(violations)
        if violations:
            said = "; ".join(f"{v.kind}: {v.message}" for v in violations)
            text = f"the engine rejected {action} in {where}, which it listed as legal: {said}"
        else:
            text = f"the engine lists no legal action for {action} in {where}"
        super().__init__(text)


# --- skill and club histories ---------------------------------------------------
#
# Kept apart from the bots and the run machinery above: a bot of skill s judges
# its bid as well as it can with probability s, and otherwise misjudges it by one
# to two tricks; it plays each card as it means to with probability s, and
# otherwise plays any legal card; a club history draws each game's table from a pool of names and
# spreads the games over a date range, in order.


def misjudged(estimate: float, skill: float, rng: random.Random) -> float:
    """A bid estimate as a bot of ``skill`` (0..1) makes it: unchanged with
    probability ``skill``, else off by 1 to 2 tricks either way."""
    if rng.random() < skill:
        return estimate
    return estimate + rng.choice((-2.0, -1.5, -1.0, 1.0, 1.5, 2.0))


def misplays(skill: float, rng: random.Random) -> bool:
    """Whether a bot of ``skill`` (0..1) plays this card carelessly (any legal
    card) instead of as it means to: with probability ``1 - skill``."""
    return rng.random() >= skill


class HeuristicBot:
    """The heuristic bots' choices, one seat at a time: a bid from the hand's strength (misjudged by
    the seat's skill), a card by what the seat wants of the trick, a joker's declaration by what it
    means to win or lose. A mixin: :class:`~raspis_cli.simulate.simulator.Simulator` holds the
    game's state these read."""

    rules: Rules
    skill: list[float] | None
    names: list[str]
    players: int
    rng: random.Random
    joker_mask: int
    avoid_joker_lead: bool
    suit_masks: tuple[int, ...]
    void: Void
    circular: bool
    free_after_take: bool
    """``joker_take_lead: follow-freely`` (:func:`~raspis_cli.rules.jokers.take_lead_follows_freely`)."""
    split_by_suit: bool
    _card_values: tuple[tuple[_CardValue, ...], ...]
    _joker_plays: dict[tuple[bool, bool, int], _JokerPlays]
    _scratch: Deal | None

    def _heuristic_bid(self, seat: int, legal: Sequence[int], kind: DealKind, hands: Sequence[Sequence[int]],
                       masks: Sequence[int], trump: int, cards: int) -> int:
        """The heuristic bot's bid among ``legal``: the tricks its hand may
        take (or in a dark deal its share, in a forehead deal what the others'
        hands leave), with noise, misjudged by its skill, now and then any.
        ``hands`` per seat as dealt, ``masks`` the same as hand masks, ``trump``
        the deal's trump index."""
        rng = self.rng
        fair = cards / self.players
        view = bid_view(kind)
        match view:
            case "none":
                estimate = fair + rng.gauss(0, 0.8)
            case "others":
                others = sum(self._strength(hands[s], masks[s], trump, cards)
                             for s in range(self.players) if s != seat)
                estimate = 0.5 * max(0.0, cards - others) + 0.5 * fair + rng.gauss(0, 0.6)
            case "own":
                estimate = self._strength(hands[seat], masks[seat], trump, cards)
                estimate += rng.gauss(0, BID_NOISE)
            case _:
                assert_never(view)
        if self.skill is not None:
            estimate = misjudged(estimate, self.skill[seat], rng)
        if rng.random() < RANDOM_PLAY / 2:
            return rng.choice(legal)
        target = min(max(round(estimate), 0), cards)
        if len(legal) == cards + 1:
            return choice_of_one(rng, target)  # every bid is legal: the target is the nearest
        distances = [abs(b - target) for b in legal]
        best = min(distances)
        return rng.choice([b for b, d in zip(legal, distances, strict=True) if d == best])

    def _strength(self, hand: Sequence[int], mask: int, trump: int, cards: int) -> float:
        """Tricks a hand may take: high cards, trumps and the joker. ``hand``
        in the order dealt (the values are added in that order), ``mask``
        the same cards, ``trump`` the deal's trump index."""
        suit_masks = self.suit_masks
        lengths = ((mask & suit_masks[0]).bit_count(), (mask & suit_masks[1]).bit_count(),
                   (mask & suit_masks[2]).bit_count(), (mask & suit_masks[3]).bit_count())
        # with many cards per player side suits run out and get trumped
        side_ace = 0.85 if trump == NO_SUIT else max(0.45, 0.85 - 0.04 * cards)
        values = self._card_values[trump]
        value = 0.0
        for card in hand:
            entry = values[card]
            if entry is not None:
                suit, need, short, long = entry
                if suit < 0:
                    value += side_ace
                else:
                    value += long if lengths[suit] >= need else short
        return min(value, float(cards))

    # --- play --------------------------------------------------------------------

    def _holder_play(self, seat: int, allowed: int, held: int, position: int, trick_number: int,
                     leader: int, played: Sequence[int], want: bool, beats: int, trumps: int,
                     lead_trumps: int, trump: int, led: int, deal_trump: Suit | None,
                     where: str) -> int | Play:
        """:meth:`_choose` for a joker's holder while no joker is in the trick,
        on bit masks: ``allowed`` the natural cards it may play, ``held`` its
        jokers, ``played`` the trick so far from ``leader``, ``want`` whether
        it wants the trick, ``beats`` the cards that would beat the trick so
        far, ``trumps`` the trick's trump suit (a mask), ``lead_trumps`` the
        deal's, ``trump`` and ``led`` the trick's trump and suit led (indexes),
        ``deal_trump`` the deal's trump suit."""
        jokers: Sequence[Play] = (self._joker_plays.get((not position, trick_number > 1, held))
                                  or self._joker_choices(seat, held, position, trick_number,
                                                         leader, played))
        count = allowed.bit_count() + len(jokers)
        if count <= 1:
            if allowed:
                return allowed.bit_length() - 1
            if not jokers:
                raise EngineDisagreementError(f"{self.names[seat]} to play in trick {trick_number}",
                                              where, [])
            return jokers[0]
        rng = self.rng
        if rng.random() < RANDOM_PLAY or (self.skill is not None and misplays(self.skill[seat], rng)):
            index = rng.randrange(count)  # as rng.choice(legal plays)
            naturals = count - len(jokers)
            return nth_bit(allowed, index) if index < naturals else jokers[index - naturals]
        if not position:
            return self._lead_masks(allowed, jokers, want, deal_trump, lead_trumps)
        winners = allowed & beats
        if want and winners:
            return weakest(winners, trumps) if position == self.players - 1 else strongest(winners, trumps)
        losers = allowed ^ winners
        if not want and losers:
            return strongest(losers, trumps)
        joker = self._pick_joker(jokers, want, False, None if trump == NO_SUIT else SUITS[trump], led)
        if joker is not None:
            return joker
        return weakest(allowed, trumps) if allowed else jokers[0]

    def _after_joker(self, seat: int, hand: int, trick: Sequence[Entry], position: int, want: bool,
                     deal_trump: int, trump_suit: Suit | None, trick_number: int, where: str) -> int:
        """:meth:`_choose` for a seat without a joker in a trick with one, on
        bit masks: ``hand`` its cards, ``want`` whether it wants the trick,
        ``deal_trump`` the deal's trump index (``trump_suit`` as a suit)."""
        allowed = self._allowed(hand, trick, deal_trump)
        if not allowed & (allowed - 1):
            if not allowed:
                raise EngineDisagreementError(f"{self.names[seat]} to play in trick {trick_number}",
                                              where, [])
            return allowed.bit_length() - 1
        rng = self.rng
        if rng.random() < RANDOM_PLAY or (self.skill is not None and misplays(self.skill[seat], rng)):
            return nth_bit(allowed, rng.randrange(allowed.bit_count()))
        if self.circular:
            led, _ = led_suit(trick, self.joker_mask)
            trump = trick_trump(NO_SUIT if led is None else led, deal_trump, True)
        else:
            trump = deal_trump
        trumps = self.suit_masks[trump] if trump != NO_SUIT else 0
        # _split: the cards that would win the trick, suit by suit (a suit's
        # cards win from some rank up), trick_winner deciding
        rules = self.rules
        joker_mask = self.joker_mask
        winners = 0
        for run in SUIT_RUNS:
            group = allowed & run
            if not group:
                continue
            top = group.bit_length() - 1
            if trick_winner([*trick, (seat, top, None)], rules, joker_mask, trump_suit) != position:
                continue
            low = (group & -group).bit_length() - 1
            if low == top or trick_winner([*trick, (seat, low, None)], rules, joker_mask,
                                          trump_suit) == position:
                winners |= group
                continue
            cards = _bits(group)  # cards[0] loses, cards[-1] wins
            first, last = 0, len(cards) - 1
            while last - first > 1:
                middle = (first + last) // 2
                if trick_winner([*trick, (seat, cards[middle], None)], rules, joker_mask,
                                trump_suit) == position:
                    last = middle
                else:
                    first = middle
            winners |= group & -(1 << cards[last])
        if want:
            if not winners:
                return weakest(allowed, trumps)
            if position == self.players - 1:
                return weakest(winners, trumps)
            return strongest(winners, trumps)
        losers = allowed ^ winners
        return strongest(losers, trumps) if losers else weakest(allowed, trumps)

    def _allowed(self, hand: int, trick: Sequence[Entry], deal_trump: int) -> int:
        """The natural cards of ``hand`` that may be played on ``trick``
        (:meth:`Deal.legal_naturals`: the suit led, a leading joker's demand,
        ``void``), ``deal_trump`` the deal's trump index."""
        return natural_plays(hand, trick, self.joker_mask, deal_trump, self.circular, self.void,
                             self.free_after_take, self.suit_masks)[0]

    def _joker_choices(self, seat: int, jokers: int, position: int, trick_number: int, leader: int,
                       played: Sequence[int]) -> _JokerPlays:
        """The engine's legal joker plays of ``seat`` holding ``jokers`` in
        trick ``trick_number`` with no joker played in it yet (``played``
        from ``leader``: natural cards): :meth:`_joker_choices_on`, kept by
        what decides them (leading or not, past the first trick, the jokers)."""
        key = (not position, trick_number > 1, jokers)
        known = self._joker_plays.get(key)
        if known is None:
            n = self.players
            trick: list[Entry] = [((leader + k) % n, c, None) for k, c in enumerate(played)]
            known = self._joker_plays[key] = _JokerPlays(
                self._joker_choices_on(seat, jokers, trick, trick_number))
        return known

    def _joker_choices_on(self, seat: int, jokers: int, trick: list[Entry],
                          trick_number: int) -> list[Play]:
        """The engine's legal joker plays (:meth:`Deal.legal_joker_plays`) of
        ``seat`` holding ``jokers`` on ``trick``: asked of a deal put in that
        state."""
        scratch = self._scratch
        if scratch is None:
            scratch = self._scratch = Deal(self.rules, self.players, 0, 1)
        hands = [0] * self.players
        hands[seat] = jokers
        scratch.hands = hands
        scratch.phase = PLAY
        scratch.trick = list(trick)
        scratch.leader = (seat - len(trick)) % self.players
        scratch.trick_number = trick_number
        return scratch.legal_joker_plays()

    def _choose_play(self, deal: Deal, seat: int, where: str) -> int | Play:
        """A legal play on the engine's state: a natural card as its index, a
        joker as a :class:`Play` with its declaration (:meth:`_choose` among
        :meth:`Deal.legal_naturals` and :meth:`Deal.legal_joker_plays`)."""
        allowed = deal.legal_naturals()
        hands = deal.hands
        assert hands is not None
        jokers = deal.legal_joker_plays() if hands[seat] & self.joker_mask else []
        return self._choose(seat, allowed, jokers, deal.trick, deal.trump, deal.kind, deal.bids,
                            deal.taken, deal.trick_number, where)

    def _choose(self, seat: int, allowed: int, jokers: Sequence[Play], trick: Sequence[Entry],
                deal_trump: Suit | None, kind: DealKind, bids: Sequence[int | None],
                taken: Sequence[int], trick_number: int, where: str) -> int | Play:
        """The heuristic bot's play among the natural cards ``allowed`` (a
        mask) and the joker plays ``jokers``, on ``trick`` so far: a natural
        card as its index, a joker as a :class:`Play`. The legal plays are
        counted as :meth:`Deal.legal_plays` lists them (natural cards first,
        lowest index first, then the joker plays)."""
        naturals = _bits(allowed)
        count = len(naturals) + len(jokers)
        if count == 1:
            return naturals[0] if naturals else jokers[0]
        rng = self.rng
        if not count:
            raise EngineDisagreementError(f"{self.names[seat]} to play in trick {trick_number}",
                                          where, [])
        if rng.random() < RANDOM_PLAY or (self.skill is not None and misplays(self.skill[seat], rng)):
            index = rng.randrange(count)  # as rng.choice(legal plays)
            return naturals[index] if index < len(naturals) else jokers[index - len(naturals)]
        aim = trick_aim(kind)
        match aim:
            case "none":
                want = False
            case "all":
                want = True
            case "bid":
                bid = bids[seat]
                want = bid is not None and taken[seat] < bid
            case _:
                assert_never(aim)
        trump = deal_trump
        if not trick:
            return self._lead_masks(allowed, jokers, want, trump,
                                    0 if trump is None else self.suit_masks[trump])
        led_as_suit, _ = led_suit(trick, self.joker_mask)
        led = None if led_as_suit is None else int(led_as_suit)
        if self.rules.circular_trumps:
            circular = trick_trump(NO_SUIT if led is None else led, NO_SUIT, True)
            trump = None if circular == NO_SUIT else SUITS[circular]
        rank = STRENGTH[4 if trump is None else trump].__getitem__
        winners, losers = self._split(trick, deal_trump, seat, led, trump, naturals)
        if want:
            if winners:
                last = len(trick) == self.players - 1
                if last:
                    return min(winners, key=rank)
                return max(winners, key=rank)
            joker = self._pick_joker(jokers, True, False, trump, led)
            if joker is not None:
                return joker
            return min(naturals, key=rank) if naturals else jokers[0]
        if losers:
            return max(losers, key=rank)
        joker = self._pick_joker(jokers, False, False, trump, led)
        if joker is not None:
            return joker
        return min(naturals, key=rank) if naturals else jokers[0]

    def _lead_masks(self, allowed: int, jokers: Sequence[Play], want: bool, trump: Suit | None,
                    trumps: int) -> int | Play:
        """The heuristic bot's lead among the natural cards ``allowed`` (a mask;
        ``trumps`` the trump suit's cards) and the joker plays ``jokers``:
        wanting the trick, the strongest card (or, unless it is a sure winner,
        a joker three times in four); not wanting it, the weakest card give or
        take half a rank, else a joker that loses."""
        rng = self.rng
        shy = self.avoid_joker_lead and allowed != 0
        if want:
            if allowed:
                best = strongest(allowed, trumps)
                sure = RANK_INDEX[best] == 12 and (trump is None or SUIT_INDEX[best] == trump)
                if jokers and not sure and not (shy and rng.random() < 0.8):
                    joker = self._pick_joker(jokers, True, True, trump, None)
                    if joker is not None and rng.random() < 0.75:
                        return joker
                return best
            joker = self._pick_joker(jokers, True, True, trump, None)
            return joker if joker is not None else rng.choice(jokers)
        if allowed:
            strength = STRENGTH[4 if trump is None else trump]
            random = rng.random
            card = -1
            lowest = 0.0
            while allowed:
                low = allowed & -allowed
                c = low.bit_length() - 1
                key = strength[c] + random() * 0.5
                if card < 0 or key < lowest:
                    card, lowest = c, key
                allowed ^= low
            return card
        joker = self._pick_joker(jokers, False, True, trump, None)
        return joker if joker is not None else rng.choice(jokers)

    def _split(self, trick: Sequence[Entry], deal_trump: Suit | None, seat: int, led: int | None,
               trump: Suit | None, naturals: Sequence[int]) -> tuple[list[int], list[int]]:
        """The natural cards that would now win the trick so far, and the rest."""
        joker_mask = self.joker_mask
        winners: list[int] = []
        losers: list[int] = []
        plain = led is not None
        best = 0  # the best key of the trick so far, when it has no joker
        if led is not None:
            keys = ORDER[led][NO_SUIT if trump is None else trump]
            for _, card, _ in trick:
                if joker_mask >> card & 1:
                    plain = False
                    break
                key = keys[card]
                if key > best:
                    best = key
        if not plain:
            rules = self.rules
            position = len(trick)

            def wins(card: int) -> bool:
                entries = [*trick, (seat, card, None)]
                return trick_winner(entries, rules, joker_mask, deal_trump) == position

            if not self.split_by_suit:
                for card in naturals:
                    (winners if wins(card) else losers).append(card)
                return winners, losers
            # the cards of one suit win from some rank up (what decides the
            # trick besides their rank is their suit), so a suit's highest card
            # losing, or its lowest winning, settles the suit
            start = 0
            while start < len(naturals):
                suit = SUIT_INDEX[naturals[start]]
                end = start + 1
                while end < len(naturals) and SUIT_INDEX[naturals[end]] == suit:
                    end += 1
                group = naturals[start:end]
                if not wins(group[-1]):
                    losers += group
                elif len(group) == 1 or wins(group[0]):
                    winners += group
                else:
                    low, high = 0, len(group) - 1  # group[low] loses, group[high] wins
                    while high - low > 1:
                        middle = (low + high) // 2
                        if wins(group[middle]):
                            high = middle
                        else:
                            low = middle
                    losers += group[:high]
                    winners += group[high:]
                start = end
            return winners, losers
        for card in naturals:
            (winners if keys[card] > best else losers).append(card)
        return winners, losers

    def _pick_joker(self, jokers: Sequence[Play], win: bool, leading: bool, trump: Suit | None,
                    led: int | None) -> Play | None:
        """The joker play that best wins (or best loses), ``None`` if none does."""
        if not jokers:
            return None
        rng = self.rng
        if win and not leading and self.rules.joker_take_beaten_by_trump and rng.random() < 0.5:
            # under joker_take_beaten_by_trump the suit a following `take` names
            # matters: name any (a non-trump one may be beaten), so that
            # simulated games exercise the rule
            takes = [p for p in jokers if p.joker is not None and p.joker.mode == "take"]
            if takes:
                return rng.choice(takes)
        if isinstance(jokers, _JokerPlays):
            # what each play means, worked out once for the plays, the lead, trump and suit led
            intents = jokers.intents.get((leading, trump, led))
            if intents is None:
                intents = jokers.intents[(leading, trump, led)] = [
                    _joker_intent(p.joker, leading, trump, led) for p in jokers.declared]
            random = rng.random
            scored = [(intent + random() * 0.01, p)
                      for intent, p in zip(intents, jokers.declared, strict=True)]
        else:
            scored = [(_joker_intent(p.joker, leading, trump, led) + rng.random() * 0.01, p)
                      for p in jokers if p.joker is not None]
        if win:
            value, play = max(scored, key=_first)
            return play if value > 0 else None
        value, play = min(scored, key=_first)
        return play if value < 0 else None




class _JokerPlays(tuple[Play, ...]):
    """A seat's legal joker plays in one situation (:meth:`Simulator._joker_choices`),
    with the plays that declare something and, per lead, trump and suit led, what
    each of those means to win or lose (:func:`_joker_intent`), worked out once."""

    declared: tuple[Play, ...]
    intents: dict[tuple[bool, Suit | None, int | None], list[float]]

    def __new__(cls, plays: Sequence[Play]) -> _JokerPlays:
        made = super().__new__(cls, plays)
        made.declared = tuple(p for p in plays if p.joker is not None)
        made.intents = {}
        return made


_first: Final = operator.itemgetter(0)


BIT: Final = tuple(1 << i for i in range(54))
"""Each card index's bit in a hand mask."""

SUITS: Final = tuple(Suit)
"""Suit members by index."""


def run_tables() -> tuple[dict[tuple[str, int | None, int, int], int],
                           dict[tuple[bool, bool, int], _JokerPlays]]:
    """What the games of a run under one set of rules share, empty: the
    scores by kind, bid and tricks taken, and the joker plays by what decides
    them."""
    return {}, {}


def deck_tables(cards: Sequence[Card], joker_mask: int) -> tuple[
        tuple[int, ...], tuple[tuple[int, int], ...], tuple[tuple[_CardValue, ...], ...]]:
    """A deck's cards as indices, its shuffle's steps (:func:`shuffle_steps`)
    and per trump index what each card adds to a hand (:func:`_card_values`)."""
    return (tuple(int(c) for c in cards), shuffle_steps(len(cards)),
            tuple(_card_values(joker_mask, trump) for trump in range(NO_SUIT + 1)))


def shuffle_steps(size: int) -> tuple[tuple[int, int], ...]:
    """What :func:`shuffle` draws for a list of ``size``: each position
    from the last down to the second, and the bits of a draw below it plus one."""
    return tuple((i, (i + 1).bit_length()) for i in reversed(range(1, size)))


def shuffle(rng: random.Random, deck: list[int], steps: Sequence[tuple[int, int]]) -> None:
    """``rng.shuffle(deck)``, the same draws and swaps: for a plain
    :class:`random.Random`, its shuffle with the position loop and its
    ``_randbelow`` (``getrandbits`` until below the bound) written out, which
    saves a Python call per card (``tests/test_sim_fast.py`` holds it to
    ``rng.shuffle``); anything else is asked to shuffle."""
    if type(rng) is not random.Random:
        rng.shuffle(deck)
        return
    getrandbits = rng.getrandbits
    for i, bits in steps:
        j = getrandbits(bits)
        while j > i:
            j = getrandbits(bits)
        deck[i], deck[j] = deck[j], deck[i]


def random_below(rng: random.Random, count: int) -> int:
    """``rng.randrange(count)``, the same draws: for a plain :class:`random.Random`
    its ``_randbelow`` written out (``getrandbits`` until below ``count``)."""
    if type(rng) is not random.Random:
        return rng.randrange(count)
    getrandbits = rng.getrandbits
    bits = count.bit_length()
    index = getrandbits(bits)
    while index >= count:
        index = getrandbits(bits)
    return index


def choice_of_one(rng: random.Random, value: int) -> int:
    """``rng.choice((value,))``: the same draw (one bit until it is 0), without the call."""
    if type(rng) is not random.Random:
        return rng.choice((value,))
    getrandbits = rng.getrandbits
    while getrandbits(1):
        pass
    return value


def nth_bit(mask: int, index: int) -> int:
    """The card of the ``index``-th set bit of a mask, lowest first (what
    ``_bits(mask)[index]`` is)."""
    for _ in range(index):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def strongest(mask: int, trumps: int) -> int:
    """``max(_bits(mask), key=STRENGTH[trump].__getitem__)`` of natural
    cards, ``trumps`` the trump suit's cards (``0``: no trump): the highest
    trump, else the highest rank, the lowest suit of that rank."""
    found = mask & trumps
    if found:
        return found.bit_length() - 1
    top = mask.bit_length() - 1
    if not mask & ~SUIT_RUNS[SUIT_INDEX[top]]:
        return top  # one suit
    for ranks in _RANKS_DOWN:
        found = mask & ranks
        if found:
            return (found & -found).bit_length() - 1
    return -1  # pragma: no cover - mask holds a card


def weakest(mask: int, trumps: int) -> int:
    """``min(_bits(mask), key=STRENGTH[trump].__getitem__)`` of natural
    cards, ``trumps`` the trump suit's cards: the lowest rank not a trump,
    the lowest suit of that rank; else the lowest trump."""
    rest = mask & ~trumps
    if not rest:
        return (mask & -mask).bit_length() - 1
    low = (rest & -rest).bit_length() - 1
    if not rest & ~SUIT_RUNS[SUIT_INDEX[low]]:
        return low  # one suit
    for ranks in _RANKS_UP:
        found = rest & ranks
        if found:
            return (found & -found).bit_length() - 1
    return -1  # pragma: no cover - rest holds a card



_RANKS_UP: Final = tuple(sum(1 << (13 * s + r) for s in range(4)) for r in range(13))
"""Each rank's cards, the two upwards."""

_RANKS_DOWN: Final = _RANKS_UP[::-1]
"""Each rank's cards, the ace downwards."""


def _bits(mask: int) -> list[int]:
    """The set bits of a mask, lowest first (a hand mask's card indices)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


_TRUMP_VALUE: Final = {14: 1.0, 13: 0.85, 12: 0.7, 11: 0.55, 10: 0.45}

_CardValue = tuple[int, int, float, float] | None


def _card_values(joker_mask: int, trump: int) -> tuple[_CardValue, ...]:
    """What each card adds to :meth:`Simulator._strength` with this trump
    index: ``None`` nothing, else ``(suit, length, short, long)``: ``long``
    when the hand holds at least ``length`` cards of ``suit``, else
    ``short`` (suit ``-1``: a side ace, whose value depends on the deal).
    The values are the very floats the rules of thumb add: a joker 0.95; a
    trump by rank (0.3 below a ten) and 0.1 more with three trumps; a side
    king 0.45 with another card of its suit, else 0.2; a side queen 0.2 with
    two more."""
    out: list[_CardValue] = []
    for card in range(54):
        suit, rank = SUIT_INDEX[card], RANK_INDEX[card] + 2
        entry: _CardValue = None
        if joker_mask >> card & 1:
            entry = (0, 0, 0.95, 0.95)
        elif suit == trump:
            entry = (suit, 3, _TRUMP_VALUE.get(rank, 0.3) + 0.0, _TRUMP_VALUE.get(rank, 0.3) + 0.1)
        elif rank == 14:
            entry = (-1, 0, 0.0, 0.0)
        elif rank == 13:
            entry = (suit, 2, 0.2, 0.45)
        elif rank == 12:
            entry = (suit, 3, 0.0, 0.2)
        out.append(entry)
    return tuple(out)


STRENGTH: Final = tuple(
    tuple(RANK_INDEX[c] + (13 if SUIT_INDEX[c] == trump else 0) for c in range(54))
    for trump in range(NO_SUIT + 1)
)
"""How strong a natural card is, per trump suit (index 4: no trump)."""


def _joker_intent(decl: JokerDecl | None, leading: bool, trump: Suit | None, led: int | None) -> float:
    """How much a joker declaration means to win (> 0) or to lose (< 0)."""
    if decl is None:  # pragma: no cover - jokers always carry one
        return 0.0
    mode = known_mode(decl.mode)
    if mode is None:  # pragma: no cover - the bots declare only the table's modes
        return 0.0
    match mode:
        case "high" | "lowest" | "take":
            bonus = 0.1 if decl.suit is not None and decl.suit == trump else 0.0
            return 1.0 + bonus + (0.05 if mode == "high" else 0.0)
        case "low" | "discard":
            return -1.0 - (0.1 if led is not None and decl.suit == led else 0.0)
        case "as":
            card = decl.card
            if card is None:  # pragma: no cover - an 'as' declaration names its card
                return 0.0
            rank = RANK_INDEX[card]
            suit = SUIT_INDEX[card]
            if trump is not None and suit == trump:
                return 0.5 + rank / 26 if rank >= 11 else -0.2 + rank / 100
            if leading or suit == led:
                return 0.3 + rank / 26 if rank == 12 else -0.5 - (12 - rank) / 26
            return -1.0 - (12 - rank) / 26
        case _:
            assert_never(mode)
