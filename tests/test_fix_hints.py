"""Errors that lead to the fix (issue 13, part 3): each mistake a scorekeeper
made typing a real sheet, through the CLI, with the message that says what to write."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.clikit import run_cli

HEAD = '[Event "Friday"]\n[Players "Анна, Борис, Вера"]\n'


def _validate(tmp_path: Path, body: str, *args: str, head: str = HEAD) -> tuple[int, str]:
    path = tmp_path / "sheet.rsp"
    path.write_text(head + body, encoding="utf-8")
    done = run_cli("validate", str(path), *args)
    return done.returncode, done.stdout + done.stderr


def test_a_misspelt_keyword_kind_and_name_are_suggested(tmp_path: Path) -> None:
    code, out = _validate(tmp_path, "1. 1 Анна K♣ | 0/0 | 1/1 | 0/0\n  ввзятки Анна 0\n"
                                    "2. 1 бескозырк Борис\n3. 1 Саща ♦ | 1/1 | 0/0 | 0/0\n")
    assert code == 1
    assert "got 'ввзятки' (did you mean 'взятки'?)" in out
    assert "(did you mean the kind 'бескозырка'?)" in out
    assert "'Саща' is not a player of this game (did you mean 'Саша'?)" not in out  # no Саша here
    assert "'Саща' is not a player of this game" in out


def test_a_misspelt_player_gets_the_closest_name(tmp_path: Path) -> None:
    head = '[Players "Анна, Саша, Вера"]\n'
    _code, out = _validate(tmp_path, "1. 1 Саща ♦ | 1/1 | 0/0 | 0/0\n", head=head)
    assert "'Саща' is not a player of this game (did you mean 'Саша'?)" in out


def test_a_token_mixing_scripts_warns_which_reading_was_taken(tmp_path: Path) -> None:
    _code, out = _validate(tmp_path, "1. 1 Анна Tч | 0/0 | 1/1 | 0/0\n", "--rules", "classic")
    assert "warning: W301: 'Tч' mixes Latin and Cyrillic letters; read as 10♥ (all Cyrillic, 'Тч' would " \
           "be A♥)" in out
    assert "1 warning" in out


def test_a_latin_letter_that_makes_no_card_is_named(tmp_path: Path) -> None:
    _code, out = _validate(tmp_path, "1. 1 Анна ♠ | 0/0 | 1/1 | 0/0\n  trick Борис: Bп\n")
    assert "got 'Bп' (did you mean 'Вп', with Cyrillic letters: J♠?)" in out


def test_commas_between_cards_in_a_hand_line(tmp_path: Path) -> None:
    body = "1. 2 Анна ♠ | 1/1 | 0/0 | 1/1\n  hand Борис: 7♠, 8♠\n"
    _code, out = _validate(tmp_path, body)
    assert "E303" not in out and "syntax" not in out


@pytest.mark.parametrize("cell", ["пас/0", "п/0", "пас"])
def test_a_pass_written_as_a_word_is_the_bid_zero(tmp_path: Path, cell: str) -> None:
    path = tmp_path / "p.rsp"
    path.write_text(HEAD + f"1. 1 Анна ♠ | 1/1 | 0/0 | {cell}\n", encoding="utf-8")
    done = run_cli("fmt", str(path))
    assert done.returncode == 0, done.stderr
    expected = "0/0" if "/" in cell else "0"  # a bid without taken
    assert done.stdout.rstrip().endswith(f"| {expected}")


def test_a_miser_row_of_bare_counts_says_write_dash_slash(tmp_path: Path) -> None:
    _code, out = _validate(tmp_path, "1. 1 мизер Анна | 0 | 1 | 0\n")
    assert "E212: a miser deal has no bids: write the tricks taken as -/0 | -/1 | -/0" in out


def test_vzyatka_for_vzyatki(tmp_path: Path) -> None:
    _code, out = _validate(tmp_path, "1. 1 Анна ♠ | 1/1 | 0/0 | 0/0\n  взятка Анна 1, Борис 0, Вера 0\n")
    assert "E307: 'взятка' starts a trick line" in out and "write 'взятки' or 'taken'" in out


def test_curly_quotes_and_players_without_commas(tmp_path: Path) -> None:
    head = "[Event “Пятница”]\n[Players “Анна Борис Вера”]\n"
    code, out = _validate(tmp_path, "1. 1 Анна ♠ | 0/0 | 1/1 | 1/0\nunfinished\n", head=head)
    assert "W104: [Players] names are separated by commas; read as 3 players: Анна, Борис, Вера" in out
    assert "syntax" not in out
    assert code == 0, out


def test_a_game_in_progress_suggests_unfinished(tmp_path: Path) -> None:
    _code, out = _validate(tmp_path, "1. 1 Анна ♠ | 1/1 | 0/0 | 0/0\n")
    assert "the game ends after 1 (if it was stopped early, write 'unfinished'" in out


@pytest.mark.parametrize(("written", "canonical"), [
    ("04.12.2026", "2026-12-04"), ("4.12.26", "2026-12-04"), ("2026.12.04", "2026-12-04"),
    ("2026-12-04", "2026-12-04"), ("2026", "2026"), ("2026.??.??", "2026-??-??"),
])
def test_dates_are_read_and_written_canonically(tmp_path: Path, written: str, canonical: str) -> None:
    path = tmp_path / "d.rsp"
    path.write_text(f'[Date "{written}"]\n' + HEAD + "1. 1 Анна ♠ | 1/1 | 0/0 | 0/0\n", encoding="utf-8")
    done = run_cli("fmt", str(path))
    assert f'[Date "{canonical}"]' in done.stdout
    assert "W106" not in done.stderr


@pytest.mark.slow
def test_an_unreadable_date_is_a_warning_and_load_keeps_the_game(tmp_path: Path) -> None:
    path = tmp_path / "d.rsp"
    path.write_text('[Date "в пятницу"]\n' + HEAD + "1. 1 Анна ♠ | 0/0 | 1/1 | 1/0\nunfinished\n",
                    encoding="utf-8")
    done = run_cli("validate", str(path))
    assert "W106: cannot read the date 'в пятницу'" in done.stdout
    assert done.returncode == 0, "a warning is not a violation"
    db = str(tmp_path / "x.duckdb")
    assert run_cli("load", str(path), "--db", db, "-q").returncode == 0
    rows = run_cli("query", "SELECT count(*) AS n, any_value(date) AS d FROM games", "--db", db,
                   "-f", "jsonl")
    assert rows.stdout.strip() == '{"n": 1, "d": null}'


@pytest.mark.slow
def test_stats_for_a_player_not_in_the_database(tmp_path: Path) -> None:
    db = str(tmp_path / "x.duckdb")
    assert run_cli("load", "samples/raspisnoy-sheet-dispute.rsp", "--db", db, "-q").returncode == 0
    done = run_cli("stats", "--db", db, "--player", "Anya")
    assert done.returncode == 2  # a usage error
    assert done.stderr.startswith("raspis: error: --player: no player 'Anya' in ")
    assert "did you mean Анна" in done.stderr
    # the same name in Latin letters, or in another case, is the player
    for spelling in ("Anna", "анна"):
        rows = run_cli("stats", "--db", db, "--player", spelling, "--report", "leaderboard", "-f", "jsonl")
        assert rows.returncode == 0 and '"player": "Анна"' in rows.stdout


@pytest.mark.slow
def test_query_reads_sql_from_stdin_and_jsonl_is_offered(tmp_path: Path) -> None:
    db = str(tmp_path / "x.duckdb")
    assert run_cli("load", "samples/classic.rsp", "--db", db, "-q").returncode == 0
    done = run_cli("query", "-", "--db", db, "-f", "jsonl", stdin="SELECT 1 AS one UNION ALL SELECT 2\n")
    assert done.stdout.splitlines() == ['{"one": 1}', '{"one": 2}']
    for args in (("validate", "samples/classic.rsp"), ("score", "samples/classic.rsp"),
                 ("show", "samples/joker54-full.rsp"), ("rules", "list"), ("rules", "show", "classic")):
        out = run_cli(*args, "--format", "jsonl").stdout.splitlines()
        assert out and all(line.startswith("{") and line.endswith("}") for line in out), args


def test_the_guides_unfinished_example_is_valid(tmp_path: Path) -> None:
    guide = (Path(__file__).resolve().parent.parent / "docs" / "NOTATION.md").read_text(encoding="utf-8")
    example = guide.split("A game stopped after four deals:\n\n```\n", 1)[1].split("```", 1)[0]
    assert "\nfinal " in example and example.rstrip().endswith("unfinished")
    path = tmp_path / "stopped.rsp"
    path.write_text(example, encoding="utf-8")
    done = run_cli("validate", str(path))
    assert done.returncode == 0, done.stdout
