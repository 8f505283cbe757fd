"""``stats``: the report views, with the scope narrowed by player, rules and date.

Every report is a view (:data:`~raspis_cli.store.schema.REPORTS`) over the
``scope_*`` views, created by ``load`` for the DuckDB CLI. ``stats`` runs the
report's own SQL text with CTEs named like the scope views in front of it
(narrowed to the scope), so it does not depend on the views stored: a
database loaded by an older raspis answers every report of this one.
"""

from __future__ import annotations

import datetime
import re
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
    """The SQL of one report over a scope, and its parameters.

    The report's text is run with the views it reads in front of it as CTEs
    (narrowed to the scope), never through the views stored in the
    database: a report added since a database was loaded works on it as it
    is, whether or not its views are there or up to date."""
    if name not in REPORTS:
        raise KeyError(name)
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
    where = " AND ".join(conditions)
    views: dict[str, str] = {}
    for view, text in BASE_VIEWS.items():
        inner = text.strip()
        if view == "scope_games" and where:
            inner = f"{inner} WHERE {where}"
        elif view != "scope_games" and scope.player is not None:
            inner = f"SELECT * FROM ({inner}) WHERE player = $player"
        views[view] = inner
    if scope.player is not None:
        params["player"] = scope.player
    body = REPORTS[name].strip()
    # the views the report reads, and those they read, in the order BASE_VIEWS defines them
    needed: set[str] = set()
    pending = [body]
    while pending:
        text = pending.pop()
        for view in views:
            if view not in needed and re.search(rf"\b{view}\b", text):
                needed.add(view)
                pending.append(views[view])
    ctes = [f"{view} AS ({views[view]})" for view in views if view in needed]
    sql = ("WITH " + ",\n".join(ctes) + "\n" + body) if ctes else body
    if scope.player is not None and "$player" not in sql:
        del params["player"]
    return sql, params


def report_rows(con: duckdb.DuckDBPyConnection, name: str, scope: Scope = Scope()) -> list[dict[str, Any]]:
    """One report's rows (dicts keyed by column, plain values)."""
    sql, params = report_sql(name, scope)
    return run_query(con, sql, params)
