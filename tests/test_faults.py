"""The fault injector: each fault yields exactly the violation it promises.

Checked twice: against the engine with a small replay written here (always),
and against the validator (:mod:`raspis_cli.judge.replay`), which must report
exactly the expected violation and nothing else.
"""

from __future__ import annotations

import copy
import random

import pytest

from raspis_cli.engine import Game
from raspis_cli.judge.replay import replay_game
from raspis_cli.model.cards import Card, Suit
from raspis_cli.model.record import NO_TRUMP, GameRecord
from raspis_cli.rules import PRESETS, Rules
from raspis_cli.simulate.game import simulate_game
from tests.faultkit import FAULTS, ExpectedViolation, inject, with_fault

Found = tuple[str, int | None, int | None, str | None]


def engine_findings(game: GameRecord) -> list[Found]:
    """(kind, deal, trick, player) of what the engine finds replaying the
    record, plus trick-count, score-mismatch and total-mismatch checks.
    A deal with the wrong number of tricks is scored from its written taken."""
    rules = Rules.from_record(game.rules_preset, game.rules_options)
    names = game.players
    seat = {name: i for i, name in enumerate(names)}
    engine = Game(rules, len(names), names)
    out: list[Found] = []
    for record in game.deals:
        trump = None if record.trump is None or record.trump is NO_TRUMP else record.trump
        assert trump is None or isinstance(trump, (Card, Suit))
        hands = [record.hands[n] for n in names] if record.hands is not None else None
        deal, found = engine.start_deal(record.number, record.kind, seat[record.dealer],
                                        record.cards, trump, record.trump is not None, hands,
                                        True, record.replayed)
        if record.bids is not None and deal.has_bids:
            for i in range(len(names)):
                s = (deal.first_bidder + i) % len(names)
                found += deal.bid(s, record.bids[names[s]])
        deal.skip_bidding()
        for trick in record.tricks or ():
            for play in trick:
                found += deal.play(seat[play.player], play.card, play.joker)
        out += [(v.kind, record.number, v.trick, None if v.seat is None else names[v.seat])
                for v in found]
        # a replayed deal was abandoned: its play may stop anywhere (RULES.md §7)
        if record.tricks is not None and not deal.done and not record.replayed:
            out.append(("trick-count", record.number, None, None))
        if deal.done or record.replayed:
            taken = list(deal.taken)
        else:
            assert record.taken is not None
            taken = [record.taken[n] for n in names]
        scores = list(deal.penalties) if record.replayed else deal.scores(taken)
        if not deal.done and not record.replayed:
            scores = [s + sum(p.points for p in record.penalties or () if p.player == names[i])
                      for i, s in enumerate(scores)]
        for i, name in enumerate(names):
            if record.scores is not None and record.scores[name] != scores[i]:
                out.append(("score-mismatch", record.number, None, name))
        engine.finish_deal(deal, scores, record.replayed)
        for i, name in enumerate(names):
            if record.totals is not None and record.totals[name] != engine.totals[i]:
                out.append(("total-mismatch", record.number, None, name))
    out += [(v.kind, None, None, None) for v in engine.finish()]
    if game.totals is not None:
        out += [("total-mismatch", None, None, name) for i, name in enumerate(names)
                if game.totals[name] != engine.totals[i]]
    return out


def _exactly(found: list[Found], expected: ExpectedViolation) -> bool:
    want: Found = (expected.kind, expected.deal, expected.trick, expected.player)
    others = [f for f in found if f != want and not (
        f[0] in expected.tolerated and (expected.fault != "total" or f[3] == expected.player))]
    return want in found and not others


def _games() -> list[tuple[str, int, GameRecord]]:
    out = []
    for preset in PRESETS:
        low, high = Rules.preset(preset).players
        for players in sorted({max(low, 3), min(high, 5)}):
            out.append((preset, players, simulate_game(Rules.preset(preset), players, players)))
    return out


_GAMES = _games()


@pytest.mark.parametrize("fault", FAULTS)
def test_each_fault_gives_exactly_its_violation(fault: str) -> None:
    made = 0
    for preset, players, game in _GAMES:
        before = copy.deepcopy(game)
        broken, expected = with_fault(game, fault, random.Random(players))
        assert game == before, "with_fault works on a copy"
        if expected is None:
            assert broken == game
            continue
        made += 1
        assert expected.fault == fault
        found = engine_findings(broken)
        assert _exactly(found, expected), (preset, players, expected, found)
    assert made >= 3


def test_where_a_fault_cannot_go() -> None:
    joker54 = simulate_game(Rules.preset("joker54"), 4, 1)
    assert inject(copy.deepcopy(joker54), "joker-demand", random.Random(1)) is None
    off = simulate_game(Rules.preset("raspisnoy").with_options({"dealer_restriction": "off"}), 3, 1)
    assert inject(off, "dealer-sum", random.Random(1)) is None
    sheet = simulate_game(Rules.preset("raspisnoy"), 3, 1, detail="sheet")
    for fault in ("score", "total", "revoke", "drop-trick", "duplicate-card", "joker-demand"):
        assert inject(sheet, fault, random.Random(1)) is None
    circular = simulate_game(Rules.preset("raspisnoy").with_options({"circular_trumps": True}), 3, 1)
    assert inject(circular, "duplicate-card", random.Random(1)) is None
    with pytest.raises(ValueError, match="unknown fault"):
        inject(sheet, "nonsense", random.Random(1))


def test_scores_level_faults() -> None:
    game = simulate_game(Rules.preset("classic"), 4, 3, detail="scores")
    for fault in ("score", "total", "dealer-sum", "skip-dealer"):
        broken, expected = with_fault(game, fault, random.Random(2))
        assert expected is not None, fault
        assert _exactly(engine_findings(broken), expected), (fault, expected)


def test_revoke_under_replay_rules_marks_the_deal_replayed() -> None:
    rules = Rules.preset("joker54")
    assert rules.revoke_replay
    game = simulate_game(rules, 4, 6)
    broken, expected = with_fault(game, "revoke", random.Random(3))
    assert expected is not None
    replayed = [d for d in broken.deals if d.replayed]
    assert [d.number for d in replayed] == [expected.deal]
    assert len(broken.deals) == len(game.deals) + 1
    assert _exactly(engine_findings(broken), expected)


def test_revoke_penalty_is_written() -> None:
    game = simulate_game(Rules.preset("georgian"), 4, 4)
    broken, expected = with_fault(game, "revoke", random.Random(4))
    assert expected is not None
    deal = next(d for d in broken.deals if d.number == expected.deal)
    assert [(p.player, p.points, p.reason) for p in deal.penalties or ()] == [
        (expected.player, -50, "revoke")]


def test_faults_are_deterministic() -> None:
    _, _, game = _GAMES[0]
    for fault in FAULTS:
        assert with_fault(game, fault, random.Random(8)) == with_fault(game, fault, random.Random(8))


def _cannot_go(preset: str, fault: str) -> bool:
    """Whether the preset leaves the fault no place: a joker demand needs a
    lead mode that demands (high, lowest), a dealer-sum fault the sum rule, a
    duplicated trump card one turned up from the stock."""
    rules = Rules.preset(preset)
    if fault == "joker-demand":
        return not {"high", "lowest"} & set(rules.joker_lead_modes)
    if fault == "dealer-sum":
        return rules.dealer_restriction != "sum"
    if fault == "duplicate-card":
        return rules.trump_card != "turned-up"  # the dealer's own card is trump: nothing is turned up
    return False


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("fault", FAULTS)
def test_validator_reports_exactly_the_injected_fault(fault: str, preset: str) -> None:
    """Every fault in simulated games of every preset: the validator reports
    exactly the one expected violation (kind, deal, trick, player) and
    nothing else, nothing tolerated."""
    made = 0
    for players, game in _PRESET_GAMES[preset]:
        for seed in (1, 2):
            broken, expected = with_fault(game, fault, random.Random(seed))
            if expected is None:
                continue
            made += 1
            found: list[Found] = [(p.kind, p.deal, p.trick, p.player)
                                  for p in replay_game(broken).problems]
            want: Found = (expected.kind, expected.deal, expected.trick, expected.player)
            assert found == [want], (players, seed, expected, found)
    assert made == 0 if _cannot_go(preset, fault) else made >= 2


def _preset_games() -> dict[str, list[tuple[int, GameRecord]]]:
    """Per preset: two games, of its fewest and most (up to 6) players from 3."""
    out: dict[str, list[tuple[int, GameRecord]]] = {}
    for preset in PRESETS:
        low, high = Rules.preset(preset).players
        out[preset] = [(n, simulate_game(Rules.preset(preset), n, 100 + n))
                       for n in sorted({max(low, 3), min(high, 6)})]
    return out


_PRESET_GAMES = _preset_games()
