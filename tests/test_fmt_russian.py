"""A sheet written in Russian: every word the reader's, read back as the English sheet reads, its
columns aligned as the English sheet's, ``fmt --check`` refusing a misaligned one in either language,
and the language of a file kept by ``fmt``, ``live`` and the sheet's store.

The golden files of a Russian sheet (``new --lang ru``, ``fmt --lang ru``) are renders of
``tests/test_russian_text.py`` (``ru/new-sheet.txt``, ``ru/fmt-sheet.txt``), held to its checks of
Latin words.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from raspis_cli.model.cards import Card, Suit
from raspis_cli.model.deal_kinds import DEAL_KINDS
from raspis_cli.model.joker import JokerDecl
from raspis_cli.model.joker_modes import JOKER_MODES
from raspis_cli.model.lines import penalty_rule
from raspis_cli.model.record import NO_TRUMP, DealRecord, GameRecord, PenaltyRecord, PlayRecord
from raspis_cli.notation import read_file, read_text, write_games
from raspis_cli.notation.writer import written_language
from raspis_cli.sheet.sheetfile import check_reads_back
from raspis_cli.text.textsafe import display_width
from tests.clikit import run_cli
from tests.notation_helpers import games_key

ROOT = Path(__file__).resolve().parent.parent
RECORDS = [p for p in sorted((ROOT / "samples").glob("*.rsp"))
           + sorted((ROOT / "tests" / "data").rglob("*.rsp")) if read_file(p).ok]
SHEET = ROOT / "tests" / "data" / "sheet-ru.rsp"


def _meaning(games: list[GameRecord]) -> list[dict[str, Any]]:
    """What games say: :func:`games_key`, a penalty's reason as the prescribed penalty it names
    (``ренонс`` and ``revoke`` are the one penalty; a free reason stays as written)."""
    key = games_key(games)
    for game in key:
        for deal in game["deals"]:
            if deal["penalties"]:
                deal["penalties"] = [(p, n, penalty_rule(r) or r) for p, n, r in deal["penalties"]]
    return key


def _round_trip(games: list[GameRecord]) -> str:
    """The Russian text of ``games``, checked: it reads without a problem into what the English text
    reads into, is written again the same, and is told Russian (when it has a word to tell by)."""
    english, russian = write_games(games), write_games(games, "ru")
    read = read_text(russian)
    assert read.ok, [d.render() for d in read.diagnostics]
    assert _meaning(read.games) == _meaning(read_text(english).games)
    assert write_games(read.games, "ru") == russian
    if russian != english:
        assert written_language(russian.split("\n")) == "ru"
        assert written_language(english.split("\n")) == "en"
    return russian


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_every_record_reads_back_the_same_from_its_russian_sheet(path: Path) -> None:
    russian = _round_trip(read_file(path).games)
    code = "\n".join(line.split(";")[0] for line in russian.splitlines() if not line.startswith("["))
    english = r"\b(?:trick|hand|penalty|final|unfinished|replayed|no-trump|dark|miser|golden)\b"
    assert not re.search(english, code)


_PLAYERS = ["Анна", "Boris", "Вера"]
_cards = st.integers(0, 53).map(Card.from_index)
_suits = st.sampled_from(list(Suit))


@st.composite
def _decl(draw: st.DrawFn) -> JokerDecl:
    mode = draw(st.sampled_from(JOKER_MODES))
    if mode == "as":
        return JokerDecl("as", card=draw(_cards))
    return JokerDecl(mode, suit=draw(st.none() | _suits))


@st.composite
def _games(draw: st.DrawFn) -> GameRecord:
    game = GameRecord(players=list(_PLAYERS), tags={"Event": "Пятница"},
                      unfinished=draw(st.booleans()))
    for n in range(1, draw(st.integers(1, 4)) + 1):
        dealer = _PLAYERS[(n - 1) % 3]
        deal = DealRecord(n, draw(st.sampled_from(DEAL_KINDS)), dealer, draw(st.integers(1, 12)),
                          draw(st.sampled_from([None, NO_TRUMP, *Suit])) if draw(st.booleans())
                          else draw(_cards))
        if draw(st.booleans()):
            deal.hands = {p: draw(st.lists(_cards, min_size=1, max_size=4, unique=True)) for p in _PLAYERS}
        if draw(st.booleans()):
            tricks = []
            for _ in range(draw(st.integers(1, 3))):
                first = draw(st.integers(0, 2))
                order = _PLAYERS[first:] + _PLAYERS[:first]
                tricks.append([PlayRecord(p, draw(_cards), draw(st.none() | _decl())) for p in order])
            deal.tricks = tricks
        if draw(st.booleans()):
            deal.taken = {p: draw(st.integers(0, 5)) for p in _PLAYERS}
            deal.scores = {p: draw(st.integers(-200, 200)) for p in _PLAYERS}
        if draw(st.booleans()):
            reasons = st.sampled_from(["revoke", "joker-lead", "Revoke", "ренонс", "ход не в масть",
                                       "опоздал", "late", ""])
            deal.penalties = [PenaltyRecord(draw(st.sampled_from(_PLAYERS)), draw(st.integers(-50, 0)),
                                            draw(reasons)) for _ in range(draw(st.integers(1, 2)))]
        deal.replayed = draw(st.booleans())
        game.deals.append(deal)
    if not game.unfinished and draw(st.booleans()):
        game.totals = {p: draw(st.integers(-500, 500)) for p in _PLAYERS}
    return game


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(_games())
def test_a_russian_sheet_reads_back_as_the_english_one(game: GameRecord) -> None:
    """read(write(g, "ru")) == read(write(g, "en")): every kind, trump, card rank, joker mode in
    every place (the Russian word where it reads back the same there), penalty reason, mark."""
    _round_trip([game])


# --- alignment ---------------------------------------------------------------------------------------


def _bars(line: str) -> list[int]:
    """The screen columns of a sheet line's "|"s."""
    return [display_width(line[:i]) for i, c in enumerate(line) if c == "|"]


@pytest.mark.parametrize("path", [*RECORDS, SHEET], ids=lambda p: p.name)
def test_the_russian_sheet_is_aligned_as_the_english_one(path: Path) -> None:
    """In each language every sheet line of a game has its "|"s in the same columns on the screen."""
    for lang in ("en", "ru"):
        for game in read_file(path).games:
            text = write_games([game], lang)
            lines = [line for line in text.splitlines()
                     if re.match(r"\d+\.|final|итог", line) and "|" in line]
            columns = {tuple(_bars(line)[:len(game.players)]) for line in lines}
            assert len(columns) <= 1, (lang, lines)


MISALIGNED = '[Players "Анна, Борис, Вера"]\n\n15. 12 бескозырка Вера\n21. 12 мизер    Вера\n'


@pytest.mark.parametrize("lang", [None, "ru", "en"])
def test_fmt_check_refuses_a_misaligned_sheet(tmp_path: Path, lang: str | None) -> None:
    path = tmp_path / "вечер.rsp"
    path.write_text(MISALIGNED, encoding="utf-8")
    done = run_cli("fmt", "--check", str(path), *(["--lang", lang] if lang else []))
    assert done.returncode == 1, done.stdout + done.stderr
    shown = run_cli("fmt", str(path), *(["--lang", lang] if lang else [])).stdout
    if lang != "en":
        assert "15. 12 бескозырка Вера  |" in shown and "21. 12 мизер      Вера  |" in shown
    path.write_text(shown, encoding="utf-8")
    assert run_cli("fmt", "--check", str(path), *(["--lang", lang] if lang else [])).returncode == 0


def test_fmt_check_refuses_a_misaligned_english_sheet(tmp_path: Path) -> None:
    path = tmp_path / "evening.rsp"
    path.write_text('[Players "A, B, C"]\n\n15. 12 no-trump C\n21. 12 miser C\n', encoding="utf-8")
    assert run_cli("fmt", "--check", str(path)).returncode == 1


def test_columns_are_counted_on_the_screen() -> None:
    """A name of wide characters takes two columns a character: the sheet's columns say so."""
    game = GameRecord(players=["李", "Bo", "Ann"])
    game.deals = [DealRecord(1, "normal", "李", 1, Suit.H, taken={"李": 1, "Bo": 0, "Ann": 0}),
                  DealRecord(2, "normal", "Ann", 1, Suit.S, taken={"李": 0, "Bo": 1, "Ann": 0})]
    lines = write_games([game]).splitlines()[2:]
    assert len({tuple(_bars(line)) for line in lines}) == 1, lines


# --- the language of a file ------------------------------------------------------------------------


def test_the_language_a_sheet_is_written_in() -> None:
    english = SHEET.read_text(encoding="utf-8")
    russian = write_games(read_file(SHEET).games, "ru")
    assert written_language(english.split("\n")) == "en"
    assert written_language(russian.split("\n")) == "ru"
    # names, tags and comments are not counted; a sheet without a word of its own takes the default
    bare = '[Event "Пятница"]\n[Players "Анна, Борис, Вера"]\n\n1. 1 Анна ♥ | 0/0 | 0/1 | 1/0 ; взятка\n'
    assert written_language(bare.split("\n")) == "en"
    assert written_language(bare.split("\n"), "ru") == "ru"
    assert written_language(["1. 1 Анна Д♥"]) == "ru" and written_language(["1. 1 Анна Q♥"]) == "en"


@pytest.mark.slow
def test_fmt_keeps_a_russian_sheet_russian(tmp_path: Path) -> None:
    """Without --lang each file is written in its own language; --lang names one for all."""
    russian = run_cli("fmt", str(SHEET), "--lang", "ru").stdout
    path = tmp_path / "лист.rsp"
    path.write_text(russian, encoding="utf-8")
    assert run_cli("fmt", "--check", str(path)).returncode == 0
    assert run_cli("fmt", "--check", str(path), "--lang", "ru").returncode == 0
    assert run_cli("fmt", "--check", str(path), "--lang", "en").returncode == 1
    assert run_cli("fmt", "--check", str(SHEET), "--lang", "ru").returncode == 1
    assert run_cli("fmt", "--write", str(path)).returncode == 0
    assert path.read_text(encoding="utf-8") == russian
    # the locale is not asked
    by_locale = run_cli("fmt", str(SHEET), env_extra={"LANG": "ru_RU.UTF-8"})
    assert by_locale.stdout == SHEET.read_text(encoding="utf-8")
    check_reads_back(russian.encode("utf-8"), str(path))  # what live and serve save: read back as written


def test_new_writes_a_russian_sheet_only_when_asked(tmp_path: Path) -> None:
    asked = run_cli("new", "-p", "Анна, Борис, Вера", "--date", "2026-12-01", "--lang", "ru").stdout
    assert "15. 12 бескозырка Вера   |" in asked and "21. 12 мизер      Вера   |" in asked
    assert asked.endswith("\nнедоиграна\n")
    by_locale = run_cli("new", "-p", "Анна, Борис, Вера", "--date", "2026-12-01",
                        env_extra={"LANG": "ru_RU.UTF-8"})
    assert "no-trump" in by_locale.stdout and by_locale.stdout.endswith("\nunfinished\n")


def test_live_keeps_a_russian_sheet_russian(tmp_path: Path) -> None:
    """A sheet made by ``new --lang ru`` and filled in by ``live`` in English stays Russian."""
    path = tmp_path / "вечер.rsp"
    assert run_cli("new", "-p", "Анна, Борис, Вера", "--date", "2026-12-01", "--lang", "ru",
                   "-o", str(path)).returncode == 0
    typed = "K♠\n0\n0\n0\n1\n0\n0\nquit\n"
    done = run_cli("live", str(path), stdin=typed, env_extra={"LANG": "C.UTF-8"})
    assert done.returncode == 0, done.stdout + done.stderr
    text = path.read_text(encoding="utf-8")
    assert text.startswith('[Date "2026-12-01"]') and "1.   1            Анна  К♠ | 0/0 5 5 |" in text, text
    assert "бескозырка" in text and text.endswith("\nнедоиграна\n")
    assert run_cli("fmt", "--check", str(path)).returncode == 0


def test_serve_shows_a_trump_card_in_the_pages_language() -> None:
    """The sheet on serve's page writes a trump card's rank as live does: ``К♠`` in Russian."""
    pytest.importorskip("starlette")
    from raspis_cli.page.view import table_view
    from raspis_cli.sheet.editable import EditableSheet
    from raspis_cli.text.i18n import speaking

    text = '[Players "Анна, Борис, Вера"]\n\n1. 1 Анна K♠ | 0/0 | 0/1 | 0/0\nunfinished\n'
    sheet = EditableSheet(read_text(text).games)
    with speaking("ru"):
        assert table_view(sheet, "ru")["rows"][0]["trump"] == "К♠"
    with speaking("en"):
        assert table_view(sheet, "en")["rows"][0]["trump"] == "K♠"
