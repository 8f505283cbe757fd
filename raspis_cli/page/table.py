"""The sheet shared by every phone at the table: one model, one lock, a version.

:class:`Table` holds the editable sheet ``raspis live`` keeps
(:class:`raspis_cli.sheet.editable.EditableSheet`: the same steps, the same
answers typed as words, the same refusals, the same written values kept) and
adds what a server needs: a lock that serialises the entries of several
phones, and a version number that grows with every change, so that an entry
made against an older version is refused, never merged. The sheet saves
itself through its file after every change. No web framework here.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from raspis_cli.notation.writer import trump_text
from raspis_cli.sheet.blank import SheetError
from raspis_cli.sheet.editable import EditableSheet, OpenDeal, Outcome, read_command, read_count
from raspis_cli.sheet.sheetfile import SheetChangedError, SheetFile, keep_aside
from raspis_cli.text.i18n import _, ngettext
from raspis_cli.text.messages import Message, Quoted, msg

__all__ = ["CANCEL", "RELOAD", "Failure", "Reply", "Table", "outcome_words"]

CANCEL = "cancel"
"""The word of the page's button that drops an edit in progress."""
RELOAD = "reload"
"""The word of the page's button that reads the sheet again from its file
after it was changed on disk (shown only then)."""


@dataclass(frozen=True, slots=True)
class Reply:
    """What an entry came to: accepted or refused (``message`` says why, or
    what was done), and the version of the sheet after it."""

    ok: bool
    message: str
    version: int
    stale: bool = False


def outcome_words(outcome: Outcome) -> str:
    """What a phone is told of an entry taken (empty for a plain answer)."""
    number = outcome.number
    words = ""
    if outcome.event == "completed":
        words = _("deal {number} written").format(number=number)
    elif outcome.event == "edited":
        words = "; ".join([_("deal {number} corrected").format(number=number),
                           *(note.shown() for note in outcome.edit_notes())])
    elif outcome.event == "taken-back":
        words = _("deal {number} taken back; enter it again").format(number=number)
    elif outcome.event == "editing":
        words = _("deal {number} reopened: its values are offered; Cancel leaves it as it was").format(
            number=number)
    elif outcome.event == "cancelled":
        words = _("the correction of deal {number} is dropped").format(number=number)
    elif outcome.event == "replayed":
        words = _("deal {number} is replayed (пересдача): it is dealt again").format(number=number)
    elif outcome.event == "comment":
        words = _("comment kept for deal {number}").format(number=number)
    found = "; ".join(p.message.shown() for p in outcome.problems)
    return words + (" · " + found if found else "")


@dataclass(frozen=True, slots=True)
class Failure:
    """A save that failed: why, where what it held is kept aside (``None``:
    it could not be), that text, and whether the file was changed on disk."""

    reason: str
    copy: str | None
    unsaved: str | None
    changed: bool

    def text(self) -> str:
        """What every phone is told, in the language in force."""
        words = [_("not saved: {reason}").format(reason=self.reason),
                 _("the sheet is as it was before the entry: enter it again")]
        if self.copy is not None:
            words.insert(1, _("what it would have saved is kept in {copy}").format(copy=self.copy))
        if self.changed:
            words.append(_("or, to go on with the file as it is on disk, tap Read the file again"))
        return "; ".join(words)


def _read_again(sheet: EditableSheet, store: SheetFile) -> EditableSheet:
    """The sheet as its file holds it now (read as ``live`` reads it; the
    store then saves over this state of the file). Raises :class:`SheetError`
    (a file that does not read, or cannot be kept) or :class:`OSError`."""
    from raspis_cli.notation import read_bytes

    got = read_bytes(store.read(), store.path)
    if not got.ok or not got.games:
        first = next((d.message for d in got.diagnostics if not d.is_warning), None)
        raise SheetError(msg("{file} has syntax errors; mend them first").format(file=store.path)
                         + (": " + first if first is not None else ""))
    fresh = EditableSheet(got.games, sheet.choice, store, sheet.lang)
    if fresh.players != sheet.players:
        raise SheetError(msg("{file} is now the game of {players}").format(
            file=store.path, players=", ".join(fresh.players)))
    return fresh


def _answer_again(sheet: EditableSheet, deal: OpenDeal | None) -> int:
    """Answer a deal's answers again on a sheet read again (in order, up to
    the first it no longer takes); how many were taken."""
    if deal is None:
        return 0
    taken = 0
    for key in deal.trail:
        step = sheet.step()
        o = sheet.open
        if step is None or o is None or step.key != key or o.deal.number != deal.deal.number:
            break
        value = deal.values[key]
        typed = trump_text(value) if key == "trump" else str(value)  # type: ignore[arg-type]
        if sheet.answer(typed).refused is not None:
            break
        taken += 1
    return taken


class Table:
    """The editable sheet behind a lock, with the version of its state.

    An entry that cannot be saved (the file changed on disk, a full disk, no
    file handle left) leaves the sheet exactly as before it (the model puts
    it back); what it would have saved is kept aside beside the file
    (``NAME.unsaved.rsp``), and :attr:`failure` tells every phone until a
    save succeeds. The entry can be made again; when the file was changed on
    disk, :data:`RELOAD` reads it again (the open deal's answers are
    answered again on it) so that the entry can be made on the file as it is.
    """

    def __init__(self, sheet: EditableSheet, first_version: int = 1) -> None:
        self.sheet = sheet
        self.version = first_version
        """Grows by one with every change; ``first_version`` differs from one
        run of the server to the next, so that a page made before a restart
        is never taken for the sheet as it is now."""
        self.lock = threading.Lock()
        self.failure: Failure | None = None
        """The last save that failed, while no save has succeeded since."""

    def answer(self, version: int, text: str) -> Reply:
        """Enter ``text`` (a value or a command word, as ``live`` reads them)
        if the sheet is still at ``version``; refused as stale otherwise."""
        with self.lock:
            if version != self.version:
                return Reply(False, _("the sheet changed on another phone before this entry arrived; "
                                      "it is shown as it is now: enter again if it is still needed"),
                             self.version, stale=True)
            unsaved = self.sheet.unsaved
            try:
                if text.strip().lower() == RELOAD:
                    return self._reload()
                outcome = self._carry_out(text)
            except (SheetError, OSError) as e:
                self.version += 1
                if isinstance(e, OSError) and (self.sheet.unsaved is None or self.sheet.unsaved is unsaved):
                    # no save failed: the entry stands; only the open deal's copy beside the file did not
                    return Reply(True, _("the open deal's answers cannot be kept beside the file: "
                                         "{reason}").format(reason=e.strerror or str(e)), self.version)
                self.failure = self._failed(e)  # not saved: the sheet in memory is as before the entry
                return Reply(False, self.failure.text(), self.version)
            if outcome.refused is not None:
                return Reply(False, outcome.refused.shown(), self.version)
            self.version += 1
            if outcome.saved:
                self.failure = None
            return Reply(True, outcome_words(outcome), self.version)

    def _failed(self, error: SheetError | OSError) -> Failure:
        """What a failed save is, with what it would have saved kept aside
        (once for the same text: an entry tried again is not kept twice)."""
        reason = (error.strerror or str(error)) if isinstance(error, OSError) else str(error)
        unsaved = self.sheet.unsaved
        before = self.failure
        if before is not None and unsaved is not None and before.unsaved == unsaved:
            return Failure(reason, before.copy, unsaved, isinstance(error, SheetChangedError))
        copy = keep_aside(self.sheet.file.target, unsaved) if (
            unsaved is not None and isinstance(self.sheet.file, SheetFile)) else None
        return Failure(reason, copy, unsaved, isinstance(error, SheetChangedError))

    def _reload(self) -> Reply:
        """Read the sheet again from its file, the open deal's answers answered again on it."""
        old = self.sheet
        if not isinstance(old.file, SheetFile) or self.failure is None or not self.failure.changed:
            return Reply(False, _("the file is read again only after it was changed on disk"), self.version)
        try:
            fresh = _read_again(old, old.file)
        except (SheetError, OSError) as e:
            reason = (e.strerror or str(e)) if isinstance(e, OSError) else str(e)
            return Reply(False, _("the file cannot be read again: {reason}").format(reason=reason),
                         self.version)
        fresh.journal = old.journal
        answered = _answer_again(fresh, old.deal_in_progress)
        self.sheet = fresh
        self.failure = None
        self.version += 1
        return Reply(True, ngettext("the file is read again as it is on disk; {n} answer of the open deal "
                                    "is entered again on it",
                                    "the file is read again as it is on disk; {n} answers of the open deal "
                                    "are entered again on it", answered).format(n=answered), self.version)

    def _carry_out(self, text: str) -> Outcome:
        sheet = self.sheet
        if text.strip().lower() == CANCEL:
            return sheet.cancel()
        command = read_command(text)
        if command is None:
            return sheet.answer(text)
        word, argument = command
        if word == "back":
            return sheet.back()
        if word == "undo":
            return sheet.undo()
        if word == "comment":
            return sheet.comment(argument)
        if word == "replayed":
            return sheet.replayed()
        if word == "edit":
            number = read_count(argument) if argument else None  # read as live reads it
            if isinstance(number, Message):
                return Outcome(refused=number)
            if not isinstance(number, int):
                return Outcome(refused=msg("edit needs the number of a written deal: edit 3"))
            return sheet.edit(number)
        return Outcome(refused=msg("{word} is a command of raspis live; on the page its buttons do "
                                   "it").format(word=Quoted(text.strip())))
