"""Replace a file in one step: a crash leaves the old file or the new one,
never a half-written one."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from typing import BinaryIO

__all__ = ["atomic_output", "remove_stale_temporaries", "write_atomic"]


def _temporary_prefix(path: str) -> str:
    return "." + os.path.basename(path) + "."


def remove_stale_temporaries(path: str) -> list[str]:
    """Remove the temporary files :func:`write_atomic` left beside ``path``
    when it was killed before renaming; the names removed."""
    folder = os.path.dirname(os.path.abspath(path))
    prefix = _temporary_prefix(path)
    removed = []
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    for name in names:
        if name.startswith(prefix) and name.endswith(".tmp"):
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(folder, name))
                removed.append(name)
    return removed


@contextlib.contextmanager
def atomic_output(path: str, *, private: bool = False) -> Iterator[BinaryIO]:
    """A binary file to write ``path`` through: it is a temporary file beside
    ``path``, flushed to disk (fsync) and renamed over ``path`` when the block
    ends without an exception; on one it is removed and ``path`` is untouched.
    The file keeps the permissions of the one it replaces (a new one: as
    ``open`` makes it); ``private``: owner-only (0600) whatever they were.
    A link at ``path`` is replaced, never written through. Raises
    :class:`OSError` when it cannot."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, temp = tempfile.mkstemp(prefix=_temporary_prefix(path), suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            if private and hasattr(os, "fchmod"):  # mkstemp makes it 0600 already: said, not assumed
                os.fchmod(handle.fileno(), 0o600)
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        if not private:
            try:
                mode = os.stat(path).st_mode & 0o7777  # keep the replaced file's permissions
            except OSError:
                mask = os.umask(0)
                os.umask(mask)
                mode = 0o666 & ~mask  # as open() would create it
            os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    with contextlib.suppress(OSError):
        dir_fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def write_atomic(path: str, data: bytes, *, private: bool = False) -> None:
    """Write ``data`` to a temporary file beside ``path``, flush it to disk
    (fsync), then rename it over ``path`` and sync the folder (``private``:
    owner-only, :func:`atomic_output`). Raises :class:`OSError` when it cannot
    (the old file is then untouched)."""
    with atomic_output(path, private=private) as handle:
        handle.write(data)
