"""Rows are built by column name: every column of every row matches the record."""

from __future__ import annotations

import dataclasses
from typing import Any

import duckdb
import pytest

from raspis_cli.judge.check import check_game
from raspis_cli.model.cards import Suit, parse_card
from raspis_cli.model.joker import JokerDecl
from raspis_cli.rules import Rules
from raspis_cli.simulate.run import simulate_games
from raspis_cli.store.db import insert_arrow
from raspis_cli.store.rows import ROWS, TableBuilder
from raspis_cli.store.schema import GAME_TABLES, TABLES, create_schema_sql, stored_columns, stored_name


def _as_read(builder: TableBuilder) -> dict[str, list[dict[str, Any]]]:
    """The builder's rows stored in a new database and read back through the
    tables and views SQL users see (``plays`` is a view over ``plays_int``)."""
    con = duckdb.connect()
    for statement in create_schema_sql():
        con.execute(statement)
    for name, table in builder.tables().items():
        insert_arrow(con, stored_name(name), table, [c.name for c in stored_columns(name)])
    out = {}
    for name in GAME_TABLES:
        cursor = con.execute(f"SELECT * FROM {name}")
        columns = [d[0] for d in cursor.description]
        assert columns == [c.name for c in TABLES[name]], name
        out[name] = [dict(zip(columns, row, strict=True)) for row in cursor.fetchall()]
    con.close()
    return out


def test_a_row_maker_takes_exactly_the_columns_by_name() -> None:
    for table in GAME_TABLES:
        names = [c.name for c in stored_columns(table)]
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
    tables = _as_read(builder)
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


def test_plays_read_as_written_for_a_36_card_joker_a_stranger_and_a_stray_declaration() -> None:
    """The integer plays, read through the view: the 7S joker of a 36-card
    deck (no rank; its suit the declared one), a card played under a name
    that is no player (seat NULL, the name kept) and a declaration on a
    natural card (its own suit and rank, the declaration kept)."""
    rules = Rules.preset("raspisnoy")
    [game] = simulate_games(rules, 3, 1, 11)
    tricks = [deal.tricks or [] for deal in game.deals]
    plays = [(d, t, p) for d, deal in enumerate(tricks)
             for t, trick in enumerate(deal) for p in range(len(trick))]
    d, t, p = plays[5]
    trick = tricks[d][t]
    trick[p] = dataclasses.replace(trick[p], player="Stranger")
    d2, t2, p2 = next(x for x in plays[10:] if not rules.deck_cards.is_joker(tricks[x[0]][x[1]][x[2]].card))
    other = tricks[d2][t2]
    other[p2] = dataclasses.replace(other[p2], joker=JokerDecl("as", None, parse_card("AH")))
    builder = TableBuilder()
    builder.add_game("g2", check_game(game, 0, None, True), "f.rsp")
    rows = {(r["deal_index"], r["trick"], r["position"]): r for r in _as_read(builder)["plays"]}
    stranger = rows[(d, t + 1, p)]
    assert (stranger["seat"], stranger["player"]) == (None, "Stranger")
    stray = rows[(d2, t2 + 1, p2)]
    card = other[p2].card
    assert (stray["card"], stray["is_joker"], stray["rank"]) == (card.code, False, card.rank)
    assert (stray["joker_mode"], stray["joker_card"], stray["suit"]) == ("as", "AH", card.suit.name)  # type: ignore[union-attr]
    jokers = [r for r in rows.values() if r["is_joker"]]
    assert jokers and all(r["card"] == "7S" and r["rank"] is None for r in jokers)
    for r in jokers:
        decl = tricks[r["deal_index"]][r["trick"] - 1][r["position"]].joker
        assert decl is not None and r["joker_mode"] == decl.mode
        # the declared suit, else the named card's (spades, Suit 0, included: version 2
        # stored NULL for a joker declared as spades)
        named = decl.suit if decl.suit is not None else (decl.card.suit if decl.card is not None else None)
        assert r["suit"] == (named.name if named is not None else None)
        assert r["joker_suit"] == (decl.suit.name if decl.suit is not None else None)
    assert any(r["joker_suit"] == Suit.S.name for r in jokers)
