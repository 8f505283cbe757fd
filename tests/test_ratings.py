"""Ratings (openskill Plackett–Luce), the filters of every report, tables for
people, Parquet of empty tables, and every report on a database made by an
older raspis."""

from __future__ import annotations

import datetime
import math
import os
import pty
import random
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import duckdb
import pytest

from raspis_cli.store.ratings import (
    BETA,
    START_MU,
    START_SIGMA,
    TAU,
    RatedGame,
    chart_players,
    iter_rated_games,
    rate_games,
    summarise,
    unit_gamma,
)
from raspis_cli.store.stats import REPORT_NAMES
from tests.clikit import ROOT
from tests.storekit import hand_games, run, run_json, write_json

OLD_DB = ROOT / "tests" / "data" / "old_db" / "main-405c53a"


def _game(n: int, players: str, places: tuple[int, ...], pool: str = "p") -> RatedGame:
    return RatedGame(f"g{n}", datetime.date(2026, 1, 1) + datetime.timedelta(days=n - 1), pool,
                     tuple(players), places)


def test_winner_rises_loser_falls_ties_share() -> None:
    steps = list(rate_games([_game(1, "abc", (1, 2, 3))]))
    mu = {s.player: s.mu for s in steps}
    assert mu["a"] > START_MU > mu["c"] and mu["a"] > mu["b"] > mu["c"]
    assert all(s.sigma < s.sigma_before for s in steps)  # every game makes a rating surer
    # equal totals share a place: equal players sharing it move alike
    tied = {s.player: s.mu for s in rate_games([_game(1, "abc", (1, 1, 3))])}
    assert tied["a"] == pytest.approx(tied["b"]) and tied["a"] > START_MU > tied["c"]


def test_a_steady_winner_tops_the_table_and_pools_stay_apart() -> None:
    games = [_game(n, "abcd", (1, 2, 3, 4)) for n in range(1, 21)]
    games += [_game(21, "dc", (1, 2), pool="q")]
    table = summarise(list(rate_games(games)))
    p = [r for r in table if r["pool"] == "p"]
    assert [r["player"] for r in p] == ["a", "b", "c", "d"] and [r["rank"] for r in p] == [1, 2, 3, 4]
    assert p[0]["ordinal"] == pytest.approx(p[0]["rating"] - 3 * p[0]["uncertainty"])
    assert p[0]["games"] == 20 and p[0]["change"] == pytest.approx(p[0]["rating"] - START_MU)
    q = {r["player"]: r for r in table if r["pool"] == "q"}
    assert q["d"]["games"] == 1 and q["d"]["rating"] > START_MU > q["c"]["rating"]
    # the period: only the games from day 11 on count, the change starts there
    late = {r["player"]: r for r in summarise(list(rate_games(games)), datetime.date(2026, 1, 11))
            if r["pool"] == "p"}
    assert late["a"]["games"] == 10 and 0 < late["a"]["change"] < p[0]["change"]
    # a game with one name twice, or one player, says nothing
    assert list(rate_games([_game(1, "aa", (1, 2)), _game(2, "a", (1,))])) == []


def test_one_game_moves_the_ratings_as_documented() -> None:
    # the README's choice: gamma 1, beta = 1.5 sigma (12.5), tau = mu / 250 (0.1); openskill's
    # defaults (gamma sigma / c, beta 4.17, tau 0.083) moved the winner of one game of three to 27.87
    assert (BETA, TAU) == (1.5 * START_SIGMA, START_MU / 250)
    moved = {s.player: (s.mu, s.sigma) for s in rate_games([_game(1, "abc", (1, 2, 3))])}
    assert moved["a"] == pytest.approx((26.7794185, 8.2384027))
    assert moved["b"] == pytest.approx((25.4448546, 8.1295891))
    assert moved["c"] == pytest.approx((22.7757269, 8.1295891))
    defaults = {s.player: s.mu for s in rate_games([_game(1, "abc", (1, 2, 3))], beta=25 / 6, tau=25 / 300,
                                                    gamma=None)}
    assert defaults["a"] == pytest.approx(27.8690487)


def test_gamma_one_keeps_what_the_games_said_and_still_follows_change() -> None:
    # openskill's default gamma (sigma / c) shrinks a sure rating's variance less and less: after
    # 600 games of the same three players its sigma stays high and the rating jumps with each game
    games = [_game(n, "xyz", (1, 2, 3) if n % 3 else (3, 1, 2)) for n in range(1, 601)]
    unit = [s for s in rate_games(games) if s.player == "x"]
    damped = [s for s in rate_games(games, gamma=None) if s.player == "x"]
    assert unit[-1].sigma < 0.6 * damped[-1].sigma
    assert max(abs(s.mu - s.mu_before) for s in unit[-100:]) < 0.7 * max(abs(s.mu - s.mu_before)
                                                                         for s in damped[-100:])
    # and the drift tau is what lets a sure rating follow a player who turns round: x is last in
    # two games of three for 1,000 games (sigma ~2), then first in two of three; within 200 games
    # the rating puts x above y, which with no drift it does not (it needs ~150 games with tau 0.1)
    turned = [_game(n, "xyz", ((3, 1, 2) if n <= 1000 else (1, 2, 3)) if n % 3 else (2, 3, 1))
              for n in range(1, 1201)]
    for tau, passes in ((TAU, True), (0.0, False)):
        final = {s.player: s.mu for s in rate_games(turned, tau=tau)}
        assert (final["x"] > final["y"]) is passes


def test_the_rating_recovers_a_planted_skill_order() -> None:
    # 2,000 games of 3-5 of 8 players whose finishing order is drawn from Plackett-Luce
    # with planted strengths: the final ordinals put them in order (Spearman >= 0.9)
    rng = random.Random(3)
    strength = {f"p{i}": 0.5 - i / 7 for i in range(8)}
    games = []
    for n in range(2000):
        seated = rng.sample(sorted(strength), rng.randint(3, 5))
        left, order = list(seated), []
        while left:
            order.append(rng.choices(left, [math.exp(strength[p]) for p in left])[0])
            left.remove(order[-1])
        games.append(RatedGame(f"g{n}", None, "p", tuple(seated), tuple(order.index(p) + 1 for p in seated)))
    final = {s.player: s.ordinal for s in rate_games(games)}
    by_strength = sorted(strength, key=strength.__getitem__)
    rank = {p: i for i, p in enumerate(sorted(final, key=final.__getitem__))}
    d2 = sum((i - rank[p]) ** 2 for i, p in enumerate(by_strength))
    assert 1 - 6 * d2 / (8 * (64 - 1)) >= 0.9


def test_a_chart_draws_regulars_before_a_one_game_newcomer() -> None:
    ordinal = {"new": 0.0, "weak": -18.5, "a": 16.8, "b": 15.0}
    games = {"new": 1, "weak": 79, "a": 72, "b": 75}
    assert chart_players(ordinal, games, top=3) == ["a", "b", "weak"]
    assert chart_players(ordinal, games) == ["a", "b", "weak", "new"]  # room for everyone


@pytest.mark.parametrize("gamma", [unit_gamma, None], ids=["gamma 1", "openskill's sigma over c"])
def test_the_fast_update_gives_openskills_numbers(gamma: Callable[..., float] | None) -> None:
    # both gammas: raspis's, and openskill's default that the bench's earlier ratings use
    rng = random.Random(5)
    people = "abcdefghij"
    games = []
    for n in range(600):
        size = rng.randint(2, 6)
        games.append(RatedGame(f"g{n}", None, rng.choice("pq"), tuple(rng.sample(people, size)),
                               tuple(rng.randint(1, size) for _ in range(size))))  # ties included
    fast = list(rate_games(games, gamma=gamma))
    slow = list(rate_games(games, reference=True, gamma=gamma))
    assert len(fast) == len(slow) > 2000
    for a, b in zip(fast, slow, strict=True):
        assert (a.player, a.seq, a.mu_before, a.sigma_before) == (b.player, b.seq, b.mu_before,
                                                                  b.sigma_before)
        assert a.mu == pytest.approx(b.mu, abs=1e-12) and a.sigma == pytest.approx(b.sigma, abs=1e-12)


@pytest.fixture
def club(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    db = tmp_path / "club.duckdb"
    games = hand_games()
    games[1].tags["Site"] = "Дача"
    assert run(capsys, "load", str(write_json(tmp_path / "h.json", games)), "--db", str(db), "-q")[0] == 0
    return db


def _ratings(capsys: pytest.CaptureFixture[str], db: Path, *more: str) -> list[dict[str, object]]:
    rows = run_json(capsys, "stats", "--db", str(db), "--report", "ratings", "-f", "json", *more)
    assert isinstance(rows, list)
    return rows


def test_stats_ratings_match_the_stored_tables(club: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = _ratings(capsys, club)
    con = duckdb.connect(str(club), read_only=True)
    try:
        stored = con.execute("SELECT pool, player, mu, sigma, ordinal, games FROM ratings").fetchall()
        history = con.execute("SELECT count(*), count(DISTINCT game_id) FROM rating_history").fetchone()
    finally:
        con.close()
    assert {(r["pool"], r["player"]): (r["rating"], r["uncertainty"], r["ordinal"], r["games"])
            for r in rows} == {(p, n): (m, s, o, g) for p, n, m, s, o, g in stored}
    assert history == (3 + 3 + 2 + 3, 4)  # per game per player
    pools = {r["pool"] for r in rows}
    assert pools == {"raspisnoy", "classic"}
    everyone = _ratings(capsys, club, "--pool", "all")
    assert {r["pool"] for r in everyone} == {"all"}
    assert {r["player"]: r["games"] for r in everyone} == {"Анна": 4, "Boris": 4, "Vera": 3}


def test_games_are_rated_in_the_same_order_whatever_the_chunk(club: Path) -> None:
    con = duckdb.connect(str(club), read_only=True)
    try:
        whole = list(iter_rated_games(con, "all"))
        in_ones = list(iter_rated_games(con, "all", chunk=1))
        in_threes = list(iter_rated_games(con, "rules", chunk=3))
        left = con.execute("SELECT count(*) FROM duckdb_tables() WHERE temporary").fetchone()
    finally:
        con.close()
    assert len(whole) == 4 and in_ones == whole
    assert [(g.game_id, g.players, g.places) for g in in_threes] == \
        [(g.game_id, g.players, g.places) for g in whole]
    dates = [g.date for g in whole if g.date is not None]
    assert len(dates) == 4 and dates == sorted(dates)
    assert left == (0,)  # the numbered order is dropped


@pytest.mark.slow
def test_filters_narrow_every_report(club: Path, capsys: pytest.CaptureFixture[str]) -> None:
    three = _ratings(capsys, club, "--players-count", "3", "--pool", "all")
    assert {r["player"]: r["games"] for r in three} == {"Анна": 3, "Boris": 3, "Vera": 3}
    dacha = _ratings(capsys, club, "--tag", "Site=Дача")
    assert {r["player"] for r in dacha} == {"Анна", "Boris", "Vera"} and all(r["games"] == 1 for r in dacha)
    event = run_json(capsys, "stats", "--db", str(club), "--report", "leaderboard", "-f", "json",
                     "--event", "Hand game 3")
    assert isinstance(event, list) and {(r["rules"], r["games"]) for r in event} == {("classic", 1)}
    vera = _ratings(capsys, club, "--player", "Vera", "--valid-only")
    assert [(r["player"], r["games"]) for r in vera] == [("Vera", 2)]
    # every report takes every filter
    for name in REPORT_NAMES:
        code, _, err = run(capsys, "stats", "--db", str(club), "--report", name, "--player", "Анна",
                           "--since", "2026-01-01", "--until", "2026-12-31", "--rules", "raspisnoy",
                           "--players-count", "3", "--event", "Hand game 1", "--tag", "Date=2026-01-10",
                           "--valid-only", "-f", "json")
        assert (code, err) == (0, ""), name
    code, _, err = run(capsys, "stats", "--db", str(club), "--tag", "Site")
    assert code == 2 and "KEY=VALUE" in err
    code, _, err = run(capsys, "stats", "--db", str(club), "--pool", "club")
    assert code == 2 and "--pool" in err


def test_tables_round_for_people_json_keeps_every_digit(club: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "stats", "--db", str(club), "--report", "leaderboard", "--valid-only")
    assert code == 0 and "50.0%" in out and "2.86" in out and "2.857" not in out
    rows = run_json(capsys, "stats", "--db", str(club), "--report", "bid_accuracy", "-f", "json")
    assert isinstance(rows, list) and any(r["exact_rate"] == 2 / 3 for r in rows)
    code, out, _ = run(capsys, "stats", "--db", str(club), "--report", "bid_accuracy", "-f", "csv")
    assert code == 0 and "0.6666666666666666" in out


def test_export_writes_empty_tables_with_their_columns(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "clean.duckdb"
    assert run(capsys, "load", str(write_json(tmp_path / "h.json", hand_games()[:3])), "--db", str(db),
               "-q")[0] == 0
    out = tmp_path / "pq"
    code, text, _ = run(capsys, "export", "--parquet", str(out), "--db", str(db))
    assert code == 0 and "violations 0" in text and "ratings 5" in text
    con = duckdb.connect()
    try:
        cols = [d[0] for d in con.execute(f"SELECT * FROM read_parquet('{out}/violations/**')").description]
        assert cols[:3] == ["game_id", "ordinal", "kind"] and cols[-1] == "year"
        assert con.execute(f"SELECT count(*) FROM read_parquet('{out}/violations/**')").fetchone() == (0,)
        rated = con.execute(f"SELECT count(*) FROM '{out}/rating_history/rating_history.parquet'").fetchone()
        assert rated == (8,)
    finally:
        con.close()


@pytest.fixture
def old_db(tmp_path: Path) -> Path:
    """A database written by raspis before ratings existed (main at 405c53a,
    ``raspis load samples/*.rsp``), kept as DuckDB's EXPORT DATABASE and
    imported here: its tables, its views as they were, no rating tables."""
    path = tmp_path / "old.duckdb"
    con = duckdb.connect(str(path))
    try:
        con.execute(f"IMPORT DATABASE '{OLD_DB}'")
        tables = {r[0] for r in con.execute("SELECT table_name FROM information_schema.tables").fetchall()}
    finally:
        con.close()
    assert "leaderboard" in tables and "ratings" not in tables
    return path


@pytest.mark.slow
def test_every_report_works_on_a_database_made_before_ratings(old_db: Path, tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    for name in REPORT_NAMES:
        for fmt in ("table", "json", "csv"):
            code, out, err = run(capsys, "stats", "--db", str(old_db), "--report", name, "-f", fmt)
            assert (code, err) == (0, ""), (name, fmt, err)
            assert out
    everything = run_json(capsys, "stats", "--db", str(old_db), "-f", "json")
    assert isinstance(everything, dict) and list(everything) == list(REPORT_NAMES)
    # today's leaderboard (by rules and table size), not the view stored in the old file
    assert {"rules", "players", "relative_per_deal"} <= set(everything["leaderboard"][0])
    assert {r["pool"] for r in everything["ratings"]} == {"raspisnoy", "classic", "georgian", "joker54"}
    code, _, err = run(capsys, "stats", "--db", str(old_db), "--report", "ratings", "--rules", "raspisnoy",
                       "--since", "2026-11-01", "--player", "Вера")
    assert (code, err) == (0, "")
    parquet = tmp_path / "pq"
    code, text, err = run(capsys, "export", "--parquet", str(parquet), "--db", str(old_db))
    assert code == 0 and "ratings" in text and (parquet / "ratings" / "ratings.parquet").exists()
    # loading more games is refused: the old file's game ids are of schema version 1 (issue 11
    # changed how a game is identified), so new games would not be matched with the stored ones
    code, _, err = run(capsys, "load", str(ROOT / "samples" / "classic.rsp"), "--db", str(old_db), "-q")
    assert code == 2 and "schema version" in err


def _on_a_terminal(*args: str) -> str:
    """Run raspis with its standard output on a pseudo-terminal; what it printed."""
    main, secondary = pty.openpty()
    env = dict(os.environ, COLUMNS="100", LINES="30", PYTHONIOENCODING="utf-8")
    proc = subprocess.Popen([sys.executable, "-m", "raspis_cli", *args], cwd=ROOT, env=env,
                            stdout=secondary, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    os.close(secondary)
    chunks = []
    while True:
        try:
            data = os.read(main, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=120)
    os.close(main)
    return b"".join(chunks).decode("utf-8", "replace")


@pytest.mark.slow
def test_charts_on_a_terminal_and_nothing_when_piped(tmp_path: Path) -> None:
    sample = str(ROOT / "samples" / "raspisnoy-full-3p.rsp")
    shown = _on_a_terminal("score", sample, "--chart")
    assert "Running totals" in shown and "deal" in shown
    for name in ("Анна", "Boris", "Вера"):  # one labelled line per player
        assert shown.count(name) >= 2
    piped = subprocess.run([sys.executable, "-m", "raspis_cli", "score", sample, "--chart"], cwd=ROOT,
                           capture_output=True, text=True, encoding="utf-8", timeout=120)
    plain = subprocess.run([sys.executable, "-m", "raspis_cli", "score", sample], cwd=ROOT,
                           capture_output=True, text=True, encoding="utf-8", timeout=120)
    assert piped.returncode == 0 and piped.stdout == plain.stdout
    db = tmp_path / "s.duckdb"
    shutil.copy(ROOT / "samples" / "classic.rsp", tmp_path / "c.rsp")
    subprocess.run([sys.executable, "-m", "raspis_cli", "load", str(ROOT / "samples"), "--db", str(db),
                    "-q"], cwd=ROOT, check=True, timeout=120)
    shown = _on_a_terminal("stats", "--db", str(db), "--report", "ratings", "--chart")
    assert "Ratings over time" in shown


def test_a_russian_chart_has_russian_labels() -> None:
    shown = _on_a_terminal("--lang", "ru", "score", str(ROOT / "samples" / "classic.rsp"), "--chart")
    assert "Суммы по ходу партии · партия 1" in shown
    labels = [line for line in shown.splitlines() if line.strip()][-1]  # the axes' labels: y, then x
    assert re.search("сумма +раздача", labels), labels
    assert not re.search(r"Running|\bdeal\b|\btotal\b", shown)
