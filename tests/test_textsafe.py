"""Issue 11, item 4: record text never reaches the terminal raw.

A player named ``ESC]0;pwned BEL ESC[2J`` printed raw sets the terminal's
title and clears the screen; OSC 52 writes the clipboard; a bidi override
makes a line read backwards. Every text output that echoes record content
escapes such characters visibly, through one helper
(:mod:`raspis_cli.text.textsafe`).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from raspis_cli.text.textsafe import UNSAFE, escape_text, excerpt, is_unsafe, show_source_line
from tests.storekit import run

ROOT = Path(__file__).resolve().parent.parent
EVIL = ROOT / "tests" / "data" / "hostile" / "escape-name.rsp"
NAME = "\x1b]0;pwned\x07\x1b[2J\u202eВера"


def raw_controls(text: str) -> list[str]:
    """The unsafe characters in output, line breaks apart."""
    return sorted({repr(ch) for ch in text if ord(ch) in UNSAFE and ch != "\n"})


def test_escape_text_writes_every_kind_visibly() -> None:
    assert escape_text(NAME) == "\\x1b]0;pwned\\x07\\x1b[2J\\u202eВера"
    assert escape_text("a\tb\nc\rd\x7fe\x9bf\u2066g\u2028") == "a\\tb\\nc\\rd\\x7fe\\x9bf\\u2066g\\u2028"
    assert escape_text("Анна ♥ 10♦ [bold] \\x1b") == "Анна ♥ 10♦ [bold] \\x1b"
    assert not is_unsafe("Анна ♥") and is_unsafe("\x00")
    for code in UNSAFE:
        assert not is_unsafe(escape_text(chr(code)))


def test_caret_stays_under_the_column_after_escaping() -> None:
    line = "trick \x1b[2J: 9♦"
    shown, pad = show_source_line(line, line.index("9") + 1)
    assert shown == "trick \\x1b[2J: 9♦"
    assert shown[len(pad)] == "9"


def test_a_long_line_is_shown_as_an_excerpt_around_the_column() -> None:
    line = "x" * 30_000 + "BAD" + "y" * 30_000
    cut, column = excerpt(line, 30_001, width=40)
    assert len(cut) <= 42 and cut.startswith("…") and cut.endswith("…")
    assert cut[column - 1:column + 2] == "BAD"
    shown, pad = show_source_line(line, 30_001)
    assert len(shown) < 200 and shown[len(pad):len(pad) + 3] == "BAD"


@pytest.mark.parametrize("argv", [
    ["validate"], ["score"], ["score", "-f", "markdown"], ["show", "--deal", "1"],
])
def test_commands_escape_record_text(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *argv, str(EVIL))
    assert code in (0, 1), err
    assert raw_controls(out + err) == []
    assert "\\x1b]0;pwned\\x07\\x1b[2J\\u202eВера" in out  # visible, not dropped


def test_validate_echoes_the_source_line_escaped(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "validate", str(EVIL))
    assert code == 1
    lines = out.splitlines()
    assert lines[0].endswith("follow-suit: deal 1, trick 2: "  # the name once, escaped
                             "\\x1b]0;pwned\\x07\\x1b[2J\\u202eВера played 8♣ on a ♦ lead while holding J♦")
    source, caret = lines[1], lines[2]
    assert source.endswith("trick Анна: 9♦ 10♦ 8♣") and source[caret.index("^")] == "8"


def test_syntax_errors_escape_the_line_they_echo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.rsp"
    bad.write_text('[Players "A, B, C"]\n1. 1 A 9H | 0/0 | 1/1 | 0/0\n  trick \x1b[2J\x9b: 9♦ \u202e\n',
                   encoding="utf-8")
    for argv in (["validate", str(bad)], ["fmt", str(bad)], ["convert", "--to", "json", str(bad)]):
        code, out, err = run(capsys, *argv)
        assert code in (1, 2), (argv, out, err)
        assert raw_controls(out + err) == [], argv
        assert "\\x1b[2J" in out + err


def test_store_tables_escape_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "evil.duckdb"
    assert run(capsys, "load", str(EVIL), "--db", str(db), "-q")[0] == 0
    for argv in (["stats", "--report", "leaderboard"], ["query", "SELECT player FROM seats"]):
        code, out, err = run(capsys, *argv, "--db", str(db))
        assert code == 0, err
        assert raw_controls(out) == [] and "\\x1b]0;pwned" in out
    # JSON is data: the name comes back exactly
    code, out, _ = run(capsys, "query", "SELECT player FROM seats ORDER BY seat", "--db", str(db),
                       "-f", "json")
    assert json.loads(out)[2]["player"] == NAME


def test_error_messages_escape_what_they_quote(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "score", str(tmp_path / "\x1b[2J.rsp"))
    assert code == 2 and raw_controls(err) == [] and "\\x1b[2J" in err


def test_textsafe_is_a_bottom_layer_module() -> None:
    """Every layer may use it: it imports only the standard library."""
    import ast

    import raspis_cli.text.textsafe as module

    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert imported <= {"__future__", "typing", "unicodedata"}


# --- item 5: a console without suit symbols -------------------------------------------------------


@pytest.mark.parametrize("argv", [
    ["score", "samples/raspisnoy-sheet-dispute.rsp"], ["validate", "samples/errors-friday.rsp"],
    ["show", "samples/raspisnoy-full-3p.rsp"], ["fmt", "samples/classic.rsp"],
])
def test_cp1251_output_never_crashes(argv: list[str]) -> None:
    """What a Russian Windows machine does with ``> report.txt``: CP1251 has
    no ♥. Suits are written as letters (which the notation reads), and one
    line on stderr says so."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "FORCE_COLOR")}
    env["PYTHONIOENCODING"] = "cp1251"
    done = subprocess.run([sys.executable, "-m", "raspis_cli", *argv], cwd=ROOT, env=env,
                          capture_output=True, timeout=300)
    err = done.stderr.decode("cp1251")
    assert done.returncode in (0, 1), err
    assert "internal error" not in err and "Traceback" not in err
    assert err.count("has no suit symbols") == 1 and len(err.splitlines()) == 1
    out = done.stdout.decode("cp1251")  # every byte is CP1251
    assert "♥" not in out and any(f"{rank}H" in out for rank in ("7", "8", "9", "10", "J", "Q", "K", "A"))
    if argv[0] == "fmt":  # the letters read back: the same games
        from raspis_cli.notation import read_text

        read = read_text(out)
        original = read_text((ROOT / argv[1]).read_text(encoding="utf-8"))
        assert read.ok and len(read.games) == len(original.games)


def test_analyze_report_and_new_escape_what_they_echo(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """analyze (names, the Event tag), report and new (paths, names) echo
    record text escaped; report also works on a game without a Date tag."""
    code, out, err = run(capsys, "analyze", str(EVIL), "--samples", "0")
    assert code == 0, err
    assert raw_controls(out + err) == [] and "\\x1b]0;pwned\\x07\\x1b[2J\\u202eВера" in out
    page = tmp_path / "r\x1b[2J\u202e.html"
    code, out, err = run(capsys, "report", str(EVIL), "-o", str(page))
    assert code == 0, err
    assert page.exists() and raw_controls(out + err) == [] and "r\\x1b[2J\\u202e.html" in out
    sheet = tmp_path / "n\x1b[2J.rsp"
    code, out, err = run(capsys, "new", "-p", "\x07\u202eA, B, C", "-o", str(sheet))
    assert code == 0, err
    assert raw_controls(out + err) == [] and "\\x07\\u202eA, B, C" in err
