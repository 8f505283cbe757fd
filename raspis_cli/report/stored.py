"""A game's page from the database: the sheet as ``load`` stored it.

The database keeps what the replay found (bids, taken, recomputed scores and
totals, the written values beside them, violations: their English text and
their message as data, from which the page says each in its own language),
not the record's text;
:func:`stored_game_context` lays those rows out for ``game.html.j2`` as
:func:`raspis_cli.report.game.game_context` does for a file (the same cells,
the same highlighted differences, the running-totals chart; no trick replay).
:func:`games_list` is the index of every game stored.
"""

from __future__ import annotations

from typing import Any

import duckdb

from raspis_cli.judge.results import trump_label
from raspis_cli.model.deal_kinds import kind_label
from raspis_cli.report.strings import problem_row, report_strings
from raspis_cli.report.svg import line_charts
from raspis_cli.store.query import run_query
from raspis_cli.text.messages import stored_message

__all__ = ["games_list", "stored_game_context"]

_GAMES_SQL = """
SELECT g.game_id, g.date, g.event, g.rules_preset AS rules, g.player_count AS players, g.valid,
       g.unfinished, g.deal_count,
       (SELECT string_agg(player, ', ' ORDER BY seat) FROM seats s WHERE s.game_id = g.game_id) AS names,
       (SELECT string_agg(player, ', ' ORDER BY seat) FROM seats s
        WHERE s.game_id = g.game_id AND s.winner) AS winners
FROM games g
ORDER BY g.date DESC NULLS LAST, g.source_file, g.game_index"""


def games_list(con: duckdb.DuckDBPyConnection) -> list[dict[str, Any]]:
    """Every game stored, newest first: id, date, event, rules, players, winners."""
    return run_query(con, _GAMES_SQL)


def _cell(row: dict[str, Any]) -> dict[str, Any]:
    """One cell as ``game.html.j2`` shows it, from a ``deal_results`` row."""
    bid, taken, score, total = row["bid"], row["taken"], row["score"], row["total"]
    diffs = {key: row[f"written_{key}"] for key, value in (("taken", taken), ("score", score),
                                                             ("total", total))
             if row[f"written_{key}"] is not None and row[f"written_{key}"] != value}
    head = None
    if bid is not None or taken is not None:
        head = ("-" if bid is None else str(bid)) + "/" + ("?" if taken is None else str(taken))
    return {"head": head, "score": score, "total": total, "penalty": row["penalty"] or 0, "diffs": diffs,
            "made": bid is not None and taken is not None and bid == taken}


def stored_game_context(con: duckdb.DuckDBPyConnection, game_id: str, lang: str) -> dict[str, Any] | None:
    """Everything ``game.html.j2`` needs for one stored game, or None when the
    database has no game of this id."""
    s = report_strings()
    found = run_query(con, "SELECT * FROM games WHERE game_id = $id", {"id": game_id})
    if not found:
        return None
    game = found[0]
    seats = run_query(con, "SELECT * FROM seats WHERE game_id = $id ORDER BY seat", {"id": game_id})
    players = [r["player"] for r in seats]
    deals = run_query(con, "SELECT * FROM deals WHERE game_id = $id ORDER BY deal_index", {"id": game_id})
    results: dict[int, dict[str, dict[str, Any]]] = {}
    for row in run_query(con, "SELECT * FROM deal_results WHERE game_id = $id", {"id": game_id}):
        results.setdefault(row["deal_index"], {})[row["player"]] = row
    problems = run_query(con, "SELECT * FROM violations WHERE game_id = $id ORDER BY ordinal",
                         {"id": game_id})
    by_deal: dict[int, list[str]] = {}
    for p in problems:
        if p["deal"] is not None:
            by_deal.setdefault(p["deal"], []).append(stored_message(p["message"], p.get("message_data")))
    shown = []
    chart_x: list[float] = []
    chart_y: dict[str, list[float | None]] = {n: [] for n in players}
    blank = {"bid": None, "taken": None, "score": None, "total": None, "penalty": 0, "written_taken": None,
             "written_score": None, "written_total": None}
    for deal in deals:
        rows = results.get(deal["deal_index"], {})
        trump = deal["trump"]
        shown.append({"number": deal["number"], "kind": kind_label(deal["kind"]), "cards": deal["cards"],
                      "dealer": deal["dealer"], "replayed": deal["replayed"],
                      "trump": trump_label(trump),
                      "cells": [_cell(rows.get(n, blank)) for n in players],
                      "problems": by_deal.get(deal["number"], [])})
        if deal["replayed"]:
            continue
        chart_x.append(float(len(chart_x) + 1))
        for n in players:
            total = rows.get(n, blank)["total"]
            chart_y[n].append(None if total is None else float(total))
    tags = dict(game["tags"] or {})
    return {"games": [{
        "index": 1,
        "tags": tags,
        "rules": game["rules_preset"],
        "players": players,
        "deals": shown,
        "totals": [{"player": r["player"], "total": r["total"],
                    "written": r["written_total"] if r["written_total"] not in (None, r["total"]) else None,
                    "winner": r["winner"]} for r in seats],
        "winners": [r["player"] for r in seats if r["winner"]],
        "unfinished": bool(game.get("unfinished")),
        "replay_left_out": False,  # a stored game has no replay (its cards are not stored)
        "problems": [problem_row(p["kind"], stored_message(p["message"], p.get("message_data")), p["deal"],
                                 p["trick"], p["player"]) for p in problems],
        "chart": line_charts({n: (chart_x, chart_y[n]) for n in players}, title=s["running_totals"],
                            xlabel=s["deal"], ylabel=s["total"]),
        "replay": {"players": players, "deals": [], "words": {}},
        "analysis": None,
        "comments": [],  # the database keeps no comments
    }], "any_replay": False, "title": tags.get("Event") or game.get("date") or game_id}
