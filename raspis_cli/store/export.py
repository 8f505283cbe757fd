"""``export``: every table as Parquet, partitioned by the year of the game date.

``DIR/TABLE/year=YYYY/data_0.parquet`` for each table that has games
(``year=__HIVE_DEFAULT_PARTITION__``, the Hive convention, for games
without a date; older DuckDB versions write ``year=NULL``), and ``DIR/players/players.parquet``.
DuckDB, Spark, Trino and pandas read the folders as hive-partitioned datasets.
"""

from __future__ import annotations

import contextlib
import shutil
from pathlib import Path

import duckdb

from raspis_cli.store.db import StoreError, check_backslash
from raspis_cli.store.schema import GAME_TABLES

__all__ = ["export_parquet"]


def _quote(path: Path) -> str:
    return "'" + str(path).replace("'", "''") + "'"


def export_parquet(con: duckdb.DuckDBPyConnection, folder: str, overwrite: bool = False) -> dict[str, int]:
    """Write every table under ``folder``; returns rows written per table.

    A table's folder that already exists is an error unless ``overwrite``,
    which replaces it (only the table folders raspis writes are touched)."""
    root = Path(folder)
    check_backslash(folder)
    if root.exists() and not root.is_dir():
        raise StoreError(f"{folder} exists and is not a folder")
    targets = [*GAME_TABLES, "players"]
    present = [name for name in targets if (root / name).exists()]
    if present and not overwrite:
        raise StoreError(f"{folder} already holds {', '.join(present)}; "
                         "choose an empty folder or add --overwrite")
    made_root = not root.exists()
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise StoreError(f"cannot create {folder}: {e.strerror or e}") from None
    for name in present:
        shutil.rmtree(root / name)
    counts: dict[str, int] = {}
    try:
        return _export(con, root, counts)
    except (duckdb.Error, OSError) as e:
        # no half export: the table folders written so far go again
        for name in targets:
            shutil.rmtree(root / name, ignore_errors=True)
        if made_root:
            with contextlib.suppress(OSError):
                root.rmdir()
        if isinstance(e, OSError):
            raise StoreError(f"export to {folder} failed: {e.strerror or e}") from None
        raise StoreError(f"export failed: {str(e).splitlines()[0]}") from None


def _export(con: duckdb.DuckDBPyConnection, root: Path, counts: dict[str, int]) -> dict[str, int]:
    """Each table's COPY into its folder under ``root``."""
    for name in GAME_TABLES:
        if name == "games":
            select = "SELECT * FROM games"
        else:
            select = (f"SELECT t.*, g.year FROM {name} t "
                      "JOIN games g USING (game_id)")
        count = con.execute(f"SELECT count(*) FROM ({select})").fetchone()
        counts[name] = int(count[0]) if count else 0
        (root / name).mkdir()
        con.execute(f"COPY ({select} ORDER BY ALL) TO {_quote(root / name)} "
                    "(FORMAT parquet, PARTITION_BY (year), OVERWRITE_OR_IGNORE)")
    (root / "players").mkdir()
    con.execute(f"COPY (SELECT * FROM players ORDER BY player) TO "
                f"{_quote(root / 'players' / 'players.parquet')} (FORMAT parquet)")
    row = con.execute("SELECT count(*) FROM players").fetchone()
    counts["players"] = int(row[0]) if row else 0
    return counts
