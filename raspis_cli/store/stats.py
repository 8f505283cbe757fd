"""``stats``: the report views, with the scope narrowed by player, rules and date.

Every report is a view (:data:`~raspis_cli.store.schema.REPORTS`) over the
``scope_*`` views. Narrowing the scope runs the report's own SQL text with
CTEs named like the scope views in front of it, so a narrowed report is the
same query as the view, over fewer rows.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

import duckdb

from raspis_cli.store.query import run_query
from raspis_cli.store.schema import BASE_VIEWS, REPORTS

__all__ = ["REPORT_NAMES", "Scope", "report_rows", "report_sql"]

REPORT_NAMES = tuple(REPORTS)


@dataclass(frozen=True, slots=True)
class Scope:
    """Which games and whose rows a report covers. Dates are inclusive; a
    date bound leaves out games without a date."""

    player: str | None = None
    rules: str | None = None
    since: datetime.date | None = None
    until: datetime.date | None = None
    valid_only: bool = False

    @property
    def everything(self) -> bool:
        """No narrowing at all: the views answer as they are."""
        return self == Scope()


def report_sql(name: str, scope: Scope = Scope()) -> tuple[str, dict[str, object]]:
    """The SQL of one report over a scope, and its parameters."""
    if name not in REPORTS:
        raise KeyError(name)
    if scope.everything:
        return f"SELECT * FROM {name}", {}
    params: dict[str, object] = {}
    conditions = []
    if scope.rules is not None:
        conditions.append("rules_preset = $rules")
        params["rules"] = scope.rules
    if scope.since is not None:
        conditions.append("date >= $since")
        params["since"] = scope.since
    if scope.until is not None:
        conditions.append("date <= $until")
        params["until"] = scope.until
    if scope.valid_only:
        conditions.append("valid")
    where = " AND ".join(conditions) or "true"
    ctes = [f"scope_games AS (SELECT * FROM games WHERE {where})"]
    body = REPORTS[name]
    for view in ("scope_seats", "scope_results", "scope_plays"):
        if view not in body:
            continue
        inner = BASE_VIEWS[view].strip()
        if scope.player is not None:
            inner = f"SELECT * FROM ({inner}) WHERE player = $player"
        ctes.append(f"{view} AS ({inner})")
    if scope.player is not None:
        params["player"] = scope.player
    return "WITH " + ",\n".join(ctes) + "\n" + body.strip(), params


def known_players(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Every player name in the database, in order."""
    return [row["player"] for row in run_query(con, "SELECT DISTINCT player FROM seats ORDER BY player")]


def report_rows(con: duckdb.DuckDBPyConnection, name: str, scope: Scope = Scope()) -> list[dict[str, Any]]:
    """One report's rows (dicts keyed by column, plain values)."""
    sql, params = report_sql(name, scope)
    return run_query(con, sql, params)
