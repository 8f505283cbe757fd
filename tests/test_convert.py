"""``raspis fmt`` and ``raspis convert`` on the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.storekit import run

cli = pytest.importorskip("raspis_cli.cli", reason="the CLI package does not import here")
from raspis_cli.cli.runner import run_app  # noqa: E402

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


def test_convert_to_json_streams_game_by_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 16: convert writes each game as it is read (no list of games, the
    stream's lines forgotten after each game), byte for byte what the whole
    text writer makes: one game an object, several a list, none ``[]``."""
    import raspis_cli.cli.convert_cmd as convert_cmd
    from raspis_cli.files.sources import GameStream, load_source
    from raspis_cli.notation import write_games
    from raspis_cli.notation.jsoncodec import games_to_json_text, games_to_jsonl_text
    from raspis_cli.rules import Rules
    from raspis_cli.simulate.game import simulate_game

    games = [simulate_game(Rules.preset("raspisnoy"), 3, seed, detail="scores") for seed in range(4)]
    path = tmp_path / "four.rsp"
    path.write_text(write_games(games), encoding="utf-8")
    read = load_source(str(path)).games
    kept: list[int] = []

    class Watched(GameStream):
        def forget_through(self, number: int) -> None:
            super().forget_through(number)
            kept.append(len(self._lines))

    monkeypatch.setattr(convert_cmd, "GameStream", Watched)
    code, out, err = run(capsys, "convert", "--to", "json", str(path))
    assert (code, err) == (0, "") and out == games_to_json_text(read) and out.startswith("[\n  {")
    assert len(kept) == 4 and max(kept) <= 2, kept
    one = tmp_path / "one.rsp"
    one.write_text(write_games(games[:1]), encoding="utf-8")
    assert run(capsys, "convert", "--to", "json", str(one))[1] == games_to_json_text(read[:1])
    assert run(capsys, "convert", "--to", "json", str(one))[1].startswith("{")
    target = tmp_path / "out.jsonl"
    assert run(capsys, "convert", "--to", "jsonl", str(path), str(one), "-o", str(target))[0] == 0
    assert target.read_text(encoding="utf-8") == games_to_jsonl_text(read + read[:1])
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n", encoding="utf-8")
    assert run(capsys, "convert", "--to", "json", str(empty))[1] == "[]\n"


def test_convert_writes_nothing_when_a_later_input_is_bad(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.rsp"
    bad.write_text('[Players "A, B"]\n1. 1 A ♠\n  hand A: 1O♥\n', encoding="utf-8")
    target = tmp_path / "out.json"
    target.write_text("before", encoding="utf-8")
    for to in ("json", "jsonl"):
        code, out, err = run(capsys, "convert", "--to", to, str(SAMPLE), str(bad), "-o", str(target),
                             "--force")
        assert (code, out) == (2, "") and "E303" in err
        assert target.read_text(encoding="utf-8") == "before"
        code, out, err = run(capsys, "convert", "--to", to, str(SAMPLE), str(bad))
        assert (code, out) == (2, "") and "E303" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.rsp", "out.json"]  # no temporary left
