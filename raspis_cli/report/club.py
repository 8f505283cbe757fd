"""The club report: what the template shows of a game-history database.

Ratings (table and chart over time, per rules family), leaderboards by rules
and table size, bid accuracy by cards dealt and by seat (heatmaps, one per
table size), head to head (a matrix), and the most dramatic games (the
biggest swing in the closing special deals). Works on databases made by an
older raspis too: every figure is computed from the base tables.
"""

from __future__ import annotations

from typing import Any

import duckdb

from raspis_cli.report.strings import report_strings
from raspis_cli.report.svg import heatmap, line_charts
from raspis_cli.store.query import run_query
from raspis_cli.store.ratings import RatingStep, chart_players
from raspis_cli.store.stats import Scope, ratings_rows, report_rows
from raspis_cli.text.i18n import ngettext

__all__ = ["both_ways", "club_context"]


_ACCURACY_SQL = """
SELECT g.player_count AS players, r.bid_position AS seat, d.cards,
       avg(CASE WHEN r.outcome = 'exact' THEN 1.0 ELSE 0.0 END) AS exact_rate, count(*) AS bids
FROM deal_results r
JOIN deals d USING (game_id, deal_index)
JOIN games g USING (game_id)
WHERE r.bid IS NOT NULL AND r.taken IS NOT NULL AND NOT d.replayed
GROUP BY ALL
ORDER BY ALL"""

_SWING_SQL = """
WITH specials AS (
    SELECT game_id, min(deal_index) AS first_special
    FROM (SELECT game_id, deal_index, kind,
                 max(CASE WHEN kind = 'normal' THEN deal_index END) OVER (PARTITION BY game_id) AS last_normal
          FROM deals WHERE NOT replayed)
    WHERE deal_index > last_normal
    GROUP BY game_id
),
before AS (
    SELECT r.game_id, r.player, r.total
    FROM deal_results r JOIN specials s USING (game_id)
    WHERE r.deal_index = (SELECT max(deal_index) FROM deal_results x
                          WHERE x.game_id = r.game_id AND x.deal_index < s.first_special)
),
swing AS (
    SELECT b.game_id,
           max(e.total - b.total) - min(e.total - b.total) AS swing,
           arg_max(b.player, b.total) AS leader_before
    FROM before b JOIN seats e ON e.game_id = b.game_id AND e.player = b.player
    GROUP BY b.game_id
)
SELECT g.game_id, g.date, g.event, g.rules_preset AS rules, g.player_count AS players, w.swing,
       w.leader_before,
       (SELECT string_agg(player, ', ' ORDER BY seat) FROM seats s WHERE s.game_id = g.game_id AND s.winner)
         AS winners
FROM swing w JOIN games g USING (game_id)
ORDER BY w.swing DESC, g.date NULLS LAST, g.game_id
LIMIT 10"""


def _ratings_chart(history: list[RatingStep], title: str, xlabel: str, ylabel: str) -> list[dict[str, Any]]:
    """One chart per pool: the top players' rating after each game in the pool."""
    charts = []
    pools = sorted({s.pool for s in history})
    for pool in pools:
        steps = [s for s in history if s.pool == pool]
        final: dict[str, float] = {}
        games: dict[str, int] = {}
        for step in steps:
            final[step.player] = step.ordinal
            games[step.player] = games.get(step.player, 0) + 1
        keep = chart_players(final, games)
        series: dict[str, tuple[list[float], list[float | None]]] = {p: ([], []) for p in keep}
        for step in steps:
            if step.player in series:
                xs, ys = series[step.player]
                if not xs:  # the line starts where the player started, just before the first game
                    xs.append(float(step.seq - 1))
                    ys.append(step.mu_before)
                xs.append(float(step.seq))
                ys.append(step.mu)
        charts.append({"pool": pool, "svg": line_charts(series, title=f"{title} · {pool}", xlabel=xlabel,
                                                       ylabel=ylabel)})
    return charts


def both_ways(rows: list[dict[str, Any]]) -> dict[tuple[str, str], dict[str, Any]]:
    """The head-to-head matrix, (player, opponent) -> row, from the report's rows,
    which hold each pair once: the other way round is the same games seen from
    the opponent (ahead and behind swapped, the margin negated)."""
    matrix: dict[tuple[str, str], dict[str, Any]] = {}
    for row in rows:
        matrix[(row["player"], row["opponent"])] = row
        margin = row["mean_margin"]
        matrix.setdefault((row["opponent"], row["player"]), {
            **row, "player": row["opponent"], "opponent": row["player"], "ahead": row["behind"],
            "behind": row["ahead"], "mean_margin": None if margin is None else -margin})
    return matrix


def club_context(con: duckdb.DuckDBPyConnection, lang: str) -> dict[str, Any]:
    """Everything the club template needs."""
    s = report_strings()
    ratings, history = ratings_rows(con, Scope())
    leaderboard = report_rows(con, "leaderboard")
    boards: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for row in leaderboard:
        boards.setdefault((row["rules"], row["players"]), []).append(row)
    accuracy = run_query(con, _ACCURACY_SQL)
    heatmaps = []
    for players in sorted({r["players"] for r in accuracy}):
        rows = [r for r in accuracy if r["players"] == players]
        seats = [str(n) for n in sorted({r["seat"] for r in rows})]
        cards = [str(n) for n in sorted({r["cards"] for r in rows})]
        values = {(str(r["seat"]), str(r["cards"])): (float(r["exact_rate"]), int(r["bids"])) for r in rows}
        heatmaps.append({"players": players,
                         "svg": heatmap(seats, cards, values, title=s["bid_accuracy"] + " · " + ngettext(
                                            "{n} player", "{n} players", players).format(n=players),
                                        xlabel=s["cards"], ylabel=s["seat"])})
    matrix = both_ways(report_rows(con, "head_to_head"))
    names = sorted({a for a, _b in matrix})
    dramatic = run_query(con, _SWING_SQL)
    games = run_query(con, "SELECT count(*) AS games, min(date) AS first, max(date) AS last, "
                      "count(*) FILTER (WHERE NOT valid) AS invalid FROM games")[0]
    return {
        "summary": games,
        "ratings": ratings,
        "rating_charts": _ratings_chart(history, s["ratings_over_time"], s["game"], s["rating"]),
        "boards": [{"rules": k[0], "players": k[1], "rows": v} for k, v in sorted(boards.items())],
        "heatmaps": heatmaps,
        "h2h_names": names,
        "h2h": {f"{a}\u0000{b}": v for (a, b), v in matrix.items()},
        "dramatic": dramatic,
        "game_href": None,
        "games_href": None,
        "table_href": None,
    }
