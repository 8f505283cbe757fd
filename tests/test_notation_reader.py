"""Reading notation into records: values, positions, resynchronisation."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from raspis_cli.model.cards import Suit, parse_card
from raspis_cli.model.record import NO_TRUMP, JokerDecl, Pos
from raspis_cli.notation import iter_games, read_bytes, read_text

GAME = """[Event "Club"]
[Rules "raspisnoy"]
[Players "Анна, Boris, Vera"]

1. 1 Анна 9♥ | 0/0 5 5 | 1/1 10 10 | 0/0 5 5
2. 2 Boris JK | 1/0 -10 -5 | 0/1 1 11 | 1/1 10 15
3. 3 Vera K♣ | 1/1 | 0/0 | 1/2
  hand Анна: A♥ 9♦ 6♦
  trick Анна: A♥ 7♠(по старшим козырям) 6♥
  trick Анна: 9♦ Vera J♦ Boris 10♦
  penalty Boris -50 revoke
final | 100 | 20 | 30
"""


def test_values_and_positions() -> None:
    result = read_text(GAME, "club.rsp")
    assert result.ok
    (game,) = result.games
    assert game.players == ["Анна", "Boris", "Vera"]
    assert game.rules_preset == "raspisnoy"
    assert game.positions["rules"] == Pos(2, 8)
    assert game.positions["player:Boris"] == Pos(3, 17)
    assert game.totals == {"Анна": 100, "Boris": 20, "Vera": 30}
    assert game.span == (1, 12)
    d1, d2, d3 = game.deals
    assert d1.bids == {"Boris": 1, "Vera": 0, "Анна": 0}  # bidding order, left of the dealer
    assert list(d1.taken or {}) == ["Анна", "Boris", "Vera"]
    assert d1.positions["bid:Boris"] == Pos(5, 26)
    assert d1.positions["dealer"] == Pos(5, 6)
    assert d2.trump == parse_card("7S")  # the joker word, resolved by the rules
    assert d3.scores is None and d3.taken == {"Анна": 1, "Boris": 0, "Vera": 2}
    assert d3.tricks is not None
    first, second = d3.tricks
    assert first[1].joker == JokerDecl("high", Suit.C)  # "козырям": the trump suit
    assert [p.player for p in second] == ["Анна", "Vera", "Boris"]
    assert second[1].pos == Pos(10, 18)
    assert d3.penalties is not None and d3.penalties[0].points == -50


def test_trump_none_and_not_written() -> None:
    game = read_text('[Players "A, B, C"]\n1. 1 A -\n2. 1 B\n').games[0]
    assert game.deals[0].trump is NO_TRUMP
    assert game.deals[1].trump is None


def test_bom_crlf_and_cr() -> None:
    data = '\ufeff[Players "A, B, C"]\r\n1. 1 A ♥ | 0/0 | 1/1 | 0/0\r\n'.encode()
    result = read_bytes(data, "x.rsp")
    assert result.ok and result.games[0].deals[0].trump is Suit.H


def test_several_games_and_streaming() -> None:
    text = GAME + "\n" + GAME
    lines = iter(text.split("\n"))
    games = iter_games(lines)
    first = next(games)
    assert len(first.deals) == 3
    assert [len(g.deals) for g in games] == [3]


def test_resynchronises_and_reports_every_error() -> None:
    text = ('[Players "A, B, C"]\n1. x A\n  hand A: 1O♥\n2. 2 B ♠\n  hand B: 1O♥\n'
            '3. 3 C ♠ | 1/1\n[Players "X, Y"]\n1. 1 X ♠\n')
    result = read_text(text, "bad.rsp")
    assert [(d.code, d.line) for d in result.diagnostics] == [
        ("E202", 2), ("E303", 5), ("E212", 6)]
    assert [len(g.deals) for g in result.games] == [1, 1]


def test_rule_matters_are_not_syntax_errors() -> None:
    text = ('[Rules "nonsense"]\n[Option "void=sideways"]\n[Players "A, B"]\n'
            '1. 3 A 5♥ | 12/0 | 0/3\n  bids Gena 1\n')
    result = read_text(text)
    assert [d.code for d in result.diagnostics] == ["E307"]
    game = result.games[0]
    assert game.rules_preset == "nonsense" and game.rules_options == {"void": "sideways"}
    assert game.deals[0].trump == parse_card("5H")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list('[]"{};|/:()-. \n\t1230AKQJ♥♠xАнна')), max_size=200))
def test_never_raises(text: str) -> None:
    result = read_text(text)
    for d in result.diagnostics:
        assert d.line is not None and d.column is not None
        assert d.line >= 1 and d.column >= 1 and d.code.startswith("E")


def test_a_comment_just_above_a_deal_line_belongs_to_that_deal() -> None:
    path = "grammar/corpus/valid/comment-before-deal.rsp"
    with open(path, encoding="utf-8") as f:
        result = read_text(f.read())
    assert result.diagnostics == []
    deals = result.games[0].deals
    owned = {d.number: list(zip(d.comments, d.comment_anchors, strict=True)) for d in deals}
    assert owned[1] == [("; before deal 1", "start")]
    assert owned[2] == [("; спор о сдаче 2: Борис говорит, что заказывал 1", "start"),
                        ("; after deal 2's trick (a blank line follows: still deal 2's)", "after:trick:1")]
    assert owned[3] == [("; deal 3, after a blank line", "start"), ("{ and a block comment }", "start")]
    game = result.games[0]
    assert [text[:12] for text in game.comments] == ["; a comment ", "; (raspis fm"]
