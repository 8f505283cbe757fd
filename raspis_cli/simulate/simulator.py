"""The simulator of one game: deals the cards, has the bots bid and play, writes the record.

The heuristic bots play each deal as one loop on integers (:meth:`Simulator.play_compact`) with
the engine's rule tables; the PIMC bots (and ``Simulator.fast_play`` off) play through the engine
itself. ``tests/test_sim_fast.py`` holds the two to the same games.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import cos as _cos
from math import log as _log
from math import sin as _sin
from math import sqrt as _sqrt
from typing import Any, Final, TypeVar, assert_never, cast

from raspis_cli.bots.heuristic import (
    BID_NOISE,
    BIT,
    PLAIN_RANDOM,
    RANDOM_PLAY,
    STRENGTH,
    SUITS,
    TWOPI,
    EngineDisagreementError,
    HeuristicBot,
    deck_tables,
    misjudged,
    misplays,
    nth_bit,
    random_below,
    run_tables,
    shuffle,
    strongest,
    weakest,
)
from raspis_cli.bots.pimc import BOTS, PimcBot
from raspis_cli.engine import Deal, Game, JokerDecl, Play, trick_winner
from raspis_cli.engine.deal import DONE
from raspis_cli.engine.scoring import bid_score
from raspis_cli.engine.trick import ORDER, Entry, trick_trump
from raspis_cli.engine.trick import must_trump as trumps_when_void
from raspis_cli.model.cards import NO_SUIT, SUIT_INDEX, Card
from raspis_cli.model.deal_kinds import bid_view, has_bids, has_trump, trick_aim
from raspis_cli.model.record import (  # the card tables are the record's: one of each
    CARD_OF,
    NO_TRUMP,
    CompactDeal,
    CompactTrickInts,
    DealRecord,
    TrumpValue,
)
from raspis_cli.rules import Rules
from raspis_cli.rules.bidding import forbidden_bids, next_pass_streak, pass_limit
from raspis_cli.rules.jokers import take_lead_follows_freely
from raspis_cli.rules.seats import first_leader
from raspis_cli.rules.values import DealKind

__all__ = [
    "Simulator",
    "made_once",
]


_T = TypeVar("_T")


_ONCE: dict[tuple[str, object], object] = {}
"""What :func:`made_once` made, by what it is and what it is made from."""
_ONCE_MAX: Final = 256


def made_once(key: tuple[str, object], make: Callable[[], _T]) -> _T:
    """``make()``, made once per ``key`` (the same rules' deal plan, a deck's
    tables): a run of games makes them once, not once a game."""
    try:
        return cast(_T, _ONCE[key])
    except KeyError:
        pass
    if len(_ONCE) >= _ONCE_MAX:
        _ONCE.clear()
    made = _ONCE[key] = make()
    return made




@dataclass(frozen=True, slots=True)
class _Dealt:
    """The cards of one deal: hands per seat, the trump as recorded and as
    the engine takes it."""

    hands: list[list[Card]]
    trump_record: TrumpValue
    trump_card: Card | None


def _where(number: int, cards: int, kind: DealKind, dealer: int) -> str:
    """A deal as :class:`EngineDisagreementError` names it."""
    return f"deal {number} ({cards} cards, {kind}, dealer seat {dealer})"


class Simulator(HeuristicBot):
    """Bots for one game: deals the cards, bids, plays, writes the record."""

    fast_play = True
    """Whether the heuristic bots play a whole deal as one loop on integers
    (:meth:`play_compact`) rather than card by card on the engine's objects
    (:meth:`play_engine_deal`, the engine listing and applying each play):
    the same games, faster. The tests turn it off to compare the two."""

    split_by_suit = True
    """Whether the bots find which natural cards would win a trick with a
    joker in it suit by suit (a suit's cards win from some rank up) rather
    than by asking :func:`trick_winner` of every card: the same choice, fewer
    questions. The tests turn it off on the card-by-card path."""

    def __init__(self, rules: Rules, names: Sequence[str], rng: random.Random, detail: str,
                 skill: Sequence[float] | None = None) -> None:
        self.rules = rules
        # per seat, the chance of judging a bid right (None: every bot judges as well as it can)
        self.skill = list(skill) if skill is not None and any(s < 1.0 for s in skill) else None
        self.names = list(names)
        self.players = len(names)
        self.rng = rng
        self.detail = detail
        deck = rules.deck_cards
        self.deck_cards = list(deck.cards)
        # the deck as card indices, its shuffle's draws, what each card adds to
        # a hand's strength: made once per deck
        self._deck_ints, self.shuffle_steps, self._card_values = made_once(
            ("deck", (deck.size, deck.joker_mask)), lambda: deck_tables(deck.cards, deck.joker_mask))
        self.joker_mask = deck.joker_mask
        self.avoid_joker_lead = rules.joker_lead_penalty < 0
        self.suit_masks = deck.suit_masks
        self.void = rules.void
        self.circular = rules.circular_trumps
        self.free_after_take = take_lead_follows_freely(rules)
        self.pass_limit = pass_limit(rules.third_pass, self.players)
        """The passes in a row nobody may make (:func:`~raspis_cli.rules.bidding.pass_limit`)."""
        self.pimc: dict[int, PimcBot] = {}
        self.totals = [0] * self.players
        """The running totals of the deals :meth:`play_compact` played."""
        self.pass_streaks = [0] * self.players
        """Per seat, the deals with bids in a row passed, as :class:`Game`
        counts them, for :meth:`play_compact` (kept under a pass limit,
        ``third_pass``, the one rule that reads them)."""
        # bid_score by kind, bid and tricks taken, and the joker plays by what
        # decides them: shared by the games of a run
        self._scores, self._joker_plays = made_once(("rules", rules), run_tables)
        self._scratch: Deal | None = None

    def use_bots(self, bots: Sequence[str], samples: int | None) -> None:
        """Give the seats named ``pimc`` in ``bots`` a :class:`PimcBot`."""
        for seat, bot in enumerate(bots):
            if bot not in BOTS:
                raise ValueError(f"the bots are {', '.join(BOTS)}, not {bot!r}")
            if bot == "pimc":
                rng = random.Random(self.rng.getrandbits(64))
                self.pimc[seat] = (PimcBot(rng) if samples is None else PimcBot(rng, samples))

    @property
    def fast(self) -> bool:
        """Whether this game's deals are played by :meth:`play_compact`
        (:attr:`fast_play` and no seat has a PIMC bot: every rule it reads,
        it reads through the engine's functions)."""
        return self.fast_play and not self.pimc

    # --- dealing ---------------------------------------------------------------

    def _shuffle(self, dealer: int, cards: int, kind: DealKind) -> tuple[list[list[int]], int | None]:
        """Shuffle and deal one card at a time from the player left of the
        dealer: the hands per seat as card indices, and the trump card turned
        up or shown (``None``: no trump)."""
        rng = self.rng
        players = self.players
        deck = list(self._deck_ints)
        shuffle(rng, deck, self.shuffle_steps)
        dealt = cards * players
        hands: list[list[int]] = [[]] * players
        for offset in range(players):
            hands[(dealer + 1 + offset) % players] = deck[offset:dealt:players]
        rules = self.rules
        card: int | None
        if not has_trump(kind) or self.circular:
            card = None
        elif dealt == rules.deck:
            mode = rules.full_deal_trump
            match mode:
                case "dealer-shows":
                    card = rng.choice(hands[dealer])
                case "last-card":
                    card = deck[dealt - 1]
                case "random-card":
                    card = rng.choice(deck)
                case "none":
                    card = None
                case _:
                    assert_never(mode)
        else:
            match rules.trump_card:
                case "turned-up":
                    card = deck[dealt]
                case "dealer-last":
                    card = deck[dealt - 1]
                case _:
                    assert_never(rules.trump_card)
        return hands, card

    def deal_cards(self, dealer: int, cards: int, kind: DealKind) -> _Dealt:
        """Shuffle and deal one card at a time from the player left of the
        dealer; turn up or show the trump."""
        hands, card = self._shuffle(dealer, cards, kind)
        trump = None if card is None else CARD_OF[card]
        return _Dealt([[CARD_OF[c] for c in hand] for hand in hands],
                      NO_TRUMP if trump is None else trump, trump)

    # --- one deal through the engine ---------------------------------------------

    def play_deal(self, game: Game, number: int, kind: DealKind, cards: int, dealer: int,
                  allow: Sequence[str] = ()) -> DealRecord:
        """Deal, bid and play one deal on ``game`` (:meth:`play_engine_deal`);
        finish it there and return its record at this simulator's detail."""
        return self.play_engine_deal(game, number, kind, cards, dealer, allow).to_record(self.names)

    def play_engine_deal(self, game: Game, number: int, kind: DealKind, cards: int, dealer: int,
                         allow: Sequence[str] = ()) -> CompactDeal:
        """Deal, bid and play one deal on ``game``, the engine checking the
        deal as dealt, every bid and listing every legal play; finish it there
        and return it at this simulator's detail. ``allow`` are kinds of
        violation the deal's start may have (the fault injector's)."""
        dealt = self.deal_cards(dealer, cards, kind)
        where = _where(number, cards, kind, dealer)
        deal, problems = game.start_deal(number, kind, dealer, cards, dealt.trump_card, True,
                                         dealt.hands)
        problems = [v for v in problems if v.kind not in allow]
        if problems:
            raise EngineDisagreementError("the deal as dealt", where, problems)
        self._bid(deal, dealt, where)
        self._play_by_objects(deal, dealt, where)
        scores = deal.scores()
        game.finish_deal(deal, scores)
        masks = [sum(BIT[c] for c in hand) for hand in dealt.hands]
        tricks: list[CompactTrickInts] = []
        for trick in deal.history:
            entries = trick.entries
            played = [c for _, c, _ in entries]
            joker = any(self.joker_mask >> c & 1 for c in played)
            tricks.append((trick.leader, played, [d for _, _, d in entries] if joker else None))
        card = dealt.trump_card
        return self._compact(number, kind, cards, dealer, list(deal.taken),
                             list(deal.bids) if deal.has_bids else None, scores, game.totals,
                             list(deal.penalty_notes), -1 if card is None else int(card), masks,
                             tricks)

    def _compact(self, number: int, kind: DealKind, cards: int, dealer: int, taken: list[int],
                 bids: list[int | None] | None, scores: list[int], totals: list[int],
                 penalties: list[tuple[int, int, str]], trump: int, hands: list[int],
                 tricks: list[CompactTrickInts]) -> CompactDeal:
        """A played deal at this simulator's detail: ``sheet`` bids and taken,
        ``scores`` with penalties, scores and totals, ``full`` everything."""
        detail = self.detail
        if detail == "sheet":
            return CompactDeal(number, kind, cards, dealer, taken, bids)
        if detail == "scores":
            return CompactDeal(number, kind, cards, dealer, taken, bids, scores, list(totals),
                               penalties)
        return CompactDeal(number, kind, cards, dealer, taken, bids, scores, list(totals),
                           penalties, trump, hands, tricks)

    def play_out(self, deal: Deal, where: str) -> None:
        """Play ``deal`` (in its play, bids set, hands known) out to its last
        trick by the heuristic bots, each seat aiming at its bid; ``where``
        names the deal in an :class:`EngineDisagreementError`."""
        choose = self._choose_play
        apply = deal.apply_legal
        while deal.phase != DONE:
            seat = deal.to_play
            assert seat is not None
            choice = choose(deal, seat, where)
            if isinstance(choice, Play):
                apply(seat, choice.card, choice.joker)
            else:
                apply(seat, choice)

    def _play_by_objects(self, deal: Deal, dealt: _Dealt, where: str) -> None:
        """Play the deal out card by card: each card chosen by
        :meth:`_choose_play` on the engine's state (the seats with a PIMC bot
        asking it first) and applied by the engine."""
        # the bots choose only among the engine's legal plays, so the play is
        # applied unchecked (Deal.apply_legal): checking it again would cost
        # as much as choosing it
        choose = self._choose_play
        apply = deal.apply_legal
        pimc = self.pimc
        while deal.phase != DONE:
            seat = deal.to_play
            assert seat is not None
            bot = pimc.get(seat) if pimc else None
            planned = bot.play(deal, seat, dealt.trump_card) if bot is not None else None
            choice = planned if planned is not None else choose(deal, seat, where)
            if isinstance(choice, Play):
                apply(seat, choice.card, choice.joker)
            else:
                apply(seat, choice)

    def _bid(self, deal: Deal, dealt: _Dealt, where: str) -> None:
        """The bids of a deal through the engine: each chosen among its
        :meth:`Deal.legal_bids` (or by a seat's PIMC bot) and made there."""
        while (seat := deal.next_bidder) is not None:
            legal = deal.legal_bids()
            bot = self.pimc.get(seat)
            chosen = bot.bid(deal, seat, dealt.trump_card) if bot is not None else None
            if chosen is not None:
                problems = deal.bid(seat, chosen)
                if problems:
                    raise EngineDisagreementError(f"{self.names[seat]} bidding {chosen}", where,
                                                  problems)
                continue
            if not legal:  # pragma: no cover - the engine always leaves a bid
                raise EngineDisagreementError(f"{self.names[seat]} bidding", where, [])
            bid = self._heuristic_bid(seat, legal, deal.kind, dealt.hands,
                                      [sum(BIT[c] for c in hand) for hand in dealt.hands],
                                      NO_SUIT if deal.trump is None else int(deal.trump), deal.cards)
            problems = deal.bid(seat, bid)
            if problems:
                raise EngineDisagreementError(f"{self.names[seat]} bidding {bid}", where, problems)

    # --- one deal as integers ----------------------------------------------------

    def play_compact(self, number: int, kind: DealKind, cards: int, dealer: int) -> CompactDeal:
        """Deal, bid and play one deal with the heuristic bots as one loop on
        integers, and return it at this simulator's detail; :attr:`totals`
        and :attr:`pass_streaks` go on from it.

        The same game as :meth:`play_engine_deal` (the same random numbers,
        bids and plays: ``tests/test_sim_fast.py``), without the engine's
        objects: the legal bids and follow masks are worked out here with the
        engine's rule tables (:mod:`raspis_cli.engine.trick`), a trick
        without a joker is won on bit masks, a joker's trick by the engine's
        :func:`trick_winner`, the joker plays are the engine's
        (:meth:`Deal.legal_joker_plays`) and the scores its
        :func:`~raspis_cli.engine.scoring.bid_score`. Nothing is checked
        again: the tests replay simulated games of every preset and option
        set through the engine and the validator, and they come out clean."""
        rng = self.rng
        n = self.players
        where = _where(number, cards, kind, dealer)
        lists, trump_card = self._shuffle(dealer, cards, kind)
        joker_mask = self.joker_mask
        circular = self.circular
        if trump_card is None or not has_trump(kind) or circular or joker_mask >> trump_card & 1:
            deal_trump = NO_SUIT
        else:
            deal_trump = SUIT_INDEX[trump_card]
        trump_suit = None if deal_trump == NO_SUIT else SUITS[deal_trump]
        bit = BIT.__getitem__
        masks = [sum(map(bit, hand)) for hand in lists]
        bidding = has_bids(kind)
        random = rng.random
        getrandbits = rng.getrandbits
        # a plain random.Random's draws are written out (the same numbers)
        plain_rng = type(rng) is PLAIN_RANDOM
        skill = self.skill
        suit_masks = self.suit_masks
        bids: list[int | None] = [None] * n
        streaks = self.pass_streaks
        if bidding:
            total = 0
            # _heuristic_bid written out for an ordinary deal and a plain
            # random.Random (tests/test_sim_fast.py holds it to the method)
            written_out = bid_view(kind) == "own" and plain_rng
            state = cast(Any, rng)  # for the state random.gauss keeps
            values = self._card_values[deal_trump]
            side_ace = 0.85 if deal_trump == NO_SUIT else max(0.45, 0.85 - 0.04 * cards)
            every = range(cards + 1)
            restriction = self.rules.dealer_restriction
            limit = self.pass_limit
            for i in range(n):
                seat = (dealer + 1 + i) % n
                forbidden = forbidden_bids(restriction, limit, cards, seat == dealer, total, streaks[seat])
                if not forbidden:
                    legal: Sequence[int] = every
                else:
                    legal = [b for b in every if b not in forbidden]
                    if not legal:  # pragma: no cover - the rules always leave a bid
                        raise EngineDisagreementError(f"{self.names[seat]} bidding", where, [])
                if not written_out:
                    made = self._heuristic_bid(seat, legal, kind, lists, masks, deal_trump, cards)
                else:
                    # _strength
                    mask = masks[seat]
                    lengths = ((mask & suit_masks[0]).bit_count(), (mask & suit_masks[1]).bit_count(),
                               (mask & suit_masks[2]).bit_count(), (mask & suit_masks[3]).bit_count())
                    value = 0.0
                    for held_card in lists[seat]:
                        entry = values[held_card]
                        if entry is not None:
                            suit, need, short, long = entry
                            if suit < 0:
                                value += side_ace
                            else:
                                value += long if lengths[suit] >= need else short
                    estimate = min(value, float(cards))
                    # rng.gauss(0, BID_NOISE)
                    z = state.gauss_next
                    state.gauss_next = None
                    if z is None:
                        x2pi = random() * TWOPI
                        g2rad = _sqrt(-2.0 * _log(1.0 - random()))
                        z = _cos(x2pi) * g2rad
                        state.gauss_next = _sin(x2pi) * g2rad
                    estimate += 0 + z * BID_NOISE
                    if skill is not None:
                        estimate = misjudged(estimate, skill[seat], rng)
                    if random() < RANDOM_PLAY / 2:
                        made = rng.choice(legal)
                    else:
                        made = min(max(round(estimate), 0), cards)
                        if legal is every or made in legal:  # the nearest: made itself
                            while getrandbits(1):  # rng.choice((made,))
                                pass
                        else:
                            distances = [abs(b - made) for b in legal]
                            nearest = min(distances)
                            made = rng.choice([b for b, d in zip(legal, distances, strict=True)
                                               if d == nearest])
                bids[seat] = made
                total += made

        # the play: the bots' bit-mask choice (as _choose_play makes it) while
        # neither the hand nor the trick holds a joker, _choose otherwise
        void = self.void
        must_trump = trumps_when_void(void)
        hands = list(masks)
        taken = [0] * n
        penalties = [0] * n
        notes: list[tuple[int, int, str]] = []
        tricks: list[CompactTrickInts] = []
        lead_penalty = self.rules.joker_lead_penalty
        last = n - 1
        # whether a seat wants the trick: never (miser), always (golden), or
        # while it has taken fewer than it bid
        aim = trick_aim(kind)
        fixed_want: bool | None
        match aim:
            case "none":
                fixed_want = False
            case "all":
                fixed_want = True
            case "bid":
                fixed_want = None
            case _:
                assert_never(aim)
        lead_strength = STRENGTH[deal_trump]
        lead_trumps = suit_masks[deal_trump] if deal_trump != NO_SUIT else 0
        rules = self.rules
        choose = self._choose
        leader = first_leader(rules.first_leader, dealer, n)
        card: int
        strongest_card, weakest_card, nth_set_bit = strongest, weakest, nth_bit  # locals: the loop is hot
        following = range(1, n)
        # per seat, whether it wants the next trick
        wants = ([fixed_want] * n if fixed_want is not None
                 else [b is not None and b > 0 for b in bids])
        random_play = RANDOM_PLAY
        holder_play = self._holder_play
        trick: list[Entry]  # the trick as the engine has it, once a joker is in it
        for trick_number in range(1, cards + 1):
            played: list[int] = []
            decls: list[JokerDecl | None] | None = None  # once a joker is in the trick
            seat = leader
            hand = hands[seat]
            # the lead
            if hand & joker_mask:
                held = hand & joker_mask
                choice = holder_play(seat, hand ^ held, held, 0, trick_number, leader, played, wants[seat],
                                     0, 0, lead_trumps, NO_SUIT, NO_SUIT, trump_suit, where)
                if isinstance(choice, Play):
                    card = choice.card
                    decls = [choice.joker]
                    if lead_penalty and hand != 1 << card:
                        penalties[seat] += lead_penalty
                        notes.append((seat, lead_penalty, "joker-lead"))
                    trick = [(seat, card, choice.joker)]
                else:
                    card = choice
            elif not hand & (hand - 1):
                if not hand:
                    raise EngineDisagreementError(
                        f"{self.names[seat]} to play in trick {trick_number}", where, [])
                card = hand.bit_length() - 1
            elif random() < random_play or (skill is not None and misplays(skill[seat], rng)):
                card = nth_set_bit(hand, random_below(rng, hand.bit_count()))
            elif wants[seat]:
                # _lead_masks without jokers: the strongest card, or (not wanting the
                # trick) the weakest give or take half a rank
                card = strongest_card(hand, lead_trumps)
            else:
                card = -1
                lowest = 0.0
                mask = hand
                while mask:
                    low = mask & -mask
                    c = low.bit_length() - 1
                    key = lead_strength[c] + random() * 0.5
                    if card < 0 or key < lowest:
                        card, lowest = c, key
                    mask ^= low
            hands[seat] = hand ^ (1 << card)
            played.append(card)
            best_at = 0
            if decls is None:
                led = SUIT_INDEX[card]
                trump = trick_trump(led, deal_trump, circular)
                led_mask = suit_masks[led]
                trumps = suit_masks[trump] if trump != NO_SUIT else 0
                trump_mask = trumps if must_trump else 0
                keys = ORDER[led][trump]
                best = keys[card]  # the best key in the trick so far (no joker in it), and its position
                # the cards that would beat it
                beats = (trumps & -(2 << card) if trumps >> card & 1
                         else led_mask & -(2 << card) | trumps)
            # the rest of the trick
            for position in following:
                seat += 1
                if seat == n:
                    seat = 0
                hand = hands[seat]
                if decls is not None:
                    # a joker in the trick: _choose on the trick as the engine has it
                    held = hand & joker_mask
                    if not held:
                        card = self._after_joker(seat, hand, trick, position, wants[seat], deal_trump,
                                                 trump_suit, trick_number, where)
                        decls.append(None)
                        trick.append((seat, card, None))
                        hands[seat] = hand ^ (1 << card)
                        played.append(card)
                        continue
                    choice = choose(seat, self._allowed(hand, trick, deal_trump),
                                    self._joker_choices_on(seat, held, trick, trick_number),
                                    trick, trump_suit, kind, bids, taken, trick_number, where)
                    if isinstance(choice, Play):
                        card = choice.card
                        decls.append(choice.joker)
                        trick.append((seat, card, choice.joker))
                    else:
                        card = choice
                        decls.append(None)
                        trick.append((seat, card, None))
                    hands[seat] = hand ^ (1 << card)
                    played.append(card)
                    continue
                if hand & joker_mask:
                    # a joker's holder, no joker in the trick yet
                    held = hand & joker_mask
                    natural = hand ^ held
                    allowed = natural & led_mask or natural & trump_mask or natural
                    choice = holder_play(seat, allowed, held, position, trick_number, leader, played,
                                         wants[seat], beats, trumps, lead_trumps, trump, led,
                                         trump_suit, where)
                    if isinstance(choice, Play):
                        card = choice.card
                        decls = [None] * position
                        decls.append(choice.joker)
                        trick = [((leader + k) % n, c, None) for k, c in enumerate(played)]
                        trick.append((seat, card, choice.joker))
                        hands[seat] = hand ^ (1 << card)
                        played.append(card)
                        continue
                    card = choice
                else:
                    # _choose made on bit masks: no joker in the hand or the trick
                    allowed = hand & led_mask or hand & trump_mask or hand
                    if not allowed & (allowed - 1):
                        if not allowed:
                            raise EngineDisagreementError(
                                f"{self.names[seat]} to play in trick {trick_number}", where, [])
                        card = allowed.bit_length() - 1
                    elif random() < random_play or (skill is not None and misplays(skill[seat], rng)):
                        card = nth_set_bit(allowed, random_below(rng, allowed.bit_count()))
                    else:
                        # _split: the cards that beat the trick so far, and the rest
                        want = wants[seat]
                        winners = allowed & beats
                        if not allowed & ~led_mask:
                            # of the suit led only: by rank alone
                            if want:
                                if not winners:
                                    card = (allowed & -allowed).bit_length() - 1
                                elif position == last:
                                    card = (winners & -winners).bit_length() - 1
                                else:
                                    card = winners.bit_length() - 1
                            elif allowed ^ winners:
                                card = (allowed ^ winners).bit_length() - 1
                            else:
                                card = (allowed & -allowed).bit_length() - 1
                        elif want:
                            if not winners:
                                card = weakest_card(allowed, trumps)
                            elif position == last:
                                card = weakest_card(winners, trumps)
                            else:
                                card = strongest_card(winners, trumps)
                        elif allowed ^ winners:
                            card = strongest_card(allowed ^ winners, trumps)
                        else:
                            card = weakest_card(allowed, trumps)
                hands[seat] = hand ^ (1 << card)
                played.append(card)
                key = keys[card]
                if key > best:
                    best = key
                    best_at = position
                    beats = (trumps & -(2 << card) if trumps >> card & 1
                             else led_mask & -(2 << card) | trumps)
            if decls is None:
                winner = leader + best_at
                if winner >= n:
                    winner -= n
            else:
                winner = trick[trick_winner(trick, rules, joker_mask, trump_suit)][0]
            taken[winner] += 1
            if fixed_want is None:
                bid = bids[winner]
                wants[winner] = bid is not None and taken[winner] < bid
            tricks.append((leader, played, decls))
            leader = winner

        scored = self._scores
        scores = []
        for seat in range(n):
            bid = bids[seat]
            got = taken[seat]
            score = scored.get((kind, bid, got, cards))
            if score is None:
                score = scored[(kind, bid, got, cards)] = bid_score(rules, kind, bid, got, cards)
            scores.append(score + penalties[seat])
        totals = self.totals
        for seat in range(n):
            totals[seat] += scores[seat]
        if bidding and self.pass_limit is not None:
            self.pass_streaks = [next_pass_streak(s, b) for s, b in zip(streaks, bids, strict=True)]
        return self._compact(number, kind, cards, dealer, taken, bids if bidding else None, scores,
                             totals, notes, -1 if trump_card is None else trump_card, masks, tricks)
