"""Every command the README and the pages of ``docs/`` show is run, and the
output they show is what it prints (the convention: ``tests/dockit.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.dockit import (
    ROOT,
    Command,
    console_commands,
    documented_pages,
    matches,
    problem,
    run,
    transcripts_elsewhere,
    unrun_command_blocks,
    work_folder,
)

PAGES = [page for page in documented_pages() if console_commands(page)]


def _run_page(page: Path, base: Path) -> list[str]:
    folder = work_folder(base)
    problems = []
    for command in console_commands(page):
        found = problem(command, run(command, folder))
        if found:
            problems.append(found)
    return problems


@pytest.mark.slow  # every documented command of a page run as the page shows it
@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_documented_command_does_what_the_page_shows(page: Path, tmp_path: Path) -> None:
    problems = _run_page(page, tmp_path)
    assert not problems, "\n\n".join(problems)


def test_the_tutorials_and_the_readme_show_commands() -> None:
    shown = {page.relative_to(ROOT).as_posix(): len(console_commands(page)) for page in PAGES}
    for page in ("README.md", "docs/tutorial.md", "docs/tutorial-ru.md"):
        assert shown.get(page, 0) >= 2, f"{page} shows no command the suite runs"


def test_no_transcript_outside_a_console_block() -> None:
    """A ``$`` line in an indented block or another kind of fence would never be
    run: the documents write every transcript as a ``console`` block."""
    found = [line for page in documented_pages() for line in transcripts_elsewhere(page)]
    assert found == []


def test_every_command_block_is_run_or_says_why_not() -> None:
    """A command in a code block the suite does not run (an install, CI's own
    command, a synopsis) is marked ``<!-- shown only: REASON -->``: a new
    block of commands is either a ``console`` block, which the suite runs, or
    says why it is not."""
    found = [line for page in documented_pages() for line in unrun_command_blocks(page)]
    assert found == []


@pytest.mark.parametrize(("text", "unrun"), [
    ("```sh\npipx install .\n```\n", True),
    ("    .venv/bin/raspis validate samples/\n", True),
    ("```text\nLANG=C raspis score x.rsp\n```\n", True),
    ("<!-- shown only: -->\n```sh\npipx install .\n```\n", True),
    ("<!-- shown only: installs -->\n\n```sh\npipx install .\n```\n", False),
    ("<!-- shown only: installs -->\n\n    pipx install .\n", False),
    ("```text\nUsage: raspis score [OPTIONS] FILE\n```\n", False),
    ("```console\n$ raspis rules list\n```\n", False),
    ("```python\nimport duckdb\n```\n", False),
])
def test_an_unrun_unmarked_command_block_is_found(tmp_path: Path, text: str, unrun: bool) -> None:
    assert bool(unrun_command_blocks(_page(tmp_path, "Some words.\n\n" + text))) is unrun


# --- the runner itself can fail ----------------------------------------------------------


def _page(tmp_path: Path, text: str) -> Path:
    page = tmp_path / "page.md"
    page.write_text(text, encoding="utf-8")
    return page


def test_a_wrong_output_fails(tmp_path: Path) -> None:
    page = _page(tmp_path, "```console\n$ raspis rules list\nno such output\n```\n")
    problems = _run_page(page, tmp_path)
    assert len(problems) == 1 and "prints other than shown" in problems[0]


def test_a_failing_command_fails(tmp_path: Path) -> None:
    page = _page(tmp_path, "```console\n$ raspis validate no-such-file.rsp\n```\n"
                           "```console\n$ raspis score --no-such-option samples/classic.rsp\n```\n")
    problems = _run_page(page, tmp_path)
    assert len(problems) == 2 and all("exited 2" in p for p in problems)


def test_a_refusal_shown_with_its_message_passes(tmp_path: Path) -> None:
    page = _page(tmp_path, "```console\n$ raspis validate no-such-file.rsp\n...\n```\n")
    assert _run_page(page, tmp_path) == []


def test_files_made_by_one_command_are_there_for_the_next(tmp_path: Path) -> None:
    page = _page(tmp_path, "```console\n"
                           "$ raspis new --players \"A, B, C\" --date 2026-01-01 -o x.rsp\n"
                           "$ head -3 x.rsp\n"
                           '[Date "2026-01-01"]\n[Rules "raspisnoy"]\n[Players "A, B, C"]\n'
                           "```\n")
    assert _run_page(page, tmp_path) == []


def test_standard_input_from_a_comment(tmp_path: Path) -> None:
    page = _page(tmp_path, "<!-- stdin\n[Players \"A, B, C\"]\n-->\n```console\n$ raspis fmt -\n"
                           '[Players "A, B, C"]\n```\n')
    commands = console_commands(page)
    assert commands[0].stdin == '[Players "A, B, C"]\n'
    assert _run_page(page, tmp_path) == []


def test_only_raspis_head_and_cat_are_run(tmp_path: Path) -> None:
    page = _page(tmp_path, "```console\n$ rm -rf samples\n```\n")
    with pytest.raises(AssertionError, match="not a raspis command"):
        _run_page(page, tmp_path)


def test_continued_lines_and_environment(tmp_path: Path) -> None:
    page = _page(tmp_path, "```console\n$ LANG=ru_RU.UTF-8 raspis validate \\\n    samples/classic.rsp\n"
                           "samples/classic.rsp: 1 партия, 36 раздач, верных: 1, 0 нарушений\n```\n")
    [command] = console_commands(page)
    assert command.words == ["LANG=ru_RU.UTF-8", "raspis", "validate", "samples/classic.rsp"]
    assert _run_page(page, tmp_path) == []


@pytest.mark.parametrize(("shown", "actual", "expected"), [
    (["a", "b"], ["a", "b"], True),
    (["a", "b"], ["a", "c"], False),
    (["a", "...", "d"], ["a", "b", "c", "d"], True),
    (["a", "...", "d"], ["a", "d"], True),
    (["...", "c"], ["a", "b", "c"], True),
    (["a", "..."], ["a"], True),
    (["a", "...", "b", "...", "d"], ["a", "x", "b", "y", "d"], True),
    (["a", "...", "b", "...", "d"], ["a", "x", "y", "d"], False),
    (["a", "...", "a"], ["a"], False),
])
def test_elided_output(shown: list[str], actual: list[str], expected: bool) -> None:
    assert matches(shown, actual) is expected


def test_a_block_must_start_with_a_command(tmp_path: Path) -> None:
    page = _page(tmp_path, "```console\noutput without a command\n```\n")
    with pytest.raises(AssertionError, match="must start with"):
        console_commands(page)


def test_commands_keep_their_page_and_line(tmp_path: Path) -> None:
    page = _page(tmp_path, "text\n\n```console\n$ raspis rules list\n```\n")
    [command] = console_commands(page)
    assert isinstance(command, Command) and command.line == 4 and command.words == ["raspis", "rules", "list"]
