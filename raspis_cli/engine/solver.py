"""A double-dummy solver: what one player can force with every hand seen.

For player P against the other players acting together (the "paranoid"
reduction of a multi-player game), :func:`solve` gives the set of final trick
counts P can force *exactly*, the most tricks P can be sure to take (P can
force "at least k") and the fewest P can be sure to hold it to ("at most k"),
from any point of the play of a :class:`~raspis_cli.engine.Deal` whose hands
are known.

How it works. One search computes three sets at once, packed in one integer
of three 32-bit lanes, over the tricks P takes from here on (``f``):

* lane 0, *exact*: bit ``k`` when P can force exactly ``k``;
* lane 1, *at least*: bit ``k`` when P can force ``f >= k``;
* lane 2, *at most*: bit ``k`` when P can force ``f <= k``.

At the end of play a lane holds ``{f}``, ``{0..f}``, ``{f..}``; at P's turn
the sets are the union over P's moves, at an opponent's turn the
intersection over theirs: a bitwise OR and AND of the packed integer. Each
call is given the bits its caller still needs (``care``), like the window of
alpha-beta: a P node stops once every needed bit is in, an opponent's node
once none is left, and bits no line can change (a count beyond the tricks
left) are never searched. A transposition table at trick boundaries keeps
what is known of each position (hands and leader: the result counts only
tricks from there on) and which bits of it are known. Cards of one hand with
no live card between them are one move (equivalent ranks).

Legality is the engine's: a :class:`Deal` copy is the search state, its
:meth:`Deal.legal_naturals` and :meth:`Deal.legal_joker_plays` list the moves
and :func:`trick_winner` decides each trick. Only a trick without a joker
(the common case) takes a fast path: following suit (and trumping when the
rules say so) and the highest trump or card of the suit led, which
``tests/test_solver.py`` checks against the engine on random positions.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from raspis_cli.engine.actions import JokerDecl, Play
from raspis_cli.engine.deal import BIDDING, DONE, PLAY, Deal, trick_winner

__all__ = [
    "LANE",
    "BudgetExceededError",
    "Outcome",
    "Solver",
    "brute_force",
    "outcome_of_mask",
    "solve",
]

LANE = 32
"""Bits per lane of the packed result."""
_CAP = LANE - 2
_LANE_LOW = (1 << (_CAP + 1)) - 1  # bits 0..CAP of one lane
_FULL = _LANE_LOW | _LANE_LOW << LANE | _LANE_LOW << 2 * LANE
_KEEP = _FULL & ~(1 | 1 << LANE | 1 << 2 * LANE)  # every lane without its bit 0
_AT_LEAST_0 = 1 << LANE
_END = 1 | _AT_LEAST_0 | _LANE_LOW << 2 * LANE  # no trick left: f = 0
_SUIT_OF = tuple(c // 13 for c in range(54))
_RANK_ORDER: dict[tuple[int, JokerDecl | None], int] = {(c, None): -(c % 13) for c in range(54)}
"""Move order of natural cards: highest rank first, whatever the suit (a
4 x 6 search visits about half the positions of suit-by-suit order)."""


def _floor(left: int) -> int:
    """Bits every position with ``left`` tricks to play has: at least 0, at most left.."""
    at_most = _LANE_LOW & ~((1 << left) - 1)
    return _AT_LEAST_0 | at_most << 2 * LANE


def _ceil(left: int) -> int:
    """Bits a position with ``left`` tricks to play may have (none beyond ``left``)."""
    upto = (1 << (left + 1)) - 1
    return upto | upto << LANE | _LANE_LOW << 2 * LANE


_FLOORS = tuple(_floor(k) for k in range(_CAP))
_CEILS = tuple(_ceil(k) for k in range(_CAP))


def _won(value: int) -> int:
    """A child's packed value seen from before a trick P won: every count + 1."""
    return (value << 1) & _KEEP | _AT_LEAST_0


def _unwon(care: int) -> int:
    """The bits a child must answer for its parent's ``care`` when P won the trick."""
    return (care >> 1) & _FULL


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one player can force from a position, counting every trick of the deal.

    ``exact``: the final trick counts the player can force exactly (sorted);
    ``at_least``: the most tricks the player can be sure to take;
    ``at_most``: the fewest the player can be sure not to exceed.
    """

    exact: tuple[int, ...]
    at_least: int
    at_most: int

    def can_force(self, tricks: int) -> bool:
        """True when the player can force exactly ``tricks``."""
        return tricks in self.exact

    def to_json(self) -> dict[str, object]:
        """``{"exact": [...], "at_least": k, "at_most": k}``."""
        return {"exact": list(self.exact), "at_least": self.at_least, "at_most": self.at_most}


def outcome_of_mask(mask: int, taken: int, left: int) -> Outcome:
    """The :class:`Outcome` of a packed result over the ``left`` tricks to
    play, for a player who has taken ``taken`` so far."""
    exact = tuple(taken + k for k in range(left + 1) if mask >> k & 1)
    at_least_lane = mask >> LANE & _LANE_LOW
    at_most_lane = mask >> 2 * LANE & _LANE_LOW
    at_least = at_least_lane.bit_length() - 1
    at_most = (at_most_lane & -at_most_lane).bit_length() - 1
    return Outcome(exact, taken + at_least, taken + at_most)


def _play_copy(deal: Deal) -> Deal:
    """A copy of ``deal`` that can be played on without touching the original."""
    if deal.hands is None:
        raise ValueError("the hands of this deal are not known")
    twin = copy.copy(deal)
    twin.hands = list(deal.hands)
    twin.trick = list(deal.trick)
    twin.taken = list(deal.taken)
    twin.bids = list(deal.bids)
    twin.penalties = list(deal.penalties)
    twin.penalty_notes = list(deal.penalty_notes)
    twin.history = list(deal.history)
    if twin.phase == BIDDING:
        twin.phase = PLAY
    return twin


Move = tuple[int, JokerDecl | None]


class BudgetExceededError(RuntimeError):
    """A search visited more positions than its budget allowed."""

    def __init__(self, budget: int) -> None:
        super().__init__(f"the search went over its budget of {budget:,} positions")
        self.budget = budget


class Solver:
    """The searches of one player on one deal, sharing what they learn.

    Positions reached by the recorded play of a deal meet the same
    positions again, so :meth:`outcome` and :meth:`can_force` called on
    successive states of one deal reuse one transposition table.
    ``budget`` caps the positions visited over the solver's life: past it a
    search raises :class:`BudgetExceededError` (what was learnt stays valid).
    """

    def __init__(self, rules_deal: Deal, player: int, budget: int | None = None) -> None:
        self.player = player
        self.budget = budget
        self.players = rules_deal.players
        self.rules = rules_deal.rules
        self.cards = rules_deal.cards
        self.joker_mask = rules_deal.deck.joker_mask
        self.suit_masks = rules_deal.deck.suit_masks
        self.table: dict[tuple[int, ...], tuple[int, int]] = {}
        self.nodes = 0
        rules = self.rules
        # 'as' declarations name cards: ranks are not interchangeable then
        self.merge_ok_with_joker = "as" not in rules.joker_lead_modes + rules.joker_follow_modes
        self._state: Deal | None = None
        self._joker_cache: dict[tuple[object, ...], list[Move]] = {}
        self._winner_cache: dict[tuple[tuple[int, int, JokerDecl | None], ...], int] = {}
        self._renumber_cache: dict[int, dict[int, int]] = {}

    # --- public ------------------------------------------------------------

    def outcome(self, deal: Deal) -> Outcome:
        """Everything the player can force from this point of ``deal``."""
        left, mask = self._mask(deal, _FULL)
        return outcome_of_mask(mask, deal.taken[self.player], left)

    def can_force(self, deal: Deal, tricks: int) -> bool:
        """Whether the player can force exactly ``tricks`` (counting the
        tricks already taken) from this point of ``deal``."""
        future = tricks - deal.taken[self.player]
        left = self._left(deal)
        if future < 0 or future > left:
            return False
        _, mask = self._mask(deal, 1 << future)
        return bool(mask >> future & 1)

    def forcing_plays(self, deal: Deal, tricks: int) -> list[Play]:
        """The legal plays of the player (who must be to play) after which
        exactly ``tricks`` can still be forced."""
        out: list[Play] = []
        for play in legal_plays_of(deal):
            after = _play_copy(deal)
            after.apply_legal(self.player, play.card, play.joker)
            if self.can_force(after, tricks):
                out.append(play)
        return out

    # --- search ------------------------------------------------------------

    def _left(self, deal: Deal) -> int:
        if deal.phase == DONE:
            return 0
        return self.cards - deal.trick_number + 1

    def _mask(self, deal: Deal, care: int) -> tuple[int, int]:
        left = self._left(deal)
        if left <= 0:
            return 0, _END
        state = _play_copy(deal)
        self._state = state
        if not state.trick:
            return left, self._boundary(care, left)
        floor = _FLOORS[left]
        care &= _CEILS[left] & ~floor
        return left, (self._node(care, left) if care else 0) | floor

    def _boundary(self, care: int, left: int) -> int:
        """The packed value at the start of a trick with ``left`` tricks to play."""
        if left == 0:
            return _END
        floor = _FLOORS[left]
        care &= _CEILS[left] & ~floor
        if not care:
            return floor
        state = self._state
        assert state is not None and state.hands is not None
        key = self._key(state.hands, state.leader)
        entry = self.table.get(key)
        if entry is not None:
            value, known = entry
            rest = care & ~known
            if not rest:
                return value | floor
        else:
            value = known = 0
            rest = care
        found = self._node(rest, left)
        value = (value & known) | (found & rest)
        known |= rest
        self.table[key] = (value, known)
        return value | floor

    def _key(self, hands: list[int], leader: int) -> tuple[int, ...]:
        """The table key of a trick boundary: the hands with each suit's live
        cards renumbered from the top (only their order matters), and the
        leader. Raw hands while a joker that may be declared 'as' a card is live."""
        live = 0
        for hand in hands:
            live |= hand
        joker_mask = self.joker_mask
        if not self.merge_ok_with_joker and live & joker_mask:
            return (*hands, leader)
        live &= ~joker_mask
        renumber = self._renumber_cache.get(live)
        if renumber is None:
            renumber = {}
            for suit_mask in self.suit_masks:
                cards = live & suit_mask
                top = suit_mask.bit_length() - 1
                while cards:
                    card = cards.bit_length() - 1
                    cards ^= 1 << card
                    renumber[card] = top
                    top -= 1
            self._renumber_cache[live] = renumber
        out = []
        for hand in hands:
            packed = hand & joker_mask
            rest = hand & ~joker_mask
            while rest:
                low = rest & -rest
                packed |= 1 << renumber[low.bit_length() - 1]
                rest ^= low
            out.append(packed)
        out.append(leader)
        return tuple(out)

    def _joker_moves(self, state: Deal, seat: int, jokers: int) -> list[Move]:
        """The engine's legal joker plays, remembered per situation: they
        depend on the jokers held, the trick so far and whether it is the
        first trick."""
        key = (jokers, tuple(state.trick), state.trick_number == 1)
        found = self._joker_cache.get(key)
        if found is None:
            found = [(int(p.card), p.joker) for p in state.legal_joker_plays()]
            self._joker_cache[key] = found
        return found

    def _node(self, care: int, left: int) -> int:
        """The packed value (correct on ``care``) of the position in ``self._state``."""
        self.nodes += 1
        if self.budget is not None and self.nodes > self.budget:
            raise BudgetExceededError(self.budget)
        state = self._state
        assert state is not None
        hands = state.hands
        assert hands is not None
        trick = state.trick
        seat = (state.leader + len(trick)) % self.players
        maximize = seat == self.player
        acc = 0 if maximize else care
        for card, decl in self._moves(state, seat):
            need = care & ~acc if maximize else acc
            if not need:
                break
            bit = 1 << card
            hands[seat] ^= bit
            trick.append((seat, card, decl))
            if len(trick) == self.players:
                winner = trick[self._winner(state, trick)][0]
                leader, number = state.leader, state.trick_number
                state.trick = []
                state.leader = winner
                state.trick_number = number + 1
                if winner == self.player:
                    value = _won(self._boundary(_unwon(need), left - 1))
                else:
                    value = self._boundary(need, left - 1)
                state.trick = trick
                state.leader, state.trick_number = leader, number
            else:
                value = self._node(need, left)
            trick.pop()
            hands[seat] ^= bit
            if maximize:
                acc |= value & need
            else:
                acc &= value
        return acc

    def _winner(self, state: Deal, trick: list[tuple[int, int, JokerDecl | None]]) -> int:
        """The index of the winning entry of a complete trick."""
        joker_mask = self.joker_mask
        for _, card, _ in trick:
            if joker_mask >> card & 1:
                # the engine's rule, remembered per trick (rules and trump are fixed)
                key = tuple(trick)
                found = self._winner_cache.get(key)
                if found is None:
                    found = trick_winner(trick, self.rules, joker_mask, state.trump)
                    self._winner_cache[key] = found
                return found
        return _plain_winner(trick, state.trump, self.rules.circular_trumps)

    def _moves(self, state: Deal, seat: int) -> list[Move]:
        """The legal moves of ``seat``, one per class of equivalent cards."""
        hands = state.hands
        assert hands is not None
        joker_mask = self.joker_mask
        trick = state.trick
        in_trick = 0
        for _, c, _ in trick:
            in_trick |= 1 << c
        if in_trick & joker_mask:
            naturals = state.legal_naturals()
        else:
            naturals = _plain_follow(hands[seat] & ~joker_mask, trick, state.trump,
                                     self.rules.circular_trumps,
                                     self.rules.void == "must-trump", self.suit_masks)
        live = 0
        for hand in hands:
            live |= hand
        live |= in_trick
        jokers_live = live & joker_mask
        moves: list[Move] = []
        if naturals:
            merge = self.merge_ok_with_joker or not jokers_live
            # highest rank first (any suit): winners before losers is a fair first guess
            cards = naturals
            while cards:
                card = cards.bit_length() - 1
                cards ^= 1 << card
                if merge:
                    above = live >> (card + 1)
                    if above:
                        nxt = card + 1 + ((above & -above).bit_length() - 1)
                        if _SUIT_OF[nxt] == _SUIT_OF[card] and naturals >> nxt & 1 \
                                and not joker_mask >> nxt & 1:
                            continue
                moves.append((card, None))
        if len(moves) > 2:
            moves.sort(key=_RANK_ORDER.__getitem__)
        jokers = hands[seat] & joker_mask
        if jokers:
            moves += self._joker_moves(state, seat, jokers)
        if not moves:
            raise ValueError(f"no legal play for seat {seat} in trick {state.trick_number}")
        return moves


def _plain_follow(hand: int, trick: Sequence[tuple[int, int, JokerDecl | None]], trump: object,
                  circular: bool, must_trump: bool, suit_masks: Sequence[int]) -> int:
    """The legal natural cards of ``hand`` in a trick without a joker (the
    engine's :meth:`Deal._follow_mask` for that case)."""
    if not trick:
        return hand
    led = trick[0][1] // 13
    follow = hand & suit_masks[led]
    if follow:
        return follow
    if must_trump:
        trump_suit = (led + 1) % 4 if circular else (None if trump is None else int(trump))  # type: ignore[call-overload]
        if trump_suit is not None:
            trumps = hand & suit_masks[trump_suit]
            if trumps:
                return trumps
    return hand


def _plain_winner(trick: Sequence[tuple[int, int, JokerDecl | None]], trump: object,
                  circular: bool) -> int:
    """The winning index of a trick without a joker (the engine's
    :func:`trick_winner` for that case)."""
    led = trick[0][1] // 13
    trump_suit = (led + 1) % 4 if circular else (-1 if trump is None else int(trump))  # type: ignore[call-overload]
    best = 0
    first = trick[0][1]
    best_key = (40 if led == trump_suit else 20) + first % 13
    for position in range(1, len(trick)):
        card = trick[position][1]
        suit = card // 13
        if suit == trump_suit:
            key = 40 + card % 13
        elif suit == led:
            key = 20 + card % 13
        else:
            continue
        if key > best_key:
            best_key = key
            best = position
    return best


def legal_plays_of(deal: Deal) -> list[Play]:
    """The engine's legal plays of the seat to play (bidding skipped)."""
    if deal.phase == BIDDING:
        deal = _play_copy(deal)
    return deal.legal_plays()


def solve(deal: Deal, player: int, budget: int | None = None) -> Outcome:
    """What ``player`` can force from this point of ``deal`` (hands known);
    raises :class:`BudgetExceededError` past ``budget`` positions."""
    return Solver(deal, player, budget).outcome(deal)


# --- the oracle ----------------------------------------------------------------


def brute_force(deal: Deal, player: int,
                on_leaf: Callable[[Deal], None] | None = None) -> Outcome:
    """The same answer as :func:`solve` by plain minimax over every legal line
    of the engine's own :class:`Deal` (every card, every joker declaration):
    slow, and the oracle the solver is tested against. ``on_leaf`` sees every
    finished deal."""
    start = _play_copy(deal)

    def walk(state: Deal) -> tuple[frozenset[int], int, int]:
        if state.done:
            if on_leaf is not None:
                on_leaf(state)
            t = state.taken[player]
            return frozenset({t}), t, t
        seat = state.to_play
        assert seat is not None
        plays = state.legal_plays()
        if not plays:
            raise ValueError(f"no legal play for seat {seat} in trick {state.trick_number}")
        results = []
        for play in plays:
            child = _play_copy(state)
            child.apply_legal(seat, play.card, play.joker)
            results.append(walk(child))
        if seat == player:
            exact = frozenset().union(*(r[0] for r in results))
            return exact, max(r[1] for r in results), min(r[2] for r in results)
        exact = frozenset.intersection(*(r[0] for r in results))
        return exact, min(r[1] for r in results), max(r[2] for r in results)

    exact, at_least, at_most = walk(start)
    return Outcome(tuple(sorted(exact)), at_least, at_most)

