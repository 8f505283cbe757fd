"""The access code of a served sheet, kept beside it: the same code after a restart.

With ``--lan`` (or an address other than the machine itself) every request
needs the access code the printed link carries. The code is kept in
``.NAME.code`` beside the sheet (as the lock ``.NAME.lock``), so that a
restart (after a crash, a laptop that slept) keeps the phones' links and
cookies working:

- made owner-only (0600) and exclusively (``O_CREAT|O_EXCL|O_NOFOLLOW``):
  never written through a symbolic link, never over a file already there;
- read without following a link (``O_NOFOLLOW``); a link, something other
  than a file, a file another user owns or others may read, or one not
  holding a code is refused with what to do;
- ``new=True`` (``--new-code``) replaces it by a new code: the links printed
  before stop working; removing the file does the same at the next start.

No web framework here.
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import stat
from dataclasses import dataclass

from raspis_cli.text.messages import Message, msg

__all__ = ["AccessCode", "AccessCodeError", "code_path", "sheet_code"]

_CODE = re.compile(r"[A-Za-z0-9_-]{16,128}")
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


class AccessCodeError(Exception):
    """The code file cannot be used (the message says why and what to do)."""

    def __init__(self, message: Message) -> None:
        super().__init__(message.shown())
        self.message = message


@dataclass(frozen=True)
class AccessCode:
    """The code, where it is kept, and whether it was made now (``made``) or
    replaced an older one (``renewed``)."""

    code: str
    path: str
    made: bool = False
    renewed: bool = False


def code_path(target: str) -> str:
    """The code file of a sheet (beside the file a link points to, as the lock)."""
    folder, name = os.path.split(target)
    return os.path.join(folder, "." + name + ".code")


def sheet_code(target: str, *, new: bool = False) -> AccessCode:
    """The access code of the sheet ``target`` (its real path): read back from
    its file, or made (and kept) when there is none or ``new`` is asked.
    Raises :class:`AccessCodeError`."""
    path = code_path(target)
    renewed = False
    if new:
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            info = None
        except OSError as e:
            raise AccessCodeError(_cannot(path, e)) from None
        if info is not None:
            _check_kind(path, info)
            try:
                os.unlink(path)
            except OSError as e:
                raise AccessCodeError(_cannot(path, e)) from None
            renewed = True
    else:
        found = _read(path)
        if found is not None:
            return AccessCode(found, path)
    code = secrets.token_urlsafe(12)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o600)
    except FileExistsError:
        raise AccessCodeError(msg("{path} appeared while the access code was being made: start again")
                              .format(path=path)) from None
    except OSError as e:
        raise AccessCodeError(_cannot(path, e)) from None
    try:
        if hasattr(os, "fchmod"):
            os.fchmod(fd, 0o600)
        os.write(fd, (code + "\n").encode("ascii"))
        os.fsync(fd)
    except OSError as e:
        os.close(fd)
        raise AccessCodeError(_cannot(path, e)) from None
    os.close(fd)
    return AccessCode(code, path, made=True, renewed=renewed)


def _read(path: str) -> str | None:
    """The code kept at ``path`` (``None``: there is no file)."""
    try:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return None
    except OSError as e:
        if e.errno == errno.ELOOP:
            _check_kind(path, os.lstat(path))
        raise AccessCodeError(_cannot(path, e)) from None
    try:
        info = os.fstat(fd)
        _check_kind(path, info)
        data = os.read(fd, 256)
    except OSError as e:
        raise AccessCodeError(_cannot(path, e)) from None
    finally:
        os.close(fd)
    code = data.decode("ascii", "replace").strip()
    if not _CODE.fullmatch(code):
        raise AccessCodeError(msg("{path} does not hold an access code: remove it, and a new code is made "
                                  "at the next start").format(path=path))
    return code


def _check_kind(path: str, info: os.stat_result) -> None:
    """Refuse a link, a non-file, another user's file, a file others may read."""
    if stat.S_ISLNK(info.st_mode):
        raise AccessCodeError(msg("{path} is a symbolic link: the access code is never kept through a link; "
                                  "remove it and start again").format(path=path))
    if not stat.S_ISREG(info.st_mode):
        raise AccessCodeError(msg("{path} is not a file: remove it and start again").format(path=path))
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        raise AccessCodeError(msg("{path} belongs to another user: remove it and start again").format(
            path=path))
    if info.st_mode & 0o077:
        raise AccessCodeError(msg("{path} may be read by others (its permissions are {mode}): the access "
                                  "code is kept owner-only; remove it and start again (a new code is "
                                  "made)").format(path=path, mode=oct(info.st_mode & 0o777)[2:]))


def _cannot(path: str, e: OSError) -> Message:
    return msg("{path}: cannot keep the access code: {reason}").format(path=path, reason=e.strerror or str(e))
