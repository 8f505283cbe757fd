"""The phone app's model: sheets kept in the browser, the table's page run there.

The app runs raspis's own Python in the browser (Pyodide). This module is
what its script calls, a thin adapter over the table's page
(:mod:`raspis_cli.page`): the same :class:`~raspis_cli.page.table.Table`
(the editable sheet of ``raspis live``: every check, the forbidden bid,
corrections, written values kept), the same view and templates as
``raspis serve``, with the browser's storage where ``serve`` has a file.

What the storage holds (every value a string; the same whatever the
language shown):

- ``raspis.games``: the list of games, newest first (JSON: id, title,
  players, date, deals written and scheduled, last change);
- ``raspis.sheet.ID``: a game's sheet, the text of its ``.rsp`` file, saved
  whole after every change (what export gives, byte for byte);
- ``raspis.open.ID``: the open deal's answers (the journal ``raspis live``
  keeps beside a file, :mod:`raspis_cli.sheet.journal`), tied to the SHA-256
  of the sheet's text, so that a reload or a closed browser loses nothing
  typed.

Every call that a page makes returns JSON text (the script parses it): an
answer is ``{"ok", "message", ...}``; a refusal says why in the language
asked. Nothing here imports a web framework or touches the network.
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import json
import re
import uuid
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Protocol

from raspis_cli.model.record import GameRecord
from raspis_cli.page.render import render_page, table_html
from raspis_cli.page.table import Table
from raspis_cli.page.view import page_words
from raspis_cli.rules import PRESETS, Rules, RulesError, preset_description
from raspis_cli.sheet.blank import SheetError, blank_game, is_played, parse_players
from raspis_cli.sheet.editable import EditableSheet
from raspis_cli.sheet.journal import FORMAT, answer_again, open_deal_record, restored_words
from raspis_cli.text.i18n import _, ngettext, speaking
from raspis_cli.text.messages import Message, msg

__all__ = ["GAMES_KEY", "OPEN_KEY", "SHEET_KEY", "GameEntry", "Phone", "Storage", "app_words"]

GAMES_KEY = "raspis.games"
SHEET_KEY = "raspis.sheet."
OPEN_KEY = "raspis.open."
TEMPLATES = Path(__file__).resolve().parent / "templates"
"""The app's own templates (they extend and include the table's page's)."""
MAX_IMPORT_BYTES = 2_000_000
"""The largest file taken by import (a sheet is a few kilobytes; a club's year of games fits)."""


class Storage(Protocol):
    """The browser's ``localStorage`` (or a dictionary standing in for it in tests)."""

    def getItem(self, key: str) -> str | None:  # noqa: N802  (the browser's names)
        """The value kept under ``key``, or ``None``."""

    def setItem(self, key: str, value: str) -> None:  # noqa: N802
        """Keep ``value`` under ``key``; raises when the storage is full."""

    def removeItem(self, key: str) -> None:  # noqa: N802
        """Forget ``key``."""


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _keep(storage: Storage, key: str, value: str) -> None:
    """Write to the storage, its failure (full, refused) an :class:`OSError`
    as a file's would be: the table then keeps the sheet as it was."""
    try:
        storage.setItem(key, value)
    except Exception as e:  # the browser's QuotaExceededError reaches Python as a JsException
        raise OSError(28, _("the phone's storage for this app is full or refused: {reason}").format(
            reason=str(e).strip() or type(e).__name__)) from e


class BrowserSheet:
    """Where a sheet is saved in the browser (the :class:`~raspis_cli.sheet.editable.SheetStore`
    of the app): its text under ``raspis.sheet.ID``."""

    def __init__(self, storage: Storage, game_id: str) -> None:
        self.storage = storage
        self.game_id = game_id

    def read(self) -> str | None:
        """The sheet's text as kept, or ``None``."""
        return self.storage.getItem(SHEET_KEY + self.game_id)

    def digest(self) -> str | None:
        """The SHA-256 of the text as kept (what the open deal's answers are tied to)."""
        text = self.read()
        return None if text is None else _digest(text)

    def save(self, text: str) -> None:
        """Keep the whole text in one step; :class:`OSError` when the storage refuses it."""
        _keep(self.storage, SHEET_KEY + self.game_id, text)


class BrowserJournal:
    """The open deal's answers kept under ``raspis.open.ID`` after every
    change (the :class:`~raspis_cli.sheet.editable.DealKeeper` of the app)."""

    def __init__(self, store: BrowserSheet) -> None:
        self.store = store
        self.key = OPEN_KEY + store.game_id

    def keep(self, sheet: EditableSheet) -> None:
        """Keep the answers of the sheet's unfinished deal (forget them when there are none)."""
        record = open_deal_record(sheet, self.store.game_id, self.store.digest())
        if record is None:
            self.store.storage.removeItem(self.key)
            return
        _keep(self.store.storage, self.key, json.dumps(record, ensure_ascii=False))

    def restore(self, sheet: EditableSheet) -> Message | None:
        """Answer the kept values again in the sheet's open deal; what was
        restored, or why nothing was (``None``: nothing kept)."""
        text = self.store.storage.getItem(self.key)
        if text is None:
            return None
        try:
            record = json.loads(text)
        except ValueError:
            record = None
        if not isinstance(record, dict) or record.get("format") != FORMAT:
            return msg("the open deal's answers kept on this phone do not read: they are not applied")
        number, index, answers = record.get("deal"), record.get("index"), record.get("answers")
        if not isinstance(number, int) or not isinstance(index, int) or not isinstance(answers, list):
            return msg("the open deal's answers kept on this phone do not read: they are not applied")
        if record.get("sha256") != self.store.digest():
            return msg("the answers of deal {number} kept on this phone belong to the sheet as it was "
                       "before it changed: they are not applied").format(number=number)
        taken = answer_again(sheet, number, index, answers)
        if not taken:
            return msg("the answers of deal {number} kept on this phone are not taken by the sheet "
                       "now").format(number=number)
        return restored_words(number, taken, len(answers))


@dataclass(frozen=True)
class GameEntry:
    """A game in the list: what the list shows of it."""

    id: str
    players: list[str]
    date: str
    written: int
    deals: int
    over: bool
    updated: str


def app_words(lang: str) -> dict[str, str]:
    """The words of the app's own screens (the table's are :func:`page_words`), translated."""
    words = page_words(lang)
    words.update({
        "games": _("Games on this phone"), "all_games": _("All games"), "new_game": _("New game"),
        "players": _("Players"),
        "players_hint": _("In seating order, clockwise, separated by commas"),
        "rules": _("Rules"), "date": _("Date"), "start": _("Start the game"),
        "open_file": _("Open a .rsp file"), "share": _("Share the .rsp"), "delete": _("Delete"),
        "no_games": _("No games yet: start one below, or open a .rsp file."),
        "over": _("over"), "kept_here": _("Kept on this phone only: share each finished game's .rsp."),
        "delete_confirm": _("Delete this game from the phone? Share its .rsp first to keep it."),
    })
    return words


def _sheet_of(text: str, name: str) -> tuple[list[GameRecord], str] | Message:
    """The games of a sheet's text and the language it is written in, or why it cannot be kept."""
    from raspis_cli.files.sources import load_data
    from raspis_cli.notation.writer import written_language

    source = load_data(text.encode("utf-8"), name, "notation")
    if source.error is not None and not source.diagnostics:
        return source.error.message
    if source.diagnostics:
        first = source.diagnostics[0]
        said = first.message if first.pos is None else (
            msg("line {line}").format(line=first.pos.line) + ": " + first.message)
        return msg("{file} has syntax errors; mend them first").format(file=name) + ": " + said
    if not source.games:
        return msg("{file} holds no game").format(file=name)
    return source.games, written_language(source.lines, "en")


def _editable(text: str, name: str, store: BrowserSheet | None) -> EditableSheet | str:
    """The sheet a text holds, saved through ``store``; or why it cannot be kept, in words."""
    read = _sheet_of(text, name)
    if isinstance(read, Message):
        return read.shown()
    games, written_in = read
    try:
        return EditableSheet(games, None, store, written_in)
    except SheetError as e:
        return f"{name}: {e}"


def _json(**fields: Any) -> str:
    return json.dumps(fields, ensure_ascii=False)


def _file_name(entry: GameEntry) -> str:
    """The export's file name: the date and the players (``2026-12-07 Анна Борис Вера.rsp``)."""
    name = " ".join(p for p in [entry.date, *entry.players] if p)
    name = re.sub(r"[\\/:*?\"<>|\x00-\x1f]+", "_", name).strip(". ") or "raspis"
    return name[:120] + ".rsp"


class Phone:
    """The app's games and the one open (see the module's docstring).

    ``today`` gives the date of a new game (the phone's own day, which the
    script passes: the browser knows the local date, Python may not)."""

    def __init__(self, storage: Storage, today: Callable[[], str] | None = None) -> None:
        self.storage = storage
        self.today = today or (lambda: datetime.date.today().isoformat())
        self.table: Table | None = None
        self.game_id: str | None = None

    # -- the list of games ------------------------------------------------------------------

    def games(self) -> list[GameEntry]:
        """The games kept on the phone, the last changed first."""
        text = self.storage.getItem(GAMES_KEY)
        try:
            rows = json.loads(text) if text else []
        except ValueError:
            rows = []
        entries = []
        for row in rows if isinstance(rows, list) else []:
            try:
                entries.append(GameEntry(**row))
            except TypeError:
                continue
        return entries

    def _write_games(self, entries: list[GameEntry]) -> None:
        entries.sort(key=lambda e: e.updated, reverse=True)
        _keep(self.storage, GAMES_KEY, json.dumps([asdict(e) for e in entries], ensure_ascii=False))

    def _entry(self, game_id: str, sheet: EditableSheet) -> GameEntry:
        game = sheet.game
        return GameEntry(id=game_id, players=list(sheet.players), date=game.tags.get("Date", ""),
                         written=sum(1 for d in game.deals if is_played(d)), deals=len(game.deals),
                         over=sheet.finished,
                         updated=datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"))

    def _note(self, game_id: str, sheet: EditableSheet) -> None:
        """Put the game at the top of the list with what it holds now."""
        others = [e for e in self.games() if e.id != game_id]
        self._write_games([self._entry(game_id, sheet), *others])

    def games_html(self, lang: str) -> str:
        """The list of games and the form of a new one, in ``lang``."""
        with speaking(lang):
            words = app_words(lang)
            presets = [{"name": name, "label": msg(preset_description(name)).shown(),
                        "players": "–".join(map(str, Rules.preset(name).players))} for name in PRESETS]
            games = [{"id": e.id, "players": ", ".join(e.players), "date": e.date, "over": e.over,
                      "progress": ngettext("{written} of {n} deal written", "{written} of {n} deals written",
                                           e.deals).format(written=e.written, n=e.deals)}
                     for e in self.games()]
            return render_page("app_games.html.j2", lang, more_templates=TEMPLATES, words=words, games=games,
                               presets=presets, today=self.today())

    # -- a new game, a file opened ----------------------------------------------------------

    def new_game(self, players: str, preset: str, date: str, lang: str) -> str:
        """Start a new game as ``raspis new`` writes it; ``{"ok", "id"}`` or ``{"ok": false, "message"}``."""
        with speaking(lang):
            try:
                rules = Rules.preset(preset)
                names = parse_players(players)
                tags = {"Date": date} if re.fullmatch(r"\d{4}-\d{2}-\d{2}", date or "") else {}
                game = blank_game(rules, names, preset, {}, tags, None)
                sheet = EditableSheet([game], None, None, lang)
            except (RulesError, SheetError) as e:
                return _json(ok=False, message=str(e))
            return self._store_new(sheet.text(), sheet)

    def import_sheet(self, name: str, data: Any, lang: str) -> str:
        """Keep a ``.rsp`` file opened on the phone as a new game (its text kept
        as it is); ``{"ok", "id"}`` or ``{"ok": false, "message"}``. ``data``:
        the file's bytes (from the page, a ``Uint8Array``)."""
        if not isinstance(data, (bytes, bytearray, memoryview)):
            data = data.to_bytes()  # a JsProxy of the page's Uint8Array
        data = bytes(data)
        with speaking(lang):
            if len(data) > MAX_IMPORT_BYTES:
                return _json(ok=False, message=_("{file} is larger than {limit} bytes").format(
                    file=name, limit=MAX_IMPORT_BYTES))
            try:
                text = data.decode("utf-8-sig")
            except UnicodeDecodeError:
                return _json(ok=False, message=_("{file} is not UTF-8 text: save it as UTF-8 and open it "
                                                 "again").format(file=name))
            sheet = _editable(text, name, None)
            if isinstance(sheet, str):
                return _json(ok=False, message=sheet)
            return self._store_new(text, sheet)

    def _store_new(self, text: str, sheet: EditableSheet) -> str:
        game_id = uuid.uuid4().hex[:16]
        try:
            BrowserSheet(self.storage, game_id).save(text)
            self._note(game_id, sheet)
        except OSError as e:
            self.storage.removeItem(SHEET_KEY + game_id)
            return _json(ok=False, message=e.strerror or str(e))
        return _json(ok=True, id=game_id)

    def delete(self, game_id: str) -> str:
        """Forget a game (its sheet, its open deal, its line in the list)."""
        self.storage.removeItem(SHEET_KEY + game_id)
        self.storage.removeItem(OPEN_KEY + game_id)
        try:
            self._write_games([e for e in self.games() if e.id != game_id])
        except OSError as e:
            return _json(ok=False, message=e.strerror or str(e))
        if self.game_id == game_id:
            self.table = self.game_id = None
        return _json(ok=True)

    # -- the game open ----------------------------------------------------------------------

    def open(self, game_id: str, lang: str) -> str:
        """Open a kept game at the table: ``{"ok", "message" (the open deal
        restored), "version", "page" (the screen: its header, the table's part
        of the page), "title"}``, or why it cannot be."""
        with speaking(lang):
            store = BrowserSheet(self.storage, game_id)
            text = store.read()
            if text is None:
                return _json(ok=False, message=_("this game is no longer kept on the phone"))
            sheet = _editable(text, _file_name(self._find(game_id)), store)
            if isinstance(sheet, str):
                return _json(ok=False, message=sheet)
            journal = BrowserJournal(store)
            restored = journal.restore(sheet)
            sheet.journal = journal
            self.table = Table(sheet)
            self.game_id = game_id
            title = ", ".join(sheet.players)
            page = render_page("app_table.html.j2", lang, more_templates=TEMPLATES, words=app_words(lang),
                               title=title, version=self.table.version, body=table_html(self.table, lang))
            return _json(ok=True, message="" if restored is None else restored.shown(),
                         version=self.table.version, page=page, title=title)

    def _find(self, game_id: str) -> GameEntry:
        for entry in self.games():
            if entry.id == game_id:
                return entry
        return GameEntry(game_id, [], "", 0, 0, False, "")

    def say(self, version: int, text: str, lang: str) -> str:
        """An entry at the table, as ``raspis serve``'s ``/api/say`` takes it:
        ``{"ok", "stale", "message", "version", "html"}``."""
        table = self.table
        if table is None or self.game_id is None:
            return _json(ok=False, stale=False, message="", version=0, html="")
        with speaking(lang):
            reply = table.answer(version, text)
            if table.version != version and reply.ok:
                with contextlib.suppress(OSError):  # the list is only a summary: the sheet itself was saved
                    self._note(self.game_id, table.sheet)
            return _json(ok=reply.ok, stale=reply.stale, message=reply.message, version=table.version,
                         html=table_html(table, lang))

    def view(self, lang: str) -> str:
        """The table's part of the page as it is now: ``{"version", "html"}``."""
        table = self.table
        if table is None:
            return _json(version=0, html="")
        with speaking(lang):
            return _json(version=table.version, html=table_html(table, lang))

    def export(self, game_id: str) -> str:
        """A game's file to share: ``{"ok", "name", "text"}`` (the text as kept, byte for byte)."""
        text = BrowserSheet(self.storage, game_id).read()
        if text is None:
            return _json(ok=False, message=_("this game is no longer kept on the phone"))
        return _json(ok=True, name=_file_name(self._find(game_id)), text=text)
