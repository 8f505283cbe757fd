"""A compact table of game ids, each with a small mark, for ``load``.

A load remembers every game id it has met (to store a game given twice
once, and to skip the games already stored): as a Python ``set`` of ``str``
that is about 140 bytes a game (the 20-character string, 69 bytes, and its
slots in the two sets the load kept), 17 MB at 120,000 games, growing with
the file. Here an id of 20 hex digits (what :func:`~raspis_cli.store.rows.game_id`
makes) is two machine integers in :mod:`array` columns of an open-addressing
hash table (linear probing), with a 32-bit mark beside it: 14 bytes a slot,
at most three quarters of the slots used, so 19 to 37 bytes an id. Any
other id (a database made by hand) goes to a plain ``dict``.
"""

from __future__ import annotations

import re
from array import array
from typing import Final

__all__ = ["IdMarks"]

_HEX_ID: Final = re.compile(r"[0-9a-f]{20}")

_FIRST_BITS: Final = 10
"""The table starts with 2 ** this many slots."""

_MAX_MARK: Final = 2**32 - 2


class IdMarks:
    """Game ids, each with a mark (an ``int`` from 0 to 2 ** 32 - 2): a
    ``dict[str, int]`` in a fraction of its memory, for the ids ``load``
    meets (20 lowercase hex digits), and for any other ``str`` a plain dict."""

    __slots__ = ("_count", "_hi", "_lo", "_marks", "_mask", "_other")

    def __init__(self) -> None:
        self._other: dict[str, int] = {}
        self._count = 0
        self._allocate(1 << _FIRST_BITS)

    def _allocate(self, slots: int) -> None:
        self._hi = array("Q", bytes(8 * slots))  # the first 16 hex digits
        self._lo = array("H", bytes(2 * slots))  # the last 4
        self._marks = array("I", bytes(4 * slots))  # mark + 1; 0: an empty slot
        self._mask = slots - 1

    def __len__(self) -> int:
        return self._count + len(self._other)

    def get(self, gid: str, default: int = -1) -> int:
        """The mark of ``gid``, or ``default`` when it is not in the table."""
        if _HEX_ID.fullmatch(gid) is None:
            return self._other.get(gid, default)
        hi, lo = int(gid[:16], 16), int(gid[16:], 16)
        his, los, marks, mask = self._hi, self._lo, self._marks, self._mask
        slot = hi & mask
        while True:
            mark = marks[slot]
            if mark == 0:
                return default
            if his[slot] == hi and los[slot] == lo:
                return mark - 1
            slot = (slot + 1) & mask

    def __contains__(self, gid: object) -> bool:
        return isinstance(gid, str) and self.get(gid) >= 0

    def put(self, gid: str, mark: int) -> None:
        """Set the mark of ``gid`` (adding it when new)."""
        if not 0 <= mark <= _MAX_MARK:
            raise ValueError(f"a mark is from 0 to {_MAX_MARK}, not {mark}")
        if _HEX_ID.fullmatch(gid) is None:
            self._other[gid] = mark
            return
        if (self._count + 1) * 4 > (self._mask + 1) * 3:
            self._grow()
        if self._place(int(gid[:16], 16), int(gid[16:], 16), mark + 1):
            self._count += 1

    def _place(self, hi: int, lo: int, stored_mark: int) -> bool:
        """Store in the slot of (hi, lo), or the first empty one after it;
        true when the id was new."""
        his, los, marks, mask = self._hi, self._lo, self._marks, self._mask
        slot = hi & mask
        while True:
            if marks[slot] == 0:
                his[slot], los[slot], marks[slot] = hi, lo, stored_mark
                return True
            if his[slot] == hi and los[slot] == lo:
                marks[slot] = stored_mark
                return False
            slot = (slot + 1) & mask

    def _grow(self) -> None:
        """Twice the slots, every id placed again."""
        his, los, marks = self._hi, self._lo, self._marks
        self._allocate(2 * (self._mask + 1))
        for hi, lo, mark in zip(his, los, marks, strict=True):
            if mark:
                self._place(hi, lo, mark)

    def nbytes(self) -> int:
        """The bytes of the table's columns (the dict of other ids not counted)."""
        return sum(column.itemsize * len(column) for column in (self._hi, self._lo, self._marks))
