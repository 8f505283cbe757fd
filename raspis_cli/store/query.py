"""Running SQL and turning DuckDB values into plain JSON-ready values."""

from __future__ import annotations

import datetime
import decimal
import math
import uuid
from collections.abc import Mapping
from typing import Any

import duckdb

from raspis_cli.store.db import StoreError
from raspis_cli.text.i18n import _

__all__ = ["plain_value", "run_query"]


def plain_value(value: object) -> object:
    """A DuckDB value as JSON-ready Python: dates and times as ISO text,
    decimals as numbers, maps as objects, lists and structs recursively;
    infinite and NaN floats as the text ``Infinity``, ``-Infinity``, ``NaN``
    (JSON has no number for them)."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        # JSON has no infinities or NaN: their names, as text, keep the value
        if math.isfinite(value):
            return value
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, decimal.Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, (datetime.date, datetime.datetime, datetime.time)):
        return value.isoformat()
    if isinstance(value, datetime.timedelta):
        return str(value)
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).hex()
    if isinstance(value, Mapping):
        return {str(plain_value(k)): plain_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain_value(v) for v in value]
    return str(value)


def run_query(con: duckdb.DuckDBPyConnection, sql: str,
              params: Mapping[str, object] | None = None) -> list[dict[str, Any]]:
    """Run SQL and return its rows as dicts keyed by column name (plain
    values). A statement that returns no rows gives ``[]``. DuckDB's errors,
    and SQL with no statement at all, become :class:`StoreError`."""
    try:
        cursor = con.execute(sql, dict(params) if params else None)
        if cursor is None:
            raise StoreError(_("no SQL statement to run"))
        if cursor.description is None:
            return []
        columns = _unique([d[0] for d in cursor.description])
        return [{c: plain_value(v) for c, v in zip(columns, row, strict=True)}
                for row in cursor.fetchall()]
    except duckdb.Error as e:
        message = str(e).strip()
        if "read-only" in message:
            message += _(" (raspis query is read-only; add --write to change the database)")
        elif isinstance(e, duckdb.PermissionException) or "configuration has been locked" in message:
            message = (message.splitlines()[0] + " (raspis query without --write reads only the "
                       "database: no files, no network, no settings; add --write to allow them)")
        raise StoreError(message) from None


def _unique(names: list[str]) -> list[str]:
    """Column names made unique (``x``, ``x_2``) so no value is lost in a dict."""
    seen: dict[str, int] = {}
    out = []
    for name in names:
        count = seen.get(name, 0) + 1
        seen[name] = count
        out.append(name if count == 1 else f"{name}_{count}")
    return out
