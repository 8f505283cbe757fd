"""``raspis show``: one deal trick by trick."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.clikit import check_golden, run_cli

ROOT = Path(__file__).resolve().parent.parent


def test_a_full_deal_trick_by_trick() -> None:
    done = run_cli("show", "samples/raspisnoy-full-3p.rsp", "--deal", "9")
    assert done.returncode == 0, done.stderr
    check_golden("show-full-deal9.txt", done.stdout)


def test_an_illegal_play_is_marked() -> None:
    done = run_cli("show", "tests/data/revoke.rsp")
    check_golden("show-revoke.txt", done.stdout)
    story = json.loads(run_cli("show", "tests/data/revoke.rsp", "--format", "json").stdout)
    marked = [(t["number"], p["player"], [v["kind"] for v in p["violations"]])
              for t in story["tricks"] for p in t["plays"] if "violations" in p]
    assert marked == [(2, "Вера", ["follow-suit"])]
    assert [t["winner"] for t in story["tricks"]] == ["Анна", "Вера", "Вера"]


def test_a_deal_that_does_not_exist_is_an_error() -> None:
    done = run_cli("show", "samples/raspisnoy-full-3p.rsp", "--deal", "99")
    assert done.returncode == 2
    assert "no deal 99" in done.stderr


def _in_a_terminal(columns: int, *args: str) -> str:
    """``raspis ARGS`` in a pseudo-terminal ``columns`` wide: what the screen shows, escapes removed."""
    import os
    import re
    import sys

    import pexpect

    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "FORCE_COLOR")}
    env.update(NO_COLOR="1", TERM="xterm-256color", PYTHONIOENCODING="utf-8", PYTHONPATH=str(ROOT))
    child = pexpect.spawn(sys.executable, ["-m", "raspis_cli", *args], cwd=str(ROOT), env=env,
                          encoding="utf-8", timeout=120, dimensions=(100, columns))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", str(child.before)).replace("\r\n", "\n")


@pytest.mark.parametrize(("lang", "path", "deal"), [("en", "samples/joker54-full.rsp", "1"),
                                                    ("ru", "samples/raspisnoy-full-3p.rsp", "9"),
                                                    ("en", "tests/data/revoke.rsp", "1")])
def test_a_narrow_terminal_gets_each_trick_folded_between_plays(lang: str, path: str, deal: str) -> None:
    from rich.cells import cell_len

    shown = _in_a_terminal(36, "--lang", lang, "show", path, "--deal", deal)
    piped = run_cli("--lang", lang, "show", path, "--deal", deal).stdout
    too_wide = [line for line in shown.splitlines() if cell_len(line) > 36]
    assert not too_wide, shown
    assert shown.split() == piped.split()  # the same words, only the lines broken elsewhere
    tricks = [line for line in piped.splitlines() if line[:3].strip().rstrip(".").isdigit()]
    assert tricks and all(cell_len(line) > 36 for line in tricks)  # each trick had to be folded
    plays = [play.strip(" ·") for line in tricks for play in line.split("→")[0].split(" · ")[0:]]
    folded = "\n".join(shown.splitlines())
    assert all(play.split(". ", 1)[-1] in folded for play in plays)  # no play cut across two lines
