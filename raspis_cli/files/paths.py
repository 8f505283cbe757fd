"""Which files a command reads and what they are: folders expanded to record files, the format of
a file by its name or first characters, and why a file cannot be read."""

from __future__ import annotations

import sys

from raspis_cli.text.messages import Message, msg

__all__ = ["RECORD_SUFFIXES", "describe_os_error", "expand_paths", "read_file_bytes", "sniff_kind",
           "source_kind"]

RECORD_SUFFIXES = (".rsp", ".json", ".jsonl", ".ndjson")
"""The files a folder given on the command line is searched for."""

def expand_paths(paths: list[str]) -> list[str]:
    """Files as given, with each folder replaced by the record files below it
    (sorted); ``-`` stays standard input."""
    import os

    out: list[str] = []
    for path in paths:
        if path != "-" and os.path.isdir(path):
            found = []
            for folder, _dirs, names in os.walk(path):
                found += [os.path.join(folder, n) for n in names if n.lower().endswith(RECORD_SUFFIXES)]
            out += sorted(found)
        else:
            out.append(path)
    return out


def source_kind(path: str) -> str:
    """``json``, ``jsonl`` or ``notation``, by the file name."""
    lower = path.lower()
    if lower.endswith(".jsonl") or lower.endswith(".ndjson"):
        return "jsonl"
    if lower.endswith(".json"):
        return "json"
    return "notation"


def sniff_kind(path: str, head: str) -> str:
    """The format of a file: by its name (``.rsp``, ``.txt``, ``.json``,
    ``.jsonl``, ``.ndjson``), else by its first characters ``head``: an
    object (``{"``) is JSON, or JSONL when the first line is a whole object
    and more follows; a list of objects (``[{``, ``[]``) is JSON; anything
    else is the notation (whose tags also start with ``[``)."""
    lower = path.lower()
    if lower.endswith((".json", ".jsonl", ".ndjson", ".rsp", ".txt")):
        return source_kind(path)
    text = head.lstrip("\ufeff \t\r\n")
    if text.startswith("{"):
        after = text[1:].lstrip()
        if after[:1] not in ('"', "}"):
            return "notation"  # a { comment }
        first, _, rest = text.partition("\n")
        return "jsonl" if first.rstrip().endswith("}") and rest.strip() else "json"
    if text.startswith("[") and text[1:].lstrip()[:1] in ("{", "]"):
        return "json"
    return "notation"


def describe_os_error(e: OSError) -> Message:
    """Why a file cannot be read, in words."""
    if isinstance(e, FileNotFoundError):
        return msg("no such file")
    if isinstance(e, IsADirectoryError):
        return msg("is a directory, not a file")
    if isinstance(e, PermissionError):
        return msg("permission denied")
    return msg("cannot be read: {reason}").format(reason=e.strerror or e)


def read_file_bytes(path: str) -> bytes:
    """The bytes of a file (``-``: standard input); raises ``OSError``."""
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as handle:
        return handle.read()
