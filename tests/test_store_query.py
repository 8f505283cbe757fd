"""``raspis query``: any SQL, read-only unless --write; table, JSON, CSV."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.storekit import hand_games, run, run_json, write_json


@pytest.fixture
def db(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "q.duckdb"
    records = write_json(tmp_path / "hand.json", hand_games())
    assert run(capsys, "load", str(records), "--db", str(path), "-q")[0] == 0
    return path


SQL = "SELECT event, date, valid, tags FROM games ORDER BY date LIMIT 2"


def test_json_is_a_list_of_objects_keyed_by_column(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = run_json(capsys, "query", SQL, "--db", str(db), "--format", "json")
    assert rows == [
        {"event": "Hand game 3", "date": "2025-12-31", "valid": True,
         "tags": {"Event": "Hand game 3", "Date": "2025-12-31"}},
        {"event": "Hand game 1", "date": "2026-01-10", "valid": True,
         "tags": {"Event": "Hand game 1", "Date": "2026-01-10"}},
    ]


def test_csv_and_table(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "query", "SELECT player, total FROM seats ORDER BY total DESC LIMIT 2",
                       "--db", str(db), "--format", "csv")
    assert code == 0 and out == "player,total\nАнна,125\nVera,51\n"
    code, out, _ = run(capsys, "query", "SELECT count(*) AS n FROM plays", "--db", str(db))
    assert code == 0 and "n" in out and "3" in out


def test_the_views_are_there_to_query(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = run_json(capsys, "query", "SELECT player, sum(wins) AS wins FROM leaderboard "
                    "GROUP BY player ORDER BY player", "--db", str(db), "-f", "json")
    assert rows == [{"player": "Boris", "wins": 1}, {"player": "Vera", "wins": 2},
                    {"player": "Анна", "wins": 1}]
    # the ratings are tables: one row per pool (rules preset) and player
    rated = run_json(capsys, "query", "SELECT pool, player, games FROM ratings ORDER BY ALL",
                     "--db", str(db), "-f", "json")
    assert rated == [{"pool": "classic", "player": "Boris", "games": 1},
                     {"pool": "classic", "player": "Анна", "games": 1},
                     {"pool": "raspisnoy", "player": "Boris", "games": 3},
                     {"pool": "raspisnoy", "player": "Vera", "games": 3},
                     {"pool": "raspisnoy", "player": "Анна", "games": 3}]


def test_read_only_unless_write(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "query", "DELETE FROM violations", "--db", str(db))
    assert code == 2 and "read-only" in err and "--write" in err
    code, _, _ = run(capsys, "query", "DELETE FROM violations", "--db", str(db), "--write", "-f", "json")
    assert code == 0
    assert run_json(capsys, "query", "SELECT count(*) AS n FROM violations", "--db", str(db),
                    "-f", "json") == [{"n": 0}]


def test_errors(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "query", "SELEC 1", "--db", str(db))
    assert code == 2 and err.startswith("raspis: error:") and "Traceback" not in err
    code, _, err = run(capsys, "query", "SELECT 1", "--db", str(tmp_path / "none.duckdb"))
    assert code == 2 and "no database" in err
    other = tmp_path / "other.duckdb"
    import duckdb

    duckdb.connect(str(other)).execute("CREATE TABLE t (x INTEGER)").close()
    code, _, err = run(capsys, "query", "SELECT 1", "--db", str(other))
    assert code == 2 and "no raspis game history" in err


def test_json_shape_matches_stats(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    via_stats = run_json(capsys, "stats", "--db", str(db), "--report", "leaderboard", "-f", "json")
    via_query = run_json(capsys, "query", "SELECT * FROM leaderboard", "--db", str(db), "-f", "json")
    assert json.dumps(via_stats) == json.dumps(via_query)


# --- issue 11: a read-only query touches neither files nor the network ----------------------------

ATTACKS = {
    "copy over a file": "COPY (SELECT 'gone') TO '{dir}/hand.json' (FORMAT csv)",
    "copy to a new file": "COPY (SELECT 'gone') TO '{dir}/out.csv' (FORMAT csv)",
    "export database": "EXPORT DATABASE '{dir}/dump'",
    "install": "INSTALL httpfs",
    "load": "LOAD httpfs",
    "read a file": "SELECT * FROM read_csv('/etc/passwd')",
    "read text": "SELECT * FROM read_text('/etc/passwd')",
    "attach": "ATTACH '{dir}/other.duckdb' AS other",
    "undo the sandbox": "SET enable_external_access = true",
    "unlock": "RESET lock_configuration",
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_read_only_query_cannot_touch_files_or_network(db: Path, tmp_path: Path, name: str,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    before = db.read_bytes(), (tmp_path / "hand.json").read_bytes()
    sql = ATTACKS[name].format(db=db, dir=tmp_path)
    code, out, err = run(capsys, "query", sql, "--db", str(db))
    assert code == 2 and out == "", (out, err)
    assert err.startswith("raspis: error:") and "--write" in err and len(err.splitlines()) == 1, err
    assert (db.read_bytes(), (tmp_path / "hand.json").read_bytes()) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hand.json", "q.duckdb"]
    # the same connection still reads the tables
    assert run_json(capsys, "query", "SELECT count(*) AS n FROM games", "--db", str(db),
                    "-f", "json") == [{"n": 4}]


def test_write_opts_in_to_files(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "out.csv"
    code, _, err = run(capsys, "query", f"COPY (SELECT 'kept' AS x) TO '{target}' (FORMAT csv)",
                       "--db", str(db), "--write")
    assert code == 0, err
    assert target.read_text(encoding="utf-8") == "x\nkept\n"


def test_stats_runs_sandboxed(db: Path, monkeypatch: pytest.MonkeyPatch,
                              capsys: pytest.CaptureFixture[str]) -> None:
    """stats opens the database read-only and sandboxed: its connection refuses files."""
    from raspis_cli.store.query import run_query as real

    seen: list[str] = []

    def spy(con, sql, params=None):  # type: ignore[no-untyped-def]
        try:
            con.execute("SELECT * FROM read_csv('/etc/passwd')")
        except Exception as e:  # the refusal is what is looked for
            seen.append(type(e).__name__)
        return real(con, sql, params)

    monkeypatch.setattr("raspis_cli.store.stats.run_query", spy)
    code, _, err = run(capsys, "stats", "--db", str(db), "--report", "leaderboard", "-f", "json")
    assert code == 0, err
    assert seen == ["PermissionException"]
