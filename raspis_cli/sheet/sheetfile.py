"""The file of a sheet being kept: one keeper at a time, saved in one step, never over a change made
by someone else.

:class:`SheetFile` is what :class:`~raspis_cli.sheet.editable.EditableSheet`
saves through:

- **the lock** — an advisory lock (``flock``) on ``.NAME.lock`` beside the
  sheet, holding who keeps it (the command, the process, the host, since
  when). A second keeper is refused with :class:`SheetBusyError`, whose message
  names the first. The lock goes with the process (a ``kill -9`` frees it).
- **the change on disk** — before every save the file is read again and
  compared with what was read or last saved; when it differs (an editor, a
  ``fmt --write``, a keeper that did not lock) nothing is written and
  :class:`SheetChangedError` is raised.
- **the read-back** — what is saved must read back as the same games
  (no syntax error, every line within the reader's limit), or
  :class:`SheetError` is raised and nothing is written.
- **links** — a sheet that is a symbolic link is written through it: the
  new text is renamed onto the file the link points to.

- **kept aside** — what could not be saved is written by :func:`keep_aside`
  beside the sheet, in a file of its own (``NAME.unsaved.rsp``, never over a
  file, never through a link).

The lock file is opened without following a link (``O_NOFOLLOW``) and must
be a plain file with one name: a symbolic link, a hard link or anything else
planted at its name is refused (never written through), with what to do.

API (stable: names are added, never renamed): ``SheetFile(path, who)``,
``.lock()``, ``.read() -> bytes``, ``.save(text)``, ``.close()`` (also as a
context manager: ``with SheetFile(path).lock() as f: ...``), ``.path``,
``.target``, ``.exists()``, ``.digest()``; ``keep_aside(target, text)``.
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import json
import os
import socket
import stat
from types import TracebackType

from raspis_cli.files.atomic import remove_stale_temporaries, write_atomic
from raspis_cli.sheet.blank import SheetError
from raspis_cli.text.messages import Message, msg

try:
    import fcntl
except ImportError:  # pragma: no cover - not on Linux/macOS: the change on disk still guards
    fcntl = None  # type: ignore[assignment]

__all__ = ["SheetBusyError", "SheetChangedError", "SheetError", "SheetFile", "keep_aside", "lock_path"]

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


class SheetBusyError(SheetError):
    """Another session keeps the sheet."""


class SheetChangedError(SheetError):
    """The file changed on disk since it was read or saved: not saved."""


def lock_path(target: str) -> str:
    """The lock file of a sheet (beside the file a link points to)."""
    folder, name = os.path.split(target)
    return os.path.join(folder, "." + name + ".lock")


def _digest(data: bytes | None) -> str | None:
    return None if data is None else hashlib.sha256(data).hexdigest()


class SheetFile:
    """A sheet's file: ``path`` as given, ``target`` the file it is (links resolved)."""

    def __init__(self, path: str, who: str = "raspis live") -> None:
        self.path = path
        self.target = os.path.realpath(path)
        self.who = who
        self._fd: int | None = None
        self._known: str | None = None
        """The digest of the file's bytes as last read or saved (``None``: it did not exist)."""
        self._read = False

    def exists(self) -> bool:
        """Whether the file is there."""
        return os.path.exists(self.target)

    def digest(self) -> str | None:
        """The SHA-256 (hex) of the file's bytes as last read or saved (``None``
        before either): what the open deal's journal is tied to."""
        return self._known

    # -- the lock ---------------------------------------------------------------------------

    def lock(self) -> SheetFile:
        """Take the sheet's lock; :class:`SheetBusyError` (naming the keeper) when
        another session holds it, :class:`SheetError` when it cannot be made."""
        if fcntl is None or self._fd is not None:
            return self
        where = lock_path(self.target)
        while True:
            fd = _open_lock(where, self.path)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                holder = _holder(fd)
                os.close(fd)
                raise SheetBusyError(msg("{file} is being kept in another session ({holder}); finish there "
                                       "first, or close it").format(file=self.path, holder=holder)) from None
            # the lock file may have been removed by its last holder between open and flock
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(where))
            except OSError:
                same = False
            if not same:
                os.close(fd)
                continue
            info = {"who": self.who, "pid": os.getpid(), "host": socket.gethostname(),
                    "since": datetime.datetime.now().astimezone().isoformat(timespec="seconds")}
            os.ftruncate(fd, 0)
            os.write(fd, json.dumps(info, ensure_ascii=False).encode("utf-8"))
            self._fd = fd
            return self

    def close(self) -> None:
        """Give the lock back (its file removed)."""
        if self._fd is None:
            return
        with contextlib.suppress(OSError):
            os.unlink(lock_path(self.target))
        os.close(self._fd)
        self._fd = None

    def __enter__(self) -> SheetFile:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    # -- reading and saving -----------------------------------------------------------------

    def read(self) -> bytes:
        """The file's bytes (temporary files a killed save left beside it removed
        first); remembered, to see a change made by someone else before a save.
        Raises :class:`OSError`."""
        remove_stale_temporaries(self.target)
        with open(self.target, "rb") as handle:
            data = handle.read()
        self._known = _digest(data)
        self._read = True
        return data

    def _on_disk(self) -> bytes | None:
        try:
            with open(self.target, "rb") as handle:
                return handle.read()
        except FileNotFoundError:
            return None

    def save(self, text: str) -> None:
        """Write ``text`` (UTF-8) in one step, onto the file a link points
        to. Raises :class:`SheetChangedError` when the file is not what was read
        or last saved, :class:`SheetError` when the text would not read back,
        :class:`OSError` when it cannot be written; nothing is written then."""
        now = self._on_disk()
        if (_digest(now) != self._known) if self._read else now is not None:
            raise SheetChangedError(msg("{file} was changed on disk by something else since it was "
                                        "read; it is "
                                      "not saved over").format(file=self.path))
        data = text.encode("utf-8")
        check_reads_back(data, self.path)
        write_atomic(self.target, data)
        self._known = _digest(data)
        self._read = True


def _open_lock(where: str, path: str) -> int:
    """The lock file, opened (made when missing) without following a link;
    :class:`SheetError` when it cannot be, or is not a plain file of its own."""
    try:
        fd = os.open(where, os.O_RDWR | os.O_CREAT | _NOFOLLOW | _NONBLOCK, 0o644)
    except OSError as e:
        if os.path.islink(where):
            raise SheetError(msg("{file}: the lock file {lock} is a symbolic link: it is never written "
                                 "through a link; remove it and start again").format(file=path, lock=where)
                             ) from None
        raise SheetError(msg("{file}: cannot make the lock file {lock}: {reason}").format(
            file=path, lock=where, reason=e.strerror or e)) from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode) or info.st_nlink != 1:
        os.close(fd)
        raise SheetError(msg("{file}: the lock file {lock} is not a plain file of its own (a link or a "
                             "device): remove it and start again").format(file=path, lock=where))
    return fd


def keep_aside(target: str, text: str) -> str | None:
    """Write what could not be saved beside the sheet ``target``
    (``NAME.unsaved.rsp``, ``NAME.unsaved-2.rsp``, …): made exclusively,
    never over a file, never through a link. Its name, or ``None`` when it
    cannot be written."""
    stem = os.path.splitext(target)[0]
    for k in range(1, 100):
        copy = f"{stem}.unsaved.rsp" if k == 1 else f"{stem}.unsaved-{k}.rsp"
        try:
            fd = os.open(copy, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o644)
        except FileExistsError:
            continue
        except OSError:
            return None
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(text.encode("utf-8"))
        except OSError:
            return None
        return copy
    return None


def check_reads_back(data: bytes, path: str) -> None:
    """Raise :class:`SheetError` unless ``data`` reads (as ``live`` and
    ``validate`` read a file) without a syntax error into games that are
    written back to the same text, in the language it is written in."""
    from raspis_cli.notation import read_bytes
    from raspis_cli.notation.writer import write_games, written_language

    got = read_bytes(data, path)
    lang = written_language(data.decode("utf-8", "replace").split("\n")) if got.ok else "en"
    if not got.ok or write_games(got.games, lang).encode("utf-8") != data:
        first = next((d.message for d in got.diagnostics if not d.is_warning), "")
        raise SheetError(msg("{file}: the sheet would not read back as written ({reason}); it is not "
                           "saved").format(file=path, reason=first or msg("it reads differently")))


def _holder(fd: int) -> Message:
    """Who holds a lock, from its file, in words."""
    try:
        info = json.loads(os.pread(fd, 4096, 0).decode("utf-8"))
        return msg("{who}, process {pid} on {host}, since {since}").format(
            who=info["who"], pid=info["pid"], host=info["host"], since=info["since"])
    except (OSError, ValueError, KeyError, TypeError):
        return msg("a process that does not say who it is")
