"""docs/MESSAGES.md's rows about a club's names say what the program does:
``raspis stats --player NAME`` run on a database of the dispute sample (its
players Анна, Boris, Вера, Дмитрий), in English and Russian, against the
row's cells (the message and the exit status)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _row(command: str) -> list[str]:
    for line in (ROOT / "docs" / "MESSAGES.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip("|").split(" | ")]
        if cells and cells[0] == f"`{command}`":
            return cells
    raise AssertionError(f"docs/MESSAGES.md has no row for {command}")


def _raspis(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    env.update(PYTHONPATH=str(ROOT), NO_COLOR="1", COLUMNS="200")
    return subprocess.run([sys.executable, "-m", "raspis_cli", *args], cwd=folder, env=env,
                          capture_output=True, text=True, encoding="utf-8", timeout=300)


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("club")
    sample = ROOT / "samples" / "raspisnoy-sheet-dispute.rsp"
    done = _raspis(folder, "load", str(sample), "--db", "club.duckdb", "-q")
    assert done.returncode in (0, 1), done.stderr
    return folder


@pytest.mark.slow
def test_a_name_in_the_other_alphabet_is_the_player(club: Path) -> None:
    cells = _row("raspis stats --player Anna")
    assert "no message" in cells[1]
    done = _raspis(club, "stats", "--player", "Anna", "--db", "club.duckdb")
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert "Анна" in done.stdout


@pytest.mark.parametrize(("lang", "column"), [("en", 1), ("ru", 2)])
def test_a_name_nobody_has_is_refused_as_the_row_says(club: Path, lang: str, column: int) -> None:
    cell = _row("raspis stats --player Anya")[column]
    message = re.fullmatch(r"`(.+)` \(exit (\d)\)", cell)
    assert message, cell
    done = _raspis(club, "--lang", lang, "stats", "--player", "Anya", "--db", "club.duckdb")
    assert done.stderr.strip() == message[1]
    assert done.returncode == int(message[2])
