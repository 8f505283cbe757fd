"""A database of schema version 2 (``plays`` a table of text columns) keeps
answering, and ``load`` converts it to version 3 (``plays`` a view over the
integer ``plays_int``) in its transaction, with the same rows."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import pytest

from raspis_cli.store.schema import SCHEMA_VERSION
from tests.storekit import hand_games, run, run_json, write_json

V2_DB = Path(__file__).resolve().parent / "data" / "v2_db" / "main-773601a"


@pytest.fixture
def v2_db(tmp_path: Path) -> Path:
    path = tmp_path / "v2.duckdb"
    con = duckdb.connect(str(path))
    try:
        con.execute(f"IMPORT DATABASE '{V2_DB}'")
    finally:
        con.close()
    return path


def _read(db: Path, sql: str) -> list[tuple[Any, ...]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def _plays_kind(db: Path) -> tuple[str, str]:
    [row] = _read(db, "SELECT t.table_type, m.value FROM information_schema.tables t, raspis_meta m "
                      "WHERE t.table_name = 'plays' AND m.key = 'schema_version'")
    return row[0], row[1]


@pytest.mark.slow
def test_a_version_2_database_answers_and_load_converts_it(
        v2_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _plays_kind(v2_db) == ("BASE TABLE", "2")
    reports = run_json(capsys, "stats", "--db", str(v2_db), "-f", "json")
    plays = _read(v2_db, "SELECT * FROM plays ORDER BY ALL")
    assert len(plays) > 900 and any(r[7] for r in plays)  # jokers among them
    # a load that fails leaves the version-2 file as it was
    code, _, err = run(capsys, "load", str(tmp_path / "absent.rsp"), "--db", str(v2_db))
    assert code != 0 and err
    assert _plays_kind(v2_db) == ("BASE TABLE", "2")
    # loading the same games again stores nothing new, but converts the file (joker54-full.rsp
    # left out: its deal 10 was corrected after the fixture was made, so it is another game now)
    samples = sorted(p for p in (Path(__file__).resolve().parent.parent / "samples").glob("*.rsp")
                     if p.name != "joker54-full.rsp")
    code, out, _ = run(capsys, "load", *map(str, samples), "--db", str(v2_db))
    assert code == 0 and "loaded 0 games" in out
    assert _plays_kind(v2_db) == ("VIEW", str(SCHEMA_VERSION))
    assert _read(v2_db, "SELECT count(*) FROM plays_int") == [(len(plays),)]
    # the same rows, but for version 2's NULL suit of a joker declared as spades (Suit.S is 0)
    suit, joker_suit = 8, 11
    expected = sorted((*r[:suit], "S", *r[suit + 1:]) if r[7] and r[suit] is None and r[joker_suit] == "S"
                      else r for r in plays)
    assert expected != plays and _read(v2_db, "SELECT * FROM plays ORDER BY ALL") == expected
    assert run_json(capsys, "stats", "--db", str(v2_db), "-f", "json") == reports
    # and it takes new games
    code, out, _ = run(capsys, "load", str(write_json(tmp_path / "hand.json", hand_games())),
                       "--db", str(v2_db), "-q")
    assert code == 0
    assert _read(v2_db, "SELECT count(*) FROM games") == [(7 + 4,)]
