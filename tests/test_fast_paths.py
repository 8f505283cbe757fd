"""Every fast path derives from the one rule or refuses: a value of an option
that a fast path does not implement never gets a verdict of its own.

The fast paths that read an option's value themselves state which values
they implement (``*_HANDLES``); the rest call the engine's functions. Two
tests hold them: a value added to an option's table fails the first until
each fast path that reads the option lists it (or takes the long way for it);
the second registers a synthetic extra value for every option and checks
that validation, the score sheet's arithmetic, the simulator and the solver
give the long way's verdict (or refuse), never their own.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest

from raspis_cli.engine.deal import PLAIN_TRICK_HANDLES, Deal
from raspis_cli.engine.trick import MUST_TRUMP
from raspis_cli.judge.replay import replay_game
from raspis_cli.judge.results import RulesChoice
from raspis_cli.model.joker_modes import JOKER_MODES
from raspis_cli.notation.jsoncodec import games_to_json_text
from raspis_cli.rules import OPTIONS, OptionSpec, Rules, bidding
from raspis_cli.rules.options import OptionValue
from raspis_cli.simulate.game import simulate_game
from raspis_cli.simulate.simulator import COMPACT_HANDLES, Simulator
from raspis_cli.solver.search import KERNEL_HANDLES, KERNEL_REFUSES, Solver, SolverRefusedError

FAST_PATHS: dict[str, dict[str, tuple[str, ...]]] = {
    "Deal.play_plain_tricks": PLAIN_TRICK_HANDLES,
    "Simulator.play_compact": COMPACT_HANDLES,
    "the solver kernel": KERNEL_HANDLES,
}
"""Every fast path that reads an option's value itself, with its statement."""
REFUSED: dict[str, dict[str, tuple[str, ...]]] = {"the solver kernel": KERNEL_REFUSES}
"""The values a fast path states it refuses on purpose (no long way to take)."""

SYNTHETIC = "synthetic"
NOT_EXTENDED = {
    "deck": "a deck is its cards (cards.Deck): a size without cards cannot be dealt",
    "joker": "the joker is a card of the deck (cards.Deck)",
    "schedule": "a schedule is its sequence of deals (rules/schedule.py)",
    "specials": "its values are the deal kinds, the engine's and the notation's",
}
"""Options whose values are structures, not switches: a value without its
structure cannot be constructed, so no path can meet one."""
EXTENDED = [name for name, spec in OPTIONS.items() if spec.choices and name not in NOT_EXTENDED]


def test_every_fast_path_implements_exactly_the_values_of_the_options_it_reads() -> None:
    """A value added to an option (or a joker mode added to the table) fails
    here until every fast path reading that option implements it (its list
    names it), refuses it on purpose (its list of refused values names it) or
    takes the long way for the whole option (the option leaves its list)."""
    for path, handles in FAST_PATHS.items():
        refused = REFUSED.get(path, {})
        assert set(refused) <= set(handles), path
        for name, values in handles.items():
            spec = OPTIONS[name]
            every = JOKER_MODES if spec.type_name == "modes" else spec.choices
            stated = set(values) | set(refused.get(name, ()))
            assert not set(values) & set(refused.get(name, ())), (path, name)
            assert stated == set(every), (path, name, sorted(set(every) ^ stated))


def test_the_dealer_restriction_takes_its_values_from_the_table_of_forbidden_bids() -> None:
    assert OPTIONS["dealer_restriction"].choices == tuple(bidding.DEALER_RESTRICTIONS)


def _synthetic_spec(spec: OptionSpec) -> OptionSpec:
    def parse(value: object) -> OptionValue:
        if spec.type_name == "modes":
            items = list(value) if isinstance(value, (list, tuple)) else str(value).split(",")
            known = spec.parse([item for item in items if item != SYNTHETIC])
            assert isinstance(known, tuple)
            return (*known, SYNTHETIC) if SYNTHETIC in items else known
        return SYNTHETIC if value == SYNTHETIC else spec.parse(value)

    return dataclasses.replace(spec, parse=parse, choices=(*spec.choices, SYNTHETIC))


def _register(name: str, monkeypatch: pytest.MonkeyPatch) -> tuple[Rules, dict[str, object]]:
    """The rules with a synthetic value of ``name`` registered and in force."""
    monkeypatch.setitem(OPTIONS, name, _synthetic_spec(OPTIONS[name]))
    if name == "dealer_restriction":  # a row of the table: the dealer may not bid 1
        monkeypatch.setitem(bidding.DEALER_RESTRICTIONS, SYNTHETIC, bidding.DealerRestriction(
            SYNTHETIC, lambda cards, before: (1,), "the dealer {player} bid 1", ""))
    if name == "void":  # a row of the table: a void player must trump
        monkeypatch.setitem(MUST_TRUMP, SYNTHETIC, True)
    if name == "third_pass":  # a row of the table: no second pass in a row
        monkeypatch.setitem(bidding.PASS_LIMITS, SYNTHETIC, bidding.PassLimit(lambda players: 2, "{player}"))
    preset = "joker54" if name == "two_jokers" else "raspisnoy"
    base = Rules.preset(preset)
    value: object = SYNTHETIC
    if OPTIONS[name].type_name == "modes":
        value = [*getattr(base, name), SYNTHETIC]
    options = {name: value}
    return base.with_options(options), options


def _games(rules: Rules, fast: bool, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setattr(Simulator, "fast_play", fast)
    for detail in ("full", "sheet"):
        for seed in (1, 2):
            yield games_to_json_text([simulate_game(rules, 3 + seed % 2, seed, detail=detail)])


def _verdicts(rules: Rules, options: dict[str, object]) -> list[object]:
    """Each game of every preset and of ``rules`` simulated, replayed under
    ``options`` the long way and the compact way: (problems, totals) each."""
    out: list[object] = []
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
        out.append(pair[0])
    return out


@pytest.mark.parametrize("name", EXTENDED)
def test_a_value_no_fast_path_knows_gets_the_long_ways_verdict(name: str,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    rules, options = _register(name, monkeypatch)
    value = rules.options()[name]
    assert value == SYNTHETIC or (isinstance(value, tuple) and SYNTHETIC in value)
    # the fast paths that read the option say they do not implement the value
    for path, handles in FAST_PATHS.items():
        assert bool(rules.unhandled(handles)) == (name in handles), path
    # validation and the sheet's arithmetic: the compact replay gives the long way's verdict
    _verdicts(rules, options)
    # the simulator's integer loop: the same games as the engine's, deal by deal
    assert list(_games(rules, True, monkeypatch)) == list(_games(rules, False, monkeypatch))
    # each fast path that reads the option takes the long way for the value
    monkeypatch.setattr(Simulator, "fast_play", True)
    assert Simulator(rules, ["A", "B", "C"], random.Random(1), "full").fast == (name not in COMPACT_HANDLES)
    deal = Deal(rules, 3, 0, 1, "normal", None, [1 << 10, 1 << 8, 1 << 9])  # Q♠, 10♠, J♠
    deal.skip_bidding()
    seats = [(deal.leader + i) % 3 for i in range(3)]
    held = [(10, 8, 9)[seat] for seat in seats]
    assert deal.copy().play_plain_trick(seats, held) == (name not in PLAIN_TRICK_HANDLES)
    # the solver: an answer from the kernel only for rules it implements
    if name in KERNEL_HANDLES:
        with pytest.raises(SolverRefusedError, match=name):
            Solver(deal, 0)
    else:
        Solver(deal, 0)
