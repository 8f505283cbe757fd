"""The web server of ``raspis serve``: the table's page, its entries, its club.

A Starlette application (run by uvicorn from :mod:`raspis_cli.cli.serve_cmd`):

- ``GET /`` the page of the table; ``GET /table.js`` its script (from the
  package, read once: no request names a file);
- ``GET /api/view`` the sheet as it is now (``{"version", "html"}``);
- ``POST /api/say`` an entry (``{"version", "text"}``: a word as typed at
  ``raspis live``); the answer carries the sheet as it is after it, and
  HTTP 409 when the entry was made against an older version;
- ``GET /api/events`` server-sent events: the version, each time it changes
  and every second (a heartbeat: the page says "offline" when it stops);
- with a database: ``GET /club``, ``GET /club/games`` and
  ``GET /club/game/ID`` (read-only, as ``raspis stats`` opens it).

Security, for a LAN that is not trusted: with a token every request must
carry it (``?t=`` once, then a cookie of this port kept a month; compared in
constant time), and an entry carries it in the ``X-Raspis-Token`` header the
page's script reads from the page (a form of another page cannot send it);
the Host header must name the server (no DNS rebinding); an entry (every
request that is not a GET) must come from the page itself, in every mode
(``Origin`` the server's own, ``Sec-Fetch-Site`` same-origin when sent) and
be JSON with its content type; request bodies are bounded, and so are the
JSON's depth and its text (valid Unicode, no lone surrogate); everything
shown passes Jinja2's autoescaping with bidi controls shown, never obeyed; a
Content-Security-Policy allows no script but the package's own.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import re
import threading
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from raspis_cli.page.table import Table
from raspis_cli.text.i18n import _, explicit_language, language, speaking
from raspis_cli.text.textsafe import isolated_text

__all__ = ["MAX_BODY", "ServeConfig", "build_app"]

MAX_BODY = 4096
"""The largest request body taken (an entry is a few dozen bytes)."""
MAX_DEPTH = 4
"""The deepest nesting of a request's JSON taken (an entry is one flat object)."""

TOKEN_COOKIE = "raspis_token"
TOKEN_COOKIE_AGE = 3600 * 24 * 30
"""How long a phone keeps the access code (seconds): a month of evenings."""
HEARTBEAT = 1.0
"""Seconds between the event stream's messages when nothing changes: a page
that hears none for a few seconds says it is offline."""
LANG_COOKIE = "raspis_lang"
_GAME_ID = re.compile(r"[0-9a-f]{20}")
_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; "
                               "img-src 'self' data:; connect-src 'self'; form-action 'self'; "
                               "base-uri 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


@dataclass
class ServeConfig:
    """What the server serves and how it guards it."""

    title: str
    token: str | None = None
    hosts: frozenset[str] | None = None
    """The Host headers accepted (None: any, when bound to every interface)."""
    stake: Decimal | None = None
    db: str | None = None
    stopping: threading.Event = field(default_factory=threading.Event)
    port: int | None = None
    """The port served: the access code's cookie is this port's own."""

    @property
    def cookie(self) -> str:
        """The name of the access code's cookie (a cookie is sent to every port
        of a host: each server its own)."""
        return TOKEN_COOKIE if self.port is None else f"{TOKEN_COOKIE}_{self.port}"


def _pick_language(request: Request) -> str:
    """``?lang=``, then the page's cookie, then ``--lang``, then the browser's
    Accept-Language, then the interface language."""
    for value in (request.query_params.get("lang"), request.cookies.get(LANG_COOKIE), explicit_language()):
        if value in ("ru", "en"):
            return value
    accept = request.headers.get("accept-language", "")
    for part in accept.split(","):
        tag = part.split(";", 1)[0].strip().lower()
        if tag.startswith("ru"):
            return "ru"
        if tag.startswith("en"):
            return "en"
    return language()


class Guard:
    """ASGI middleware: the Host header and the token, on every request."""

    def __init__(self, app: ASGIApp, config: ServeConfig) -> None:
        self.app = app
        self.config = config

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        hosts = self.config.hosts
        if hosts is not None and request.headers.get("host", "") not in hosts:
            await _refuse(400, _("this server answers only at its own address"))(scope, receive, send)
            return
        changing = scope.get("method", "GET") not in ("GET", "HEAD")
        if changing and not _same_origin(request):
            with speaking(_pick_language(request)):
                refusal = _refuse(403, _("an entry is taken only from this server's own page"))
            await refusal(scope, receive, send)
            return
        token = self.config.token
        if token is not None:
            given = (request.headers.get("x-raspis-token") or "" if changing  # never a cookie alone
                     else request.query_params.get("t") or request.headers.get("x-raspis-token")
                     or request.cookies.get(self.config.cookie) or "")
            if not hmac.compare_digest(given.encode("utf-8", "replace"), token.encode("utf-8")):
                with speaking(_pick_language(request)):
                    refusal = _refuse(403, _("this page needs the link raspis serve printed (with its access "
                                             "code): scan the QR code or type the whole address"))
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)


def _same_origin(request: Request) -> bool:
    """Whether a request that changes the sheet comes from the server's own
    page: its ``Origin`` (when sent) is the server's own address (as the Host
    header names it; ``null``, a file or another port is not), and its
    ``Sec-Fetch-Site`` (when sent) is ``same-origin``. A request with neither
    comes from no browser's page (a program; a form cannot send JSON)."""
    origin = request.headers.get("origin")
    if origin is not None and origin != "http://" + request.headers.get("host", ""):
        return False
    site = request.headers.get("sec-fetch-site")
    return site is None or site == "same-origin"


def _depth(body: bytes) -> int:
    """How deep a JSON text's arrays and objects nest (brackets inside strings not counted)."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in body:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            deepest = max(deepest, depth)
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return deepest


def _valid_text(value: object) -> bool:
    """Whether every string of a JSON value is valid Unicode (no lone surrogate, which no UTF-8 holds)."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True
    if isinstance(value, dict):
        return all(_valid_text(k) and _valid_text(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_valid_text(v) for v in value)
    return True


def _refuse(status: int, message: str) -> Response:
    return Response(message + "\n", status_code=status, media_type="text/plain; charset=utf-8",
                    headers=_HEADERS)


async def _read_json(request: Request) -> dict[str, Any] | Response:
    """The request's JSON object, or the refusal (not sent as JSON, too large,
    too deep, not JSON, not valid Unicode)."""
    kind = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if kind != "application/json":
        return _refuse(415, _("an entry is taken only as the page sends it (JSON)"))
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        return _refuse(413, _("the request is larger than {limit} bytes").format(limit=MAX_BODY))
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            return _refuse(413, _("the request is larger than {limit} bytes").format(limit=MAX_BODY))
    if _depth(body) > MAX_DEPTH:
        return _refuse(400, _("the request nests deeper than {limit} levels").format(limit=MAX_DEPTH))
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return _refuse(400, _("the request is not a JSON object"))
    if not isinstance(data, dict):
        return _refuse(400, _("the request is not a JSON object"))
    if not _valid_text(data):
        return _refuse(400, _("the request holds a character no text may hold (a lone surrogate)"))
    return data


class Changes:
    """Wakes the event streams when the version changes."""

    def __init__(self) -> None:
        self.event = asyncio.Event()

    def notify(self) -> None:
        """Wake every stream waiting now."""
        event, self.event = self.event, asyncio.Event()
        event.set()


async def _heartbeat_stream(table: Table, changes: Changes, stopping: threading.Event) -> AsyncIterator[str]:
    """The event stream: the version at once, at every change, and again every
    :data:`HEARTBEAT` seconds (the page's sign that the server is there)."""
    loop = asyncio.get_running_loop()
    yield "retry: 1000\n\n"
    sent, last = -1, 0.0
    while not stopping.is_set():  # Ctrl-C ends every stream within half a second
        now = loop.time()
        if table.version != sent or now - last >= HEARTBEAT:
            sent, last = table.version, now
            yield f"data: {sent}\n\n"
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(changes.event.wait(), min(0.5, max(0.05, HEARTBEAT - (now - last))))


def build_app(table: Table, config: ServeConfig,
              render_view: Callable[[str], str]) -> ASGIApp:
    """The application: ``render_view(lang)`` is the sheet's HTML in ``lang``
    (called under the table's lock, in a worker thread)."""
    from raspis_cli.page.render import page_script, render_page

    script = page_script()
    changes = Changes()
    cache: dict[tuple[int, str], str] = {}

    def view(lang: str) -> tuple[int, str]:
        with table.lock:
            key = (table.version, lang)
            if key not in cache:
                with speaking(lang):
                    if len(cache) > 8:  # older versions are never asked again
                        cache.clear()
                    cache[key] = render_view(lang)
            return key[0], cache[key]

    def respond(response: Response, request: Request, lang: str) -> Response:
        response.headers.update(_HEADERS)
        if request.query_params.get("lang") in ("ru", "en"):
            response.set_cookie(LANG_COOKIE, lang, max_age=3600 * 24 * 365, samesite="strict")
        given = request.query_params.get("t")
        if config.token is not None and given is not None:  # kept through a restart of the browser or server
            response.set_cookie(config.cookie, given, max_age=TOKEN_COOKIE_AGE, httponly=True,
                                samesite="strict")
        return response

    async def page(request: Request) -> Response:
        lang = _pick_language(request)
        version, html = await run_in_threadpool(view, lang)

        def full() -> str:
            with speaking(lang):
                from raspis_cli.page.view import page_words

                return render_page("table.html.j2", lang, title=config.title, version=version, body=html,
                                   club=config.db is not None, words=page_words(lang),
                                   token=config.token or "")

        return respond(HTMLResponse(await run_in_threadpool(full)), request, lang)

    async def script_file(request: Request) -> Response:
        return respond(Response(script, media_type="text/javascript; charset=utf-8"), request, "en")

    async def api_view(request: Request) -> Response:
        lang = _pick_language(request)
        version, html = await run_in_threadpool(view, lang)
        return respond(JSONResponse({"version": version, "html": html}), request, lang)

    async def api_say(request: Request) -> Response:
        lang = _pick_language(request)
        data = await _read_json(request)
        if isinstance(data, Response):
            return respond(data, request, lang)
        version, text = data.get("version"), data.get("text")
        if type(version) is not int or not isinstance(text, str) or len(text) > 300:  # true is no version
            with speaking(lang):
                refusal = _refuse(400, _("an entry is {\"version\": N, \"text\": \"...\"}"))
            return respond(refusal, request, lang)

        def enter() -> tuple[Any, int, str]:
            with speaking(lang):
                reply = table.answer(version, text)
            now, html = view(lang)
            return reply, now, html

        reply, now, html = await run_in_threadpool(enter)
        if now != version:  # an entry taken, or a save that failed: every phone is told
            changes.notify()
        status = 409 if reply.stale else 200
        return respond(JSONResponse({"ok": reply.ok, "stale": reply.stale,
                                     "message": isolated_text(reply.message), "version": now, "html": html},
                                    status_code=status), request, lang)

    async def api_events(request: Request) -> Response:
        return respond(StreamingResponse(_heartbeat_stream(table, changes, config.stopping),
                                         media_type="text/event-stream"), request, "en")

    async def nothing(request: Request) -> Response:
        return Response(status_code=204, headers=_HEADERS)

    routes = [
        Route("/", page),
        Route("/table.js", script_file),
        Route("/api/view", api_view),
        Route("/api/say", api_say, methods=["POST"]),
        Route("/api/events", api_events),
        Route("/favicon.ico", nothing),
    ]
    if config.db is not None:
        from raspis_cli.serve.club import club_routes

        routes += club_routes(config.db, respond, _pick_language)
    return Guard(Starlette(routes=routes), config)
