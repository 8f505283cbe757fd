"""`raspis explain`: cell formulas, the fewest corrections of a disputed sheet, settling up."""

from __future__ import annotations

from decimal import Decimal
from itertools import chain, combinations
from typing import get_args

import pytest
from hypothesis import given
from hypothesis import strategies as st

from raspis_cli.engine import bid_score
from raspis_cli.engine.scoring import (
    ScoreFactor,
    ScoreName,
    ScoreTerm,
    is_flat,
    score_factors,
    score_terms,
    term_value,
)
from raspis_cli.explain.reasons import term_word
from raspis_cli.explain.settle import balances, settle
from raspis_cli.rules import KINDS, PRESETS, Rules
from raspis_cli.rules.values import DEAL_KINDS, SCORE_EXTRAS, DealKind, values_of
from raspis_cli.text.i18n import speaking
from tests.clikit import check_golden, run_cli

CASES = "tests/data/explain-cases.rsp"
DISPUTE = "samples/raspisnoy-sheet-dispute.rsp"


def test_explain_finds_the_fewest_corrections_in_every_case() -> None:
    # consistent; a score cell; a taken; a bid; a total; a score carried into the totals; two mistakes
    result = run_cli("explain", CASES)
    assert result.returncode == 1, result.stderr
    check_golden("explain-cases.txt", result.stdout)
    assert ("deal 17 Boris: score written +25, should be +5 (0/0 → pass_made = +5); the running "
            "totals after it already assume +5: only the score cell is wrong") in result.stdout
    assert "deal 9 Вера: taken written 3, should be 4" in result.stdout
    assert "deal 11 Анна: bid written 4, should be 5" in result.stdout
    assert "deal 5 Анна: total written 10, should be 0; the totals after it are right" in result.stdout


@pytest.mark.slow
def test_explain_cells_of_a_deal_and_a_player() -> None:
    deal = run_cli("explain", DISPUTE, "--deal", "17")
    assert deal.returncode == 1  # Boris's written score differs
    check_golden("explain-deal17.txt", deal.stdout)
    cell = run_cli("explain", DISPUTE, "--deal", "21", "--player", "Вера")
    assert cell.returncode == 0
    assert cell.stdout == ("deal 21 Вера: -/0 → miser_zero = +100; written +100; total 250 + 100 = 350; "
                           "written 350\n")
    player = run_cli("explain", DISPUTE, "--player", "Boris")
    assert len(player.stdout.splitlines()) == 28
    assert player.returncode == 1
    wrong = run_cli("explain", DISPUTE, "--player", "Borys")
    assert wrong.returncode == 2 and "did you mean Boris?" in wrong.stderr  # a usage error


def test_explain_settles_up_in_the_fewest_payments() -> None:
    result = run_cli("explain", DISPUTE, "--stake", "0.1")
    check_golden("explain-stake.txt", result.stdout)
    assert result.stdout.rstrip().endswith("3 payments")
    bad = run_cli("explain", DISPUTE, "--stake", "ten")
    assert bad.returncode == 2 and "not an amount of money" in bad.stderr


def test_formula_of_a_doubled_special_deal() -> None:
    rules = Rules.preset("classic")
    from raspis_cli.explain.reasons import score_formula

    assert score_formula(rules, "miser", None, 2) == \
        "-/2 → (miser_per_trick -10 × 2) × special_multiplier 2 = -40"
    assert score_formula(rules, "normal", 3, 1) == "3/1 → under_per_missing -10 × 2 = -20"
    georgian = Rules.preset("georgian")
    assert score_formula(georgian, "normal", 3, 3) == "3/3 → exact_per_trick 50 × 3 + exact_bonus +50 = +200"


@given(st.sampled_from(PRESETS), st.sampled_from(sorted(KINDS)), st.integers(0, 12), st.integers(0, 12))
def test_score_terms_add_up_to_the_score(preset: str, kind: DealKind, bid: int, taken: int) -> None:
    rules = Rules.preset(preset)
    terms = score_terms(rules, kind, bid, taken, 12)
    factor = 1
    for _name, times in score_factors(rules, kind, bid, taken, 12):
        factor *= times
    assert sum(term_value(rules, name) * times for name, times in terms) * factor \
        == bid_score(rules, kind, bid, taken, 12)


def _every_score_rule() -> tuple[list[tuple[ScoreTerm, int]], list[tuple[ScoreFactor, int]]]:
    """Every term score_terms gives and every factor score_factors gives,
    with its count, over every kind, every set of score_extras and every bid
    and taken of deals of 1 to 5 cards (classic: a multiplier of 2)."""
    terms: list[tuple[ScoreTerm, int]] = []
    factors: list[tuple[ScoreFactor, int]] = []
    for extras in chain.from_iterable(combinations(SCORE_EXTRAS, n) for n in range(len(SCORE_EXTRAS) + 1)):
        rules = Rules.preset("classic").with_options({"score_extras": ",".join(extras)})
        for kind in DEAL_KINDS:
            for cards in range(1, 6):
                for bid in range(cards + 1):
                    for taken in range(cards + 1):
                        terms += score_terms(rules, kind, bid, taken, cards)
                        factors += score_factors(rules, kind, bid, taken, cards)
    return terms, factors


def test_every_score_name_has_its_word() -> None:
    """Each name a formula can show, drawn from the closed types: English
    shows the option's name, Russian a word of the catalogue; scoring gives
    each and nothing else; a flat term is counted once."""
    names: tuple[ScoreName, ...] = get_args(ScoreTerm) + get_args(ScoreFactor)
    assert names == values_of(ScoreName)
    with speaking("en"):
        assert [term_word(n) for n in names] == list(names)
    with speaking("ru"):
        russian = {n: term_word(n) for n in names}
    assert all(word and word != name for name, word in russian.items()), russian
    assert russian["miser-sweep"] == "мизер, взяты все"
    terms, factors = _every_score_rule()
    assert {name for name, _count in terms} == set(get_args(ScoreTerm))
    assert {name for name, _count in factors} == set(get_args(ScoreFactor))
    assert all(count == 1 for name, count in terms if is_flat(name))


def test_settlement_worked_example() -> None:
    # totals 120, 60, -30, -30: mean 30; at 0.5 a point: +45, +15, -30, -30
    totals = {"Анна": 120, "Борис": 60, "Вера": -30, "Дима": -30}
    assert balances(totals, Decimal("0.5")) == {"Анна": Decimal("45.00"), "Борис": Decimal("15.00"),
                                                 "Вера": Decimal("-30.00"), "Дима": Decimal("-30.00")}
    # two zero-sum pairs settle in two payments, not three
    pairs = {"Анна": 100, "Борис": -100, "Вера": 50, "Дима": -50}
    assert sorted(settle(pairs, Decimal(1))) == [("Борис", "Анна", Decimal("100.00")),
                                                 ("Дима", "Вера", Decimal("50.00"))]


@given(st.lists(st.integers(-500, 500), min_size=2, max_size=6),
       st.sampled_from(["0.1", "0.25", "1", "0.03"]))
def test_settlement_balances_and_pays_everything(totals: list[int], stake: str) -> None:
    names = [f"p{i}" for i in range(len(totals))]
    table = dict(zip(names, totals, strict=True))
    owed = balances(table, Decimal(stake))
    assert sum(owed.values()) == 0
    payments = settle(table, Decimal(stake))
    left = dict(owed)
    for payer, payee, amount in payments:
        assert amount > 0
        left[payer] += amount
        left[payee] -= amount
    assert all(v == 0 for v in left.values())
    assert len(payments) <= max(0, sum(1 for v in owed.values() if v) - 1)


@pytest.mark.parametrize("args", [["--game", "9"], ["--deal", "99"]])
def test_explain_refuses_what_is_not_there(args: list[str]) -> None:
    result = run_cli("explain", DISPUTE, *args)
    assert result.returncode in (1, 2)
    assert "Traceback" not in result.stderr and result.stderr.strip()


def test_two_separate_mistakes_are_corrected_one_by_one() -> None:
    result = run_cli("explain", CASES, "--game", "7")
    assert "2 separate mistakes, each corrected on its own: (a) deal 9 Вера: taken written 3" in result.stdout
    assert "(b) deal 17 Boris: score written +25, should be +5" in result.stdout
    assert result.stdout.rstrip().endswith("[2 corrections]")
