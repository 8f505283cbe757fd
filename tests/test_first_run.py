"""What a newcomer meets on a first evening: the next step after a disputed
sheet, a chart that says why it is not drawn, one way of reading a player's
name, usage errors that say so, and leaderboards ranked by the fair figure."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pexpect
import pytest

from raspis_cli.cli.charts import line_chart, whole_ticks
from raspis_cli.report.club import both_ways
from raspis_cli.text.suggest import NameMatch, match_name
from tests.clikit import ROOT, run_cli

DISPUTE = "samples/raspisnoy-sheet-dispute.rsp"
PLAYERS = ["Анна", "Boris", "Вера", "Дмитрий"]


# --- one name matcher -------------------------------------------------------------------


@pytest.mark.parametrize(("typed", "meant"), [
    ("Анна", "Анна"), ("анна", "Анна"), ("Anna", "Анна"), ("ANNA", "Анна"), ("boris", "Boris"),
    ("Борис", "Boris"), ("vera", "Вера"), ("Dmitrii", "Дмитрий"), (" Vera ", "Вера"),
])
def test_a_name_in_any_case_and_either_alphabet_is_the_player(typed: str, meant: str) -> None:
    assert match_name(typed, PLAYERS) == NameMatch(meant, ())


def test_a_name_nobody_has_gets_the_closest() -> None:
    assert match_name("Anya", PLAYERS) == NameMatch(None, ("Анна",))
    assert match_name("Zed", PLAYERS) == NameMatch(None, ())


def test_two_players_spelt_alike_are_both_suggested_neither_chosen() -> None:
    assert match_name("anna", ["Anna", "Анна", "Boris"]) == NameMatch(None, ("Anna", "Анна"))
    assert match_name("Anna", ["Anna", "Анна"]) == NameMatch("Anna", ())  # as written wins


@pytest.mark.parametrize("spelling", ["Boris", "boris", "Борис"])
def test_explain_reads_the_name_as_every_command_does(spelling: str) -> None:
    done = run_cli("explain", DISPUTE, "--deal", "17", "--player", spelling)
    assert done.stdout.startswith("deal 17 Boris: 0/0 → pass_made = +5; written +25 ✗")
    assert done.returncode == 1  # the sheet differs


def test_explain_usage_errors_exit_2_with_the_closest_name() -> None:
    done = run_cli("explain", DISPUTE, "--player", "Bориc")  # mixed letters, one of them wrong
    assert done.returncode == 2
    assert done.stderr == ("raspis: error: --player: 'Bориc' is not a player of game 1; "
                           "did you mean Boris?\n")
    done = run_cli("explain", DISPUTE, "--player", "Zed")
    assert done.returncode == 2 and "the players are Анна, Boris, Вера, Дмитрий" in done.stderr
    done = run_cli("explain", DISPUTE, "--deal", "99")
    assert done.returncode == 2 and "game 1 has no deal 99" in done.stderr


def test_new_and_rules_schedule_read_the_dealer_so_too() -> None:
    sheet = run_cli("new", "--players", "Анна, Boris, Вера", "--dealer", "vera", "--date", "")
    assert sheet.returncode == 0
    assert re.search(r"^1\. +1 +Вера ", sheet.stdout, re.MULTILINE)
    wrong = run_cli("new", "--players", "Анна, Boris, Вера", "--dealer", "Vira")
    assert wrong.returncode == 2
    assert wrong.stderr == "raspis: error: --dealer: 'Vira' is not one of the players; did you mean Вера?\n"
    schedule = run_cli("rules", "schedule", "raspisnoy", "--players", "Анна, Boris, Вера", "--dealer", "ANNA",
                       "-f", "jsonl")
    assert json.loads(schedule.stdout.splitlines()[0])["dealer"] == "Анна"


@pytest.mark.slow
def test_analyze_reads_the_name_so_too() -> None:
    done = run_cli("analyze", "samples/raspisnoy-full-3p.rsp", "--deal", "3", "--player", "vera",
                   "--samples", "2", "--seed", "1")
    assert done.returncode == 0 and "  Вера  bid 1, took 2" in done.stdout and "Boris" not in done.stdout
    assert run_cli("analyze", "samples/raspisnoy-full-3p.rsp", "--player", "Gena").returncode == 2


# --- score: the next step, the chart ----------------------------------------------------------


def test_a_sheet_with_a_violation_names_explain_for_this_file() -> None:
    # the line after the standings (the sheet's comments follow it)
    done = run_cli("score", DISPUTE)
    lines = done.stdout.splitlines()
    assert lines[lines.index("winner: Boris") + 1] == (
        "1 violation; to correct it: raspis explain samples/raspisnoy-sheet-dispute.rsp")
    ru = run_cli("score", DISPUTE, "--lang", "ru").stdout.splitlines()
    assert ru[ru.index("победитель: Boris") + 1] == (
        "1 нарушение; что исправить — raspis explain samples/raspisnoy-sheet-dispute.rsp")


def test_the_hint_quotes_a_path_and_names_the_game(tmp_path: Path) -> None:
    path = tmp_path / "friday night.rsp"
    text = (ROOT / "samples" / "classic.rsp").read_text(encoding="utf-8")
    dispute = (ROOT / DISPUTE).read_text(encoding="utf-8")
    path.write_text(text + "\n" + dispute, encoding="utf-8")
    done = run_cli("score", str(path))
    assert f"1 violation; to correct it: raspis explain '{path}' --game 2" in done.stdout


def test_chart_without_a_terminal_says_so_in_one_line() -> None:
    plain = run_cli("score", DISPUTE)
    charted = run_cli("score", DISPUTE, "--chart")
    assert charted.stdout == plain.stdout  # the table stays clean for whoever reads it
    assert charted.stderr == ("raspis: --chart draws on a terminal only; standard output is not one, "
                              "so no chart is drawn\n")
    ratings = run_cli("stats", "--db", "/nonexistent/x.duckdb", "--chart")
    assert "--chart" not in ratings.stderr  # an error comes first, not the note


@pytest.mark.parametrize(("low", "high", "most", "ticks"), [
    (1, 28, 8, [5, 10, 15, 20, 25]), (1, 14, 10, [2, 4, 6, 8, 10, 12, 14]), (1, 1, 5, [1]),
    (-149, 128, 6, [-100, -50, 0, 50, 100]), (0.4, 3.6, 10, [0, 1, 2, 3, 4]),
])
def test_whole_ticks(low: float, high: float, most: int, ticks: list[int]) -> None:
    assert whole_ticks(low, high, most) == ticks


def _tick_labels(chart: str) -> list[str]:
    plain = re.sub(r"\x1b\[[0-9;]*m", "", chart)
    return plain.rstrip().splitlines()[-1].split()


def test_a_chart_of_deals_is_labelled_in_whole_deals() -> None:
    series = {"Анна": ([float(x) for x in range(1, 15)], [float(3 * x) for x in range(1, 15)])}
    assert any("." in label for label in _tick_labels(line_chart(series, "t", 80, 20, colour=False)))
    labels = _tick_labels(line_chart(series, "t", 80, 20, colour=False, whole_x=True, whole_y=True))
    assert labels and all(re.fullmatch(r"-?\d+", label) for label in labels)


def test_the_chart_on_a_terminal_has_whole_deal_numbers() -> None:
    child = pexpect.spawn(sys.executable, ["-m", "raspis_cli", "score", DISPUTE, "--chart"], cwd=str(ROOT),
                          env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "NO_COLOR": "1",
                               "RASPIS_NO_JIT": "1"},
                          encoding="utf-8", dimensions=(40, 130), timeout=60)
    child.expect(pexpect.EOF)
    screen = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", child.before or "")
    chart = screen[screen.index("Running totals"):]
    axis = [line for line in chart.splitlines() if line.strip()][-2]  # the deal numbers under the frame
    assert axis.split() and all(re.fullmatch(r"\d+", label) for label in axis.split()), axis
    assert "deal" in chart


# --- stats: the overview, fair rankings --------------------------------------------------------


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = tmp_path_factory.mktemp("club")
    records, db = folder / "club.rsp", str(folder / "club.duckdb")
    made = run_cli("simulate", "--players-pool", "Анна,Boris,Вера,Дмитрий,Ольга", "--table-sizes", "3,4,5",
                   "--games", "120", "--seed", "1", "--detail", "sheet", "--skill", "Анна=0.95",
                   "-o", str(records))
    assert made.returncode == 0, made.stderr
    assert run_cli("load", str(records), "--db", db, "-q").returncode == 0
    return db


@pytest.mark.slow
def test_simulate_a_club_needs_no_players_count(tmp_path: Path) -> None:
    args = ["--players-pool", "A,B,C,D", "--table-sizes", "3,4", "--games", "3", "--seed", "2"]
    without = run_cli("simulate", *args)
    assert without.returncode == 0 and without.stdout == run_cli("simulate", "-p", "4", *args).stdout
    refused = run_cli("simulate", "--games", "1")
    assert refused.returncode == 2 and "--players N" in refused.stderr


@pytest.mark.slow
def test_leaderboards_are_ranked_by_relative_per_deal(club: str) -> None:
    rows = json.loads(run_cli("stats", "--db", club, "--report", "leaderboard", "-f", "json").stdout)
    groups: dict[tuple[str, int], list[dict[str, object]]] = {}
    for row in rows:
        groups.setdefault((str(row["rules"]), int(str(row["players"]))), []).append(row)
    by_wins_differs = False
    for members in groups.values():
        relative = [float(str(r["relative_per_deal"])) for r in members]
        assert relative == sorted(relative, reverse=True)
        wins = [int(str(r["wins"])) for r in members]
        by_wins_differs |= wins != sorted(wins, reverse=True)
    assert by_wins_differs, "the club's tables should show a case where the two orders differ"
    table = run_cli("stats", "--db", club, "--report", "leaderboard").stdout
    assert table.startswith("Leaderboard by rules and table size, ranked by relative per deal")


@pytest.mark.slow
def test_head_to_head_once_per_pair_and_the_club_page_sees_both_ways(club: str) -> None:
    rows = json.loads(run_cli("stats", "--db", club, "--report", "head_to_head", "-f", "json").stdout)
    pairs = [frozenset((r["player"], r["opponent"])) for r in rows]
    assert len(pairs) == len(set(pairs)) == 10  # five members, each pair once
    matrix = both_ways(rows)
    assert len(matrix) == 20
    for (a, b), row in matrix.items():
        back = matrix[(b, a)]
        assert (row["games"], row["ahead"], row["behind"]) == (back["games"], back["behind"], back["ahead"])
        assert row["mean_margin"] == pytest.approx(-back["mean_margin"])


@pytest.mark.slow
def test_bid_accuracy_by_cards_is_per_table_size(club: str) -> None:
    done = run_cli("stats", "--db", club, "--report", "bid_accuracy_by_cards", "-f", "json")
    rows = json.loads(done.stdout)
    assert {r["players"] for r in rows} == {3, 4, 5}
    keys = [(r["players"], r["cards"]) for r in rows]
    assert keys == sorted(keys) and len(keys) == len(set(keys))
