"""Files as users have them: other encodings, CRLF, undecodable bytes, huge
lines, text that looks dangerous, and every way of misusing the commands."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from raspis_cli.cli.runner import run_app
from raspis_cli.model.record import GameRecord
from raspis_cli.notation import write_games
from raspis_cli.notation.jsoncodec import games_to_json_text
from raspis_cli.rules import Rules
from raspis_cli.simulate.game import simulate_game
from tests.clikit import run_cli

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "mixed-detail.rsp"
RUSSIAN = ('[Event "Пятница у Анны"]\n[Players "Анна, Борис, Вера"]\n[Rules "raspisnoy"]\n\n'
           "1. 1 Борис п | 0/0 | 1/1 | 0/0\n")


def syntax_problems(report: dict[str, Any]) -> list[dict[str, Any]]:
    """A file's syntax problems in ``validate --format json``: the file's own
    and those given to a game, in line order."""
    found = list(report.get("syntax", []))
    for game in report["games"]:
        found += [v for v in game["violations"] if v["kind"] == "syntax"]
    return sorted(found, key=lambda v: (v.get("line", 0), v.get("column", 0)))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = run_app(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


# --- encodings ---------------------------------------------------------------------------


@pytest.mark.parametrize("encode", [
    lambda t: t.encode("utf-8"),
    lambda t: b"\xef\xbb\xbf" + t.encode("utf-8"),
    lambda t: t.encode("utf-16"),  # with its BOM
    lambda t: b"\xfe\xff" + t.encode("utf-16-be"),
    lambda t: t.encode("utf-16-le"),  # no BOM: told by the NULs
    lambda t: t.encode("cp1251"),
    lambda t: t.replace("\n", "\r\n").encode("cp1251"),
    lambda t: t.replace("\n", "\r").encode("utf-8"),
], ids=["utf8", "utf8-bom", "utf16-bom", "utf16be-bom", "utf16le-no-bom", "cp1251", "cp1251-crlf", "cr"])
def test_every_encoding_reads_the_same(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                       encode: object) -> None:
    path = tmp_path / "g.rsp"
    path.write_bytes(encode(RUSSIAN))  # type: ignore[operator]
    code, out, err = run(capsys, "fmt", str(path))
    assert (code, err) == (0, "")
    assert out.startswith('[Event "Пятница у Анны"]\n[Rules "raspisnoy"]\n[Players "Анна, Борис, Вера"]')
    code, out, _ = run(capsys, "convert", "--to", "json", str(path))
    assert code == 0 and json.loads(out)["players"] == ["Анна", "Борис", "Вера"]


def test_encoding_option_overrides_detection(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.rsp"
    path.write_bytes('[Event "Ёж"]\n[Players "A, B, C"]\n1. 1 A -\n'.encode("cp1251"))  # too little to detect
    code, out, _ = run(capsys, "validate", str(path))
    assert code == 1 and "E002: undecodable byte 0xA8 at offset 8" in out and ":1:9:" in out
    for argv in (["validate"], ["score"], ["show"], ["fmt"], ["convert", "--to", "json"]):
        code, out, err = run(capsys, *argv, "--encoding", "cp1251", str(path))
        assert code in (0, 1), (argv, out, err)
        assert "Traceback" not in out + err
    code, out, _ = run(capsys, "fmt", "--encoding", "cp1251", str(path))
    assert '[Event "Ёж"]' in out


@pytest.mark.parametrize("command", ["validate", "score", "show", "fmt"])
def test_unknown_encoding_is_one_line(capsys: pytest.CaptureFixture[str], command: str) -> None:
    for name in ("klingon", "rot13"):
        code, out, err = run(capsys, command, "--encoding", name, str(SAMPLE))
        assert code == 2 and out == ""
        assert err.startswith("raspis: error: --encoding:") and err.count("\n") == 1


def test_undecodable_bytes_name_offset_line_and_column_and_reading_goes_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = SAMPLE.read_bytes()
    path = tmp_path / "g.rsp"
    path.write_bytes(b"; caf\xe9 export\n" + good)
    _, out, _ = run(capsys, "validate", str(path))
    assert f"{path}:1:6: E002: undecodable byte 0xE9 at offset 5" in out
    assert "1 game" in out  # the game after it is read and validated


def test_a_huge_line_is_rejected_and_reading_goes_on(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.rsp"
    path.write_bytes(b"x" * 5_000_000 + b"\n" + SAMPLE.read_bytes())
    code, out, _ = run(capsys, "validate", "-f", "json", str(path))
    report = json.loads(out)["files"][0]
    assert syntax_problems(report)[0] == {
        "kind": "syntax", "line": 1, "column": 1, "code": "E003",
        "message": "E003: line 1 is longer than 65536 bytes; is this a record file?",
        "data": {"template": "line {number} is longer than {max} bytes; is this a record file?",
                 "params": {"number": 1, "max": 65536}}}
    assert len(report["games"]) == 1 and code == 1


def test_binary_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "a.out"
    path.write_bytes(b"\x7fELF\x02\x01\x01\x00\x00\x00\x00\xff\xfe" * 100)
    code, out, _ = run(capsys, "validate", str(path))
    assert code == 2 and "E004: this looks like a binary file, not a record: a NUL byte at offset 7" in out


# --- text that looks dangerous --------------------------------------------------------------

DANGEROUS = {
    "quotes": 'He said "hi"',
    "backslashes": "C:\\games\\friday\\",
    "sql": "'; DROP TABLE games; --",
    "sql-quoted": 'Robert"); DROP TABLE players;--',
    "control": "bell\x07 esc\x1b[31m nul\x00 del\x7f",
    "tab": "a\tb",
    "long": "Ж" * 10_000,
    "comment-like": "{not a comment} ; nor this",
    "unicode-separators": "a\u2028b\u2029c\x85d",
    "bom": "\ufeffstart",
}


def _game_with(value: str, where: str) -> GameRecord:
    game = simulate_game(Rules.preset("raspisnoy"), 3, 5, detail="full")
    if where == "tag":
        game.tags["Event"] = value
        game.tags["Site"] = value
    else:  # the first player renamed everywhere, through JSON
        text = games_to_json_text([game]).replace(json.dumps(game.players[0], ensure_ascii=False),
                                                  json.dumps(value, ensure_ascii=False))
        from raspis_cli.notation.jsoncodec import read_json_text

        read = read_json_text(text)
        assert read.ok
        game = read.games[0]
    return game


@pytest.mark.slow
@pytest.mark.parametrize("where", ["tag", "player"])
@pytest.mark.parametrize("name", sorted(DANGEROUS))
def test_dangerous_text_round_trips_through_fmt_and_convert(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, where: str) -> None:
    value = DANGEROUS[name]
    text = write_games([_game_with(value, where)])
    notation = tmp_path / "g.rsp"
    notation.write_bytes(text.encode("utf-8"))
    code, out, err = run(capsys, "fmt", "--check", str(notation))
    assert (code, err) == (0, ""), err
    as_json = tmp_path / "g.json"
    back = tmp_path / "back.rsp"
    assert run(capsys, "convert", "--to", "json", "-o", str(as_json), str(notation))[0] == 0
    data = json.loads(as_json.read_text(encoding="utf-8"))
    assert (data["tags"]["Event"] if where == "tag" else data["players"][0]) == value
    assert run(capsys, "convert", "--to", "notation", "-o", str(back), str(as_json))[0] == 0
    assert back.read_bytes() == notation.read_bytes()
    code, out, err = run(capsys, "validate", "-f", "json", str(notation))
    assert code == 0, out


@pytest.mark.parametrize("value", ["line\nbreak", "carriage\rreturn", "both\r\n"])
def test_a_line_break_in_a_tag_is_refused_with_a_message(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         value: str) -> None:
    """The notation is line-oriented: a tag value or name cannot hold a line
    break. JSON can; converting such a game to the notation is refused."""
    game = _game_with("x", "tag")
    game.tags["Event"] = value
    path = tmp_path / "g.json"
    path.write_text(games_to_json_text([game]), encoding="utf-8")
    code, out, err = run(capsys, "convert", "--to", "notation", str(path))
    assert code == 2 and out == ""
    assert err.startswith("raspis: error: a tag value cannot hold a line break")
    code, out, _ = run(capsys, "convert", "--to", "jsonl", str(path))
    assert code == 0 and json.loads(out)["tags"]["Event"] == value


# --- misuse: every command, every bad input, no traceback ----------------------------------

BAD_INPUTS = {
    "missing": None,
    "directory": "DIR",
    "empty": b"",
    "blank": b"\n\n  \n",
    "binary": bytes(range(256)) * 4,
    "bom-only": b"\xef\xbb\xbf",
    "utf16-bom-only": b"\xff\xfe",
    "odd-utf16": b"\xff\xfe[\x00P\x00",
    "json-garbage": b'{"players": 5',
    "json-null": b"null",
    "deep-json": b"[" * 50_000,
}

COMMANDS = [
    ["validate"], ["validate", "-f", "json"], ["score"], ["score", "-f", "csv"], ["show"],
    ["show", "-f", "json"],
    ["fmt"], ["fmt", "--check"], ["convert", "--to", "json"], ["convert", "--to", "notation"],
]


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
@pytest.mark.parametrize("case", sorted(BAD_INPUTS))
def test_bad_input_never_makes_a_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           command: list[str], case: str) -> None:
    content = BAD_INPUTS[case]
    suffix = ".json" if case.startswith(("json", "deep")) else ".rsp"
    path = tmp_path / f"input{suffix}"
    if content == "DIR":
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)
    code, out, err = run(capsys, *command, str(path))
    assert code in (0, 1, 2), (code, out, err)
    assert "Traceback" not in out + err and "internal error" not in err, err
    if case in ("missing", "directory"):
        assert code == 2 and str(path) in out + err


BAD_OPTIONS = [
    ["validate", "--set", "nonsense", str(SAMPLE)],
    ["validate", "--set", "joker=maybe", str(SAMPLE)],
    ["validate", "--set", "=", str(SAMPLE)],
    ["validate", "--rules", "poker", str(SAMPLE)],
    ["validate", "--format", "xml", str(SAMPLE)],
    ["validate", "--max-errors", "-1", str(SAMPLE)],
    ["validate"],
    ["score", "--game", "0", str(SAMPLE)],
    ["score", "--game", "99", str(SAMPLE)],
    ["score", "--compare", "nothing", str(SAMPLE)],
    ["score", "--compare-set", "x", str(SAMPLE)],
    ["score", "--format", "pdf", str(SAMPLE)],
    ["show", "--game", "0", str(SAMPLE)],
    ["show", "--game", "7", str(SAMPLE)],
    ["show", "--deal", "0", str(SAMPLE)],
    ["show", "--deal", "-5", str(SAMPLE)],
    ["show", "--deal", "999999999999999999999", str(SAMPLE)],
    ["convert", str(SAMPLE)],
    ["convert", "--to", "yaml", str(SAMPLE)],
    ["convert", "--to", "json", "--from", "xml", str(SAMPLE)],
    ["convert", "--to", "json", "-o", "/nonexistent/dir/out.json", str(SAMPLE)],
    ["fmt", "--write", "-"],
    ["rules", "show", "nothing"],
    ["rules", "schedule", "raspisnoy", "--players", "0"],
    ["rules", "schedule", "raspisnoy", "--players", "100"],
    ["simulate", "--players", "1"],
    ["simulate", "--players", "3", "--set", "deck=7"],
    ["simulate", "--players", "3", "-o", "/nonexistent/dir/x.rsp"],
    ["nosuchcommand"],
    ["validate", "--nosuchoption", str(SAMPLE)],
]


@pytest.mark.parametrize("argv", BAD_OPTIONS, ids=" ".join)
def test_bad_options_never_make_a_traceback(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, out, err = run(capsys, *argv)
    assert code in (0, 1, 2), (code, out, err)
    assert "Traceback" not in out + err and "internal error" not in err, err


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_dash_with_empty_stdin(command: list[str]) -> None:
    done = run_cli(*command, "-", stdin="")
    assert done.returncode in (0, 1, 2)
    assert "Traceback" not in done.stdout + done.stderr and "internal error" not in done.stderr


def test_an_unclosed_comment_does_not_swallow_the_file(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """Found while measuring memory: a ``{`` never closed held the rest of the
    file; it is given up after 1000 lines and the games after it are read."""
    game = SAMPLE.read_text(encoding="utf-8")
    path = tmp_path / "g.rsp"
    path.write_text("{ oops\n" + "\n" * 1200 + game * 3, encoding="utf-8")
    code, out, _ = run(capsys, "validate", "-f", "json", str(path))
    report = json.loads(out)["files"][0]
    assert syntax_problems(report)[0]["message"].startswith(
        "E120: a { comment } is not closed within 1000 lines")
    assert len(report["games"]) == 3 and code == 1


def test_an_internal_error_is_one_line_unless_traceback_is_asked_for(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from raspis_cli.cli import validate_cmd

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(validate_cmd, "validate_files", broken)
    code, out, err = run(capsys, "validate", str(SAMPLE))
    assert code == 2 and "Traceback" not in out + err
    assert err == ("raspis: internal error: RuntimeError: a bug (run with --traceback for details; "
                   "please report it)\n")
    code, out, err = run(capsys, "validate", "--traceback", str(SAMPLE))
    assert code == 2 and err.startswith("Traceback") and "RuntimeError: a bug" in err


def test_a_game_of_a_thousand_players_is_checked_without_a_traceback() -> None:
    """A record far outside every preset's players (1,500 names, one deal
    and a trick of 1,500 cards): reported (players, deal-size, ...), never an
    internal error. Working out the taken recursed once per player (a
    RecursionError past ~1,000), and the whole-trick path kept a table of
    turns of ``players`` squared seats for good."""
    from raspis_cli.engine import deal as deal_module
    from raspis_cli.judge.replay import replay_game
    from raspis_cli.notation import read_text

    names = [f"p{i}" for i in range(1500)]
    cards = ["A♥", "K♥", "Q♥", "J♥", "10♥", "9♥", "8♥", "7♥", "6♥"]
    for trick in ("", "  trick p0: " + " ".join(cards[i % 9] for i in range(len(names))) + "\n"):
        text = f'[Players "{", ".join(names)}"]\n1. 1 p1499 ♠\n{trick}'
        result = replay_game(read_text(text).games[0], ordered_bids=True)
        assert {"players", "deal-size"} <= {p.kind for p in result.problems}
    assert all(len(table) <= 16 for table in deal_module._TURNS.values())


def test_a_trick_line_of_names_run_into_numbers_is_read_with_a_message(tmp_path: Path) -> None:
    # 'a1a1…' after a trick word, or a card and a long run of spaces: the hint that looks for
    # 'NAME NUMBER' pairs once tried every way of splitting them (2^n ways, n² ways); the fuzz
    # campaign's seed 42 hung on such lines for minutes
    path = tmp_path / "g.rsp"
    path.write_text('[Players "Анна, Борис, Вера"]\n\n1. 1 Борис ♠ | 0/0 | 1/1 | 0/0\n'
                    "  trick " + "a1" * 2000 + " x\n  trick Борис: 6♣" + " " * 60_000 + "x\n",
                    encoding="utf-8")
    done = run_cli("validate", "-f", "json", str(path))  # a subprocess: a hang fails on its timeout
    problems = syntax_problems(json.loads(done.stdout)["files"][0])
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert [(p["line"], p["message"][:5]) for p in problems] == [(4, "E303:"), (5, "E303:")]
    assert "expected a card like 10♥" in problems[0]["message"]
    assert "expected a card after 'x', got the end of the line" in problems[1]["message"]


def test_a_deal_line_with_a_long_run_of_spaces_after_its_cells_is_read_with_a_message(tmp_path: Path) -> None:
    # the one-match reading of a plain sheet line split the spaces after its last cell between
    # two patterns (n² ways) before it failed: 20 s for a line of the fuzz campaign's seed 42;
    # the time is bench/hostile_timing.py's, the message this test's
    path = tmp_path / "g.rsp"
    path.write_text('[Players "Анна, Борис, Вера"]\n\n1. 1 Борис ♠ | 0/0 | 1/1 | 0/0' + " " * 60_000
                    + "[\n", encoding="utf-8")
    done = run_cli("validate", "-f", "json", str(path))
    problems = syntax_problems(json.loads(done.stdout)["files"][0])
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert [(p["line"], p["column"]) for p in problems] == [(3, 60_031)]
    message = problems[0]["message"]
    assert message.startswith("E211: expected a sheet cell like 2/1") and "got '['" in message
