"""The simulator's play as one loop on integers against its card-by-card play.

The heuristic bots play a whole deal on integers (``Simulator.play_compact``:
bit masks, the joker's plays the engine lists, nothing re-checked); card by
card on the engine's objects (``Simulator.play_engine_deal``, ``fast_play``
off: the engine lists the legal bids and plays and applies each) is the
straightforward version. A seed must give the very same game both ways,
byte for byte, on every preset, with options that change what may be
played, who wins and how bots judge (skill), at every detail.
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from raspis_cli.bots.heuristic import choice_of_one, shuffle, shuffle_steps
from raspis_cli.rules import OPTIONS, PRESETS, Rules
from raspis_cli.simulate.game import simulate_game
from raspis_cli.simulate.run import render_game
from raspis_cli.simulate.simulator import Simulator

_OPTIONS: list[Mapping[str, object]] = [
    {"circular_trumps": True},
    {"void": "must-trump", "full_deal_trump": "last-card"},
    {"specials": ["forehead", "dark", "miser", "golden", "no-trump"], "third_pass": True},
    {"joker_lead_modes": ["high", "lowest", "low", "take", "as"],
     "joker_follow_modes": ["take", "discard", "as"], "joker_lead_penalty": -10},
    {"deck": 54, "circular_trumps": True, "two_jokers": "opposite", "first_leader": "dealer"},
    {"joker": "none", "dealer_restriction": "no-full-bid"},
]


def _cases() -> Iterator[tuple[Rules, int, int, Mapping[str, float] | None]]:
    for preset in PRESETS:
        rules = Rules.preset(preset)
        for seed in (3, 4):
            yield rules, min(rules.players[0] + seed % 2, rules.players[1]), seed, None
    for k, options in enumerate(_OPTIONS):
        yield Rules.preset("raspisnoy").with_options(options), 3 + k % 3, 10 + k, None
    skill = {"Анна": 0.6, "Boris": 0.9}
    yield Rules.preset("classic"), 4, 20, skill
    yield Rules.preset("raspisnoy").with_options({"circular_trumps": True}), 3, 21, skill


def _texts(fast: bool, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    monkeypatch.setattr(Simulator, "fast_play", fast)
    # the card-by-card path asks the engine who would win of every card
    monkeypatch.setattr(Simulator, "split_by_suit", fast)
    out = []
    for rules, players, seed, skill in _cases():
        for detail in ("full", "sheet"):
            game = simulate_game(rules, players, seed, detail=detail, skill=skill)
            out.append(render_game(game, "notation"))
    return out


def test_bit_mask_play_makes_the_card_by_card_games(monkeypatch: pytest.MonkeyPatch) -> None:
    slow = _texts(False, monkeypatch)
    fast = _texts(True, monkeypatch)
    assert len(fast) == len(slow) > 20
    for one, other in zip(fast, slow, strict=True):
        assert one == other


EVERY_VALUE = [(name, value) for name, spec in OPTIONS.items() if spec.type_name in ("choice", "modes")
               for value in spec.choices if name not in ("deck", "joker", "schedule")]
"""Every value of every choice option (and each value of a list of modes
alone), drawn from the option table (the deck, the joker and the schedule are
cases of their own above)."""


@pytest.mark.parametrize(("name", "value"), EVERY_VALUE)
def test_every_value_of_every_option_plays_the_same_games_both_ways(
        name: str, value: str, monkeypatch: pytest.MonkeyPatch) -> None:
    preset = "joker54" if name == "two_jokers" else "raspisnoy"
    rules = Rules.preset(preset).with_options({name: value})
    texts = []
    for fast in (True, False):
        monkeypatch.setattr(Simulator, "fast_play", fast)
        monkeypatch.setattr(Simulator, "split_by_suit", fast)
        texts.append([render_game(simulate_game(rules, 4, seed, detail="full"), "notation")
                      for seed in (31, 32)])
    assert texts[0] == texts[1]


def test_simulate_bench_quick_prints_its_rows() -> None:
    """``bench/simulate_bench.py --quick`` runs and prints its rows (nothing timed here)."""
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, str(root / "bench" / "simulate_bench.py"), "--quick"],
                          capture_output=True, text=True, encoding="utf-8", timeout=300, cwd=root)
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("| ")]
    assert [r.split(" | ")[0] for r in rows[1:]] == ["| play (bots, deals)", "| write (notation)",
                                                     "| total", "| 10,000 games, CPU (target <= 20 s)"]
    assert rows[-1].endswith(("| met |", "| MISSED |"))


def test_the_written_out_shuffle_and_choice_draw_as_random_does() -> None:
    """The simulator's shuffle and one-value choice, written out for a plain
    ``random.Random``, leave the list and the generator as ``shuffle`` and
    ``choice`` do (a subclass is handed to them)."""
    class Mine(random.Random):
        pass

    for seed in range(200):
        for size in (1, 2, 3, 17, 36, 54):
            one, other = random.Random(seed), random.Random(seed)
            deck, expected = list(range(size)), list(range(size))
            shuffle(one, deck, shuffle_steps(size))
            other.shuffle(expected)
            assert deck == expected
            assert choice_of_one(one, size) == other.choice((size,)) == size
            assert one.getstate() == other.getstate()
    mine, plain = Mine(5), random.Random(5)
    deck, expected = list(range(36)), list(range(36))
    shuffle(mine, deck, shuffle_steps(36))
    plain.shuffle(expected)
    assert deck == expected and mine.getstate() == plain.getstate()


def test_a_random_subclass_makes_the_same_games() -> None:
    """A ``random.Random`` subclass is asked for every draw (the simulator
    writes out only a plain generator's): the same seed makes the same game."""
    class Mine(random.Random):
        pass

    for preset in PRESETS:
        rules = Rules.preset(preset)
        players = max(rules.players[0], 3)
        plain = render_game(simulate_game(rules, players, random.Random(11)), "notation")
        mine = render_game(simulate_game(rules, players, Mine(11)), "notation")
        assert plain == mine
