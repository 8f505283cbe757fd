"""Rows are built by column name: every column of every row matches the record."""

from __future__ import annotations

import pytest

from raspis_cli.check import check_game
from raspis_cli.rules import Rules
from raspis_cli.simulate import simulate_games
from raspis_cli.store.rows import ROWS, TableBuilder
from raspis_cli.store.schema import GAME_TABLES, TABLES


def test_a_row_maker_takes_exactly_the_columns_by_name() -> None:
    for table in GAME_TABLES:
        names = [c.name for c in TABLES[table]]
        row = ROWS[table](**{n: i for i, n in enumerate(names)})
        assert row == tuple(range(len(names)))
    with pytest.raises(TypeError):
        ROWS["seats"](game_id="g", seat=0, player="A", total=1, written_total=1, place=1)  # no winner
    with pytest.raises(TypeError):
        ROWS["seats"](game_id="g", seat=0, player="A", total=1, written_total=1, place=1,
                      winner=True, wins=2)


def test_every_column_of_plays_tricks_and_results_matches_the_record() -> None:
    rules = Rules.preset("joker54")
    [game] = simulate_games(rules, 4, 1, 5)
    result = check_game(game, 0, None, True)
    builder = TableBuilder()
    builder.add_game("g1", result, "f.rsp")
    tables = {name: t.to_pylist() for name, t in builder.tables().items()}
    seat_of = {name: seat for seat, name in enumerate(game.players)}
    plays = {(r["deal_index"], r["trick"], r["position"]): r for r in tables["plays"]}
    assert len(plays) == len(tables["plays"]) > 100
    jokers = 0
    for index, deal in enumerate(game.deals):
        for number, trick in enumerate(deal.tricks or [], start=1):
            for position, play in enumerate(trick):
                row = plays[(index, number, position)]
                assert row["game_id"] == "g1"
                assert (row["seat"], row["player"]) == (seat_of[play.player], play.player)
                assert row["card"] == play.card.code
                assert row["is_joker"] == rules.deck_cards.is_joker(play.card)
                if row["is_joker"]:
                    jokers += 1
                    assert row["rank"] is None and play.joker is not None
                    assert row["joker_mode"] == play.joker.mode
                else:
                    assert row["rank"] == play.card.rank
                    assert row["suit"] == play.card.suit.name  # type: ignore[union-attr]
    assert jokers > 0
    for row in tables["deal_results"]:
        deal = game.deals[row["deal_index"]]
        assert row["number"] == deal.number
        assert row["player"] == game.players[row["seat"]]
        assert row["bid"] == (deal.bids or {}).get(row["player"])
        assert row["is_dealer"] == (deal.dealer == row["player"])
    for row in tables["tricks"]:
        trick = game.deals[row["deal_index"]].tricks[row["trick"] - 1]
        assert (row["leader"], row["leader_seat"]) == (trick[0].player, seat_of[trick[0].player])
        assert row["winner"] == game.players[row["winner_seat"]]
