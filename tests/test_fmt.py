"""``fmt``: canonical, idempotent, and parse(fmt(x)) == parse(x) for the samples."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from raspis_cli.model.cards import Card, Suit
from raspis_cli.model.record import NO_TRUMP, DealRecord, GameRecord
from raspis_cli.notation import read_file, read_text, write_games
from tests.notation_helpers import games_key

SAMPLES = sorted(p for p in (Path(__file__).resolve().parent.parent / "samples").glob("*.rsp")
                 if "errors" not in p.name)


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_samples_are_canonical(path: Path) -> None:
    result = read_file(path)
    assert result.ok, [str(d) for d in result.diagnostics]
    text = path.read_text(encoding="utf-8")
    out = write_games(result.games)
    assert games_key(read_text(out).games) == games_key(result.games)
    assert write_games(read_text(out).games) == out
    if "full" not in path.name:  # simulated full-play samples may be written by other tools
        assert out == text


def test_lenient_input_becomes_canonical() -> None:
    text = "[players \"A, B, C\"]\n1) 3 тёмная A ч |2/1 -10|0/0 5 | 1/2 2\n  взятка B : TH  Дж(забрать) Тч\n"
    out = write_games(read_text(text).games)
    assert out == (
        '[Players "A, B, C"]\n\n'
        "1. 3 dark A ♥ | 2/1 -10 | 0/0 5 | 1/2 2\n"
        "  trick B: 10♥ 7♠(take) A♥\n"
    )


_names = st.sampled_from(["Анна", "Boris", "Vera", "Дмитрий"])


@st.composite
def games(draw: st.DrawFn) -> GameRecord:
    players = ["Анна", "Boris", "Vera", "Дмитрий"]
    game = GameRecord(players=players, tags={"Event": draw(st.text(
        alphabet=st.characters(blacklist_categories=("Cs", "Cc")), max_size=10))})
    for n in range(1, draw(st.integers(1, 5)) + 1):
        cards = draw(st.integers(1, 9))
        dealer = players[(n - 1) % 4]
        trump = draw(st.sampled_from([None, NO_TRUMP, Suit.H, Card.from_index(20)]))
        deal = DealRecord(n, draw(st.sampled_from(["normal", "dark", "miser"])), dealer, cards,
                          trump)
        if deal.kind != "miser" and draw(st.booleans()):  # a miser deal has no bids
            order = players[players.index(dealer) + 1:] + players[: players.index(dealer) + 1]
            if draw(st.booleans()):
                order = order[::-1]  # written out of order: kept by a bids line
            deal.bids = {p: draw(st.integers(0, cards)) for p in order}
        for section in ("taken", "scores", "totals"):
            if draw(st.booleans()):
                setattr(deal, section, {p: draw(st.integers(-200, 200)) for p in players
                                        if draw(st.booleans())} or {players[0]: 0})
        if draw(st.booleans()):
            deal.comments = ["; note " + str(n)]
            deal.comment_anchors = ["on:deal"]
        game.deals.append(deal)
    if draw(st.booleans()):
        game.totals = {p: draw(st.integers(-500, 500)) for p in players}
    return game


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(games())
def test_written_records_read_back_the_same(game: GameRecord) -> None:
    text = write_games([game])
    result = read_text(text)
    assert result.ok, [d.render() for d in result.diagnostics]
    assert games_key(result.games) == games_key([game])
    assert write_games(result.games) == text
