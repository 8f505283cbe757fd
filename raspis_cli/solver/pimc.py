"""What should have been bid: Perfect Information Monte Carlo over the solver.

A player bidding sees their own hand (nothing in a dark deal, the others'
hands and not their own in a forehead deal), the trump and
the trump card if it was turned up or shown. :func:`bid_advice` deals the
unseen cards at random K times, consistently with what the player saw,
solves each sample with :mod:`raspis_cli.solver.search` and scores every
legal bid under the rules' scoring.

The score of bid ``b`` in one sample is what the player can guarantee
against the others playing together (the solver's paranoid reduction):
``score(b, b)`` when ``b`` can be forced exactly; otherwise, when the
player can force at least ``b`` tricks, ``score(b, b + 1)`` (the others push
one over); otherwise ``score(b, L)`` with ``L`` the most tricks the player
can be sure of. (Exact for scorings that grow with the tricks taken on each
side of the bid, as every preset's does; a lower bound otherwise.)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from raspis_cli.engine.deal import Deal
from raspis_cli.engine.scoring import bid_score
from raspis_cli.rules import Rules
from raspis_cli.solver.search import BudgetExceededError, Outcome, Solver

__all__ = ["GIVE_UP_AFTER", "BidAdvice", "bid_advice", "sample_hands", "sample_score"]

GIVE_UP_AFTER = 5
"""When none of the first this many samples is solved within the budget, the
advice stops there (``solved`` 0)."""


@dataclass(frozen=True, slots=True)
class BidAdvice:
    """Expected score of each legal bid over the samples solved."""

    expected: dict[int, float]
    samples: int
    solved: int

    @property
    def best(self) -> int | None:
        """The bid with the highest expected score (the lowest such bid on a tie)."""
        if not self.expected:
            return None
        top = max(self.expected.values())
        return min(b for b, v in self.expected.items() if v == top)

    def regret(self, bid: int) -> float:
        """Expected points lost by bidding ``bid`` instead of the best bid."""
        best = self.best
        if best is None or bid not in self.expected:
            return 0.0
        return self.expected[best] - self.expected[bid]


def sample_score(rules: Rules, kind: str, bid: int, outcome: Outcome) -> int:
    """The score ``bid`` is sure of in one solved sample (see the module)."""
    if bid in outcome.exact:
        return bid_score(rules, kind, bid, bid)
    if outcome.at_least >= bid:
        return bid_score(rules, kind, bid, bid + 1)
    return bid_score(rules, kind, bid, outcome.at_least)


def sample_hands(rng: random.Random, deal: Deal, seat: int, seen: int = 0,
                 shown: dict[int, int] | None = None, own_known: bool = True) -> list[int]:
    """Hands consistent with what ``seat`` saw: its own hand (unless
    ``own_known`` is false, a dark deal; in a forehead deal the others'
    hands and not its own), ``seen`` cards known to be in no
    hand (a turned-up trump card), ``shown`` cards known to be in a seat's hand
    (the dealer's shown trump card); the rest dealt at random."""
    assert deal.hands is not None
    fixed = [0] * deal.players
    if deal.kind == "forehead":
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
               shown: dict[int, int] | None = None, budget: int | None = None) -> BidAdvice:
    """Expected score of each legal bid of ``seat`` over ``samples`` deals
    consistent with what it saw (``seen``, ``shown``: see
    :func:`sample_hands`). ``legal`` defaults to every bid 0..cards. A sample
    whose solve goes over ``budget`` positions is left out (``solved``
    counts the rest); if none of the first :data:`GIVE_UP_AFTER` is solved,
    the advice gives up. Reproducible: the samples come from ``seed``."""
    rng = random.Random(f"raspis-pimc/{seed}")
    bids = list(legal) if legal is not None else list(range(deal.cards + 1))
    totals = dict.fromkeys(bids, 0.0)
    solved = 0
    own_known = deal.kind != "dark"
    # one solver for every sample: a table key is a whole position, so what
    # one sample learns (mostly the last tricks) answers for another
    solver: Solver | None = None
    for drawn in range(samples):
        if drawn == GIVE_UP_AFTER and not solved:
            break  # a deal too big for the budget: the rest would fail alike
        hands = sample_hands(rng, deal, seat, seen, shown, own_known)
        sample = Deal(rules, deal.players, deal.dealer, deal.cards, deal.kind, deal.trump, hands)
        sample.skip_bidding()
        if solver is None:
            solver = Solver(sample, seat, budget)
        try:
            outcome = solver.outcome(sample, at_most=False)
        except BudgetExceededError:
            continue
        solved += 1
        for bid in bids:
            totals[bid] += sample_score(rules, deal.kind, bid, outcome)
    expected = {b: totals[b] / solved for b in bids} if solved else {}
    return BidAdvice(expected, samples, solved)
