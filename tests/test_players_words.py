"""The players' own words in the notation: every phrase the source pages use for a joker's
declaration, a suit or a penalty reason reads as what it means.

Each case quotes its page (the rules pages the project's rules were taken from: 000 and 003
Russian pages gathered from several sites, 001 a Russian page, 002 the Ukrainian translation of
000's second half, 004 raspisnoy.com's Ukrainian rules) and the line the phrase comes from.
The joker is read where a player writes it, in a trick line of a record, leading or following.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from raspis_cli.judge.replay import replay_game
from raspis_cli.model.cards import Suit, parse_card
from raspis_cli.model.joker import JokerDecl
from raspis_cli.model.joker_modes import JOKER_MODE_ROWS
from raspis_cli.model.lines import PENALTY_REASONS, penalty_rule
from raspis_cli.notation import read_text
from raspis_cli.notation.jsoncodec import games_to_json_text, read_json_text
from raspis_cli.notation.tokens import SUIT_CASES, TRUMP_WORD, read_suit
from tests.clikit import run_cli

PAGES = {
    "000": "000_6522e3e4e9dbca58.txt", "001": "001_3594f8973c0cbd2b.txt",
    "002": "002_b22c420420b3ec86.txt", "003": "003_edce445e976ff6c7.txt",
    "004": "004_6619e0843b051665.txt",
}
SUITS = {"S": Suit.S, "C": Suit.C, "D": Suit.D, "H": Suit.H, "trump": Suit.C}  # the deal's trump: ♣

# (page, line, the page's words, the declaration as a player writes it, leads?, (mode, suit or card))
JOKER_CASES = [
    ("000", 40, "потребовать «По старшему козырю»", "по старшему козырю", True, ("high", "trump")),
    ("000", 40, "«По страшим чирвам»", "по страшим чирвам", True, ("high", "H")),
    ("000", 140, "«По старшим козырям»", "по старшим козырям", True, ("high", "trump")),
    ("000", 141, "«По старшим пикам»", "по старшим пикам", True, ("high", "S")),
    ("000", 171, "«по старшим пикам (бубнам, трефам, червям)", "по старшим бубнам", True, ("high", "D")),
    ("000", 171, "«по старшим пикам (бубнам, трефам, червям)", "по старшим трефам", True, ("high", "C")),
    ("000", 171, "«по старшим пикам (бубнам, трефам, червям)", "по старшим червям", True, ("high", "H")),
    ("000", 143, "требование «наивысших козырей»", "наивысших козырей", True, ("high", "trump")),
    ("000", 171, "требование «старших козырей»", "старших козырей", True, ("high", "trump")),
    ("000", 171, "«старших карт»", "старших карт пик", True, ("high", "S")),
    ("000", 171, "«за самую младшую карту»", "за самую младшую карту", True, ("low", None)),
    ("000", 171, "«за самую младшую карту»", "за самую младшую карту", False, ("discard", None)),
    ("000", 41, "перебить взятку и забрать ее себе", "забрать", False, ("take", None)),
    ("000", 41, "перебить взятку и забрать ее себе", "перебить", False, ("take", None)),
    ("000", 143, "побить джокером козырь и завладеть взяткой", "побить", False, ("take", None)),
    ("000", 42, "сбросить джокер, если он для него лишний", "сбросить", False, ("discard", None)),
    ("000", 42, "выдав за слабую карту", "за слабую карту", False, ("discard", None)),
    ("000", 43, "ходить джокером, как обычной картой", "как A♦", True, ("as", "AD")),
    ("000", 171, "выдав джокера за любую карту любой масти", "за 10♣", False, ("as", "10C")),
    ("000", 171, "скинуть ненужную ему карту", "скинуть ненужную карту", False, ("discard", None)),
    ("001", 27, "сбросить старшие козыри", "старшие козыри", True, ("high", "trump")),
    ("001", 27, "старшие карты масти", "старшие карты масти бубны", True, ("high", "D")),
    ("001", 27, "младшие карты масти", "младшие карты масти трефы", True, ("lowest", "C")),
    ("001", 27, "может забрать взятку", "забрать взятку", False, ("take", None)),
    ("002", 6, "«по старшим козирям»", "по старшим козирям", True, ("high", "trump")),
    ("002", 6, "«по старшим піках", "по старшим піках", True, ("high", "S")),
    ("002", 6, "(Бубна, Трефа, черв'якам)", "по старшим бубна", True, ("high", "D")),
    ("002", 6, "(Бубна, Трефа, черв'якам)", "по старшим трефа", True, ("high", "C")),
    ("002", 6, "(Бубна, Трефа, черв'якам)", "по старшим черв'якам", True, ("high", "H")),
    ("002", 6, "«за наймолодшу карту", "за наймолодшу карту", True, ("low", None)),
    ("002", 6, "«за наймолодшу карту", "за наймолодшу карту", False, ("discard", None)),
    ("002", 6, "вимога «найвищим козирем їй", "найвищим козирем", True, ("high", "trump")),
    ("002", 6, "« старших карт »", "старших карт піки", True, ("high", "S")),
    ("002", 6, "побити козиря, забравши хабар", "побити", False, ("take", None)),
    ("002", 6, "скинути непотрібну йому карту", "скинути", False, ("discard", None)),
    ("002", 6, "видавши джокера за будь-яку карту", "за Д♥", False, ("as", "QH")),
    ("003", 128, "потребовать «По старшему козырю»", "по старшему козырю", True, ("high", "trump")),
    ("003", 128, "«По страшим чирвам»", "по страшим чирвам", True, ("high", "H")),
    ("003", 130, "выдав за слабую карту", "за слабую карту", False, ("discard", None)),
    ("003", 174, 'объявить его "старшим" или "младшим"', "старшим", True, ("take", None)),
    ("003", 174, 'объявить его "старшим" или "младшим"', "младшим", True, ("low", None)),
    ("003", 174, '"старший Джокер" бьет все карты', "старший", True, ("take", None)),
    ("003", 174, '"младший Джокер" является самой младшей картой', "младший", True, ("low", None)),
    ("004", 46, "«Забрати» — джокер б'є все і бере взятку", "забрати", False, ("take", None)),
    ("004", 47, "«Скинути» — ви називаєте масть", "скинути чирви", False, ("discard", "H")),
    ("004", 49, "«По старших козирях»", "по старших козирях", True, ("high", "trump")),
    ("004", 50, "«По старших [масті]»", "по старших трефах", True, ("high", "C")),
    ("004", 51, "«Скинути» — джокер іде як наймолодша карта названої масті", "скинути бубни", True,
     ("low", "D")),
    ("004", 52, "грає джокера зі словами «скидаю, бубна»", "скидаю, бубна", False, ("discard", "D")),
]

# (page, line, the page's words, the reason as a scorer writes it, the rule)
PENALTY_CASES = [
    ("docs/RULES.md", 59, "ренонс, ход не в масть | a revoke", "ренонс", "revoke"),
    ("003", 178, "За ход не в масть при ее наличии игрок штрафуется на 50 очков", "ход не в масть",
     "revoke"),
    ("003", 178, "За ход не в масть при ее наличии", "за ход не в масть при её наличии", "revoke"),
    ("000", 193, "штраф в 50 очков игроку, походившему картой неподходящей масти",
     "походил картой неподходящей масти", "revoke"),
    ("000", 199, "ходил картой ненадлежащей масти", "ходил картой ненадлежащей масти", "revoke"),
    ("002", 19, "штраф в 50 очок гравцеві, походи картою невідповідної масті",
     "походи картою невідповідної масті", "revoke"),
    ("002", 22, "ходив картою неналежної масті", "ходив картою неналежної масті", "revoke"),
    ("003", 178, "за ход Джокером на пустой стол игрок штрафуется на 10 очков",
     "ход джокером на пустой стол", "joker-lead"),
]


def _joker_decl(written: str, leads: bool) -> JokerDecl | None:
    """The declaration the reader takes from a trick line, the joker (7♠) leading or following."""
    trick = f"7♠({written}) 9♦ 6♦" if leads else f"9♦ 7♠({written}) 6♦"
    text = ('[Rules "classic"]\n[Players "Анна, Boris, Вера"]\n'
            f"1. 3 Вера ♣ | - | - | -\n  trick Анна: {trick}\nunfinished\n")
    result = read_text(text, "words.rsp")
    assert result.ok, [str(d) for d in result.diagnostics]
    (game,) = result.games
    (trick_plays,) = game.deals[0].tricks or []
    return trick_plays[0 if leads else 1].joker


@pytest.mark.parametrize("page,line,quote,written,leads,meaning", JOKER_CASES,
                         ids=[f"{c[0]}:{c[1]} {c[3]} {'lead' if c[4] else 'follow'}" for c in JOKER_CASES])
def test_a_declaration_of_the_pages_reads_as_it_means(page: str, line: int, quote: str, written: str,
                                                       leads: bool, meaning: tuple[str, str | None]) -> None:
    mode, what = meaning
    if mode == "as":
        want = JokerDecl("as", card=parse_card(what or ""))
    else:
        want = JokerDecl(mode, SUITS[what] if what else None)
    assert _joker_decl(written, leads) == want


@pytest.mark.parametrize("page,line,quote,reason,rule", PENALTY_CASES,
                         ids=[f"{c[0]}:{c[1]} {c[3]}" for c in PENALTY_CASES])
def test_a_penalty_reason_of_the_pages_names_its_rule(page: str, line: int, quote: str, reason: str,
                                                      rule: str) -> None:
    assert penalty_rule(reason) == rule
    assert penalty_rule(reason.upper() + ".") == rule


def test_free_penalty_words_name_no_rule() -> None:
    for reason in ("talking", "опоздал", "", "ренонс и опоздал", "недобор"):
        assert penalty_rule(reason) is None


def test_every_suit_word_names_one_suit() -> None:
    seen: dict[str, Suit | str] = {}
    for suit, languages in SUIT_CASES.items():
        for words in languages.values():
            for word in words:
                assert seen.setdefault(word, suit) == suit, word
                assert read_suit(word) == suit, word
                assert read_suit(word.upper()) == suit, word


# every suit word the pages use in a declaration, with its page and line
@pytest.mark.parametrize("page,line,word,suit", [
    ("000", 141, "пикам", Suit.S), ("000", 171, "бубнам", Suit.D), ("000", 171, "трефам", Suit.C),
    ("000", 171, "червям", Suit.H), ("000", 40, "чирвам", Suit.H), ("000", 40, "чирвовой", Suit.H),
    ("000", 40, "козырю", TRUMP_WORD), ("000", 140, "козырям", TRUMP_WORD),
    ("000", 143, "козырей", TRUMP_WORD), ("001", 27, "козыри", TRUMP_WORD),
    ("002", 6, "піках", Suit.S), ("002", 6, "Бубна", Suit.D), ("002", 6, "Трефа", Suit.C),
    ("002", 6, "черв'якам", Suit.H), ("002", 6, "козирям", TRUMP_WORD), ("002", 6, "козирем", TRUMP_WORD),
    ("004", 49, "козирях", TRUMP_WORD), ("004", 42, "бубну", Suit.D), ("004", 42, "бубни", Suit.D),
    ("004", 52, "бубна", Suit.D), ("004", 5, "пік", Suit.S), ("002", 21, "піки", Suit.S),
])
def test_a_suit_word_of_the_pages(page: str, line: int, word: str, suit: Suit | str) -> None:
    assert read_suit(word) == suit


def test_following_za_mladshuyu_is_a_discard_not_a_wrong_mode() -> None:
    # NOTATION.md: a player who follows "за младшую" discards; it was read as the lead mode low
    assert _joker_decl("за младшую бубну", leads=False) == JokerDecl("discard", Suit.D)
    assert _joker_decl("за младшую бубну", leads=True) == JokerDecl("low", Suit.D)


REVOKE = """[Rules "raspisnoy"]
[Option "revoke_penalty=-50"]
[Option "schedule=free"]
[Players "Анна, Борис, Вера"]
1. 2 Анна ♣ | 0 | 1 | 0
  hand Анна: 8♥ A♠
  hand Борис: 9♥ 10♠
  hand Вера: K♥ 6♦
  trick Борис: 9♥ 6♦ 8♥
  trick Борис: 10♠ K♥ A♠
{penalty}unfinished
"""


@pytest.mark.parametrize("penalty", ["", "  штраф Вера -50 ренонс\n", "  штраф Вера -50 revoke\n",
                                     "  penalty Вера -50 за ход не в масть\n"])
def test_a_written_revoke_is_the_replay_s_own_penalty_not_a_second_one(penalty: str) -> None:
    # Вера revokes (6♦ on a ♥ lead, holding K♥): a pass made, +5, and the revoke, -50
    (game,) = read_text(REVOKE.format(penalty=penalty), "revoke.rsp").games
    result = replay_game(game)
    assert result.deals[0].scores == {"Анна": 1, "Борис": 10, "Вера": -45}
    assert [p.kind for p in result.problems] == ["follow-suit"]


def test_a_written_revoke_that_disagrees_is_reported_and_not_added() -> None:
    (game,) = read_text(REVOKE.format(penalty="  штраф Вера -30 ренонс\n"), "revoke.rsp").games
    result = replay_game(game)
    assert result.deals[0].scores["Вера"] == -45
    assert sorted(p.kind for p in result.problems) == ["follow-suit", "penalty"]


def test_a_penalty_for_free_words_is_added_as_written() -> None:
    (game,) = read_text(REVOKE.format(penalty="  штраф Вера -10 опоздала\n"), "revoke.rsp").games
    assert replay_game(game).deals[0].scores["Вера"] == -55


NOTATION = Path(__file__).resolve().parent.parent / "docs" / "NOTATION.md"


def test_notation_md_lists_every_phrase_and_word() -> None:
    text = NOTATION.read_text(encoding="utf-8")
    listed = {word for line in text.splitlines() if not line.startswith("```")
              for word in re.findall(r"`([^`]+)`", line)}
    missing = [p for row in JOKER_MODE_ROWS for p in row.spellings if p not in listed]
    missing += [w for languages in SUIT_CASES.values() for words in languages.values() for w in words
                if w not in listed]
    missing += [w for words in PENALTY_REASONS.values() for w in words if w not in listed]
    assert not missing, missing


def test_a_json_record_s_penalty_in_the_players_words_is_the_revoke_too() -> None:
    (game,) = read_text(REVOKE.format(penalty="  штраф Вера -50 ренонс\n"), "revoke.rsp").games
    again = read_json_text(games_to_json_text([game])).games
    assert again[0].deals[0].penalties is not None
    assert again[0].deals[0].penalties[0].reason == "ренонс"  # kept as written
    assert replay_game(again[0]).deals[0].scores["Вера"] == -45


def test_score_and_validate_read_the_players_words(tmp_path: Path) -> None:
    record = tmp_path / "words.rsp"
    record.write_text(REVOKE.format(penalty="  штраф Вера -50 ренонс\n"), encoding="utf-8")
    scored = run_cli("score", str(record))
    assert scored.returncode == 1, scored.stderr  # the revoke itself is the sheet's one violation
    assert "0/0 -45 =-45" in scored.stdout and "-95" not in scored.stdout
    joker = tmp_path / "joker.rsp"
    joker.write_text('[Rules "raspisnoy"]\n[Option "schedule=free"]\n[Players "Анна, Boris, Вера"]\n'
                     "1. 1 Анна ♣ | 1 | 1 | 0\n  hand Анна: 8♦\n  hand Boris: Q♦\n  hand Вера: 7♠\n"
                     "  trick Boris: Q♦ 7п(за младшую бубну) 8♦\nunfinished\n", encoding="utf-8")
    checked = run_cli("validate", str(joker))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "joker-mode" not in checked.stdout


# page 000, line 193: «назначить штраф в 50 очков игроку, походившему картой неподходящей масти»
PAGE_000_REVOKE = "игроку, походившему картой неподходящей масти"


@pytest.mark.parametrize("reason", [PAGE_000_REVOKE, "походившему картой неподходящей масти"])
def test_page_000_s_revoke_in_its_own_words_is_the_revoke_charged_once(reason: str) -> None:
    # was read as free words: the revoke charged twice, -95 instead of -45
    assert penalty_rule(reason) == "revoke"
    (game,) = read_text(REVOKE.format(penalty=f"  штраф Вера -50 {reason}\n"), "revoke.rsp").games
    result = replay_game(game)
    assert result.deals[0].scores["Вера"] == -45
    assert [p.kind for p in result.problems] == ["follow-suit"]


# page 000, line 171: «3) «за самую младшую карту» – используется в случае, если игрок не намерен
# брать взятку. Забирает взятку игрок, выложивший самую старшую карту, или козыря.»
LOWEST_CARD = """[Rules "classic"]
[Option "schedule=free"]
[Players "Анна, Борис, Вера"]
1. 2 Анна ♣ | 1/0 -10 -10 | 0/0 5 5 | 2/2 20 20
  hand Анна: 8♥ A♠
  hand Борис: 7♠ 10♠
  hand Вера: K♥ 6♦
  trick Борис: 7♠({decl}) K♥ 8♥
  trick Вера: 6♦ A♠ 10♠
unfinished
"""


def test_page_000_s_third_lead_declaration_is_low_with_no_suit_under_classic(tmp_path: Path) -> None:
    # was refused under classic: "a joker declared 'low' must name a suit"
    (game,) = read_text(LOWEST_CARD.format(decl="за самую младшую карту"), "low.rsp").games
    (trick, _second) = game.deals[0].tricks or []
    assert trick[0].joker == JokerDecl("low")
    result = replay_game(game)
    assert result.problems == []  # K♥, the second card, sets the suit led and wins
    assert result.deals[0].scores == {"Анна": -10, "Борис": 5, "Вера": 20}
    record = tmp_path / "low.rsp"
    record.write_text(LOWEST_CARD.format(decl="за самую младшую карту"), encoding="utf-8")
    assert run_cli("validate", str(record)).returncode == 0
    # where a joker thrown away must name its suit (raspisnoy), it still must
    strict = LOWEST_CARD.format(decl="за самую младшую карту").replace('"classic"', '"raspisnoy"')
    (game,) = read_text(strict, "low.rsp").games
    assert "joker-mode" in [p.kind for p in replay_game(game).problems]


@pytest.mark.parametrize("written,want", [
    # page 000, line 40: «потребовать «По старшему козырю»»; the singular of a suit, as naturally
    ("по старшей бубне", JokerDecl("high", Suit.D)),
    ("по старшей пике", JokerDecl("high", Suit.S)),
    ("по младшей черве", JokerDecl("lowest", Suit.H)),
])
def test_a_demand_in_the_singular_reads_as_the_demand(written: str, want: JokerDecl) -> None:
    # «по старшей бубне» was refused (E304) while «по старшим бубнам» was read
    assert _joker_decl(written, leads=True) == want
