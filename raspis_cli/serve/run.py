"""Putting the server together: the shared sheet, the app, uvicorn."""

from __future__ import annotations

import time
from decimal import Decimal

import uvicorn

from raspis_cli.serve.app import ServeConfig, build_app
from raspis_cli.serve.table import Table
from raspis_cli.sheet.editable import EditableSheet

__all__ = ["prepare"]


class _Server(uvicorn.Server):
    """uvicorn's server, telling the event streams to end at Ctrl-C (so that
    the server stops at once, not when the phones hang up)."""

    def __init__(self, config: uvicorn.Config, serve: ServeConfig) -> None:
        super().__init__(config)
        self.guarding = serve

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
    from raspis_cli.serve.render import render_page
    from raspis_cli.serve.view import table_view

    table = Table(sheet, first_version=_first_version())
    port = host.rsplit(":", 1)[1]
    loopback = {host, f"localhost:{port}"} if host.startswith("127.") else {host}
    hosts = None if any_host else frozenset(loopback)
    config = ServeConfig(title=title, token=token, hosts=hosts, stake=stake, db=db)

    def render_view(lang: str) -> str:
        return render_page("table_body.html.j2", lang, v=table_view(sheet, lang, stake))

    app = build_app(table, config, render_view)
    return _Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off",
                                  timeout_graceful_shutdown=2), config)
