"""A second opinion on a bid, cheap and not a proof: the samples played out by raspis's own bots.

The bid advice (:func:`raspis_cli.solver.pimc.bid_advice`) scores each bid by
what the bidder can be *sure of*: the other players playing together against
it, every card seen. That model is pessimistic: against it a bid of 0 often
wins, because the others could always spoil a bid of tricks. This opinion
plays each of the same sampled deals out with the simulator's heuristic bots
(:meth:`~raspis_cli.simulate.simulator.Simulator.play_out`): the bidder's bot
aiming at the bid scored, the others at the bids they made, none seeing a
card it could not see at a table. The mean score per bid is closer to a real
table and costs little (milliseconds a sample), and it proves nothing: the
bots play by rules of thumb, and now and then a card at random.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from raspis_cli.engine import Deal
from raspis_cli.engine.scoring import bid_score
from raspis_cli.model.deal_kinds import bid_view
from raspis_cli.simulate.simulator import Simulator
from raspis_cli.solver.pimc import best_bid, sample_hands

__all__ = ["BotOpinion", "bot_opinion"]


@dataclass(frozen=True, slots=True)
class BotOpinion:
    """Each legal bid's mean score over ``samples`` deals played out by the bots."""

    expected: dict[int, float]
    samples: int

    @property
    def best(self) -> int | None:
        """The bid with the highest mean score (the lowest such bid on a tie)."""
        return best_bid(self.expected)

    def to_json(self) -> dict[str, object]:
        """The ``bots`` object of docs/ANALYZE.md."""
        return {"samples": self.samples,
                "expected": {str(b): round(v, 2) for b, v in self.expected.items()},
                "best": self.best}


def bot_opinion(deal: Deal, seat: int, samples: int, *, seed: int | str = 0,
                legal: Sequence[int], seen: int = 0, shown: dict[int, int] | None = None,
                ) -> BotOpinion:
    """The mean score of each bid of ``legal`` for ``seat`` when ``samples``
    deals consistent with what it saw are played out by the heuristic bots
    (see the module). ``deal`` is at its first card with the bids as made;
    the samples are :func:`~raspis_cli.solver.pimc.bid_advice`'s for the same
    ``seed`` (the same deals, in the same order). Reproducible: the bots'
    random plays come from ``seed`` too."""
    rules = deal.rules
    draw = random.Random(f"raspis-pimc/{seed}")
    bots = Simulator(rules, [str(s) for s in range(deal.players)], random.Random(f"raspis-bots/{seed}"),
                     "full")
    own_known = bid_view(deal.kind) != "none"
    totals = dict.fromkeys(legal, 0)
    for _ in range(samples):
        hands = sample_hands(draw, deal, seat, seen, shown, own_known)
        for bid in legal:
            sample = Deal(rules, deal.players, deal.dealer, deal.cards, deal.kind, deal.trump, hands)
            sample.skip_bidding()
            sample.bids = list(deal.bids)
            sample.bids[seat] = bid
            bots.play_out(sample, f"a sample of a deal of {deal.cards} cards")
            totals[bid] += bid_score(rules, deal.kind, bid, sample.taken[seat], deal.cards)
    if samples <= 0:
        return BotOpinion({}, 0)
    return BotOpinion({b: total / samples for b, total in totals.items()}, samples)
