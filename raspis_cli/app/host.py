"""A built app served on this machine, for trying it: ``raspis app serve DIR``.

The standard library's HTTP server over the build's folder, on the loopback
address only (a phone needs https from elsewhere: a club publishes the folder
on a static https host). Every answer is a file of the folder as it is; the
service worker and the page are sent with ``no-cache`` so that a new build is
seen at the next visit, the runtime with its WebAssembly type.
"""

from __future__ import annotations

import functools
import http.server
import sys
from pathlib import Path

__all__ = ["AppServer", "app_server"]

TYPES = {".wasm": "application/wasm", ".js": "text/javascript", ".mjs": "text/javascript",
         ".json": "application/json", ".webmanifest": "application/manifest+json", ".zip": "application/zip",
         ".svg": "image/svg+xml", ".png": "image/png", ".html": "text/html", ".txt": "text/plain"}
FRESH = ("/", "/index.html", "/sw.js", "/manifest.webmanifest")
"""What is asked again at every visit (the rest is kept by the service worker, named by the build)."""


class _Files(http.server.SimpleHTTPRequestHandler):
    """The folder's files; nothing listed, nothing logged to the terminal."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}  # noqa: RUF012

    def end_headers(self) -> None:
        """The headers, with the cache rule of the file sent."""
        path = self.path.split("?", 1)[0]
        self.send_header("Cache-Control", "no-cache" if path in FRESH else "max-age=3600")
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()

    def list_directory(self, path: str | Path) -> None:  # type: ignore[override]
        """No folder is listed."""
        self.send_error(404)

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the terminal shows only the address."""


class AppServer(http.server.ThreadingHTTPServer):
    """The server of one build's folder."""

    daemon_threads = True
    block_on_close = False
    """Ctrl-C stops at once: a browser's download in flight is not waited for."""

    def handle_error(self, request: object, client_address: object) -> None:
        """A browser that hangs up before a file is sent is no error; anything
        else is one line on stderr, never a traceback."""
        error = sys.exc_info()[1]
        if isinstance(error, (ConnectionError, TimeoutError)):
            return
        sys.stderr.write(f"raspis: {client_address}: {type(error).__name__}: {error}\n")


def app_server(folder: str, port: int) -> AppServer:
    """A server of ``folder`` on ``127.0.0.1:port`` (0: any free port); raises :class:`OSError`."""
    handler = functools.partial(_Files, directory=folder)
    return AppServer(("127.0.0.1", port), handler)
