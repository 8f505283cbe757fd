"""``--shard I/N``: processes that do not see each other each read one shard
of the same files; together they read everything once. validate's reports
and load's tables (as Parquet, read back as one union) equal one process's,
also when the shards run on a Dask cluster of two local workers."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import duckdb
import pytest

import raspis_cli.files.pieces as pieces
from raspis_cli.judge import check
from raspis_cli.notation.jsoncodec import games_to_jsonl_text
from raspis_cli.notation.writer import write_games
from raspis_cli.rules import Rules
from raspis_cli.simulate.run import simulate_games
from raspis_cli.store import load_units
from raspis_cli.store.schema import GAME_TABLES, TABLES
from raspis_cli.store.shards import load_shard, run_with, shard_folder, union_sql
from tests.clikit import run_cli

pytestmark = pytest.mark.slow  # loads cut into shards, on Dask's local workers too

SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "mixed-detail.rsp"


def _corpus(folder: Path) -> list[str]:
    """A notation file of 13 games (the first without tags, comments between
    games, a syntax error inside a later game) and a .jsonl of 9 others."""
    folder.mkdir(exist_ok=True)
    games = list(simulate_games(Rules.preset("raspisnoy"), 3, 21, seed=13, detail="scores"))
    text = write_games(games[:6]) + "\n; a comment that belongs to the next game\n{ and one in braces }\n\n"
    lines = (text + write_games(games[6:12])).split("\n")
    bad = next(i for i, line in enumerate(lines) if line.startswith("3. ") and i > len(lines) // 2)
    lines[bad] = lines[bad].replace("|", "| x/y", 1)
    notation = folder / "club.rsp"
    notation.write_text("1. 1 A - | 0/0 | 0/1 | 1/0\n\n" + "\n".join(lines), encoding="utf-8")
    jsonl = folder / "more.jsonl"
    jsonl.write_text(games_to_jsonl_text(games[12:]), encoding="utf-8")
    return [str(notation), str(jsonl)]


def test_shards_of_validate_give_the_report_of_one_process(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pieces, "SHARD_GAMES", 3)
    paths = _corpus(tmp_path / "c")
    one = [r.to_json() for r in check.validate_files(paths, as_json=True)]
    for shards, jobs in ((2, 1), (3, 2)):
        games: dict[str, list[Any]] = {path: [] for path in paths}
        syntax: dict[str, list[Any]] = {path: [] for path in paths}
        for shard in range(shards):
            for report in check.validate_files(paths, as_json=True, jobs=jobs, shard=(shard, shards)):
                games[report.path] += [r.json for r in report.results]
                syntax[report.path] += [d.to_json() for d in report.syntax]
        for whole in one:
            path = str(whole["path"])
            assert sorted(games[path], key=lambda g: g["index"]) == whole["games"]
            assert sorted(syntax[path], key=lambda d: d["line"]) == whole.get("syntax", [])
    assert '"kind": "syntax"' in json.dumps(one)  # the syntax error is in a game's report
    assert len(pieces.shard_pieces(paths, 0, 3)) == 3  # 6 pieces of 3 games or fewer, every third


def _tables(con: duckdb.DuckDBPyConnection, sql_of: dict[str, str]) -> dict[str, list[tuple[object, ...]]]:
    out = {}
    for table in GAME_TABLES:
        columns = ", ".join(f'"{c.name}"' for c in TABLES[table])
        out[table] = con.execute(f"SELECT {columns} FROM ({sql_of[table]}) ORDER BY ALL").fetchall()
    return out


def test_the_union_of_shards_is_one_load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three shards loaded apart, written as Parquet: their union is the
    tables of one load, game numbers and lines included; a game given twice
    (in pieces of different shards) counts once in the distinct union."""
    monkeypatch.setattr(pieces, "SHARD_GAMES", 3)
    paths = _corpus(tmp_path / "c")
    con = duckdb.connect(str(tmp_path / "one.duckdb"))
    load_units(con, paths)
    whole = _tables(con, {t: f"SELECT * FROM {t}" for t in GAME_TABLES})
    summaries = run_with(map, list, paths, 3, str(tmp_path / "out"))
    assert sum(int(s["loaded"]) for s in summaries) == len(whole["games"]) == 22  # type: ignore[call-overload]
    union = _tables(con, {t: union_sql(str(tmp_path / "out"), t) for t in GAME_TABLES})
    assert union == whole and len(whole["plays"]) == 0 and len(whole["violations"]) > 0
    # the second notation game again at the end: a piece of another shard stores it too
    again = write_games(list(simulate_games(Rules.preset("raspisnoy"), 3, 1, seed=13, detail="scores")))
    Path(paths[0]).write_text(Path(paths[0]).read_text(encoding="utf-8") + "\n\n" + again, encoding="utf-8")
    for shard in range(3):
        load_shard(paths, shard, 3, shard_folder(str(tmp_path / "again"), shard, 3))
    plain = _tables(con, {t: union_sql(str(tmp_path / "again"), t) for t in GAME_TABLES})
    distinct = _tables(con, {t: union_sql(str(tmp_path / "again"), t, distinct=True) for t in GAME_TABLES})
    assert len(plain["games"]) == 23 and distinct == whole
    con.close()


def _copies(path: Path, copies: int) -> None:
    text = SAMPLE.read_text(encoding="utf-8")
    path.write_text("\n".join(text.replace('[Event "', f'[Event "{n} ') for n in range(copies)),
                    encoding="utf-8")


def test_cli_shards_and_parquet(tmp_path: Path) -> None:
    """``validate --shard`` and ``load --shard --parquet`` on 250 games (three
    pieces of 100): every game once across the shards; bad values refused."""
    big = tmp_path / "big.rsp"
    _copies(big, 250)
    counts = []
    for shard in ("1/2", "2/2"):
        out = tmp_path / f"p{shard[0]}"
        done = run_cli("load", str(big), "--shard", shard, "--parquet", str(out))
        assert done.returncode == 0 and "shard " + shard in done.stdout, done.stderr
        counts.append(duckdb.connect().execute(
            f"SELECT count(*) FROM read_parquet('{out}/games/**/*.parquet')").fetchone())
    assert counts == [(150,), (100,)]  # pieces of 100, 100 and 50 games: the first and third in shard 1
    done = run_cli("validate", str(big), "--shard", "2/2")
    assert done.returncode == 0 and "100 games" in done.stdout, done.stdout
    for bad in ("3/2", "0/2", "x", "1/0"):
        done = run_cli("validate", str(big), "--shard", bad)
        assert done.returncode == 2 and "--shard" in done.stderr and "Traceback" not in done.stderr
    done = run_cli("load", "-", "--shard", "1/2", "--db", str(tmp_path / "x.duckdb"), stdin="")
    assert done.returncode == 2 and "standard input" in done.stderr


def test_dask_runs_the_shards_on_two_local_workers(tmp_path: Path) -> None:
    """An existing distributed engine (Dask, the `dask` extra) runs one
    ``load_shard`` per shard on a local cluster of two worker processes; the
    union of their Parquet equals one load."""
    pytest.importorskip("dask.distributed", reason="the dask extra is not installed")
    big = tmp_path / "big.rsp"
    _copies(big, 250)
    code = f"""
import sys
from dask.distributed import Client, LocalCluster
from raspis_cli.store.shards import run_with
if __name__ == "__main__":
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    with cluster, Client(cluster) as client:
        summaries = run_with(client.map, client.gather, [{str(big)!r}], 3, {str(tmp_path / 'out')!r})
        workers = len(client.scheduler_info()["workers"])
    print(workers, sum(s["loaded"] for s in summaries))
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["2", "250"]
    con = duckdb.connect(str(tmp_path / "one.duckdb"))
    load_units(con, [str(big)])
    whole = _tables(con, {t: f"SELECT * FROM {t}" for t in GAME_TABLES})
    union = _tables(con, {t: union_sql(str(tmp_path / "out"), t) for t in GAME_TABLES})
    assert union == whole and len(whole["plays"]) == 250 * 9
    con.close()
