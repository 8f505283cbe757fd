"""``export``: every table as Parquet, partitioned by the year of the game date.

``DIR/TABLE/year=YYYY/data_0.parquet`` for each table that has games
(``year=__HIVE_DEFAULT_PARTITION__``, the Hive convention, for games
without a date; older DuckDB versions write ``year=NULL``); a table with no
rows is one file ``DIR/TABLE/year=__HIVE_DEFAULT_PARTITION__/data_0.parquet``
holding its schema, so ``read_parquet('DIR/violations/**')`` works on a club
without violations, and the exports of shards union.
The derived tables are one file each: ``DIR/players/players.parquet``,
``DIR/ratings/ratings.parquet``, ``DIR/rating_history/rating_history.parquet``
(a database made before ratings existed has them computed on the way).
DuckDB, Spark, Trino and pandas read the folders as hive-partitioned datasets.
"""

from __future__ import annotations

import contextlib
import shutil
from pathlib import Path

import duckdb

from raspis_cli.store.db import StoreError, check_backslash
from raspis_cli.store.ratings import RATINGS_SQL, history_table
from raspis_cli.store.schema import DERIVED_TABLES, GAME_TABLES, TABLES
from raspis_cli.text.i18n import _

__all__ = ["export_parquet"]

EMPTY_PARTITION = "__HIVE_DEFAULT_PARTITION__"
"""The partition folder of a table without rows (the Hive name for no year)."""


def _quote(path: Path) -> str:
    return "'" + str(path).replace("'", "''") + "'"


def export_parquet(con: duckdb.DuckDBPyConnection, folder: str, overwrite: bool = False) -> dict[str, int]:
    """Write every table under ``folder``; returns rows written per table.

    A table's folder that already exists is an error unless ``overwrite``,
    which replaces it (only the table folders raspis writes are touched)."""
    root = Path(folder)
    check_backslash(folder)
    if root.exists() and not root.is_dir():
        raise StoreError(_("{folder} exists and is not a folder").format(folder=folder))
    targets = [*GAME_TABLES, *DERIVED_TABLES]
    present = [name for name in targets if (root / name).exists() or (root / name).is_symlink()]
    linked = [name for name in present if (root / name).is_symlink() or not (root / name).is_dir()]
    if linked:
        # --overwrite removes only folders raspis wrote: never what a link points to
        raise StoreError(_("{folder}: {names} is a link or a file, not a table folder raspis wrote; "
                           "nothing is replaced (remove it, or choose another folder)").format(
            folder=folder, names=", ".join(linked)))
    if present and not overwrite:
        raise StoreError(_("{folder} already holds {tables}; choose an empty folder or add "
                           "--overwrite").format(
            folder=folder, tables=', '.join(present)))
    made_root = not root.exists()
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise StoreError(_("cannot create {folder}: {reason}").format(
            folder=folder, reason=e.strerror or e)) from None
    for name in present:
        shutil.rmtree(root / name)
    counts: dict[str, int] = {}
    try:
        return _export(con, root, counts)
    except (duckdb.Error, OSError) as e:
        # no half export: the table folders written so far go again
        for name in targets:
            if not (root / name).is_symlink():
                shutil.rmtree(root / name, ignore_errors=True)
        if made_root:
            with contextlib.suppress(OSError):
                root.rmdir()
        if isinstance(e, OSError):
            raise StoreError(_("export to {folder} failed: {reason}").format(
                folder=folder, reason=e.strerror or e)) from None
        raise StoreError(_("export failed: {reason}").format(reason=str(e).splitlines()[0])) from e


def _export(con: duckdb.DuckDBPyConnection, root: Path, counts: dict[str, int]) -> dict[str, int]:
    """Each table's COPY into its folder under ``root``."""
    for name in GAME_TABLES:
        if name == "games":
            select = "SELECT * FROM games"
        else:
            select = (f"SELECT t.*, g.year FROM {name} t "
                      "JOIN games g USING (game_id)")
        counts[name] = _count(con, select)
        (root / name).mkdir()
        if counts[name] == 0:
            # no partitions to write: one file that says what the columns are, in the
            # default partition, so that it unions with other exports' partitions
            empty = root / name / f"year={EMPTY_PARTITION}"
            empty.mkdir()
            con.execute(f"COPY (SELECT * EXCLUDE (year) FROM ({select}) LIMIT 0) TO "
                        f"{_quote(empty / 'data_0.parquet')} (FORMAT parquet)")
            continue
        con.execute(f"COPY ({select} ORDER BY ALL) TO {_quote(root / name)} "
                    "(FORMAT parquet, PARTITION_BY (year), OVERWRITE_OR_IGNORE)")
    existing = {row[0] for row in con.execute(
        "SELECT table_name FROM information_schema.tables").fetchall()}
    selects = {name: f"SELECT * FROM {name}" for name in DERIVED_TABLES}
    registered = "rating_history" not in existing
    if registered:
        # a database made before ratings existed: rate its games now
        con.register("rating_history", history_table(con))
        selects["ratings"] = _ratings_select()
    try:
        for name in DERIVED_TABLES:
            (root / name).mkdir()
            order = ", ".join(f'"{c.name}"' for c in TABLES[name][:2])
            con.execute(f"COPY (SELECT * FROM ({selects[name]}) ORDER BY {order}) TO "
                        f"{_quote(root / name / (name + '.parquet'))} (FORMAT parquet)")
            counts[name] = _count(con, selects[name])
    finally:
        if registered:
            con.unregister("rating_history")
    return counts


def _ratings_select() -> str:
    """The SELECT of :data:`RATINGS_SQL` (its INSERT INTO ratings taken off)."""
    return RATINGS_SQL.format(history="rating_history").strip().removeprefix("INSERT INTO ratings").strip()


def _count(con: duckdb.DuckDBPyConnection, select: str) -> int:
    rows = con.execute(f"SELECT count(*) FROM ({select})").fetchall()
    return int(rows[0][0]) if rows else 0
