"""The JSON interchange: the contract's fields, lossless both ways."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from raspis_cli.model.cards import Suit, parse_card
from raspis_cli.model.record import NO_TRUMP, JokerDecl
from raspis_cli.notation import read_text, write_games
from raspis_cli.notation.jsoncodec import (
    game_to_json,
    games_to_json_text,
    games_to_jsonl_text,
    read_json_text,
    read_jsonl_text,
)
from tests.notation_helpers import games_key

CONTRACT_EXAMPLE: dict[str, Any] = {
    "format": "raspis/1",
    "tags": {"Event": "Friday club", "Site": "Odessa", "Date": "2026-11-20"},
    "rules": "raspisnoy",
    "players": ["Анна", "Boris", "Vera"],
    "deals": [{
        "number": 3, "kind": "normal", "dealer": "Vera", "cards": 3, "trump": "KC",
        "hands": {"Анна": ["AH", "9D", "6D"], "Boris": ["7S", "10D", "QS"],
                  "Vera": ["6H", "8C", "JD"]},
        "bids": {"Анна": 1, "Boris": 0, "Vera": 1},
        "tricks": [
            [{"player": "Анна", "card": "AH"},
             {"player": "Boris", "card": "7S", "joker": {"mode": "discard", "suit": "H"}},
             {"player": "Vera", "card": "6H"}],
            [{"player": "Анна", "card": "9D"}, {"player": "Boris", "card": "10D"},
             {"player": "Vera", "card": "JD"}],
            [{"player": "Vera", "card": "8C"}, {"player": "Анна", "card": "6D"},
             {"player": "Boris", "card": "QS"}]],
        "taken": {"Анна": 1, "Boris": 0, "Vera": 2},
        "scores": {"Анна": 10, "Boris": 5, "Vera": 2},
    }],
    "totals": {"Анна": 123, "Boris": 40, "Vera": -12},
    "unfinished": False,
}


def test_reads_the_contract_example() -> None:
    result = read_json_text(json.dumps(CONTRACT_EXAMPLE, ensure_ascii=False), "x.json")
    assert result.ok
    (game,) = result.games
    deal = game.deals[0]
    assert deal.trump == parse_card("KC")
    assert deal.tricks is not None
    assert deal.tricks[0][1].joker == JokerDecl("discard", Suit.H)
    assert game.pos is not None and game.pos.line == 1
    again = game_to_json(game)
    for key in ("tags", "rules", "players", "totals"):
        assert again[key] == CONTRACT_EXAMPLE[key]
    assert again["deals"][0] == CONTRACT_EXAMPLE["deals"][0]


def test_json_to_notation_and_back() -> None:
    games = read_json_text(json.dumps([CONTRACT_EXAMPLE, CONTRACT_EXAMPLE])).games
    text = write_games(games)
    back = read_text(text)
    assert back.ok
    assert [game_to_json(g) for g in back.games] == [game_to_json(g) for g in games]


def test_project_fields_and_extras_survive() -> None:
    text = ('[Option "joker_lead_modes=high low as"]\n[Players "A, B, C"]\n'
            '1. 1 A - | 0/0 5 5 | 1/1 10 10 | 0/0 5 5 ; a note\n')
    games = read_text(text).games
    data = game_to_json(games[0])
    assert data["rules"] == {"options": {"joker_lead_modes": ["high", "low", "as"]}}
    deal = data["deals"][0]
    assert deal["trump"] is None
    assert deal["totals"] == {"A": 5, "B": 10, "C": 5}
    assert deal["comments"] == [{"text": "; a note", "at": "on:deal"}]
    data["x-app"] = {"id": 7}
    data["deals"][0]["x-clock"] = 12
    back = read_json_text(json.dumps(data))
    assert back.games[0].extra == {"x-app": {"id": 7}}
    assert game_to_json(back.games[0]) == data
    assert back.games[0].deals[0].trump is NO_TRUMP


def test_jsonl_and_errors() -> None:
    games = read_text('[Players "A, B"]\n1. 1 A ♠\n').games
    text = games_to_jsonl_text(games * 2)
    assert len(read_jsonl_text(text).games) == 2
    bad = read_jsonl_text(text + '{"players": 3}\n{oops\n', "g.jsonl")
    assert [(d.code, d.line) for d in bad.diagnostics] == [("J002", 3), ("J001", 4)]
    broken = read_json_text('[{"deals": [{"number": 1}]}]', "g.json")
    assert [d.code for d in broken.diagnostics] == ["J002"]
    assert "a deal needs 'kind'" in broken.diagnostics[0].message.english()


def test_samples_round_trip_byte_for_byte() -> None:
    root = Path(__file__).resolve().parent.parent / "samples"
    for path in sorted(root.glob("*.rsp")):
        if "errors" in path.name:
            continue
        text = path.read_text(encoding="utf-8")
        games = read_text(text).games
        canonical = write_games(games)
        for dump, read in ((games_to_json_text, read_json_text),
                           (games_to_jsonl_text, read_jsonl_text)):
            back = read(dump(games))
            assert back.ok, path
            assert write_games(back.games) == canonical, path
            assert games_key(back.games) == games_key(read_text(canonical).games)
