"""``raspis app``: the table on one phone, offline: build the app, try it here."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from raspis_cli.cli.app import app
from raspis_cli.cli.console import fail, say, shell_command
from raspis_cli.text.i18n import _, ngettext
from raspis_cli.text.messages import Message

__all__: list[str] = []

DEFAULT_PORT = 8766

app_app = typer.Typer(help=_("The sheet on one phone, offline: an installable web app that runs raspis's "
                             "own checks in the browser."), no_args_is_help=True)
app.add_typer(app_app, name="app")


def _megabytes(n: int) -> str:
    return f"{n / 1_000_000:.1f}"


@app_app.command("build")
def build(
    folder: Annotated[str, typer.Argument(help=_("The folder to write the app into (new, empty, or an "
                                          "earlier build)."), metavar=_("DIR"))],
    pyodide: Annotated[str | None, typer.Option(
        "--pyodide", help=_("The Python runtime from a file or folder here: the npm package pyodide's "
                            "tarball or folder (default: downloaded once from the npm registry and "
                            "checked)."), metavar=_("PATH"))] = None,
) -> None:
    """Write the phone app into DIR: static files for any https host, offline after the first visit."""
    from raspis_cli.app.bundle import BuildError, build_app

    def tell(message: Message) -> None:
        say("raspis: " + message.shown())

    try:
        built = build_app(folder, pyodide, tell)
    except BuildError as e:
        fail(e.message.shown())
    say("raspis: " + ngettext("wrote {folder}: {n} file, {mb} MB (the first visit downloads it; then the "
                              "app works offline)",
                              "wrote {folder}: {n} files, {mb} MB (the first visit downloads them; then the "
                              "app works offline)", len(built.files)).format(
        folder=folder, n=len(built.files), mb=_megabytes(built.total_bytes)))
    say("raspis: " + _("try it here with: {command}; publish the folder on any https host for the "
                       "phones").format(command=shell_command("raspis", "app", "serve", folder)))


@app_app.command("serve")
def serve_app(
    folder: Annotated[str, typer.Argument(help=_("The folder of a build of the app."), metavar=_("DIR"))],
    port: Annotated[int, typer.Option("--port", min=0, max=65535, metavar=_("PORT"),
                                      help=_("The port (0: any free one)."))] = DEFAULT_PORT,
) -> None:
    """Serve a built app on this machine (127.0.0.1) to try it in a browser; Ctrl-C stops."""
    from raspis_cli.app.bundle import MARKER
    from raspis_cli.app.host import app_server

    if not (Path(folder) / MARKER).is_file():
        fail(_("{folder} is not a folder written by {command}").format(
            folder=folder, command=shell_command("raspis", "app", "build", folder)))
    try:
        server = app_server(folder, port)
    except OSError as e:
        fail(_("cannot listen on port {port}: {reason}").format(port=port, reason=e.strerror or e))
    address = f"http://127.0.0.1:{server.server_address[1]}/"
    say("raspis: " + _("the app is at {address} (this machine only); Ctrl-C stops").format(address=address))
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
