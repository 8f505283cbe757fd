"""Deal scores (docs/RULES.md §7): one function per question, no state."""

from __future__ import annotations

from collections.abc import Sequence

from raspis_cli.rules import Rules

__all__ = ["KINDS_WITHOUT_BIDS", "bid_score", "infer_taken", "winners"]

KINDS_WITHOUT_BIDS = frozenset({"miser", "golden"})


def bid_score(rules: Rules, kind: str, bid: int | None, taken: int) -> int:
    """A player's deal score before penalties, multiplier included.

    ``bid`` is ignored (and may be ``None``) in miser and golden deals.
    """
    if kind == "miser":
        base = rules.miser_zero if taken == 0 else rules.miser_per_trick * taken
    elif kind == "golden":
        base = rules.golden_zero if taken == 0 else rules.golden_per_trick * taken
    else:
        if bid is None:
            raise ValueError(f"a {kind} deal is scored against a bid")
        per_trick, per_missing = (
            (rules.forehead_per_trick, rules.forehead_per_missing)
            if kind == "forehead"
            else (rules.exact_per_trick, rules.under_per_missing)
        )
        if taken == bid:
            base = rules.pass_made if bid == 0 else per_trick * bid + rules.exact_bonus
        elif taken < bid:
            base = per_missing * (bid - taken) + rules.under_per_taken * taken
        else:
            base = rules.over_per_taken * taken
    return base * rules.special_factor(kind)


def infer_taken(rules: Rules, kind: str, bid: int | None, score: int, cards: int) -> list[int]:
    """Every trick count 0..cards that gives this bid this written score
    (penalties already taken out): one value where the score decides it."""
    return [t for t in range(cards + 1) if bid_score(rules, kind, bid, t) == score]


def winners(totals: Sequence[int]) -> list[int]:
    """The seats with the highest total: co-winners share a tie."""
    if not totals:
        return []
    best = max(totals)
    return [seat for seat, total in enumerate(totals) if total == best]
