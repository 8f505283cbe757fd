"""A double-dummy solver: what one player can force with every hand seen.

For player P against the other players acting together (the "paranoid"
reduction of a multi-player game), :func:`solve` gives the set of final trick
counts P can force *exactly*, the most tricks P can be sure to take (P can
force "at least k") and the fewest P can be sure to hold it to ("at most k"),
from any point of the play of a :class:`~raspis_cli.engine.Deal` whose hands
are known.

How it works (the search itself is :mod:`raspis_cli.solver.kernel`,
integers and bit masks, compiled by numba when it is installed):

* *at least* and *at most* are two null-window alpha-beta searches (does P
  take at least ``t`` more tricks? does P leave at least ``t`` to the
  others?), bisected over ``t``; each keeps a lower and an upper bound of
  its value per trick boundary in one transposition table;
* *exactly* is a search over sets of counts (bit ``k``: P can force exactly
  ``k`` more): the union over P's moves, the intersection over the others',
  asked only for the counts still open (between *at most* and *at least*,
  and not yet known at that position), which the table keeps as known-yes
  and known-no bits; the bounds of the first two searches rule counts out;
* the table key is the hands at a trick boundary with each suit's live cards
  renumbered (only their order matters) and the leader; cards of one hand
  with no live card between them are one move (equivalent ranks), joker
  declarations with the same effect one move; moves are tried best first.

Legality and the winner of each trick are the engine's rule written in
integers from the same option switches; the joker declarations allowed in
each situation are asked of the engine itself. ``tests/test_solver.py``
checks the solver against brute force over the engine's own :class:`Deal`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, assert_never

from raspis_cli.engine.actions import Play
from raspis_cli.engine.deal import BIDDING, DONE, PLAY, Deal
from raspis_cli.engine.trick import must_trump, trick_trump
from raspis_cli.model.cards import Suit
from raspis_cli.model.joker import JokerDecl
from raspis_cli.model.joker_modes import JOKER_MODE_ROWS, wins_when_following, wins_when_led
from raspis_cli.rules import Rules
from raspis_cli.rules.jokers import high_joker_wins_trumped, low_joker_wins_unfollowed, opposite_jokers
from raspis_cli.solver import kernel as sk
from raspis_cli.text.i18n import _

__all__ = [
    "BudgetExceededError",
    "Outcome",
    "Solver",
    "SolverRefusedError",
    "brute_force",
    "brute_force_guaranteed",
    "decl_code",
    "kernel_refusal",
    "kernel_switches",
    "play_copy",
    "solve",
]


def kernel_refusal(rules: Rules) -> tuple[str, ...]:
    """The option values in force that the kernel's trick rule does not
    implement, each as ``name=value`` (empty: it implements them all):
    :class:`Solver` refuses such rules rather than answer for other ones.
    Each option the kernel reads is an exhaustive ``match`` here, so a new
    value is implemented or refused on purpose, never let through."""
    out: list[str] = []
    match rules.void:
        case "free" | "must-trump":
            pass
        case "must-trump-high":
            out.append("void=must-trump-high")
        case _:
            assert_never(rules.void)
    match rules.joker_take_lead:
        case "second-card-sets-suit":
            pass
        case "follow-freely":
            if "take" in rules.joker_lead_modes:
                out.append("joker_take_lead=follow-freely")
        case _:
            assert_never(rules.joker_take_lead)
    for mode in dict.fromkeys(rules.joker_lead_modes + rules.joker_follow_modes):
        match mode:
            case "high" | "lowest" | "low" | "take" | "discard" | "as":
                pass  # the kernel's mode codes (kernel.MODES)
            case _:
                assert_never(mode)
    return tuple(out)


def kernel_switches(rules: Rules, trump: int) -> dict[int, int]:
    """The kernel's rule switches (``R_*``) and tables for these rules and
    the deal's trump (a suit index or ``NO_SUIT``), each made by the rule's
    own function: the trump of a trick by the suit led, whether a joker wins
    as declared, the joker options' decisions."""
    out = {
        sk.R_TRUMP: trump,
        sk.R_CIRCULAR: int(rules.circular_trumps),
        sk.R_MUST_TRUMP: int(must_trump(rules.void)),
        sk.R_HIGH_HIGHEST_TRUMP: int(not high_joker_wins_trumped(rules)),
        sk.R_TAKE_BEATEN: int(rules.joker_take_beaten_by_trump),
        sk.R_LOW_JOKER_WINS: int(low_joker_wins_unfollowed(rules)),
        sk.R_FIRST_CARD_SUIT: int(not low_joker_wins_unfollowed(rules)),
        sk.R_OPPOSITE: int(opposite_jokers(rules)),
    }
    for led in range(sk.NO_SUIT + 1):
        out[sk.R_TRUMP_OF + led] = trick_trump(led, trump, rules.circular_trumps)
    for row in JOKER_MODE_ROWS:
        code = sk.MODES[row.mode]
        out[sk.R_LEAD_WINS + code] = int(wins_when_led(row.mode))
        out[sk.R_FOLLOW_WINS + code] = int(wins_when_following(row.mode))
    return out


class SolverRefusedError(ValueError):
    """Rules the solver's kernel does not implement: no answer rather than a wrong one."""


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


def play_copy(deal: Deal) -> Deal:
    """A copy of ``deal`` in play (bidding skipped) to play on without
    touching the original."""
    if deal.hands is None:
        raise ValueError("the hands of this deal are not known")
    twin = deal.copy()
    if twin.phase == BIDDING:
        twin.phase = PLAY
    return twin


class BudgetExceededError(RuntimeError):
    """A search visited more positions than its budget allowed."""

    def __init__(self, budget: int) -> None:
        super().__init__(f"the search went over its budget of {budget:,} positions")
        self.budget = budget


def decl_code(decl: JokerDecl | None) -> int:
    """A joker declaration as the kernel writes it (0: none, a natural card)."""
    if decl is None:
        return 0
    if decl.mode == "as":
        assert decl.card is not None
        arg = int(decl.card)
    else:
        arg = sk.NO_SUIT if decl.suit is None else int(decl.suit)
    return sk.MODES[decl.mode] * 64 + arg


def _situations(deal: Deal) -> list[list[int]]:
    """The legal joker declarations of each situation of the kernel
    (``SIT_*``), as the engine's :meth:`Deal.legal_joker_plays` gives them:
    leading in the first trick or later, following with no joker in the
    trick yet, after a winning or a losing first joker."""
    rules = deal.rules
    jokers = list(deal.deck.jokers)
    out: list[list[int]] = [[] for _ in range(sk.SITUATIONS)]
    if not jokers:
        return out
    players = max(deal.players, 2)
    natural = next(c for c in deal.deck.cards if not deal.deck.is_joker(c))
    probes: list[tuple[int, int, list[tuple[int, int, JokerDecl | None]]]] = [
        (sk.SIT_LEAD_FIRST, 1, []),
        (sk.SIT_LEAD, 2, []),
        (sk.SIT_FOLLOW, 2, [(players - 1, natural, None)]),
    ]
    if len(jokers) > 1:
        probes.append((sk.SIT_FOLLOW_WINS, 2, [(players - 1, jokers[1], JokerDecl("take"))]))
        probes.append((sk.SIT_FOLLOW_LOSES, 2,
                       [(players - 1, jokers[1], JokerDecl("low", suit=Suit(0)))]))
    for situation, number, trick in probes:
        probe = Deal(rules, players, 0, max(deal.cards, 2), deal.kind, deal.trump,
                     [0] * players)
        probe.skip_bidding()
        assert probe.hands is not None
        probe.hands[0] = 1 << jokers[0]
        probe.trick_number = number
        probe.trick = list(trick)
        probe.leader = (-len(trick)) % players
        codes: list[int] = []
        for play in probe.legal_joker_plays():
            if int(play.card) == jokers[0]:
                codes.append(decl_code(play.joker))
        out[situation] = codes
    return out


def _array(values: list[int]) -> Any:
    """An integer array for the kernel: numpy's when compiled, a list otherwise."""
    if sk.JIT:
        import numpy as np

        return np.array(values, dtype=np.int64)
    return values


def _zeros(size: int, align: int = 8) -> Any:
    """An integer array of ``size`` zeros for the kernel, starting at a
    multiple of ``align`` bytes when compiled (a table slot in one cache
    line)."""
    if sk.JIT:
        import numpy as np

        words = align // 8
        block = np.zeros(size + words, dtype=np.int64)
        skip = (-block.ctypes.data % align) // 8
        return block[skip:skip + size]
    return [0] * size


class Solver:
    """The searches of one player on deals of one shape, sharing what they learn.

    Positions reached by the recorded play of a deal meet the same
    positions again, so :meth:`outcome` and :meth:`can_force` called on
    successive states of one deal reuse one transposition table; PIMC
    samples (other hands, the same rules, trump, size and player) share it
    too: a table key is a whole position. ``budget`` caps the positions each
    question (:meth:`outcome`, :meth:`can_force`, each play of
    :meth:`forcing_plays`) may visit: past it the question raises
    :class:`BudgetExceededError` (what was learnt stays in the table, so a
    later question often answers at once). ``nodes`` counts the positions
    of every question. Rules the kernel does not implement
    (:func:`kernel_refusal`) raise :class:`SolverRefusedError` at once.
    """

    def __init__(self, rules_deal: Deal, player: int, budget: int | None = None) -> None:
        self.player = player
        self.budget = budget
        self.players = rules_deal.players
        self.rules = rules_deal.rules
        self.cards = rules_deal.cards
        self.trump = rules_deal.trump
        self.kind = rules_deal.kind
        if self.players > sk.KEY_WORDS or self.players * self.cards + 1 >= sk.MAX_DEPTH:
            raise ValueError(f"the solver takes up to {sk.KEY_WORDS} players and "
                             f"{sk.MAX_DEPTH - 1} cards in play")
        rules = self.rules
        deck = rules_deal.deck
        trump = sk.NO_SUIT if rules_deal.trump is None else int(rules_deal.trump)
        tt_bits = table_bits(self.players, self.cards)
        refused = kernel_refusal(rules)
        if refused:
            raise SolverRefusedError(_("the double-dummy solver does not implement {options}").format(
                options=", ".join(refused)))
        flags = [0] * sk.RULES_LEN
        flags[sk.R_PLAYERS] = self.players
        flags[sk.R_CARDS] = self.cards
        flags[sk.R_PLAYER] = player
        for index, value in kernel_switches(rules, trump).items():
            flags[index] = value
        # 'as' declarations name cards: ranks are not interchangeable then
        flags[sk.R_AS_LIVE_OK] = int("as" not in rules.joker_lead_modes + rules.joker_follow_modes)
        flags[sk.R_TT_SIZE] = 1 << tt_bits
        flags[sk.R_SLOT] = slot = 8 if self.players <= 4 else 16
        w = [0] * sk.W_LEN
        w[sk.RU:sk.RU + sk.RULES_LEN] = flags
        naturals = deck.mask & ~deck.joker_mask
        w[sk.MA:sk.MA + 6] = [*deck.suit_masks, deck.joker_mask, naturals]
        for situation, codes in enumerate(_situations(rules_deal)):
            if len(codes) > sk.MAX_DECLS:
                raise ValueError("too many joker declarations for the solver")
            at = sk.DE + situation * (sk.MAX_DECLS + 1)
            w[at] = len(codes)
            w[at + 1:at + 1 + len(codes)] = codes
        self._w = _array(w)
        self._slot = slot
        self._tt = _zeros((1 << tt_bits) * slot, align=slot * 8)
        self._xt: Any = None  # the table of the set searches, made when first asked

    @property
    def nodes(self) -> int:
        """Positions searched by every question so far."""
        return int(self._w[sk.ST + sk.S_NODES])

    # --- public ------------------------------------------------------------

    def outcome(self, deal: Deal, *, at_most: bool = True) -> Outcome:
        """Everything the player can force from this point of ``deal``.

        With ``at_most=False`` (PIMC, which needs the exact counts and
        *at least* only) the fewest tricks the player can hold it to is not
        searched when no exact count exists: ``at_most`` is then only a
        lower bound (*at least* + 1)."""
        left = self._load(deal)
        taken = deal.taken[self.player]
        if left == 0:
            return Outcome((taken,), taken, taken)
        most = self._value(0, 0, left)
        # an exact count needs "at most" <= "at least": one test rules that out
        if self._test(left - most, 1):
            unwon = self._value(1, left - most, left)
            least = left - unwon
            exact = self._exact(((2 << most) - 1) & ~((1 << least) - 1))
        else:
            exact = 0
            least = most + 1
            if at_most:
                least = left - self._value(1, 0, left - most - 1)
        return Outcome(tuple(taken + k for k in range(left + 1) if exact >> k & 1),
                       taken + most, taken + least)

    def guaranteed(self, deal: Deal, payoffs: Sequence[Sequence[int]]) -> list[int]:
        """For each payoff (finishing with ``t`` tricks, those already taken
        counted, pays ``payoff[t]``) the most the player can be sure of from
        this point of ``deal``: the highest ``v`` such that the player can
        force the final count into ``{t : payoff[t] >= v}`` against the others
        acting together. Exact for any payoff: the "at least" value first
        (it decides many sets), then each payoff's values climbed, a set
        one search (:func:`~raspis_cli.solver.kernel.ssearch`), or, for the
        sets "``b`` or ``k`` and more" that bids' scores ask, one search of
        every ``b`` at once for each ``k``
        (:func:`~raspis_cli.solver.kernel.vsearch`). One question: the
        budget covers every payoff together."""
        left = self._load(deal)
        taken = deal.taken[self.player]
        if self._xt is None:
            self._xt = _zeros(len(self._tt), align=self._slot * 8)
        # the most tricks the player can be sure of decides every set that
        # holds all counts from it up (forced) or none up to it (not forced):
        # the bisection of the cheaper search, its bounds kept in the table
        most = self._value(0, 0, left) if left else 0
        top = (1 << (left + 1)) - 1
        # forcing gets harder as the value rises (each payoff's sets shrink):
        # per payoff, the index of the highest value known forced (the
        # lowest: every count pays at least it) and of the lowest known not.
        # Asked first: the value just above the known (most often the last
        # one forced); after a first yes, the highest (a bid made exactly);
        # then bisected. The sets "count b, or k and more" (a bid's score)
        # asked at one step by every payoff are one search for each k
        values = [sorted({payoff[taken + k] for k in range(left + 1)}) for payoff in payoffs]
        low = [0] * len(payoffs)
        high = [len(row) for row in values]
        asked_yet = [0] * len(payoffs)
        while True:
            asked: dict[int, int] = {}  # k -> bits b
            sets: list[tuple[int, int, int, int, int]] = []  # payoff, index, care, k (-1: ssearch), b
            for i, payoff in enumerate(payoffs):
                while high[i] - low[i] > 1:
                    at = (low[i] + 1 if asked_yet[i] == 0 else
                          high[i] - 1 if asked_yet[i] == 1 else (low[i] + high[i]) // 2)
                    value = values[i][at]
                    care = sum(1 << k for k in range(left + 1) if payoff[taken + k] >= value)
                    if care | ((1 << most) - 1) == top:
                        low[i] = at
                    elif care & ((2 << most) - 1) == 0:
                        high[i] = at
                    else:
                        k, b = _one_and_run(care, left)
                        if k >= 0:
                            asked[k] = asked.get(k, 0) | 1 << b
                        sets.append((i, at, care, k, b))
                        break
            if not sets:
                break
            found = {}
            for k, bits in asked.items():
                found[k] = int(sk.vsearch(bits, k, 0, self._tt, self._xt, self._w))
                self._check()
            for i, at, care, k, b in sets:
                if k >= 0:
                    forced = bool(found[k] >> b & 1)
                else:
                    forced = bool(sk.ssearch(care, 0, self._tt, self._xt, self._w))
                    self._check()
                if forced:
                    low[i] = at
                    asked_yet[i] += 1
                else:
                    high[i] = at
                    asked_yet[i] = 2  # no value above it: bisect what is left
        return [row[at] for row, at in zip(values, low, strict=True)]

    def can_force(self, deal: Deal, tricks: int) -> bool:
        """Whether the player can force exactly ``tricks`` (counting the
        tricks already taken) from this point of ``deal``."""
        left = self._load(deal)
        future = tricks - deal.taken[self.player]
        if future < 0 or future > left:
            return False
        if left == 0:
            return future == 0
        # cheap refutations first: "at least" below it, or "at most" above it
        if not self._test(future, 0) or not self._test(left - future, 1):
            return False
        return bool(self._exact(1 << future))

    def forcing_plays(self, deal: Deal, tricks: int) -> list[Play]:
        """The legal plays of the player (who must be to play) after which
        exactly ``tricks`` can still be forced."""
        out: list[Play] = []
        for play in legal_plays_of(deal):
            after = play_copy(deal)
            after.apply_legal(self.player, play.card, play.joker)
            if self.can_force(after, tricks):
                out.append(play)
        return out

    def every_search(self, deal: Deal) -> None:
        """One search of each kind the kernel has (the null-window, the exact
        counts, the set and the bids' searches) from this point of ``deal``,
        answers unused: what compiles the whole kernel at once
        (:mod:`raspis_cli.solver.warm`)."""
        left = self._load(deal)
        if self._xt is None:
            self._xt = _zeros(len(self._tt), align=self._slot * 8)
        sk.bsearch(left, 0, 0, self._tt, self._w)
        sk.esearch(1, 0, self._tt, self._w)
        sk.ssearch(1, 0, self._tt, self._xt, self._w)
        sk.vsearch(1, 0, 0, self._tt, self._xt, self._w)
        self._check()

    # --- search ------------------------------------------------------------

    def _load(self, deal: Deal) -> int:
        """Put the position of ``deal`` in the kernel's state; the tricks left."""
        if deal.hands is None:
            raise ValueError("the hands of this deal are not known")
        if (deal.rules is not self.rules and deal.rules != self.rules) \
                or deal.players != self.players or deal.cards != self.cards \
                or deal.trump != self.trump:
            raise ValueError("this solver was made for deals of other rules, size or trump")
        w = self._w
        w[sk.ST + sk.S_LIMIT] = (self.nodes + self.budget) if self.budget is not None else 1 << 62
        w[sk.ST + sk.S_ABORT] = 0
        w[sk.ST + sk.S_ERROR] = 0
        if deal.phase == DONE:
            return 0
        for seat, hand in enumerate(deal.hands):
            w[sk.HA + seat] = hand
        for index, (_seat, card, decl) in enumerate(deal.trick):
            w[sk.TC + index] = int(card)
            w[sk.TD + index] = decl_code(decl) if deal.deck.is_joker(card) else 0
        w[sk.ST + sk.S_LEADER] = deal.leader
        w[sk.ST + sk.S_TLEN] = len(deal.trick)
        w[sk.ST + sk.S_TNUM] = deal.trick_number
        return self.cards - deal.trick_number + 1

    def _check(self) -> None:
        w = self._w
        if w[sk.ST + sk.S_ERROR]:
            raise ValueError("a line of play leaves a player no legal play (contradictory options)")
        if w[sk.ST + sk.S_ABORT]:
            assert self.budget is not None
            raise BudgetExceededError(self.budget)

    def _test(self, t: int, mode: int) -> bool:
        """Whether the player can force at least ``t`` more tricks won
        (``mode`` 0) or not won (``mode`` 1): one null-window search."""
        found = sk.bsearch(t, mode, 0, self._tt, self._w)
        self._check()
        return bool(found)

    def _value(self, mode: int, low: int, high: int) -> int:
        """The most further tricks the player can force winning (``mode``
        0) or not winning (``mode`` 1), known to lie in ``low..high``:
        null-window tests, bisected for ``mode`` 0; for ``mode`` 1 tried
        from the top down, since there a test that fails far above the
        value is cheap and one that passes below it is not (the player's
        proof must answer every combination of the others' cards): 6-9%
        fewer positions than bisecting on 4x9 and 3x12 deals."""
        if mode == 1:
            while low < high:
                if self._test(high, mode):
                    return high
                high -= 1
            return low
        while low < high:
            middle = (low + high + 1) // 2
            if self._test(middle, mode):
                low = middle
            else:
                high = middle - 1
        return low

    def _exact(self, care: int) -> int:
        """The bits of ``care`` (further trick counts) the player can force exactly."""
        found = sk.esearch(care, 0, self._tt, self._w)
        self._check()
        return int(found) & care


def table_bits(players: int, cards: int) -> int:
    """The transposition table has ``2 ** table_bits`` slots: by the cards in
    play, the same with the compiled kernel and without, so a search under a
    budget visits the same positions and gives the same answer on either."""
    return max(10, min(18, 6 + players * cards // 2))


def _one_and_run(care: int, left: int) -> tuple[int, int]:
    """``(k, b)`` when the set ``care`` of counts 0..``left`` is ``{b}`` and
    every count from ``k`` up (``k`` > ``b`` + 1; ``k`` = ``left`` + 1: none),
    else ``(-1, -1)``."""
    k = left + 1
    while k > 0 and care >> (k - 1) & 1:
        k -= 1
    below = care & ((1 << k) - 1)
    if below == 0 or below & (below - 1) or below << 1 == 1 << k:
        return -1, -1
    return k, below.bit_length() - 1


def legal_plays_of(deal: Deal) -> list[Play]:
    """The engine's legal plays of the seat to play (bidding skipped)."""
    if deal.phase == BIDDING:
        deal = play_copy(deal)
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
    start = play_copy(deal)

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
            child = play_copy(state)
            child.apply_legal(seat, play.card, play.joker)
            results.append(walk(child))
        if seat == player:
            exact = frozenset().union(*(r[0] for r in results))
            return exact, max(r[1] for r in results), min(r[2] for r in results)
        exact = frozenset.intersection(*(r[0] for r in results))
        return exact, min(r[1] for r in results), max(r[2] for r in results)

    exact, at_least, at_most = walk(start)
    return Outcome(tuple(sorted(exact)), at_least, at_most)


def brute_force_guaranteed(deal: Deal, player: int,
                           payoffs: Sequence[Sequence[int]]) -> list[int]:
    """The same answer as :meth:`Solver.guaranteed` by plain minimax of each
    payoff over every legal line of the engine's own :class:`Deal`: the
    oracle the set search is tested against."""
    start = play_copy(deal)

    def walk(state: Deal) -> list[int]:
        if state.done:
            return [payoff[state.taken[player]] for payoff in payoffs]
        seat = state.to_play
        assert seat is not None
        results = []
        for play in state.legal_plays():
            child = play_copy(state)
            child.apply_legal(seat, play.card, play.joker)
            results.append(walk(child))
        if not results:
            raise ValueError(f"no legal play for seat {seat} in trick {state.trick_number}")
        pick = max if seat == player else min
        return [pick(row[i] for row in results) for i in range(len(payoffs))]

    return walk(start)
