"""``raspis export --parquet``: every table, partitioned by year, read back by DuckDB."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from raspis_cli.model.record import GameRecord
from raspis_cli.store.schema import GAME_TABLES
from tests.storekit import hand_games, run, write_json


@pytest.fixture
def db(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "e.duckdb"
    games: list[GameRecord] = hand_games()
    undated = hand_games()[2]
    undated.tags = {"Event": "No date"}
    records = write_json(tmp_path / "hand.json", [*games, undated])
    assert run(capsys, "load", str(records), "--db", str(path), "-q")[0] == 0
    return path


def test_export_partitions_by_year_and_reads_back(db: Path, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "parquet"
    code, text, err = run(capsys, "export", "--parquet", str(out), "--db", str(db))
    assert (code, err) == (0, "") and "games 5" in text
    years = sorted(p.name for p in (out / "games").iterdir())
    # games without a date: the Hive default partition (DuckDB before 1.2 wrote year=NULL)
    assert years[:2] == ["year=2025", "year=2026"]
    assert years[2:] in (["year=__HIVE_DEFAULT_PARTITION__"], ["year=NULL"])
    con = duckdb.connect()
    source = duckdb.connect(str(db), read_only=True)
    try:
        for table in GAME_TABLES:
            back = con.execute(f"SELECT count(*) FROM read_parquet('{out}/{table}/**/*.parquet', "
                               "hive_partitioning = true)").fetchone()
            stored = source.execute(f"SELECT count(*) FROM {table}").fetchone()
            assert back == stored, table
        row = con.execute(f"SELECT year, count(*) FROM read_parquet('{out}/deal_results/**/*.parquet', "
                          "hive_partitioning = true) GROUP BY year ORDER BY year NULLS LAST").fetchall()
        assert row == [(2025, 2), (2026, 3 * 4 + 3 * 3 + 3), (None, 2)]
        players = con.execute(f"SELECT player, games FROM '{out}/players/players.parquet' "
                              "ORDER BY player").fetchall()
        assert players == [("Boris", 5), ("Vera", 3), ("Анна", 5)]
        # the same values: a game's tags and totals survive the trip
        tags = con.execute(f"SELECT tags['Event'], date FROM read_parquet('{out}/games/**/*.parquet', "
                           "hive_partitioning = true) WHERE year = 2025").fetchall()
        assert [t[0] for t in tags] == ["Hand game 3"]
    finally:
        con.close()
        source.close()


@pytest.mark.slow
def test_export_refuses_to_overwrite_unless_asked(db: Path, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "parquet"
    assert run(capsys, "export", "--parquet", str(out), "--db", str(db), "-q")[0] == 0
    code, _, err = run(capsys, "export", "--parquet", str(out), "--db", str(db))
    assert code == 2 and "--overwrite" in err
    (out / "keep.txt").write_text("mine")
    assert run(capsys, "export", "--parquet", str(out), "--db", str(db), "--overwrite", "-q")[0] == 0
    assert (out / "keep.txt").read_text() == "mine"
    code, _, err = run(capsys, "export", "--parquet", str(out / "keep.txt"), "--db", str(db))
    assert code == 2 and "not a folder" in err
