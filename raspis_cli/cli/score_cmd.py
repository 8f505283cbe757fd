"""``raspis score``: the score sheet (расписка) recomputed, and what-if."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from raspis_cli.cli.app import EXIT_ERROR, EXIT_VIOLATIONS, app
from raspis_cli.cli.console import fail, safe_markup, shell_command, stdout
from raspis_cli.cli.options import (
    EncodingOption,
    RecordFileArgument,
    RulesOption,
    SetOption,
    check_encoding_option,
    check_format,
    rules_choice,
)
from raspis_cli.cli.output import write_json, write_jsonl
from raspis_cli.judge.check import CheckError, read_results, score_sheet
from raspis_cli.judge.replay import DealResult, GameResult, RulesChoice
from raspis_cli.judge.results import trump_label
from raspis_cli.model.deal_kinds import kind_label
from raspis_cli.text.i18n import _, ngettext, number
from raspis_cli.text.textsafe import escape_text

if TYPE_CHECKING:
    from rich.table import Table

    from raspis_cli.cli.narrow_sheet import NarrowSheet

__all__ = ["is_complete", "pick_games", "running_totals", "score", "show_sheet"]


def pick_games(path: str, game: int | None, choice: RulesChoice, compare: RulesChoice | None,
                encoding: str | None = None) -> list[tuple[GameResult, GameResult | None]]:
    try:
        return read_results(path, choice, encoding, game, compare)
    except CheckError as e:
        fail(str(e))


def _cell_text(deal: DealResult, name: str, markup: bool) -> str:
    bid = deal.bids.get(name)
    taken = deal.taken.get(name)
    score = deal.scores.get(name)
    total = deal.totals.get(name)
    parts = []
    head = ""
    if bid is not None or taken is not None:
        # as on the paper sheet: "-" for no bid (miser, golden), "?" for a count not known
        head = ("-" if bid is None else str(bid)) + "/" + ("?" if taken is None else str(taken))
    if deal.written_taken and name in deal.written_taken and deal.written_taken[name] != taken:
        head += _differs(_("written {value}").format(value=deal.written_taken[name]), markup)
    parts.append(head or "-")
    score_text = "?" if score is None else number(score, sign=True)
    written = deal.written_scores.get(name) if deal.written_scores else None
    if written is not None and score is not None and written != score:
        score_text += _differs(_("written {value}").format(value=number(written, sign=True)), markup)
    parts.append(score_text)
    total_text = "=" + ("?" if total is None else number(total))
    written_total = deal.written_totals.get(name) if deal.written_totals else None
    if written_total is not None and written_total != total:
        total_text += _differs(_("written {value}").format(value=number(written_total)), markup)
    parts.append(total_text)
    return " ".join(parts)


def _trump_shown(trump: str | None) -> str:
    """The trump column: the card or suit, ``none`` in the interface language, ``-`` if unknown."""
    return _("none") if trump == "none" else trump_label(trump, "-")


def _differs(text: str, markup: bool) -> str:
    return f" [bold red]({safe_markup(text)})[/bold red]" if markup else f" ({text})"


def _rows(result: GameResult, other: GameResult | None, markup: bool) -> tuple[list[str], list[list[str]]]:
    players = list(result.totals)
    header = [_("deal"), _("kind"), _("cards"), _("dealer"), _("trump"), *players]
    rows = []
    alt_deals = other.deals if other is not None else []
    for position, deal in enumerate(result.deals):
        row = [str(deal.number) + (" " + _("(replayed)") if deal.replayed else ""), kind_label(deal.kind),
               str(deal.cards), deal.dealer, _trump_shown(deal.trump)]
        alt = alt_deals[position] if position < len(alt_deals) else None
        for name in players:
            text = _cell_text(deal, name, markup)
            if alt is not None:
                diff = alt.totals.get(name, 0) - deal.totals.get(name, 0)
                text += f" | {number(alt.totals.get(name, 0))} ({number(diff, sign=True)})"
            row.append(text)
        rows.append(row)
    return header, rows


def _table_width(header: list[str], rows: list[list[str]]) -> int:
    """Columns a rich table of these cells needs unfolded (3 per column for borders and padding)."""
    widths = [len(h) for h in header]
    for row in rows:
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], len(cell))
    return sum(widths) + 3 * len(widths) + 1


def _compact_table(result: GameResult, other: GameResult | None, title: str) -> Table:
    """The sheet for a narrow terminal: one row per deal and player, the deal's
    own columns on its first row, names never broken."""
    from rich.table import Table

    table = Table(title=title, show_lines=False)
    table.add_column(_("deal"), no_wrap=True)
    table.add_column(_("kind"), overflow="fold")
    table.add_column(_("dealer"), no_wrap=True)
    table.add_column(_("trump"), no_wrap=True)
    table.add_column(_("player"), no_wrap=True)
    table.add_column(_("bid/taken score =total"), overflow="fold")
    alt_deals = other.deals if other is not None else []
    players = list(result.totals)
    for position, deal in enumerate(result.deals):
        alt = alt_deals[position] if position < len(alt_deals) else None
        for k, name in enumerate(players):
            text = _cell_text(deal, name, markup=True)
            if alt is not None:
                diff = alt.totals.get(name, 0) - deal.totals.get(name, 0)
                text += f" | {number(alt.totals.get(name, 0))} ({number(diff, sign=True)})"
            first = k == 0
            label = str(deal.number) + (" " + _("(replayed)") if deal.replayed else "")
            table.add_row(safe_markup(label) if first else "",
                          safe_markup(kind_label(deal.kind) if first else ngettext(
                              "{n} card", "{n} cards", deal.cards).format(n=deal.cards) if k == 1 else ""),
                          safe_markup(deal.dealer) if first else "",
                          safe_markup(_trump_shown(deal.trump)) if first else "",
                          safe_markup(name), text, end_section=k == len(players) - 1)
    return table


def _violations_line(result: GameResult, path: str) -> str:
    """The line under a sheet that has problems: the next step, ``raspis explain``
    (what to correct), with the command to type for this file and game."""
    command = shell_command("raspis", "explain", path if path != "-" else "FILE")
    if result.index:
        command += f" --game {result.index + 1}"
    return ngettext("{n} violation; to correct it: {command}",
                    "{n} violations; to correct them: {command}",
                    len(result.problems)).format(n=len(result.problems), command=command)


def _standings(result: GameResult, other: GameResult | None) -> list[str]:
    from raspis_cli.rules.standings import final_places

    names = list(result.totals)
    places = final_places([result.totals[name] for name in names], result.rules.zero_total_rank)
    ranked = sorted(zip(places, names, strict=True), key=lambda row: (row[0], -result.totals[row[1]]))
    lines = []
    for place, name in ranked:
        total = result.totals[name]
        line = f"{place}. {name} {number(total)}"
        written = (result.record.totals or {}).get(name)
        if written is not None and written != total:
            line += " (" + _("written {value}").format(value=written) + ")"
        if other is not None:
            alt = other.totals.get(name, 0)
            line += "   " + _("what-if {total} ({difference})").format(total=alt,
                                                                   difference=number(alt - total, sign=True))
        lines.append(line)
    playing = not is_complete(result)
    lines.append(_verdict(result.winners, playing))
    if other is not None:
        lines.append(_verdict(other.winners, playing, what_if=True))
    return lines


def is_complete(result: GameResult) -> bool:
    """Whether the game is over: not marked ``unfinished``, and as many deals
    scored as its schedule has (a sheet stopped early has a leader, not a winner)."""
    from raspis_cli.rules.schedule import schedule_for
    from raspis_cli.sheet.blank import is_played

    record = result.record
    if record.unfinished:
        return False
    scored = sum(1 for deal in record.deals if not deal.replayed and (is_played(deal) or deal.tricks))
    return schedule_for(result.rules, len(record.players)).missing(scored) is None


def _verdict(first: list[str], unfinished: bool, what_if: bool = False) -> str:
    """Who is first: the winner of a finished game, the leader of an
    unfinished one (it has no winner yet)."""
    one = len(first) == 1
    if unfinished:
        if what_if:
            said = _("what-if leading: {names}") if one else _("what-if sharing the lead: {names}")
        else:
            said = _("leading: {names}") if one else _("sharing the lead: {names}")
    elif what_if:
        said = _("what-if winner: {names}") if one else _("what-if co-winners: {names}")
    else:
        said = _("winner: {names}") if one else _("co-winners: {names}")
    return said.format(names=", ".join(first))


@app.command("score")
def score(
    file: RecordFileArgument,
    game: Annotated[int | None, typer.Option("--game", "-g", help=_("Only game N (1-based)."), min=1,
                                             metavar="N")] = None,
    preset: RulesOption = None,
    options: SetOption = None,
    compare: Annotated[str | None, typer.Option("--compare", help=_("Recompute also under this preset."),
                                                metavar=_("PRESET"))] = None,
    compare_set: Annotated[list[str] | None, typer.Option(
        "--compare-set", help=_("Recompute also with this option changed: OPTION=VALUE (repeatable)."),
        metavar=_("OPTION=VALUE"))] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help=_("table, json, jsonl, csv or markdown."),
                                     metavar="table|json|jsonl|csv|markdown")] = "table",
    encoding: EncodingOption = None,
    chart: Annotated[bool, typer.Option(
        "--chart", help=_("Draw the running totals, one line per player (on a terminal only)."))] = False,
) -> None:
    """The score sheet (расписка) recomputed; written values that differ are
    shown beside the recomputed ones. Cells read BID/TAKEN SCORE =TOTAL.

    Exit status: 0 the sheet agrees with the rules, 1 a written value differs
    from the recomputed one (or another rule is broken), 2 a file could not be
    read."""
    check_format(fmt, ("table", "json", "jsonl", "csv", "markdown"))
    choice = rules_choice(preset, options)
    check_encoding_option(encoding)
    alt: RulesChoice | None = None
    if compare is not None or compare_set:
        base = rules_choice(compare if compare is not None else preset,
                            list(options or []) + list(compare_set or []))
        alt = base
    pairs = pick_games(file, game, choice, alt, encoding)
    disputed = any(first.problems for first, _second in pairs)
    if fmt == "json":
        write_json([score_sheet(a, b) for a, b in pairs])
    elif fmt == "jsonl":
        write_jsonl([score_sheet(a, b) for a, b in pairs])
    elif fmt == "csv":
        _print_csv(pairs)
    else:
        _print_sheets(pairs, fmt, file, chart)
    if not pairs:
        raise typer.Exit(EXIT_ERROR)
    if disputed:  # as validate: the sheet differs from the rules
        raise typer.Exit(EXIT_VIOLATIONS)


def _print_sheets(pairs: list[tuple[GameResult, GameResult | None]], fmt: str, file: str,
                  chart: bool) -> None:
    """The sheets as a table or as Markdown, with their standings and comments."""
    for first, second in pairs:
        title = _title(first)
        if fmt == "markdown":
            header, rows = _rows(first, second, markup=False)
            out = [f"## {title}", "", "| " + " | ".join(header) + " |",
                   "|" + "|".join("---" for _ in header) + "|"]
            out += ["| " + " | ".join(r.replace("|", "\\|") for r in row) + " |" for row in rows]
            out += [""] + [f"- {line}" for line in _standings(first, second)] + [""]
            comments = comment_lines(first)
            out += [f"- {line}" for line in comments] + ([""] if comments else [])
            sys.stdout.write("\n".join(escape_text(line) for line in out) + "\n")
            continue
        show_sheet(first, second, title, file)
        if chart:
            _chart(first, title)


def show_sheet(first: GameResult, second: GameResult | None = None, title: str | None = None,
               path: str | None = None) -> None:
    """Print a game's sheet at the terminal's width (a file or a pipe: a plain
    box table), its standings, its comments and a line for its violations (naming
    ``raspis explain`` for ``path``, the file the game was read from)."""
    from raspis_cli.cli.plaintable import plain_width

    title = title if title is not None else _title(first)
    plain = not stdout.is_terminal
    if plain:  # a file or a pipe: the same box table without loading rich
        from raspis_cli.cli.plaintable import box_table

        header, rows = _rows(first, second, markup=False)
        text = box_table([escape_text(h) for h in header],
                         [[escape_text(cell) for cell in row] for row in rows],
                         escape_text(title), None, plain_width())
        if text is not None:
            lines = _standings(first, second)
            if not first.valid:
                lines.append(_violations_line(first, path or "-"))
            lines += _wrapped(comment_lines(first), plain_width())
            sys.stdout.write(text + "".join(escape_text(line) + "\n" for line in lines))
            return
    header, rows = _rows(first, second, markup=True)
    if _table_width(header, _rows(first, second, markup=False)[1]) <= stdout.width:
        from rich.table import Table

        table = Table(title=safe_markup(title), show_lines=False)
        for column in header:
            table.add_column(safe_markup(column), overflow="fold")
        for row in rows:
            table.add_row(*[r if i >= 5 else safe_markup(r) for i, r in enumerate(row)])
    else:
        from raspis_cli.cli.narrow_sheet import narrow_sheet

        narrow = narrow_sheet(first, stdout.width) if second is None else None
        if narrow is not None:
            _print_narrow(first, narrow, title, path)
            return
        table = _compact_table(first, second, safe_markup(title))
    stdout.print(table)
    for line in _standings(first, second):
        stdout.print(escape_text(line), markup=False)
    if not first.valid:
        stdout.print(escape_text(_violations_line(first, path or "-")), markup=False)
    for line in _wrapped(comment_lines(first), min(stdout.width, plain_width())):
        stdout.print(escape_text(line), markup=False)


def _print_narrow(result: GameResult, sheet: NarrowSheet, title: str, path: str | None) -> None:
    """The narrow sheet (:mod:`raspis_cli.cli.narrow_sheet`) and what follows it, each
    line folded to the width: the standings on one line, then the leader or the winner."""
    width = stdout.width
    standings = _standings(result, None)
    places, verdict = standings[:-1], standings[-1]
    command = [_violations_line(result, path or "-")] if not result.valid else []  # whole, to copy
    lines = [*_wrapped([title], width), *sheet.legend, *sheet.table, *_wrapped(sheet.notes, width),
             *_joined(places, " · ", width), *_wrapped([verdict], width), *command,
             *_wrapped(comment_lines(result), width)]
    for line in lines:
        stdout.print(escape_text(line), markup=False, highlight=False, emoji=False, soft_wrap=True)


def _joined(items: list[str], separator: str, width: int) -> list[str]:
    """The items on as few lines as ``width`` allows, a line broken only between two items."""
    from rich.cells import cell_len

    lines: list[str] = []
    for item in items:
        if lines and cell_len(lines[-1] + separator + item) <= width:
            lines[-1] += separator + item
        else:
            lines.append(item)
    return lines


def _wrapped(lines: list[str], width: int | None) -> list[str]:
    """Lines folded at spaces to ``width`` (the rest indented two spaces)."""
    if not width:
        return lines
    import textwrap

    out: list[str] = []
    for line in lines:
        out += textwrap.wrap(line, width, subsequent_indent="  ", break_on_hyphens=False) or [line]
    return out


def comment_lines(result: GameResult) -> list[str]:
    """The comments of a game's record, each with the deal it is on (the game's own first)."""
    lines = [_("comment: {text}").format(text=_comment_text(c)) for c in result.record.comments]
    for deal in result.record.deals:
        for comment in deal.comments:
            lines.append(_("deal {number}: {text}").format(number=deal.number, text=_comment_text(comment)))
    return lines


def _comment_text(comment: str) -> str:
    """A comment as it reads: the ``;`` that starts it dropped."""
    return comment.lstrip(";").strip()


def _chart(result: GameResult, title: str) -> None:
    from raspis_cli.cli.charts import running_totals_chart

    running_totals_chart(*running_totals(result), title=_("Running totals · {title}").format(title=title))


def running_totals(result: GameResult) -> tuple[list[str], list[list[int | None]]]:
    """The players and their running total after each deal (replayed deals
    left out; ``None`` where a total is not known)."""
    players = list(result.totals)
    rows = [[deal.totals.get(name) for name in players] for deal in result.deals if not deal.replayed]
    return players, rows


def _option_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ",".join(str(v) for v in value)
    return str(value)


def _title(result: GameResult) -> str:
    tags = result.record.tags
    parts = [_("game {number}").format(number=result.index + 1)]
    for key in ("Event", "Date", "Site"):
        if key in tags:
            parts.append(tags[key])
    changed = result.rules.overrides()
    options = "".join(f", {name}={_option_text(value)}" for name, value in changed.items())
    parts.append(_("rules {preset}").format(preset=result.rules.preset_name) + options)
    return " · ".join(parts)


def _print_csv(pairs: list[tuple[GameResult, GameResult | None]]) -> None:
    import csv
    import io

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    header = ["game", "deal", "kind", "cards", "dealer", "trump", "player", "bid", "taken", "score",
              "total", "written_taken", "written_score", "written_total"]
    compare = any(b is not None for _, b in pairs)
    if compare:
        header += ["compare_score", "compare_total", "difference"]
    writer.writerow(header)
    for first, second in pairs:
        sheet = score_sheet(first, second)
        deals = sheet["deals"]
        assert isinstance(deals, list)
        for deal in deals:
            for name, cell in deal["players"].items():
                row = [first.index + 1, deal["number"], deal["kind"], deal["cards"], deal["dealer"],
                       deal["trump"] or "", name]
                keys = ["bid", "taken", "score", "total", "written_taken", "written_score",
                        "written_total"]
                if compare:
                    keys += ["compare_score", "compare_total", "difference"]
                row += ["" if cell.get(k) is None else cell.get(k) for k in keys]
                writer.writerow(row)
    sys.stdout.write(buffer.getvalue())
