"""Simulated games are complete, legal and consistent: checked by replaying
them through the engine deal by deal."""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
from collections.abc import Mapping
from pathlib import Path

import pytest

from raspis_cli.bots.heuristic import EngineDisagreementError
from raspis_cli.cli.runner import run_app
from raspis_cli.engine import Game, JokerDecl, Violation
from raspis_cli.judge.replay import replay_game
from raspis_cli.model.cards import Card, Suit
from raspis_cli.model.record import NO_TRUMP, GameRecord
from raspis_cli.notation import read_text, write_games
from raspis_cli.notation.jsoncodec import (
    games_to_json_text,
    games_to_jsonl_text,
    read_json_text,
    read_jsonl_text,
)
from raspis_cli.rules import PRESETS, Rules
from raspis_cli.simulate.game import DETAILS, deal_plan, default_names, game_seed, simulate_game
from raspis_cli.simulate.run import render_game, simulate_games, simulated_texts
from tests.notation_helpers import games_key


def _cases() -> list[tuple[str, int]]:
    out = []
    for preset in PRESETS:
        low, high = Rules.preset(preset).players
        out += [(preset, n) for n in range(max(low, 3), min(high, 6) + 1)]
    return out


def engine_replay(game: GameRecord) -> list[Violation]:
    """Replay a full-detail record deal by deal with the engine; check the
    written taken, scores and totals against it (as ``AssertionError``) and
    return every violation the engine reports."""
    rules = Rules.from_record(game.rules_preset, game.rules_options)
    names = game.players
    seat = {name: i for i, name in enumerate(names)}
    engine = Game(rules, len(names), names)
    found = engine.player_problems()
    running = [0] * len(names)
    for record in game.deals:
        assert record.hands is not None and record.tricks is not None
        trump = None if record.trump is None or record.trump is NO_TRUMP else record.trump
        assert trump is None or isinstance(trump, (Card, Suit))
        deal, problems = engine.start_deal(record.number, record.kind, seat[record.dealer],
                                           record.cards, trump, True,
                                           [record.hands[n] for n in names])
        found += problems
        if record.bids is not None:
            order = [names[(deal.first_bidder + i) % len(names)] for i in range(len(names))]
            assert list(record.bids) == order, "bids are written in bidding order"
            for name in order:
                found += deal.bid(seat[name], record.bids[name])
        else:
            assert record.kind in ("miser", "golden")
        for number, trick in enumerate(record.tricks, start=1):
            assert deal.to_play == seat[trick[0].player], "the trick's first entry leads it"
            assert deal.trick_number == number
            for play in trick:
                found += deal.play(seat[play.player], play.card, play.joker)
        assert deal.done and len(record.tricks) == record.cards
        assert record.taken == dict(zip(names, deal.taken, strict=True))
        assert sum(deal.taken) == record.cards
        scores = deal.scores()
        assert record.scores == dict(zip(names, scores, strict=True))
        written_penalties = sorted((p.player, p.points, p.reason) for p in record.penalties or ())
        assert written_penalties == sorted((names[s], p, r) for s, p, r in deal.penalty_notes)
        engine.finish_deal(deal, scores)
        running = [t + s for t, s in zip(running, scores, strict=True)]
        assert record.totals == dict(zip(names, running, strict=True))
    found += engine.finish()
    assert game.totals == dict(zip(names, running, strict=True))
    return found


@pytest.mark.parametrize(("preset", "players"), _cases())
def test_every_preset_and_player_count_replays_clean(preset: str, players: int) -> None:
    rules = Rules.preset(preset)
    for seed in (1, 2):
        game = simulate_game(rules, players, seed)
        assert engine_replay(game) == []
        planned = len(deal_plan(rules, players))
        # control_deals: one control deal at least after the schedule, its dealer chosen
        assert len(game.deals) == planned if not rules.control_deals else len(game.deals) > planned
        assert game.players == default_names(players)
        assert game.rules_preset == preset and game.rules_options == {}
        assert set(game.tags) == {"Event", "Site", "Date"}
        dealers = [game.players.index(d.dealer) for d in game.deals[:planned]]
        assert all((b - a) % players == 1 for a, b in itertools.pairwise(dealers))


_VARIANTS: list[Mapping[str, object]] = [
    {"circular_trumps": True},
    {"void": "must-trump", "full_deal_trump": "last-card"},
    {"full_deal_trump": "random-card", "third_pass": True},
    {"full_deal_trump": "none", "dealer_restriction": "no-full-bid"},
    {"specials": ["forehead", "dark", "miser", "golden", "no-trump"], "ladder_down": True},
    {"joker_lead_modes": ["high", "lowest", "low", "take", "as"],
     "joker_follow_modes": ["take", "discard", "as"], "discard_suit": "optional"},
    {"joker_high_winner": "highest-trump", "joker_take_beaten_by_trump": True,
     "joker_lead_modes": ["high", "take"], "joker_low_nobody_follows": "joker-wins"},
    {"schedule": "free", "first_leader": "dealer", "joker": "6S"},
    {"deck": 54, "joker_lead_modes": ["high", "lowest", "low", "take"]},
    {"deck": 54, "circular_trumps": True, "two_jokers": "opposite"},
    {"revoke_penalty": -50, "joker_lead_penalty": -10, "special_multiplier": 3, "joker": "none"},
]


@pytest.mark.parametrize("options", _VARIANTS, ids=lambda o: ",".join(o))
def test_option_sets_replay_clean(options: Mapping[str, object]) -> None:
    rules = Rules.preset("raspisnoy").with_options(options)
    for players in (3, 4):
        game = simulate_game(rules, players, players)
        assert engine_replay(game) == []
        assert replay_game(game).problems == []
        assert Rules.from_record(game.rules_preset, game.rules_options) == rules
        check_round_trips([game])


def test_classic_with_two_and_ten_players() -> None:
    rules = Rules.preset("classic")
    for players in (2, 10):
        assert engine_replay(simulate_game(rules, players, 5)) == []


def test_deal_kinds_and_trumps() -> None:
    rules = Rules.preset("raspisnoy").with_options({"specials": ["no-trump", "dark", "miser",
                                                                "golden", "forehead"]})
    game = simulate_game(rules, 4, 11)
    kinds = {d.kind for d in game.deals}
    assert kinds == {"normal", "no-trump", "dark", "miser", "golden", "forehead"}
    deck = rules.deck_cards
    for deal in game.deals:
        assert deal.hands is not None
        held = {c for hand in deal.hands.values() for c in hand}
        if deal.kind == "no-trump":
            assert deal.trump is NO_TRUMP
        elif deal.cards * 4 == 36:
            # every card dealt: the dealer shows one of their own
            assert isinstance(deal.trump, Card) and deal.trump in deal.hands[deal.dealer]
        else:
            assert isinstance(deal.trump, Card) and deal.trump not in held
            assert deal.trump in deck
        assert (deal.bids is None) == (deal.kind in ("miser", "golden"))


def test_turned_up_joker_is_recorded_as_the_joker() -> None:
    rules = Rules.preset("raspisnoy")
    seen = 0
    for game in simulate_games(rules, 5, 6, 3):
        for deal in game.deals:
            if deal.trump == Card.parse("7S"):
                seen += 1
    assert seen > 0


def test_circular_trumps_have_no_trump() -> None:
    game = simulate_game(Rules.preset("raspisnoy").with_options({"circular_trumps": True}), 3, 4)
    assert all(d.trump is NO_TRUMP for d in game.deals)


def test_determinism() -> None:
    rules = Rules.preset("raspisnoy")
    assert simulate_game(rules, 4, 42) == simulate_game(rules, 4, 42)
    assert simulate_game(rules, 4, 42) != simulate_game(rules, 4, 43)
    assert simulate_game(rules, 4, random.Random(9)) == simulate_game(rules, 4, 9)
    run = list(simulate_games(rules, 3, 4, 7))
    assert run == list(simulate_games(rules, 3, 4, 7))
    assert list(simulate_games(rules, 3, 2, 7, start=2)) == run[2:]
    again = simulate_game(rules, 3, game_seed(7, 1))
    again.tags["Event"] = "Simulated game 2"
    assert again == run[1]
    assert [g.tags["Event"] for g in run] == [f"Simulated game {i}" for i in range(1, 5)]


def test_global_random_untouched() -> None:
    random.seed(5)
    state = random.getstate()
    simulate_game(Rules.preset("classic"), 3, 1)
    assert random.getstate() == state


def test_detail_levels() -> None:
    rules = Rules.preset("joker54")
    full, scores, sheet = (simulate_game(rules, 4, 8, detail=d) for d in DETAILS)
    for f, s, h in zip(full.deals, scores.deals, sheet.deals, strict=True):
        assert f.bids == s.bids == h.bids and f.taken == s.taken == h.taken
        assert f.scores == s.scores and f.totals == s.totals and f.penalties == s.penalties
        assert s.hands is None and s.tricks is None and s.trump is None
        assert h.hands is None and h.tricks is None and h.trump is None
        assert h.scores is None and h.totals is None and h.penalties is None
    assert full.totals == scores.totals and sheet.totals is None


def test_joker_lead_penalties_are_written() -> None:
    game = simulate_game(Rules.preset("joker54"), 4, 2)
    reasons = {p.reason for d in game.deals for p in d.penalties or ()}
    assert reasons <= {"joker-lead"}
    assert engine_replay(game) == []


def test_bots_bid_plausibly() -> None:
    exact = total = 0
    for game in simulate_games(Rules.preset("raspisnoy"), 4, 3, 1):
        for deal in game.deals:
            if deal.kind != "normal" or deal.bids is None or deal.taken is None:
                continue
            for name, bid in deal.bids.items():
                total += 1
                exact += bid == deal.taken[name]
    assert exact / total > 0.3


def test_names_and_arguments() -> None:
    rules = Rules.preset("raspisnoy")
    game = simulate_game(rules, 3, 1, names=["A", "B", "C"])
    assert game.players == ["A", "B", "C"] and game.deals[0].dealer in game.players
    with pytest.raises(ValueError, match="players"):
        simulate_game(rules, 6, 1)
    with pytest.raises(ValueError, match="names"):
        simulate_game(rules, 3, 1, names=["A", "A", "B"])
    with pytest.raises(ValueError, match="detail"):
        simulate_game(rules, 3, 1, detail="paper")


@pytest.mark.parametrize(("preset", "players"), _cases())
def test_validator_accepts_simulated_games(preset: str, players: int) -> None:
    """Every simulated game validates clean under its rules, at every detail."""
    rules = Rules.preset(preset)
    for detail in DETAILS:
        for game in simulate_games(rules, players, 2, 3, detail=detail):
            result = replay_game(game)
            assert result.problems == [], (detail, game.tags["Event"], result.problems)
            assert result.valid
            if game.totals is not None:
                assert result.totals == game.totals


@pytest.mark.parametrize(("preset", "players"), _cases())
def test_notation_and_json_round_trip(preset: str, players: int) -> None:
    """``fmt`` and ``convert`` on simulated games: notation read and written
    again is the same text, and notation → JSON / JSONL → notation is byte
    for byte the same, at every detail."""
    rules = Rules.preset(preset)
    for detail in DETAILS:
        check_round_trips(list(simulate_games(rules, players, 2, 4, detail=detail)))


def _content(games: list[GameRecord]) -> list[dict[str, object]]:
    """Records without positions; options as the rules they make (the
    notation keeps an option's value as written, a simulated record as JSON)."""
    out = []
    for game, key in zip(games, games_key(games), strict=True):
        key["options"] = Rules.from_record(game.rules_preset, game.rules_options)
        out.append(key)
    return out


def check_round_trips(games: list[GameRecord]) -> None:
    """Notation → parse gives the same records and → write the same text;
    notation → JSON (and JSONL) → notation gives the same bytes."""
    text = write_games(games)
    read = read_text(text)
    assert read.ok, [d.render() for d in read.diagnostics]
    assert _content(read.games) == _content(games)
    assert write_games(read.games) == text
    from_json = read_json_text(games_to_json_text(read.games))
    assert from_json.ok and write_games(from_json.games) == text
    from_jsonl = read_jsonl_text(games_to_jsonl_text(read.games))
    assert from_jsonl.ok and write_games(from_jsonl.games) == text


def test_the_demand_in_the_first_trick_alone_is_kept_with_another_lead_mode() -> None:
    rules = Rules.preset("classic").with_options(
        {"joker_demand_first_trick_only": True, "joker_lead_modes": ["high", "lowest", "take"]})
    assert rules.joker_lead_modes == ("high", "lowest", "take")
    assert simulate_game(rules, 2, 1).deals


def test_simulator_reports_the_dead_end() -> None:
    # rules that with_options refuses, built around the check: the simulator says where it stuck
    rules = dataclasses.replace(Rules.preset("classic"), joker_demand_first_trick_only=True,
                                joker_lead_modes=("high", "lowest"))
    with pytest.raises(EngineDisagreementError, match="no legal action"):
        simulate_game(rules, 2, 1)


def test_joker_declarations_are_recorded() -> None:
    rules = Rules.preset("classic")
    decls: list[JokerDecl] = []
    for game in simulate_games(rules, 4, 2, 5):
        for deal in game.deals:
            for trick in deal.tricks or ():
                decls += [p.joker for p in trick if p.joker is not None]
                assert all(p.joker is None for p in trick if p.card != Card.parse("7S"))
    assert decls and {d.mode for d in decls} <= {"high", "low", "as", "take", "discard"}


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_cli_simulate_fmt_and_convert_round_trip(preset: str, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """The commands as a user runs them: ``simulate`` writes canonical
    notation (``fmt --check`` passes), and ``convert`` to JSON and back, and
    to JSONL and back, gives the same bytes."""
    rsp = tmp_path / "games.rsp"
    assert run_app(["simulate", "--rules", preset, "-p", "4", "-n", "3", "--seed", "9",
                    "-o", str(rsp)]) == 0
    assert rsp.read_text(encoding="utf-8").count('[Event "Simulated game') == 3
    assert run_app(["fmt", "--check", str(rsp)]) == 0
    for target in ("json", "jsonl"):
        there = tmp_path / f"games.{target}"
        back = tmp_path / f"back-{target}.rsp"
        assert run_app(["convert", str(rsp), "--to", target, "-o", str(there)]) == 0
        assert run_app(["convert", str(there), "--to", "notation", "-o", str(back)]) == 0
        assert back.read_bytes() == rsp.read_bytes(), target
    # simulate's own JSON and JSONL are what convert makes of its notation
    for target in ("json", "jsonl"):
        direct = tmp_path / f"direct.{target}"
        assert run_app(["simulate", "--rules", preset, "-p", "4", "-n", "3", "--seed", "9",
                        "-f", target, "-o", str(direct)]) == 0
        converted = read_json_text(direct.read_text(encoding="utf-8"), lines=target == "jsonl")
        assert converted.ok and write_games(converted.games) == rsp.read_text(encoding="utf-8")
    capsys.readouterr()


def test_jobs_give_the_same_bytes(tmp_path: Path) -> None:
    """``simulate -j 2`` makes slices in two processes; the output is the one
    of ``-j 1`` byte for byte, in game order."""
    outputs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"j{jobs}.rsp"
        assert run_app(["simulate", "-p", "4", "-n", "11", "--seed", "5", "-j", jobs,
                        "-o", str(out)]) == 0
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1]
    rules = Rules.preset("joker54").with_options({"third_pass": True})
    one = list(simulated_texts(rules, 3, 7, 2, detail="scores", fmt="jsonl"))
    three = list(simulated_texts(rules, 3, 7, 2, detail="scores", fmt="jsonl", jobs=3))
    assert one == three
    assert one == [render_game(g, "jsonl") for g in simulate_games(rules, 3, 7, 2, detail="scores")]
    assert [json.loads(t)["tags"]["Event"] for t in three] == [
        f"Simulated game {i}" for i in range(1, 8)]
    with pytest.raises(ValueError, match="fmt"):
        next(simulated_texts(rules, 3, 1, 2, fmt="csv"))


def test_pimc_bot_refuses_rules_its_solver_does_not_implement(capsys: pytest.CaptureFixture[str]) -> None:
    """online36's void and joker rules are not the kernel's: the pimc bot is
    refused before any compile or game, as a usage error naming them, not an
    internal error after the first deal."""
    assert run_app(["simulate", "-p", "4", "-n", "1", "--rules", "online36", "--bot", "pimc"]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert "--bot" in err and "void=must-trump-high" in err and "use --bot heuristic" in err
    assert "internal error" not in err and "compiling" not in err
