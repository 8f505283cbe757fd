"""`raspis new` (a blank sheet) and `rules schedule` with the players' names, through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.clikit import check_golden, run_cli

PLAYERS = "Анна, Борис, Вера, Дима"


def test_new_writes_the_blank_sheet() -> None:
    result = run_cli("new", "--players", PLAYERS, "--event", "Пятница", "--date", "2026-12-04")
    assert result.returncode == 0, result.stderr
    check_golden("new-raspisnoy-4.rsp", result.stdout)
    lines = result.stdout.splitlines()
    deal_lines = [line for line in lines if line[:1].isdigit()]
    assert len(deal_lines) == 28  # the schedule for 4 players (rules schedule: 28)
    # the dealer moves one seat clockwise; every cell is empty
    assert [line.split()[-6] for line in deal_lines[:5]] == ["Анна", "Борис", "Вера", "Дима", "Анна"]
    assert deal_lines[12].split()[:3] == ["13.", "9", "no-trump"]
    assert all(line.endswith("|") and line.count("|") == 5 for line in deal_lines)
    assert lines[-1] == "unfinished"


@pytest.mark.slow
def test_new_file_validates_and_is_canonical(tmp_path: Path) -> None:
    out = tmp_path / "game.rsp"
    made = run_cli("new", "-p", "Анна, Борис, Вера", "-r", "classic", "--set", "third_pass=true",
                   "--dealer", "Вера", "-o", str(out))
    assert made.returncode == 0, made.stderr
    assert f"raspis live {out}" in made.stderr
    text = out.read_text(encoding="utf-8")
    assert '[Rules "classic"]' in text and '[Option "third_pass=true"]' in text
    assert text.splitlines()[text.splitlines().index("") + 1].split()[2] == "Вера"
    valid = run_cli("validate", str(out))
    assert valid.returncode == 0, valid.stdout
    assert "1 valid, 0 violations" in valid.stdout
    assert run_cli("fmt", "--check", str(out)).returncode == 0
    # the JSON form keeps the deals without results
    doc = json.loads(run_cli("convert", "--to", "json", str(out)).stdout)
    assert doc["unfinished"] is True
    assert doc["deals"][0] == {"number": 1, "kind": "normal", "dealer": "Вера", "cards": 1}
    # an existing file is not overwritten without --force
    again = run_cli("new", "-p", "Анна, Борис, Вера", "-o", str(out))
    assert again.returncode == 2 and "--force" in again.stderr
    assert out.read_text(encoding="utf-8") == text


@pytest.mark.parametrize(("args", "message"), [
    (["-p", "Анна, Борис"], "3 to 5 players, not 2"),
    (["-p", "Анна, Анна, Вера"], "named twice"),
    (["-p", "Анна, , Вера"], "an empty name"),
    (["-p", "Анна, Борис, Вера", "--dealer", "Дима"], "not one of the players"),
    (["-p", "Анна, Борис, Вера", "--set", "bogus=1"], "unknown option 'bogus'"),
])
def test_new_refuses_what_cannot_be_a_sheet(args: list[str], message: str) -> None:
    result = run_cli("new", *args)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_new_names_without_commas_are_split_on_spaces() -> None:
    result = run_cli("new", "-p", "Анна Борис Вера", "--date", "")
    assert result.returncode == 0
    assert '[Players "Анна, Борис, Вера"]' in result.stdout and "[Date" not in result.stdout


def test_schedule_with_names_has_a_dealer_column() -> None:
    result = run_cli("rules", "schedule", "raspisnoy", "--players", PLAYERS, "--dealer", "Борис",
                     "-f", "json")
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)
    assert len(rows) == 28
    assert rows[0] == {"number": 1, "cards": 1, "kind": "normal", "dealer": "Борис"}
    assert [r["dealer"] for r in rows[1:5]] == ["Вера", "Дима", "Анна", "Борис"]
    numbers = json.loads(run_cli("rules", "schedule", "raspisnoy", "-p", "4", "-f", "json").stdout)
    assert [dict(r, dealer=None) for r in numbers] == [dict(r, dealer=None) for r in rows]
    assert all("dealer" not in r for r in numbers)
    table = run_cli("rules", "schedule", "georgian", "-p", PLAYERS)
    assert "dealer" in table.stdout.splitlines()[1]
    bad = run_cli("rules", "schedule", "raspisnoy", "-p", "4", "--dealer", "Анна")
    assert bad.returncode == 2 and "needs the players' names" in bad.stderr
