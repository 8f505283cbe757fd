"""``raspis report``: one self-contained HTML page of a game file or of a club's database."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from raspis_cli.cli.common import (
    EncodingOption,
    RulesOption,
    SetOption,
    app,
    check_encoding_option,
    fail,
    rules_choice,
    stdout,
)
from raspis_cli.textsafe import escape_text

__all__: list[str] = []


@app.command("report")
def report(
    file: Annotated[str | None, typer.Argument(
        help="A record file (.rsp, .json, .jsonl): the game report. Leave out with --db.",
        metavar="[GAME_FILE]")] = None,
    db: Annotated[str | None, typer.Option(
        "--db", metavar="PATH", help="The club report of this database instead of a game file.")] = None,
    output: Annotated[str, typer.Option("--output", "-o", metavar="FILE.html",
                                        help="Write the page here.")] = "report.html",
    lang: Annotated[str | None, typer.Option(
        "--lang", metavar="en|ru",
        help="Language of the page (default: the interface language, from LANGUAGE/LC_ALL/LANG).")] = None,
    preset: RulesOption = None,
    options: SetOption = None,
    encoding: EncodingOption = None,
) -> None:
    """One HTML file, no server, no network: a game's score sheet (расписка)
    with differences highlighted, the running-totals chart and a
    trick-by-trick replay; or (--db) the club page: ratings, leaderboards by
    rules and table size, bid accuracy, head to head, the most dramatic games."""
    from raspis_cli.report.strings import LANGS, interface_lang

    if lang is not None and lang not in LANGS:
        raise typer.BadParameter(f"expected one of {', '.join(LANGS)}, got {lang!r}", param_hint="--lang")
    language = interface_lang(lang)
    if (file is None) == (db is None):
        fail("give a game file, or --db DATABASE for the club report (not both)")
    if db is not None:
        page = _club_page(db, language)
    else:
        assert file is not None
        page = _game_page(file, language, preset, options, encoding)
    try:
        Path(output).write_text(page, encoding="utf-8")
    except OSError as e:
        fail(f"cannot write {output}: {e.strerror or e}")
    size = len(page.encode("utf-8")) // 1024 + 1
    stdout.print(escape_text(f"wrote {output} ({size} KB)"), markup=False, highlight=False)


def _game_page(file: str, lang: str, preset: str | None, options: list[str] | None,
               encoding: str | None) -> str:
    from raspis_cli.cli.score_cmd import _pick_games
    from raspis_cli.report.game import game_context
    from raspis_cli.report.render import render

    choice = rules_choice(preset, options)
    check_encoding_option(encoding)
    results = [first for first, _ in _pick_games(file, None, choice, None, encoding)]
    if not results:
        fail(f"{file} holds no game")
    return render("game.html.j2", lang, title=Path(file).name, **game_context(results, lang))


def _club_page(db: str, lang: str) -> str:
    from raspis_cli.cli.store_cmd import _open_existing
    from raspis_cli.report.club import club_context
    from raspis_cli.report.render import render
    from raspis_cli.store import StoreError
    from raspis_cli.store.db import name_damage

    con, path = _open_existing(db)
    try:
        context = club_context(con, lang)
    except StoreError as e:
        fail(name_damage(path, str(e)))
    finally:
        con.close()
    return render("club.html.j2", lang, title=Path(db).name, **context)
