"""``raspis validate``: golden outputs on the samples, the JSON contract, exit
codes, and the worked examples of RULES.md run as JSON records."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.clikit import check_golden, run_cli


def test_text_report_on_the_samples() -> None:
    done = run_cli("validate", "samples/")
    assert done.returncode == 1
    assert done.stderr == ""
    check_golden("validate-samples.txt", done.stdout)


def test_json_report_on_the_samples() -> None:
    done = run_cli("validate", "samples/", "--format", "json")
    assert done.returncode == 1
    check_golden("validate-samples.json", done.stdout)
    report = json.loads(done.stdout)
    by_path = {f["path"]: f for f in report["files"]}
    dispute = by_path["samples/raspisnoy-sheet-dispute.rsp"]["games"][0]
    assert dispute["valid"] is False
    assert [(v["kind"], v["deal"], v["player"]) for v in dispute["violations"]] == [
        ("score-mismatch", 17, "Boris")]
    assert set(dispute["violations"][0]) == {"kind", "deal", "player", "line", "column", "message", "data"}
    assert len(dispute["deals"]) == 28
    assert set(dispute) >= {"index", "valid", "violations", "totals", "deals"}


def test_a_revoke_is_reported_with_its_place_and_a_caret() -> None:
    done = run_cli("validate", "tests/data/revoke.rsp")
    assert done.returncode == 1
    check_golden("validate-revoke.txt", done.stdout)


def test_valid_files_exit_0_and_quiet_prints_only_the_summary() -> None:
    done = run_cli("validate", "samples/classic.rsp", "samples/raspisnoy-full-3p.rsp", "-q")
    assert done.returncode == 0
    assert done.stdout.splitlines() == ["total: 2 files, 2 games, 0 violations"]


def test_max_errors_limits_what_is_printed() -> None:
    done = run_cli("validate", "samples/errors-friday.rsp", "--max-errors", "2")
    assert done.returncode == 1
    assert sum(1 for line in done.stdout.splitlines() if ": " in line and not line.startswith(" ")) == 3
    assert "7 more problems not shown" in done.stdout


def test_unreadable_file_exits_2_with_an_error_entry(tmp_path: Path) -> None:
    missing = tmp_path / "nope.rsp"
    done = run_cli("validate", str(missing), "--format", "json")
    assert done.returncode == 2
    entry = json.loads(done.stdout)["files"][0]
    assert entry["error"]["message"] == "no such file"
    assert entry["games"] == []


def test_undecodable_bytes_are_a_clear_error_not_a_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "latin1.rsp"
    bad.write_bytes("[Players \"Zoë, Borja, Íñigo\"]\n".encode("latin-1"))
    done = run_cli("validate", str(bad))
    assert done.returncode == 2
    assert "Traceback" not in done.stdout + done.stderr
    assert f"{bad}:1:13: error: E002: undecodable byte 0xEB at offset 12" in done.stdout


def test_stdin_is_read_for_dash() -> None:
    text = Path("samples/classic.rsp").read_text(encoding="utf-8")
    done = run_cli("validate", "-", stdin=text)
    assert done.returncode == 0, done.stdout
    assert done.stdout.startswith("-: 1 game, 36 deals, 1 valid, 0 violations")


def test_rules_given_on_the_command_line_replace_the_records() -> None:
    # the classic sample is valid under classic rules, not under raspisnoy's schedule
    done = run_cli("validate", "samples/classic.rsp", "--rules", "raspisnoy", "--format", "json")
    kinds = {v["kind"] for v in json.loads(done.stdout)["files"][0]["games"][0]["violations"]}
    assert "schedule" in kinds
    bad = run_cli("validate", "samples/classic.rsp", "--set", "void=sometimes")
    assert bad.returncode == 2
    assert "void" in bad.stderr and "Traceback" not in bad.stderr


# --- the worked examples of RULES.md, as JSON records through validate --------------


def _record(players: list[str], deals: list[dict[str, Any]], rules: Any = None) -> dict[str, Any]:
    return {
        "format": "raspis/1",
        "rules": rules or {"preset": "raspisnoy", "options": {"schedule": "free"}},
        "players": players,
        "deals": deals,
        "unfinished": True,
    }


def _validate(tmp_path: Path, record: dict[str, Any]) -> dict[str, Any]:
    path = tmp_path / "example.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    done = run_cli("validate", str(path), "--format", "json")
    assert done.returncode in (0, 1), done.stdout + done.stderr
    game: dict[str, Any] = json.loads(done.stdout)["files"][0]["games"][0]
    return game


@pytest.mark.parametrize(("dealer_bid", "allowed"), [(0, True), (1, True), (2, False), (3, True), (5, True)])
def test_rules_5_seed_004_dealer_may_not_make_the_sum(tmp_path: Path, dealer_bid: int, allowed: bool) -> None:
    # 3 players, 5 cards, dealer third; bids 2 and 1: the dealer may bid 0, 1, 3, 4, 5 but not 2
    deal = {"number": 1, "kind": "normal", "dealer": "C", "cards": 5,
            "bids": {"A": 2, "B": 1, "C": dealer_bid}}
    game = _validate(tmp_path, _record(["A", "B", "C"], [deal]))
    assert [v["kind"] for v in game["violations"]] == ([] if allowed else ["dealer-restriction"])


@pytest.mark.parametrize(("dealer_bid", "allowed"), [(0, False), (1, True), (2, True)])
def test_rules_5_seed_002_dealer_may_not_pass_after_three_twos(tmp_path: Path, dealer_bid: int,
                                                               allowed: bool) -> None:
    deal = {"number": 1, "kind": "normal", "dealer": "D", "cards": 6,
            "bids": {"A": 2, "B": 2, "C": 2, "D": dealer_bid}}
    game = _validate(tmp_path, _record(["A", "B", "C", "D"], [deal]))
    assert [v["kind"] for v in game["violations"]] == ([] if allowed else ["dealer-restriction"])


def test_rules_6_seed_004_a_void_player_trumps_and_wins(tmp_path: Path) -> None:
    deal = {"number": 1, "kind": "normal", "dealer": "C", "cards": 1, "trump": "7H",
            "hands": {"A": ["KD"], "B": ["9D"], "C": ["6H"]},
            "bids": {"A": 1, "B": 0, "C": 1},
            "tricks": [[{"player": "A", "card": "KD"}, {"player": "B", "card": "9D"},
                        {"player": "C", "card": "6H"}]]}
    game = _validate(tmp_path, _record(["A", "B", "C"], [deal]))
    assert game["violations"] == []
    assert game["deals"][0]["scores"] == {"A": -10, "B": 5, "C": 10}


def test_rules_6_seed_004_a_discarded_joker_loses(tmp_path: Path) -> None:
    deal = {"number": 1, "kind": "normal", "dealer": "C", "cards": 1, "trump": "6H",
            "hands": {"A": ["QD"], "B": ["7S"], "C": ["8D"]},
            "bids": {"A": 1, "B": 0, "C": 1},
            "tricks": [[{"player": "A", "card": "QD"},
                        {"player": "B", "card": "7S", "joker": {"mode": "discard", "suit": "D"}},
                        {"player": "C", "card": "8D"}]]}
    game = _validate(tmp_path, _record(["A", "B", "C"], [deal]))
    assert game["violations"] == []
    assert game["deals"][0]["scores"] == {"A": 10, "B": 5, "C": -10}


def _sheet(players: list[str], kind: str, cards: int, bids: list[int] | None,
           taken: list[int]) -> dict[str, Any]:
    deal: dict[str, Any] = {"number": 1, "kind": kind, "dealer": players[-1], "cards": cards,
                            "taken": dict(zip(players, taken, strict=True))}
    if bids is not None:
        deal["bids"] = dict(zip(players, bids, strict=True))
    return deal


def test_rules_7_seed_004_scores(tmp_path: Path) -> None:
    players = ["A", "B", "C", "D"]
    game = _validate(tmp_path, _record(players, [_sheet(players, "normal", 7, [3, 0, 2, 1], [3, 0, 0, 4])]))
    assert game["violations"] == []
    assert game["deals"][0]["scores"] == {"A": 30, "B": 5, "C": -20, "D": 4}


def test_rules_7_seed_002_scores(tmp_path: Path) -> None:
    players = ["A", "B", "C", "D"]
    game = _validate(tmp_path, _record(players, [_sheet(players, "normal", 6, [2, 2, 2, 0], [2, 3, 1, 0])]))
    assert game["deals"][0]["scores"] == {"A": 20, "B": 3, "C": -10, "D": 5}


def test_rules_7_georgian_scores(tmp_path: Path) -> None:
    players = ["A", "B", "C", "D"]
    rules = {"preset": "georgian", "options": {"schedule": "free"}}
    game = _validate(tmp_path, _record(players, [_sheet(players, "normal", 7, [3, 0, 2, 1], [3, 0, 0, 4])],
                                       rules))
    assert game["deals"][0]["scores"] == {"A": 200, "B": 50, "C": 0, "D": 40}
    assert game["totals"] == {"A": 200, "B": 50, "C": 0, "D": 40}


def test_rules_7_classic_miser_scores(tmp_path: Path) -> None:
    rules = {"preset": "classic", "options": {"schedule": "free"}}
    game = _validate(tmp_path, _record(["A", "B"], [_sheet(["A", "B"], "miser", 2, None, [0, 2])], rules))
    assert game["violations"] == []
    assert game["deals"][0]["scores"] == {"A": 0, "B": -40}
