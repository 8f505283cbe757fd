"""Hostile input, bounded for CI: random bytes, truncations, byte mutations,
token shuffles and JSON-ish values never make the readers, the replay or the
CLI raise. ``scripts/fuzz_campaign.py`` runs the same oracle for hours."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from raspis_cli.cli.runner import run_app
from raspis_cli.notation import NotationWriteError, read_text, write_games
from raspis_cli.notation.jsoncodec import read_json_text, read_jsonl_text
from tests.fuzzkit import check_bytes, json_mutation, seeds

pytestmark = pytest.mark.slow  # thousands of mutated records through the reader and the command line

FAST = settings(max_examples=60, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@FAST
@given(st.binary(max_size=2000))
def test_random_bytes(data: bytes) -> None:
    check_bytes(data)


@FAST
@given(st.text(max_size=500))
def test_random_text(text: str) -> None:
    check_bytes(text.encode("utf-8", "surrogatepass"))


def test_every_truncation_of_two_samples() -> None:
    for path in ("grammar/corpus/valid/comments.rsp", "samples/mixed-detail.rsp"):
        data = (Path(__file__).resolve().parent.parent / path).read_bytes()
        for cut in range(len(data) + 1):
            check_bytes(data[:cut])


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    data = bytearray(draw(st.sampled_from(seeds())))
    for _ in range(draw(st.integers(1, 8))):
        if not data:
            break
        i = draw(st.integers(0, len(data) - 1))
        what = draw(st.integers(0, 3))
        if what == 0:
            data[i] = draw(st.integers(0, 255))
        elif what == 1:
            data[i:i] = draw(st.binary(min_size=1, max_size=8))
        elif what == 2:
            del data[i: i + draw(st.integers(1, 40))]
        else:
            data[i:i] = draw(st.sampled_from([b"{", b"}", b";", b'"', b"\\", b"\r", b"\n", b"|", b"[", b"]",
                                              b"\xff", b"\x00", b"RJ", b"-", b"/", b"999999999999"]))
    return bytes(data)


@FAST
@given(mutated())
def test_byte_mutations(data: bytes) -> None:
    check_bytes(data)


@st.composite
def shuffled(draw: st.DrawFn) -> bytes:
    lines = draw(st.sampled_from(seeds())).decode("utf-8", errors="replace").split("\n")
    for _ in range(draw(st.integers(1, 5))):
        k = draw(st.integers(0, len(lines) - 1))
        tokens = lines[k].split()
        lines[k] = " ".join(draw(st.permutations(tokens)))
    if draw(st.booleans()):
        lines = draw(st.permutations(lines))
    return "\n".join(lines).encode("utf-8")


@FAST
@given(shuffled())
def test_token_shuffles(data: bytes) -> None:
    check_bytes(data)


_KEYS = st.sampled_from(["format", "tags", "rules", "players", "deals", "totals", "unfinished", "comments",
                         "number", "kind", "dealer", "cards", "trump", "hands", "bids", "tricks", "taken",
                         "scores", "penalties", "replayed", "player", "card", "joker", "mode", "suit",
                         "preset", "options", "text", "at", "points", "reason"])
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12)
    | st.sampled_from(["10H", "RJ", "H", "high", "normal", "A", "B", "raspisnoy", "on:deal"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEYS | st.text(max_size=4), inner,
                                                                max_size=6),
    max_leaves=40)


@FAST
@given(_JSON)
def test_json_values(value: object) -> None:
    text = json.dumps(value)
    check_bytes(text.encode("utf-8"))
    check_bytes(json.dumps([value, value]).encode("utf-8"))


@FAST
@given(st.randoms(use_true_random=False))
def test_json_games_with_a_value_changed(rnd: random.Random) -> None:
    check_bytes(json_mutation(rnd))


@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(mutated())
def test_cli_never_shows_a_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str], data: bytes) -> None:
    for name in ("f.rsp", "f.json"):
        path = tmp_path / name
        path.write_bytes(data)
        for argv in (["validate", str(path)], ["validate", "-f", "json", str(path)], ["score", str(path)],
                     ["show", str(path)], ["fmt", str(path)], ["convert", "--to", "json", str(path)]):
            code = run_app(argv)
            out = capsys.readouterr()
            assert code in (0, 1, 2), (argv, code, out)
            assert "Traceback" not in out.out + out.err and "internal error" not in out.err, (argv, out)


# --- pathological shapes: each must finish quickly (time linear in the size) ---------------

PATHOLOGICAL = {
    "open braces": b"{" * 60_000,
    "close braces": b"}" * 60_000,
    "quotes": b'"' * 60_000,
    "semicolons": b";" * 60_000,
    "brace pairs": b"{}" * 30_000,
    "one long tag": b'[Players "' + b"A, " * 20_000 + b'"]',
    "many short lines": b"1.\n" * 30_000,
    "deep JSON": b"[" * 100_000,
    "deep JSON objects": b'{"a":' * 50_000,
    "unclosed comment over many lines": b"{\n" + b"1. 1 A\n" * 50_000,
    "many games": b"[Players \"A, B, C\"]\n1. 1 A 9H | 0/0 | 1/1 | 0/0\n" * 1_500,
    "long line": b"x" * 3_000_000,
    "CR only": b"\r" * 200_000,
}


@pytest.mark.parametrize("name", sorted(PATHOLOGICAL))
def test_pathological_input_is_read(name: str) -> None:
    """Each shape reads without raising (how long it takes is measured by
    bench/hostile_timing.py, never asserted here)."""
    check_bytes(PATHOLOGICAL[name])


def test_deep_json_is_a_diagnostic() -> None:
    for text in ("[" * 100_000, '{"a":' * 100_000):
        assert not read_json_text(text).ok
        assert not read_jsonl_text(text).ok


# --- regressions: inputs the campaign (scripts/fuzz_campaign.py) found ----------------------------


def test_json_game_without_players_replays() -> None:
    """Found: a JSON game whose players were dropped divided by zero in the replay."""
    game = json.loads(seeds()[-1])
    game["players"] = []
    check_bytes(json.dumps(game).encode("utf-8"))


def test_json_deal_of_an_unknown_kind_is_a_diagnostic() -> None:
    """Found: a JSON deal of kind "xxx" was read, and converted to a notation
    text that did not read back (E206); the kind is now checked (J002)."""
    game = json.loads(seeds()[-1])
    game["deals"][0]["kind"] = "x" * 10_000
    read = read_json_text(json.dumps(game))
    assert not read.ok and "expected a kind of deal" in read.diagnostics[0].message.english()
    assert len(read.diagnostics[0].message.english()) < 300  # the value is not repeated whole
    check_bytes(json.dumps(game).encode("utf-8"))


def test_a_long_json_list_reads_in_linear_time() -> None:
    """Found: line numbers of a .json list were counted from the start for every game."""
    game = seeds()[-1].decode("utf-8")
    read = read_json_text("[" + ",".join([game] * 300) + "]")
    assert len(read.games) == 300
    lines = [g.pos.line for g in read.games if g.pos is not None]
    assert lines == sorted(lines) and len(set(lines)) == 300  # each game's own place


def test_a_dealer_name_with_a_line_break_is_not_written() -> None:
    """Found: a JSON dealer named "\\\\\\n" was written inside quotes across two
    lines, and the text did not read back; a name cannot hold a line break."""
    game = json.loads(seeds()[-1])
    game["deals"][0]["dealer"] = "\\\n\x00"
    read = read_json_text(json.dumps(game))
    assert read.ok
    with pytest.raises(NotationWriteError, match="cannot hold a line break"):
        write_games(read.games)
    check_bytes(json.dumps(game).encode("utf-8"))


@pytest.mark.parametrize("line", [
    "23. 9 Вера | 3/3 200 1330 |" + " " * 30_000 + "9" + " " * 30_000 + "2/5 50 1130 | 2/0 0 1440",
    "  penalty Анна -20 revoke" + " " * 60_000 + "of hearts",
    "  penalty Boris" + " " * 60_000,
    "  penalty Анна: -20" + " " * 60_000,
], ids=["cell", "penalty", "penalty-no-points", "penalty-no-reason"])
def test_long_runs_of_spaces_parse_in_linear_time(line: str) -> None:
    """Found: a sheet cell with long runs of spaces took 80 s to reject (the
    cell pattern backtracked quadratically); a penalty line with 70,000
    trailing spaces took 65 s."""
    read = read_text(line + "\n")
    assert read.diagnostics or read.games  # the time is measured in bench/hostile_timing.py


@pytest.mark.parametrize("key", ["number", "cards"])
def test_json_deal_with_a_negative_count_is_not_written_as_notation(key: str) -> None:
    """Found: a JSON deal of -1 cards was written as '28. -1 miser ...', which
    the notation does not read (E202). Since issue 11 every number has a range
    (record.NUMBER_RANGES): the JSON reader refuses it, naming the deal."""
    game = json.loads(seeds()[-1])
    game["deals"][0][key] = -1
    read = read_json_text(json.dumps(game))
    words = {"number": "the deal number", "cards": "the number of cards"}.get(key, f"the {key}")
    assert not read.ok and f"{words} -1 is out of range" in read.diagnostics[0].message.english()
    check_bytes(json.dumps(game).encode("utf-8"))


@pytest.mark.parametrize("text", [
    "1. " + "9" * 5000 + " A\n",
    '[Players "A, B"]\n1. 1 A - | ' + "9" * 5000 + "/1 | 0/0\n",
    '[Players "A, B"]\n1. 1 A -\n  bids A ' + "9" * 5000 + ", B 1\n",
    '[Players "A, B"]\n1. 1 A -\n  penalty A -' + "9" * 5000 + " revoke\n",
    '{"players": ' + "9" * 5000 + "}",
], ids=["deal", "cell", "bids", "penalty", "json"])
def test_a_number_of_thousands_of_digits_is_a_diagnostic(text: str) -> None:
    """Found by a scan of every line shape with long fillers: int() refuses more
    than 4300 digits with a ValueError, which escaped the reader."""
    check_bytes(text.encode("utf-8"))
    read = read_json_text(text) if text.startswith("{") else read_text(text)
    assert "a number of 5000 digits is too long" in read.diagnostics[0].message.english()


def test_a_name_with_a_suit_symbol_is_quoted() -> None:
    """Found: a JSON trick led by a player 'Ан♥на' who is not in the players was
    written bare, and the reader took the name for a card (E303)."""
    game = json.loads(next(s for s in seeds() if s.startswith(b"{") and b'"tricks"' in s))
    game["deals"][0]["tricks"][0][0]["player"] = "Ан♥на"
    read = read_json_text(json.dumps(game))
    assert read.ok
    assert '"Ан♥на"' in write_games(read.games)
    check_bytes(json.dumps(game).encode("utf-8"))


def test_the_campaign_counts_a_hang_as_a_failure_and_saves_the_input(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Found: an input of seed 42 hung the campaign for half an hour (a reader's pattern that
    tried 2^n splits); a worker over its CPU limit is now killed, its input counted and saved."""
    from scripts import fuzz_campaign
    from tests import attackkit, fuzzkit

    def hang(data: bytes) -> None:
        while True:
            pass

    monkeypatch.setattr(fuzzkit, "check_bytes", hang)  # the workers are forked: they hang too
    monkeypatch.setattr(fuzzkit, "seeds", lambda: [b"[Players \"A, B\"]\n1. 1 A x\n"])
    monkeypatch.setattr(attackkit, "attacks", lambda folder: {})
    monkeypatch.setattr(fuzz_campaign, "CPU_LIMIT", {"bytes": 0.3})
    monkeypatch.setattr(fuzz_campaign, "CPU_LIMIT_PER_BYTE", 0.0)
    monkeypatch.setattr(fuzz_campaign, "ATTACK_WEIGHTS", {})
    code = fuzz_campaign.attack_loop(2.0, 2, 7, tmp_path, workers=2)
    out = capsys.readouterr().out
    assert code == 1, out
    assert "2 inputs in" in out and "2 restarted" in out, out
    assert "bytes | timeout: over 0.3 s of CPU |" in out, out
    saved = sorted(tmp_path.glob("failure-*"))
    assert [p.name for p in saved] == ["failure-001-bytes.bin"]  # one distinct failure, its input
    assert saved[0].read_bytes()


@pytest.mark.parametrize("field", ["bids", "taken", "scores", "totals"])
def test_an_empty_object_of_a_deal_is_the_same_as_none(field: str) -> None:
    """Found (seed 42, input 53,442): a JSON deal whose only values were ``"bids": {}`` was
    written as a row of ``-`` cells, which reads as a row to fill in and was then written
    otherwise: fmt was not idempotent. An empty object is now read as none, as ``"tricks": []``."""
    game = json.loads(seeds()[-1])
    game["deals"].insert(1, {"number": 2, "kind": "normal", "dealer": "Boris", "cards": 2, field: {}})
    read = read_json_text(json.dumps(game))
    assert read.ok and getattr(read.games[0].deals[1], field) is None
    check_bytes(json.dumps(game).encode("utf-8"))


def test_a_comment_after_a_games_last_line_stays_in_that_game() -> None:
    """Found (seed 42, input 98,697): a deal's comment written after its last line, at the end of
    a game, went to the next game when read again (fmt was not idempotent). As above a deal, only
    the comments just above a game's first tag, no blank line between, start that game."""
    text = ('[Players "A, Boris, Vera"]\n2. 3 Boris -\n  taken Gena 3, Boris 0\n; after taken\n'
            '  hand A: RJ BJ 2♣\n\n; before the second game\n[Rules "x"]\n[Players "A, Boris, Vera"]\n')
    games = read_text(text).games
    written = write_games(games)
    again = read_text(written).games
    assert [d.comments for d in again[0].deals] == [["; after taken"]]
    assert again[1].comments == ["; before the second game"] and again[1].comment_anchors == ["start"]
    assert write_games(again) == written
    check_bytes(text.encode("utf-8"))
