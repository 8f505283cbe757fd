"""The club's pages of ``raspis serve --db``: read-only, as ``raspis stats`` opens the database.

``/club`` is the club report of ``raspis report --db``, ``/club/games`` the
index of the games stored, ``/club/game/ID`` one game's sheet (an ID is 20
hex digits: nothing else of the request reaches the database, and nothing
reaches a file). Each request opens a read-only, sandboxed connection and
closes it, so a ``raspis load`` between two requests is seen by the next.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

__all__ = ["club_routes"]

_GAME_ID = re.compile(r"[0-9a-f]{20}")


def club_routes(db: str, respond: Callable[[Response, Request, str], Response],
                pick_language: Callable[[Request], str]) -> list[Route]:
    """The routes of the club's pages of ``db``."""
    from pathlib import Path

    from raspis_cli.text.i18n import _, speaking

    lock = threading.Lock()
    title = Path(db).name

    def with_db(build: Callable[[Any], str | None]) -> str | None:
        from raspis_cli.store.db import check_schema, open_db

        with lock:
            con = open_db(db, read_only=True, sandboxed=True)
            try:
                check_schema(con, db)
                return build(con)
            finally:
                con.close()

    async def page(request: Request, build: Callable[[Any, str], str | None]) -> Response:
        from raspis_cli.store.errors import StoreError

        lang = pick_language(request)

        def work() -> str | None:
            with speaking(lang):
                return with_db(lambda con: build(con, lang))

        try:
            html = await run_in_threadpool(work)
        except StoreError as e:
            return respond(Response(str(e) + "\n", status_code=503, media_type="text/plain; charset=utf-8"),
                           request, lang)
        if html is None:
            with speaking(lang):
                missing = _("no game of this id in {db}").format(db=title)
            return respond(Response(missing + "\n", status_code=404, media_type="text/plain; charset=utf-8"),
                           request, lang)
        return respond(HTMLResponse(html), request, lang)

    async def club(request: Request) -> Response:
        from raspis_cli.report.club import club_context
        from raspis_cli.report.render import render

        def build(con: Any, lang: str) -> str:
            context = club_context(con, lang)
            context.update(game_href="club/game/", games_href="club/games", table_href="./")
            return render("club.html.j2", lang, title=title, **context)

        return await page(request, build)

    async def games(request: Request) -> Response:
        from raspis_cli.report.render import render
        from raspis_cli.report.stored import games_list

        def build(con: Any, lang: str) -> str:
            return render("games.html.j2", lang, title=title, games=games_list(con), game_href="game/",
                          club_href="../club")

        return await page(request, build)

    async def game(request: Request) -> Response:
        from raspis_cli.report.render import render
        from raspis_cli.report.stored import stored_game_context

        game_id = str(request.path_params["game_id"])

        def build(con: Any, lang: str) -> str | None:
            if not _GAME_ID.fullmatch(game_id):
                return None
            context = stored_game_context(con, game_id, lang)
            if context is None:
                return None
            return render("game.html.j2", lang, **context)

        return await page(request, build)

    return [Route("/club", club), Route("/club/games", games), Route("/club/game/{game_id}", game)]
