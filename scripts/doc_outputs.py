"""Bring the output shown under the documents' commands up to date.

Runs every ``$ raspis …`` of README.md and docs/ as the suite runs it (``tests/dockit.py``:
the same folder, environment and standard input) and, where a command now prints other than
the page shows, writes what it prints into the page. An output shown with ``...`` (an elided
part) is not rewritten: it is listed, with the difference, to be mended by hand.

    python -m scripts.doc_outputs [PAGE ...]      # every documented page when none is named

The suite (``tests/test_doc_commands.py``) checks the same outputs; this writes them.
"""

from __future__ import annotations

import difflib
import sys
import tempfile
from pathlib import Path

from tests.dockit import ELLIPSIS, ROOT, console_commands, documented_pages, matches, run, work_folder


def refresh(page: Path) -> tuple[int, list[str]]:
    """Rewrite the outputs of ``page`` that differ; the number rewritten and what is left to mend."""
    commands = console_commands(page)
    if not commands:
        return 0, []
    lines = page.read_text(encoding="utf-8").split("\n")
    replacements: list[tuple[int, int, list[str]]] = []
    left: list[str] = []
    with tempfile.TemporaryDirectory() as base:
        folder = work_folder(Path(base))
        for command in commands:
            ran = run(command, folder)
            if not command.shown or matches(command.shown, ran.output):
                continue
            if any(line.strip() == ELLIPSIS for line in command.shown):
                diff = "\n".join(difflib.unified_diff(command.shown, ran.output, "shown", "printed",
                                                      lineterm=""))
                left.append(f"{command.where()}: shown with '...'; mend by hand:\n{diff}")
                continue
            first, end = command.output_lines
            replacements.append((first, end, ran.output))
    for first, end, output in sorted(replacements, reverse=True):
        lines[first:end] = output
    if replacements:
        page.write_text("\n".join(lines), encoding="utf-8")
    return len(replacements), left


def main(argv: list[str]) -> int:
    """Refresh the pages named (all documented pages when none is); 1 when some are left to mend."""
    pages = [Path(a).resolve() for a in argv] or documented_pages()
    left_over = 0
    for page in pages:
        count, left = refresh(page)
        if count:
            print(f"{page.relative_to(ROOT)}: {count} output(s) rewritten")
        for item in left:
            print(item)
        left_over += len(left)
    return 1 if left_over else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
