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

from raspis_cli.sheet.blank import SheetError
from raspis_cli.sheet.editable import EditableSheet, Outcome, read_command
from raspis_cli.text.i18n import _
from raspis_cli.text.messages import Quoted, msg

__all__ = ["CANCEL", "Reply", "Table", "outcome_words"]

CANCEL = "cancel"
"""The word of the page's button that drops an edit in progress."""


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


class Table:
    """The editable sheet behind a lock, with the version of its state."""

    def __init__(self, sheet: EditableSheet, first_version: int = 1) -> None:
        self.sheet = sheet
        self.version = first_version
        """Grows by one with every change; ``first_version`` differs from one
        run of the server to the next, so that a page made before a restart
        is never taken for the sheet as it is now."""
        self.lock = threading.Lock()

    def answer(self, version: int, text: str) -> Reply:
        """Enter ``text`` (a value or a command word, as ``live`` reads them)
        if the sheet is still at ``version``; refused as stale otherwise."""
        with self.lock:
            if version != self.version:
                return Reply(False, _("the sheet changed on another phone before this entry arrived; "
                                      "it is shown as it is now: enter again if it is still needed"),
                             self.version, stale=True)
            try:
                outcome = self._carry_out(text)
            except (SheetError, OSError) as e:  # not saved: the sheet in memory holds the change
                self.version += 1
                reason = e.strerror or str(e) if isinstance(e, OSError) else str(e)
                return Reply(False, _("not saved: {reason}").format(reason=reason), self.version)
            if outcome.refused is not None:
                return Reply(False, outcome.refused.shown(), self.version)
            self.version += 1
            return Reply(True, outcome_words(outcome), self.version)

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
            if not argument.isdigit():
                return Outcome(refused=msg("edit needs the number of a written deal: edit 3"))
            return sheet.edit(int(argument))
        return Outcome(refused=msg("{word} is a command of raspis live; on the page its buttons do "
                                   "it").format(word=Quoted(text.strip())))
