"""``raspis simulate`` for club histories: per-player skill, a pool of names,
tables of several sizes, dates in order."""

from __future__ import annotations

import datetime
import json
import random
from typing import Any

import pytest

from raspis_cli.bots.heuristic import misjudged
from raspis_cli.rules import Rules
from raspis_cli.simulate.club import ClubPlan, parse_skill
from raspis_cli.simulate.run import simulate_games
from tests.clikit import run_cli

POOL = "Анна,Boris,Вера,Дмитрий,Ольга"


def _club(*more: str) -> list[dict[str, Any]]:
    done = run_cli("simulate", "-p", "4", "--players-pool", POOL, "--table-sizes", "3,4",
                   "--date-range", "2025-01-01..2025-12-31", "-n", "12", "--seed", "5", "--detail", "sheet",
                   "-f", "jsonl", *more)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


@pytest.mark.slow
def test_a_club_history_has_absentees_table_sizes_and_dates_in_order() -> None:
    games = _club()
    dates = [g["tags"]["Date"] for g in games]
    assert dates == sorted(dates) and dates[0] == "2025-01-01" and dates[-1] == "2025-12-31"
    sizes = {len(g["players"]) for g in games}
    assert sizes == {3, 4}
    names = [n for g in games for n in g["players"]]
    assert set(names) == set(POOL.split(","))
    assert all(len(set(g["players"])) == len(g["players"]) for g in games)
    # every game is valid
    done = run_cli("simulate", "-p", "4", "--players-pool", POOL, "--table-sizes", "3,4", "-n", "6",
                   "--seed", "5", "--skill", "Анна=0.3..0.9", "-o", "-")
    checked = run_cli("validate", "-q", "-", stdin=done.stdout)
    assert checked.returncode == 0, checked.stdout


def test_skill_changes_nothing_at_one_and_costs_points_below() -> None:
    rules = Rules.preset("raspisnoy")
    plain = list(simulate_games(rules, 4, 3, 9, detail="scores"))
    assert list(simulate_games(rules, 4, 3, 9, detail="scores", skill={"Анна": 1.0})) == plain
    totals = {"Анна": 0, "Boris": 0}
    for game in simulate_games(rules, 4, 30, 9, detail="scores", skill={"Анна": 0.3}):
        assert game.totals is not None
        for name in totals:
            totals[name] += game.totals[name]
    assert totals["Анна"] < totals["Boris"] - 30 * 40
    rng = random.Random(1)
    assert misjudged(3.0, 1.0, rng) == 3.0
    assert {abs(misjudged(3.0, 0.0, rng) - 3.0) for _ in range(50)} <= {1.0, 1.5, 2.0}


@pytest.mark.slow
def test_skill_and_plan_errors() -> None:
    assert parse_skill(["Анна=0.8", "Boris=0.6..0.9", "a=b=1"]) == {"Анна": (0.8, 0.8), "Boris": (0.6, 0.9),
                                                                    "a=b": (1.0, 1.0)}
    for bad in (["Анна"], ["Анна=1.5"], ["=0.5"], ["Анна=x"]):
        done = run_cli("simulate", "-p", "4", "-n", "1", "--skill", bad[0])
        assert done.returncode == 2 and "--skill" in done.stderr, bad
    done = run_cli("simulate", "-p", "4", "-n", "1", "--skill", "Анна=0.5..0.9")
    assert done.returncode == 2 and "club history" in done.stderr
    done = run_cli("simulate", "-p", "4", "-n", "1", "--players-pool", "A,B,C", "--table-sizes", "4")
    assert done.returncode == 2 and "at least 4 names" in done.stderr
    done = run_cli("simulate", "-p", "4", "-n", "1", "--date-range", "2025-12-01..2025-01-01")
    assert done.returncode == 2 and "before it starts" in done.stderr
    plan = ClubPlan(("a", "b", "c"), (3,), datetime.date(2025, 1, 1), datetime.date(2025, 1, 1), 1)
    game = plan.game(Rules.preset("raspisnoy"), 1, 0, "sheet")
    assert game.tags["Date"] == "2025-01-01" and sorted(game.players) == ["a", "b", "c"]
