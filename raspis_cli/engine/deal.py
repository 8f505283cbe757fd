"""One deal as a state machine: bidding, then play, trick by trick.

The same code answers two questions: *what may be done now*
(:meth:`Deal.legal_bids`, :meth:`Deal.legal_plays`) and *was this recorded
action allowed* (:meth:`Deal.bid`, :meth:`Deal.play`, which apply the action
as the record says it happened and return the violations instead of
raising). Both go through :meth:`Deal._follow_mask` and
:meth:`Deal._joker_problem`, so they never disagree.

Hands are bitmasks (bit ``card`` set when held); a trick is a short list of
``(seat, card, declaration)``; nothing is copied per card.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from raspis_cli.engine.actions import Play, Violation
from raspis_cli.engine.scoring import KINDS_WITHOUT_BIDS, bid_score
from raspis_cli.engine.trick import (
    LED_BASE,
    ORDER,
    TRUMP_BASE,
    Entry,
    led_suit,
    must_trump,
    natural_plays,
    plain_winner,
    trick_trump,
)
from raspis_cli.model.cards import NO_SUIT, SUIT_INDEX, Card, Suit, card_list, cards_of
from raspis_cli.model.deal_kinds import kind_term
from raspis_cli.model.joker import JokerDecl
from raspis_cli.model.joker_modes import DEMANDS, known_mode, wins_when_following, wins_when_led
from raspis_cli.rules import Rules
from raspis_cli.rules.bidding import (
    bids_allowed,
    dealer_restriction_message,
    forbidden_bids,
    next_pass_streak,
    pass_limit,
    pass_limit_message,
)
from raspis_cli.rules.jokers import (
    discard_names_suit,
    high_joker_wins_trumped,
    low_joker_wins_unfollowed,
    opposite_jokers,
    take_lead_follows_freely,
    take_suit_counts,
)
from raspis_cli.rules.seats import bidding_order, first_leader
from raspis_cli.rules.values import DealKind
from raspis_cli.text.messages import Message, Quoted, Seq, Term, layout, msg

__all__ = ["BIDDING", "DONE", "PLAY", "Deal", "TrickResult", "trick_winner"]

_JOKER_PLAYS: dict[tuple[object, ...], tuple[Play, ...]] = {}
""":meth:`Deal.legal_joker_plays` by what decides them (the rules, leading or
following, past the first trick, the first joker's kind under
``two_jokers=opposite``, the jokers held): a bot asks at every card while it
holds a joker, and the answer is one of a few."""
_JOKER_PLAYS_MAX = 4096
"""Entries kept in :data:`_JOKER_PLAYS` before it starts again."""

BIDDING = "bidding"
PLAY = "play"
DONE = "done"

_WIN = 100
"""A winning joker ranks ``_WIN + its position`` (above every natural card's
:data:`~raspis_cli.engine.trick.ORDER`: the later winning joker wins)."""
_LOSE = -1
"""A losing joker ranks below every card."""
_SUITS = tuple(Suit)
_PlainTrick = tuple[int, Sequence[int], Sequence[int], int, int, int]
"""A trick :meth:`Deal.play_plain_tricks` played, as it keeps it: its number,
the seats in play order, the cards, the winner's seat, the suit led and the
trump (suit indexes, :data:`~raspis_cli.model.cards.NO_SUIT` for none)."""
_NO_DECLS = itertools.repeat(None)
"""No declaration, for every card of a trick without a joker (``zip``'s third list)."""
_TURNS: dict[int, list[list[int]]] = {}
_TURNS_MAX = 16
"""The most players whose table of turns :data:`_TURNS` keeps (a table is
``players`` squared seats: a hostile record of 10,000 players would make one
of 10**8, gigabytes kept for good)."""


def _turn(players: int, leader: int) -> list[int]:
    """The seats in playing order from ``leader`` (``[leader, leader + 1, ...]``);
    the table of every leader's is kept for up to :data:`_TURNS_MAX` players."""
    if players > _TURNS_MAX:
        return bidding_order(leader, players)
    found = _TURNS.get(players)
    if found is None:
        found = _TURNS[players] = [bidding_order(first, players) for first in range(players)]
    return found[leader]


class TrickResult:
    """A finished trick: who led, what was played, who won."""

    __slots__ = ("entries", "leader", "led_suit", "number", "trump", "winner")

    def __init__(self, number: int, leader: int, entries: list[Entry], winner: int,
                 led_suit: Suit | None, trump: Suit | None) -> None:
        self.number = number
        self.leader = leader
        self.entries = entries
        self.winner = winner
        self.led_suit = led_suit
        self.trump = trump


def _mode_quoted(mode: str) -> Quoted:
    """A joker mode named in a message: quoted, in the reader's words ('take', «забрать»)."""
    return Quoted(Term("joker-mode", mode))


def _name(names: Sequence[str], seat: int) -> str | Message:
    return names[seat] if seat < len(names) else msg("player {n}").format(n=seat + 1)


class Deal:
    """The state of one deal.

    ``hands`` are bitmasks per seat, or ``None`` when the record does not say
    what was held (a paper sheet): then play is not checked against hands.
    ``trump`` is the deal's trump suit (``None``: no trump, or circular
    trumps). ``pass_streaks`` counts, per seat, the consecutive earlier deals
    with bids in which the seat passed (for ``third_pass``).
    """

    def __init__(
        self,
        rules: Rules,
        players: int,
        dealer: int,
        cards: int,
        kind: DealKind = "normal",
        trump: Suit | None = None,
        hands: Sequence[int] | None = None,
        pass_streaks: Sequence[int] | None = None,
        names: Sequence[str] = (),
    ) -> None:
        self.rules = rules
        self.deck = rules.deck_cards
        self.players = players
        self.dealer = dealer
        self.cards = cards
        self.kind = kind
        self.trump = None if rules.circular_trumps else trump
        self.names = names
        self.hands: list[int] | None = list(hands) if hands is not None else None
        self.pass_streaks = list(pass_streaks) if pass_streaks is not None else [0] * players
        self.has_bids = kind not in KINDS_WITHOUT_BIDS
        self.bids: list[int | None] = [None] * players
        self.bid_count = 0
        self.first_bidder = (dealer + 1) % players
        self.phase = BIDDING if self.has_bids else PLAY
        self.leader = first_leader(rules.first_leader, dealer, players)
        self.trick: list[Entry] = []
        self.trick_number = 1
        self.taken = [0] * players
        self.penalties = [0] * players
        self.penalty_notes: list[tuple[int, int, str]] = []
        self.revokes = 0
        self._history: list[TrickResult | _PlainTrick] = []
        """The tricks played: a :class:`TrickResult`, or as :meth:`play_plain_tricks`
        keeps a trick (:data:`_PlainTrick`) until :attr:`history` is asked for."""
        self._compact_from = -1
        """The index in :attr:`_history` of its first trick kept as integers (-1: none)."""
        self._suit_masks = self.deck.suit_masks
        self._joker_mask = self.deck.joker_mask
        self._natural_mask = self.deck.mask & ~self.deck.joker_mask
        self._must_trump = must_trump(rules.void)
        self._free_after_take = take_lead_follows_freely(rules)
        self._pass_limit = pass_limit(rules.third_pass, players)
        self._decl_cache: dict[bool, tuple[JokerDecl, ...]] = {}

    # --- bidding -------------------------------------------------------------

    @property
    def next_bidder(self) -> int | None:
        """The seat to bid next, ``None`` once bidding is over or absent."""
        if self.phase != BIDDING:
            return None
        return (self.first_bidder + self.bid_count) % self.players

    def _bid_sum(self) -> int:
        return sum(b for b in self.bids if b is not None)

    def legal_bids(self) -> list[int]:
        """The bids the next bidder may make."""
        seat = self.next_bidder
        if seat is None:
            return []
        forbidden = self._forbidden(seat)
        return [b for b in range(self.cards + 1) if b not in forbidden]

    def _forbidden(self, seat: int) -> Mapping[int, str]:
        """:func:`~raspis_cli.rules.bidding.forbidden_bids` of ``seat`` now."""
        return forbidden_bids(self.rules.dealer_restriction, self._pass_limit, self.cards,
                              seat == self.dealer, self._bid_sum(), self.pass_streaks[seat])

    def _bid_kind(self, seat: int, bid: int) -> str | None:
        """The kind of violation this bid would be (``None``: allowed)."""
        if bid < 0 or bid > self.cards:
            return "bid-range"
        return self._forbidden(seat).get(bid)

    def _bid_problem(self, seat: int, bid: int) -> tuple[str, Message] | None:
        kind = self._bid_kind(seat, bid)
        if kind is None:
            return None
        who = _name(self.names, seat)
        if kind == "bid-range":
            return "bid-range", msg("{player} bid {bid} with {cards} cards (0 to {cards})").format(
                player=who, bid=bid, cards=self.cards)
        if kind == "dealer-restriction":
            text = dealer_restriction_message(self.rules.dealer_restriction)
            return "dealer-restriction", msg(text).format(player=who, bid=bid, cards=self.cards)
        text = pass_limit_message(self.rules.third_pass)
        return "third-pass", msg(text).format(player=who, n=self._pass_limit)

    def bid(self, seat: int, bid: int) -> list[Violation]:
        """Record a bid as it was made; return the rules it broke."""
        out: list[Violation] = []
        who = _name(self.names, seat)
        if not self.has_bids:
            return [Violation("bid-order", msg("a {kind} deal has no bids, yet {player} bid {bid}").format(
                kind=kind_term(self.kind), player=who, bid=bid), seat, at="bid")]
        expected = self.next_bidder
        if expected is None:
            return [Violation("bid-order", msg("{player} bid after the bidding was over").format(player=who),
                              seat, at="bid")]
        if seat != expected:
            out.append(Violation("bid-order",
                                 msg("{player} bid out of turn: {next} bids next").format(
                                     player=who, next=_name(self.names, expected)),
                                 seat, at="bid"))
        if self.bids[seat] is not None:
            out.append(Violation("bid-order", msg("{player} bid twice").format(player=who), seat, at="bid"))
        problem = self._bid_problem(seat, bid)
        if problem is not None:
            out.append(Violation(problem[0], problem[1], seat, at="bid"))
        self.bids[seat] = bid
        self.bid_count += 1
        if self.bid_count >= self.players:
            self.phase = PLAY
        return out

    def bid_all(self, bids: Sequence[int]) -> bool:
        """Make every bid of the deal at once, ``bids`` in bidding order (the
        first bidder's first), when each is plainly legal: what :meth:`bid`
        would accept seat by seat without a violation (in turn, in range, none
        of :func:`~raspis_cli.rules.bidding.forbidden_bids`, the rule every
        path calls).
        Returns False and changes nothing otherwise (the caller then bids
        seat by seat, which says what is wrong)."""
        n = self.players
        cards = self.cards
        if (not self.has_bids or self.phase != BIDDING or self.bid_count or len(bids) != n
                or min(bids) < 0 or max(bids) > cards):
            return False
        seats = _turn(n, self.first_bidder)  # bidding order: the seats from the first bidder
        if not bids_allowed(self.rules.dealer_restriction, self._pass_limit, cards, bids,
                            [self.pass_streaks[seat] for seat in seats]):
            return False
        out = self.bids
        for seat, bid in zip(seats, bids, strict=True):
            out[seat] = bid
        self.bid_count = n
        self.phase = PLAY
        return True

    def skip_bidding(self) -> None:
        """Go to play without bids (the record gives none)."""
        if self.phase == BIDDING:
            self.phase = PLAY

    # --- play ----------------------------------------------------------------

    @property
    def to_play(self) -> int | None:
        """The seat to play next, ``None`` before play or after the last trick."""
        if self.phase != PLAY:
            return None
        return (self.leader + len(self.trick)) % self.players

    def _is_joker(self, card: int) -> bool:
        return bool(self._joker_mask >> card & 1)

    def _lead_info(self) -> tuple[Suit | None, JokerDecl | None]:
        """The suit led in the current trick (``None``: not known yet) and the
        leading joker's declaration if the leader played a joker."""
        return led_suit(self.trick, self._joker_mask)

    def _trick_trump(self, led: Suit | None) -> Suit | None:
        return _suit_trump(led, self.trump, self.rules.circular_trumps)

    def _follow_mask(self, seat: int) -> tuple[int, str]:
        """The non-joker cards ``seat`` may play now (from its hand) and the
        violation kind for playing another. A joker is never required."""
        assert self.hands is not None
        return natural_plays(self.hands[seat], self.trick, self._joker_mask,
                             NO_SUIT if self.trump is None else self.trump, self.rules.circular_trumps,
                             self.rules.void, self._free_after_take, self._suit_masks)

    def _joker_problem(self, seat: int, decl: JokerDecl | None) -> Message | None:
        """Why this declaration is not allowed for a joker played now."""
        rules = self.rules
        leading = not self.trick
        if decl is None:
            return msg("the joker was played without a declaration")
        mode = decl.mode
        allowed = rules.joker_lead_modes if leading else rules.joker_follow_modes
        if mode not in allowed:
            text = (msg("{mode} is not a joker declaration when leading under these rules "
                      "(allowed: {allowed})") if leading else
                    msg("{mode} is not a joker declaration when following under these rules "
                      "(allowed: {allowed})"))
            return text.format(mode=_mode_quoted(mode),
                               allowed=Seq(tuple(_mode_quoted(m) for m in allowed))
                               if allowed else msg("none"))
        if mode == "as":
            if decl.card is None:
                return msg("a joker declared 'as' must name a card")
            if decl.card not in self.deck or self._is_joker(decl.card):
                return msg("a joker cannot be declared as {card}: not a card of this deck").format(
                    card=decl.card)
            return None
        if decl.card is not None:
            return msg("a joker declared {mode} names a suit, not a card").format(mode=_mode_quoted(mode))
        if mode in DEMANDS:
            if decl.suit is None:
                return msg("a joker declared {mode} must name a suit").format(mode=_mode_quoted(mode))
            if rules.joker_demand_first_trick_only and self.trick_number > 1:
                return msg("{mode} may be declared only in the first trick of a deal").format(
                    mode=_mode_quoted(mode))
        suitless_lead = self.deck.size == 54 and not rules.circular_trumps
        if mode == "low" and decl.suit is None and not suitless_lead and (
                rules.circular_trumps or discard_names_suit(rules)):
            # a joker thrown away names its suit where a discard must (discard_suit): else «за самую
            # младшую карту» names none, and the second card played sets the suit led
            return msg("a joker declared 'low' must name a suit")
        if mode == "take" and leading and decl.suit is None and rules.circular_trumps:
            return msg("under circular trumps a leading joker must name a suit")
        if mode in ("low", "take") and leading and decl.suit is not None and suitless_lead:
            return msg("with 54 cards a leading joker is declared without a suit («{mode}»): the second "
                     "card played sets the suit led").format(mode=Term("joker-mode", mode))
        if mode == "discard" and decl.suit is None and discard_names_suit(rules):
            return msg("a discarding joker must name a suit")
        if not leading:
            return self._second_joker_problem(mode)
        return None

    def _second_joker_problem(self, mode: str) -> Message | None:
        """Why a following joker may not be declared ``mode`` under
        ``two_jokers`` (the first joker of the trick already played)."""
        if not opposite_jokers(self.rules):
            return None
        first = _first_joker_wins(self.trick, self._joker_mask)
        if first is None:
            return None
        want = "discard" if first else "take"
        if mode == want:
            return None
        return msg("the second joker counts as the opposite of the first: it must be declared "
                 "{mode}").format(mode=_mode_quoted(want))

    def legal_plays(self) -> list[Play]:
        """Every legal play of the seat to play (hands must be known): the
        natural cards first (lowest index first), then the joker plays."""
        if self.to_play is None or self.hands is None:
            return []
        plays = [Play(card) for card in cards_of(self.legal_naturals())]
        plays += self.legal_joker_plays()
        return plays

    def legal_naturals(self) -> int:
        """The non-joker cards the seat to play may play, as a hand mask
        (``0`` when nobody is to play or hands are not known). With
        :meth:`legal_joker_plays`, the same as :meth:`legal_plays` without
        making a :class:`Play` per card."""
        seat = self.to_play
        if seat is None or self.hands is None:
            return 0
        return self._follow_mask(seat)[0]

    def legal_joker_plays(self) -> list[Play]:
        """The legal joker plays (each joker with each allowed declaration) of
        the seat to play, as :meth:`legal_plays` lists them."""
        seat = self.to_play
        if seat is None or self.hands is None:
            return []
        jokers = self.hands[seat] & self._joker_mask
        if not jokers:
            return []
        # what _joker_problem depends on, besides the declaration
        leading = not self.trick
        first = (None if leading or not opposite_jokers(self.rules)
                 else _first_joker_wins(self.trick, self._joker_mask))
        key = (self.rules, leading, self.trick_number > 1, first, jokers)
        plays = _JOKER_PLAYS.get(key)
        if plays is None:
            plays = tuple(Play(joker, decl) for joker in cards_of(jokers) for decl in self._declarations()
                          if self._joker_problem(seat, decl) is None)
            if len(_JOKER_PLAYS) >= _JOKER_PLAYS_MAX:
                _JOKER_PLAYS.clear()
            _JOKER_PLAYS[key] = plays
        return list(plays)

    def plain_declaration(self, decl: JokerDecl) -> JokerDecl:
        """The declaration that plays exactly as ``decl`` would now, said as
        simply as it can be: a ``take`` whose suit cannot matter here (see
        :func:`~raspis_cli.rules.jokers.take_suit_counts`) is a plain ``take``."""
        if decl.mode == "take" and decl.suit is not None:
            led, _lead = self._lead_info()
            if not take_suit_counts(self.rules, decl.suit, self._trick_trump(led), leading=not self.trick):
                return JokerDecl("take")
        return decl

    def _declarations(self) -> tuple[JokerDecl, ...]:
        leading = not self.trick
        cached = self._decl_cache.get(leading)
        if cached is not None:
            return cached
        modes = self.rules.joker_lead_modes if leading else self.rules.joker_follow_modes
        out: list[JokerDecl] = []
        for mode in modes:
            if mode == "as":
                out += [JokerDecl("as", card=c) for c in self.deck.cards if not self._is_joker(c)]
                continue
            if mode not in DEMANDS:  # a demand names its suit
                out.append(JokerDecl(mode))
            out += [JokerDecl(mode, suit=s) for s in Suit]
        made = self._decl_cache[leading] = tuple(out)
        return made

    def apply_legal(self, seat: int, card: int, decl: JokerDecl | None = None) -> None:
        """Apply a play the caller knows is legal, without checking it.

        Trusts its caller: ``seat`` must be :attr:`to_play` and ``(card,
        decl)`` one of :meth:`legal_plays` (as a bot that chose from them
        knows). Nothing is checked and nothing is reported; an illegal play
        corrupts the deal. The state afterwards is what :meth:`play` leaves
        for the same legal play (the joker-lead penalty included): the fast
        path of the simulator, which would otherwise check every card twice.
        """
        hands = self.hands
        assert hands is not None
        trick = self.trick
        if self._joker_mask >> card & 1:
            if not trick and self.rules.joker_lead_penalty and hands[seat] != 1 << card:
                self._penalise(seat, self.rules.joker_lead_penalty, "joker-lead")
            trick.append((seat, card, decl))
        else:
            trick.append((seat, card, None))
        hands[seat] &= ~(1 << card)
        if len(trick) == self.players:
            self._finish_trick()

    def play(self, seat: int, card: int, decl: JokerDecl | None = None) -> list[Violation]:
        """Record a card as it was played; return the rules it broke.

        The play is applied whatever it broke, except a card the player does
        not hold: that returns a ``not-in-hand`` (or ``unknown-card``)
        violation and leaves the state unchanged, since the deal cannot go on
        from what the record says. The caller stops replaying the deal then.
        """
        out: list[Violation] = []
        who = _name(self.names, seat)
        trick_no = self.trick_number
        index = len(self.trick)
        if self.phase != PLAY:
            if self.phase == BIDDING:
                self.skip_bidding()
            else:
                return [Violation("trick-count", msg("{player} played {card} after the last trick of the "
                                                   "deal").format(player=who, card=Card.from_index(card)),
                                  seat, trick_no, "play", index)]
        shown = Card.from_index(card)
        if card not in self.deck:
            return [Violation("unknown-card", msg("{card} is not a card of this {size}-card deck").format(
                card=shown, size=self.deck.size), seat, trick_no, "play", index)]
        expected = self.to_play
        if seat != expected or any(e[0] == seat for e in self.trick):
            out.append(Violation("wrong-turn", msg("{player} played {card} out of turn: {next} was to "
                                                 "play").format(player=who, card=shown,
                                                                next=_name(self.names, expected or 0)),
                                 seat, trick_no, "play", index))
        hands = self.hands
        if hands is not None:
            if not hands[seat] >> card & 1:
                out.append(Violation("not-in-hand", msg("{player} played {card}, which they do not hold "
                                                      "(never dealt, or already played)").format(
                                                          player=who, card=shown),
                                     seat, trick_no, "play", index))
                return out
            if self._is_joker(card):
                problem = self._joker_problem(seat, decl)
                if problem is not None:
                    out.append(Violation("joker-mode", layout("{player}: {problem}", player=who,
                                                              problem=problem), seat, trick_no,
                                         "play", index))
            else:
                allowed, kind = self._follow_mask(seat)
                if not allowed >> card & 1:
                    out.append(self._revoke(seat, shown, allowed, kind, trick_no, index))
            leads_joker = not self.trick and self._is_joker(card)
            if leads_joker and self.rules.joker_lead_penalty and hands[seat] != 1 << card:
                self._penalise(seat, self.rules.joker_lead_penalty, "joker-lead")
            hands[seat] &= ~(1 << card)
        elif self._is_joker(card):
            problem = self._joker_problem(seat, decl)
            if problem is not None:
                out.append(Violation("joker-mode", layout("{player}: {problem}", player=who,
                                                          problem=problem), seat, trick_no, "play",
                                     index))
        self.trick.append((seat, card, decl if self._is_joker(card) else None))
        if len(self.trick) == self.players:
            self._finish_trick()
        return out

    def _revoke(self, seat: int, shown: Card, allowed: int, kind: str, trick_no: int,
                index: int) -> Violation:
        who = _name(self.names, seat)
        led, lead_decl = self._lead_info()
        example = card_list(cards_of(allowed), ", ")
        if kind == "joker-demand":
            assert lead_decl is not None
            demanded = lead_decl.suit
            message = (msg("{player} played {card} against the joker's demand for the highest {suit}: "
                         "{player} had to play {cards}") if lead_decl.mode == "high" else
                       msg("{player} played {card} against the joker's demand for the lowest {suit}: "
                         "{player} had to play {cards}")).format(player=who, card=shown, suit=demanded,
                                                                 cards=example)
            if demanded is not None and shown.suit != demanded:
                self._revoke_penalty(seat)
        elif kind == "follow-suit":
            message = msg("{player} played {card} on a {suit} lead while holding {cards}").format(
                player=who, card=shown, suit=led, cards=example)
            self._revoke_penalty(seat)
        else:
            trump = self._trick_trump(led)
            message = msg("{player} played {card}, void in the suit led but holding trump {trump} "
                        "({cards})").format(player=who, card=shown, trump=trump, cards=example)
            self._revoke_penalty(seat)
        return Violation(kind, message, seat, trick_no, "play", index)

    def _revoke_penalty(self, seat: int) -> None:
        self.revokes += 1
        if self.rules.revoke_penalty:
            self._penalise(seat, self.rules.revoke_penalty, "revoke")

    def _penalise(self, seat: int, points: int, reason: str) -> None:
        self.penalties[seat] += points
        self.penalty_notes.append((seat, points, reason))

    def _finish_trick(self) -> None:
        led, _ = self._lead_info()
        winner_index = trick_winner(self.trick, self.rules, self._joker_mask, self.trump)
        winner = self.trick[winner_index][0]
        self.taken[winner] += 1
        self._history.append(TrickResult(self.trick_number, self.leader, self.trick, winner, led,
                                        self._trick_trump(led)))
        self.trick = []
        self.trick_number += 1
        self.leader = winner
        if self.trick_number > self.cards:
            self.phase = DONE

    @property
    def history(self) -> list[TrickResult]:
        """Every finished trick, in order: who led, what was played, who won.
        A trick :meth:`play_plain_tricks` played is kept as a few integers and
        made a :class:`TrickResult` here, the first time it is asked for (by
        show, the reports, analysis, the bots), not for every trick judged."""
        history = self._history
        start = self._compact_from
        if start < 0:
            return history  # type: ignore[return-value]  # every trick an object already
        self._compact_from = -1
        for index in range(start, len(history)):
            trick = history[index]
            if type(trick) is tuple:
                number, seats, cards, winner, led, trump = trick
                history[index] = TrickResult(
                    number, seats[0], list(zip(seats, cards, _NO_DECLS)),  # noqa: B905 (n each)
                    winner, _SUITS[led], _SUITS[trump] if trump != NO_SUIT else None)
        return history  # type: ignore[return-value]

    def trick_winners(self) -> list[tuple[int, int, Suit | None, Suit | None]]:
        """``(number, winner, led suit, trump)`` of every finished trick, without
        making its :class:`TrickResult`: for readers of the outcome alone (the
        store's rows)."""
        out: list[tuple[int, int, Suit | None, Suit | None]] = []
        for trick in self._history:
            if type(trick) is tuple:
                trump = trick[5]
                out.append((trick[0], trick[3], _SUITS[trick[4]],
                            _SUITS[trump] if trump != NO_SUIT else None))
            else:
                assert isinstance(trick, TrickResult)
                out.append((trick.number, trick.winner, trick.led_suit, trick.trump))
        return out

    def play_plain_trick(self, seats: Sequence[int], cards: Sequence[int]) -> bool:
        """Apply a whole trick at once when it is plainly legal: no joker, every
        seat in turn, every card held, suit (and trump) followed. Returns False
        and changes nothing otherwise; the caller then plays it card by card
        with :meth:`play`, which explains what is wrong
        (:meth:`play_plain_tricks` of one trick)."""
        return self.play_plain_tricks(((seats, cards),), 0, None) == 1

    def play_plain_tricks(self, tricks: Sequence[Sequence[Any]], first: int,
                          seats_of: Mapping[str, Sequence[int]] | None) -> int:
        """Apply ``tricks[first:]`` whole, one after another, while each is
        plainly legal: no joker, every seat in turn from the leader, every card
        held, suit (and trump) followed; returns the index of the first trick
        not played (``first``: none was). A trick not played changes nothing;
        the caller then plays it card by card with :meth:`play`, which
        explains what is wrong. The hot path of validation: one call per
        deal, every check a bit-mask test (the rule of :func:`follow_mask`,
        inline), and each trick kept as a few integers (:attr:`history` makes
        its object when asked).

        A trick is ``(players, cards, ...)`` (a
        :data:`~raspis_cli.model.record.CompactTrick`): ``seats_of`` gives the
        seats of the players by the first player's name (a name it does not
        know stops the play there); without ``seats_of`` the first item is the
        seats themselves."""
        hands = self.hands
        n = self.players
        if hands is None or self.trick or self.phase != PLAY:
            return first
        end = len(tricks)
        table = _TURNS.get(n)
        if table is None:
            _turn(n, 0)
            table = _TURNS.get(n)
        natural = self._natural_mask
        suit_masks = self._suit_masks
        deal_trump = NO_SUIT if self.trump is None else self.trump
        # each suit led's trump (trick_trump), and the trumps a player void in the
        # suit led must play: under must-trump only
        trumps = [trick_trump(led, deal_trump, self.rules.circular_trumps) for led in range(NO_SUIT)]
        trump_masks = [suit_masks[trump] if self._must_trump and trump != NO_SUIT else 0
                       for trump in trumps]
        taken = self.taken
        history = self._history
        leader = self.leader
        number = self.trick_number
        last = self.cards
        at = first
        while at < end:
            trick = tricks[at]
            if type(trick) is not tuple or len(trick) > 4:
                break  # a joker's trick, or plays as objects
            cards = trick[1]
            if len(cards) != n:
                break
            seats = trick[0] if seats_of is None else seats_of.get(trick[0][0])
            if seats is None:
                break
            turn = table[leader] if table is not None else _turn(n, leader)
            if seats is not turn and seats != turn and (type(seats) is list or list(seats) != turn):
                break  # not every seat in turn from the leader
            lead_card = cards[0]
            bit = 1 << lead_card
            hand = hands[leader]
            if not natural & bit or not hand & bit:
                break
            led = SUIT_INDEX[lead_card]
            trump = trumps[led]
            led_mask = suit_masks[led]
            trump_mask = trump_masks[led]
            keys = ORDER[led][trump]
            best = keys[lead_card]
            winner = leader
            # each card taken from its hand as it is found legal (the seats differ:
            # a later card's test reads another hand), put back if one is not
            hands[leader] = hand ^ bit
            position = 1
            while position < n:
                card = cards[position]
                bit = 1 << card
                seat = seats[position]
                hand = hands[seat]
                if (not natural & bit or not hand & bit
                        or (not bit & led_mask
                            and (hand & led_mask or (not bit & trump_mask and hand & trump_mask)))):
                    break
                hands[seat] = hand ^ bit
                key = keys[card]
                if key > best:
                    best = key
                    winner = seat
                position += 1
            if position < n:
                for back in range(position):
                    hands[seats[back]] ^= 1 << cards[back]
                break
            taken[winner] += 1
            if self._compact_from < 0:
                self._compact_from = len(history)
            history.append((number, seats, cards, winner, led, trump))
            number += 1
            leader = winner
            at += 1
            if number > last:
                self.phase = DONE
                break
        self.trick_number = number
        self.leader = leader
        return at

    def play_trick(self, seats: Sequence[int], cards: Sequence[int],
                   decls: Sequence[JokerDecl | None]) -> bool:
        """Apply a whole trick at once when it is plainly legal, a joker's
        trick included: :meth:`play_plain_trick` without a joker, else
        :meth:`play_joker_trick`. ``decls`` holds each card's declaration as
        written (``None`` for a natural card; one written on a natural card
        is ignored, as :meth:`play` ignores it). False, and nothing changed,
        when the trick is not plainly legal."""
        joker_mask = self._joker_mask
        for card in cards:
            if joker_mask >> card & 1:
                return self.play_joker_trick(seats, cards, decls)
        return self.play_plain_trick(seats, cards)

    def play_joker_trick(self, seats: Sequence[int], cards: Sequence[int],
                         decls: Sequence[JokerDecl | None]) -> bool:
        """Apply a whole trick with a joker (or two) at once when it is
        plainly legal: every seat in turn, every card of the deck and held,
        every joker's declaration allowed (:meth:`_joker_problem`), every
        natural card within its follow mask (:meth:`_follow_mask`: the suit
        led, a joker's demand, must-trump). Returns False and changes nothing
        otherwise; the caller then plays it card by card with :meth:`play`,
        which explains what is wrong. On success the state is the one
        :meth:`play` leaves card by card (the joker-lead penalty included,
        the winner by :func:`trick_winner`), without a :class:`Violation`,
        a name or a shown card made per card."""
        hands = self.hands
        n = self.players
        if (hands is None or self.trick or self.phase != PLAY or len(cards) != n
                or len(seats) != n or len(decls) != n):
            return False
        deck_mask = self.deck.mask
        joker_mask = self._joker_mask
        # the checks read the trick so far (self.trick), as play() has it card by card
        trick: list[Entry] = []
        self.trick = trick
        seat = self.leader
        for position in range(n):
            card = cards[position]
            bit = 1 << card
            if seats[position] != seat or not deck_mask & bit or not hands[seat] & bit:
                self.trick = []
                return False
            if joker_mask & bit:
                decl = decls[position]
                if self._joker_problem(seat, decl) is not None:
                    self.trick = []
                    return False
                trick.append((seat, card, decl))
            else:
                if not self._follow_mask(seat)[0] & bit:
                    self.trick = []
                    return False
                trick.append((seat, card, None))
            seat += 1
            if seat == n:
                seat = 0
        leader = seats[0]
        lead = cards[0]
        penalty = self.rules.joker_lead_penalty
        if penalty and joker_mask >> lead & 1 and hands[leader] != 1 << lead:
            self._penalise(leader, penalty, "joker-lead")
        for position in range(n):
            hands[seats[position]] &= ~(1 << cards[position])
        self._finish_trick()
        return True

    def finish_trick_early(self) -> None:
        """Close an incomplete trick (an unfinished record): it counts for nobody."""
        self.trick = []

    def copy(self) -> Deal:
        """An independent copy of the deal's state, to try actions on (a
        search, a test) without touching this one."""
        twin = copy.copy(self)
        twin.hands = list(self.hands) if self.hands is not None else None
        twin.bids = list(self.bids)
        twin.trick = list(self.trick)
        twin.taken = list(self.taken)
        twin.penalties = list(self.penalties)
        twin.penalty_notes = list(self.penalty_notes)
        twin._history = list(self._history)
        twin.pass_streaks = list(self.pass_streaks)
        return twin

    # --- results -------------------------------------------------------------

    @property
    def done(self) -> bool:
        """True once every trick has been played."""
        return self.phase == DONE

    def scores(self, taken: Sequence[int] | None = None) -> list[int]:
        """Deal scores per seat (penalties included) from ``taken`` (default:
        the tricks played)."""
        counts = self.taken if taken is None else taken
        return [
            bid_score(self.rules, self.kind, self.bids[seat], counts[seat], self.cards) + self.penalties[seat]
            for seat in range(self.players)
        ]

    def next_pass_streaks(self) -> list[int]:
        """The pass streaks after this deal (deals without bids change nothing)."""
        if not self.has_bids:
            return list(self.pass_streaks)
        return [next_pass_streak(streak, self.bids[seat]) for seat, streak in enumerate(self.pass_streaks)]


def _first_joker_wins(trick: Sequence[Entry], joker_mask: int) -> bool | None:
    """Whether the first joker already in the trick is a winning one (``None``:
    no joker yet)."""
    for position, (_seat, card, decl) in enumerate(trick):
        if joker_mask >> card & 1:
            if decl is None:
                return position == 0
            mode = known_mode(decl.mode)
            if mode is None:
                return False  # a word of no mode: reported as joker-mode, and it loses
            return wins_when_led(mode) if position == 0 else wins_when_following(mode)
    return None


def trick_winner(trick: Sequence[Entry], rules: Rules, joker_mask: int,
                 deal_trump: Suit | None) -> int:
    """The index (in play order) of the entry that wins a complete trick."""
    if not any(joker_mask >> c & 1 for _, c, _ in trick):
        # no joker: the highest trump, else the highest card of the suit led
        led_index = SUIT_INDEX[trick[0][1]]
        trump_index = trick_trump(led_index, NO_SUIT if deal_trump is None else deal_trump,
                                  rules.circular_trumps)
        return plain_winner([c for _, c, _ in trick], trump_index)
    led, lead_decl = led_suit(trick, joker_mask)
    trump = _suit_trump(led, deal_trump, rules.circular_trumps)
    trump_played = trump is not None and any(
        not joker_mask >> c & 1 and SUIT_INDEX[c] == trump for _, c, _ in trick
    )
    order = ORDER[NO_SUIT if led is None else led][NO_SUIT if trump is None else trump]
    keys: list[int] = []
    jokers_seen = 0
    for position, (_seat, card, decl) in enumerate(trick):
        if not joker_mask >> card & 1:
            keys.append(order[card])
            continue
        if decl is not None and decl.mode == "as" and decl.card is not None:
            keys.append(order[decl.card])  # a joker declared as RJ/BJ ranks 0
            continue
        wins = _joker_wins(position, decl, rules, trump, trump_played, trick, joker_mask)
        if jokers_seen and opposite_jokers(rules):
            # the opposite of the first joker as declared (what _joker_problem
            # requires), not of whether an option made the first one win
            wins = not _first_joker_wins(trick, joker_mask)
        jokers_seen += 1
        keys.append(_WIN + position if wins else _LOSE)
    if (
        lead_decl is not None
        and lead_decl.mode == "low"
        and lead_decl.suit is not None
        and keys[0] == _LOSE
        and not low_joker_wins_unfollowed(rules)
        and all(k < LED_BASE for k in keys)
    ):
        # nobody played the suit named or a trump: the first real card's suit counts as led
        first_real = next((c for _, c, _ in trick if not joker_mask >> c & 1), None)
        if first_real is not None:
            new_order = ORDER[SUIT_INDEX[first_real]][NO_SUIT if trump is None else trump]
            keys = [
                new_order[c] if not joker_mask >> c & 1 else k
                for (_, c, _), k in zip(trick, keys, strict=True)
            ]
    if rules.joker_take_beaten_by_trump and trump is not None:
        _beat_taking_jokers(trick, keys, joker_mask, trump)
    best = 0
    for position in range(1, len(keys)):
        if keys[position] > keys[best]:
            best = position
    return best


def _beat_taking_jokers(trick: Sequence[Entry], keys: list[int], joker_mask: int,
                        trump: Suit) -> None:
    """``joker_take_beaten_by_trump`` (docs/RULES.md §6), on lead and on follow
    alike: a winning joker declared ``take`` with a named non-trump suit is
    beaten by a trump played after it. The trick then goes to the highest
    trump played after the joker: every card before the joker (trumps
    included) and the joker itself stop counting. A trump is a natural trump
    card or a joker declared ``as`` a trump card (a key from TRUMP_BASE up to a winning joker's)."""
    for position, (_seat, card, decl) in enumerate(trick):
        if (joker_mask >> card & 1 and decl is not None and decl.mode == "take"
                and decl.suit is not None and decl.suit != trump
                and keys[position] >= _WIN
                and any(TRUMP_BASE <= key < _WIN for key in keys[position + 1:])):
            keys[:position + 1] = [_LOSE] * (position + 1)


def _joker_wins(position: int, decl: JokerDecl | None, rules: Rules, trump: Suit | None,
                trump_played: bool, trick: Sequence[Entry], joker_mask: int) -> bool:
    """Whether a joker (not declared ``as``) wins the trick before
    ``two_jokers`` and ``joker_take_beaten_by_trump`` have their say: as
    declared (:func:`~raspis_cli.model.joker_modes.wins_when_led`,
    :func:`~raspis_cli.model.joker_modes.wins_when_following`), with the exceptions the options make."""
    if decl is None:
        return position == 0
    mode = known_mode(decl.mode)
    if mode is None:
        return False  # a word of no mode: reported as joker-mode, and it loses
    if position > 0:
        # following: take wins (joker_take_beaten_by_trump: see _beat_taking_jokers)
        return wins_when_following(mode)
    if mode == "high" and decl.suit != trump and trump_played and not high_joker_wins_trumped(rules):
        return False
    if mode == "low" and decl.suit is not None:
        followed = any(
            not joker_mask >> c & 1 and (SUIT_INDEX[c] == decl.suit or SUIT_INDEX[c] == trump)
            for _, c, _ in trick[1:]
        )
        return not followed and low_joker_wins_unfollowed(rules)
    return wins_when_led(mode)


def _suit_trump(led: Suit | None, deal_trump: Suit | None, circular: bool) -> Suit | None:
    """:func:`~raspis_cli.engine.trick.trick_trump` on suits (``None``: no suit)."""
    trump = trick_trump(NO_SUIT if led is None else led, NO_SUIT if deal_trump is None else deal_trump,
                        circular)
    return None if trump == NO_SUIT else _SUITS[trump]
