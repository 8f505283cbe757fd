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
from raspis_cli.store.ratings import RatingStep, rating_report
from raspis_cli.store.schema import BASE_VIEWS, REPORT_NAMES, REPORTS

__all__ = ["REPORT_NAMES", "Scope", "games_where", "ratings_rows", "report_rows", "report_sql"]



@dataclass(frozen=True, slots=True)
class Scope:
    """Which games and whose rows a report covers. Dates are inclusive; a
    date bound leaves out games without a date."""

    player: str | None = None
    rules: str | None = None
    since: datetime.date | None = None
    until: datetime.date | None = None
    valid_only: bool = False
    players_count: int | None = None
    event: str | None = None
    tags: tuple[tuple[str, str], ...] = ()

    @property
    def everything(self) -> bool:
        """No narrowing at all: the views answer as they are."""
        return self == Scope()


def games_where(scope: Scope, *, dates: bool = True) -> tuple[str, dict[str, object]]:
    """The condition on ``games`` a scope puts (``true`` for none), and its
    parameters; ``dates=False`` leaves out ``--since`` (the ratings are
    computed over the whole history up to ``--until``)."""
    params: dict[str, object] = {}
    conditions = []
    if scope.rules is not None:
        conditions.append("rules_preset = $rules")
        params["rules"] = scope.rules
    if scope.since is not None and dates:
        conditions.append("date >= $since")
        params["since"] = scope.since
    if scope.until is not None:
        conditions.append("date <= $until")
        params["until"] = scope.until
    if scope.valid_only:
        conditions.append("valid")
    if scope.players_count is not None:
        conditions.append("player_count = $players_count")
        params["players_count"] = scope.players_count
    if scope.event is not None:
        conditions.append("event = $event")
        params["event"] = scope.event
    for i, (key, value) in enumerate(scope.tags):
        conditions.append(f"list_contains(map_entries(tags), {{'key': $tag_key{i}, "
                          f"'value': $tag_value{i}}})")
        params[f"tag_key{i}"] = key
        params[f"tag_value{i}"] = value
    return " AND ".join(conditions) or "true", params


def report_sql(name: str, scope: Scope = Scope()) -> tuple[str, dict[str, object]]:
    """The SQL of one report over a scope, and its parameters.

    The report's text is run with the scope views in front of it as CTEs
    (never the stored view), so a database made by an older raspis, whose
    views are older, gives the same answer as a new one."""
    if name not in REPORTS:
        raise KeyError(name)
    where, params = games_where(scope)
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


def report_rows(con: duckdb.DuckDBPyConnection, name: str, scope: Scope = Scope(),
                pool: str = "rules") -> list[dict[str, Any]]:
    """One report's rows (dicts keyed by column, plain values, full precision).
    ``ratings`` is computed from the games in the scope (``pool``: per rules
    family, or ``all`` together); the others are SQL."""
    if name == "ratings":
        return ratings_rows(con, scope, pool)[0]
    sql, params = report_sql(name, scope)
    return run_query(con, sql, params)


def ratings_rows(con: duckdb.DuckDBPyConnection, scope: Scope = Scope(),
                 pool: str = "rules") -> tuple[list[dict[str, Any]], list[RatingStep]]:
    """The ratings report and the rating history behind it. The games of the
    scope are rated from the first one up to ``--until``; ``--since`` starts
    the period whose games and change are shown."""
    where, params = games_where(scope, dates=False)
    return rating_report(con, f"(SELECT * FROM games WHERE {where})", params, pool,
                         scope.since, scope.player)
