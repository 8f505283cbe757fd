"""Loading in shards: many processes or machines, each one shard, Parquet out.

``load_shard(paths, i, n, folder)`` loads shard ``i`` of ``n`` of the files
(:func:`~raspis_cli.files.pieces.shard_pieces`: the files cut into pieces of whole
games, every ``n``-th piece) into a temporary DuckDB database and writes its
tables as Parquet under ``folder`` (the layout of ``raspis export``). Any
engine that runs a Python function on many workers can run it, one call per
shard, each into its own folder, e.g. Dask::

    from dask.distributed import Client, LocalCluster
    from raspis_cli.store.shards import run_with, union_sql

    with LocalCluster(n_workers=2, threads_per_worker=1) as cluster, Client(cluster) as client:
        summaries = run_with(client.map, client.gather, ["club/"], 4, "out")

The union of the shards' game tables is what one ``raspis load`` stores
(:func:`union_sql` reads it in DuckDB; Spark reads the same folders). The
derived tables (``players``, ``ratings``, ``rating_history``) of a shard cover
that shard's games only.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from raspis_cli.files.paths import expand_paths
from raspis_cli.store.db import open_db
from raspis_cli.store.export import export_parquet
from raspis_cli.store.load import load_units
from raspis_cli.store.schema import GAME_TABLES

__all__ = ["load_shard", "run_with", "shard_folder", "union_sql"]


def shard_folder(root: str, shard: int, shards: int) -> str:
    """The folder under ``root`` of shard ``shard`` (0-based) of ``shards``."""
    return str(Path(root) / f"shard-{shard + 1}-of-{shards}")


def load_shard(paths: Sequence[str], shard: int, shards: int, folder: str,
               valid_only: bool = False) -> dict[str, object]:
    """Load shard ``shard`` (0-based) of ``shards`` of the record files and
    folders ``paths`` through a temporary database and write its tables as
    Parquet under ``folder``; returns the load's summary (as ``load
    --format json`` would) with the rows written per table."""
    files = expand_paths(list(paths))
    with tempfile.TemporaryDirectory(prefix="raspis-shard-") as scratch:
        con = open_db(str(Path(scratch) / "shard.duckdb"), create=True, folders=(folder,))
        try:
            summary = load_units(con, files, valid_only=valid_only, shard=(shard, shards))
            exported = export_parquet(con, folder)
        finally:
            con.close()
    out = summary.to_json()
    out["shard"] = f"{shard + 1}/{shards}"
    out["exported"] = exported
    return out


def run_with(map_function: Callable[..., Any], gather: Callable[[Any], list[dict[str, object]]],
             paths: Sequence[str], shards: int, root: str) -> list[dict[str, object]]:
    """Every shard loaded by an engine's ``map_function(function, *iterables)``
    (Dask's ``client.map``, or the built-in ``map`` for one process), its
    results collected by ``gather`` (``client.gather``, or ``list``); shard
    ``i`` writes into :func:`shard_folder` ``(root, i, shards)``."""
    futures = map_function(load_shard, [list(paths)] * shards, list(range(shards)), [shards] * shards,
                           [shard_folder(root, i, shards) for i in range(shards)])
    return gather(futures)


def union_sql(root: str, table: str, distinct: bool = False) -> str:
    """A DuckDB SELECT of the union of every shard's ``table`` under ``root``
    (one of the game tables: games, seats, deals, ...). With ``distinct``, a
    game stored by several shards (given twice, in pieces of different
    shards) counts once: one ``games`` row per ``game_id`` (the first by
    file and position), identical rows of the other tables once."""
    if table not in GAME_TABLES:
        raise ValueError(f"{table} is not a game table ({', '.join(GAME_TABLES)})")
    pattern = str(Path(root) / "*" / table / "**" / "*.parquet").replace("'", "''")
    source = f"read_parquet('{pattern}', hive_partitioning = true, union_by_name = true)"
    if not distinct:
        return f"SELECT * FROM {source}"
    if table == "games":
        return (f"SELECT * FROM {source} "
                "QUALIFY row_number() OVER (PARTITION BY game_id ORDER BY source_file, game_index) = 1")
    return f"SELECT DISTINCT * FROM {source}"
