"""Opening a raspis database: where it is, and clear errors instead of tracebacks."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Final

import duckdb

from raspis_cli.store.errors import StoreError
from raspis_cli.store.location import DEFAULT_DB, default_db_path
from raspis_cli.store.schema import MIGRATE_2_TO_3, SCHEMA_VERSION, create_schema_sql
from raspis_cli.text.i18n import N_, _
from raspis_cli.text.messages import quoted

__all__ = [
    "DEFAULT_DB",
    "StoreError",
    "check_backslash",
    "check_catalogue",
    "check_schema",
    "default_db_path",
    "describe_error",
    "ensure_schema",
    "insert_arrow",
    "interruptible",
    "is_damage",
    "name_damage",
    "open_db",
    "restrict",
    "sandbox",
]

def insert_arrow(con: duckdb.DuckDBPyConnection, table: str, data: Any,
                 columns: Sequence[str]) -> None:
    """Insert the ``columns`` of a ``pyarrow.Table`` into ``table``, whose
    columns they are, in its order.

    Through a relation over the Arrow table, not ``register`` (a registered
    Arrow table stays alive until the transaction ends: DuckDB 2.0 keeps it,
    so a load of any size would hold every batch it inserted) nor a
    replacement scan of a Python variable (refused with external access off,
    as every connection raspis opens has it: :func:`open_db`)."""
    names = ", ".join(f'"{c}"' for c in columns)
    con.from_arrow(data).select(names).insert_into(table)


_CONFIG: Final[dict[str, str | bool | int | float | list[str]]] = {
    # never fetch code from the network because of what a file looks like
    # (DuckDB offers to download its SQLite reader for an SQLite file)
    "autoinstall_known_extensions": False,
}

_NO_SPILL: Final[dict[str, str | bool | int | float | list[str]]] = {
    # DuckDB lets a connection without external access still write into its
    # spill folder (DB.tmp): a sandboxed one has none, so it writes nowhere
    "temp_directory": "",
}

_SQLITE_MAGIC = b"SQLite format 3\x00"

LOCK_POLL = 0.25
"""Seconds between attempts to open a database another process holds."""


SANDBOX_SQL: Final = (
    # no file system and no network for anything the SQL asks for (COPY TO,
    # EXPORT DATABASE, INSTALL, ATTACH, read_csv('/etc/passwd') ...); the
    # database file itself stays readable (DuckDB refuses to turn it back on)
    "SET enable_external_access = false",
    # and no statement may change another setting (SET, RESET, PRAGMA are refused)
    "SET lock_configuration = true",
)


def sandbox(con: duckdb.DuckDBPyConnection) -> None:
    """Shut an open connection off from the file system and the network, for
    good: after this only the database's own tables can be read (or written,
    when it was opened for writing)."""
    for statement in SANDBOX_SQL:
        con.execute(statement)


def restrict(con: duckdb.DuckDBPyConnection, folders: Sequence[str] = ()) -> None:
    """External access off for an open connection: no file but the database
    (and its spill folder) and those under ``folders`` (what the command
    writes, e.g. ``export``'s Parquet folder; links are resolved, so none
    leads out), no network; settings may still change (load sets its memory
    limit)."""
    if folders:
        allowed = [os.path.join(os.path.realpath(folder), "") for folder in folders]
        con.execute("SET allowed_directories = $1", [allowed])
    con.execute(SANDBOX_SQL[0])


def open_db(path: str, read_only: bool = False, create: bool = False, wait: float = 0.0,
            on_wait: Callable[[str], None] | None = None,
            sandboxed: bool = False, folders: Sequence[str] = (),
            external: bool = False, refresh_views: bool = False) -> duckdb.DuckDBPyConnection:
    """Open a database file; raises :class:`StoreError` with a message a person
    can act on (missing file or folder, not a DuckDB file, damaged, locked by
    another process). ``create``: a missing file is created (its folder must
    exist and be writable).

    DuckDB lets one process write a database file (or several read it). When
    another process holds the file, ``wait`` seconds are spent retrying;
    ``on_wait(message)`` is called once, when the waiting starts.

    Every connection runs with external access off (:func:`restrict`): no
    file but the database itself and ``folders`` (what the command writes),
    no network. ``sandboxed``: not even a spill folder, and no setting may
    change (:func:`sandbox`); ``external``: files and network allowed (the
    user's own SQL under ``query --write``). The database's catalogue is
    checked before anything else runs (:func:`check_catalogue`;
    ``refresh_views``: the caller replaces raspis' views before reading them)."""
    target = Path(path)
    check_backslash(path)
    if target.is_dir():
        raise StoreError(_("{path} is a folder, not a database file").format(path=path))
    folder = target.parent
    if not target.exists():
        if not create:
            if folder.exists() and not folder.is_dir():
                raise StoreError(_("no database at {path}: {folder} is a file, not a folder").format(
                    path=path, folder=folder))
            raise StoreError(_("no database at {path} (load games first: raspis load FILE... --db "
                               "{path})").format(path=path))
        if not folder.exists():
            raise StoreError(_("cannot create {path}: the folder {folder} does not exist").format(
                path=path, folder=folder))
        if not folder.is_dir():
            raise StoreError(_("cannot create {path}: {folder} is a file, not a folder").format(
                path=path, folder=folder))
    if not read_only and folder.is_dir() and not os.access(folder, os.W_OK | os.X_OK):
        raise StoreError(_("cannot write to {path}: the folder {folder} is read-only (DuckDB writes "
                           "{name}.wal next to the database)").format(
            path=path, folder=folder, name=target.name))
    if target.is_file():
        _check_header(path)
    deadline = time.monotonic() + max(wait, 0.0)
    waiting = False
    while True:
        try:
            con = duckdb.connect(path, read_only=read_only,
                                 config={**_CONFIG, **(_NO_SPILL if sandboxed else {})})
        except duckdb.Error as e:
            if not _is_lock_error(e):
                raise StoreError(_explain(path, e)) from None
            if time.monotonic() >= deadline:
                raise StoreError(_locked_message(path, e, wait if waiting else 0.0)) from None
            if not waiting and on_wait is not None:
                on_wait(f"{path} is in use by another process{_holder(e)}; "
                        f"waiting up to {wait:g} s for it to finish")
            waiting = True
            time.sleep(min(LOCK_POLL, max(deadline - time.monotonic(), 0.0)))
            continue  # try again
        except OSError as e:
            raise StoreError(_("cannot open {path}: {reason}").format(
                path=path, reason=e.strerror or e)) from None
        try:
            if sandboxed:
                sandbox(con)
            elif not external:
                restrict(con, folders)
            check_catalogue(con, path, refresh_views)
        except BaseException:
            con.close()
            raise
        return con


_OBJECTS_SQL: Final = {
    # catalogue functions qualified: a table macro of the file's own could be named like them
    N_("SQL macros"): "SELECT DISTINCT function_name FROM system.main.duckdb_functions() "
                      "WHERE NOT internal AND database_name = current_database()",
    N_("types"): "SELECT type_name FROM system.main.duckdb_types() "
                 "WHERE NOT internal AND database_name = current_database()",
    N_("sequences"): "SELECT sequence_name FROM system.main.duckdb_sequences() "
                     "WHERE database_name = current_database()",
    N_("schemas"): "SELECT schema_name FROM system.main.duckdb_schemas() "
                   "WHERE NOT internal AND database_name = current_database()",
}
"""Objects raspis never creates, each kind with the SQL that lists them."""


def _catalogue(con: duckdb.DuckDBPyConnection, sql: str) -> list[str]:
    return sorted(str(row[0]) for row in con.execute(sql).fetchall())


def check_catalogue(con: duckdb.DuckDBPyConnection, path: str, refresh_views: bool = False) -> None:
    """Refuse a database whose catalogue holds what raspis did not create
    (a file someone sent you): a macro (it could be named ``max`` and read
    a file wherever raspis' SQL calls ``max``), a type, a sequence, a
    schema; in a raspis database also a table or view of another name, a
    view where raspis keeps a table, and a ``plays`` view that is not the one
    raspis writes (raspis' own reports read it). ``refresh_views``: the
    caller (``load``) replaces the views before reading them, so only their
    names are checked. A database without ``raspis_meta`` is left to
    :func:`ensure_schema` and :func:`check_schema` to refuse."""
    from raspis_cli.store.schema import known_objects, plays_view_sql

    try:
        for kind, sql in _OBJECTS_SQL.items():
            names = _catalogue(con, sql)
            if names:
                raise StoreError(_refusal(path, _(kind), names))
        objects = {str(name): str(kind) for name, kind in con.execute(
            "SELECT table_name, table_type FROM system.information_schema.tables "
            "WHERE table_catalog = current_database()").fetchall()}
        if "raspis_meta" not in objects:
            return
        tables, views = known_objects()
        strange = sorted(name for name, kind in objects.items()
                         if name not in (tables if kind == "BASE TABLE" else views))
        if strange:
            raise StoreError(_refusal(path, _("tables or views"), strange))
        if objects.get("plays") == "VIEW" and not refresh_views:
            row = con.execute("SELECT sql FROM system.main.duckdb_views() WHERE view_name = 'plays' "
                              "AND database_name = current_database()").fetchone()
            if row is None or " ".join(str(row[0]).split()) != plays_view_sql():
                raise StoreError(_refusal(path, _("tables or views"), ["plays"]))
    except duckdb.Error as e:
        raise StoreError(describe_error(path, e)) from None


def _refusal(path: str, kind: str, names: Sequence[str]) -> str:
    shown = ", ".join(names[:5]) + (", …" if len(names) > 5 else "")
    return _("{path} holds {kind} raspis did not create ({names}): refused, as its SQL could read "
             "your files or change raspis' answers (a database someone sent you? load its games' "
             "records into a new database instead)").format(path=path, kind=kind, names=shown)


@contextlib.contextmanager
def interruptible(con: duckdb.DuckDBPyConnection) -> Iterator[None]:
    """Ctrl-C stops the connection's running statement at once (DuckDB's
    interrupt), raising :class:`KeyboardInterrupt`.

    Python runs its own SIGINT handler only between bytecodes, so during a
    long ``execute`` it would wait for DuckDB; the signal's byte, written to
    a wakeup socket by the C-level handler, is watched by a thread that
    calls ``con.interrupt()``. Outside the main thread this does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    reader, writer = socket.socketpair()
    writer.setblocking(False)
    try:
        previous = signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
    except ValueError:  # not the main interpreter
        reader.close()
        writer.close()
        yield
        return
    done = threading.Event()
    interrupted = threading.Event()

    def watch() -> None:
        while not done.is_set():
            try:
                data = reader.recv(64)
            except OSError:
                return
            if not data:
                return
            if signal.SIGINT in data and not done.is_set():
                interrupted.set()
                con.interrupt()

    watcher = threading.Thread(target=watch, name="raspis-interrupt", daemon=True)
    watcher.start()
    try:
        yield
    except (duckdb.Error, RuntimeError) as e:
        # DuckDB says so in several ways (InterruptException, a RuntimeError from a fetch)
        # (the watcher may not have marked it yet when DuckDB already says so: a busy machine)
        if (interrupted.is_set() or isinstance(e, duckdb.InterruptException)
                or str(e).strip().lower() == "query interrupted"):
            raise KeyboardInterrupt from None
        raise
    finally:
        done.set()
        signal.set_wakeup_fd(previous)
        with contextlib.suppress(OSError):
            writer.send(b"\0")  # wakes the watcher
        watcher.join(1.0)
        reader.close()
        writer.close()


def check_backslash(path: str) -> None:
    """DuckDB reads a backslash in a path as a folder separator, also where
    it is a character of a name (POSIX): refuse such a path plainly rather
    than fail on a folder that does not exist."""
    if os.sep == "/" and "\\" in path:
        raise StoreError(_("{path}: DuckDB cannot use a path with a backslash in it (it reads it as a "
                           "folder separator); choose another name").format(
            path=path))


def _check_header(path: str) -> None:
    """Refuse files that are plainly not DuckDB databases before DuckDB sees
    them (an SQLite file would make DuckDB reach for its SQLite extension)."""
    try:
        with open(path, "rb") as f:
            head = f.read(len(_SQLITE_MAGIC))
    except OSError as e:
        raise StoreError(_("cannot open {path}: {reason}").format(
            path=path, reason=e.strerror or e)) from None
    if head == _SQLITE_MAGIC:
        raise StoreError(_("{path} is an SQLite database, not a DuckDB database").format(path=path))


def _is_lock_error(error: Exception) -> bool:
    return "could not set lock" in str(error).lower() or "conflicting lock" in str(error).lower()


def _holder(error: Exception) -> str:
    match = re.search(r"\(PID (\d+)\)", str(error))
    return f" (PID {match.group(1)})" if match else ""


def _locked_message(path: str, error: Exception, waited: float) -> str:
    after = f" after waiting {waited:g} s" if waited > 0 else ""
    return (f"{path} is locked: another process{_holder(error)} has it open{after} "
            "(DuckDB allows one writer, or several readers; try again when it finishes)")


def _explain(path: str, error: Exception) -> str:
    text = str(error)
    first = text.splitlines()[0] if text else type(error).__name__
    lowered = text.lower()
    if _is_lock_error(error):
        return _locked_message(path, error, 0.0)
    if "not a valid duckdb database" in lowered:
        size = _size(path)
        if size == 0:
            return (f"{path} is an empty file (0 bytes), not a DuckDB database "
                    "(remove it to start a new database)")
        return f"{path} is not a DuckDB database file"
    if is_damage(text):
        return f"{path} is damaged: {first}"
    if "version" in lowered and "storage" in lowered:
        return f"{path} was written by another DuckDB version: {first}"
    if "permission" in lowered:
        return f"cannot open {path}: permission denied"
    if "not a directory" in lowered:
        return f"cannot open {path}: a part of the path is a file, not a folder"
    if "read-only" in lowered:
        return f"cannot open {path}: {first}"
    return f"cannot open {path}: {first}"


def _size(path: str) -> int | None:
    try:
        return os.path.getsize(path)
    except OSError:
        return None


def is_damage(text: str) -> bool:
    """DuckDB's words for a database file whose bytes are wrong."""
    lowered = text.lower()
    return "corrupt" in lowered or "checksum" in lowered or "could not read enough bytes" in lowered


def describe_error(path: str, error: Exception) -> str:
    """A DuckDB error met while using an open database, as one line naming it."""
    text = str(error)
    first = text.splitlines()[0] if text else type(error).__name__
    if is_damage(text):
        return f"{path} is damaged: {first}"
    return f"{path}: {first}"


def name_damage(path: str, message: str) -> str:
    """A message about a damaged file made to name it (others unchanged:
    an SQL error is about the SQL, not the file)."""
    if is_damage(message) and path not in message.split(":")[0]:
        return f"{path} is damaged: {message.splitlines()[0]}"
    return message


def _stored_version(con: duckdb.DuckDBPyConnection, path: str) -> int | None:
    """The schema version recorded in ``raspis_meta`` (``None`` when none is)."""
    try:
        row = con.execute("SELECT value FROM raspis_meta WHERE key = 'schema_version'").fetchone()
    except duckdb.Error as e:
        raise StoreError(describe_error(path, e)) from None
    if row is None:
        return None
    try:
        return int(row[0])
    except (TypeError, ValueError):
        raise StoreError(_("{path} records a schema version raspis cannot read: {row}").format(
            path=path, row=quoted(row[0]))) from None


def _refuse_newer(version: int | None, path: str) -> None:
    if version is not None and version > SCHEMA_VERSION:
        raise StoreError(_("{path} was written by a newer raspis (schema version {version}; this raspis "
                           "reads versions up to {current}): upgrade raspis to use it").format(
            path=path, version=version, current=SCHEMA_VERSION))


def ensure_schema(con: duckdb.DuckDBPyConnection, path: str = "the database") -> None:
    """Create the tables and views if missing, or refresh them (views
    recreated, the version recorded), inside the caller's transaction;
    convert a version-2 database (its ``plays`` table to ``plays_int`` and
    the view: :data:`~raspis_cli.store.schema.MIGRATE_2_TO_3`); refuse a
    database of version 1, of a newer version, or not made by raspis."""
    try:
        existing = {row[0] for row in con.execute(
            "SELECT table_name FROM information_schema.tables").fetchall()}
    except duckdb.Error as e:
        raise StoreError(describe_error(path, e)) from None
    version: int | None = None
    if "raspis_meta" in existing:
        version = _stored_version(con, path)
        _refuse_newer(version, path)
        if version is not None and version < 2:
            # version 1 identified a game differently (issue 11): new games could not be
            # matched with the stored ones, so the file is read but not added to
            raise StoreError(_("{path} has schema version {version}; this raspis writes version {current} "
                               "(games are identified differently): its reports still work, but load new "
                               "games into a new file").format(path=path, version=version,
                                                               current=SCHEMA_VERSION))
    elif existing:
        raise StoreError(_("{path} is a DuckDB database, but not one raspis made (tables: {tables})").format(
            path=path, tables=', '.join(sorted(existing)[:5])))
    if version == 2 and "plays" in existing and not _is_view(con, "plays"):
        for statement in MIGRATE_2_TO_3:
            con.execute(statement)
    for statement in create_schema_sql():
        con.execute(statement)
    if version != SCHEMA_VERSION:
        con.execute("DELETE FROM raspis_meta WHERE key = 'schema_version'")
        con.execute("INSERT INTO raspis_meta VALUES ('schema_version', ?)", [str(SCHEMA_VERSION)])


def _is_view(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    row = con.execute("SELECT table_type FROM information_schema.tables WHERE table_name = $1",
                      [name]).fetchone()
    return row is not None and row[0] == "VIEW"


def check_schema(con: duckdb.DuckDBPyConnection, path: str) -> None:
    """For reading commands: the database must have been made by raspis, of
    this schema version or an older one (the reports do not rely on the
    views it stores: see :func:`raspis_cli.store.stats.report_sql`)."""
    try:
        tables = {row[0] for row in con.execute(
            "SELECT table_name FROM information_schema.tables").fetchall()}
    except duckdb.Error as e:
        raise StoreError(describe_error(path, e)) from None
    if "raspis_meta" not in tables or "games" not in tables:
        raise StoreError(_("{path} holds no raspis game history (load games first: raspis load "
                           "FILE...)").format(
            path=path))
    _refuse_newer(_stored_version(con, path), path)
