"""``raspis stats``: every report checked against numbers worked out by hand
from the games of storekit.py (see their docstrings for the deals).

Over the three valid games (``--valid-only``):

- Анна: games 1, 2, 3, totals 125, -105, -10 (mean 3.33), one win; 8 scored
  deals worth 10 in all (1.25 a deal). Boris: -23, -90, 10, one win. Vera:
  games 1 and 2, -15 and 51 (mean 18), one win; 7 deals worth 36 (5.14).
- Bids (normal and dark deals): Анна 6 bids, 4 exact, 2 under; Boris 6 bids,
  4 exact, 1 under, 1 over; Vera 5 bids, 3 exact, 1 under, 1 over.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from raspis_cli.store import RecordSource, Scope, load_units, report_rows
from raspis_cli.store.schema import REPORTS
from raspis_cli.store.stats import REPORT_NAMES
from tests.storekit import hand_games, run, run_json


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("stats") / "hand.duckdb"
    con = duckdb.connect(str(path))
    load_units(con, [RecordSource("hand", hand_games())])
    con.close()
    return path


def _stats(capsys: pytest.CaptureFixture[str], db: Path, report: str, *more: str) -> list[dict[str, object]]:
    rows = run_json(capsys, "stats", "--db", str(db), "--report", report, "--format", "json", *more)
    assert isinstance(rows, list)
    return rows


def _stats4(capsys: pytest.CaptureFixture[str], db: Path, report: str, *more: str) -> list[dict[str, object]]:
    """The rows with fractions rounded to 4 places (JSON keeps every digit)."""
    return [{k: round(v, 4) if isinstance(v, float) else v for k, v in row.items()}
            for row in _stats(capsys, db, report, *more)]


def _by(rows: list[dict[str, object]], *keys: str) -> dict[object, dict[str, object]]:
    return {tuple(r[k] for k in keys) if len(keys) > 1 else r[keys[0]]: r for r in rows}


def test_leaderboard(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # like with like: one row per rules, table size and player
    rows = _by(_stats(capsys, db, "leaderboard", "--valid-only"), "rules", "players", "player")
    assert set(rows) == {("raspisnoy", 3, "Анна"), ("raspisnoy", 3, "Boris"), ("raspisnoy", 3, "Vera"),
                         ("classic", 2, "Анна"), ("classic", 2, "Boris")}
    # Анна at the three-player raspisnoy table: 125 and -105, one win, 7 deals worth 20;
    # the table's deals average (20 + 36 - 113) / 21 = -2.714 a player, so she is 5.571 above it
    assert rows[("raspisnoy", 3, "Анна")] == pytest.approx(
        {"rules": "raspisnoy", "players": 3, "player": "Анна", "games": 2, "wins": 1, "win_rate": 0.5,
         "mean_total": 10.0, "deals": 7, "mean_per_deal": 20 / 7, "relative_per_deal": 20 / 7 + 57 / 21})
    vera = rows[("raspisnoy", 3, "Vera")]
    assert (vera["games"], vera["deals"]) == (2, 7)
    assert vera["mean_total"] == 18.0 and vera["mean_per_deal"] == pytest.approx(36 / 7)
    assert rows[("raspisnoy", 3, "Boris")]["mean_total"] == -56.5
    assert rows[("classic", 2, "Boris")]["wins"] == 1 and rows[("classic", 2, "Анна")]["mean_total"] == -10
    # full precision in JSON (a table rounds for people)
    assert rows[("raspisnoy", 3, "Анна")]["mean_per_deal"] == 20 / 7
    # the invalid game counts unless --valid-only: Vera won it (10 to 5, 5)
    everything = _by(_stats(capsys, db, "leaderboard"), "rules", "players", "player")
    assert everything[("raspisnoy", 3, "Vera")]["games"] == 3
    assert everything[("raspisnoy", 3, "Vera")]["wins"] == 2


def test_bid_accuracy(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = _by(_stats4(capsys, db, "bid_accuracy", "--valid-only"), "player")
    assert rows["Анна"] == {"player": "Анна", "bids": 6, "exact_rate": 0.6667, "under_rate": 0.3333,
                            "over_rate": 0.0, "mean_bid": 0.8333, "mean_taken": 0.5}
    boris = rows["Boris"]
    assert (boris["bids"], boris["under_rate"], boris["over_rate"]) == (6, 0.1667, 0.1667)
    assert (rows["Vera"]["bids"], rows["Vera"]["exact_rate"]) == (5, 0.6)


def test_bid_accuracy_by_cards_and_seat(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cards = _by(_stats4(capsys, db, "bid_accuracy_by_cards", "--valid-only"), "players", "cards")
    # per table size: 1 card at three players E E U | E O E, at two (game 3) U E;
    # 2 cards (three players only): O E E | E U E | U E E
    assert set(cards) == {(2, 1), (3, 1), (3, 2)}
    assert cards[(3, 1)] == {"players": 3, "cards": 1, "bids": 6, "exact_rate": 0.6667, "under_rate": 0.1667,
                             "over_rate": 0.1667}
    assert cards[(2, 1)] == {"players": 2, "cards": 1, "bids": 2, "exact_rate": 0.5, "under_rate": 0.5,
                             "over_rate": 0.0}
    assert cards[(3, 2)] == {"players": 3, "cards": 2, "bids": 9, "exact_rate": 0.6667, "under_rate": 0.2222,
                             "over_rate": 0.1111}
    seats = _by(_stats4(capsys, db, "bid_accuracy_by_seat", "--valid-only"), "players", "bid_position")
    assert seats[(3, 1)]["bids"] == 5 and seats[(3, 1)]["exact_rate"] == 0.6
    assert seats[(3, 3)]["exact_rate"] == 0.8 and seats[(3, 3)]["under_rate"] == 0.2  # the dealer
    assert seats[(2, 1)]["under_rate"] == 1.0 and seats[(2, 2)]["exact_rate"] == 1.0


def test_passes_and_the_dealer(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    passes = _by(_stats4(capsys, db, "pass_success", "--valid-only"), "player")
    assert (passes["Анна"]["passes"], passes["Анна"]["made"]) == (2, 2)
    assert (passes["Boris"]["passes"], passes["Boris"]["made"]) == (3, 3)
    assert (passes["Vera"]["passes"], passes["Vera"]["made"], passes["Vera"]["made_rate"]) == (2, 1, 0.5)
    dealer = _by(_stats4(capsys, db, "dealer_record", "--valid-only"), "player")
    assert dealer["Vera"]["bids"] == 3 and dealer["Vera"]["exact_rate"] == 0.6667
    assert dealer["Vera"]["restricted"] == 3 and dealer["Vera"]["dealer_restriction"] == "sum"
    assert dealer["Анна"]["bids"] == 2 and dealer["Boris"]["bids"] == 1


def test_deal_kinds_and_jokers(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    kinds = _by(_stats4(capsys, db, "deal_kinds", "--valid-only"), "kind")
    assert kinds["miser"] == {"kind": "miser", "player_deals": 3, "mean_score": 20.0, "mean_taken": 0.6667,
                              "zero_rate": 0.3333, "exact_rate": None}
    assert kinds["golden"]["mean_taken"] == 0.6667 and kinds["golden"]["mean_score"] == -53.3333
    assert kinds["dark"]["exact_rate"] == 0.6667 and kinds["dark"]["mean_score"] == 3.3333
    assert kinds["normal"]["player_deals"] == 14
    jokers = _stats4(capsys, db, "joker_outcomes")
    assert jokers == [{"joker_mode": "high", "played_as": "lead", "plays": 1, "won": 1, "won_rate": 1.0}]


def test_head_to_head(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = _by(_stats4(capsys, db, "head_to_head", "--valid-only", "--player", "Анна"), "opponent")
    # with Boris: 125 v -23, -105 v -90, -10 v 10
    assert rows["Boris"] == {"player": "Анна", "opponent": "Boris", "games": 3, "ahead": 1, "behind": 2,
                             "level": 0, "mean_margin": 37.6667}
    assert set(rows) == {"Boris", "Vera"}
    # without --player each pair once (the names in order: Latin before Cyrillic)
    pairs = _by(_stats4(capsys, db, "head_to_head", "--valid-only"), "player", "opponent")
    assert set(pairs) == {("Boris", "Vera"), ("Boris", "Анна"), ("Vera", "Анна")}
    assert pairs[("Boris", "Анна")] == {"player": "Boris", "opponent": "Анна", "games": 3, "ahead": 2,
                                        "behind": 1, "level": 0, "mean_margin": -37.6667}
    assert pairs[("Vera", "Анна")]["mean_margin"] == 8.0  # -15 v 125, 51 v -105
    # a player whose name sorts last still sees every opponent
    vera = _by(_stats4(capsys, db, "head_to_head", "--valid-only", "--player", "Vera"), "opponent")
    assert vera["Boris"] == {"player": "Vera", "opponent": "Boris", "games": 2, "ahead": 2, "behind": 0,
                             "level": 0, "mean_margin": 74.5}


def test_filters(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    classic = _stats(capsys, db, "leaderboard", "--rules", "classic")
    assert {r["player"]: r["wins"] for r in classic} == {"Boris": 1, "Анна": 0}
    since = _by(_stats(capsys, db, "leaderboard", "--since", "2026-01-01", "--until", "2026-02-28"),
                "player")
    assert since["Анна"]["games"] == 2 and since["Vera"]["wins"] == 1
    vera = _stats(capsys, db, "leaderboard", "--player", "Vera", "--valid-only")
    assert [r["player"] for r in vera] == ["Vera"] and vera[0]["games"] == 2
    assert _stats(capsys, db, "leaderboard", "--since", "2030-01-01") == []


def test_every_report_is_a_view_in_the_database(db: Path) -> None:
    con = duckdb.connect(str(db), read_only=True)
    try:
        views = {r[0] for r in con.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_type = 'VIEW'").fetchall()}
        assert set(REPORTS) <= views
        for name in REPORTS:
            assert report_rows(con, name) == report_rows(con, name, Scope(valid_only=False, rules=None))
        # a narrowed report is the view's own SQL over fewer rows
        boris = report_rows(con, "leaderboard", Scope(player="Boris"))
        assert [(r["rules"], r["players"]) for r in boris] == [("classic", 2), ("raspisnoy", 3)]
    finally:
        con.close()


def test_all_reports_and_formats(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    everything = run_json(capsys, "stats", "--db", str(db), "--format", "json")
    assert isinstance(everything, dict) and list(everything) == list(REPORT_NAMES)
    # a table without --report: the overview, ratings first, and the names of the others
    code, out, _ = run(capsys, "stats", "--db", str(db))
    assert code == 0 and out.startswith("Ratings (") and "\nLeaderboard by rules" in out
    assert "Head to head" not in out and "Bid accuracy" not in out
    assert out.rstrip().splitlines()[-1] == (
        "More reports: raspis stats --report NAME, with NAME one of bid_accuracy, bid_accuracy_by_cards, "
        "bid_accuracy_by_seat, pass_success, dealer_record, deal_kinds, joker_outcomes, head_to_head")
    code, out, _ = run(capsys, "stats", "--db", str(db), "--report", "head_to_head")
    assert code == 0 and out.startswith("Head to head") and "More reports" not in out
    code, out, _ = run(capsys, "stats", "--db", str(db), "--report", "pass_success", "--format", "csv")
    assert code == 0 and out.splitlines()[0] == "player,passes,made,made_rate"
    code, _, err = run(capsys, "stats", "--db", str(db), "--format", "csv")
    assert code == 2 and "--report" in err
    code, _, err = run(capsys, "stats", "--db", str(db), "--since", "yesterday")
    assert code == 2 and "date" in err
    code, _, err = run(capsys, "stats", "--db", str(db), "--rules", "hearts")
    assert code == 2 and "unknown preset" in err
