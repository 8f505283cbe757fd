"""Whether a command may write its output file: never onto one of its
inputs, never over an existing file unless told to."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence

from raspis_cli.text.messages import Message, msg

__all__ = ["is_input", "output_refusal"]


def _same(output: str, name: str) -> bool:
    """``output`` and ``name`` are the same file once links are resolved
    (two names of one file, hard links included, are the same file)."""
    try:
        return os.path.samefile(output, name)
    except OSError:  # one of them does not exist (yet): compare where they lead
        return os.path.realpath(output) == os.path.realpath(name)


def is_input(output: str, inputs: Sequence[str]) -> str | None:
    """The input ``output`` would overwrite, if any: the same file after
    resolving links, or a file inside an input folder (which the command
    reads, by its path or as another name of one of its files). ``-``
    (standard input or output) is never a file."""
    if output == "-":
        return None
    for name in inputs:
        if name == "-":
            continue
        if _same(output, name):
            return name
        if os.path.isdir(name) and os.path.exists(output) and _in_folder(output, name):
            return name
    return None


def _in_folder(output: str, folder: str) -> bool:
    """``output`` (an existing file) is a file under ``folder``, by its path
    or as another name of one (a hard link, a link from elsewhere)."""
    if os.path.realpath(output).startswith(os.path.join(os.path.realpath(folder), "")):
        return True
    target = os.stat(output)
    for root, _dirs, files in os.walk(folder):
        for file in files:
            with contextlib.suppress(OSError):
                found = os.stat(os.path.join(root, file))
                if (found.st_dev, found.st_ino) == (target.st_dev, target.st_ino):
                    return True
    return False


def output_refusal(output: str, inputs: Sequence[str] = (), force: bool = False) -> Message | None:
    """Why ``output`` may not be written (``None``: it may): it is one of
    ``inputs`` (whatever ``force`` says), a folder, or an existing file and
    ``force`` is not given. Every command that writes a file asks this."""
    if output == "-":
        return None
    source = is_input(output, inputs)
    if source is not None:
        return msg("{output} is the input {input}: writing it would replace what is read from it; "
                 "choose another output file").format(output=output, input=source)
    if os.path.isdir(output):
        return msg("{output} is a folder; give a file name").format(output=output)
    if os.path.lexists(output) and not force:
        return msg("{file} exists; choose another name or add --force to overwrite it").format(file=output)
    return None
