"""A diagnostic is data: a template and typed parameters from the engine to the
page, made words only when shown, in the reader's language.

What a reader meets, quoted: a syntax error answers in the line's own
language, a player is named once, a stored game's page says each message again
from its data, and the JSON gives the data beside the English words.
"""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from raspis_cli.report.render import render
from raspis_cli.report.stored import stored_game_context
from raspis_cli.text.i18n import speaking
from tests.clikit import run_cli

ROOT = Path(__file__).resolve().parent.parent
RUSSIAN = {"LANG": "ru_RU.UTF-8"}


def _validate_ru(tmp_path: Path, text: str) -> str:
    path = tmp_path / "g.rsp"
    path.write_text(text, encoding="utf-8")
    done = run_cli("validate", str(path), env_extra=RUSSIAN)
    return done.stdout + done.stderr


HEAD = '[Players "Анна, Борис"]\n1. 1 Анна ♠ | 0/0 | 1/1\n'


def test_a_misspelt_russian_keyword_is_corrected_among_the_russian_ones(tmp_path: Path) -> None:
    out = _validate_ru(tmp_path, HEAD + "  взятак Анна: 7♠ 8♠\n  взятак Анна 1\n  trik Анна: 7♠\n")
    lines = [line for line in out.splitlines() if "E201" in line]
    assert len(lines) == 3, out
    # a name, a colon and cards follow: a trick line (взятка), not the tricks taken (взятки)
    assert "строка, начинающаяся с рука, взятка, а написано «взятак» (может быть, «взятка»?)" in lines[0]
    assert "(может быть, «взятки»?)" in lines[1] and "заказы, взятки, очки" in lines[1]
    # a line written in English is answered with the English keywords
    assert "начинающаяся с hand, trick, а написано «trik» (может быть, «trick»?)" in lines[2]


def test_a_misspelt_kind_lists_the_kinds_in_the_words_it_was_written_in(tmp_path: Path) -> None:
    out = _validate_ru(tmp_path, '[Players "Анна, Борис"]\n1. 1 тмная Анна ♠ | 0/0 | 1/1\n')
    assert ("E206: ожидался вид раздачи (обычная, бескозырка, тёмная, мизер, золотая, лобовая, проценты), "
            "а написано «тмная» (может быть, «тёмная»?)") in out


def test_a_joker_declaration_is_answered_in_the_words_it_was_written_in(tmp_path: Path) -> None:
    out = _validate_ru(tmp_path, HEAD + "  trick Анна: 7♠(прыгнуть) 8♠\n")
    assert "ожидалось объявление джокера вида (забрать), (скинуть черви), (по старшим пикам)" in out
    assert "(take)" not in out


def test_a_player_is_named_once(tmp_path: Path) -> None:
    out = _validate_ru(tmp_path, '[Players "Анна, Вера"]\n1. 1 Анна ♠ | 0/0 | 1/1\n'
                                 "  hand Анна: 8♦\n  hand Вера: 8♠ 9♦\n  trick Анна: 8♦ 8♠\n")
    assert "Вера: Вера:" not in out
    assert "раздача 1, взятка 1: Вера: 8♠ на заход в ♦" in out


def test_the_json_gives_each_message_as_data(tmp_path: Path) -> None:
    path = tmp_path / "g.rsp"
    path.write_text('[Players "Анна, Вера"]\n1. 1 Анна ♠ | 0/0 | 1/1\n'
                    "  hand Анна: Q♦\n  hand Вера: 8♠ 9♦\n  trick Анна: Q♦ 8♠\n", encoding="utf-8")
    done = run_cli("validate", str(path), "--format", "json", env_extra=RUSSIAN)
    found = json.loads(done.stdout)["files"][0]["games"][0]["violations"]
    revoke = next(v for v in found if v["kind"] == "follow-suit")
    assert revoke["message"] == "Вера played 8♠ on a ♦ lead while holding 9♦"
    assert revoke["data"] == {
        "template": "{player} played {card} on a {suit} lead while holding {cards}",
        "params": {"player": "Вера", "card": {"card": "8S"}, "suit": {"suit": "D"},
                   "cards": {"seq": [{"card": "9D"}], "separator": ", "}}}


@pytest.mark.slow
def test_a_stored_game_page_says_each_message_in_the_page_language(tmp_path: Path) -> None:
    db = tmp_path / "club.duckdb"
    done = run_cli("load", str(ROOT / "samples" / "errors-friday.rsp"), "--db", str(db), env_extra=RUSSIAN)
    assert done.returncode == 0, done.stderr
    con = duckdb.connect(str(db), read_only=True)
    try:
        rows = con.execute("SELECT kind, code, message, message_data FROM violations "
                           "ORDER BY ordinal").fetchall()
        game_id = con.execute("SELECT game_id FROM games").fetchone()
        assert game_id is not None
        with speaking("ru"):
            russian = stored_game_context(con, game_id[0], "ru")
            assert russian is not None
            page = render("game.html.j2", "ru", **russian)  # serve's page of the stored game
        with speaking("en"):
            english = stored_game_context(con, game_id[0], "en")
    finally:
        con.close()
    assert all(data for _, _, _, data in rows), "every row carries its message as data"
    assert {code for _, code, _, _ in rows if code} == {"E206", "E211", "E303"}
    assert russian is not None and english is not None
    ru = {(p["kind"], p["message"]) for p in russian["games"][0]["problems"]}
    en = {(p["kind"], p["message"]) for p in english["games"][0]["problems"]}
    assert ("игроки", "«Гена» — не игрок этой партии") in ru
    assert ("players", "'Гена' is not a player of this game") in en
    assert "<b>игроки</b>" in page and "«Гена» — не игрок этой партии" in page
    # the English text stored is the English page's, a reading problem's with its code before it
    stored = {message.split(": ", 1)[1] if code else message for _, code, message, _ in rows}
    assert stored == {m for _, m in en}
