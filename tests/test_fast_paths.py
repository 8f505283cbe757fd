"""Every fast path derives from the one rule or refuses: no option value gets
a verdict of a fast path's own.

The whole-trick path of the engine (``Deal.play_plain_tricks``), the replay's
compact path and the simulator's integer loop read the options only through
the rules' functions (``must_trump``, ``first_leader``, ``forbidden_bids``,
``trick_trump``…), so they implement every value those implement; the tests
here hold them, value by value, to the long way's verdicts. The solver's
kernel reads switches and tables made by the same functions
(``kernel_switches``) and refuses, in one exhaustive ``match``
(``kernel_refusal``), the values it does not implement. That a new value
cannot pass unhandled is checked by the types (``tests/test_rule_types.py``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from raspis_cli.engine.deal import Deal
from raspis_cli.engine.trick import must_trump, trick_trump
from raspis_cli.judge.replay import replay_game
from raspis_cli.judge.results import RulesChoice
from raspis_cli.model.cards import NO_SUIT
from raspis_cli.model.joker_modes import JOKER_MODE_ROWS, wins_when_following, wins_when_led
from raspis_cli.notation.jsoncodec import games_to_json_text
from raspis_cli.rules import OPTIONS, PRESETS, Rules
from raspis_cli.rules.jokers import high_joker_wins_trumped, low_joker_wins_unfollowed, opposite_jokers
from raspis_cli.simulate.game import simulate_game
from raspis_cli.simulate.simulator import Simulator
from raspis_cli.solver import kernel as sk
from raspis_cli.solver.search import Solver, SolverRefusedError, kernel_refusal, kernel_switches

STRUCTURES = {
    "deck": "a deck is its cards (cards.Deck)",
    "joker": "the joker is a card of the deck (cards.Deck)",
    "schedule": "a schedule is its sequence of deals (tests/test_schedule.py)",
    "specials": "its values are the deal kinds (tests/test_schedule.py)",
    "players": "a range, not a switch",
}
"""Options whose values are structures rather than switches of the trick or
the bidding: the schedule's tests hold them."""

CASES = [(name, value) for name, spec in OPTIONS.items() if spec.choices and name not in STRUCTURES
         for value in spec.choices]
"""Every value of every switch, from the option table itself."""


def _rules_with(name: str, value: str) -> tuple[Rules, dict[str, object]]:
    """The rules with ``name`` set to ``value`` (a list option: the preset's
    list and the value)."""
    preset = "joker54" if name == "two_jokers" else "raspisnoy"
    base = Rules.preset(preset)
    given: object = value
    if OPTIONS[name].type_name == "modes":
        given = list(dict.fromkeys([*getattr(base, name), value]))
    options = {name: given}
    return base.with_options(options), options


def _games(rules: Rules, fast: bool, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setattr(Simulator, "fast_play", fast)
    for detail in ("full", "sheet"):
        for seed in (1, 2):
            yield games_to_json_text([simulate_game(rules, 3 + seed % 2, seed, detail=detail)])


def _same_verdicts(rules: Rules, options: dict[str, object]) -> None:
    """Games of two presets and of ``rules`` replayed under ``options`` the
    long way and the compact way: the same problems, totals and deals."""
    games = [simulate_game(Rules.preset(p), 4, 7, detail=d) for p in ("raspisnoy", "joker54")
             for d in ("full", "sheet")]
    games += [simulate_game(rules, 3, 5, detail=d) for d in ("full", "sheet")]
    for i, game in enumerate(games):
        pair = []
        for compact in (True, False):
            result = replay_game(game, i, RulesChoice(options=options), compact=compact)
            pair.append(([(p.kind, p.message, p.pos) for p in result.problems], result.totals,
                         [(d.scores, d.taken) for d in result.deals]))
        assert pair[0] == pair[1]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "value"), CASES)
def test_every_value_gets_the_long_ways_verdict_on_every_path(name: str, value: str,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    rules, options = _rules_with(name, value)
    # validation and the sheet's arithmetic: the compact replay gives the long way's verdict
    _same_verdicts(rules, options)
    # the simulator's integer loop plays the same games as the engine, deal by deal
    assert list(_games(rules, True, monkeypatch)) == list(_games(rules, False, monkeypatch))
    # the solver answers only for rules its kernel implements, and says which it does not
    deal = Deal(rules, 3, 0, 1, "normal", None, [1 << 10, 1 << 8, 1 << 9])  # Q♠, 10♠, J♠
    deal.skip_bidding()
    refused = kernel_refusal(rules)
    if refused:
        with pytest.raises(SolverRefusedError, match=name):
            Solver(deal, 0)
    else:
        assert Solver(deal, 0).outcome(deal).exact


def test_the_kernel_refuses_only_what_it_does_not_implement() -> None:
    assert kernel_refusal(Rules.preset("raspisnoy").with_options({"void": "must-trump-high"})) == (
        "void=must-trump-high",)
    assert {p: kernel_refusal(Rules.preset(p)) for p in PRESETS} == {
        "raspisnoy": (), "classic": (), "georgian": (), "joker54": (),
        "online36": ("void=must-trump-high", "joker_take_lead=follow-freely")}


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("circular", [False, True])
def test_the_kernels_tables_are_the_rules_functions(preset: str, circular: bool) -> None:
    """The kernel's switches and tables, made at a solver's start, hold what
    the engine's functions answer: the trump of every suit led, whether a
    joker wins as declared, each joker option's decision."""
    base = Rules.preset(preset)
    for name, value in [("circular_trumps", circular), *((n, v) for n, v in CASES if n.startswith("joker"))]:
        given: object = value
        if OPTIONS[name].type_name == "modes":  # the preset's modes and this one (a list the rules accept)
            given = list(dict.fromkeys([*getattr(base, name), value]))
        rules = base.with_options({"circular_trumps": circular, name: given})
        for trump in range(NO_SUIT + 1):
            switches = kernel_switches(rules, trump)
            assert [switches[sk.R_TRUMP_OF + led] for led in range(NO_SUIT + 1)] == [
                trick_trump(led, trump, circular) for led in range(NO_SUIT + 1)]
            for row in JOKER_MODE_ROWS:
                code = sk.MODES[row.mode]
                assert switches[sk.R_LEAD_WINS + code] == wins_when_led(row.mode)
                assert switches[sk.R_FOLLOW_WINS + code] == wins_when_following(row.mode)
            assert switches[sk.R_MUST_TRUMP] == must_trump(rules.void)
            assert switches[sk.R_HIGH_HIGHEST_TRUMP] == (not high_joker_wins_trumped(rules))
            assert switches[sk.R_LOW_JOKER_WINS] == low_joker_wins_unfollowed(rules)
            assert switches[sk.R_OPPOSITE] == opposite_jokers(rules)


def test_the_simulator_plays_every_game_on_its_fast_path_without_a_pimc_bot() -> None:
    for preset in PRESETS:
        sim = Simulator(Rules.preset(preset), ["A", "B", "C"], random.Random(1), "full")
        assert sim.fast == Simulator.fast_play
