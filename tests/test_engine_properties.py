"""Property tests: random legal play never trips the engine, and the list of
legal actions and the checker of recorded actions never disagree."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from raspis_cli.engine import Deal, Game, Play, Violation, trick_winner
from raspis_cli.model.cards import Suit, cards_of
from raspis_cli.rules import KINDS, OPTIONS, PRESETS, Rules, RulesError
from raspis_cli.rules.options import OptionSpec
from raspis_cli.rules.schedule import schedule_for
from tests.enginekit import all_declarations, clone, random_hands, random_trump, run_deal, run_game

NOT_DRAWN: Final = frozenset({"players", "schedule"})
"""Options the tests set themselves: the player count is drawn within the
rules' range, and single deals are played under the free schedule."""


def option_values(spec: OptionSpec) -> Sequence[object]:
    """Values of one option a table may set (as with ``--set``), read off the
    option table: every choice and both booleans; for a set of modes or kinds
    all of them and each with one left out; for points a penalty, nothing and
    a bonus."""
    if spec.type_name == "bool":
        return [True, False]
    if spec.type_name == "choice":
        return list(spec.choices)
    if spec.type_name in ("modes", "kinds"):
        return [" ".join(spec.choices)] + [" ".join(c for c in spec.choices if c != left)
                                           for left in spec.choices]
    if spec.type_name == "int":
        return [-50, 0, 10]
    raise AssertionError(f"option {spec.name}: a type ({spec.type_name}) the property tests "
                         "do not know how to vary; add it to option_values")


OVERRIDES: Final[list[dict[str, object]]] = [
    {name: value} for name, spec in OPTIONS.items() if name not in NOT_DRAWN
    for value in option_values(spec)
]
"""Every value of every option, one choice each: generated from the option
table, so a new option or value is exercised without editing a list here."""


def test_every_option_value_is_drawn() -> None:
    drawn = {(name, str(value)) for override in OVERRIDES for name, value in override.items()}
    for name, spec in OPTIONS.items():
        if name in NOT_DRAWN:
            continue
        assert name in {n for n, _ in drawn}
        for choice in spec.choices if spec.type_name == "choice" else ():
            assert (name, choice) in drawn


MODEST = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def tables(draw: st.DrawFn, free: bool = False) -> tuple[Rules, int]:
    """A preset with a few overrides, and an allowed player count."""
    preset = draw(st.sampled_from(PRESETS))
    chosen = draw(st.lists(st.sampled_from(range(len(OVERRIDES))), max_size=3, unique=True))
    options: dict[str, Any] = {}
    for index in chosen:
        options.update(OVERRIDES[index])
    if free:
        options["schedule"] = "free"
    try:
        rules = Rules.preset(preset).with_options(options)
    except RulesError:
        reject()  # a combination the rules refuse (e.g. a joker in a deck without one)
    low, high = rules.players
    players = draw(st.integers(low, min(high, rules.deck // 2)))
    return rules, players


def _open_deal(rules: Rules, players: int, cards_each: int, kind: str,
               rng: random.Random) -> Deal:
    """A freshly dealt deal of a free-schedule game, checked clean."""
    game = Game(rules, players)
    dealer = rng.randrange(players)
    hands, stock = random_hands(rules, players, cards_each, rng)
    trump = random_trump(rules, kind, dealer, hands, stock, rng)
    deal, problems = game.start_deal(1, kind, dealer, cards_each, trump, True, hands)
    assert problems == []
    return deal


@MODEST
@given(table=tables(free=True), kind=st.sampled_from(KINDS), data=st.data(),
       seed=st.integers(0, 2**32))
def test_random_legal_deal_is_clean(table: tuple[Rules, int], kind: str, data: st.DataObject,
                                    seed: int) -> None:
    rules, players = table
    cards_each = data.draw(st.integers(1, rules.max_cards(players)), label="cards")
    rng = random.Random(seed)
    deal = _open_deal(rules, players, cards_each, kind, rng)
    assert run_deal(deal, rng) == []
    assert deal.done
    assert sum(deal.taken) == cards_each
    assert len(deal.history) == cards_each
    assert deal.hands is not None and not any(deal.hands)
    assert all(len(t.entries) == players for t in deal.history)
    assert deal.revokes == 0
    assert all(reason == "joker-lead" for _, _, reason in deal.penalty_notes)
    scores = deal.scores()
    assert len(scores) == players


@settings(max_examples=40, deadline=None)
@given(table=tables(), seed=st.integers(0, 2**32))
def test_random_legal_game_is_clean(table: tuple[Rules, int], seed: int) -> None:
    rules, players = table
    run = run_game(rules, players, random.Random(seed))
    assert run.violations == []
    assert run.deals, "a schedule has deals"
    for deal in run.deals:
        assert deal.done and sum(deal.taken) == deal.cards
    assert run.game.totals == [sum(d.scores()[s] for d in run.deals) for s in range(players)]


def _check_agreement(deal: Deal, rules: Rules) -> None:
    """Every legal play checks clean; every other card held (or joker
    declaration) is reported."""
    seat = deal.to_play
    assert seat is not None and deal.hands is not None
    legal = deal.legal_plays()
    assert legal, "a player always has a legal play"
    assert len(set(legal)) == len(legal)
    listed = set(legal)
    declarations = all_declarations(rules)
    for card in cards_of(deal.hands[seat]):
        if rules.deck_cards.is_joker(card):
            candidates = [Play(card)] + [Play(card, d) for d in declarations]
        else:
            candidates = [Play(card)]
        for play in candidates:
            found = clone(deal).play(seat, play.card, play.joker)
            if play in listed:
                assert found == [], (play, found)
            else:
                assert found, f"{play} is not listed as legal, yet the checker accepts it"
                assert all(v.seat == seat for v in found)
    for play in legal:
        assert deal.hands[seat] >> play.card & 1


def _check_bids(deal: Deal) -> None:
    """Every listed bid checks clean; every other one in -1..cards+1 does not."""
    seat = deal.next_bidder
    assert seat is not None
    legal = deal.legal_bids()
    assert legal, "a player always has a legal bid"
    for bid in range(-1, deal.cards + 2):
        found = clone(deal).bid(seat, bid)
        assert (found == []) == (bid in legal), (bid, legal, found)


@MODEST
@given(table=tables(free=True), kind=st.sampled_from(KINDS), data=st.data(),
       seed=st.integers(0, 2**32))
def test_legal_lists_and_checker_agree(table: tuple[Rules, int], kind: str, data: st.DataObject,
                                       seed: int) -> None:
    rules, players = table
    cards_each = data.draw(st.integers(1, min(rules.max_cards(players), 6)), label="cards")
    rng = random.Random(seed)
    deal = _open_deal(rules, players, cards_each, kind, rng)
    streaks = data.draw(st.lists(st.integers(0, 3), min_size=players, max_size=players),
                        label="pass streaks")
    deal.pass_streaks = streaks
    while deal.next_bidder is not None:
        _check_bids(deal)
        deal.bid(deal.next_bidder, rng.choice(deal.legal_bids()))
    while not deal.done:
        _check_agreement(deal, rules)
        seat = deal.to_play
        assert seat is not None
        play = rng.choice(deal.legal_plays())
        assert deal.play(seat, play.card, play.joker) == []
    assert sum(deal.taken) == cards_each


def _every_count() -> list[tuple[str, int]]:
    """Each preset with each player count it allows."""
    out = []
    for preset in PRESETS:
        low, high = Rules.preset(preset).players
        out += [(preset, n) for n in range(low, high + 1)]
    return out


@pytest.mark.parametrize(("preset", "players"), _every_count())
def test_every_preset_player_count_and_kind(preset: str, players: int) -> None:
    rules = Rules.preset(preset)
    top = rules.max_cards(players)
    for kind in KINDS:
        for cards_each in (1, top):
            rng = random.Random(f"{preset}/{players}/{kind}/{cards_each}")
            free = rules.with_options({"schedule": "free"})
            deal = _open_deal(free, players, cards_each, kind, rng)
            assert run_deal(deal, rng) == [], (kind, cards_each)
            assert sum(deal.taken) == cards_each
    run = run_game(rules, players, random.Random(players))
    assert run.violations == []
    listed = len(schedule_for(rules, players).listing)
    assert len(run.deals) > listed if rules.control_deals else len(run.deals) == listed
    assert all(sum(d.taken) == d.cards for d in run.deals)


def _state(deal: Deal) -> tuple[object, ...]:
    """What a trick changes: hands, taken, leader, trick number, phase, the
    last trick's winner, led suit and trump."""
    last = deal.history[-1] if deal.history else None
    return (deal.hands, deal.taken, deal.leader, deal.trick_number, deal.phase, deal.trick,
            deal.penalties, deal.revokes,
            None if last is None else (last.winner, last.led_suit, last.trump, last.entries))


def _bid_deal(table: tuple[Rules, int], kind: str, data: st.DataObject,
              seed: int) -> tuple[Rules, int, random.Random, Deal]:
    """A freshly dealt deal of up to 8 cards each, bid legally: the rules,
    the players, the random source and the deal."""
    rules, players = table
    cards_each = data.draw(st.integers(1, min(rules.max_cards(players), 8)), label="cards")
    rng = random.Random(seed)
    deal = _open_deal(rules, players, cards_each, kind, rng)
    while deal.next_bidder is not None:
        deal.bid(deal.next_bidder, rng.choice(deal.legal_bids()))
    return rules, players, rng, deal


def _same_then_go_on(applied: bool, deal: Deal, fast: Deal, slow: Deal,
                     rng: random.Random) -> None:
    """A whole-trick path's state against the card-by-card one (``slow``)
    when it applied the trick, against the state before (``deal``) when it
    refused; then ``deal`` goes on with a legal trick."""
    if applied:
        assert _state(fast) == _state(slow)
    else:
        assert _state(fast) == _state(deal)
    while True:
        turn = deal.to_play
        assert turn is not None
        play = rng.choice(deal.legal_plays())
        deal.play(turn, play.card, play.joker)
        if not deal.trick:
            break


@MODEST
@given(table=tables(free=True), kind=st.sampled_from(KINDS), data=st.data(),
       seed=st.integers(0, 2**32))
def test_plain_trick_fast_path_agrees_with_card_by_card(
        table: tuple[Rules, int], kind: str, data: st.DataObject, seed: int) -> None:
    rules, players, rng, deal = _bid_deal(table, kind, data, seed)
    while not deal.done:
        assert deal.hands is not None
        # any cards held, in turn (sometimes out of turn), legal or not
        seats = [(deal.leader + i) % players for i in range(players)]
        if rng.random() < 0.1:
            rng.shuffle(seats)
        chosen = [rng.choice(list(cards_of(deal.hands[s]))) for s in seats]
        slow = clone(deal)
        found = []
        for seat, card in zip(seats, chosen, strict=True):
            decl = None
            if rules.deck_cards.is_joker(card):
                options = [p.joker for p in slow.legal_plays() if p.card == card]
                decl = options[0] if options else None
            found += slow.play(seat, card, decl)
        fast = clone(deal)
        applied = fast.play_plain_trick(seats, chosen)
        plain = not found and not any(rules.deck_cards.is_joker(c) for c in chosen)
        assert applied == plain, (seats, chosen, found)
        _same_then_go_on(applied, deal, fast, slow, rng)


@MODEST
@given(table=tables(free=True), kind=st.sampled_from(KINDS), data=st.data(),
       seed=st.integers(0, 2**32))
def test_whole_trick_path_with_jokers_agrees_with_card_by_card(
        table: tuple[Rules, int], kind: str, data: st.DataObject, seed: int) -> None:
    """:meth:`Deal.play_trick` (a joker's trick included) applies a trick
    exactly when playing it card by card finds nothing wrong, and then leaves
    the same state (winner, penalties, hands); otherwise it changes nothing.
    The jokers are played whenever held, declared as the rules allow or (one
    time in three) with any declaration that can be written, or none."""
    rules, players, rng, deal = _bid_deal(table, kind, data, seed)
    deck = rules.deck_cards
    anything = [*all_declarations(rules), None]
    while not deal.done:
        assert deal.hands is not None
        seats = [(deal.leader + i) % players for i in range(players)]
        if rng.random() < 0.1:
            rng.shuffle(seats)
        slow = clone(deal)
        chosen: list[int] = []
        decls: list[Any] = []
        found: list[Violation] = []
        for seat in seats:
            assert slow.hands is not None
            held = list(cards_of(deal.hands[seat]))
            jokers = [c for c in held if deck.is_joker(c)]
            card = rng.choice(jokers) if jokers and rng.random() < 0.7 else rng.choice(held)
            decl = None
            if deck.is_joker(card):
                legal = [p.joker for p in slow.legal_plays() if p.card == card]
                decl = rng.choice(legal) if legal and rng.random() < 0.67 else rng.choice(anything)
            elif rng.random() < 0.05:
                decl = rng.choice(anything)  # written on a natural card: ignored
            chosen.append(card)
            decls.append(decl)
            if found and any(v.kind in ("not-in-hand", "unknown-card") for v in found):
                continue
            found += slow.play(seat, card, decl)
        fast = clone(deal)
        applied = fast.play_trick(seats, chosen, decls)
        assert applied == (not found), (seats, chosen, decls, found)
        _same_then_go_on(applied, deal, fast, slow, rng)


@MODEST
@given(table=tables(free=True), kind=st.sampled_from(KINDS), data=st.data(),
       seed=st.integers(0, 2**32))
def test_apply_legal_agrees_with_play(table: tuple[Rules, int], kind: str, data: st.DataObject,
                                      seed: int) -> None:
    """The unchecked path of the simulator: for every legal play,
    ``apply_legal`` leaves the state ``play`` leaves (penalties and the
    trick's winner included), and the natural cards and joker plays listed
    apart are :meth:`Deal.legal_plays`."""
    rules, players = table
    cards_each = data.draw(st.integers(1, min(rules.max_cards(players), 8)), label="cards")
    rng = random.Random(seed)
    deal = _open_deal(rules, players, cards_each, kind, rng)
    while deal.next_bidder is not None:
        deal.bid(deal.next_bidder, rng.choice(deal.legal_bids()))
    fast = clone(deal)
    while not deal.done:
        seat = deal.to_play
        assert seat is not None
        plays = deal.legal_plays()
        naturals = [Play(c) for c in cards_of(fast.legal_naturals())]
        assert naturals + fast.legal_joker_plays() == plays
        play = rng.choice(plays)
        assert deal.play(seat, play.card, play.joker) == []
        fast.apply_legal(seat, play.card, play.joker)
        assert _state(fast) == _state(deal)
        assert fast.penalty_notes == deal.penalty_notes
    assert fast.legal_naturals() == 0 and fast.legal_joker_plays() == []


@pytest.mark.parametrize("preset", PRESETS)
def test_trick_winner_without_jokers(preset: str) -> None:
    """A trick without a joker goes to the highest trump, else to the highest
    card of the suit led (the trump of circular trumps follows the suit led)."""
    rng = random.Random(preset)
    for circular in (False, True):
        rules = Rules.preset(preset).with_options({"circular_trumps": circular})
        deck = [c for c in rules.deck_cards.cards if not rules.deck_cards.is_joker(c)]
        for _ in range(300):
            trick = [(seat, card, None) for seat, card in enumerate(rng.sample(deck, 4))]
            deal_trump = rng.choice([None, *Suit])
            led = trick[0][1] // 13
            trump = (led + 1) % 4 if circular else deal_trump

            def key(card: int, led: int = led, trump: Suit | int | None = trump) -> int:
                if card // 13 == trump:
                    return 200 + card % 13
                return 100 + card % 13 if card // 13 == led else 0

            want = max(range(4), key=lambda i: key(trick[i][1]))
            assert trick_winner(trick, rules, rules.deck_cards.joker_mask, deal_trump) == want


@MODEST
@given(table=tables(free=True), kind=st.sampled_from(KINDS), data=st.data(),
       seed=st.integers(0, 2**32))
def test_a_plain_declaration_plays_as_the_one_it_stands_for(table: tuple[Rules, int], kind: str,
                                                            data: st.DataObject, seed: int) -> None:
    """:meth:`Deal.plain_declaration` (how the analysis says two declarations
    once): wherever a joker's declaration has a plainer form, the plainer one
    is legal too, and the deal played on the same way after either ends with
    the same tricks won by the same players."""
    _rules, _players, rng, deal = _bid_deal(table, kind, data, seed)
    compared = 0
    while not deal.done:
        seat = deal.to_play
        assert seat is not None
        plays = deal.legal_plays()
        for play in plays:
            if play.joker is None or deal.plain_declaration(play.joker) == play.joker:
                continue
            plain = Play(play.card, deal.plain_declaration(play.joker))
            assert plain in plays, (play, plain)
            ends = []
            for chosen in (play, plain):
                child, after = clone(deal), random.Random(seed + compared)
                child.apply_legal(seat, chosen.card, chosen.joker)
                while not child.done:
                    who = child.to_play
                    assert who is not None
                    step = after.choice(child.legal_plays())
                    child.apply_legal(who, step.card, step.joker)
                ends.append([(t.winner, t.entries[0][1]) for t in child.history])
            assert ends[0] == ends[1], (play, plain)
            compared += 1
        play = rng.choice(plays)
        deal.apply_legal(seat, play.card, play.joker)
