"""The console as a person meets it (issue 13, part 4): tables that fit 80
columns without breaking a name, show's tricks taken and '1 card', --version,
completion, real metavars, the Russian interface."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

from tests.clikit import run_cli

DISPUTE = "samples/raspisnoy-sheet-dispute.rsp"


def _width(line: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in line)


@pytest.mark.parametrize("args", [(), ("--compare", "classic")])
def test_score_fits_80_columns_without_breaking_words(args: tuple[str, ...]) -> None:
    done = run_cli("score", DISPUTE, *args, env_extra={"COLUMNS": "80"})
    assert done.returncode == 1, done.stderr  # the disputed sheet
    lines = done.stdout.splitlines()
    assert max(_width(line) for line in lines) <= 80
    body = "\n".join(lines)
    assert "Дмитри\n" not in body and "(writte" not in body.replace("(written", "")
    if args:  # the what-if: a line per deal and player, names whole in their column
        for name in ("Дмитрий", "Анна", "Boris", "Вера"):
            assert re.search(rf"│ {name}\s+│", body), name
        assert "(written +25)" in body
        assert "| 448 (+25)" in body
        return
    # a line per deal, a column per player: the names whole in the header
    assert re.search(r"^deal +│ Анна +│ Boris +│ Вера +│ Дмитрий$", body, re.MULTILINE)
    assert re.search(r"^17\. 9 dark +Анна +♠ +│ 3/2 +53 │ 0/0 +208\* │ 7/7 +256 │ 0/0 +115$", body,
                     re.MULTILINE)  # the written score that differs is marked, and told below
    assert "\n* deal 17, Boris: score written +25, recomputed +5\n" in body
    assert len(lines) < 40, body


def test_score_is_wide_where_there_is_room() -> None:
    done = run_cli("score", DISPUTE, env_extra={"COLUMNS": "200"})
    header = next(line for line in done.stdout.splitlines() if "deal" in line and "Дмитрий" in line)
    assert "Анна" in header and "Boris" in header, "one column per player"


def test_standings_show_a_written_final_that_differs(tmp_path: Path) -> None:
    text = Path(DISPUTE).read_text(encoding="utf-8")
    changed = re.sub(r"^(final\s+\|\s+)-12\b", r"\g<1>-2", text, flags=re.MULTILINE)
    assert changed != text
    path = tmp_path / "d.rsp"
    path.write_text(changed, encoding="utf-8")
    done = run_cli("score", str(path))
    assert "4. Анна -12 (written -2)" in done.stdout


def test_show_prints_tricks_taken_and_one_card() -> None:
    done = run_cli("show", "samples/joker54-full.rsp", "--deal", "1")
    assert "· 2 cards ·" in done.stdout
    assert "tricks taken: Олег 0 (bid 0), Ira 0 (bid 0), Stas 1 (bid 0), Люда 1 (bid 1)" in done.stdout
    one = run_cli("show", "samples/raspisnoy-full-3p.rsp", "--deal", "1")
    assert "· 1 card ·" in one.stdout and "1 cards" not in one.stdout


def test_show_in_russian() -> None:
    done = run_cli("show", "samples/joker54-full.rsp", "--deal", "1", "--lang", "ru")
    assert "Раздача 1 · обычная · 2 карты · сдаёт Stas · козырь Д♥" in done.stdout
    assert "взятки: Олег 0 (заказ 0)" in done.stdout


@pytest.mark.slow
def test_version_and_completion_and_metavars() -> None:
    assert re.fullmatch(r"raspis \d+\.\d+\.\d+\n", run_cli("--version").stdout)
    top = run_cli("--help").stdout
    assert "--install-completion" in top and "--show-completion" in top
    for command in ("validate", "fmt", "convert", "load"):
        text = run_cli(command, "--help").stdout
        assert f"Usage: raspis {command} [OPTIONS] FILE..." in text
        assert "<list[str]>" not in text and "{" not in text.split("Options:")[0]
    for command in ("simulate", "stats", "query", "convert"):
        assert "<" not in run_cli(command, "--help").stdout, command


def test_score_headers_and_kinds_in_russian() -> None:
    done = run_cli("score", DISPUTE, env_extra={"COLUMNS": "80", "LANG": "ru_RU.UTF-8"})
    assert re.search(r"^раздача +│ Анна +│ Boris", done.stdout, re.MULTILINE)
    assert re.search(r"^ 2\. 2 +Boris +8♠ +│ 0/0 +−5 │ 1/1 +15 │", done.stdout, re.MULTILINE)
    assert re.search(r"^13\. 9 бескозырка Анна +- +│", done.stdout, re.MULTILINE)
    assert "(записано -2)" not in done.stdout
    assert "победитель: Boris" in done.stdout


def test_fmt_in_russian_leaves_comments_as_written(tmp_path: Path) -> None:
    """Only the keyword that heads a line's code is translated: a { … } block's
    inner lines are comment text (its 'trick' was rewritten 'взятка' before)."""
    path = tmp_path / "block.rsp"
    path.write_text('[Event "x"]\n[Players "Анна, Борис, Вера"]\n[Rules "raspisnoy"]\n'
                    "1. 1 Анна | 0/0 | 0/0 | 1/1 { a note\n  trick words, play and hand inside\n"
                    + " " * 1000 + "final\n}\n", encoding="utf-8")
    english = run_cli("fmt", str(path))
    russian = run_cli("fmt", str(path), "--lang", "ru")
    assert russian.returncode == english.returncode == 0, russian.stderr
    assert "\n  trick words, play and hand inside\n" + " " * 1000 + "final\n}" in russian.stdout
    assert russian.stdout == english.stdout  # this game has no keyword outside the comment


@pytest.mark.slow
def test_fmt_writes_russian_keywords_that_read_back(tmp_path: Path) -> None:
    russian = run_cli("fmt", "samples/joker54-full.rsp", "--lang", "ru")
    assert russian.returncode == 0, russian.stderr
    assert "\n  рука Олег: 7♠ Д♣\n" in russian.stdout and "\n  взятка Stas: 8♠ К♠ 7♠ 10♠\n" in russian.stdout
    assert "\nитог " in russian.stdout and "\n  trick " not in russian.stdout
    assert "штраф Люда -10 ход джокером" in russian.stdout and "RJ(скинуть ♣)" in russian.stdout
    path = tmp_path / "ru.rsp"
    path.write_text(russian.stdout, encoding="utf-8")
    # without --lang a Russian sheet stays Russian; --lang en writes it in English
    assert run_cli("fmt", str(path)).stdout == russian.stdout
    assert run_cli("fmt", "--check", str(path)).returncode == 0
    english = run_cli("fmt", str(path), "--lang", "en").stdout
    assert english.replace("ход джокером", "joker-lead") == run_cli("fmt", "samples/joker54-full.rsp").stdout
