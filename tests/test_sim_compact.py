"""The simulator's and the writer's compact record of play.

The simulator keeps a trick without a joker as one compact trick (no
:class:`~raspis_cli.model.record.PlayRecord` per card) and the notation writer
writes it from that form. What they produce must be exactly what the plays
as objects give: the same text, the same JSON, the same replay.
"""

from __future__ import annotations

import copy
import json

import pytest

from raspis_cli.judge.replay import replay_game
from raspis_cli.model.record import GameRecord
from raspis_cli.notation import read_text
from raspis_cli.notation.jsoncodec import game_to_json
from raspis_cli.notation.writer import NotationWriteError, write_compact_game, write_game
from raspis_cli.rules import PRESETS, Rules
from raspis_cli.simulate.game import DETAILS, play_game, simulate_game


def _materialised(game: GameRecord) -> GameRecord:
    """A deep copy of ``game`` whose tricks are all objects."""
    made = copy.deepcopy(game)
    for deal in made.deals:
        assert deal.tricks is not None
        assert deal.compact_play() is None
    return made


@pytest.mark.parametrize("preset", PRESETS)
def test_simulated_tricks_are_compact_and_write_as_objects_do(preset: str) -> None:
    rules = Rules.preset(preset)
    game = simulate_game(rules, max(rules.players[0], 3), 41)
    objects = _materialised(game)
    text = write_game(game)
    # writing, the JSON codec and the replay leave the compact form as it is
    assert json.dumps(game_to_json(game)) == json.dumps(game_to_json(objects))
    assert replay_game(game).problems == [] == replay_game(objects).problems
    plays = [deal.compact_play() for deal in game.deals]
    assert all(p is not None for p in plays)
    compact = [e for p in plays if p is not None for e in p if isinstance(e, tuple)]
    assert compact and all(e[2] == 0 and e[3] == "" for e in compact)
    assert text == write_game(objects)
    # a compact trick of the simulator has no positions
    deal = next(d for d in game.deals if d.cards >= 2)
    assert deal.where("trick:1") is None or deal.where("trick:1") == deal.pos
    tricks = deal.tricks
    assert tricks is not None and all(p.pos is None for t in tricks for p in t)


def test_a_compact_trick_whose_players_are_not_a_rotation_is_written_with_names() -> None:
    """The reader's compact trick names its players from the leader round the
    table; renamed or reseated players after reading make the writer name
    each player that does not follow the one before, as it does for plays."""
    game = simulate_game(Rules.preset("raspisnoy"), 4, 5)
    read = read_text(write_game(game)).games[0]
    read.players = [read.players[1], read.players[0], *read.players[2:]]
    deal = next(d for d in read.deals if d.cards >= 3)
    assert any(isinstance(e, tuple) for e in deal.compact_play() or ())
    text = write_game(read)
    assert text == write_game(_materialised(read))
    assert "trick" in text and ": " in text


_OPTIONS: list[dict[str, object]] = [
    {},
    {"circular_trumps": True, "void": "must-trump"},
    {"specials": ["forehead", "dark", "miser", "golden", "no-trump"], "third_pass": True},
    {"joker_lead_modes": ["high", "lowest", "low", "take", "as"],
     "joker_follow_modes": ["take", "discard", "as"], "joker_lead_penalty": -10},
    {"deck": 54, "two_jokers": "opposite", "full_deal_trump": "random-card"},
]


@pytest.mark.parametrize("detail", DETAILS)
def test_the_writer_writes_deals_as_integers_as_it_writes_their_records(detail: str) -> None:
    """``write_compact_game`` (the simulator's notation, from the integers)
    gives what ``write_game`` gives for the records ``CompactDeal.to_record``
    makes, on every preset and on option sets with jokers, penalties and
    deals without bids; the records are those ``simulate_game`` returns."""
    cases = [(Rules.preset(p), max(Rules.preset(p).players[0], 3)) for p in PRESETS]
    cases += [(Rules.preset("raspisnoy").with_options(o), 4) for o in _OPTIONS]
    written = 0
    for rules, players in cases:
        for seed in (1, 2):
            head, deals = play_game(rules, players, seed, None, detail, None, None, None, None)
            text = write_compact_game(head, deals)
            records = copy.copy(head)
            records.deals = [deal.to_record(head.players) for deal in deals]
            assert text == write_game(records)
            assert text == write_game(simulate_game(rules, players, seed, detail=detail))
            written += len(deals)
    assert written > 300


def test_the_compact_writer_hands_what_only_records_decide_to_the_records_writer() -> None:
    """A negative bid or taken (not written in a sheet cell) or a seat
    without a bid makes ``write_compact_game`` write the records."""
    head, deals = play_game(Rules.preset("raspisnoy"), 4, 3, None, "full", None, None, None, None)
    for change in ({"taken": [-1, 0, 0, 0]}, {"bids": [None, 1, 1, 1]}):
        odd = [copy.copy(d) for d in deals]
        for name, value in change.items():
            setattr(odd[2], name, value)
        records = copy.copy(head)
        records.deals = [deal.to_record(head.players) for deal in odd]
        assert write_compact_game(head, odd) == write_game(records)


def test_the_compact_writer_writes_odd_tricks_as_the_records_writer() -> None:
    """A trick of fewer cards than seats, or of more, is written as its
    record is (a plain one names each seat once); an empty one is refused
    by both writers alike."""
    head, deals = play_game(Rules.preset("raspisnoy"), 4, 3, None, "full", None, None, None, None)
    deal = next(d for d in deals if d.tricks and len(d.tricks) >= 2)
    assert deal.tricks is not None
    (leader, cards, decls), *rest = deal.tricks
    for changed in ((leader, cards[:2], decls), (leader, [*cards, *rest[0][1]], None)):
        deal.tricks = [changed, *rest]
        records = copy.copy(head)
        records.deals = [d.to_record(head.players) for d in deals]
        assert write_compact_game(head, deals) == write_game(records)
    deal.tricks = [(leader, [], None), *rest]
    records = copy.copy(head)
    records.deals = [d.to_record(head.players) for d in deals]
    with pytest.raises(NotationWriteError) as compact:
        write_compact_game(head, deals)
    with pytest.raises(NotationWriteError) as written:
        write_game(records)
    assert str(compact.value) == str(written.value)
