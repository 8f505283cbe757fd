"""Putting the server together: the shared sheet, the app, uvicorn."""

from __future__ import annotations

import asyncio
import time
from decimal import Decimal

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from raspis_cli.page.table import Table
from raspis_cli.serve.app import ServeConfig, build_app
from raspis_cli.sheet.editable import EditableSheet

__all__ = ["prepare", "served_sheet"]


MAX_CONNECTIONS = 64
"""The most connections held at once (a table has a few phones, each with an
event stream and an entry or two in flight): one more is closed at once, so
that idle connections cannot take every file handle the sheet's save needs."""
IDLE_SECONDS = 10.0
"""How long a connection may stay open without sending a request."""
ACCEPT_BURST = 16
"""How many waiting connections are taken at a time (the rest wait their turn in the kernel)."""
KEEP_ALIVE_SECONDS = 5
"""How long a connection is kept open after its last answer."""


class _Guarded(H11Protocol):
    """uvicorn's HTTP protocol, with the connections held bounded: one beyond
    :data:`MAX_CONNECTIONS` is closed at once, one that sends no request for
    :data:`IDLE_SECONDS` is closed."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Take the connection, or close it when too many are held."""
        if len(self.connections) >= MAX_CONNECTIONS:
            transport.close()
            return
        super().connection_made(transport)
        self._idle = self.loop.call_later(IDLE_SECONDS, self._close_if_idle)

    def _close_if_idle(self) -> None:
        if self.cycle is None and not self.transport.is_closing():
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        """The connection is gone (its idle timer with it)."""
        idle = getattr(self, "_idle", None)
        if idle is not None:
            idle.cancel()
        if self in self.connections or getattr(self, "transport", None) is not None:
            super().connection_lost(exc)


class _Server(uvicorn.Server):
    """uvicorn's server, telling the event streams to end at Ctrl-C (so that
    the server stops at once, not when the phones hang up)."""

    def __init__(self, config: uvicorn.Config, serve: ServeConfig, table: Table) -> None:
        super().__init__(config)
        self.guarding = serve
        self.table = table

    def handle_exit(self, sig: int, frame: object) -> None:
        """Stop: the streams first, then uvicorn's own shutdown."""
        self.guarding.stopping.set()
        super().handle_exit(sig, frame)  # type: ignore[arg-type]


def _first_version() -> int:
    """The version a run of the server starts at: the milliseconds since the
    epoch (a later run starts higher than any version an earlier one reached,
    short of a thousand entries a second)."""
    return int(time.time() * 1000)


def prepare(sheet: EditableSheet, *, title: str, token: str | None, host: str, any_host: bool,
            stake: Decimal | None, db: str | None) -> uvicorn.Server:
    """The server of ``sheet`` (which saves itself through its file)."""
    from raspis_cli.page.render import table_html

    table = Table(sheet, first_version=_first_version())
    port = host.rsplit(":", 1)[1]
    loopback = {host, f"localhost:{port}"} if host.startswith("127.") else {host}
    hosts = None if any_host else frozenset(loopback)
    config = ServeConfig(title=title, token=token, hosts=hosts, stake=stake, db=db, port=int(port))

    def render_view(lang: str) -> str:
        return table_html(table, lang, stake)

    app = build_app(table, config, render_view)
    return _Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off",
                                  timeout_graceful_shutdown=2, http=_Guarded, backlog=ACCEPT_BURST,
                                  timeout_keep_alive=KEEP_ALIVE_SECONDS), config, table)


def served_sheet(server: uvicorn.Server) -> EditableSheet | None:
    """The sheet a server of :func:`prepare` keeps now (it may have read its
    file again); ``None`` for another server."""
    return server.table.sheet if isinstance(server, _Server) else None
