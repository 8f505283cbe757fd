"""``raspis serve``: the sheet at the table on every phone, and the club's pages.

The web stack (Starlette, uvicorn, segno for the QR code) is the optional
``serve`` extra and is imported only when the command runs.
"""

from __future__ import annotations

import ipaddress
import socket
import sys
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from raspis_cli.cli.app import app
from raspis_cli.cli.console import fail, how_to_install, need_modules, shell_command, stdout
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
    new_code: Annotated[bool, typer.Option(
        "--new-code", help=_("Make a new access code (it is kept beside the file for the next start): "
                             "the links and QR codes printed before stop working."))] = False,
) -> None:
    """Keep the sheet on every phone at the table: a small web server.

    Each phone shows the running score sheet and the open deal, and enters
    its trump, bids and tricks taken, checked as raspis live checks them;
    every entry is saved to FILE at once. With --lan the phones of the local
    network join by the printed address (with its access code) or its QR
    code; the code is kept beside FILE, so a restart keeps their links
    (--new-code makes a new one). Ctrl-C stops the server.
    """
    need_modules(("starlette", "uvicorn", "segno"),
                 _("raspis serve needs the web server, the serve extra: {install}").format(
                     install=how_to_install("serve")))
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
    with_code = lan or not _is_loopback(bind)
    from raspis_cli.cli.keeping import keep_open_deal, lock_sheet, open_written, start_new

    store = lock_sheet(file, "raspis serve")
    try:
        if store.exists():
            from raspis_cli.cli.live_cmd import disagreement_lines

            sheet = open_written(file, store, players, rules, options)
            for line in disagreement_lines(sheet, file):
                _say(line)
        elif players is None:
            fail(_("{file} is new: give the players with --players \"Анна, Борис, Вера\"").format(file=file))
        else:
            sheet = start_new(file, store, players, rules, options, dealer)
        token = _access_code(store.target, new_code) if with_code else None
        if new_code and not with_code:
            _say(_("--new-code: no access code is used on this address (only with --lan or another --host)"))
        restored = keep_open_deal(store, sheet)
        if restored:
            _say(restored)
        actual, sheet = _run(file, sheet, bind, port, token, money, db)
        _keep_comments(store.target, sheet)
        done = _saved_in_file(store.target, sheet)
    finally:
        store.close()
    again = ["raspis", "serve", file] + (["--lan"] if lan else []) + (["--host", host] if host else [])
    if actual != DEFAULT_PORT:
        again += ["--port", str(actual)]
    _say(ngettext("stopped: {n} deal saved in {path}; go on with: {command}",
                  "stopped: {n} deals saved in {path}; go on with: {command}", done).format(
        n=done, path=file, command=shell_command(*again)))


def _access_code(target: str, new: bool) -> str:
    """The sheet's access code, kept beside it (a new one with ``new``)."""
    from raspis_cli.serve.access import AccessCodeError, sheet_code

    try:
        got = sheet_code(target, new=new)
    except AccessCodeError as e:
        fail(str(e))
    if got.renewed:
        _say(_("a new access code: the links and QR codes printed before no longer open the page"))
    elif got.made:
        _say(_("the access code is kept in {path} for the next start (--new-code makes a new one)").format(
            path=got.path))
    return got.code


def _keep_comments(target: str, sheet: EditableSheet) -> None:
    """At the stop, the comments typed for the deal not finished saved (as
    ``live`` saves them when it quits); when they cannot be, what would have
    been saved is kept aside, and said."""
    from raspis_cli.sheet.blank import SheetError
    from raspis_cli.sheet.sheetfile import keep_aside

    try:
        sheet.keep_comments()
    except (SheetError, OSError) as e:
        reason = (e.strerror or str(e)) if isinstance(e, OSError) else str(e)
        copy = keep_aside(target, sheet.unsaved) if sheet.unsaved is not None else None
        _say(_("not saved: {reason}").format(reason=reason)
             + ("; " + _("what it would have saved is kept in {copy}").format(copy=copy) if copy else ""))


def _saved_in_file(target: str, sheet: EditableSheet) -> int:
    """How many deals the file holds with their results, read back from the
    file as saved (what the sheet says it saved, when it cannot be read)."""
    from raspis_cli.files.sources import load_data
    from raspis_cli.sheet.blank import is_played

    try:
        with open(target, "rb") as handle:
            source = load_data(handle.read(), target, "notation")
    except OSError:
        return sheet.saved_played()
    if source.error is not None or source.diagnostics or not source.games:
        return sheet.saved_played()
    return sum(1 for d in source.games[-1].deals if is_played(d))


def _run(file: str, sheet: EditableSheet, bind: str, port: int, token: str | None, money: Decimal | None,
         db: str | None) -> tuple[int, EditableSheet]:
    """Listen, print the address (and its QR code), serve until Ctrl-C; the
    port it listened on, and the sheet kept at the end (read again from the
    file when a phone asked)."""
    import segno

    from raspis_cli.serve.run import prepare, served_sheet

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
    return int(actual), served_sheet(server) or sheet
