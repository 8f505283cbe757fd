"""``raspis fmt`` and ``raspis convert`` on the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

cli = pytest.importorskip("raspis_cli.cli", reason="the CLI package does not import here")
from raspis_cli.cli.common import run_app  # noqa: E402

SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "mixed-detail.rsp"


def test_convert_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_json = tmp_path / "g.json"
    assert run_app(["convert", str(SAMPLE), "--to", "json", "-o", str(out_json)]) == 0
    data = json.loads(out_json.read_text(encoding="utf-8"))
    assert data["players"] == ["Анна", "Boris", "Вера"] and data["unfinished"] is True
    back = tmp_path / "g.rsp"
    assert run_app(["convert", str(out_json), "--to", "notation", "-o", str(back)]) == 0
    assert back.read_bytes() == SAMPLE.read_bytes()
    assert run_app(["convert", str(SAMPLE), "--to", "jsonl"]) == 0
    assert json.loads(capsys.readouterr().out)["deals"][0]["number"] == 1


def test_fmt_check_and_write(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    loose = tmp_path / "loose.rsp"
    loose.write_text('[Players "A, B, C"]\n1.  1 A ч | 0/0 |1/1| 0/0\n', encoding="utf-8")
    assert run_app(["fmt", "--check", str(SAMPLE)]) == 0
    assert run_app(["fmt", "--check", str(loose)]) == 1
    assert run_app(["fmt", "--write", str(loose)]) == 0
    assert run_app(["fmt", "--check", str(loose)]) == 0
    capsys.readouterr()
    assert run_app(["fmt", str(loose)]) == 0
    assert capsys.readouterr().out == loose.read_text(encoding="utf-8")


def test_syntax_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.rsp"
    bad.write_text('[Players "A, B"]\n1. 1 A ♠\n  hand A: 1O♥\n', encoding="utf-8")
    assert run_app(["fmt", "--write", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "bad.rsp:3:11: E303: expected a card like 10♥, TH or Д♠, got '1O♥'" in err
    assert "^" in err and "Traceback" not in err
    assert run_app(["convert", str(bad), "--to", "json"]) == 2
    assert run_app(["fmt", str(tmp_path / "missing.rsp")]) == 2
