"""``raspis rules ...``: list, show and schedule, and their errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from raspis_cli.cli.runner import run_app
from raspis_cli.rules import OPTIONS, PRESETS, Rules

ROOT = Path(__file__).resolve().parent.parent


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run the app in-process; the exit code, stdout and stderr."""
    code = run_app(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> object:
    """Run a command that prints JSON; its parsed output (exit code 0)."""
    code, out, err = _run(capsys, *argv)
    assert (code, err) == (0, "")
    return json.loads(out)


def test_rules_list_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "rules", "list")
    assert code == 0 and err == ""
    for name in PRESETS:
        assert name in out
    assert "2-10" in out


def test_rules_list_json(capsys: pytest.CaptureFixture[str]) -> None:
    rows = _json(capsys, "rules", "list", "--format", "json")
    assert isinstance(rows, list)
    assert [row["preset"] for row in rows] == list(PRESETS)
    assert {row["preset"]: row["players"] for row in rows} == {
        "raspisnoy": "3-5", "classic": "2-10", "georgian": "4-4", "joker54": "2-6", "online36": "3-6"}
    assert all(row["description"] for row in rows)


@pytest.mark.parametrize("preset", PRESETS)
def test_rules_show_json(capsys: pytest.CaptureFixture[str], preset: str) -> None:
    data = _json(capsys, "rules", "show", preset, "--format", "json")
    assert data == {"preset": preset, "options": Rules.preset(preset).to_json()}
    assert isinstance(data, dict) and list(data["options"]) == list(OPTIONS)


def test_rules_show_classic_values(capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(capsys, "rules", "show", "classic", "--format", "json")
    assert isinstance(data, dict)
    options = data["options"]
    assert options["void"] == "must-trump"
    assert options["players"] == [2, 10]
    assert options["joker_lead_modes"] == ["high", "low", "as"]
    assert options["special_multiplier"] == 2


def test_rules_show_with_set(capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(capsys, "rules", "show", "classic", "--set", "void=free", "-s",
                 "joker_lead_modes=high,lowest", "--format", "json")
    assert isinstance(data, dict)
    assert data["options"]["void"] == "free"
    assert data["options"]["joker_lead_modes"] == ["high", "lowest"]


def test_rules_show_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "rules", "show", "georgian")
    assert code == 0
    for name in ("exact_bonus", "revoke_penalty", "must-trump"):
        assert name in out


@pytest.mark.parametrize(
    ("preset", "players", "count"),
    [("raspisnoy", 3, 26), ("raspisnoy", 4, 28), ("raspisnoy", 5, 31), ("georgian", 4, 24),
     ("joker54", 3, 13), ("joker54", 6, 13), ("classic", 4, 40)],
)
def test_rules_schedule_json(capsys: pytest.CaptureFixture[str], preset: str, players: int,
                             count: int) -> None:
    rows = _json(capsys, "rules", "schedule", preset, "--players", str(players), "--format",
                 "json")
    assert isinstance(rows, list) and len(rows) == count
    assert all(set(row) == {"number", "cards", "kind"} for row in rows)
    assert [row["number"] for row in rows] == list(range(1, count + 1))


def test_rules_schedule_raspisnoy_3_content(capsys: pytest.CaptureFixture[str]) -> None:
    rows = _json(capsys, "rules", "schedule", "raspisnoy", "--players", "3", "--format", "json")
    assert isinstance(rows, list)
    assert rows[0] == {"number": 1, "cards": 1, "kind": "normal"}
    assert rows[13] == {"number": 14, "cards": 12, "kind": "normal"}
    assert rows[14] == {"number": 15, "cards": 12, "kind": "no-trump"}
    assert rows[-1] == {"number": 26, "cards": 12, "kind": "golden"}


def test_rules_schedule_with_ladder_down(capsys: pytest.CaptureFixture[str]) -> None:
    rows = _json(capsys, "rules", "schedule", "raspisnoy", "-p", "3", "--set",
                 "ladder_down=true", "-f", "json")
    assert isinstance(rows, list) and len(rows) == 26 + 11


def test_rules_schedule_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "rules", "schedule", "georgian", "--players", "4")
    assert code == 0
    assert "normal" in out and "24" in out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["rules", "show", "raspisnoy", "--set", "void=bogus"], "void"),
        (["rules", "show", "raspisnoy", "--set", "viod=free"], "viod"),
        (["rules", "show", "raspisnoy", "--set", "void"], "OPTION=VALUE"),
        (["rules", "show", "poker"], "poker"),
        (["rules", "schedule", "raspisnoy", "--players", "3", "--set", "deck=52"], "deck"),
        (["rules", "schedule", "georgian", "--players", "3"], "4 to 4 players"),
        (["rules", "schedule", "raspisnoy", "--players", "3", "--set", "schedule=free"], "free"),
    ],
)
def test_rules_errors_exit_2_with_one_line(capsys: pytest.CaptureFixture[str], argv: list[str],
                                           words: str) -> None:
    code, out, err = _run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.startswith("raspis: error: ")
    assert err.count("\n") == 1
    assert words in err
    assert "Traceback" not in err


def test_rules_bad_format_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "rules", "list", "--format", "xml")
    assert code == 2
    assert "xml" in err and "Traceback" not in err


def test_rules_schedule_needs_players(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "rules", "schedule", "raspisnoy")
    assert code == 2
    assert "--players" in err


def test_bad_option_in_a_subprocess_is_one_line_without_traceback() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("RASPIS_TRACEBACK", None)
    done = subprocess.run(
        [sys.executable, "-m", "raspis_cli", "rules", "show", "raspisnoy", "--set",
         "void=bogus"], capture_output=True, text=True, cwd=ROOT, env=env, timeout=60,
        check=False)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        f"raspis: error: option void: expected one of {', '.join(OPTIONS['void'].choices)}, got 'bogus'"]
