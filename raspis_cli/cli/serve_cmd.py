"""``raspis serve``: the sheet at the table on every phone, and the club's pages.

The web stack (Starlette, uvicorn, segno for the QR code) is the optional
extra ``raspis[serve]`` and is imported only when the command runs.
"""

from __future__ import annotations

import ipaddress
import secrets
import socket
import sys
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from raspis_cli.cli.app import app
from raspis_cli.cli.console import fail, stdout
from raspis_cli.cli.new_cmd import DealerOption
from raspis_cli.cli.options import RulesOption, SetOption, parse_stake
from raspis_cli.text.i18n import _, ngettext

if TYPE_CHECKING:
    from raspis_cli.sheet.editable import EditableSheet

__all__: list[str] = []

DEFAULT_PORT = 8765


def _say(text: str) -> None:
    from raspis_cli.text.textsafe import escape_text

    stdout.print("\n".join(escape_text(line) for line in text.split("\n")), markup=False, highlight=False)


def lan_address() -> str | None:
    """This machine's address on its local network: the one the routing table
    would send from (a UDP socket is connected, which sends nothing)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never contacted
            address = str(probe.getsockname()[0])
        except OSError:
            return None
    return None if ipaddress.ip_address(address).is_loopback else address


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


@app.command("serve")
def serve(
    file: Annotated[str, typer.Argument(help=_("The sheet: a new file, or an unfinished one to go on "
                                        "with."), metavar=_("FILE"))],
    players: Annotated[str | None, typer.Option(
        "--players", "-p", help=_('For a new file: the players in seating order, "Анна, Борис, Вера".'),
        metavar=_("NAMES"))] = None,
    rules: RulesOption = None,
    options: SetOption = None,
    dealer: DealerOption = None,
    lan: Annotated[bool, typer.Option(
        "--lan", help=_("Serve the phones of the local network: listen on this machine's LAN address "
                        "and print the address with an access code, and its QR code."))] = False,
    host: Annotated[str | None, typer.Option(
        "--host", metavar=_("ADDRESS"), help=_("Listen on this address instead (127.0.0.1 by default; "
                                               "--lan: the LAN address)."))] = None,
    port: Annotated[int, typer.Option("--port", min=0, max=65535, metavar=_("PORT"),
                                      help=_("The port (0: any free one)."))] = DEFAULT_PORT,
    db: Annotated[str | None, typer.Option(
        "--db", metavar=_("PATH"), help=_("Also serve the club page and every game's page of this "
                                          "database (read-only)."))] = None,
    stake: Annotated[str | None, typer.Option(
        "--stake", metavar=_("MONEY"), help=_("Money per point: at the end, who pays whom."))] = None,
) -> None:
    """Keep the sheet on every phone at the table: a small web server.

    Each phone shows the running score sheet and the open deal, and enters
    its trump, bids and tricks taken, checked as raspis live checks them;
    every entry is saved to FILE at once. With --lan the phones of the local
    network join by the printed address (with its access code) or its QR
    code. Ctrl-C stops the server.
    """
    import importlib.util

    if any(importlib.util.find_spec(name) is None for name in ("starlette", "uvicorn", "segno")):
        fail(_("raspis serve needs the web server: pip install 'raspis[serve]'"))
    money = parse_stake(stake) if stake is not None else None
    if db is not None:
        from raspis_cli.store.db import check_schema, open_db
        from raspis_cli.store.errors import StoreError

        try:
            con = open_db(db, read_only=True, sandboxed=True)
            try:
                check_schema(con, db)
            finally:
                con.close()
        except StoreError as e:
            fail(str(e))
    bind = host or ("127.0.0.1" if not lan else lan_address())
    if bind is None:
        fail(_("no local network address found: connect to the network, or give --host ADDRESS"))
    token = secrets.token_urlsafe(12) if lan or not _is_loopback(bind) else None
    from raspis_cli.cli.keeping import lock_sheet, open_written, start_new

    store = lock_sheet(file, "raspis serve")
    try:
        if store.exists():
            sheet = open_written(file, store, players, rules, options)
        elif players is None:
            fail(_("{file} is new: give the players with --players \"Анна, Борис, Вера\"").format(file=file))
        else:
            sheet = start_new(file, store, players, rules, options, dealer)
        _run(file, sheet, bind, port, token, money, db)
    finally:
        store.close()
    done = sheet.saved_played()
    _say(ngettext("stopped: {n} deal saved in {path}; go on with: raspis serve {path}",
                  "stopped: {n} deals saved in {path}; go on with: raspis serve {path}", done).format(
        n=done, path=file))


def _run(file: str, sheet: EditableSheet, bind: str, port: int, token: str | None, money: Decimal | None,
         db: str | None) -> None:
    """Listen, print the address (and its QR code), serve until Ctrl-C."""
    import segno

    from raspis_cli.serve.run import prepare

    family = socket.AF_INET6 if ":" in bind else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((bind, port))
    except OSError as e:
        listener.close()
        fail(_("cannot listen on {address}: {reason}").format(address=f"{bind}:{port}",
                                                             reason=e.strerror or e))
    listener.listen(64)
    actual = listener.getsockname()[1]
    shown = f"[{bind}]" if ":" in bind else bind
    url = f"http://{shown}:{actual}/" + (f"?t={token}" if token else "")
    server = prepare(sheet, title=Path(file).name, token=token, host=f"{shown}:{actual}",
                     any_host=bind in ("0.0.0.0", "::"), stake=money, db=db)
    _say(f"{file}: " + ", ".join(sheet.players))
    _say(_("open on the phones: {url}").format(url=url))
    if token:
        segno.make(url, error="m").terminal(out=sys.stdout, compact=True)
    _say(_("Ctrl-C stops the server; every entry is saved in {file} as it is made").format(file=file))
    sys.stdout.flush()
    try:
        server.run(sockets=[listener])
    except KeyboardInterrupt:  # uvicorn raises the Ctrl-C again once it has stopped: it is the way out
        pass
    finally:
        listener.close()
