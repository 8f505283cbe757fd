"""``load``: record files into the database, in one transaction.

Files (or in-memory :class:`RecordSource` games) are read game by game
(:class:`~raspis_cli.files.sources.GameStream`) and replayed in batches of
:data:`BATCH_GAMES` games by :func:`iter_batches`, in this process or in
``jobs`` worker processes: a file is cut into pieces of whole games
(:func:`~raspis_cli.files.pieces.split_file`), each worker reads and replays only
its pieces, so one big file uses them all; each batch comes back as Arrow
tables, in file order, its games numbered from the start of the file. This
process is the only writer: it drops games already stored (or deletes them
first, with ``replace``), inserts the Arrow tables in batches, recomputes
``players`` and commits. Memory is bounded by
a batch and the pending insert, not by a file. Any exception, Ctrl-C
included, rolls everything back.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from raspis_cli.files.pieces import Piece, ShardError, shard_pieces, split_file
from raspis_cli.files.sources import GameStream, batch_gc
from raspis_cli.judge.check import SyntaxSplitter, check_game
from raspis_cli.model.diagnostics import Diagnostic
from raspis_cli.model.record import GameRecord
from raspis_cli.store.errors import StoreError
from raspis_cli.store.idset import IdMarks
from raspis_cli.store.rows import TableBuilder, game_id
from raspis_cli.store.schema import GAME_TABLES, stored_columns, stored_name
from raspis_cli.text.messages import message_of

if TYPE_CHECKING:
    import duckdb

# The worker processes import this module to read and replay: what only the
# writing parent needs (DuckDB, pyarrow.compute, the ratings) is imported in
# the functions that use it, so that a worker starts in a fraction of the time.

__all__ = [
    "BATCH_GAMES",
    "Batch",
    "LoadError",
    "LoadSummary",
    "LoadWorkers",
    "RecordSource",
    "UnitRows",
    "iter_batches",
    "load_units",
    "read_unit",
    "start_load_workers",
]

FLUSH_ROWS = 50_000
"""Insert once this many rows (of every table together) are pending."""

DUCKDB_MEMORY_LIMIT = "16MB"
"""DuckDB's memory while a load inserts and commits (its default is 80 % of
the machine's): the transaction's uncommitted rows beyond it go to the
database file (or its ``.tmp`` folder) instead of staying in memory, so a
load of any size fits in a bounded footprint. Restored when the load ends.
(At 100 MB a 1 GB file's load grew past 300 MB of RSS. DuckDB fills what it
is given as the rows grow: the RSS of 60,000 full-play games copied in one
transaction was 166 MB at 32 MB, 148 MB at 16 MB; the same CPU.)"""

DUCKDB_FINAL_SETTINGS: dict[str, object] = {"memory_limit": "32MB", "threads": 1}
"""DuckDB's settings for the players table and the ratings (queries over
every stored game: a join, a sort, a window); the commit runs at
:data:`DUCKDB_MEMORY_LIMIT` again. One thread: with two, each wants its
share of the memory and the players' join failed at 240,000 games at 32 MB
(at 64 MB with two threads they ran and the RSS grew with the games: 221 MB
at 120,000 sheet games). 32 MB, not 16 or 24: the rating order's window
needs more as the games grow (at 1,000,000 games it failed at 24 MB, ran at
32 MB). Restored when the load ends."""


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


BATCH_GAMES = 25
"""Games read, replayed and turned into Arrow tables together: memory is
bounded by a batch (and the pending insert), not by a file."""

QUEUE_BATCHES = 4
"""Batches a worker process may have ready before it waits for the parent:
twice a piece (:data:`PIECE_BATCHES`), so that a worker whose turn has not
come yet (the parent takes the pieces in file order) keeps working instead
of waiting (each batch is a few MB of Arrow)."""


@dataclass(slots=True)
class Batch:
    """Up to :data:`BATCH_GAMES` consecutive games of one unit, read and replayed.

    ``ids`` and ``invalid`` list every game read, in order (a game repeated in
    the batch included); ``tables`` hold the rows of each game's first
    occurrence in the batch (without games with violations under
    ``valid_only``). The last batch of a unit (``last``, possibly with no
    games) carries the unit's ``error`` and its syntax problems belonging to
    no game (``stray``)."""

    name: str
    ids: list[str] = field(default_factory=list)
    invalid: list[bool] = field(default_factory=list)
    tables: dict[str, Any] = field(default_factory=dict)
    last: bool = False
    error: str | None = None
    stray: int = 0
    ipc: dict[str, Any] = field(default_factory=dict)
    """In a worker: ``tables`` as Arrow IPC streams (:func:`_pack`), which
    cross to the parent as a few buffers instead of many pickled arrays."""
    piece: int = 0
    """The piece of the file it was read from (:func:`~raspis_cli.files.pieces.split_file`;
    0 when the file was read whole). ``last`` is then the piece's last batch,
    and ``final`` the file's."""
    final: bool = True
    games_in_piece: int = 0
    """On the piece's last batch: the games read in the whole piece."""
    numbered: bool = False
    """Its games are already numbered from the start of the file (a shard's
    piece, which knows the games before it: :attr:`Piece.games_before`)."""


def _replay_batch(batch: Batch, games: list[GameRecord], first_index: int,
                  syntax: list[list[Diagnostic]], ordered: bool, valid_only: bool) -> None:
    """Game ids, replays and rows of ``games`` (the games of the file, or of
    the batch's piece of it, from ``first_index``) into ``batch``."""
    name = batch.name
    builder = TableBuilder()
    seen: set[str] = set()
    places: dict[str, tuple[int, int | None]] = {}
    for offset, game in enumerate(games):
        index = first_index + offset
        gid = game_id(game)
        batch.ids.append(gid)
        if gid in seen:
            batch.invalid.append(False)  # the parent counts it a duplicate
            continue
        seen.add(gid)
        result = check_game(game, index, None, ordered, syntax[offset])
        batch.invalid.append(not result.valid)
        if not result.valid and valid_only:
            continue
        builder.add_game(gid, result, name)
        places[gid] = (index, game.span[0] if game.span is not None else None)
    try:
        batch.tables = builder.tables()
    except (OverflowError, pa.ArrowInvalid):
        batch.error = _out_of_range(builder, name, places, numbered=batch.piece == 0 or batch.numbered)


def iter_batches(unit: Unit, valid_only: bool = False, batch_games: int = BATCH_GAMES,
                 owned: Callable[[int], bool] | None = None,
                 piece: Piece | None = None) -> Iterator[Batch | None]:
    """The batches of one unit (or of one ``piece`` of a file), read game by
    game (:class:`GameStream`).

    Yields one item per batch, in order: the :class:`Batch`, or ``None`` for
    a batch ``n`` (counting from 0) with ``owned(n)`` false, which is read
    (its games are needed to know where batches and syntax problems fall)
    but not replayed. Games are numbered from the start of the piece. Runs
    in worker processes: needs no database."""
    if isinstance(unit, RecordSource):
        name: str = unit.name
        games: Iterable[GameRecord] = unit.games
        ordered = unit.ordered_bids
        stream: GameStream | None = None
        syntax = SyntaxSplitter([])
    else:
        name = unit
        stream = GameStream(unit, piece=piece)
        games = stream
        ordered = True
        syntax = SyntaxSplitter(stream.diagnostics)
    number = 0
    index = 0
    counted = piece is not None and piece.games_before is not None
    start = piece.games_before if piece is not None and piece.games_before is not None else 0
    mine = owned is None or owned(0)
    held: list[GameRecord] = []
    held_syntax: list[list[Diagnostic]] = []
    for game in games:
        problems = syntax.of_game(game)
        if stream is not None and game.span is not None:
            stream.forget_through(game.span[1])  # load shows no source line: keep none
        if mine:
            held.append(game)
            held_syntax.append(problems)
        index += 1
        if index % batch_games == 0:
            if stream is not None:
                ordered = stream.ordered_bids
            batch = None
            if mine:
                batch = Batch(name, piece=piece.number if piece is not None else 0, numbered=counted)
                _replay_batch(batch, held, start + index - len(held), held_syntax, ordered, valid_only)
            yield batch
            held, held_syntax = [], []
            number += 1
            mine = owned is None or owned(number)
    stray = len(syntax.finish())
    if not mine:
        yield None
        return
    if stream is not None:
        ordered = stream.ordered_bids
    batch = Batch(name, last=True, stray=stray, piece=piece.number if piece is not None else 0,
                  final=piece is None or piece.final, games_in_piece=index, numbered=counted)
    if stream is not None and stream.error is not None:
        error = stream.error
        where = f":{error.line}" if error.line else ""
        batch.error = f"{unit}{where}: {error.message}"
    else:
        _replay_batch(batch, held, start + index - len(held), held_syntax, ordered, valid_only)
    yield batch


def read_unit(unit: Unit, valid_only: bool = False) -> UnitRows:
    """Read and replay one file or :class:`RecordSource` into Arrow tables
    (all its batches together: for tools and tests; ``load`` streams).

    Games repeated within the unit are kept once; with ``valid_only`` games
    with violations are left out (and counted)."""
    name = unit.name if isinstance(unit, RecordSource) else unit
    out = UnitRows(name)
    seen: set[str] = set()
    parts: dict[str, list[Any]] = {table: [] for table in GAME_TABLES}
    for batch in iter_batches(unit, valid_only):
        assert batch is not None
        if batch.error is not None:
            return UnitRows(name, error=batch.error)
        out.stray_syntax += batch.stray
        keep: list[str] = []
        for gid, invalid in zip(batch.ids, batch.invalid, strict=True):
            out.games += 1
            if gid in seen:
                out.duplicates += 1
                continue
            seen.add(gid)
            if invalid:
                out.invalid += 1
                if valid_only:
                    out.skipped_invalid += 1
                    continue
                out.invalid_ids.add(gid)
            keep.append(gid)
        out.game_ids += keep
        for table, rows in _only(batch, keep).items():
            parts[table].append(rows)
    out.tables = {table: pa.concat_tables(tables) for table, tables in parts.items()}
    return out


def _only(batch: Batch, keep: list[str]) -> dict[str, Any]:
    """The batch's tables with the rows of the games ``keep`` only."""
    if len(keep) == len(batch.ids):
        return batch.tables
    import pyarrow.compute as pc

    wanted = pa.array(keep, type=pa.string())
    return {name: t.filter(pc.is_in(t["game_id"], value_set=wanted)) for name, t in batch.tables.items()}


_INT32 = range(-(2**31), 2**31)


def _out_of_range(builder: TableBuilder, name: str, places: dict[str, tuple[int, int | None]],
                  numbered: bool = True) -> str:
    """The message for a number too large for its column (the replay reads
    any integer; the database keeps 32 bits): the file, the game's first
    line and (when ``numbered``: the games were counted from the start of
    the file) its position in the file, the column and the value."""
    for table, rows in builder.row_lists.items():
        for i, column in enumerate(stored_columns(table)):
            if column.sql_type != "INTEGER":
                continue
            for row in rows:
                value = row[i]
                if isinstance(value, int) and value not in _INT32:
                    index, line = places.get(str(row[0]), (None, None))
                    where = f"{name}:{line}" if line is not None else name
                    game = f"game {index + 1}: " if index is not None and numbered else ""
                    return (f"{where}: {game}{table}.{column.name} = {value} is out of range "
                            f"(the database stores numbers from {_INT32.start} to {_INT32.stop - 1})")
    return f"{name}: a number is out of the range the database stores"


Task = tuple[Unit, Piece | None]
"""What a worker reads: a unit, or a piece of a file."""


def _tasks(units: Sequence[Unit], batch_games: int, jobs: int) -> list[Task]:
    """The units cut for ``jobs`` workers: a file of more than a few batches
    into pieces of whole games (:func:`~raspis_cli.files.pieces.split_file`), so
    each worker reads and replays only its pieces."""
    tasks: list[Task] = []
    for unit in units:
        if isinstance(unit, RecordSource) or unit == "-":
            tasks.append((unit, None))
            continue
        pieces = split_file(unit, PIECE_BATCHES * batch_games)
        tasks += [(unit, piece) for piece in pieces] if len(pieces) > 1 else [(unit, None)]
    return tasks


PIECE_BATCHES = 2
"""Batches in a piece of a file cut for workers: small, so that the workers
take turns often (the parent inserts in file order) and end together; a
worker starts reading its piece at the piece's first byte, so a piece costs
little more than its games."""


def _pack(batch: Batch) -> Batch:
    """A worker's batch made ready to cross to the parent: each table as one
    Arrow IPC stream (the parent reads it back without copying: :func:`_unpack`)."""
    for name, table in batch.tables.items():
        sink = pa.BufferOutputStream()
        with pa.ipc.new_stream(sink, table.schema) as writer:
            writer.write_table(table)
        batch.ipc[name] = sink.getvalue()
    batch.tables = {}
    return batch


def _unpack(batch: Batch) -> Batch:
    """The batch's tables read back from their IPC streams (:func:`_pack`)."""
    if batch.ipc:
        batch.tables = {name: pa.ipc.open_stream(data).read_all() for name, data in batch.ipc.items()}
        batch.ipc = {}
    return batch


def _worker(tasks_queue: Any, share: int, shares: int, valid_only: bool, batch_games: int,
            queue: Any, parent: int) -> None:
    """A worker process: the tasks come on ``tasks_queue`` (the parent cuts
    the files while the workers start); every ``shares``-th task, from
    ``share``, its batches put on ``queue`` (a failure as a ``str``: its
    traceback)."""
    import queue as queues
    import traceback

    batch_gc()

    def put(item: Batch | str) -> bool:
        while True:
            try:
                queue.put(item, timeout=1.0)
                return True
            except queues.Full:
                if os.getppid() != parent:  # the parent is gone
                    return False

    try:
        while True:
            try:
                tasks: Sequence[Task] = tasks_queue.get(timeout=1.0)
                break
            except queues.Empty:
                if os.getppid() != parent:
                    return
        for number, (unit, piece) in enumerate(tasks):
            if number % shares != share:
                continue
            for batch in iter_batches(unit, valid_only, batch_games, piece=piece):
                if batch is not None and not put(_pack(batch)):
                    return
    except BaseException:
        put(traceback.format_exc())


class LoadWorkers:
    """``jobs`` worker processes that read and replay for one load, started
    at once (:func:`start_load_workers`); :meth:`give` hands them their tasks
    and :meth:`batches` yields what they read, in file order."""

    def __init__(self, jobs: int, valid_only: bool, batch_games: int, method: str = "spawn") -> None:
        self.jobs = jobs
        self.batch_games = batch_games
        self.tasks: list[Task] | None = None
        context: Any = multiprocessing.get_context(method)
        self.closed = False
        self.tasks_queues = [context.Queue() for _ in range(jobs)]
        self.queues = [context.Queue(maxsize=QUEUE_BATCHES) for _ in range(jobs)]
        self.workers = [context.Process(target=_worker, daemon=True,
                                        args=(self.tasks_queues[share], share, jobs, valid_only,
                                              batch_games, self.queues[share], os.getpid()))
                        for share in range(jobs)]
        try:
            for worker in self.workers:
                worker.start()
        except BaseException:
            self.close()
            raise

    def give(self, units: Sequence[Unit], shard: list[Task] | None = None) -> None:
        """Cut the files into pieces of whole games (:func:`_tasks`), or take
        ``shard``'s pieces, and hand them to the workers (once)."""
        if self.tasks is not None:
            return
        self.tasks = shard if shard is not None else _tasks(units, self.batch_games, self.jobs)
        for q in self.tasks_queues:
            q.put(self.tasks)

    def batches(self) -> Iterator[Batch]:
        """The batches of the tasks given (:meth:`give`), in order: each
        worker reads and replays its pieces only, and the batches come back
        in file order, with the games numbered from the start of their file:
        the result is that of one process."""
        tasks = self.tasks
        assert tasks is not None, "give() the workers their tasks first"
        games_before = 0  # games of the current file in the pieces before
        for number in range(len(tasks)):
            share = number % self.jobs
            while True:
                item = _get(self.queues[share], self.workers[share])
                if isinstance(item, str):
                    raise RuntimeError(f"a load worker failed:\n{item}")
                _unpack(item)
                if item.piece and not item.numbered:
                    _renumber(item, games_before)
                if item.last:
                    games_before = 0 if item.final else games_before + item.games_in_piece
                yield item
                if item.last:
                    break

    def close(self) -> None:
        """Stop the workers (those still running) and close the queues
        (again: nothing)."""
        if self.closed:
            return
        self.closed = True
        for worker in self.workers:
            if worker.is_alive():
                worker.terminate()
        for worker in self.workers:
            if worker.pid is not None:
                worker.join()
        for q in (*self.queues, *self.tasks_queues):
            q.cancel_join_thread()
            q.close()


def start_load_workers(jobs: int, valid_only: bool = False,
                       batch_games: int = BATCH_GAMES) -> LoadWorkers:
    """Start the ``jobs`` worker processes of a load now, for
    :func:`load_units` (``workers=``), which then owns and stops them. Call
    it before this process opens any DuckDB connection (DuckDB's threads):
    on Linux the workers are then forked, with what this process has
    imported already, instead of started afresh (a spawned worker spends
    about half a second importing before it reads a game)."""
    fork = sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()
    return LoadWorkers(jobs, valid_only, batch_games, "fork" if fork else "spawn")


def _read_all(units: Sequence[Unit], valid_only: bool, batch_games: int = BATCH_GAMES,
              workers: LoadWorkers | None = None, shard: list[Task] | None = None) -> Iterator[Batch]:
    """The batches of every unit, in order: read here, or by ``workers``
    (given their tasks). With ``shard`` (the pieces of one shard:
    :func:`~raspis_cli.files.pieces.shard_pieces`) only those are read, their
    games numbered from the start of their file."""
    if workers is not None:
        yield from workers.batches()
        return
    tasks: Iterable[Task] = shard if shard is not None else ((unit, None) for unit in units)
    for unit, piece in tasks:
        for batch in iter_batches(unit, valid_only, batch_games, piece=piece):
            assert batch is not None
            yield batch


def _renumber(batch: Batch, offset: int) -> None:
    """Number the games of a batch of a later piece from the start of the file."""
    games = batch.tables.get("games")
    if games is None or not offset or games.num_rows == 0:
        return
    at = games.schema.get_field_index("game_index")
    index_field = games.schema.field(at)
    # a batch's few games: in Python, without importing pyarrow.compute (half a second)
    column = pa.array([None if index is None else index + offset for index in games.column(at).to_pylist()],
                      type=index_field.type)
    batch.tables["games"] = games.set_column(at, index_field, column)


def _get(queue: Any, worker: Any) -> Batch | str:
    """The next item a worker put, or :class:`BrokenProcessPool` if it died."""
    import queue as queues

    while True:
        try:
            item: Batch | str = queue.get(timeout=0.5)
            return item
        except queues.Empty:
            if not worker.is_alive() and queue.empty():
                raise BrokenProcessPool(f"a load worker died (exit code {worker.exitcode})") from None


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
        from raspis_cli.store.db import insert_arrow

        con = self.con
        if self.delete_ids:
            for name in GAME_TABLES:
                con.execute(f"DELETE FROM {stored_name(name)} "
                            "WHERE game_id IN (SELECT unnest($1::VARCHAR[]))",
                            [self.delete_ids])
            self.delete_ids = []
        for name, tables in self.pending.items():
            if not tables:
                continue
            batch = pa.concat_tables(tables) if len(tables) > 1 else tables[0]
            trace(f"insert {name}")
            insert_arrow(con, stored_name(name), batch, [c.name for c in stored_columns(name)])
            self.rows[name] += batch.num_rows
            tables.clear()
            del batch
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


# A game id's mark in :class:`IdMarks` during a load: stored before the load,
# stored (or to be) by this load, and the number (from 1) of the last file it
# was read in, so that one table does the work of three sets.
_STORED = 1
_SEEN = 2
_UNIT_SHIFT = 2
_UNIT_MASK = ~((1 << _UNIT_SHIFT) - 1)

STORED_FETCH = 10_000
"""Game ids of the database read at a time when a load starts."""


def _stored_ids(con: duckdb.DuckDBPyConnection) -> IdMarks:
    """The ids of the games stored before the load, marked :data:`_STORED`
    (read :data:`STORED_FETCH` at a time: a list of every id of a large
    database would be ~130 bytes a game)."""
    ids = IdMarks()
    result = con.execute("SELECT game_id FROM games")
    while rows := result.fetchmany(STORED_FETCH):
        for (gid,) in rows:
            ids.put(gid, _STORED)
    return ids


def load_units(
    con: duckdb.DuckDBPyConnection,
    units: Sequence[Unit],
    *,
    jobs: int = 1,
    valid_only: bool = False,
    replace: bool = False,
    progress: Callable[[int, int, int], None] | None = None,
    flush_rows: int = FLUSH_ROWS,
    batch_games: int = BATCH_GAMES,
    on_flush: Callable[[int], None] | None = None,
    db_name: str = "the database",
    shard: tuple[int, int] | None = None,
    workers: LoadWorkers | None = None,
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

    With ``shard`` ``(i, n)`` (0-based) only the pieces of the files that
    shard ``i`` of ``n`` reads are loaded
    (:func:`~raspis_cli.files.pieces.shard_pieces`), their games numbered from
    the start of their file: ``n`` such loads, into ``n`` databases, store
    together what one load stores (a game repeated in pieces of different
    shards is stored by each of them).

    With ``jobs`` > 1 the files are read and replayed by worker processes
    (``workers``, from :func:`start_load_workers`, or started here); the
    load stops them when it ends.
    """
    import duckdb

    saved: dict[str, Any] = {}  # DuckDB's settings to restore
    try:
        pieces: list[Task] | None = None
        if shard is not None:
            if any(isinstance(unit, RecordSource) for unit in units):
                raise LoadError("games in memory cannot be cut into shards")
            try:
                pieces = [(path, piece) for path, piece in
                          shard_pieces([str(unit) for unit in units], *shard)]
            except ShardError as e:
                raise LoadError(message_of(e)) from None
        summary = LoadSummary(files=len(units) if pieces is None else
                              sum(1 for _, piece in pieces if piece is not None and piece.final))
        batch_gc()
        if workers is None and jobs > 1 and not any(unit == "-" for unit in units):
            # spawn, not fork: this process holds DuckDB's threads
            workers = LoadWorkers(jobs, valid_only, batch_games)
        if workers is not None:
            workers.give(units, pieces)
        for name in dict.fromkeys(("memory_limit", *DUCKDB_FINAL_SETTINGS)):  # each once
            row = con.execute(f"SELECT current_setting('{name}')").fetchone()
            saved[name] = row[0] if row else None
        con.execute(f"SET memory_limit = '{DUCKDB_MEMORY_LIMIT}'")
        return _load(con, units, summary, workers, valid_only, replace, progress, flush_rows,
                     batch_games, on_flush, db_name, pieces)
    finally:
        if workers is not None:
            workers.close()
        for name, value in saved.items():
            with contextlib.suppress(duckdb.Error):
                con.execute(f"RESET {name}")
                now = con.execute(f"SELECT current_setting('{name}')").fetchone()
                if value is not None and (now is None or now[0] != value):
                    con.execute(f"SET {name} = $1", [value])


def _load(con: duckdb.DuckDBPyConnection, units: Sequence[Unit], summary: LoadSummary,
          workers: LoadWorkers | None, valid_only: bool, replace: bool,
          progress: Callable[[int, int, int], None] | None, flush_rows: int, batch_games: int,
          on_flush: Callable[[int], None] | None, db_name: str,
          pieces: list[Task] | None = None) -> LoadSummary:
    import duckdb

    from raspis_cli.store.db import ensure_schema
    from raspis_cli.store.ratings import refresh_rating_tables

    con.execute("BEGIN TRANSACTION")
    try:
        trace("schema")
        ensure_schema(con, db_name)
        ids = _stored_ids(con)
        writer = _Writer(con, flush_rows, on_flush)
        trace("parse")
        done = 0
        unit = 1 << _UNIT_SHIFT  # the current file's number, as it is in a mark
        for batch in _read_all(units, valid_only, batch_games, workers, pieces):
            if batch.error is not None:
                raise LoadError(batch.error)
            summary.games_read += len(batch.ids)
            summary.stray_syntax += batch.stray
            keep: list[str] = []
            for gid, invalid in zip(batch.ids, batch.invalid, strict=True):
                mark = ids.get(gid, 0)
                if mark & _UNIT_MASK == unit:  # given before in this file
                    summary.duplicates += 1
                    continue
                mark = (mark & ~_UNIT_MASK) | unit
                if invalid and valid_only:
                    summary.skipped_invalid += 1
                    ids.put(gid, mark)
                    continue
                if mark & _SEEN:  # in an earlier file
                    summary.duplicates += 1
                elif mark & _STORED and not replace:
                    summary.already_stored += 1
                else:
                    if mark & _STORED:
                        writer.delete_ids.append(gid)
                        summary.replaced += 1
                    else:
                        summary.loaded += 1
                    keep.append(gid)
                    if invalid:
                        summary.invalid_loaded += 1
                ids.put(gid, mark | _SEEN)
            writer.add(_only(batch, keep))
            if batch.last and batch.final:
                done += 1
                unit += 1 << _UNIT_SHIFT
                trace(f"parsed {done}")
            if progress is not None:
                progress(done, summary.files, summary.games_read)
        writer.flush()
        for name, value in DUCKDB_FINAL_SETTINGS.items():
            con.execute(f"SET {name} = $1", [value])
        trace("players")
        con.execute("DELETE FROM players")
        con.execute(_PLAYERS_SQL)
        trace("ratings")
        refresh_rating_tables(con)
        summary.rows = dict(writer.rows)
        con.execute(f"SET memory_limit = '{DUCKDB_MEMORY_LIMIT}'")
        trace("commit")
        con.execute("COMMIT")
        trace("committed")
    except BaseException:
        with contextlib.suppress(duckdb.Error):  # DuckDB may have aborted it already
            con.execute("ROLLBACK")
        raise
    # The load is committed. Write it into the database file now, under the
    # load's memory limit: left to the connection's close, the checkpoint ran
    # at DuckDB's default limit (the RSS rose from 166 to 223 MB there at
    # 60,000 sheet games). If it cannot, the close (or the next open) does it.
    with contextlib.suppress(duckdb.Error, KeyboardInterrupt):
        con.execute("CHECKPOINT")
    return summary
