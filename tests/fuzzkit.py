"""The fuzzing harness shared by ``tests/test_fuzz.py`` (bounded, in CI) and
``scripts/fuzz_campaign.py`` (long campaigns): seed inputs, mutations, and
the oracle :func:`check_bytes` that every input must pass.

The oracle: reading never raises, whatever the bytes and whatever the
format they are taken for; every game read replays without raising; a
notation text that reads without diagnostics formats to a text that reads
back without diagnostics and formats the same (``fmt`` is idempotent); a
game list converts to JSON and back to the same canonical notation.
"""

from __future__ import annotations

import json
import random
import re
from functools import cache
from pathlib import Path
from typing import Any

from raspis_cli.files.sources import load_data
from raspis_cli.judge.replay import replay_game
from raspis_cli.model.record import GameRecord
from raspis_cli.notation import NotationWriteError, read_text, write_games
from raspis_cli.notation.jsoncodec import games_to_json_text, read_json_text, read_jsonl_text
from raspis_cli.simulate.game import simulate_game

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "samples").glob("*.rsp")) + sorted((ROOT / "grammar" / "corpus").glob("*/*.rsp"))


@cache
def seeds() -> list[bytes]:
    """Samples, the conformance corpus, simulated games (notation and JSON)."""
    out = [p.read_bytes() for p in SAMPLES]
    from raspis_cli.rules import Rules

    for seed, (preset, players, detail) in enumerate((("raspisnoy", 3, "full"), ("joker54", 4, "full"),
                                                      ("georgian", 4, "scores"), ("classic", 5, "sheet"))):
        game = simulate_game(Rules.preset(preset), players, seed, detail=detail)
        out.append(write_games([game]).encode("utf-8"))
        out.append(games_to_json_text([game]).encode("utf-8"))
    return out


def canonical(text: str) -> str | None:
    """The fmt output of a text that reads cleanly, else ``None``."""
    read = read_text(text)
    if not read.ok:
        return None
    try:
        return write_games(read.games)
    except NotationWriteError:
        return None


def check_bytes(data: bytes) -> None:
    """Everything that must hold for any input; raises on a bug."""
    for name in ("f.rsp", "f.json", "f.jsonl", "-"):
        source = load_data(data, name)
        for index, game in enumerate(source.games):
            replay_game(game, index, None, source.ordered_bids, source.syntax_lines)
        if source.error is None and not source.diagnostics and source.games:
            check_round_trip(source.games)
    text = data.decode("utf-8", "replace")
    read_text(text)
    read_json_text(text)
    read_jsonl_text(text)


def check_round_trip(games: list[GameRecord]) -> None:
    """fmt is idempotent and JSON carries the games without loss."""
    if any(not (g.tags or g.players or g.deals or g.totals is not None or g.unfinished or g.comments)
           for g in games):
        return  # an empty game ({} in JSON) has no notation form
    try:
        first = write_games(games)
    except NotationWriteError:
        return
    again = read_text(first)
    assert again.ok, (first, [str(d) for d in again.diagnostics])
    assert write_games(again.games) == first, first
    back = read_json_text(games_to_json_text(again.games))
    assert back.ok, [str(d) for d in back.diagnostics]
    assert write_games(back.games) == first


# --- mutations (the campaign's; the tests draw theirs with hypothesis) ------------------

_TOKEN = re.compile(rb"\S+|\s+")
_INTERESTING = [b"", b"\x00", b"\xff", b"\xfe\xff", b"\xef\xbb\xbf", b"\r", b"\n", b"\r\n", b"{", b"}",
                b";", b'"', b"\\", b"[", b"]", b"|", b"/", b"-", b"0", b"99999999999999999999", b"-1",
                b"\xd0", b"\xd0\xb9", b"\xe2\x99\xa5", b"RJ", b"BJ", b"joker", b"final", b"replayed",
                b"unfinished", b"trick", b"hand", b"[Players \"A, B, C\"]", b"1. 1 A -",
                b"\t", b" " * 70000, b"x" * 70000, b"{" * 1000, b"[" * 5000, b'"' * 100, b"9" * 5000]


def mutate(data: bytes, rnd: random.Random) -> bytes:
    """One random change: bytes flipped, inserted, deleted or duplicated, a
    cut, tokens of a line shuffled, or an interesting token spliced in."""
    choice = rnd.randrange(8)
    n = len(data)
    if n == 0 or choice == 0:
        return data + rnd.choice(_INTERESTING)
    i = rnd.randrange(n)
    if choice == 1:
        return data[:i] + bytes([rnd.randrange(256)]) + data[i + 1:]
    if choice == 2:
        return data[:i] + rnd.choice(_INTERESTING) + data[i:]
    if choice == 3:
        j = min(n, i + rnd.randrange(1, 64))
        return data[:i] + data[j:]
    if choice == 4:
        return data[:i]
    if choice == 5:
        j = min(n, i + rnd.randrange(1, 256))
        return data[:j] + data[i:j] + data[j:]
    if choice == 6:
        lines = data.split(b"\n")
        k = rnd.randrange(len(lines))
        tokens = _TOKEN.findall(lines[k])
        rnd.shuffle(tokens)
        lines[k] = b"".join(tokens)
        return b"\n".join(lines)
    lines = data.split(b"\n")
    rnd.shuffle(lines)
    return b"\n".join(lines[: rnd.randrange(1, len(lines) + 1)])


def json_mutation(rnd: random.Random) -> bytes:
    """A simulated game's JSON with one value replaced by something odd."""
    games = [s for s in seeds() if s.lstrip().startswith(b"{")]
    obj = json.loads(rnd.choice(games))
    odd: list[object] = [None, True, 0, -1, 2**70, 1.5, "", "x" * 10000, [], {}, [[[]]], {"a": 1},
                         "10H", "RJ", "H", "Z", "high", "take", '"; DROP TABLE games; --', "\\\n\x00"]
    node: object = obj
    for _ in range(rnd.randrange(1, 6)):
        if isinstance(node, dict) and node:
            key = rnd.choice(list(node))
            if rnd.random() < 0.4 or not isinstance(node[key], (dict, list)):
                node[key] = rnd.choice(odd)
                break
            node = node[key]
        elif isinstance(node, list) and node:
            k = rnd.randrange(len(node))
            if rnd.random() < 0.4 or not isinstance(node[k], (dict, list)):
                node[k] = rnd.choice(odd)
                break
            node = node[k]
        else:
            break
    return json.dumps(obj, ensure_ascii=rnd.random() < 0.5).encode("utf-8")


# --- semantic mutations and the JSON / notation differential (issue 11) ------------------------
#
# A byte mutation mostly makes text that does not read. These change what a
# record *says* while keeping it a record: cards swapped between hands, bids
# reordered, a player listed twice, control characters and separators in
# names, huge numbers, empty trick lists, joker declarations and option
# names the notation cannot hold. The oracle is the differential: a game and
# its notation conversion must be the same game (same id, same verdict, same
# violations), and the conversion must read back byte for byte.

WEIRD_PIECES = ["\x1f", "\x1e", "\x1b", "\x07", "\x1b]0;t\x07", "\u202e", "\u2066", "\x00", "\x7f", "\x85",
                "\u2028", ",", '"', "\\", " ", ":", "|", "/", ";", "{", "}", "[", "]", "♥", "10H", "AH",
                "joker", "-", "\t", "=", "Анна", "X"]
HUGE = [1_000, 10**9, 2**31, 10**18, -(10**12), 10**2200]


@cache
def semantic_seeds() -> list[str]:
    """Games as JSON texts to mutate: small simulated games (sheet, scores and
    full play) and every sample game that reads cleanly."""
    from raspis_cli.rules import Rules

    games: list[GameRecord] = []
    combos = (("raspisnoy", 3, "full"), ("joker54", 4, "full"), ("georgian", 4, "scores"),
              ("classic", 5, "sheet"), ("raspisnoy", 4, "scores"), ("joker54", 3, "sheet"))
    for seed, (preset, players, detail) in enumerate(combos):
        games.append(simulate_game(Rules.preset(preset), players, 100 + seed, detail=detail))
    for path in SAMPLES:
        read = read_text(path.read_text(encoding="utf-8", errors="replace"))
        if read.ok:
            games.extend(read.games)
    for game in games:  # a few deals keep every shape and make a check cheap
        if len(game.deals) > 4:
            game.deals = game.deals[:4]
            game.totals = None
            game.unfinished = True
    return [games_to_json_text([g]) for g in games]


def _deals(obj: dict[str, Any]) -> list[dict[str, Any]]:
    deals = obj.get("deals")
    return [d for d in deals if isinstance(d, dict)] if isinstance(deals, list) else []


def _rename(obj: dict[str, Any], old: str, new: str) -> None:
    """Rename a player everywhere a game names it."""
    def keys(value: object) -> object:
        return {new if k == old else k: v for k, v in value.items()} if isinstance(value, dict) else value

    obj["players"] = [new if p == old else p for p in obj.get("players", [])]
    obj["totals"] = keys(obj.get("totals")) if "totals" in obj else obj.get("totals")
    if obj.get("totals") is None:
        obj.pop("totals", None)
    for deal in _deals(obj):
        if deal.get("dealer") == old:
            deal["dealer"] = new
        for key in ("hands", "bids", "taken", "scores", "totals"):
            if key in deal:
                deal[key] = keys(deal[key])
        if isinstance(deal.get("bid_order"), list):
            deal["bid_order"] = [new if n == old else n for n in deal["bid_order"]]
        for trick in deal.get("tricks") or []:
            for play in trick:
                if isinstance(play, dict) and play.get("player") == old:
                    play["player"] = new
        for pen in deal.get("penalties") or []:
            if isinstance(pen, dict) and pen.get("player") == old:
                pen["player"] = new


def semantic_mutation(rnd: random.Random) -> str:
    """A seed game's JSON with one to three semantic changes (see above)."""
    obj = json.loads(rnd.choice(semantic_seeds()))
    for _ in range(rnd.randrange(1, 4)):
        _SEMANTIC[rnd.randrange(len(_SEMANTIC))](obj, rnd)
    return json.dumps(obj, ensure_ascii=False)


def _m_swap_cards(obj: dict[str, Any], rnd: random.Random) -> None:
    deals = [d for d in _deals(obj) if isinstance(d.get("hands"), dict) and len(d["hands"]) >= 2]
    if deals:
        hands = rnd.choice(deals)["hands"]
        a, b = rnd.sample(list(hands), 2)
        if hands[a] and hands[b]:
            i, j = rnd.randrange(len(hands[a])), rnd.randrange(len(hands[b]))
            hands[a][i], hands[b][j] = hands[b][j], hands[a][i]
        return
    plays = [t for d in _deals(obj) for t in (d.get("tricks") or []) for t in t]
    if len(plays) >= 2:
        p, q = rnd.sample(plays, 2)
        p["card"], q["card"] = q["card"], p["card"]


def _m_reorder_bids(obj: dict[str, Any], rnd: random.Random) -> None:
    deals = [d for d in _deals(obj) if isinstance(d.get("bids"), dict) and d["bids"]]
    if deals:
        deal = rnd.choice(deals)
        items = list(deal["bids"].items())
        rnd.shuffle(items)
        deal["bids"] = dict(items)
        if rnd.random() < 0.6:
            deal["bid_order"] = [n for n, _ in items]


def _m_duplicate_player(obj: dict[str, Any], rnd: random.Random) -> None:
    players = obj.get("players")
    if isinstance(players, list) and len(players) >= 2:
        i, j = rnd.sample(range(len(players)), 2)
        players[i] = players[j]


def _m_weird_name(obj: dict[str, Any], rnd: random.Random) -> None:
    players = obj.get("players")
    if isinstance(players, list) and players:
        old = rnd.choice(players)
        new = "".join(rnd.choice(WEIRD_PIECES) for _ in range(rnd.randrange(1, 5)))
        if rnd.random() < 0.5:
            new = old + new
        _rename(obj, old, new)


def _m_huge_number(obj: dict[str, Any], rnd: random.Random) -> None:
    value = rnd.choice(HUGE)
    deals = _deals(obj)
    where = rnd.randrange(5)
    if where == 0 or not deals:
        rules = obj.get("rules")
        preset = rules if isinstance(rules, str) else "raspisnoy"
        options = rules.get("options", {}) if isinstance(rules, dict) else {}
        options[rnd.choice(["under_per_missing", "exact_per_trick", "pass_made", "revoke_penalty"])] = value
        obj["rules"] = {"preset": preset if isinstance(preset, str) else "raspisnoy", "options": options}
        return
    deal = rnd.choice(deals)
    if where == 1:
        deal[rnd.choice(["number", "cards"])] = abs(value)
        return
    section = rnd.choice(["bids", "taken", "scores", "totals"])
    if isinstance(deal.get(section), dict) and deal[section]:
        deal[section][rnd.choice(list(deal[section]))] = value
    elif isinstance(obj.get("totals"), dict) and obj["totals"]:
        obj["totals"][rnd.choice(list(obj["totals"]))] = value


def _m_empty_tricks(obj: dict[str, Any], rnd: random.Random) -> None:
    deals = _deals(obj)
    if deals:
        deal = rnd.choice(deals)
        deal["tricks"] = []
        if rnd.random() < 0.5:
            deal["cards"] = 0
            for key in ("hands", "bids", "taken", "scores"):
                deal.pop(key, None)


def _m_joker_declaration(obj: dict[str, Any], rnd: random.Random) -> None:
    plays = [p for d in _deals(obj) for t in (d.get("tricks") or []) for p in t]
    if plays:
        play = rnd.choice(plays)
        decl: dict[str, str] = {"mode": rnd.choice(["high", "lowest", "low", "take", "discard", "as", "xx"])}
        if rnd.random() < 0.6:
            decl["suit"] = rnd.choice("SCDH")
        if rnd.random() < 0.6:
            decl["card"] = rnd.choice(["2C", "JS", "AH", "10D"])
        play["joker"] = decl


def _m_odd_option(obj: dict[str, Any], rnd: random.Random) -> None:
    rules = obj.get("rules")
    options = dict(rules.get("options", {})) if isinstance(rules, dict) else {}
    name = rnd.choice(["deck ", " deck", "a=b", "deck", "void", "x y", "", "void="])
    options[name] = rnd.choice([54, "54 ", " free", "free", "=", 1, True])
    preset = rules.get("preset") if isinstance(rules, dict) else rules
    obj["rules"] = {"preset": preset if isinstance(preset, str) else "raspisnoy", "options": options}


def _m_stranger(obj: dict[str, Any], rnd: random.Random) -> None:
    deals = _deals(obj)
    if deals:
        deal = rnd.choice(deals)
        key = rnd.choice(["dealer", "bids", "taken"])
        if key == "dealer":
            deal["dealer"] = "Stranger"
        elif isinstance(deal.get(key), dict):
            deal[key]["Stranger"] = 1


_SEMANTIC = [_m_swap_cards, _m_reorder_bids, _m_duplicate_player, _m_weird_name, _m_huge_number,
             _m_empty_tricks, _m_joker_declaration, _m_odd_option, _m_stranger]


def verdict(game: GameRecord) -> tuple[list[tuple[str, int | None, int | None, str | None]], dict[str, int]]:
    """What validate says of a game: its violations (kind, deal, trick,
    player, in order) and the recomputed totals."""
    result = replay_game(game, 0, None, True)
    return [(p.kind, p.deal, p.trick, p.player) for p in result.problems], dict(result.totals)


def check_differential(json_text: str) -> str:
    """The JSON / notation differential on one JSON text; returns what
    happened (``refused-json``, ``refused-notation``, ``same``) and raises
    AssertionError when the two forms of a game disagree."""
    from raspis_cli.store.rows import game_id

    read = read_json_text(json_text)
    if not read.ok:
        return "refused-json"
    outcome = "same"
    for game in read.games:
        expected = verdict(game)
        try:
            notation = write_games([game])
        except NotationWriteError:
            outcome = "refused-notation"
            continue
        back = read_text(notation)
        assert back.ok and len(back.games) == 1, (notation, [str(d) for d in back.diagnostics])
        converted = back.games[0]
        assert game_id(converted) == game_id(game), notation
        assert verdict(converted) == expected, (notation, expected, verdict(converted))
        assert write_games(back.games) == notation, notation  # fmt is idempotent on convert's output
        again = read_json_text(games_to_json_text(back.games))
        assert again.ok, [str(d) for d in again.diagnostics]
        assert write_games(again.games) == notation, notation  # notation -> JSON -> notation
        assert game_id(again.games[0]) == game_id(game)
    return outcome
