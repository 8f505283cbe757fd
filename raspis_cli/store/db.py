"""Opening a raspis database: where it is, and clear errors instead of tracebacks."""

from __future__ import annotations

import os
from pathlib import Path

import duckdb

from raspis_cli.store.schema import SCHEMA_VERSION, create_schema_sql

__all__ = ["DEFAULT_DB", "StoreError", "default_db_path", "ensure_schema", "open_db"]

DEFAULT_DB = "raspis.duckdb"


class StoreError(Exception):
    """A database that cannot be opened or used: one clear message for the user."""


def default_db_path() -> str:
    """``$RASPIS_DB``, else ``raspis.duckdb`` in the working directory."""
    return os.environ.get("RASPIS_DB") or DEFAULT_DB


def open_db(path: str, read_only: bool = False, create: bool = False) -> duckdb.DuckDBPyConnection:
    """Open a database file; raises :class:`StoreError` with a message a person
    can act on (missing file or folder, not a DuckDB file, locked by another
    process). ``create``: a missing file is created (its folder must exist)."""
    target = Path(path)
    if target.is_dir():
        raise StoreError(f"{path} is a folder, not a database file")
    if not target.exists():
        if not create:
            raise StoreError(f"no database at {path} (load games first: raspis load FILE... --db {path})")
        if not target.parent.exists() and str(target.parent) not in ("", "."):
            raise StoreError(f"cannot create {path}: the folder {target.parent} does not exist")
    try:
        return duckdb.connect(path, read_only=read_only)
    except duckdb.Error as e:
        raise StoreError(_explain(path, e)) from None
    except OSError as e:
        raise StoreError(f"cannot open {path}: {e.strerror or e}") from None


def _explain(path: str, error: Exception) -> str:
    text = str(error)
    lowered = text.lower()
    if "lock" in lowered:
        return (f"{path} is locked: another process has it open "
                f"(close the other raspis or duckdb session and try again)")
    if "not a valid duckdb database" in lowered or ("invalid" in lowered and "database" in lowered):
        return f"{path} is not a DuckDB database file"
    if "version" in lowered and "storage" in lowered:
        return f"{path} was written by another DuckDB version: {text.splitlines()[0]}"
    if "read-only" in lowered or "permission" in lowered:
        return f"cannot open {path}: permission denied"
    return f"cannot open {path}: {text.splitlines()[0] if text else type(error).__name__}"


def ensure_schema(con: duckdb.DuckDBPyConnection, path: str = "the database") -> None:
    """Create the tables and views if missing (inside the caller's transaction);
    refuse a database of another schema version or not made by raspis."""
    try:
        existing = {row[0] for row in con.execute(
            "SELECT table_name FROM information_schema.tables").fetchall()}
    except duckdb.Error as e:
        raise StoreError(f"cannot read {path}: {e}") from None
    if "raspis_meta" in existing:
        row = con.execute("SELECT value FROM raspis_meta WHERE key = 'schema_version'").fetchone()
        if row is not None and row[0] != str(SCHEMA_VERSION):
            raise StoreError(f"{path} has schema version {row[0]}; this raspis writes version "
                             f"{SCHEMA_VERSION}")
    elif existing:
        raise StoreError(f"{path} is a DuckDB database, but not one raspis made "
                         f"(tables: {', '.join(sorted(existing)[:5])})")
    for statement in create_schema_sql():
        con.execute(statement)
    if "raspis_meta" not in existing:
        con.execute("INSERT INTO raspis_meta VALUES ('schema_version', ?)", [str(SCHEMA_VERSION)])


def check_schema(con: duckdb.DuckDBPyConnection, path: str) -> None:
    """For reading commands: the database must have been made by raspis."""
    tables = {row[0] for row in con.execute(
        "SELECT table_name FROM information_schema.tables").fetchall()}
    if "raspis_meta" not in tables or "games" not in tables:
        raise StoreError(f"{path} holds no raspis game history (load games first: raspis load FILE...)")
