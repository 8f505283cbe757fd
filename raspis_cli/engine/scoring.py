"""Deal scores (docs/RULES.md §7): one function per question, no state.

A score is a sum of *terms* (:data:`ScoreTerm`: a number of the rules, counted
some times) times some *factors* (:data:`ScoreFactor`). Every decision over a
deal kind, a term or a ``score_extras`` item is a ``match`` ending in
``assert_never``, so ``mypy --strict`` names each place a new one must be
handled (CONTRIBUTING.md, "A new value of a rule option").
"""

from __future__ import annotations

from typing import Final, Literal, assert_never

from raspis_cli.model.deal_kinds import DEAL_KINDS, has_bids
from raspis_cli.rules import Rules
from raspis_cli.rules.values import SCORE_EXTRAS, DealKind, ScoreExtra

__all__ = ["KINDS_WITHOUT_BIDS", "MISER_SWEEP_POINTS", "ScoreFactor", "ScoreName", "ScoreTerm", "bid_score",
           "infer_taken", "is_flat", "score_factors", "score_terms", "term_value"]

KINDS_WITHOUT_BIDS: Final = frozenset(kind for kind in DEAL_KINDS if not has_bids(kind))
"""The kinds of deal without bids (:func:`~raspis_cli.model.deal_kinds.has_bids`), for a record's word."""

ScoreTerm = Literal["exact_per_trick", "exact_bonus", "pass_made", "under_per_missing", "under_per_taken",
                    "over_per_taken", "miser_zero", "miser_per_trick", "golden_zero", "golden_per_trick",
                    "forehead_per_trick", "forehead_per_missing", "miser-sweep"]
"""A term of a score, as :func:`score_terms` names it: the scoring option
whose value it counts, or the ``score_extras`` item that gives it."""
ScoreFactor = Literal["special_multiplier", "percent_multiplier", "percent-4", "full-bid-double"]
"""A multiplier of a score, as :func:`score_factors` names it: the option or
the ``score_extras`` item it comes from."""
ScoreName = ScoreTerm | ScoreFactor
"""Every name a score's formula is made of (``raspis explain`` has a word for each)."""

MISER_SWEEP_POINTS: Final = 100
"""``score_extras: miser-sweep``: what a miser deal with every trick taken scores."""


def _extras(rules: Rules, cards: int | None) -> tuple[ScoreExtra, ...]:
    """The ``score_extras`` items in force, in the order of their type; each
    reads the deal's card count, so ``None`` is refused when any is."""
    extras = tuple(extra for extra in SCORE_EXTRAS if extra in rules.score_extras)
    if extras and cards is None:
        raise ValueError("score_extras need the deal's card count")
    return extras


def _sweeps(rules: Rules, taken: int, cards: int | None) -> bool:
    """Whether a miser deal in which the player took ``taken`` tricks is a
    sweep that ``score_extras`` scores flat."""
    for extra in _extras(rules, cards):
        match extra:
            case "miser-sweep":
                return taken == cards
            case "percent-4" | "full-bid-double":
                pass  # factors: score_factors
            case _:
                assert_never(extra)
    return False


def score_terms(rules: Rules, kind: DealKind, bid: int | None, taken: int,
                cards: int | None = None) -> tuple[tuple[ScoreTerm, int], ...]:
    """What a player's deal score is made of: each term of docs/RULES.md §7
    that counts, with how many times it counts (before the multipliers).

    ``bid 3, taken 3`` is ``(("exact_per_trick", 3), ("exact_bonus", 1))``;
    :func:`bid_score` adds them up (each :func:`term_value` times its count),
    ``raspis explain`` shows them. ``bid`` is ignored (and may be ``None``)
    in miser and golden deals. ``cards`` is the deal's card count (``None``:
    not known; refused when ``score_extras`` are on): under ``miser-sweep`` a
    miser deal with every trick taken is ``(("miser-sweep", 1),)``, in place
    of the per-trick penalties.
    """
    match kind:
        case "miser":
            if taken == 0:
                return (("miser_zero", 1),)
            if _sweeps(rules, taken, cards):
                return (("miser-sweep", 1),)
            return (("miser_per_trick", taken),)
        case "golden":
            return (("golden_zero", 1),) if taken == 0 else (("golden_per_trick", taken),)
        case "forehead":
            return _bid_terms(kind, bid, taken, "forehead_per_trick", "forehead_per_missing")
        case "normal" | "no-trump" | "dark" | "percent":
            return _bid_terms(kind, bid, taken, "exact_per_trick", "under_per_missing")
        case _:
            assert_never(kind)


def _bid_terms(kind: DealKind, bid: int | None, taken: int, per_trick: ScoreTerm,
               per_missing: ScoreTerm) -> tuple[tuple[ScoreTerm, int], ...]:
    """The terms of a deal scored against a bid."""
    if bid is None:
        raise ValueError(f"a {kind} deal is scored against a bid")
    if taken == bid:
        return (("pass_made", 1),) if bid == 0 else ((per_trick, bid), ("exact_bonus", 1))
    if taken < bid:
        return ((per_missing, bid - taken), ("under_per_taken", taken))
    return (("over_per_taken", taken),)


def term_value(rules: Rules, term: ScoreTerm) -> int:
    """The points a term counts once: the option's value, or a ``score_extras``
    item's fixed points."""
    match term:
        case "exact_per_trick":
            return rules.exact_per_trick
        case "exact_bonus":
            return rules.exact_bonus
        case "pass_made":
            return rules.pass_made
        case "under_per_missing":
            return rules.under_per_missing
        case "under_per_taken":
            return rules.under_per_taken
        case "over_per_taken":
            return rules.over_per_taken
        case "miser_zero":
            return rules.miser_zero
        case "miser_per_trick":
            return rules.miser_per_trick
        case "golden_zero":
            return rules.golden_zero
        case "golden_per_trick":
            return rules.golden_per_trick
        case "forehead_per_trick":
            return rules.forehead_per_trick
        case "forehead_per_missing":
            return rules.forehead_per_missing
        case "miser-sweep":
            return MISER_SWEEP_POINTS
        case _:
            assert_never(term)


def is_flat(term: ScoreTerm) -> bool:
    """Whether a term is points for the deal (counted once) rather than
    points per trick: a formula shows a flat term as ``pass_made +5``, a
    per-trick one as ``exact_per_trick 10 × 3``."""
    match term:
        case "exact_bonus" | "pass_made" | "miser_zero" | "golden_zero" | "miser-sweep":
            return True
        case ("exact_per_trick" | "under_per_missing" | "under_per_taken" | "over_per_taken"
              | "miser_per_trick" | "golden_per_trick" | "forehead_per_trick" | "forehead_per_missing"):
            return False
        case _:
            assert_never(term)


def score_factors(rules: Rules, kind: DealKind, bid: int | None, taken: int,
                  cards: int | None = None) -> tuple[tuple[ScoreFactor, int], ...]:
    """What the sum of :func:`score_terms` is multiplied by, each with the
    rule it comes from: the kind's ``special_multiplier`` or
    ``percent_multiplier`` (shown only when it is not 1), ``score_extras``'
    ``percent-4`` (a deal of 4 cards ×3) and ``full-bid-double`` (a bid of
    every card, more than one, made: ×2).
    ``cards`` is the deal's card count (``None``: not known; refused when
    ``score_extras`` are on)."""
    name, factor = rules.kind_multiplier(kind)
    out: list[tuple[ScoreFactor, int]] = [(name, factor)] if name is not None and factor != 1 else []
    for extra in _extras(rules, cards):
        match extra:
            case "percent-4":
                if cards == 4:
                    out.append(("percent-4", 3))
            case "full-bid-double":
                if bid is not None and bid == cards == taken and bid > 1:
                    out.append(("full-bid-double", 2))
            case "miser-sweep":
                pass  # a term: score_terms
            case _:
                assert_never(extra)
    return tuple(out)


def bid_score(rules: Rules, kind: DealKind, bid: int | None, taken: int, cards: int | None = None) -> int:
    """A player's deal score before penalties: the sum of :func:`score_terms`
    (each :func:`term_value` times its count), times every
    :func:`score_factors`.

    ``bid`` is ignored (and may be ``None``) in miser and golden deals;
    ``cards`` is the deal's card count, which every caller that knows it
    gives (rules that read it refuse ``None``).
    """
    base = 0
    for name, times in score_terms(rules, kind, bid, taken, cards):
        base += term_value(rules, name) * times
    for _name, factor in score_factors(rules, kind, bid, taken, cards):
        base *= factor
    return base


def infer_taken(rules: Rules, kind: DealKind, bid: int | None, score: int, cards: int) -> list[int]:
    """Every trick count 0..cards that gives this bid this written score
    (penalties already taken out): one value where the score decides it."""
    return [t for t in range(cards + 1) if bid_score(rules, kind, bid, t, cards) == score]
