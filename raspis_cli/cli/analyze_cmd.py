"""``raspis analyze``: a double-dummy post-mortem of every recorded deal."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer

from raspis_cli.analyze import DEFAULT_SAMPLES, NO_HANDS
from raspis_cli.analyze.words import (
    advice_words,
    bots_words,
    forced_words,
    mistake_words,
    model_words,
    not_computed_words,
    not_makeable_words,
    nothing_analysed_words,
    number_words,
    regret_words,
    skipped_words,
)
from raspis_cli.cli.app import app
from raspis_cli.cli.console import fail, how_to_install, safe_markup, stderr, stdout
from raspis_cli.cli.options import (
    BudgetOption,
    EncodingOption,
    ForceOption,
    RecordFileArgument,
    RulesOption,
    SamplesOption,
    SeedOption,
    SetOption,
    check_encoding_option,
    check_format,
    check_output,
    player_name,
    rules_choice,
)
from raspis_cli.cli.output import write_json
from raspis_cli.text.i18n import N_, _, language, ngettext
from raspis_cli.text.messages import quoted
from raspis_cli.text.textsafe import escape_text

if TYPE_CHECKING:  # imported where used: the post-mortem loads the solver (numba), and `--help` needs none
    from raspis_cli.analyze.findings import DealAnalysis, GameAnalysis
    from raspis_cli.files.pieces import Piece
    from raspis_cli.judge.replay import GameResult, RulesChoice
    from raspis_cli.model.diagnostics import Diagnostic
    from raspis_cli.model.record import GameRecord

T = TypeVar("T")

Settings = tuple["RulesChoice", str | None, int | None, str | None, int, int, int | None]
"""What every worker is told: rules, encoding, the deal number asked (``None``:
every deal), player, samples, seed, budget."""

_GAMES: dict[int, GameResult] = {}
"""The games a worker of a single file analyses deal by deal (sent once, at its start)."""

PIECE_GAMES = 20
"""Games in a piece of a file a worker of ``-j`` reads and analyses whole."""


def _keep_games(games: dict[int, GameResult]) -> None:
    """A worker's start: the games whose deals it will be given."""
    _GAMES.clear()
    _GAMES.update(games)


def _analyze_one(task: tuple[int, int, Settings],
                 on_positions: Callable[[int], None] | None = None) -> DealAnalysis:
    """One deal of a game the worker was given (:func:`_keep_games`);
    ``on_positions`` is told the solver's positions as they are visited."""
    from raspis_cli.analyze.post_mortem import analyze_deal

    index, position, settings = task
    _choice, _encoding, _deal, player, samples, seed, budget = settings
    result = _GAMES[index]
    deal_result = next(d for d in result.deals if d.position == position)
    return analyze_deal(result, deal_result, samples=samples, seed=seed, budget=budget, only=player,
                        on_positions=on_positions)


def _analyze_piece(task: tuple[str, Piece, Settings]) -> tuple[list[GameAnalysis], list[str]]:
    """Every game of one piece of a file, read once by this worker, its games
    numbered from the file's start; and the names of the players of those
    games (for "did you mean" when ``--player`` matches nobody)."""
    from raspis_cli.analyze.post_mortem import analyze_game
    from raspis_cli.judge.check import read_results
    from raspis_cli.text.suggest import match_name

    path, piece, settings = task
    choice, encoding, deal, player, samples, seed, budget = settings
    out = []
    names: dict[str, None] = {}
    for result, _compared in read_results(path, choice, encoding, piece=piece):
        result.index += piece.games_before or 0
        names.update(dict.fromkeys(result.record.players))
        # the name as --player matches it in one process (any case, Latin for Cyrillic), per game
        named = None if player is None else (match_name(player, result.record.players).name or player)
        out.append(analyze_game(result, deal=deal, player=named, samples=samples, seed=seed,
                                budget=budget))
    return out, list(names)


def deal_weight(players: int, cards: int, samples: int) -> int:
    """The positions the analysis of a deal of ``players`` × ``cards`` is
    expected to visit with ``samples`` samples per bid advice, before any is
    measured (:func:`~raspis_cli.analyze.post_mortem.expected_positions`):
    the progress bar's unit."""
    from raspis_cli.analyze.post_mortem import expected_positions

    return expected_positions(players, cards, samples)


def _by_deal(results: dict[int, GameResult], settings: Settings, jobs: int,
             ) -> list[GameAnalysis]:
    """The games read here, their deals analysed here or by ``jobs`` workers
    (each worker given the games once)."""
    import multiprocessing

    from raspis_cli.analyze.post_mortem import GameAnalysis, summarize

    deal, player, samples = settings[2], settings[3], settings[4]
    tasks = [(i, d.position, settings) for i, r in results.items() for d in r.deals
             if deal is None or d.number == deal]
    weights = [deal_weight(len(r.record.players), d.cards, samples) for r in results.values()
               for d in r.deals if deal is None or d.number == deal]
    bar = PositionsBar(weights)
    if jobs <= 1 or len(tasks) <= 1:
        _keep_games(results)
        found: Iterator[DealAnalysis] = (_analyze_one(task, bar.visited) for task in tasks)
        analyses = list(bar.track(found, positions_of))
    else:
        with multiprocessing.get_context("spawn").Pool(
                min(jobs, len(tasks)), initializer=_keep_games, initargs=(results,)) as pool:
            analyses = list(bar.track(pool.imap(_analyze_one, tasks), positions_of))
    games = []
    for i, result in results.items():
        mine = [a for (index, _p, _s), a in zip(tasks, analyses, strict=True) if index == i]
        record = result.record
        games.append(GameAnalysis(i, record.tags.get("Event"), mine,
                                  summarize(record.players, mine, player)))
    return games


def _by_piece(file: str, pieces: list[Piece], settings: Settings, jobs: int,
              ) -> tuple[list[GameAnalysis], list[str]]:
    """The file's pieces each read and analysed whole by one of ``jobs``
    workers; and the names of every game's players."""
    import multiprocessing

    tasks = [(file, piece, settings) for piece in pieces]
    with multiprocessing.get_context("spawn").Pool(min(jobs, len(tasks))) as pool:
        parts = list(PositionsBar([1] * len(tasks)).track(pool.imap(_analyze_piece, tasks),
                                                           lambda _part: 1))
    names = list(dict.fromkeys(name for _games, seen in parts for name in seen))
    return [g for games, _seen in parts for g in games], names


def _print_deal(analysis: DealAnalysis, lang: str) -> None:
    from rich.markup import escape as rich_escape

    from raspis_cli.model.deal_kinds import kind_label

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
        bots = bots_words(p, lang)
        if bots is not None:
            out(f"  {' ' * width}  [dim]{safe_markup(bots)}[/dim]")
    for m in analysis.mistakes:
        colour = "red" if m.kind == "lost-bid" else "magenta"
        out(f"  [{colour}]✗ {safe_markup(mistake_words(m, lang, with_trick=True))}[/{colour}]")


def _print_summary(game: GameAnalysis) -> None:
    """The game's summary: a row per player when the table fits the console
    unfolded, else (a narrow terminal) a row per figure and a column per player,
    so that no header or number is cut."""
    from rich.markup import escape as rich_escape
    from rich.table import Table

    title = _("Game {number} summary").format(number=game.index + 1)
    lang = language()
    header = [_(column) for column in SUMMARY_COLUMNS]
    rows = [[escape_text(s.player), str(s.bids), str(s.makeable), str(s.made), str(s.decisions),
             str(s.mistakes), str(s.handed),
             not_computed_words(lang) if s.regret is None else number_words(s.regret, lang),
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
    from raspis_cli.files.atomic import write_atomic

    try:
        write_atomic(output, text.encode("utf-8"))
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
    force: ForceOption = False,
) -> None:
    """A double-dummy post-mortem of every deal whose hands are known: what
    each player could force, the card that lost a bid (and the one that
    would have kept it), the card that handed a bid to somebody, what should
    have been bid (PIMC), and a summary per player (docs/ANALYZE.md)."""
    from raspis_cli.analyze.post_mortem import annotate_game, search_budget
    from raspis_cli.files.pieces import split_file
    from raspis_cli.judge.check import CheckError, read_results
    from raspis_cli.model.diagnostics import SYNTAX

    check_format(fmt, ("text", "json"))
    if annotate and not output:
        raise typer.BadParameter(_("--annotate writes to a file: give -o FILE"), param_hint="-o")
    if output and not annotate:
        raise typer.BadParameter(_("-o is where --annotate writes: add --annotate"),
                                 param_hint="-o")
    check_output(output, [file], force)
    choice = rules_choice(preset, options)
    check_encoding_option(encoding)
    limit = search_budget(budget)
    settings: Settings = (choice, encoding, deal, player, samples, seed, limit)
    say_if_slow(samples)
    # many games and workers, nothing to write back: each worker reads its own
    # pieces of the file (the reader's cut, as validate -j), nothing read twice
    pieces = (split_file(file, PIECE_GAMES, encoding, counted=True)
              if jobs > 1 and game is None and not annotate else [])
    checked: list[GameResult] = []
    everyone: list[str] = []
    if len(pieces) > 1:
        try:
            games, everyone = _by_piece(file, pieces, settings, jobs)
        except CheckError as e:
            fail(str(e))
    else:
        stray: list[Diagnostic] = []
        try:  # --annotate rewrites the whole file: every game is read and checked
            checked = [r for r, _alt in read_results(file, choice, encoding,
                                                      None if annotate else game, stray=stray)]
        except CheckError as e:
            fail(str(e))
        syntax = [d for d in stray if not d.is_warning] + [
            p for r in checked for p in r.problems if p.kind == SYNTAX]
        if annotate and syntax:
            fail(_("{file}: {n} syntax error(s); `raspis validate` shows them; nothing is annotated"
                   ).format(file=file, n=len(syntax)))
        results = {r.index: r for r in checked if game is None or r.index == game - 1}
        if player is not None:
            everyone = list(dict.fromkeys(name for r in results.values() for name in r.record.players))
            player = player_name(player, everyone, "--player",
                                 _("no player named {name} in {file}").format(name=quoted(player), file=file))
            settings = (choice, encoding, deal, player, samples, seed, limit)
        if deal is not None and not any(d.number == deal for r in results.values() for d in r.deals):
            fail(_("there is no deal {deal} in {file}").format(deal=deal, file=file)
                 + (_(", game {game}").format(game=game) if game else ""))
        games = _by_deal(results, settings, jobs)
    if player is not None and len(pieces) > 1:  # the workers matched the name game by game
        matched = list(dict.fromkeys(s.player for g in games for s in g.summary))
        player = player_name(player, matched or everyone, "--player",
                             _("no player named {name} in {file}").format(name=quoted(player), file=file))
    if player is not None and not any(s.player == player for g in games for s in g.summary):
        fail(_("no player named {name} in {file}").format(name=quoted(player), file=file))
    if deal is not None and not any(g.deals for g in games):
        fail(_("there is no deal {deal} in {file}").format(deal=deal, file=file))
    if annotate and output:
        records = [r.record for r in checked]
        for g in games:
            annotate_game(records[g.index].deals, g)
        _write_annotated(records, output)
    if fmt == "json":
        write_json({"file": file, "samples": samples, "seed": seed,
                    "games": [g.to_json() for g in games]})
        say_if_unanswered(games, limit)
        return
    lang = language()
    if all(a.skipped == NO_HANDS for g in games for a in g.deals):
        stdout.print(safe_markup(nothing_analysed_words(file, lang)))
        return
    if any(p.bots is not None for g in games for a in g.deals for p in a.players):
        stdout.print(safe_markup(model_words(lang)))
    for g in games:
        event = f": {g.event}" if g.event else ""
        head = _("Game {number}").format(number=g.index + 1)
        stdout.print(f"[bold]{head}{safe_markup(event)}[/bold]")
        for analysis in g.deals:
            _print_deal(analysis, lang)
        _print_summary(g)
    say_if_unanswered(games, limit)  # last, where it is read after the analysis


def say_if_slow(samples: int) -> None:
    """Once, on standard error: the solver is being compiled
    (:func:`say_if_compiling`), or it is not compiled here (numba is
    missing), so the analysis runs many times slower. Not said when the plain
    kernel was asked for (``RASPIS_NO_JIT=1``)."""
    import os

    from raspis_cli.solver import kernel

    say_if_compiling()
    if not kernel.JIT and not os.environ.get("RASPIS_NO_JIT"):
        stderr.print(_("note: the compiled solver is not available (numba is not installed): the "
                       "analysis runs about 100 times slower; the analyze extra adds it: {install}"
                       ).format(install=how_to_install("analyze"))
                     + ("" if samples == 0 else _("; --samples 0 leaves out the bid advice, the "
                                                  "slowest part")), markup=False)


def say_if_compiling() -> None:
    """Before the first search of a fresh install, on standard error: the
    solver is being compiled (numba keeps it: later runs start at once),
    then compiled here and now, showing that it moves: a bar on a terminal,
    else a line for each of its functions compiled. Nothing when numba's
    cache holds it already, or without numba."""
    from raspis_cli.solver import kernel

    if not kernel.needs_compiling():
        return
    from raspis_cli.solver.warm import compile_kernel

    stderr.print(_("compiling the solver once, about 20 s (kept for the next runs)"), markup=False)
    total = kernel.compiled_functions()
    if not stderr.is_terminal:
        compile_kernel(lambda done: stderr.print(
            _("solver: {done} of {total} parts compiled").format(done=done, total=total), markup=False))
        return
    from rich.progress import Progress

    with Progress(console=stderr, transient=True) as progress:
        bar = progress.add_task(_("compiling the solver"), total=total)
        compile_kernel(lambda done: progress.update(bar, completed=done))


def say_if_unanswered(games: list[GameAnalysis], budget: int | None) -> None:
    """Once, on standard error, after the analysis (standard output flushed
    first, so that the note comes last in a pipe too): how many player-deals
    got no answer within the search budget (the outcome, or the bid advice
    with no sample solved), and that a larger ``--budget`` answers more of
    them, taking longer."""
    if budget is None:
        return
    missed = sum(p.unanswered for g in games for d in g.deals for p in d.players)
    if missed:
        sys.stdout.flush()
        stderr.print(ngettext("note: {n} of the players' deals got no answer within the search budget; "
                              "a larger --budget answers more, taking longer",
                              "note: {n} of the players' deals got no answer within the search budget; "
                              "a larger --budget answers more, taking longer", missed).format(n=missed))


class PositionsBar:
    """The progress bar of an analysis, on standard error when it is a
    terminal, measured in the solver's positions: each deal is expected to
    visit its prior (:func:`deal_weight`) scaled by how the deals done so far
    compared with theirs, and the positions visited are counted as they come
    (:meth:`visited`, in this process) or deal by deal (:meth:`track`); the
    time left is the positions still expected at the speed so far."""

    def __init__(self, expected: list[int]) -> None:
        self.expected = expected
        self.shown = stderr.is_terminal and len(expected) >= 2
        self.done = 0
        """Positions of the deals finished."""
        self.done_expected = 0
        """What those deals were expected to visit."""
        self.live = 0
        """Positions of the deal in progress so far."""
        self._bar: Callable[[int, int], None] | None = None

    def visited(self, positions: int) -> None:
        """The deal in progress visited ``positions`` more."""
        self.live += positions
        self._show()

    def track(self, items: Iterator[T], positions_of: Callable[[T], int]) -> Iterator[T]:
        """The items (deals analysed, in order), with the bar advanced by
        each one's positions (``positions_of``)."""
        if not self.shown:
            yield from items
            return
        from rich.progress import Progress

        # the default estimate forgets what took longer than 30 s: a deal often does
        with Progress(console=stderr, transient=True, speed_estimate_period=24 * 3600) as progress:
            task = progress.add_task(_("analysing deals"), total=sum(self.expected))
            self._bar = lambda completed, total: progress.update(task, completed=completed, total=total)
            for item, expected in zip(items, self.expected, strict=False):
                self.done += positions_of(item)
                self.done_expected += expected
                self.live = 0
                self._show()
                yield item

    def _show(self) -> None:
        if self._bar is None:
            return
        ratio = self.done / self.done_expected if self.done_expected else 1.0
        ahead = ratio * (sum(self.expected) - self.done_expected)
        completed = self.done + self.live
        self._bar(completed, completed + max(int(ahead) - self.live, 1))


def positions_of(analysis: DealAnalysis) -> int:
    """The solver's positions a deal's analysis visited."""
    return analysis.positions
