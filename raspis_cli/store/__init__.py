"""Game histories in DuckDB: the schema, loading, reports, queries and export.

Library code only (no typer, no rich): the ``load``, ``stats``, ``query`` and
``export`` commands in :mod:`raspis_cli.cli.store_cmd` are thin wrappers.
"""

from __future__ import annotations

from raspis_cli.store.db import StoreError, default_db_path, open_db
from raspis_cli.store.export import export_parquet
from raspis_cli.store.load import LoadError, LoadSummary, RecordSource, load_units
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
