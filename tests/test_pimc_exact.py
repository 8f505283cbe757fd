"""The bid advice's score of each bid in a sample is exact: what the bidder
can be sure of against the others playing together, checked against plain
minimax of the score over every line (brute force) on small deals."""

from __future__ import annotations

import random

import pytest

from raspis_cli.engine import Deal
from raspis_cli.rules import PRESETS
from raspis_cli.rules.values import DealKind
from raspis_cli.solver import pimc
from raspis_cli.solver.pimc import BidAdvice, bid_advice, bid_payoffs, settled
from raspis_cli.solver.randomdeal import random_position, random_small_case
from raspis_cli.solver.search import Solver, brute_force_guaranteed
from tests.enginekit import deal_of, rules_of


def _worked() -> Deal:
    """No trump, P1 deals, P2 leads. P2 leading 7♥ lets P3 take both tricks
    (+2 on a pass); leading 8♠ lets P3 throw 8♥ and take none (+5): bidding
    0, P3 is sure of 2, though P3 can force neither exactly 0 nor 2 or more."""
    return deal_of(rules_of("raspisnoy"), ["8C 10C", "7H 8S", "8H 9D"], dealer=0)


def test_worked_position_scores_each_bid_by_what_is_sure() -> None:
    deal = _worked()
    payoffs = bid_payoffs(deal.rules, "normal", 2, [0, 1, 2])
    assert payoffs == [[5, 1, 2], [-10, 10, 2], [-20, -10, 20]]
    assert Solver(deal, 2).guaranteed(deal, payoffs) == [2, 2, -10]
    assert brute_force_guaranteed(deal, 2, payoffs) == [2, 2, -10]


def test_worked_position_advice(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every sample the worked position: the advice is its exact scores, best bid 0."""
    deal = _worked()
    assert deal.hands is not None
    hands = list(deal.hands)
    monkeypatch.setattr(pimc, "sample_hands", lambda *args, **kwargs: list(hands))
    advice = bid_advice(deal.rules, deal, 2, 20, legal=[0, 1, 2])
    assert advice.expected == {0: 2.0, 1: 2.0, 2: -10.0}
    assert advice.best == 0
    assert advice.settled and advice.drawn == pimc.SETTLE_AFTER == advice.solved


@pytest.mark.parametrize("preset", PRESETS)
def test_every_bid_scored_as_brute_force_says(preset: str) -> None:
    """Random small positions of every preset (shuffled options, some mid-trick,
    tricks already taken), every bid 0..cards, normal and forehead scoring."""
    rng = random.Random(f"guaranteed/{preset}")
    checked = 0
    for _ in range(120):
        deal, player = random_small_case(rng, [preset])
        kind: DealKind = rng.choice(["normal", "forehead"])
        payoffs = bid_payoffs(deal.rules, kind, deal.cards, range(deal.cards + 1))
        try:
            expected = brute_force_guaranteed(deal, player, payoffs)
        except ValueError:  # a line without a legal play (contradictory options)
            continue
        assert Solver(deal, player).guaranteed(deal, payoffs) == expected, (
            deal.rules, deal.hands, deal.trick, player, kind)
        checked += 1
    assert checked >= 110


def test_any_payoff_is_exact() -> None:
    """Not only the presets' scores: random payoffs, so every shape of set is asked."""
    rng = random.Random("guaranteed/any")
    checked = 0
    while checked < 150:
        deal, player = random_small_case(rng)
        payoffs = [[rng.randint(-3, 3) for _ in range(deal.cards + 1)] for _ in range(3)]
        try:
            expected = brute_force_guaranteed(deal, player, payoffs)
        except ValueError:
            continue
        assert Solver(deal, player).guaranteed(deal, payoffs) == expected
        checked += 1


def test_settled_needs_a_clear_lead() -> None:
    clear = [[5, 1]] * pimc.SETTLE_AFTER
    assert settled(clear)
    assert not settled(clear[:-1])  # too few samples
    noisy = [[5, 1], [1, 5]] * pimc.SETTLE_AFTER
    assert not settled(noisy)
    tied = [[3, 3, 1]] * pimc.SETTLE_AFTER  # bids 0 and 1 alike in every sample: 0 is best
    assert settled(tied)


def test_a_single_legal_bid_is_forced() -> None:
    deal = _worked()
    advice = bid_advice(deal.rules, deal, 0, 10, legal=[1])
    assert advice == BidAdvice({}, 10, 0, forced=True)
    assert advice.best is None and advice.regret(1) is None


def test_what_one_question_left_in_the_table_answers_the_next_exactly() -> None:
    """One solver asked several payoffs in turn, as the samples of one advice
    ask: the bounds each question leaves in the table (per count, the highest
    "count, or k and more" known forced or not, for every k) must answer the
    next exactly."""
    rng = random.Random("guaranteed/reused")
    checked = 0
    while checked < 120:
        deal, player = random_small_case(rng)
        rounds = [bid_payoffs(deal.rules, rng.choice(["normal", "forehead"]), deal.cards,
                              range(deal.cards + 1)),
                  [[rng.randint(-3, 3) for _ in range(deal.cards + 1)] for _ in range(2)],
                  bid_payoffs(deal.rules, "normal", deal.cards, range(deal.cards, -1, -1))]
        try:
            expected = [brute_force_guaranteed(deal, player, payoffs) for payoffs in rounds]
        except ValueError:
            continue
        solver = Solver(deal, player)
        assert [solver.guaranteed(deal, payoffs) for payoffs in rounds] == expected, (
            deal.rules, deal.hands, deal.trick, player)
        checked += 1


def _medium_deal() -> Deal:
    rng = random.Random("advice/budget")
    return random_position(rng, rules_of("raspisnoy"), 3, 7, joker_chance=1.0, kind="normal", played=0)


def test_the_samples_stop_when_the_advice_has_spent_its_budget() -> None:
    """The samples of one advice together visit at most ``total_budget``
    positions; past it they stop and the advice says so. (``positions``
    is the advice's solver's count: the next test holds it.)"""
    deal = _medium_deal()
    free = bid_advice(deal.rules, deal, 1, 30, seed="b")
    assert not free.budget_spent and free.drawn > 3
    spent_so_far = free.positions
    total = spent_so_far // 3
    capped = bid_advice(deal.rules, deal, 1, 30, seed="b", total_budget=total)
    assert capped.budget_spent and not capped.settled
    assert 1 <= capped.drawn < free.drawn
    assert 0 < capped.positions <= total + 1
    # the total running out on the last sample allowed is said too
    last = bid_advice(deal.rules, deal, 1, capped.drawn, seed="b", total_budget=total)
    assert last.budget_spent and last.drawn == capped.drawn
    # a budget it does not reach changes nothing
    roomy = bid_advice(deal.rules, deal, 1, 30, seed="b", total_budget=spent_so_far * 2)
    assert roomy == free


def test_the_advice_counts_what_its_unsolved_samples_visited(monkeypatch: pytest.MonkeyPatch) -> None:
    """``positions`` is what the advice's solver visited; ``unsolved_positions``
    the part visited by samples that went over their budget: none when every
    sample is solved, all of it when none is, in between when some are."""
    deal = _medium_deal()
    made: list[Solver] = []

    class Recorded(Solver):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]
            made.append(self)

    monkeypatch.setattr(pimc, "Solver", Recorded)
    free = bid_advice(deal.rules, deal, 1, 30, seed="b")
    assert free.positions == made[-1].nodes > 0 and free.unsolved_positions == 0
    none = bid_advice(deal.rules, deal, 1, 30, seed="b", budget=1)
    assert none.solved == 0 and none.drawn == pimc.GIVE_UP_AFTER
    assert none.unsolved_positions == none.positions == made[-1].nodes > 0
    # a budget between the samples' costs: their mean when every one is solved
    cut = free.positions // free.drawn
    some = bid_advice(deal.rules, deal, 1, 30, seed="b", budget=cut)
    assert 0 < some.solved < some.drawn
    assert 0 < some.unsolved_positions < some.positions == made[-1].nodes


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "advice (search budget spent after 7 samples, 5 solved): best bid 0 (expected +3.0), "
           "bid 1 expected -4.0"),
    ("ru", "совет (лимит поиска исчерпан на 7 выборках, решено 5): лучший заказ 0 (в среднем +3,0), "
           "заказ 1: в среднем −4,0"),
])
def test_an_advice_stopped_by_its_budget_says_so(lang: str, words: str) -> None:
    from raspis_cli.analyze.findings import PlayerDeal
    from raspis_cli.analyze.words import advice_words

    advice = BidAdvice({0: 3.0, 1: -4.0}, 100, 5, drawn=7, budget_spent=True)
    line = advice_words(PlayerDeal("Анна", 1, 1, None, advice=advice), lang)
    assert line is not None and line.startswith(words)
    shown = PlayerDeal("Анна", 1, 1, None, advice=advice).to_json()["advice"]
    assert isinstance(shown, dict) and shown["budget_spent"] is True
