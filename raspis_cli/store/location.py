"""Where the database is by default (no DuckDB needed to say so)."""

from __future__ import annotations

import os

__all__ = ["DEFAULT_DB", "default_db_path"]

DEFAULT_DB = "raspis.duckdb"


def default_db_path() -> str:
    """``$RASPIS_DB``, else ``raspis.duckdb`` in the working directory."""
    return os.environ.get("RASPIS_DB") or DEFAULT_DB
