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

from raspis_cli.notation import NotationWriteError, read_text, write_games
from raspis_cli.notation.jsoncodec import games_to_json_text, read_json_text, read_jsonl_text
from raspis_cli.record import GameRecord
from raspis_cli.replay import replay_game
from raspis_cli.simulate import simulate_game
from raspis_cli.sources import load_data

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
