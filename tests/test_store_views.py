"""The store keeps its own views: stats answers on a database whatever views it
holds, and the schema version is recorded and checked."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from raspis_cli.store import RecordSource, load_units
from raspis_cli.store.schema import BASE_VIEWS, REPORTS, SCHEMA_VERSION
from raspis_cli.store.stats import REPORT_NAMES
from tests.storekit import hand_games, run, run_json


@pytest.fixture()
def db(tmp_path: Path) -> Path:
    path = tmp_path / "hand.duckdb"
    con = duckdb.connect(str(path))
    load_units(con, [RecordSource("hand", hand_games())])
    con.close()
    return path


def _version(path: Path) -> str:
    con = duckdb.connect(str(path), read_only=True)
    try:
        row = con.execute("SELECT value FROM raspis_meta WHERE key = 'schema_version'").fetchone()
    finally:
        con.close()
    assert row is not None
    return str(row[0])


def test_stats_answers_on_a_database_without_its_views(db: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    before = run_json(capsys, "stats", "--db", str(db), "--format", "json")
    con = duckdb.connect(str(db))
    for view in [*REPORTS, *reversed(BASE_VIEWS)]:  # as an older raspis left it: no report views
        con.execute(f"DROP VIEW {view}")
    con.close()
    after = run_json(capsys, "stats", "--db", str(db), "--format", "json")
    assert after == before
    assert isinstance(after, dict) and set(after) == set(REPORT_NAMES)
    narrowed = run_json(capsys, "stats", "--db", str(db), "--report", "leaderboard", "--since",
                        "2000-01-01", "--player", "Анна", "--format", "json")
    assert isinstance(narrowed, list) and {r["player"] for r in narrowed} == {"Анна"}


def test_a_load_brings_the_views_back(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    con = duckdb.connect(str(db))
    con.execute("DROP VIEW leaderboard")
    con.close()
    code, _, err = run(capsys, "load", "samples/classic.rsp", "--db", str(db), "-q")
    assert code in (0, 1), err
    rows = run_json(capsys, "query", "SELECT count(*) AS n FROM leaderboard", "--db", str(db),
                    "--format", "json")
    assert isinstance(rows, list) and rows[0]["n"] > 0


def test_the_schema_version_is_recorded_and_a_newer_one_refused(
        db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _version(db) == str(SCHEMA_VERSION)
    con = duckdb.connect(str(db))
    con.execute("UPDATE raspis_meta SET value = ? WHERE key = 'schema_version'", [str(SCHEMA_VERSION + 1)])
    con.close()
    for argv in (["stats"], ["query", "SELECT 1"], ["load", "samples/classic.rsp"]):
        code, out, err = run(capsys, *argv, "--db", str(db))
        assert code == 2, (argv, out, err)
        assert f"newer raspis (schema version {SCHEMA_VERSION + 1}" in err, (argv, err)
        assert "upgrade raspis" in err and "Traceback" not in err


def test_an_older_database_answers_reports_but_load_refuses_it(
        db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Schema version 1 identified games differently (issue 11): its reports
    still work, a load into it is refused and leaves it as it was."""
    con = duckdb.connect(str(db))
    con.execute("UPDATE raspis_meta SET value = '1' WHERE key = 'schema_version'")
    games = con.execute("SELECT count(*) FROM games").fetchone()
    con.close()
    assert run_json(capsys, "stats", "--db", str(db), "--report", "leaderboard", "--format", "json")
    code, _, err = run(capsys, "load", "samples/classic.rsp", "--db", str(db), "-q")
    assert code == 2 and "schema version 1" in err and "new file" in err
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT count(*) FROM games").fetchone() == games
    con.close()
    assert _version(db) == "1"
