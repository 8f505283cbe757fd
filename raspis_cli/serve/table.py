"""The sheet shared by every phone at the table: one model, one lock, a version.

:class:`Table` wraps the sheet model that ``raspis live`` keeps (the same
questions, the same answers typed as words, the same refusals) and adds what
a server needs: a lock that serialises the entries of several phones, a
version number that grows with every change (an entry made against an older
version is refused, never merged), and an atomic save after every change.
No web framework here: the server (:mod:`raspis_cli.serve.app`) calls
:meth:`Table.answer` and :meth:`Table.snapshot`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from raspis_cli.text.i18n import _

__all__ = ["Reply", "Table"]


@dataclass(frozen=True, slots=True)
class Reply:
    """What an entry came to: accepted or refused (``message`` says why or
    what was done), and the version of the sheet after it."""

    ok: bool
    message: str
    version: int
    stale: bool = False


class Table:
    """The sheet model behind a lock, with the version of its state.

    ``model`` is the live sheet (:class:`raspis_cli.serve.turns.Turns`):
    ``answer(text)`` takes a word as ``live`` reads it and returns an error
    text or ``None``; ``text()`` is the file's text. ``save`` writes that
    text atomically; it is called inside the lock after every change.
    """

    def __init__(self, model: object, save: Callable[[str], None]) -> None:
        self.model = model
        self.save = save
        self.version = 1
        self.lock = threading.Lock()
        self.note = ""

    def answer(self, version: int, text: str) -> Reply:
        """Enter ``text`` (a value or a command) if the sheet is still at
        ``version``; refused as stale otherwise."""
        from raspis_cli.serve.turns import Turns

        model = self.model
        assert isinstance(model, Turns)
        with self.lock:
            if version != self.version:
                return Reply(False, _("the sheet changed on another phone before this entry arrived; "
                                      "it is shown as it is now: enter again if it is still needed"),
                             self.version, stale=True)
            before = model.text()
            state = model.state_key()
            problem, said = model.answer(text)
            if problem is not None:
                return Reply(False, problem, self.version)
            after = model.text()
            if after != before:
                self.save(after)
            if after != before or model.state_key() != state:
                self.version += 1
            return Reply(True, said, self.version)
