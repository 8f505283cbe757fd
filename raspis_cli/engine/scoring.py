"""Deal scores (docs/RULES.md §7): one function per question, no state."""

from __future__ import annotations

from collections.abc import Sequence

from raspis_cli.rules import Rules

__all__ = ["KINDS_WITHOUT_BIDS", "bid_score", "infer_taken", "score_bonuses", "score_factors", "score_terms",
           "winners"]

KINDS_WITHOUT_BIDS = frozenset({"miser", "golden"})


def score_terms(rules: Rules, kind: str, bid: int | None, taken: int) -> tuple[tuple[str, int], ...]:
    """What a player's deal score is made of: each option of docs/RULES.md §7 that
    counts, with how many times it counts (before the kind's multiplier).

    ``bid 3, taken 3`` is ``(("exact_per_trick", 3), ("exact_bonus", 1))``;
    :func:`bid_score` adds them up, ``raspis explain`` shows them.
    ``bid`` is ignored (and may be ``None``) in miser and golden deals.
    """
    if kind == "miser":
        return (("miser_zero", 1),) if taken == 0 else (("miser_per_trick", taken),)
    if kind == "golden":
        return (("golden_zero", 1),) if taken == 0 else (("golden_per_trick", taken),)
    if bid is None:
        raise ValueError(f"a {kind} deal is scored against a bid")
    per_trick, per_missing = (
        ("forehead_per_trick", "forehead_per_missing") if kind == "forehead"
        else ("exact_per_trick", "under_per_missing")
    )
    if taken == bid:
        return (("pass_made", 1),) if bid == 0 else ((per_trick, bid), ("exact_bonus", 1))
    if taken < bid:
        return ((per_missing, bid - taken), ("under_per_taken", taken))
    return (("over_per_taken", taken),)


def score_factors(rules: Rules, kind: str, bid: int | None, taken: int,
                  cards: int | None = None) -> tuple[tuple[str, int], ...]:
    """What the sum of :func:`score_terms` is multiplied by, each with the
    rule it comes from: the kind's ``special_multiplier`` (shown only when it
    is not 1), ``score_extras``' ``percent-4`` (a deal of 4 cards ×3) and
    ``full-bid-double`` (a bid of every card, more than one, made: ×2).
    ``cards`` is the deal's card count (``None``: not known)."""
    factor = rules.special_factor(kind)
    out = [("special_multiplier", factor)] if factor != 1 else []
    extras = rules.score_extras
    if extras and cards is None:
        raise ValueError("score_extras need the deal's card count")
    if "percent-4" in extras and cards == 4:
        out.append(("percent-4", 3))
    if "full-bid-double" in extras and bid is not None and bid == cards == taken and bid > 1:
        out.append(("full-bid-double", 2))
    return tuple(out)


def score_bonuses(rules: Rules, kind: str, bid: int | None, taken: int,
                  cards: int | None = None) -> tuple[tuple[str, int], ...]:
    """Points added after the multipliers, each with the rule it comes from:
    ``score_extras``' ``miser-sweep`` (a miser deal in which the player took
    every trick: +100). ``cards`` as for :func:`score_factors`."""
    if "miser-sweep" in rules.score_extras:
        if cards is None:
            raise ValueError("score_extras need the deal's card count")
        if kind == "miser" and taken == cards:
            return (("miser-sweep", 100),)
    return ()


def bid_score(rules: Rules, kind: str, bid: int | None, taken: int, cards: int | None = None) -> int:
    """A player's deal score before penalties: the sum of :func:`score_terms`
    (each option's value times its count), times every
    :func:`score_factors`, plus every :func:`score_bonuses`.

    ``bid`` is ignored (and may be ``None``) in miser and golden deals;
    ``cards`` is the deal's card count, which every caller that knows it
    gives (rules that read it refuse ``None``).
    """
    base = 0
    for name, times in score_terms(rules, kind, bid, taken):
        base += getattr(rules, name) * times
    for _name, factor in score_factors(rules, kind, bid, taken, cards):
        base *= factor
    for _name, points in score_bonuses(rules, kind, bid, taken, cards):
        base += points
    return base


def infer_taken(rules: Rules, kind: str, bid: int | None, score: int, cards: int) -> list[int]:
    """Every trick count 0..cards that gives this bid this written score
    (penalties already taken out): one value where the score decides it."""
    return [t for t in range(cards + 1) if bid_score(rules, kind, bid, t, cards) == score]


def winners(totals: Sequence[int]) -> list[int]:
    """The seats with the highest total: co-winners share a tie."""
    if not totals:
        return []
    best = max(totals)
    return [seat for seat, total in enumerate(totals) if total == best]
