"""Schedules of deals (RULES.md §4): counts, sequences and the checks."""

from __future__ import annotations

import pytest

from raspis_cli.rules import Rules
from raspis_cli.rules.schedule import ScheduledDeal, schedule_for
from raspis_cli.rules.values import DealKind

SPECIALS: tuple[DealKind, ...] = ("no-trump", "dark", "miser", "golden")


def _sequence(preset: str, players: int, **options: object) -> list[tuple[int, str]]:
    """The (cards, kind) listing of a preset's schedule."""
    rules = Rules.preset(preset).with_options(options)
    return [(d.cards, d.kind) for d in schedule_for(rules, players).listing]


@pytest.mark.parametrize(("players", "deals"), [(3, 26), (4, 28), (5, 31)])
def test_raspisnoy_deal_counts(players: int, deals: int) -> None:
    assert len(_sequence("raspisnoy", players)) == deals


@pytest.mark.parametrize("players", [3, 4, 5])
def test_raspisnoy_sequence(players: int) -> None:
    m = 36 // players
    expected = [(c, "normal") for c in range(1, m + 1)]
    expected += [(m, "normal")] * (players - 1)
    for kind in SPECIALS:
        expected += [(m, kind)] * players
    assert _sequence("raspisnoy", players) == expected


@pytest.mark.parametrize("players", [3, 4, 5])
def test_ladder_down_adds_m_minus_1_before_the_specials(players: int) -> None:
    m = 36 // players
    plain = _sequence("raspisnoy", players)
    ladder = _sequence("raspisnoy", players, ladder_down=True)
    assert len(ladder) == len(plain) + m - 1
    top = m + players - 1  # the ladder up and the max deals
    assert ladder[:top] == plain[:top]
    assert ladder[top:top + m - 1] == [(c, "normal") for c in range(m - 1, 0, -1)]
    assert ladder[top + m - 1:] == plain[top:]


def test_georgian_24_deals_for_4() -> None:
    seq = _sequence("georgian", 4)
    assert len(seq) == 24
    expected = ([(c, "normal") for c in range(1, 9)] + [(9, "normal")] * 4
                + [(c, "normal") for c in range(8, 0, -1)] + [(9, "normal")] * 4)
    assert seq == expected


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_joker54_13_deals_for_any_allowed_count(players: int) -> None:
    seq = _sequence("joker54", players)
    assert len(seq) == 13
    assert [c for c, _ in seq] == [2, 3, 4, 5, 6, 7, 8, 7, 6, 5, 4, 3, 2]


def test_joker54_for_3_players() -> None:
    assert len(_sequence("joker54", 3)) == 13


def test_classic_for_4_players() -> None:
    # 8 + 4 + 8, then classic's five specials (forehead included) x 4 in the listing;
    # 001's "36 конов" (four specials x 4) fits as well: the tail's length is the table's choice
    schedule = schedule_for(Rules.preset("classic"), 4)
    assert len(schedule.fixed) == 20
    assert len(schedule.listing) == 40
    assert schedule.missing(36) is None and schedule.problem(35, 9, "golden") is None
    assert [d.cards for d in schedule.fixed] == (list(range(1, 9)) + [9] * 4
                                                 + list(range(8, 0, -1)))
    assert schedule.tail_kinds == (*SPECIALS, "forehead")
    assert schedule.tail_cards == 9


def test_numbers_are_consecutive_and_to_json() -> None:
    listing = schedule_for(Rules(), 3).listing
    assert [d.number for d in listing] == list(range(1, 27))
    assert listing[0].to_json() == {"number": 1, "cards": 1, "kind": "normal"}
    assert listing[-1] == ScheduledDeal(26, 12, "golden")


def test_specials_option_changes_the_tail() -> None:
    seq = _sequence("raspisnoy", 3, specials="forehead")
    assert seq[14:] == [(12, "forehead")] * 3
    assert len(seq) == 17
    assert len(_sequence("raspisnoy", 3, specials="")) == 14


def test_problem_fixed_schedule() -> None:
    schedule = schedule_for(Rules(), 3)
    assert schedule.problem(0, 1, "normal") is None
    assert schedule.problem(0, 2, "normal") is not None
    assert schedule.problem(14, 12, "no-trump") is None
    assert schedule.problem(14, 12, "dark") is not None
    over = schedule.problem(26, 12, "golden")
    assert over is not None and "26 deals" in over.english()
    assert schedule.missing(26) is None
    missing = schedule.missing(25)
    assert missing is not None and "after 25" in missing.english()


def test_problem_classic_tail_takes_any_special_in_any_number() -> None:
    schedule = schedule_for(Rules.preset("classic"), 4)
    assert schedule.problem(19, 1, "normal") is None
    for index in range(20, 60):
        assert schedule.problem(index, 9, SPECIALS[index % 4]) is None
    assert schedule.problem(20, 9, "normal") is not None
    assert schedule.problem(20, 8, "miser") is not None
    assert schedule.problem(25, 9, "forehead") is None  # classic's specials include forehead
    assert schedule_for(Rules.preset("classic").with_options({"specials": "miser"}),
                        4).problem(25, 9, "forehead") is not None
    assert schedule.missing(20) is None
    assert schedule.missing(19) is not None


def test_free_schedule_checks_only_the_card_count() -> None:
    schedule = schedule_for(Rules().with_options({"schedule": "free"}), 4)
    assert schedule.free and schedule.listing == ()
    assert schedule.problem(0, 9, "miser") is None
    assert schedule.problem(100, 1, "forehead") is None
    assert schedule.problem(0, 10, "normal") is not None
    assert schedule.problem(0, 0, "normal") is not None
    assert schedule.missing(0) is None
