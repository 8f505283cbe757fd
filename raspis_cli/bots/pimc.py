"""A bot that bids and plays with the double-dummy solver (``simulate --bot pimc``).

Perfect Information Monte Carlo: the bot deals the cards it cannot see at
random, consistently with what it saw (its hand, the trump card, the cards
played), solves each sample with :mod:`raspis_cli.solver.search` and picks
the action with the best mean score (what the bidder can be sure of:
:meth:`raspis_cli.solver.search.Solver.guaranteed`).

- **Bids**: :func:`raspis_cli.solver.pimc.bid_advice` over the legal bids.
- **Plays**: in the last ``endgame`` tricks, every legal play is tried on
  every sample. Earlier, and whenever fewer than half of the samples are
  solved within the per-sample ``budget`` (big deals: the solver is pure
  Python), the bot falls back to the simulator's own heuristic bot, so a
  game always finishes in reasonable time.

Pure: no I/O. Randomness comes from the :class:`random.Random` it is given.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from raspis_cli.engine import Deal, Play
from raspis_cli.model.cards import Card
from raspis_cli.model.deal_kinds import has_bids

if TYPE_CHECKING:
    from raspis_cli.solver.search import Solver

# The solver (and with it numba, ~0.3-0.9 s to import) is imported by the
# methods that use it, on the first PIMC decision: `raspis simulate` with the
# heuristic bots, which imports this module for BOTS, never loads it.

__all__ = ["DEFAULT_BOT_BUDGET", "DEFAULT_BOT_SAMPLES", "BOTS", "PimcBot"]

BOTS = ("heuristic", "pimc")
"""The bots ``simulate`` knows: today's heuristic bot and this one."""
DEFAULT_BOT_SAMPLES = 20
DEFAULT_BOT_BUDGET = 3_000
"""Positions one sample's search may visit."""


class PimcBot:
    """One seat's PIMC decisions (``samples`` per decision)."""

    def __init__(self, rng: random.Random, samples: int = DEFAULT_BOT_SAMPLES,
                 budget: int = DEFAULT_BOT_BUDGET, endgame: int = 3) -> None:
        self.rng = rng
        self.samples = samples
        self.budget = budget
        self.endgame = endgame

    def bid(self, deal: Deal, seat: int, trump_card: Card | None) -> int | None:
        """The bid with the best expected score, ``None`` when too few samples
        were solved (the caller's own bot bids then)."""
        legal = deal.legal_bids()
        if len(legal) == 1:
            return legal[0]
        seen, shown = 0, {}
        assert deal.hands is not None
        if trump_card is not None:
            holder = next((s for s, h in enumerate(deal.hands) if h >> trump_card & 1), None)
            if holder is None:
                seen = 1 << trump_card
            else:
                shown = {holder: 1 << trump_card}
        from raspis_cli.solver.pimc import bid_advice

        advice = bid_advice(deal.rules, deal, seat, self.samples,
                            seed=self.rng.getrandbits(32), legal=legal, seen=seen, shown=shown,
                            budget=self.budget)
        if advice.solved * 2 < advice.drawn:
            return None
        return advice.best

    def play(self, deal: Deal, seat: int, trump_card: Card | None) -> Play | None:
        """The legal play with the best mean score over the samples in the
        last tricks; ``None`` earlier or when too few samples were solved."""
        left = deal.cards - deal.trick_number + 1
        if left > self.endgame or not has_bids(deal.kind):
            return None
        plays = deal.legal_plays()
        if len(plays) == 1:
            return plays[0]
        bid = deal.bids[seat]
        if bid is None:
            return None
        assert deal.hands is not None
        hidden = deal.deck.mask & ~deal.hands[seat]
        for trick in deal.history:
            for _, card, _ in trick.entries:
                hidden &= ~(1 << card)
        for _, card, _ in deal.trick:
            hidden &= ~(1 << card)
        if trump_card is not None and not any(h >> trump_card & 1 for h in deal.hands):
            hidden &= ~(1 << trump_card)
        from raspis_cli.solver.pimc import bid_payoffs
        from raspis_cli.solver.search import BudgetExceededError, Solver, play_copy

        payoffs = bid_payoffs(deal.rules, deal.kind, deal.cards, [bid])
        pool = [c for c in range(54) if hidden >> c & 1]
        totals = [0.0] * len(plays)
        solved = 0
        solver: Solver | None = None  # one table for every sample and play
        for _ in range(self.samples):
            self.rng.shuffle(pool)
            sample = play_copy(deal)
            assert sample.hands is not None
            at = 0
            for other in range(deal.players):
                if other == seat:
                    continue
                need = deal.hands[other].bit_count()
                mask = 0
                for card in pool[at:at + need]:
                    mask |= 1 << card
                sample.hands[other] = mask
                at += need
            scores = []
            try:
                for play in plays:
                    child = play_copy(sample)
                    child.apply_legal(seat, play.card, play.joker)
                    if solver is None:
                        solver = Solver(child, seat, self.budget)
                    [score] = solver.guaranteed(child, payoffs)
                    scores.append(score)
            except BudgetExceededError:
                continue
            except ValueError:  # a sampled hand left somebody no legal play
                continue
            solved += 1
            for i, score in enumerate(scores):
                totals[i] += score
        if solved * 2 < self.samples:
            return None
        best = max(range(len(plays)), key=lambda i: totals[i])
        return plays[best]
