"""Game histories in DuckDB: the schema, loading, reports, queries and export.

Library code only (no typer, no rich): the ``load``, ``stats``, ``query`` and
``export`` commands in :mod:`raspis_cli.cli.store_cmd` are thin wrappers.
The names below are imported when first used, so that ``load``'s worker
processes, which need the loader's reading half only, do not import DuckDB.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from raspis_cli.store.db import StoreError, open_db
    from raspis_cli.store.export import export_parquet
    from raspis_cli.store.load import LoadError, LoadSummary, RecordSource, load_units
    from raspis_cli.store.location import default_db_path
    from raspis_cli.store.query import run_query
    from raspis_cli.store.rows import canonical_game, game_id
    from raspis_cli.store.stats import Scope, known_players, report_rows

__all__ = [
    "LoadError",
    "LoadSummary",
    "RecordSource",
    "Scope",
    "StoreError",
    "canonical_game",
    "default_db_path",
    "export_parquet",
    "game_id",
    "known_players",
    "load_units",
    "open_db",
    "report_rows",
    "run_query",
]

_HOME = {
    "StoreError": "errors", "default_db_path": "location", "open_db": "db", "export_parquet": "export",
    "LoadError": "load", "LoadSummary": "load", "RecordSource": "load", "load_units": "load",
    "run_query": "query", "canonical_game": "rows", "game_id": "rows", "Scope": "stats",
    "known_players": "stats", "report_rows": "stats",
}
"""Where each public name lives."""


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'raspis_cli.store' has no attribute {name!r}")
    return getattr(importlib.import_module(f"raspis_cli.store.{home}"), name)
