"""``raspis report``: one self-contained HTML page of a game file or of a club's database."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from raspis_cli.cli.app import app
from raspis_cli.cli.console import fail, say, stdout
from raspis_cli.cli.options import (
    BudgetOption,
    EncodingOption,
    ForceOption,
    RulesOption,
    SamplesOption,
    SeedOption,
    SetOption,
    check_encoding_option,
    check_output,
    rules_choice,
)
from raspis_cli.text.i18n import _, ngettext, set_language
from raspis_cli.text.i18n import language as current_language
from raspis_cli.text.messages import quoted
from raspis_cli.text.textsafe import escape_text

if TYPE_CHECKING:
    from raspis_cli.analyze.post_mortem import GameAnalysis
    from raspis_cli.judge.replay import GameResult

__all__: list[str] = []


@app.command("report")
def report(
    file: Annotated[str | None, typer.Argument(
        help=_("A record file (.rsp, .json, .jsonl): the game report. Leave out with --db."),
        metavar=_("[GAME_FILE]"))] = None,
    db: Annotated[str | None, typer.Option(
        "--db", metavar=_("PATH"),
        help=_("The club report of this database instead of a game file."))] = None,
    output: Annotated[str, typer.Option("--output", "-o", metavar=_("FILE.html"),
                                        help=_("Write the page here."))] = "report.html",
    lang: Annotated[str | None, typer.Option(
        "--lang", metavar="en|ru",
        help=_("Language of the page (default: the interface language, from LANGUAGE/LC_ALL/LANG)."))] = None,
    analyze: Annotated[bool, typer.Option(
        "--analyze", help=_("Add the double-dummy post-mortem of raspis analyze: what each player could "
                          "force, the cards that lost or handed a bid marked on the replay, a table "
                          "per player (deals with every hand recorded)."))] = False,
    samples: SamplesOption = 0,
    seed: SeedOption = 0,
    budget: BudgetOption = None,
    preset: RulesOption = None,
    options: SetOption = None,
    encoding: EncodingOption = None,
    force: ForceOption = False,
) -> None:
    """One HTML file, no server, no network: a game's score sheet (расписка)
    with differences highlighted, the running-totals chart and a
    trick-by-trick replay; or (--db) the club page: ratings, leaderboards by
    rules and table size, bid accuracy, head to head, the most dramatic games."""
    from raspis_cli.report.strings import LANGS

    if lang is not None and lang not in LANGS:
        raise typer.BadParameter(_("expected one of {choices}, got {got}").format(
            choices=", ".join(LANGS), got=quoted(lang)), param_hint="--lang")
    if lang is not None:  # the page's words follow it, as the interface's do
        set_language(lang, explicit=True)
    language = current_language()
    if (file is None) == (db is None):
        fail(_("give a game file, or --db DATABASE for the club report (not both)"))
    check_output(output, [name for name in (file, db) if name is not None], force)
    analysed: list[GameAnalysis] | None = None  # with --analyze: for the closing note
    if db is not None:
        if analyze:
            fail(_("--analyze is for a game file, not the club report"))
        page = _club_page(db, language)
    else:
        assert file is not None
        asked = _Analysis(samples, seed, budget) if analyze else None
        if asked is not None:
            from raspis_cli.cli.analyze_cmd import say_if_slow

            say_if_slow(samples)
        page, analysed = _game_page(file, language, preset, options, encoding, asked)
    from raspis_cli.files.atomic import write_atomic

    try:
        write_atomic(output, page.encode("utf-8"))
    except OSError as e:
        fail(_("cannot write {file}: {reason}").format(file=output, reason=e.strerror or e))
    size = len(page.encode("utf-8")) // 1024 + 1
    stdout.print(escape_text(_("wrote {file} ({size} KB)").format(file=output, size=size)), markup=False,
                 highlight=False)
    if analysed is not None:  # last, as analyze says it
        from raspis_cli.analyze.post_mortem import search_budget
        from raspis_cli.cli.analyze_cmd import say_if_unanswered

        say_if_unanswered(analysed, search_budget(budget))


@dataclass(frozen=True, slots=True)
class _Analysis:
    """What ``--analyze`` asks of the solver (``budget`` None: analyze's default)."""

    samples: int
    seed: int
    budget: int | None


def _analyses(results: list[GameResult], asked: _Analysis) -> dict[int, GameAnalysis]:
    """Every deal of every game analysed as ``raspis analyze`` does it, with
    analyze's progress bar on a terminal."""
    from raspis_cli.analyze.post_mortem import GameAnalysis, analyze_deal, search_budget, summarize
    from raspis_cli.cli.analyze_cmd import PositionsBar, deal_weight, positions_of

    budget = search_budget(asked.budget)
    jobs = [(result, deal) for result in results for deal in result.deals]
    bar = PositionsBar([deal_weight(len(result.record.players), deal.cards, asked.samples)
                        for result, deal in jobs])
    found = iter(bar.track((analyze_deal(result, deal, samples=asked.samples, seed=asked.seed,
                                         budget=budget, on_positions=bar.visited)
                            for result, deal in jobs), positions_of))
    out: dict[int, GameAnalysis] = {}
    for result in results:
        deals = [next(found) for _ in result.deals]
        out[result.index] = GameAnalysis(result.index, result.record.tags.get("Event"), deals,
                                         summarize(result.record.players, deals))
    return out


def _game_page(file: str, lang: str, preset: str | None, options: list[str] | None,
               encoding: str | None, analysis: _Analysis | None) -> tuple[str, list[GameAnalysis] | None]:
    """The game page, and (with ``analysis``) what the analysis found, game by game."""
    from raspis_cli.judge.check import CheckError, iter_results
    from raspis_cli.report.game import game_context
    from raspis_cli.report.render import render

    choice = rules_choice(preset, options)
    check_encoding_option(encoding)
    found: dict[int, GameAnalysis] | None = None
    try:
        if analysis is not None:  # the solver's questions are asked game after game
            results = [first for first, _ in iter_results(file, choice, encoding)]
            found = _analyses(results, analysis)
            context = game_context(results, lang, found)
            del results
        else:  # each game's result goes once the page's part of it is made
            context = game_context((first for first, _ in iter_results(file, choice, encoding)), lang)
    except CheckError as e:
        fail(str(e))
    if not context["games"]:
        fail(_("{file} holds no game").format(file=file))
    left_out = context["replays_left_out"]
    if left_out:
        say("raspis: " + ngettext(
            "the replay of {n} game is left out of the page (from game {first} on; a page holds at most "
            "{mb} MB of replays): report a file with fewer games to see it",
            "the replays of {n} games are left out of the page (from game {first} on; a page holds at most "
            "{mb} MB of replays): report a file with fewer games to see them", len(left_out)).format(
            n=len(left_out), first=left_out[0], mb=context["replay_mb"]))
    return (render("game.html.j2", lang, title=Path(file).name, **context),
            None if found is None else list(found.values()))


def _club_page(db: str, lang: str) -> str:
    from raspis_cli.cli.store_cmd import open_existing
    from raspis_cli.report.club import club_context
    from raspis_cli.report.render import render
    from raspis_cli.store import StoreError
    from raspis_cli.store.db import interruptible, name_damage

    con, path = open_existing(db)
    try:
        with interruptible(con):
            context = club_context(con, lang)
    except StoreError as e:
        fail(name_damage(path, str(e)))
    finally:
        con.close()
    return render("club.html.j2", lang, title=Path(db).name, **context)
