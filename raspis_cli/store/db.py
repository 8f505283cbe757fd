"""Opening a raspis database: where it is, and clear errors instead of tracebacks."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

import duckdb

from raspis_cli.store.errors import StoreError
from raspis_cli.store.location import DEFAULT_DB, default_db_path
from raspis_cli.store.schema import MIGRATE_2_TO_3, SCHEMA_VERSION, create_schema_sql
from raspis_cli.text.i18n import _

__all__ = [
    "DEFAULT_DB",
    "StoreError",
    "check_backslash",
    "check_schema",
    "default_db_path",
    "describe_error",
    "ensure_schema",
    "insert_arrow",
    "is_damage",
    "name_damage",
    "open_db",
    "sandbox",
]

def insert_arrow(con: duckdb.DuckDBPyConnection, table: str, data: Any,
                 columns: Sequence[str]) -> None:
    """Insert the ``columns`` of a ``pyarrow.Table`` into ``table``.

    Read by DuckDB's replacement scan of this function's local variable
    ``_raspis_arrow``, not through ``register``: a registered Arrow table
    stays alive until the transaction ends (DuckDB 2.0 keeps it), so a load of
    any size would hold every batch it inserted; a scanned one goes at once."""
    _raspis_arrow = data  # DuckDB finds it by name
    names = ", ".join(f'"{c}"' for c in columns)
    con.execute(f"INSERT INTO {table} ({names}) SELECT {names} FROM _raspis_arrow")


_CONFIG: Final[dict[str, str | bool | int | float | list[str]]] = {
    # never fetch code from the network because of what a file looks like
    # (DuckDB offers to download its SQLite reader for an SQLite file)
    "autoinstall_known_extensions": False,
}

_SQLITE_MAGIC = b"SQLite format 3\x00"

LOCK_POLL = 0.25
"""Seconds between attempts to open a database another process holds."""


SANDBOX_SQL: Final = (
    # no file system and no network for anything the SQL asks for (COPY TO,
    # EXPORT DATABASE, INSTALL, ATTACH, read_csv('/etc/passwd') ...); the
    # database file itself stays readable
    "SET enable_external_access = false",
    # and no statement may undo that (SET, RESET, PRAGMA are refused)
    "SET lock_configuration = true",
)


def sandbox(con: duckdb.DuckDBPyConnection) -> None:
    """Shut an open connection off from the file system and the network, for
    good: after this only the database's own tables can be read (or written,
    when it was opened for writing)."""
    for statement in SANDBOX_SQL:
        con.execute(statement)


def open_db(path: str, read_only: bool = False, create: bool = False, wait: float = 0.0,
            on_wait: Callable[[str], None] | None = None,
            sandboxed: bool = False) -> duckdb.DuckDBPyConnection:
    """Open a database file; raises :class:`StoreError` with a message a person
    can act on (missing file or folder, not a DuckDB file, damaged, locked by
    another process). ``create``: a missing file is created (its folder must
    exist and be writable).

    DuckDB lets one process write a database file (or several read it). When
    another process holds the file, ``wait`` seconds are spent retrying;
    ``on_wait(message)`` is called once, when the waiting starts.
    ``sandboxed``: the connection is then shut off from files and the
    network (:func:`sandbox`)."""
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
            con = duckdb.connect(path, read_only=read_only, config=_CONFIG)
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
        if sandboxed:
            sandbox(con)
        return con


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
            path=path, row=repr(row[0]))) from None


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
