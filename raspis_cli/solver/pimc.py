"""What should have been bid: Perfect Information Monte Carlo over the solver.

A player bidding sees their own hand (nothing in a dark deal, the others'
hands and not their own in a forehead deal), the trump and
the trump card if it was turned up or shown. :func:`bid_advice` deals the
unseen cards at random, consistently with what the player saw, solves each
sample with :mod:`raspis_cli.solver.search` and scores every legal bid under
the rules' scoring.

The score of bid ``b`` in one sample is what the player can be sure of
against the others playing together (the solver's paranoid reduction): the
highest score ``v`` such that the player can force the final trick count into
the counts that score at least ``v`` (:meth:`Solver.guaranteed`). Exact for
any scoring: a player sure of "0 or at least 2" tricks is sure of the lower
of those scores even when neither exactly 0 nor at least 2 can be forced.

The samples stop early when the best bid is settled: from
:data:`SETTLE_AFTER` samples on, when for every other bid the best bid's
mean lead over it, less :data:`SETTLE_Z` standard errors of that lead, is
above zero (or the two scored alike in every sample). They stop too when
the advice has visited its whole budget of positions (``total_budget``: the
time of one deal's advice bounded, whatever the samples cost). The samples
come from the seed and the positions counted are the same with the compiled
kernel and without, so the advice, and where it stopped, are the same on
every machine.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from raspis_cli.engine.deal import Deal
from raspis_cli.engine.scoring import bid_score
from raspis_cli.model.deal_kinds import bid_view
from raspis_cli.rules import Rules
from raspis_cli.rules.values import DealKind
from raspis_cli.solver.search import BudgetExceededError, Solver

__all__ = ["GIVE_UP_AFTER", "SETTLE_AFTER", "SETTLE_Z", "BidAdvice", "best_bid", "bid_advice", "bid_payoffs",
           "sample_hands", "settled"]

GIVE_UP_AFTER = 5
"""When none of the first this many samples is solved within the budget, the
advice stops there (``solved`` 0)."""
SETTLE_AFTER = 12
"""The fewest samples solved before the advice may stop early, the best bid settled."""
SETTLE_Z = 3.0
"""How many standard errors the best bid's mean lead over each other bid must clear."""


@dataclass(frozen=True, slots=True)
class BidAdvice:
    """Expected score of each legal bid over the samples solved.

    ``samples``: how many were allowed; ``drawn``: how many were dealt
    (fewer when the best bid was ``settled`` early); ``solved``: how many of
    those were solved within the budget. ``forced``: the player had one legal
    bid (nothing is sampled then). ``budget_spent``: the samples stopped
    because the advice's whole budget of positions was visited.
    ``positions``: the solver's positions over every sample drawn;
    ``unsolved_positions``: those of them visited by samples that went over
    their budget (visited for no answer: where a cheaper search would pay)."""

    expected: dict[int, float]
    samples: int
    solved: int
    drawn: int = 0
    settled: bool = False
    forced: bool = False
    budget_spent: bool = False
    positions: int = 0
    unsolved_positions: int = 0

    @property
    def best(self) -> int | None:
        """The bid with the highest expected score (the lowest such bid on a tie)."""
        return best_bid(self.expected)

    def regret(self, bid: int) -> float | None:
        """Expected points lost by bidding ``bid`` instead of the best bid;
        ``None`` when nothing was computed (no sample solved, or ``bid`` not scored)."""
        best = self.best
        if best is None or bid not in self.expected:
            return None
        return self.expected[best] - self.expected[bid]


def bid_payoffs(rules: Rules, kind: DealKind, cards: int, bids: Sequence[int]) -> list[list[int]]:
    """The score of each bid for each final count of tricks 0..``cards``."""
    return [[bid_score(rules, kind, bid, taken, cards) for taken in range(cards + 1)] for bid in bids]


def settled(scores: Sequence[Sequence[int]]) -> bool:
    """Whether the best bid is settled over these samples (each a score per
    bid, in the order of the bids): see the module."""
    n = len(scores)
    if n < SETTLE_AFTER:
        return False
    width = len(scores[0])
    totals = [sum(row[i] for row in scores) for i in range(width)]
    best = max(range(width), key=lambda i: (totals[i], -i))
    for other in range(width):
        if other == best:
            continue
        leads = [row[best] - row[other] for row in scores]
        if all(lead == 0 for lead in leads):
            continue
        mean = sum(leads) / n
        spread = sum((lead - mean) ** 2 for lead in leads) / (n - 1)
        if mean - SETTLE_Z * (spread / n) ** 0.5 <= 0:
            return False
    return True


def sample_hands(rng: random.Random, deal: Deal, seat: int, seen: int = 0,
                 shown: dict[int, int] | None = None, own_known: bool = True) -> list[int]:
    """Hands consistent with what ``seat`` saw: its own hand (unless
    ``own_known`` is false, a dark deal; in a forehead deal the others'
    hands and not its own), ``seen`` cards known to be in no
    hand (a turned-up trump card), ``shown`` cards known to be in a seat's hand
    (the dealer's shown trump card); the rest dealt at random."""
    assert deal.hands is not None
    fixed = [0] * deal.players
    if bid_view(deal.kind) == "others":
        # each player sees the others' cards on their foreheads, not their own
        fixed = [0 if other == seat else hand for other, hand in enumerate(deal.hands)]
    elif own_known:
        fixed[seat] = deal.hands[seat]
    for other, mask in (shown or {}).items():
        fixed[other] |= mask
    taken = seen
    for mask in fixed:
        taken |= mask
    pool = [c for c in deal.deck.cards if not taken >> c & 1]
    rng.shuffle(pool)
    hands = list(fixed)
    at = 0
    for other in range(deal.players):
        need = deal.cards - bin(hands[other]).count("1")
        for card in pool[at:at + need]:
            hands[other] |= 1 << card
        at += need
    return hands


def bid_advice(rules: Rules, deal: Deal, seat: int, samples: int, *, seed: int | str = 0,
               legal: Sequence[int] | None = None, seen: int = 0,
               shown: dict[int, int] | None = None, budget: int | None = None,
               total_budget: int | None = None,
               on_positions: Callable[[int], None] | None = None) -> BidAdvice:
    """Expected score of each legal bid of ``seat`` over up to ``samples``
    deals consistent with what it saw (``seen``, ``shown``: see
    :func:`sample_hands`), stopping early when the best bid is settled (see
    the module). ``legal`` defaults to every bid 0..cards; one legal bid is
    forced (nothing sampled). A sample whose solve goes over ``budget``
    positions is left out (``solved`` counts the rest); if none of the first
    :data:`GIVE_UP_AFTER` is solved, the advice gives up. The samples together
    visit ``total_budget`` positions at most (and the one that goes over it;
    the last sample may get less than ``budget``); there they stop
    (``budget_spent``). ``on_positions`` is told each sample's positions
    when it ends (solved or not). Reproducible: the samples come from
    ``seed``."""
    bids = list(legal) if legal is not None else list(range(deal.cards + 1))
    if len(bids) == 1:
        return BidAdvice({}, samples, 0, forced=True)
    rng = random.Random(f"raspis-pimc/{seed}")
    payoffs = bid_payoffs(rules, deal.kind, deal.cards, bids)
    scores: list[list[int]] = []
    own_known = bid_view(deal.kind) != "none"
    drawn = 0
    stopped = False
    solver: Solver | None = None
    unsolved_positions = 0

    def spent() -> bool:
        return total_budget is not None and solver is not None and solver.nodes >= total_budget
    # one solver for every sample: a table key is a whole position, so what
    # one sample learns (mostly the last tricks) answers for another
    while drawn < samples:
        if drawn == GIVE_UP_AFTER and not scores:
            break  # a deal too big for the budget: the rest would fail alike
        if spent():
            break
        drawn += 1
        hands = sample_hands(rng, deal, seat, seen, shown, own_known)
        sample = Deal(rules, deal.players, deal.dealer, deal.cards, deal.kind, deal.trump, hands)
        sample.skip_bidding()
        if solver is None:
            solver = Solver(sample, seat, budget)
        if total_budget is not None:
            left = total_budget - solver.nodes
            solver.budget = left if budget is None else min(budget, left)
        before = solver.nodes
        try:
            scores.append(solver.guaranteed(sample, payoffs))
        except BudgetExceededError:
            unsolved_positions += solver.nodes - before
            continue
        finally:
            if on_positions is not None:
                on_positions(solver.nodes - before)
        if drawn < samples and settled(scores):
            stopped = True
            break
    solved = len(scores)
    expected = {b: sum(row[i] for row in scores) / solved for i, b in enumerate(bids)} if solved else {}
    # spent on the last sample drawn too, or when it broke the loop above
    return BidAdvice(expected, samples, solved, drawn, stopped, budget_spent=spent(),
                     positions=solver.nodes if solver is not None else 0,
                     unsolved_positions=unsolved_positions)


def best_bid(expected: Mapping[int, float]) -> int | None:
    """The bid with the highest mean score (the lowest such bid on a tie; ``None``: no bid):
    the one rule the advice and the bots' opinion both name their best bid by."""
    if not expected:
        return None
    top = max(expected.values())
    return min(b for b, v in expected.items() if v == top)
