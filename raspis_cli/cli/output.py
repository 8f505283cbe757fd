"""Rows printed as a table, JSON, JSON lines or CSV, with their column headers in the interface language."""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from typing import Any, Final

from raspis_cli.cli.console import stdout
from raspis_cli.text.i18n import N_, _, decimal, number
from raspis_cli.text.messages import stored_form
from raspis_cli.text.textsafe import escape_text


def print_rows(rows: Sequence[dict[str, Any]], fmt: str, title: str | None = None,
               round_numbers: bool = False, labels: bool = True) -> None:
    """Print rows (dicts with the same keys) as JSON (a list of objects), JSON
    lines, CSV (exact values) or a table of plain-text cells (record text
    escaped, never read as markup; numbers right-aligned and, with
    ``round_numbers``, :func:`rounded`). A table's headers are
    :func:`column_label` words in the interface language; with ``labels``
    False (``query``: the columns the SQL named) the keys themselves. JSON and
    CSV always keep the keys. Every command that prints rows prints them here."""
    if fmt == "json":
        write_json(list(rows))
        return
    if fmt == "jsonl":
        write_jsonl(list(rows))
        return
    columns = list(rows[0]) if rows else []
    header = column_label if labels else str
    if fmt == "csv":
        import csv
        import io

        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(columns)
        for row in rows:
            writer.writerow(["" if row[c] is None else _cell(row[c]) for c in columns])
        sys.stdout.write(buffer.getvalue())
        return
    heads = [escape_text(header(c)) for c in columns]
    texts = [["" if row[c] is None else escape_text(_cell(rounded(c, row[c]) if round_numbers else row[c]))
              for c in columns] for row in rows]
    if not stdout.is_terminal:
        from raspis_cli.cli.plaintable import box_table, plain_width

        text = box_table(heads, texts, escape_text(title) if title else None,
                         [_numeric(rows[0][c]) if rows else False for c in columns], plain_width())
        if text is not None:
            sys.stdout.write(text)
            return
    from rich.markup import escape
    from rich.table import Table

    from raspis_cli.cli.plaintable import fit_widths

    # wider than the terminal: the headers fold, not the values (a date, a name, a preset)
    widths = fit_widths(heads, texts, stdout.width)
    table = Table(title=title, show_lines=False)
    for i, column in enumerate(columns):
        numeric = _numeric(rows[0][column]) if rows else False
        table.add_column(escape(heads[i]), overflow="fold", justify="right" if numeric else "left",
                         width=widths[i] if widths else None)
    for cells in texts:
        table.add_row(*(escape(t) for t in cells))
    stdout.print(table)


COLUMN_LABELS: Final[dict[str, str]] = {
    # rules list / show / schedule
    "preset": N_("preset"), "players": N_("players"), "description": N_("description"),
    "option": N_("option"), "value": N_("value"), "meaning": N_("meaning"),
    "setting": N_("setting"), "number": N_("number"),
    "cards": N_("cards"), "kind": N_("kind"), "dealer": N_("dealer"),
    # stats: the ratings and the leaderboard (Russian words as on the club page, report/strings.py)
    "pool": N_("pool"), "rank": N_("rank"), "player": N_("player"), "rating": N_("rating"),
    "uncertainty": N_("uncertainty"), "ordinal": N_("ordinal"), "games": N_("games"),
    "change": N_("change"), "last_date": N_("last game"), "rules": N_("rules"), "wins": N_("wins"),
    "win_rate": N_("win rate"), "mean_total": N_("mean total"), "deals": N_("deals"),
    "mean_per_deal": N_("mean per deal"), "relative_per_deal": N_("relative per deal"),
    # stats: bids, passes, the dealer, deal kinds, jokers, head to head
    "bids": N_("bids"), "exact_rate": N_("exact"), "under_rate": N_("under"), "over_rate": N_("over"),
    "mean_bid": N_("mean bid"), "mean_taken": N_("mean taken"), "bid_position": N_("seat"),
    "passes": N_("passes"), "made": N_("made"), "made_rate": N_("made rate"),
    "dealer_restriction": N_("dealer restriction"), "restricted": N_("restricted"),
    "player_deals": N_("player-deals"), "mean_score": N_("mean score"), "zero_rate": N_("took none"),
    "joker_mode": N_("declared"), "played_as": N_("played as"), "plays": N_("plays"), "won": N_("won"),
    "won_rate": N_("won rate"), "opponent": N_("opponent"), "ahead": N_("ahead"), "behind": N_("behind"),
    "level": N_("level"), "mean_margin": N_("mean margin"),
}
"""Column headers a table shows in the interface language (JSON and CSV keep the keys):
every column of every ``stats`` report and of ``rules``. A key missing here is shown
with spaces for underscores (``tests/test_stats_i18n.py`` checks that none is)."""


def column_label(column: str) -> str:
    """The header of a table column in the interface language (``win_rate`` ->
    ``win rate`` / ``доля побед``); a column without a label reads with spaces."""
    label = COLUMN_LABELS.get(column)
    return _(label) if label is not None else column.replace("_", " ")


def _numeric(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def rounded(column: str, value: object) -> object:
    """A number as a person reads it in a table: a ``*_rate`` as a percentage
    with one decimal, any other fraction with two decimals (JSON and CSV keep
    every digit)."""
    if isinstance(value, float) and math.isfinite(value):
        if column.endswith("_rate"):
            return decimal(value * 100, 1) + "%"
        return decimal(value, 2)
    return value


def _cell(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if type(value) is int:
        return number(value)
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    if isinstance(value, dict):
        import json

        return json.dumps(value, ensure_ascii=False)
    return str(value)


def write_json(data: object) -> None:
    """Print JSON on stdout: UTF-8, not ASCII-escaped, indented; messages in
    their canonical (English) text whatever the interface language."""
    import json

    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2, default=stored_form) + "\n")


def write_jsonl(items: Sequence[object]) -> None:
    """Print JSON Lines on stdout: one compact JSON value per line."""
    import json

    sys.stdout.write("".join(json.dumps(item, ensure_ascii=False,
                                        default=stored_form) + "\n" for item in items))
