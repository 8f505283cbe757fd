"""A value a person wrote is evidence: `fmt --write` and `convert` keep a disputed sheet's
written values as written; `score` and `report` show its comments; `live` ends with the
standings and, with `--stake`, who pays whom, and shows the deals ahead."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from raspis_cli.notation import read_text
from tests.clikit import ROOT, run_cli
from tests.livekit import PLAYERS, planned_game

DISPUTE = ROOT / "samples" / "raspisnoy-sheet-dispute.rsp"


def _hand_written(path: Path) -> str:
    """The dispute sample as a person might have typed it: columns out of line, a second
    dispute written by hand in deal 5 (Анна's score 10 where the rules give 5)."""
    text = DISPUTE.read_text(encoding="utf-8")
    text = text.replace("5.  5          Анна    10♠ | 0/0    5   0 |", "5. 5 Анна 10♠ | 0/0 10 0 |")
    text = re.sub(r" {2,}", "  ", text)
    path.write_text(text, encoding="utf-8")
    return text


def _written(path: Path) -> list[tuple[int, dict[str, int] | None, dict[str, int] | None]]:
    game = read_text(path.read_text(encoding="utf-8")).games[0]
    return [(d.number, d.scores, d.totals) for d in game.deals] + [(0, game.totals, None)]


def _violations(path: Path) -> list[str]:
    out = run_cli("validate", "--format", "json", str(path)).stdout
    return [f"{v['kind']} {v.get('deal')} {v.get('player')} {v['message']}"
            for game in json.loads(out)["files"][0]["games"] for v in game["violations"]]


def test_fmt_write_keeps_written_values_as_written(tmp_path: Path) -> None:
    path = tmp_path / "paper.rsp"
    _hand_written(path)
    before, violations = _written(path), _violations(path)
    assert len(violations) == 2  # deal 5 and deal 17
    done = run_cli("fmt", "--write", str(path))
    assert done.returncode == 0, done.stderr
    assert _written(path) == before
    assert _violations(path) == violations
    assert run_cli("fmt", "--check", str(path)).returncode == 0


def test_convert_keeps_written_values_as_written(tmp_path: Path) -> None:
    path = tmp_path / "paper.rsp"
    _hand_written(path)
    before, violations = _written(path), _violations(path)
    as_json = tmp_path / "paper.json"
    assert run_cli("convert", str(path), "--to", "json", "-o", str(as_json)).returncode == 0
    back = tmp_path / "back.rsp"
    assert run_cli("convert", str(as_json), "--to", "notation", "-o", str(back)).returncode == 0
    assert _written(back) == before
    assert _violations(back) == violations
    game = json.loads(as_json.read_text(encoding="utf-8"))
    assert game["deals"][4]["scores"]["Анна"] == 10 and game["deals"][16]["scores"]["Boris"] == 25


def test_score_and_report_show_the_comments(tmp_path: Path) -> None:
    out = run_cli("score", str(DISPUTE)).stdout
    assert "deal 17: спор: Борис записал себе лишние 20" in out
    assert "comment: The sheet as Vera kept it" in out
    ru = run_cli("score", str(DISPUTE), "--lang", "ru").stdout
    assert "раздача 17: спор: Борис записал себе лишние 20" in ru
    page = tmp_path / "game.html"
    assert run_cli("report", str(DISPUTE), "-o", str(page)).returncode == 0
    html = page.read_text(encoding="utf-8")
    assert "<h3>Comments</h3>" in html
    assert "<li>Deal 17: <bdi>спор: Борис записал себе лишние 20</bdi></li>" in html


@pytest.mark.slow
def test_live_shows_the_deals_ahead_and_ends_with_the_standings_and_the_settlement(tmp_path: Path) -> None:
    _, deals = planned_game(seed=7)
    answers = ["schedule"]
    for deal in deals:
        answers += [deal.trump] if deal.trump is not None else []
        answers += [str(b) for _, b in deal.bids] + [str(t) for _, t in deal.taken[:-1]] + [""]
    path = tmp_path / "g.rsp"
    done = run_cli("live", str(path), "-p", ", ".join(PLAYERS), "--dealer", deals[0].dealer, "--stake", "0,1",
                   stdin="\n".join(answers) + "\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "28 deals to play:\n   1. 1 card · dealer Борис\n   2. 2 cards · dealer Вера\n" in out
    assert "  28. 9 cards · golden · dealer Анна\n" in out
    end = out[out.index("the game is over"):]
    assert "\n  1. Вера 128\n  2. Дима 111\n  3. Борис -4\n  4. Анна -149\n" in end
    assert "  Анна pays Вера 10.65\n  Анна pays Дима 6.40\n  Борис pays Дима 2.55\n3 payments\n" in end
    assert run_cli("validate", str(path)).returncode == 0
