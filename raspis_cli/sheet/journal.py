"""The open deal's answers, kept beside the sheet: a crash loses only the entry in flight.

A deal goes into the file when its last count is entered (the file never
holds half a deal, and a value a person wrote is evidence: nothing written
is changed here). Until then its answers (the trump, the bids, the counts
taken so far) are kept in a journal beside the file, ``.NAME.open`` (beside
the lock ``.NAME.lock``), after every change:

- **owner-only and atomic**: a temporary file made owner-only (0600), flushed
  to disk (fsync) and renamed over the journal; a crash leaves the journal as
  before or as after, never half of it. A symbolic link planted at the
  journal's name is replaced by the rename, never written through; one found
  there when the journal is read is not followed (and said so).
- **tied to the file as it is**: the journal holds the SHA-256 of the sheet's
  bytes as last read or saved; a journal of another state of the file (an
  editor changed it since, another copy) is not applied, and the session
  says so.
- **removed** when nothing is left to keep: the deal written, its answers
  taken back, an undo that reopened a deal the file holds as written.

:meth:`DealJournal.restore` answers the journal's values again, through the
same checks as typed ones (a value the sheet refuses now, and those after it,
are not taken); it never answers the deal's last question (so it never writes
a deal). A correction in progress (``edit N``) is not journaled: after a crash
it is asked again; the deal it put aside is.

API: ``journal_path(target)``, ``DealJournal(store)``, ``.path``,
``.keep(sheet)`` (the :class:`~raspis_cli.sheet.editable.DealKeeper` hook;
raises :class:`OSError` when it cannot write), ``.restore(sheet) -> Message | None``,
``.remove()``.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import stat

from raspis_cli.files.atomic import write_atomic
from raspis_cli.model.cards import Card, Suit
from raspis_cli.model.record import NoTrump
from raspis_cli.notation.writer import trump_text
from raspis_cli.sheet.editable import EditableSheet
from raspis_cli.sheet.sheetfile import SheetFile
from raspis_cli.text.messages import Message, msg, msg_n

__all__ = ["FORMAT", "DealJournal", "answer_again", "journal_path", "open_deal_record", "restored_words",
           "write_private"]

FORMAT = "raspis open deal 1"
"""The journal's first field: what it is, and the version of its layout."""
MAX_JOURNAL_BYTES = 65536


def journal_path(target: str) -> str:
    """The journal of a sheet (beside the file a link points to, as the lock)."""
    folder, name = os.path.split(target)
    return os.path.join(folder, "." + name + ".open")


def _value_text(key: str, value: object) -> str | None:
    """A value as it is typed again (``None``: not a value a step takes)."""
    if key == "trump":
        return trump_text(value) if isinstance(value, (Card, Suit, NoTrump)) else None
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, str)):
        return str(value)
    return None


def write_private(path: str, data: bytes) -> None:
    """Write ``data`` to ``path`` in one step, owner-only (0600): a temporary
    file beside it, fsync, rename over ``path`` (a link there is replaced, not
    followed), the folder synced. Raises :class:`OSError`."""
    write_atomic(path, data, private=True)


class DealJournal:
    """The journal of the sheet saved through ``store`` (see the module's docstring)."""

    def __init__(self, store: SheetFile) -> None:
        self.store = store
        self.path = journal_path(store.target)
        self._kept: bytes | None = None
        """What was last written (nothing is written twice)."""

    # -- keeping ----------------------------------------------------------------------------

    def keep(self, sheet: EditableSheet) -> None:
        """Keep the answers of the sheet's unfinished deal (remove the journal
        when there are none). Raises :class:`OSError` when it cannot write."""
        record = open_deal_record(sheet, os.path.basename(self.store.target), self.store.digest())
        if record is None:
            self.remove()
            return
        data = (json.dumps(record, ensure_ascii=False, indent=1) + "\n").encode("utf-8")
        if data != self._kept:
            # the prefix of the sheet's own temporaries (.NAME.): a write killed is cleared with them
            write_private(self.path, data)
            self._kept = data

    def remove(self) -> None:
        """Remove the journal (nothing to keep). A link at its name is removed, not followed."""
        if self._kept == b"":
            return
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)
        self._kept = b""

    # -- restoring --------------------------------------------------------------------------

    def _read(self) -> dict[str, object] | Message | None:
        """The journal's record; ``None`` when there is none; why it is not read."""
        try:
            fd = os.open(self.path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        except FileNotFoundError:
            return None
        except OSError as e:
            if e.errno == errno.ELOOP:
                return msg("{journal} is a symbolic link: it is not followed, and the open deal is not "
                           "restored from it (remove it)").format(journal=self.path)
            return msg("{journal}: cannot read: {reason}").format(journal=self.path, reason=e.strerror or e)
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                return msg("{journal} is not a file: the open deal is not restored from it (remove "
                           "it)").format(journal=self.path)
            data = os.read(fd, MAX_JOURNAL_BYTES + 1)
        except OSError as e:
            return msg("{journal}: cannot read: {reason}").format(journal=self.path, reason=e.strerror or e)
        finally:
            os.close(fd)
        try:
            record = json.loads(data.decode("utf-8")) if len(data) <= MAX_JOURNAL_BYTES else None
        except (UnicodeDecodeError, ValueError):
            record = None
        if not isinstance(record, dict) or record.get("format") != FORMAT:
            return msg("{journal} is not a journal of an open deal: it is not applied").format(
                journal=self.path)
        return record

    def restore(self, sheet: EditableSheet) -> Message | None:
        """Answer the journal's values again in the sheet's open deal; what
        was restored, or why nothing was (``None``: no journal). Call it
        before the journal is attached (``sheet.journal = journal``)."""
        record = self._read()
        if record is None or isinstance(record, Message):
            return record
        number, index, answers = record.get("deal"), record.get("index"), record.get("answers")
        if not isinstance(number, int) or not isinstance(index, int) or not isinstance(answers, list):
            return msg("{journal} is not a journal of an open deal: it is not applied").format(
                journal=self.path)
        if record.get("sha256") != self.store.digest():
            return msg("{journal}: the answers of deal {number} kept there belong to {file} as it was "
                       "before it changed: they are not applied").format(
                journal=self.path, number=number, file=self.store.path)
        taken = answer_again(sheet, number, index, answers)
        if taken is None:
            return msg("{journal}: deal {number} is not the deal open in {file}: its answers are not "
                       "applied").format(journal=self.path, number=number, file=self.store.path)
        if not taken:
            return msg("{journal}: none of the answers of deal {number} kept there is taken by the sheet "
                       "now").format(journal=self.path, number=number)
        return restored_words(number, taken, len(answers))


def open_deal_record(sheet: EditableSheet, name: str, digest: str | None) -> dict[str, object] | None:
    """What a journal keeps of the sheet's unfinished deal (``None``: nothing
    to keep): its number and place, and its answers as they are typed again,
    tied to the sheet's ``name`` and the ``digest`` of its text as saved."""
    o = sheet.deal_in_progress
    if o is None or not o.trail or o.deal.number in sheet.kept_as_written():
        return None
    answers = []
    for key in o.trail:
        text = _value_text(key, o.values.get(key))
        if text is None:
            break
        answers.append([key, text])
    return {"format": FORMAT, "sheet": name, "sha256": digest, "deal": o.deal.number, "index": o.deal.index,
            "answers": answers}


def answer_again(sheet: EditableSheet, number: int, index: int, answers: list[object]) -> list[str] | None:
    """Answer a journal's ``answers`` again in the sheet's open deal, through
    the same checks as typed ones, up to the first it refuses and never its
    last question (so no deal is written); the keys taken. ``None``: deal
    ``number`` at ``index`` is not the deal open, untouched, in the sheet."""
    o = sheet.open
    if o is None or o.editing or o.trail or o.deal.number != number or o.deal.index != index:
        return None
    taken: list[str] = []
    for item in answers:
        step = sheet.step()
        if (not isinstance(item, list) or len(item) != 2 or not all(isinstance(x, str) for x in item)
                or step is None or step.key != item[0] or _is_last(sheet, step.what)):
            break
        if sheet.answer(item[1]).refused is not None:
            break
        taken.append(item[0])
    return taken


def restored_words(number: int, taken: list[str], kept: int) -> Message:
    """What was restored of deal ``number``: the keys ``taken`` of the ``kept`` answers."""
    what = _restored_words(taken)
    if len(taken) < kept:
        return msg("deal {number}: {what} restored; the answers after them are asked again").format(
            number=number, what=what)
    return msg("deal {number}: {what} restored").format(number=number, what=what)


def _is_last(sheet: EditableSheet, what: str) -> bool:
    """Whether the step asked now is the deal's last (its answer writes the deal)."""
    o = sheet.open
    return o is not None and what == "taken" and len(o.taken) == len(sheet.players) - 1


def _restored_words(keys: list[str]) -> Message:
    """``trump, 3 bids``: what a list of step keys holds."""
    parts: list[Message] = []
    if "cards" in keys:
        parts.append(msg("the cards"))
    if "kind" in keys:
        parts.append(msg("the kind"))
    if "trump" in keys:
        parts.append(msg("trump"))
    bids = sum(1 for k in keys if k.startswith("bid:"))
    if bids:
        parts.append(msg_n("{n} bid", "{n} bids", bids, n=bids))
    taken = sum(1 for k in keys if k.startswith("taken:"))
    if taken:
        parts.append(msg_n("{n} count of tricks taken", "{n} counts of tricks taken", taken, n=taken))
    return Message.joined(", ", parts)
