"""Opening a sheet to keep at the table, for ``raspis live`` and ``raspis serve``.

Both keep an :class:`~raspis_cli.sheet.editable.EditableSheet` saved through a
locked :class:`~raspis_cli.sheet.sheetfile.SheetFile`: :func:`open_written`
reads a file that exists (its own rules apply; a syntax error or a sheet that
cannot be kept is a failure saying where and why), :func:`start_new` writes
a new game's blank sheet at once; :func:`lock_sheet` takes the file first;
:func:`keep_open_deal` restores the open deal's answers kept beside the file
(:mod:`raspis_cli.sheet.journal`) and keeps them from then on.

The language of the sheet written (:func:`sheet_language`) is the file's own
(a sheet written in Russian stays Russian, whatever the interface's), and
for a new file the one asked with ``--lang``; never the locale's, so the same
typing makes the same file on any machine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from raspis_cli.cli.console import fail
from raspis_cli.cli.new_cmd import first_dealer, sheet_language, sheet_options
from raspis_cli.cli.options import build_rules, rules_choice
from raspis_cli.text.i18n import _

if TYPE_CHECKING:
    from raspis_cli.sheet.editable import EditableSheet
    from raspis_cli.sheet.sheetfile import SheetFile

__all__ = ["keep_open_deal", "lock_sheet", "open_written", "start_new"]


def lock_sheet(file: str, who: str) -> SheetFile:
    """The sheet's file, locked for ``who`` (``raspis live``, ``raspis serve``),
    or a failure naming the session that keeps it."""
    from raspis_cli.sheet.blank import SheetError
    from raspis_cli.sheet.sheetfile import SheetFile

    store = SheetFile(file, who)
    try:
        store.lock()
    except SheetError as e:
        fail(str(e))
    return store


def open_written(file: str, store: SheetFile, players: str | None, rules: str | None,
                 options: list[str] | None) -> EditableSheet:
    """The sheet of an existing file, or a failure saying why it cannot be kept
    (``--players``, when given, must name its players)."""
    from raspis_cli.cli.problems import print_diagnostic
    from raspis_cli.files.sources import load_data
    from raspis_cli.sheet.blank import SheetError, parse_players
    from raspis_cli.sheet.editable import EditableSheet

    if rules is not None or options:
        fail(_("{file} exists: its own rules apply (leave out --rules and --set)").format(file=file))
    try:
        data = store.read()
    except OSError as e:
        fail(_("{file}: cannot read: {reason}").format(file=file, reason=e.strerror or e))
    source = load_data(data, file, "notation")
    if source.error is not None and not source.diagnostics:
        fail(f"{file}: {source.error.message}")
    if source.diagnostics:
        for diag in source.diagnostics:
            print_diagnostic(diag, file)
        fail(_("{file} has syntax errors; mend them first (it is not rewritten)").format(file=file))
    try:
        sheet = EditableSheet(source.games, None, store, sheet_language(source.lines))
    except SheetError as e:
        fail(f"{file}: {e}")
    if players is not None:
        try:
            wanted = parse_players(players)
        except SheetError as e:
            fail(f"--players: {e}")
        if wanted != sheet.players:
            fail(_("{file} is the game of {players}; to go on with it, leave out --players").format(
                file=file, players=", ".join(sheet.players)))
    return sheet


def start_new(file: str, store: SheetFile, players: str, rules: str | None, options: list[str] | None,
              dealer: str | None) -> EditableSheet:
    """A new game of ``players`` (as ``raspis new`` writes it), saved at once."""
    import datetime

    from raspis_cli.sheet.blank import SheetError, blank_game, parse_players
    from raspis_cli.sheet.editable import EditableSheet

    built = build_rules(rules, options)
    try:
        names = parse_players(players)
        if dealer is not None:
            dealer = first_dealer(dealer, names)
        game = blank_game(built, names, rules or "raspisnoy", sheet_options(options),
                          {"Date": datetime.date.today().isoformat()}, dealer)
        sheet = EditableSheet([game], rules_choice(None, None), store, sheet_language())
        store.save(sheet.text())
    except SheetError as e:
        fail(str(e))
    except OSError as e:
        fail(_("{file}: cannot write: {reason}").format(file=file, reason=e.strerror or e))
    return sheet


def keep_open_deal(store: SheetFile, sheet: EditableSheet) -> str | None:
    """The open deal's answers a crash or a stop left in its journal, answered
    again, and the journal kept from now on: what was restored (or why the
    journal is not applied), in words; ``None`` when there was no journal."""
    from raspis_cli.sheet.journal import DealJournal

    journal = DealJournal(store)
    said = journal.restore(sheet)
    sheet.journal = journal
    return None if said is None else said.shown()
