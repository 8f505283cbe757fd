"""``raspis analyze``: a double-dummy post-mortem of every recorded deal."""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape as rich_escape
from rich.table import Table

from raspis_cli.analyze.post_mortem import (
    DEFAULT_BUDGET,
    DEFAULT_SAMPLES,
    DealAnalysis,
    GameAnalysis,
    analyze_deal,
    annotate_game,
    summarize,
)
from raspis_cli.analyze.words import (
    advice_words,
    forced_words,
    mistake_words,
    not_makeable_words,
    regret_words,
    skipped_words,
)
from raspis_cli.cli.app import app
from raspis_cli.cli.console import fail, safe_markup, stderr, stdout
from raspis_cli.cli.options import (
    BudgetOption,
    EncodingOption,
    RecordFileArgument,
    RulesOption,
    SamplesOption,
    SeedOption,
    SetOption,
    check_encoding_option,
    check_format,
    player_name,
    rules_choice,
)
from raspis_cli.cli.output import write_json
from raspis_cli.judge.check import CheckError, read_results
from raspis_cli.judge.replay import GameResult, RulesChoice
from raspis_cli.model.diagnostics import SYNTAX, Diagnostic
from raspis_cli.model.record import GameRecord
from raspis_cli.text.i18n import N_, _, kind_label, language, ngettext
from raspis_cli.text.textsafe import escape_text

Task = tuple[str, str | None, RulesChoice, int, int, str | None, int, int, int | None]
"""A worker's task: file, encoding, rules, game index, deal position, player,
samples, seed, budget."""

_CACHE: dict[tuple[str, int], GameResult] = {}
"""The game a process replayed last (one run's rules and encoding per process)."""


def _replayed(path: str, encoding: str | None, choice: RulesChoice, game: int) -> GameResult:
    key = (path, game)
    found = _CACHE.get(key)
    if found is None:
        [(found, _compared)] = read_results(path, choice, encoding, game + 1)
        _CACHE.clear()
        _CACHE[key] = found
    return found


def _run(task: Task) -> DealAnalysis:
    """One deal, in whatever process: replays its game (once per process)."""
    path, encoding, choice, game, position, player, samples, seed, budget = task
    result = _replayed(path, encoding, choice, game)
    deal_result = next(d for d in result.deals if d.position == position)
    return analyze_deal(result, deal_result, samples=samples, seed=seed, budget=budget,
                        only=player)


def _results(tasks: list[Task], results: dict[int, GameResult], jobs: int) -> Iterator[DealAnalysis]:
    if jobs <= 1 or len(tasks) <= 1:
        for task in tasks:
            _CACHE.clear()
            _CACHE[(task[0], task[3])] = results[task[3]]
            yield _run(task)
        return
    with multiprocessing.get_context("spawn").Pool(min(jobs, len(tasks))) as pool:
        yield from pool.imap(_run, tasks)


def _print_deal(analysis: DealAnalysis, lang: str) -> None:
    out = stdout.print
    cards = ngettext("{n} card", "{n} cards", analysis.cards).format(n=analysis.cards)
    head = _("Deal {number}").format(number=analysis.number)
    out(f"[bold]{head}[/bold] · {safe_markup(kind_label(analysis.kind))} · {cards}")
    if analysis.skipped is not None:
        out(f"  {safe_markup(skipped_words(analysis.skipped, lang))}")
        return
    shown = {p.player: escape_text(p.player) for p in analysis.players}
    width = max(map(len, shown.values())) if shown else 0
    for p in analysis.players:
        line = safe_markup(forced_words(p, lang, with_mark=False))
        if p.makeable is False:
            line += f" · [yellow]{safe_markup(not_makeable_words(lang))}[/yellow]"
        out(f"  {rich_escape(shown[p.player].ljust(width))}  {line}")
        advice = advice_words(p, lang)
        if advice is not None:
            regret = regret_words(p, lang)
            mark = "" if regret is None else f" · [red]{safe_markup(regret)}[/red]"
            out(f"  {' ' * width}  {safe_markup(advice)}{mark}")
    for m in analysis.mistakes:
        colour = "red" if m.kind == "lost-bid" else "magenta"
        out(f"  [{colour}]✗ {safe_markup(mistake_words(m, lang, with_trick=True))}[/{colour}]")


def _print_summary(game: GameAnalysis) -> None:
    """The game's summary: a row per player when the table fits the console
    unfolded, else (a narrow terminal) a row per figure and a column per player,
    so that no header or number is cut."""
    title = _("Game {number} summary").format(number=game.index + 1)
    header = [_(column) for column in SUMMARY_COLUMNS]
    rows = [[escape_text(s.player), str(s.bids), str(s.makeable), str(s.made), str(s.decisions),
             str(s.mistakes), str(s.handed), f"{s.regret:.1f}",
             "-" if s.accuracy is None else f"{s.accuracy:.0%}"] for s in game.summary]
    table = Table(title=title, title_justify="left")
    if _table_width([header, *rows]) <= stdout.width:
        for i, label in enumerate(header):
            table.add_column(label, justify="left" if i == 0 else "right")
        for row in rows:
            table.add_row(*map(rich_escape, row))
    else:
        table.add_column(header[0], no_wrap=True)
        for row in rows:  # a name folds, never cut, on a terminal too narrow even for this
            table.add_column(rich_escape(row[0]), justify="right", overflow="fold")
        for k, label in enumerate(header[1:], start=1):
            table.add_row(label, *(row[k] for row in rows))
    stdout.print(table)


def _table_width(cells: list[list[str]]) -> int:
    """Columns a rich table of these rows (the header the first) needs unfolded:
    the widest cell of each column, and 3 per column for borders and padding."""
    from rich.cells import cell_len

    widths = [max(cell_len(row[i]) for row in cells) for i in range(len(cells[0]))]
    return sum(widths) + 3 * len(widths) + 1


SUMMARY_COLUMNS = (N_("player"), N_("bids"), N_("makeable"), N_("made"), N_("decisions"),
                    N_("mistakes"), N_("handed"), N_("regret"), N_("accuracy"))
"""The summary table's columns (translated where shown)."""


def _write_annotated(games: list[GameRecord], output: str) -> None:
    from raspis_cli.notation import NotationWriteError, write_games
    from raspis_cli.notation.jsoncodec import games_to_json_text, games_to_jsonl_text

    try:
        if output.endswith(".jsonl"):
            text = games_to_jsonl_text(games)
        elif output.endswith(".json"):
            text = games_to_json_text(games)
        else:
            text = write_games(games)
    except NotationWriteError as e:
        fail(str(e))
    try:
        Path(output).write_text(text, encoding="utf-8", newline="\n")
    except OSError as e:
        fail(_("{file}: cannot write: {reason}").format(file=output, reason=e.strerror or e))


@app.command("analyze")
def analyze(
    file: RecordFileArgument,
    game: Annotated[int | None, typer.Option("--game", "-g", help=_("Only game N (1-based)."), min=1,
                                             metavar="N")] = None,
    deal: Annotated[int | None, typer.Option("--deal", "-d", help=_("Only deal number N."),
                                             metavar="N")] = None,
    player: Annotated[str | None, typer.Option("--player", "-p", help=_("Only this player's "
                                               "bids and mistakes."), metavar=_("NAME"))] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help=_("text or json."),
                                     metavar="text|json")] = "text",
    jobs: Annotated[int, typer.Option("--jobs", "-j", help=_("Processes (same output for any N)."),
                                      min=1, metavar="N")] = 1,
    samples: SamplesOption = DEFAULT_SAMPLES,
    seed: SeedOption = 0,
    budget: BudgetOption = None,
    annotate: Annotated[bool, typer.Option("--annotate", help=_("Write the record with the "
                                           "findings as comments (needs -o)."))] = False,
    output: Annotated[str | None, typer.Option("--output", "-o", help=_("Where --annotate writes "
                                               "(.rsp notation, .json, .jsonl)."),
                                               metavar=_("FILE"))] = None,
    preset: RulesOption = None,
    options: SetOption = None,
    encoding: EncodingOption = None,
) -> None:
    """A double-dummy post-mortem of every deal whose hands are known: what
    each player could force, the card that lost a bid (and the one that
    would have kept it), the card that handed a bid to somebody, what should
    have been bid (PIMC), and a summary per player (docs/ANALYZE.md)."""
    check_format(fmt, ("text", "json"))
    if annotate and not output:
        raise typer.BadParameter(_("--annotate writes to a file: give -o FILE"), param_hint="-o")
    if output and not annotate:
        raise typer.BadParameter(_("-o is where --annotate writes: add --annotate"),
                                 param_hint="-o")
    choice = rules_choice(preset, options)
    check_encoding_option(encoding)
    stray: list[Diagnostic] = []
    try:  # --annotate rewrites the whole file: every game is read and checked
        checked = [r for r, _alt in read_results(file, choice, encoding, None if annotate else game,
                                                  stray=stray)]
    except CheckError as e:
        fail(str(e))
    syntax = [d for d in stray if not d.is_warning] + [
        p for r in checked for p in r.problems if p.kind == SYNTAX]
    if annotate and syntax:
        fail(_("{file}: {n} syntax error(s); `raspis validate` shows them; nothing is annotated").format(
            file=file, n=len(syntax)))
    if game is not None and game > len(checked):
        fail(_("{file} has {n} game(s); there is no game {game}").format(file=file, n=len(checked),
                                                                         game=game))
    results = {r.index: r for r in checked if game is None or r.index == game - 1}
    indexes = list(results)
    if player is not None:
        everyone = list(dict.fromkeys(name for r in results.values() for name in r.record.players))
        player = player_name(player, everyone, "--player",
                             _("no player named {name} in {file}").format(name=repr(player), file=file))
    limit = DEFAULT_BUDGET if budget is None else (budget or None)
    tasks: list[Task] = [
        (file, encoding, choice, i, d.position, player, samples, seed, limit)
        for i in indexes for d in results[i].deals if deal is None or d.number == deal
    ]
    if deal is not None and not tasks:
        fail(_("there is no deal {deal} in {file}").format(deal=deal, file=file)
             + (_(", game {game}").format(game=game) if game else ""))
    analyses = list(progress_bar(_results(tasks, results, jobs), len(tasks)))
    games: list[GameAnalysis] = []
    at = 0
    for i in indexes:
        count = sum(1 for t in tasks if t[3] == i)
        mine = analyses[at:at + count]
        at += count
        record = results[i].record
        games.append(GameAnalysis(i, record.tags.get("Event"), mine,
                                  summarize(record.players, mine, player)))
    if annotate and output:
        records = [r.record for r in checked]
        for g in games:
            annotate_game(records[g.index].deals, g)
        _write_annotated(records, output)
    if fmt == "json":
        write_json({"file": file, "samples": samples, "seed": seed,
                    "games": [g.to_json() for g in games]})
        return
    lang = language()
    for g in games:
        event = f": {g.event}" if g.event else ""
        head = _("Game {number}").format(number=g.index + 1)
        stdout.print(f"[bold]{head}{safe_markup(event)}[/bold]")
        for analysis in g.deals:
            _print_deal(analysis, lang)
        _print_summary(g)


def progress_bar(items: Iterator[DealAnalysis], total: int) -> Iterator[DealAnalysis]:
    """The items, with a progress bar on standard error when it is a terminal."""
    if not stderr.is_terminal or total < 2:
        yield from items
        return
    from rich.progress import Progress

    with Progress(console=stderr, transient=True) as progress:
        bar = progress.add_task(_("analysing deals"), total=total)
        for item in items:
            yield item
            progress.advance(bar)
