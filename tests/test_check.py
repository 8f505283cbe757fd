"""The check layer: every command judges a game the same way, syntax included."""

from __future__ import annotations

import json
from pathlib import Path

from raspis_cli.judge.check import read_results, validate_file
from raspis_cli.model.diagnostics import Diagnostic, Pos, render, syntax_error
from raspis_cli.store.load import read_unit
from raspis_cli.text.messages import as_message
from tests.clikit import run_cli

# the only deal line has a bad cell ('1/x'): one syntax problem, and the game
# then ends after no deal (a schedule problem)
ONE_BAD_DEAL = """[Event "bad cell"]
[Rules "raspisnoy"]
[Players "Анна, Boris, Вера"]

1. 1 Анна 7♥ | 1/0 | 1/x | 0/1
"""


def _write(tmp_path: Path) -> str:
    path = tmp_path / "bad-cell.rsp"
    path.write_text(ONE_BAD_DEAL, encoding="utf-8")
    return str(path)


def test_validate_score_show_and_load_agree_on_a_file_whose_only_deal_line_is_bad(tmp_path: Path) -> None:
    path = _write(tmp_path)
    report = json.loads(run_cli("validate", path, "--format", "json").stdout)
    game = report["files"][0]["games"][0]
    kinds = sorted(v["kind"] for v in game["violations"])
    assert game["valid"] is False and "syntax" in kinds and len(kinds) >= 2

    sheet = json.loads(run_cli("score", path, "--format", "json").stdout)[0]
    assert sheet["valid"] is False
    table = run_cli("score", path)
    assert f"{len(kinds)} violations; to correct them: raspis explain" in table.stdout

    [(result, _)] = read_results(path)
    assert sorted(p.kind for p in result.problems) == kinds

    rows = read_unit(path)
    assert rows.invalid == 1
    assert sorted(rows.tables["violations"].column("kind").to_pylist()) == kinds


def test_a_syntax_problem_in_a_game_is_one_of_its_problems_in_source_order(tmp_path: Path) -> None:
    report = validate_file(_write(tmp_path))
    [game] = report.results
    assert not report.syntax
    lines = [(p.line or 0, p.column or 0) for p in game.problems]
    assert lines == sorted(lines)
    [syntax] = [p for p in game.problems if p.kind == "syntax"]
    assert (syntax.code, syntax.line) == ("E211", 5)


def test_one_renderer_for_syntax_and_rule_problems() -> None:
    syntax = syntax_error("E303", "expected a card", 4, 9, "  trick Анна: 1O♥ 7♥", "g.rsp")
    rule = Diagnostic("follow-suit", as_message("Boris holds ♥"), deal=2, trick=3, player="Boris",
                      pos=Pos(4, 19))
    assert render(syntax) == ["g.rsp:4:9: E303: expected a card",
                              "    4 |   trick Анна: 1O♥ 7♥",
                              "      |         ^"]
    assert render(rule, "g.rsp", "  trick Анна: 1O♥ 7♥ 9♥") == [
        "g.rsp:4:19: follow-suit: deal 2, trick 3: Boris holds ♥",  # the name is said once
        "    4 |   trick Анна: 1O♥ 7♥ 9♥",
        "      |                   ^"]
    assert syntax.to_json()["message"] == "E303: expected a card"


def test_fmt_and_validate_show_a_syntax_error_the_same_way(tmp_path: Path) -> None:
    path = _write(tmp_path)
    validate = run_cli("validate", path).stdout.splitlines()
    fmt = run_cli("fmt", path).stderr.splitlines()
    at = next(i for i, line in enumerate(fmt) if ": E211: " in line)
    assert fmt[at:at + 3] == validate[validate.index(fmt[at]):validate.index(fmt[at]) + 3]
