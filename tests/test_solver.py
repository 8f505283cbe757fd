"""The double-dummy solver against brute force over the engine's own deal,
and its fast paths against the engine's legality and trick winner."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from raspis_cli.engine import Deal, JokerDecl
from raspis_cli.engine.deal import trick_winner
from raspis_cli.model.cards import Card, Suit
from raspis_cli.rules import PRESETS, Rules
from raspis_cli.solver import kernel as sk
from raspis_cli.solver.randomdeal import random_position, random_rules, random_small_case
from raspis_cli.solver.search import (
    Outcome,
    Solver,
    brute_force,
    decl_code,
    solve,
)
from tests.enginekit import hand


def _agree(seed: int) -> bool:
    """Solver and brute force on one random small case; False when the
    case has a line without a legal play (contradictory options)."""
    deal, player = random_small_case(random.Random(seed))
    try:
        expected = brute_force(deal, player)
    except ValueError:
        return False
    assert solve(deal, player) == expected, (seed, deal.rules, deal.hands, deal.trick, player)
    return True


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_solver_agrees_with_brute_force_on_random_small_deals(preset: str) -> None:
    checked = 0
    rng = random.Random(f"solver/{preset}")
    for _ in range(150):
        deal, player = random_small_case(rng, [preset])
        try:
            expected = brute_force(deal, player)
        except ValueError:
            continue
        assert solve(deal, player) == expected, (deal.rules, deal.hands, deal.trick, player)
        checked += 1
    assert checked >= 140


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=0, max_value=2**40))
def test_solver_agrees_with_brute_force_hypothesis(seed: int) -> None:
    _agree(seed)


def test_worked_example_one_card_each() -> None:
    rules = Rules.preset("raspisnoy")
    deal = Deal(rules, 2, 1, 1, "normal", Suit.H, [hand("AH"), hand("KH")])
    deal.skip_bidding()
    assert solve(deal, 0) == Outcome((1,), 1, 1)
    assert solve(deal, 1) == Outcome((0,), 0, 0)


def test_worked_example_the_joker_decides() -> None:
    """The joker holder leads: high wins the trick, low loses it, so the
    holder can force 0 or 1 of this last trick."""
    rules = Rules.preset("raspisnoy")
    deal = Deal(rules, 2, 1, 1, "normal", Suit.H, [hand("7S"), hand("KH")])
    deal.skip_bidding()
    assert solve(deal, 0) == Outcome((0, 1), 1, 0)
    assert solve(deal, 1).exact == ()


def test_outcome_counts_tricks_already_taken() -> None:
    rng = random.Random(3)
    rules = Rules.preset("raspisnoy")
    deal = random_position(rng, rules, 3, 3, played=6)
    for seat in range(3):
        got = solve(deal, seat)
        assert got == brute_force(deal, seat)
        assert got.at_least >= deal.taken[seat]


def test_can_force_and_forcing_plays_match_the_outcome() -> None:
    rng = random.Random(11)
    rules = Rules.preset("classic").with_options({"joker_lead_modes": "high,low"})
    for _ in range(30):
        deal = random_position(rng, rules, 3, 3, played=rng.randrange(4))
        seat = deal.to_play
        assert seat is not None
        whole = solve(deal, seat)
        solver = Solver(deal, seat)
        for tricks in range(4):
            assert solver.can_force(deal, tricks) == (tricks in whole.exact)
            keeping = solver.forcing_plays(deal, tricks)
            assert bool(keeping) == (tricks in whole.exact)
            for play in deal.legal_plays():
                child = _child(deal, seat, play.card, play.joker)
                assert (play in keeping) == (tricks in solve(child, seat).exact)


def _child(deal: Deal, seat: int, card: int, decl: object) -> Deal:
    from raspis_cli.solver.search import play_copy

    child = play_copy(deal)
    child.apply_legal(seat, card, decl)  # type: ignore[arg-type]
    return child


@pytest.mark.slow
def test_kernel_trick_rule_matches_the_engine() -> None:
    """The kernel's legal natural cards and trick winner are the engine's:
    random positions (jokers, every preset, shuffled options), each legal
    natural card of the seat to play, and every legal play that completes
    the trick scored by both."""
    rng = random.Random(7)
    followed = finished = 0
    for _ in range(600):
        rules = random_rules(rng)
        players = rng.randint(2, 5)
        cards = rng.randint(1, (rules.deck - len(rules.deck_cards.jokers)) // players)
        deal = random_position(rng, rules, players, cards, joker_chance=0.8)
        if deal.done:
            continue
        seat = deal.to_play
        assert deal.hands is not None and seat is not None
        solver = Solver(deal, 0)
        solver._load(deal)  # the position in the kernel's workspace
        w = solver._w
        got = sk.follow_naturals(deal.hands[seat], len(deal.trick), w)
        assert got == deal.legal_naturals(), (rules, deal.hands, deal.trick)
        followed += 1
        if len(deal.trick) != players - 1:
            continue
        for play in deal.legal_plays():
            trick = [*deal.trick, (seat, int(play.card), play.joker)]
            w[sk.TC + players - 1] = int(play.card)
            w[sk.TD + players - 1] = decl_code(play.joker)
            expected = trick_winner(trick, rules, deal.deck.joker_mask, deal.trump)
            assert sk.trick_winner(players, w) == expected, (rules, trick)
            finished += 1
    assert followed > 400 and finished > 300


def test_unknown_hands_are_refused() -> None:
    deal = Deal(Rules.preset("raspisnoy"), 3, 0, 3)
    with pytest.raises(ValueError, match="not known"):
        solve(deal, 0)


def test_a_joker_declared_as_a_card_ties_with_it() -> None:
    """A joker led 'as 7♦' beats a real 7♦ played after it (the earlier of
    equal cards wins) but not the 8♦: the two are different moves although
    no live card lies between them (found by the random agreement test)."""
    rules = Rules.preset("georgian")
    for dealer in (0, 1):
        deal = Deal(rules, 2, dealer, 2, "normal", Suit.S, [hand("7S 7C"), hand("7D 8D")])
        if deal.leader == 0:
            break
    deal.skip_bidding()
    deal.apply_legal(0, Card.parse("7S"), JokerDecl("as", card=Card.parse("7D")))
    assert brute_force(deal, 1) == Outcome((0, 2), 2, 0)
    assert solve(deal, 1) == Outcome((0, 2), 2, 0)


def test_more_players_than_the_kernel_takes_are_refused() -> None:
    rules = Rules.preset("joker54")
    hands = [1 << card for card in range(9)]
    deal = Deal(rules, 9, 0, 1, "normal", Suit.H, hands)
    deal.skip_bidding()
    with pytest.raises(ValueError, match="up to 8 players"):
        solve(deal, 0)


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_loses_one_is_a_sound_bound(preset: str) -> None:
    """Where the kernel's ``loses_one`` says the player can surely lose one of
    the tricks left, brute force agrees: the player can hold itself to one
    trick fewer than it has left."""
    rng = random.Random(f"loses_one/{preset}")
    fired = 0
    for _ in range(1500):
        deal, player = random_small_case(rng, [preset])
        if deal.trick or deal.done:
            continue
        solver = Solver(deal, player)
        left = solver._load(deal)
        if not sk.loses_one(solver._w):
            continue
        try:
            expected = brute_force(deal, player)
        except ValueError:
            continue
        assert expected.at_most <= deal.taken[player] + left - 1, (
            deal.rules, deal.hands, deal.leader, player)
        fired += 1
    assert fired >= 20, fired


def test_table_key_of_up_to_four_hands_matches_the_general_key() -> None:
    """:func:`kernel.make_key` keeps up to four hands in locals; the key words
    and hash must be those of the loop over every hand (``_make_key_wide``),
    with ranks renumbered and without, jokers held or not."""
    rng = random.Random("make-key")
    w = [0] * sk.W_LEN
    deck_suits = [((1 << 13) - 1) << 13 * suit for suit in range(4)]
    w[sk.MA:sk.MA + 6] = [*deck_suits, 3 << 52, (1 << 52) - 1]
    renumbered = 0
    for _ in range(3000):
        players = rng.choice([2, 3, 4])
        w[sk.RU + sk.R_PLAYERS] = players
        w[sk.RU + sk.R_AS_LIVE_OK] = rng.choice([0, 1])
        cards = list(range(54))
        rng.shuffle(cards)
        size = rng.randint(1, 13)
        for seat in range(8):
            w[sk.HA + seat] = 0
        for seat in range(players):
            w[sk.HA + seat] = sum(1 << c for c in cards[seat * size:(seat + 1) * size])
        w[sk.ST + sk.S_LEADER] = rng.randrange(players)
        fast = sk.make_key(0, w)
        general = sk._make_key_wide(sk.KEY_WORDS, w)
        assert fast == general
        assert w[sk.KB:sk.KB + players] == w[sk.KB + sk.KEY_WORDS:sk.KB + sk.KEY_WORDS + players]
        live = sum(w[sk.HA + seat] for seat in range(players))
        renumbered += w[sk.RU + sk.R_AS_LIVE_OK] != 0 or not live & (3 << 52)
    assert 500 < renumbered < 2900  # both kinds of key were made
