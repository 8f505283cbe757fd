"""The commands shown in the documents, read and run as a reader would run them.

A documented command is a line ``$ raspis …`` in a fenced block marked
``console`` (```` ```console ````), in ``README.md`` or a page of ``docs/``.
The lines after it, up to the next ``$`` line or the end of the block, are the
output it shows (none: the command must only succeed). The convention:

- ``$ raspis ARGS``: run in a fresh process from a temporary folder holding a
  copy of ``samples/`` (so ``samples/x.rsp`` means the sample, and a file a
  command writes is there for the next command of the same page). Every block
  of one page runs in order in the same folder; pages do not share one.
- ``NAME=VALUE`` words before ``raspis`` set the environment
  (``LANG=ru_RU.UTF-8 raspis …``, ``COLUMNS=80 raspis …``); without them the
  locale is neutral (English) and the output is a pipe's: no colour, no
  terminal width (so tables are printed whole).
- ``$ head -N FILE`` and ``$ cat FILE`` show a file the page made.
- A line ending with `` \\`` goes on on the next line.
- An HTML comment ``<!-- stdin`` … ``-->`` right before a block is the standard
  input of the block's first command, one line a line as typed (an empty line
  is Enter alone): how a page shows a ``raspis live`` session.

The shown output is compared with what the command prints (standard output and
standard error, in the order printed), after this normalising: spaces at the
ends of lines and blank lines at the end are dropped, and the temporary
folder's path reads as nothing. A line ``...`` alone in the shown output stands
for any number of lines (the elided part of a long output). A command fails the
suite when it prints a traceback or an internal error, prints other than shown,
or exits 2 or more (a usage error, a file it could not read) where no output is
shown: a page may show a refusal, with its message. Exit 1 ("the records have
problems", "the sheet differs") is what many examples show, and is accepted.
"""

from __future__ import annotations

import difflib
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
ELLIPSIS = "..."
_FENCE = re.compile(r"^(?P<indent> *)(?P<fence>```+|~~~+)\s*(?P<info>[^`\s]*)")
_ASSIGNMENT = re.compile(r"[A-Z_][A-Z0-9_]*=")


@dataclass
class Command:
    """One ``$`` line of a page, with the output shown under it."""

    page: Path
    line: int
    words: list[str]
    stdin: str | None = None
    shown: list[str] = field(default_factory=list)
    output_lines: tuple[int, int] = (0, 0)
    """Where the shown output is in the page: first line, line after the last (0-based)."""

    def where(self) -> str:
        """``docs/x.md:12`` for a failure message."""
        page = self.page.relative_to(ROOT) if self.page.is_relative_to(ROOT) else self.page
        return f"{page}:{self.line}"


def documented_pages() -> list[Path]:
    """The README and every page of ``docs/``, in a stable order."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def console_commands(page: Path) -> list[Command]:
    """The commands of the page's ``console`` blocks, in order."""
    lines = page.read_text(encoding="utf-8").splitlines()
    commands: list[Command] = []
    stdin: str | None = None
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.strip().startswith("<!-- stdin"):
            body: list[str] = []
            i += 1
            while i < len(lines) and lines[i].strip() != "-->":
                body.append(lines[i])
                i += 1
            stdin = "".join(f"{answer}\n" for answer in body)
            i += 1
            continue
        fence = _FENCE.match(line)
        if not fence:
            if line.strip():
                stdin = None
            i += 1
            continue
        indent, mark, info = len(fence["indent"]), fence["fence"], fence["info"]
        i += 1
        block: list[tuple[int, str]] = []
        while i < len(lines) and not lines[i].strip().startswith(mark):
            block.append((i + 1, lines[i][indent:]))
            i += 1
        i += 1
        if info == "console":
            commands += _block_commands(page, block, stdin, i - 1)
        stdin = None
    return commands


def transcripts_elsewhere(page: Path) -> list[str]:
    """``$`` lines in code that is not a ``console`` block (an indented block,
    or a fence of another kind): a transcript the suite would not run."""
    found = []
    in_fence: str | None = None
    info = ""
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
        fence = _FENCE.match(line)
        if fence and in_fence is None:
            in_fence, info = fence["fence"], fence["info"]
        elif in_fence is not None and line.strip().startswith(in_fence):
            in_fence = None
        elif in_fence is not None:
            if info != "console" and line.lstrip().startswith("$ "):
                found.append(f"{page.name}:{number}: {line.strip()}")
        elif line.startswith("    ") and line.strip().startswith("$ "):
            found.append(f"{page.name}:{number}: {line.strip()}")
    return found


SHOWN_ONLY = re.compile(r"<!--\s*shown only:\s*(?P<reason>.*?)\s*-->")
"""The mark of a block of commands the suite does not run, with the reason:
``<!-- shown only: REASON -->`` as the last line before the block."""
COMMAND_NAMES = frozenset(("raspis", "python", "python3", "pip", "pip3", "pipx", "uv", "duckdb", "sqlite3",
                           "git", "cd", "mkdocs", "pytest", "curl"))
"""The programs a line of a code block is a command of (``.venv/bin/pip`` is ``pip``)."""


def is_command(line: str) -> bool:
    """Whether a line of code is a command typed in a shell: its first word,
    after ``NAME=VALUE`` settings and a ``$`` prompt, names a program of
    :data:`COMMAND_NAMES` (by itself or as a path)."""
    words = line.split()
    if words[:1] == ["$"]:
        words = words[1:]
    while words and _ASSIGNMENT.match(words[0]):
        words = words[1:]
    return bool(words) and words[0].rsplit("/", 1)[-1] in COMMAND_NAMES


def unrun_command_blocks(page: Path) -> list[str]:
    """The code blocks of the page other than ``console`` blocks (a fence of
    another kind, or an indented block) that show a command, without the mark
    :data:`SHOWN_ONLY` (a reason given) right before them: commands the suite
    does not run and the page does not say why. Each as ``page:line: command``."""
    lines = page.read_text(encoding="utf-8").splitlines()
    found: list[str] = []

    def check(start: int, body: list[tuple[int, str]]) -> None:
        before = next((lines[i].strip() for i in range(start - 1, -1, -1) if lines[i].strip()), "")
        mark = SHOWN_ONLY.fullmatch(before)
        commands = [(number, text.strip()) for number, text in body if text.strip() and is_command(text)]
        if commands and not (mark and mark["reason"]):
            number, text = commands[0]
            found.append(f"{page.name}:{number}: {text}")

    i = 0
    while i < len(lines):
        fence = _FENCE.match(lines[i])
        if fence:
            start, mark = i, fence["fence"]
            i += 1
            body = []
            while i < len(lines) and not lines[i].strip().startswith(mark):
                body.append((i + 1, lines[i]))
                i += 1
            if fence["info"] != "console":
                check(start, body)
            i += 1
            continue
        if lines[i].startswith("    ") and lines[i].strip() and (i == 0 or not lines[i - 1].strip()):
            start = i
            body = []
            while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip()):
                body.append((i + 1, lines[i]))
                i += 1
            check(start, body)
            continue
        i += 1
    return found


def _block_commands(page: Path, block: list[tuple[int, str]], stdin: str | None,
                    fence_end: int) -> list[Command]:
    out: list[Command] = []
    j = 0
    while j < len(block):
        number, text = block[j]
        if not text.startswith("$ "):
            if not out:
                raise AssertionError(f"{page}:{number}: a console block must start with a '$ ' line")
            out[-1].shown.append(text)
            j += 1
            continue
        command = text[2:]
        while command.endswith("\\") and j + 1 < len(block):
            j += 1
            command = command[:-1] + " " + block[j][1].strip()
        out.append(Command(page, number, shlex.split(command), stdin if not out else None))
        j += 1
        end = j
        while end < len(block) and not block[end][1].startswith("$ "):
            end += 1
        out[-1].output_lines = (block[j][0] - 1 if j < len(block) else fence_end,
                                block[end][0] - 1 if end < len(block) else fence_end)
    for made in out:
        while made.shown and not made.shown[-1].strip():
            made.shown.pop()
    return out


def work_folder(base: Path) -> Path:
    """A fresh folder with a copy of the samples, where a page's commands run."""
    folder = base / "work"
    shutil.copytree(ROOT / "samples", folder / "samples")
    return folder


@dataclass
class Ran:
    """What a command did: its exit status and its output as shown."""

    status: int
    output: list[str]


def run(command: Command, folder: Path) -> Ran:
    """Run one documented command in ``folder`` as a reader would."""
    words = list(command.words)
    env = {k: v for k, v in os.environ.items()
           if k not in ("COLUMNS", "LINES", "FORCE_COLOR") and k not in LOCALE_VARIABLES}
    env.update(NO_COLOR="1", PYTHONIOENCODING="utf-8", PYTHONUNBUFFERED="1")
    while words and _ASSIGNMENT.match(words[0]):
        name, _, value = words.pop(0).partition("=")
        env[name] = value
    if not words:
        raise AssertionError(f"{command.where()}: no command")
    if words[0] in ("head", "cat"):
        return Ran(0, _show_file(command, words, folder))
    if words[0] != "raspis":
        raise AssertionError(f"{command.where()}: '{words[0]}' is not a raspis command "
                             "(the documents show raspis, head and cat only)")
    if any(word in ("|", ">", "<", "&&", ";", ">>") for word in words):
        raise AssertionError(f"{command.where()}: pipes and redirections are not run: {words}")
    done = subprocess.run([sys.executable, "-m", "raspis_cli", *words[1:]], cwd=folder, env=env,
                          input=command.stdin, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, encoding="utf-8", timeout=300, check=False)
    return Ran(done.returncode, normalise(done.stdout, folder))


def _show_file(command: Command, words: list[str], folder: Path) -> list[str]:
    count = None
    if words[0] == "head":
        match = re.fullmatch(r"-n?(\d+)", words[1]) if len(words) == 3 else None
        if not match:
            raise AssertionError(f"{command.where()}: write head -N FILE")
        count, name = int(match.group(1)), words[2]
    elif len(words) == 2:
        name = words[1]
    else:
        raise AssertionError(f"{command.where()}: write cat FILE")
    lines = normalise((folder / name).read_text(encoding="utf-8"), folder)
    return lines if count is None else lines[:count]


def normalise(text: str, folder: Path) -> list[str]:
    """The output as a page shows it: the folder's path dropped, spaces at
    the ends of lines and blank lines at the end removed."""
    text = text.replace(f"{folder}{os.sep}", "").replace(str(folder), ".")
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def matches(shown: list[str], actual: list[str]) -> bool:
    """Whether the output shown (with ``...`` lines standing for any lines)
    is the actual output."""
    shown = [line.rstrip() for line in shown]
    pieces: list[list[str]] = [[]]
    for line in shown:
        if line.strip() == ELLIPSIS:
            pieces.append([])
        else:
            pieces[-1].append(line)
    if len(pieces) == 1:
        return shown == actual
    first, *middle, last = pieces
    if actual[:len(first)] != first or (last and actual[len(actual) - len(last):] != last):
        return False
    if len(first) + len(last) > len(actual):
        return False
    at, end = len(first), len(actual) - len(last)
    for piece in middle:
        found = _find(actual, piece, at, end)
        if found is None:
            return False
        at = found + len(piece)
    return True


def _find(lines: list[str], piece: list[str], start: int, end: int) -> int | None:
    for i in range(start, end - len(piece) + 1):
        if lines[i:i + len(piece)] == piece:
            return i
    return None


def problem(command: Command, ran: Ran) -> str | None:
    """Why the command fails the documents (None: it does what they show)."""
    text = "\n".join(ran.output)
    if "Traceback (most recent call last)" in text or "internal error" in text:
        return f"{command.where()}: `{shlex.join(command.words)}` failed:\n{text}"
    shown_matches = bool(command.shown) and matches(command.shown, ran.output)
    if (ran.status >= 2 or ran.status < 0) and not shown_matches:
        return f"{command.where()}: `{shlex.join(command.words)}` exited {ran.status}:\n{text}"
    if command.shown and not shown_matches:
        diff = "\n".join(difflib.unified_diff(command.shown, ran.output, "shown", "printed", lineterm=""))
        return f"{command.where()}: `{shlex.join(command.words)}` prints other than shown:\n{diff}"
    return None
