"""``load``: record files into the database, in one transaction.

Files (or in-memory :class:`RecordSource` batches) are read and replayed by
:func:`read_unit`, in this process or in ``jobs`` worker processes; each unit
comes back as Arrow tables. This process is the only writer: it drops games
already stored (or deletes them first, with ``replace``), inserts the Arrow
tables in batches, recomputes ``players`` and commits. Any exception, Ctrl-C
included, rolls everything back.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from itertools import repeat
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.compute as pc

from raspis_cli.record import GameRecord, Pos
from raspis_cli.replay import Problem, replay_game
from raspis_cli.sources import SourceFile, load_source
from raspis_cli.store.db import StoreError, ensure_schema
from raspis_cli.store.rows import TableBuilder, game_id
from raspis_cli.store.schema import GAME_TABLES, TABLES

__all__ = [
    "LoadError",
    "LoadSummary",
    "RecordSource",
    "UnitRows",
    "load_units",
    "read_unit",
]

FLUSH_ROWS = 250_000
"""Insert once this many rows (of every table together) are pending."""


TRACE_ENV = "RASPIS_LOAD_TRACE"
"""When set to a file name, a load appends the name of each phase it enters to
that file, one line each, written straight to the file (no buffering), so
that a process killed at any moment leaves a record of how far it got, with
the wall-clock time (``scripts/kill_campaign.py`` and
``tests/test_store_faults.py`` use it)."""


def trace(phase: str) -> None:
    """Record that the load enters ``phase`` (only with ``$RASPIS_LOAD_TRACE``)."""
    target = os.environ.get(TRACE_ENV)
    if not target:
        return
    fd = os.open(target, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, f"{phase} {time.time():.6f}\n".encode())
    finally:
        os.close(fd)


class LoadError(StoreError):
    """A load that cannot go on (an unreadable file): nothing is written."""


@dataclass(slots=True)
class RecordSource:
    """Games already in memory, loaded as if read from a file named ``name``."""

    name: str
    games: list[GameRecord]
    ordered_bids: bool = False


Unit = str | RecordSource
"""What one worker task reads: a file path or a :class:`RecordSource`."""


@dataclass(slots=True)
class UnitRows:
    """One unit read and replayed: its rows as Arrow tables, and counts."""

    name: str
    error: str | None = None
    games: int = 0
    invalid: int = 0
    skipped_invalid: int = 0
    duplicates: int = 0
    stray_syntax: int = 0
    game_ids: list[str] = field(default_factory=list)
    invalid_ids: set[str] = field(default_factory=set)
    tables: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class LoadSummary:
    """What a load did."""

    files: int = 0
    games_read: int = 0
    loaded: int = 0
    replaced: int = 0
    already_stored: int = 0
    duplicates: int = 0
    invalid_loaded: int = 0
    skipped_invalid: int = 0
    stray_syntax: int = 0
    rows: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        """The summary as a JSON object."""
        return {
            "files": self.files, "games_read": self.games_read, "loaded": self.loaded,
            "replaced": self.replaced, "already_stored": self.already_stored,
            "duplicates": self.duplicates, "invalid_loaded": self.invalid_loaded,
            "skipped_invalid": self.skipped_invalid, "rows": dict(self.rows),
        }


def _syntax_by_game(source: SourceFile) -> tuple[dict[int, list[Problem]], int]:
    """Syntax diagnostics of a file, given to the game they belong to (by
    ``game_of_diagnostic`` where the reader fills it, else by the games' line
    spans); the count of those belonging to no game."""
    out: dict[int, list[Problem]] = {}
    stray = 0
    owners = source.game_of_diagnostic
    for i, d in enumerate(source.diagnostics):
        if d is source.error:
            continue
        owner: int | None = owners[i] if len(owners) == len(source.diagnostics) else None
        if owner is None and d.line is not None:
            for index, game in enumerate(source.games):
                if game.span is not None and game.span[0] <= d.line <= game.span[1]:
                    owner = index
                    break
        if owner is None:
            stray += 1
            continue
        pos = Pos(d.line, d.column or 1) if d.line is not None else None
        out.setdefault(owner, []).append(Problem("syntax", f"{d.code}: {d.message}", pos=pos))
    return out, stray


def read_unit(unit: Unit, valid_only: bool = False) -> UnitRows:
    """Read and replay one file or :class:`RecordSource` into Arrow tables.

    Runs in worker processes: needs no database. Games repeated within the
    unit are kept once; with ``valid_only`` games with violations are left
    out (and counted)."""
    syntax: dict[int, list[Problem]] = {}
    syntax_lines: list[int] = []
    stray = 0
    if isinstance(unit, RecordSource):
        name, games, ordered = unit.name, unit.games, unit.ordered_bids
    else:
        source = load_source(unit)
        name = unit
        if source.error is not None:
            where = f":{source.error.line}" if source.error.line else ""
            return UnitRows(unit, error=f"{unit}{where}: {source.error.message}")
        games, ordered = source.games, source.ordered_bids
        syntax, stray = _syntax_by_game(source)
        syntax_lines = source.syntax_lines
    out = UnitRows(name, stray_syntax=stray)
    builder = TableBuilder()
    seen: set[str] = set()
    places: dict[str, tuple[int, int | None]] = {}
    for index, game in enumerate(games):
        out.games += 1
        gid = game_id(game)
        if gid in seen:
            out.duplicates += 1
            continue
        seen.add(gid)
        result = replay_game(game, index, None, ordered, syntax_lines)
        game_syntax = syntax.get(index, [])
        valid = result.valid and not game_syntax
        if not valid:
            out.invalid += 1
            if valid_only:
                out.skipped_invalid += 1
                continue
            out.invalid_ids.add(gid)
        builder.add_game(gid, result, name, game_syntax)
        out.game_ids.append(gid)
        places[gid] = (index, game.span[0] if game.span is not None else None)
    try:
        out.tables = builder.tables()
    except (OverflowError, pa.ArrowInvalid):
        out.error = _out_of_range(builder, name, places)
    return out


_INT32 = range(-(2**31), 2**31)


def _out_of_range(builder: TableBuilder, name: str, places: dict[str, tuple[int, int | None]]) -> str:
    """The message for a number too large for its column (the replay reads
    any integer; the database keeps 32 bits): the file, the game's first
    line and its position in the file, the column and the value."""
    for table, rows in builder.row_lists.items():
        for i, column in enumerate(TABLES[table]):
            if column.sql_type != "INTEGER":
                continue
            for row in rows:
                value = row[i]
                if isinstance(value, int) and value not in _INT32:
                    index, line = places.get(str(row[0]), (None, None))
                    where = f"{name}:{line}" if line is not None else name
                    game = f"game {index + 1}: " if index is not None else ""
                    return (f"{where}: {game}{table}.{column.name} = {value} is out of range "
                            f"(the database stores numbers from {_INT32.start} to {_INT32.stop - 1})")
    return f"{name}: a number is out of the range the database stores"


def _read_all(units: Sequence[Unit], jobs: int, valid_only: bool) -> Iterator[UnitRows]:
    """Every unit read, in the order given, by ``jobs`` processes."""
    if jobs <= 1 or len(units) <= 1:
        for unit in units:
            yield read_unit(unit, valid_only)
        return
    # spawn, not fork: the parent holds DuckDB's threads
    pool = ProcessPoolExecutor(max_workers=min(jobs, len(units)),
                               mp_context=multiprocessing.get_context("spawn"))
    try:
        yield from pool.map(read_unit, units, repeat(valid_only))
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


class _Writer:
    """Pending Arrow tables, inserted in batches inside the open transaction."""

    def __init__(self, con: duckdb.DuckDBPyConnection, flush_rows: int,
                 on_flush: Callable[[int], None] | None) -> None:
        self.con = con
        self.flush_rows = flush_rows
        self.on_flush = on_flush
        self.pending: dict[str, list[Any]] = {name: [] for name in GAME_TABLES}
        self.pending_rows = 0
        self.delete_ids: list[str] = []
        self.rows = dict.fromkeys(GAME_TABLES, 0)
        self.flushes = 0

    def add(self, tables: dict[str, Any]) -> None:
        for name, table in tables.items():
            if table.num_rows:
                self.pending[name].append(table)
                self.pending_rows += table.num_rows
        if self.pending_rows >= self.flush_rows:
            self.flush()

    def flush(self) -> None:
        con = self.con
        if self.delete_ids:
            ids = pa.table({"game_id": pa.array(self.delete_ids, type=pa.string())})
            con.register("_raspis_replace", ids)
            for name in GAME_TABLES:
                con.execute(f"DELETE FROM {name} WHERE game_id IN (SELECT game_id FROM _raspis_replace)")
            con.unregister("_raspis_replace")
            self.delete_ids = []
        for name, tables in self.pending.items():
            if not tables:
                continue
            batch = pa.concat_tables(tables) if len(tables) > 1 else tables[0]
            trace(f"insert {name}")
            con.register("_raspis_batch", batch)
            columns = ", ".join(f'"{c.name}"' for c in TABLES[name])
            con.execute(f"INSERT INTO {name} ({columns}) SELECT {columns} FROM _raspis_batch")
            con.unregister("_raspis_batch")
            self.rows[name] += batch.num_rows
            tables.clear()
        self.pending_rows = 0
        self.flushes += 1
        if self.on_flush is not None:
            self.on_flush(self.flushes)


_PLAYERS_SQL = """
INSERT INTO players
SELECT s.player, count(*), count(*) FILTER (WHERE s.winner), min(g.date), max(g.date)
FROM seats s JOIN games g USING (game_id)
GROUP BY s.player
ORDER BY s.player"""


def load_units(
    con: duckdb.DuckDBPyConnection,
    units: Sequence[Unit],
    *,
    jobs: int = 1,
    valid_only: bool = False,
    replace: bool = False,
    progress: Callable[[int, int, int], None] | None = None,
    flush_rows: int = FLUSH_ROWS,
    on_flush: Callable[[int], None] | None = None,
    db_name: str = "the database",
) -> LoadSummary:
    """Load files and record sources into an open database in one transaction.

    A game already stored (same :func:`~raspis_cli.store.rows.game_id`) is
    skipped, or deleted and stored again with ``replace``; a game given twice
    is stored once. Games with violations are stored with ``valid = false``
    unless ``valid_only``, which skips and counts them. ``progress(units
    done, units, games read)`` is called after each unit; ``on_flush(n)``
    after each batch insert (tests use it to fail half-way). Raises
    :class:`LoadError` for an unreadable file; on any exception (Ctrl-C
    included) the transaction is rolled back and the exception re-raised.
    """
    summary = LoadSummary(files=len(units))
    con.execute("BEGIN TRANSACTION")
    try:
        trace("schema")
        ensure_schema(con, db_name)
        stored = {row[0] for row in con.execute("SELECT game_id FROM games").fetchall()}
        seen: set[str] = set()
        writer = _Writer(con, flush_rows, on_flush)
        trace("parse")
        for done, rows in enumerate(_read_all(units, jobs, valid_only), start=1):
            trace(f"parsed {done}")
            if rows.error is not None:
                raise LoadError(rows.error)
            summary.games_read += rows.games
            summary.duplicates += rows.duplicates
            summary.skipped_invalid += rows.skipped_invalid
            summary.stray_syntax += rows.stray_syntax
            keep: list[str] = []
            for gid in rows.game_ids:
                if gid in seen:
                    summary.duplicates += 1
                elif gid in stored and not replace:
                    summary.already_stored += 1
                else:
                    if gid in stored:
                        writer.delete_ids.append(gid)
                        summary.replaced += 1
                    else:
                        summary.loaded += 1
                    keep.append(gid)
                    if gid in rows.invalid_ids:
                        summary.invalid_loaded += 1
                seen.add(gid)
            tables = rows.tables
            if len(keep) != len(rows.game_ids):
                wanted = pa.array(keep, type=pa.string())
                tables = {name: t.filter(pc.is_in(t["game_id"], value_set=wanted))
                          for name, t in tables.items()}
            writer.add(tables)
            if progress is not None:
                progress(done, len(units), summary.games_read)
        writer.flush()
        trace("players")
        con.execute("DELETE FROM players")
        con.execute(_PLAYERS_SQL)
        summary.rows = dict(writer.rows)
        trace("commit")
        con.execute("COMMIT")
        trace("committed")
    except BaseException:
        with contextlib.suppress(duckdb.Error):  # DuckDB may have aborted it already
            con.execute("ROLLBACK")
        raise
    return summary
