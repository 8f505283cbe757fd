"""Each option of ``raspis_cli/rules/options.py`` changes an outcome.

Every test here is registered with :func:`flips` under the options it flips;
``test_every_option_has_a_flip_test`` fails when an option exists that no
test flips.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from raspis_cli.engine import Deal, Game, JokerDecl, Play, TrumpInput, bid_score
from raspis_cli.judge.replay import replay_game
from raspis_cli.model.cards import Suit, parse_card
from raspis_cli.model.record import DealRecord, GameRecord, PlayRecord
from raspis_cli.rules import OPTIONS, Rules
from raspis_cli.rules.schedule import schedule_for
from raspis_cli.rules.values import DealKind
from tests.enginekit import cards, deal_of, kinds_of, random_hands, rules_of

FLIPPED: set[str] = set()

TestFunction = Callable[[], None]


def flips(*names: str) -> Callable[[TestFunction], TestFunction]:
    """Register a test as showing that flipping these options changes an outcome."""
    for name in names:
        assert name in OPTIONS, name
    FLIPPED.update(names)

    def register(test: TestFunction) -> TestFunction:
        return test

    return register


@pytest.mark.parametrize("name", list(OPTIONS))
def test_every_option_has_a_flip_test(name: str) -> None:
    assert name in FLIPPED, f"no test shows that option {name!r} changes anything"


def _legal_cards(deal: Deal) -> set[str]:
    """The codes of the cards among the legal plays."""
    return {p.card.code for p in deal.legal_plays()}


def _legal_modes(deal: Deal) -> set[str]:
    """The joker modes among the legal plays."""
    return {p.joker.mode for p in deal.legal_plays() if p.joker is not None}


def _winner(rules: Rules, hands: list[str], plays: list[tuple[str, JokerDecl | None]],
            trump: Suit | None = Suit.H) -> tuple[int, list[str]]:
    """Play one trick (seat 0 leads) and return the winning seat and the
    kinds of violations met."""
    deal = deal_of(rules, hands, trump=trump)
    found = []
    for seat, (card, decl) in enumerate(plays):
        found += deal.play(seat, parse_card(card), decl)
    assert deal.done
    return deal.history[0].winner, kinds_of(found)


# --- deck and cards ----------------------------------------------------------


@flips("deck")
def test_deck() -> None:
    two = parse_card("2H")
    for rules, kinds in ((rules_of(), ["unknown-card"]), (rules_of(deck=54), [])):
        deal = Deal(rules, 3, 2, 1)
        deal.skip_bidding()
        assert kinds_of(deal.play(0, two)) == kinds
    assert rules_of().max_cards(4) == 9
    assert rules_of(deck=54).max_cards(4) == 13


@flips("joker")
def test_joker() -> None:
    hands = ["9S", "7S 8H", "10S"]

    def after_lead(rules: Rules) -> set[str]:
        deal = deal_of(rules, hands, trump=Suit.D)
        deal.play(0, parse_card("9S"))
        return _legal_cards(deal)

    # 7♠ the joker: it has no suit, so the holder is void in spades
    assert after_lead(rules_of()) == {"7S", "8H"}
    # no joker, or 6♠: 7♠ is a spade and must follow
    assert after_lead(rules_of(joker="none")) == {"7S"}
    assert after_lead(rules_of(joker="6S")) == {"7S"}


@flips("players")
def test_players() -> None:
    assert kinds_of(Game(rules_of(), 6).player_problems()) == ["players"]
    assert Game(rules_of(players="3-6"), 6).player_problems() == []
    assert kinds_of(Game(rules_of(players="4-5"), 3).player_problems()) == ["players"]


# --- trump ---------------------------------------------------------------------


@flips("full_deal_trump")
def test_full_deal_trump() -> None:
    rng = random.Random(3)
    hands, _ = random_hands(rules_of(), 4, 9, rng)
    dealer = 3
    own = next(c for c in hands[dealer] if c.code != "7S")
    other = next(c for c in hands[0] if c.code != "7S")

    def problems(rules: Rules, trump: TrumpInput) -> list[str]:
        game = Game(rules.with_options({"schedule": "free"}), 4)
        _, found = game.start_deal(1, "normal", dealer, 9, trump, True, hands)
        return kinds_of(found)

    assert problems(rules_of(), own) == []
    assert problems(rules_of(), other) == ["trump"]
    assert problems(rules_of(full_deal_trump="last-card"), other) == ["trump"]
    assert problems(rules_of(full_deal_trump="random-card"), other) == []
    assert problems(rules_of(full_deal_trump="none"), own) == ["trump"]
    assert problems(rules_of(full_deal_trump="none"), None) == []


@flips("circular_trumps")
def test_circular_trumps() -> None:
    # lead 9♠, A♠ follows, 6♣ from a player void in spades: ♣ follows ♠
    hands = ["9S", "AS", "6C"]
    plays: list[tuple[str, JokerDecl | None]] = [("9S", None), ("AS", None), ("6C", None)]
    assert _winner(rules_of(), hands, plays) == (1, [])
    assert _winner(rules_of(circular_trumps=True), hands, plays) == (2, [])
    # the deal's trump is ignored under circular trumps
    assert _winner(rules_of(circular_trumps=True), hands, plays, trump=Suit.S) == (2, [])


# --- schedule ----------------------------------------------------------------------


@flips("schedule")
def test_schedule() -> None:
    def first_deal(rules: Rules) -> list[str]:
        _, found = Game(rules, 4).start_deal(1, "normal", 0, 2)
        return kinds_of(found)

    assert first_deal(rules_of()) == ["schedule"]
    assert first_deal(rules_of(schedule="joker54")) == []
    assert first_deal(rules_of(schedule="free")) == []
    assert len(schedule_for(rules_of(schedule="classic"), 4).listing) == 36


@flips("ladder_down")
def test_ladder_down() -> None:
    plain = schedule_for(rules_of(), 3).listing
    ladder = schedule_for(rules_of(ladder_down=True), 3).listing
    assert (plain[14].cards, plain[14].kind) == (12, "no-trump")
    assert (ladder[14].cards, ladder[14].kind) == (11, "normal")
    game = Game(rules_of(ladder_down=True), 3)
    game.scored_deals = 26
    assert kinds_of(game.finish()) == ["schedule"]


@flips("ladder")
def test_ladder() -> None:
    for schedule in ("raspisnoy", "blocks"):
        with_ladder = schedule_for(rules_of(schedule=schedule), 3).listing
        without = schedule_for(rules_of(schedule=schedule, ladder=False), 3).listing
        assert [d.cards for d in with_ladder[:3]] == [1, 2, 3]
        assert [d.cards for d in without[:3]] == [12, 12, 12]
        # raspisnoy's ladder ends at M, one of the N deals of M; blocks' at L (12 for 3 players)
        assert len(with_ladder) - len(without) == {"raspisnoy": 11, "blocks": 12}[schedule]


@flips("control_deals")
def test_control_deals() -> None:
    """After the schedule: a control deal of a kind played, any dealer; then
    another only while the most points are shared."""
    rules = rules_of("online36")
    game = Game(rules, 3)
    schedule = schedule_for(rules, 3)
    for number, planned in enumerate(schedule.listing, start=1):
        deal, problems = game.start_deal(number, planned.kind, (number - 1) % 3, planned.cards)
        assert problems == []
        game.finish_deal(deal, [10 * number, 0, 0] if number == 1 else [0, 0, 0])
    assert kinds_of(game.finish()) == ["schedule"]  # the control deal is missing
    # the control deal: a percent deal of 4, dealt by the first player out of turn
    deal, problems = game.start_deal(31, "percent", 0, 4)
    assert problems == []
    game.finish_deal(deal, [0, 0, 0])
    assert game.finish() == []  # one player leads alone: the game is over
    _, problems = game.start_deal(32, "normal", 1, 12)
    assert kinds_of(problems) == ["schedule"]  # decided: no further control deal
    # without the option the game ends with the schedule, and a 31st deal is off it
    plain = Game(rules.with_options({"control_deals": False}), 3)
    for number, planned in enumerate(schedule.listing, start=1):
        deal, _ = plain.start_deal(number, planned.kind, (number - 1) % 3, planned.cards)
        plain.finish_deal(deal, [0, 0, 0])
    assert plain.finish() == []
    _, problems = plain.start_deal(31, "percent", 0, 4)
    assert "schedule" in kinds_of(problems)
    # a control deal of a kind the game did not play, or of the wrong size
    assert schedule.problem(30, 12, "forehead") is not None
    assert schedule.problem(30, 12, "percent") is not None
    assert schedule.problem(30, 12, "miser") is None


@flips("trump_card")
def test_trump_card() -> None:
    rng = random.Random(5)
    hands, stock = random_hands(rules_of(), 3, 5, rng)
    dealers_own = hands[2][-1]

    def problems(rules: Rules, trump: TrumpInput) -> list[str]:
        return kinds_of(Game(rules, 3).start_deal(1, "normal", 2, 5, trump, True, hands)[1])

    turned_up, dealer_last = rules_of(schedule="free"), rules_of(schedule="free", trump_card="dealer-last")
    assert problems(turned_up, stock[0]) == []
    assert problems(turned_up, dealers_own) == ["duplicate-card"]
    assert problems(dealer_last, dealers_own) == []
    assert problems(dealer_last, stock[0]) == ["trump"]


@flips("specials")
def test_specials() -> None:
    assert {d.kind for d in schedule_for(rules_of(specials="miser"), 3).listing} == {
        "normal", "miser"}
    assert {d.kind for d in schedule_for(rules_of(), 3).listing} == {
        "normal", "no-trump", "dark", "miser", "golden"}


# --- bidding -------------------------------------------------------------------------


@flips("dealer_restriction")
def test_dealer_restriction() -> None:
    def dealer_bids(rules: Rules) -> list[int]:
        deal = Deal(rules, 3, 2, 5)
        deal.bid(0, 2)
        deal.bid(1, 1)
        return deal.legal_bids()

    assert dealer_bids(rules_of()) == [0, 1, 3, 4, 5]
    assert dealer_bids(rules_of(dealer_restriction="no-full-bid")) == [0, 1, 2, 3, 4]
    assert dealer_bids(rules_of(dealer_restriction="off")) == [0, 1, 2, 3, 4, 5]


@flips("third_pass")
def test_third_pass() -> None:
    streaks = [2, 1, 0]
    assert Deal(rules_of(), 3, 2, 3, pass_streaks=streaks).legal_bids() == [0, 1, 2, 3]
    strict = Deal(rules_of(third_pass=True), 3, 2, 3, pass_streaks=streaks)
    assert strict.legal_bids() == [1, 2, 3]
    assert kinds_of(strict.bid(0, 0)) == ["third-pass"]
    # a second pass in a row is still allowed
    assert strict.legal_bids() == [0, 1, 2, 3]


def test_third_pass_players_forbids_as_many_passes_in_a_row_as_there_are_players() -> None:
    """``third_pass: players``: with four players the fourth pass in a row is
    forbidden, the third is not; with three it is ``true``'s third."""
    rules = rules_of(third_pass="players", dealer_restriction="off")
    four = Deal(rules, 4, 3, 3, pass_streaks=[3, 2, 0, 0])
    assert four.legal_bids() == [1, 2, 3]  # seat 0 passed in three deals already
    assert kinds_of(four.bid(0, 0)) == ["third-pass"]
    assert four.legal_bids() == [0, 1, 2, 3]  # seat 1: a third pass of four players is allowed
    three = Deal(rules, 3, 2, 3, pass_streaks=[2, 1, 0])
    assert three.legal_bids() == [1, 2, 3]
    assert Rules.preset("raspisnoy").with_options({"third_pass": "players"}).third_pass == "players"


# --- play ---------------------------------------------------------------------------------


@flips("void")
def test_void() -> None:
    hands = ["KD", "6H 9C", "AD"]

    def second(rules: Rules) -> set[str]:
        deal = deal_of(rules, hands, trump=Suit.H)
        deal.play(0, parse_card("KD"))
        return _legal_cards(deal)

    assert second(rules_of()) == {"6H", "9C"}
    assert second(rules_of(void="must-trump")) == {"6H"}


def test_void_must_trump_high_wants_the_highest_trump_against_a_high_demand() -> None:
    """``void: must-trump-high``: void in the suit a joker demands по старшим,
    the highest trump; against a natural lead (and a ``lowest`` demand) any
    trump, as under ``must-trump``."""
    rules = rules_of(void="must-trump-high", joker_lead_modes="high lowest")
    hands = ["7S 6S", "6H 10H 9C", "AD"]
    deal = deal_of(rules, hands, trump=Suit.H)
    deal.play(0, parse_card("7S"), JokerDecl("high", Suit.D))
    assert _legal_cards(deal) == {"10H"}
    assert kinds_of(deal.play(1, parse_card("6H"))) == ["must-trump"]
    lowest = deal_of(rules, hands, trump=Suit.H)
    lowest.play(0, parse_card("7S"), JokerDecl("lowest", Suit.D))
    assert _legal_cards(lowest) == {"6H", "10H"}
    plain = deal_of(rules, ["6S", "6H 10H 9C", "AD"], trump=Suit.H)
    plain.play(0, parse_card("6S"))
    assert _legal_cards(plain) == {"6H", "10H"}
    must_trump = deal_of(rules_of(void="must-trump", joker_lead_modes="high"), hands, trump=Suit.H)
    must_trump.play(0, parse_card("7S"), JokerDecl("high", Suit.D))
    assert _legal_cards(must_trump) == {"6H", "10H"}


@flips("first_leader")
def test_first_leader() -> None:
    for rules, leader in ((rules_of(), 0), (rules_of(first_leader="dealer"), 2)):
        deal = Deal(rules, 3, 2, 4)
        for seat in (0, 1, 2):
            deal.bid(seat, 1)
        assert deal.to_play == leader


# --- the joker ------------------------------------------------------------------------------


@flips("joker_lead_modes")
def test_joker_lead_modes() -> None:
    hands = ["7S 9H", "8H 6D", "AH 6C"]
    assert _legal_modes(deal_of(rules_of(), hands)) == {"high", "low"}
    assert _legal_modes(deal_of(rules_of(joker_lead_modes="take lowest"), hands)) == {
        "take", "lowest"}
    deal = deal_of(rules_of(), hands)
    assert kinds_of(deal.play(0, parse_card("7S"), JokerDecl("take", Suit.H))) == ["joker-mode"]


@flips("joker_follow_modes")
def test_joker_follow_modes() -> None:
    hands = ["9H", "7S 6D", "AH"]
    for rules, modes in ((rules_of(), {"take", "discard"}),
                         (rules_of(joker_follow_modes="take,as"), {"take", "as"})):
        deal = deal_of(rules, hands)
        deal.play(0, parse_card("9H"))
        assert _legal_modes(deal) == modes


@flips("joker_demand_first_trick_only")
def test_joker_demand_first_trick_only() -> None:
    for flag, modes, kinds in ((False, {"high", "low"}, []), (True, {"low"}, ["joker-mode"])):
        rules = rules_of(joker_demand_first_trick_only=flag)
        # seat 0 wins trick 1 with A♥, then leads the joker demanding the highest ♥
        deal = deal_of(rules, ["AH 7S", "7H 8H", "9H 10H"], trump=Suit.D)
        for seat, card in enumerate(("AH", "8H", "9H")):
            deal.play(seat, parse_card(card))
        assert deal.to_play == 0 and deal.trick_number == 2
        assert _legal_modes(deal) == modes
        assert kinds_of(deal.play(0, parse_card("7S"), JokerDecl("high", Suit.H))) == kinds
        # the first trick allows the demand either way
        assert "high" in _legal_modes(deal_of(rules, ["7S", "8H", "9H"]))


@flips("joker_high_winner")
def test_joker_high_winner() -> None:
    # the joker demands the highest ♦; seat 1 is void and trumps with 6♥
    hands = ["7S", "6H", "AD"]
    plays: list[tuple[str, JokerDecl | None]] = [("7S", JokerDecl("high", Suit.D)), ("6H", None),
                                                 ("AD", None)]
    assert _winner(rules_of(), hands, plays) == (0, [])
    assert _winner(rules_of(joker_high_winner="highest-trump"), hands, plays) == (1, [])
    # a high demand in the trump suit still wins
    trump_plays: list[tuple[str, JokerDecl | None]] = [("7S", JokerDecl("high", Suit.H)),
                                                       ("6H", None), ("AD", None)]
    assert _winner(rules_of(joker_high_winner="highest-trump"), hands, trump_plays) == (0, [])


@flips("joker_take_beaten_by_trump")
def test_joker_take_beaten_by_trump() -> None:
    hands = ["7S", "6H", "AD"]
    plays: list[tuple[str, JokerDecl | None]] = [("7S", JokerDecl("take", Suit.D)), ("6H", None),
                                                 ("AD", None)]
    base = rules_of(joker_lead_modes="high low take")
    assert _winner(base, hands, plays) == (0, [])
    assert _winner(base.with_options({"joker_take_beaten_by_trump": True}), hands, plays) == (1, [])


@flips("joker_low_nobody_follows")
def test_joker_low_nobody_follows() -> None:
    # low ♦, and nobody has a ♦ or a trump ♥: clubs count as led
    hands = ["7S", "9C", "KC"]
    plays: list[tuple[str, JokerDecl | None]] = [("7S", JokerDecl("low", Suit.D)), ("9C", None),
                                                 ("KC", None)]
    assert _winner(rules_of(), hands, plays) == (2, [])
    assert _winner(rules_of(joker_low_nobody_follows="joker-wins"), hands, plays) == (0, [])
    # someone follows: the joker loses either way
    followed: list[tuple[str, JokerDecl | None]] = [("7S", JokerDecl("low", Suit.D)),
                                                    ("6D", None), ("KC", None)]
    assert _winner(rules_of(joker_low_nobody_follows="joker-wins"), ["7S", "6D", "KC"],
                   followed) == (1, [])


@flips("joker_take_lead")
def test_joker_take_lead() -> None:
    """A joker led «самая старшая» (take, no suit): the second card sets the
    suit led, or (follow-freely) the others play any card; the joker wins."""
    hands = ["7S 9S", "9C 6H", "KC 8H"]
    rules = rules_of(joker_lead_modes="high,low,take")
    for free, legal, kinds in ((False, {"KC"}, ["follow-suit"]), (True, {"KC", "8H"}, [])):
        deal = deal_of(rules.with_options({"joker_take_lead": "follow-freely"}) if free else rules, hands,
                       trump=Suit.D)
        assert deal.play(0, parse_card("7S"), JokerDecl("take")) == []
        assert deal.play(1, parse_card("9C")) == []
        assert _legal_cards(deal) == legal
        assert kinds_of(deal.play(2, parse_card("8H"))) == kinds
        assert deal.taken == [1, 0, 0]


@flips("zero_total_rank")
def test_zero_total_rank() -> None:
    from raspis_cli.rules.standings import final_places

    assert final_places([0, 40, -10], "as-scored") == [2, 1, 3]
    assert final_places([0, -5, -10], "as-scored") == [1, 2, 3]
    assert final_places([0, -5, -10], "second") == [2, 1, 3]  # 0 is second, whatever the others
    assert final_places([0, 0, -10], "second") == [2, 2, 1]
    assert final_places([0, 0, 0], "second") == [1, 1, 1]
    game = Game(rules_of(zero_total_rank="second"), 3)
    game.totals = [0, -5, -10]
    assert game.winners() == [1]


@flips("two_jokers")
def test_two_jokers() -> None:
    hands = ["9H", "RJ", "BJ"]
    plays: list[tuple[str, JokerDecl | None]] = [("9H", None), ("RJ", JokerDecl("take")),
                                                 ("BJ", JokerDecl("take"))]
    later = rules_of("joker54", two_jokers="later-wins", first_leader="left-of-dealer")
    opposite = later.with_options({"two_jokers": "opposite"})
    assert _winner(later, hands, plays, trump=None) == (2, [])
    # opposite: the second joker counts as a discard, whatever it says
    assert _winner(opposite, hands, plays, trump=None) == (1, ["joker-mode"])
    deal = deal_of(opposite, hands, trump=None)
    deal.play(0, parse_card("9H"))
    deal.play(1, parse_card("RJ"), JokerDecl("take"))
    assert _legal_modes(deal) == {"discard"}


def test_two_jokers_opposite_second_joker_is_the_opposite_of_the_first_declared() -> None:
    # The first joker's declaration decides which side the second is on, even
    # when an option changes whether the first actually wins.
    base = rules_of("joker54", first_leader="left-of-dealer", joker_lead_modes="high low take")
    # low ♦ that nobody follows wins under joker-wins; the second joker, a
    # take (as it must be), is still the high one and wins (circular trumps:
    # with 54 cards only they let a leading joker name a suit; ♥ is trump)
    rules = base.with_options({"joker_low_nobody_follows": "joker-wins", "circular_trumps": True})
    plays: list[tuple[str, JokerDecl | None]] = [("RJ", JokerDecl("low", Suit.D)),
                                                 ("BJ", JokerDecl("take")), ("9C", None)]
    assert _winner(rules, ["RJ", "BJ", "9C"], plays) == (1, [])
    # high ♦ beaten by a trump under highest-trump: the second joker, a
    # discard (as it must be), is still the low one and loses to the trump
    rules = base.with_options({"joker_high_winner": "highest-trump"})
    plays = [("RJ", JokerDecl("high", Suit.D)), ("BJ", JokerDecl("discard")), ("6H", None)]
    assert _winner(rules, ["RJ", "BJ", "6H"], plays) == (2, [])


@flips("discard_suit")
def test_discard_suit() -> None:
    for rules, kinds in ((rules_of(), ["joker-mode"]), (rules_of(discard_suit="optional"), [])):
        deal = deal_of(rules, ["9H", "7S", "AH"])
        deal.play(0, parse_card("9H"))
        assert kinds_of(deal.play(1, parse_card("7S"), JokerDecl("discard"))) == kinds


# --- penalties ----------------------------------------------------------------------------------


@flips("revoke_penalty")
def test_revoke_penalty() -> None:
    for rules, penalties in ((rules_of(), [0, 0, 0]), (rules_of(revoke_penalty=-50), [0, -50, 0])):
        deal = deal_of(rules, ["KD", "9D 6C", "AD"], trump=Suit.H)
        deal.play(0, parse_card("KD"))
        assert kinds_of(deal.play(1, parse_card("6C"))) == ["follow-suit"]
        assert deal.penalties == penalties
        assert deal.revokes == 1


@flips("revoke_replay")
def test_revoke_replay() -> None:
    # the engine counts revokes (Deal.revokes); the replay acts on revoke_replay
    def problems(replay: bool) -> list[str]:
        tricks = [[PlayRecord("A", parse_card("KD")), PlayRecord("B", parse_card("6C")),
                   PlayRecord("C", parse_card("AD"))],
                  [PlayRecord("C", parse_card("8H")), PlayRecord("A", parse_card("9H")),
                   PlayRecord("B", parse_card("9D"))]]
        deal = DealRecord(number=1, kind="normal", dealer="C", cards=2, trump=parse_card("6S"),
                          hands={"A": cards("KD 9H"), "B": cards("9D 6C"), "C": cards("AD 8H")},
                          tricks=tricks)
        record = GameRecord(players=["A", "B", "C"], deals=[deal], rules_preset="raspisnoy",
                            rules_options={"schedule": "free", "revoke_replay": replay},
                            unfinished=True)
        return [p.kind for p in replay_game(record).problems]

    assert problems(False) == ["follow-suit"]
    assert problems(True) == ["follow-suit", "replay"]


@flips("joker_lead_penalty")
def test_joker_lead_penalty() -> None:
    for rules, penalty in ((rules_of(), 0), (rules_of(joker_lead_penalty=-10), -10)):
        deal = deal_of(rules, ["7S 9H", "8H 6D", "AH 6C"])
        assert deal.play(0, parse_card("7S"), JokerDecl("high", Suit.H)) == []
        assert deal.penalties == [penalty, 0, 0]
        deal.bids = [1, 0, 0]
        assert deal.scores([1, 0, 0]) == [10 + penalty, 5, 5]
    # not when the joker is the last card
    rules = rules_of(joker_lead_penalty=-10)
    deal = deal_of(rules, ["7S", "8H", "AH"])
    deal.play(0, parse_card("7S"), JokerDecl("high", Suit.H))
    assert deal.penalties == [0, 0, 0]


# --- scoring numbers ----------------------------------------------------------------------------

# option -> (kind, bid, taken, score with the raspisnoy value, the value set, score with it)
SCORING_CASES: dict[str, tuple[DealKind, int | None, int, int, int]] = {
    "exact_per_trick": ("normal", 2, 2, 20, 7),
    "exact_bonus": ("normal", 2, 2, 20, 50),
    "pass_made": ("normal", 0, 0, 5, 50),
    "under_per_missing": ("normal", 3, 1, -20, -5),
    "under_per_taken": ("normal", 3, 1, -20, 10),
    "over_per_taken": ("normal", 1, 3, 3, 10),
    "miser_zero": ("miser", None, 0, 100, 7),
    "miser_per_trick": ("miser", None, 2, -40, -3),
    "golden_zero": ("golden", None, 0, -100, 7),
    "golden_per_trick": ("golden", None, 2, 40, 3),
    "forehead_per_trick": ("forehead", 2, 2, 100, 7),
    "forehead_per_missing": ("forehead", 2, 0, -100, -3),
    "special_multiplier": ("dark", 2, 2, 20, 3),
    "percent_multiplier": ("percent", 2, 2, 60, 5),
}

EXPECTED_AFTER: dict[str, int] = {
    "exact_per_trick": 14,
    "exact_bonus": 70,
    "pass_made": 50,
    "under_per_missing": -10,
    "under_per_taken": -10,
    "over_per_taken": 30,
    "miser_zero": 7,
    "miser_per_trick": -6,
    "golden_zero": 7,
    "golden_per_trick": 6,
    "forehead_per_trick": 14,
    "forehead_per_missing": -6,
    "special_multiplier": 60,
    "percent_multiplier": 100,
}


def _register_scoring() -> None:
    """Register the parametrized scoring test under every scoring number."""
    flips(*SCORING_CASES)


_register_scoring()


@pytest.mark.parametrize("name", list(SCORING_CASES))
def test_scoring_number(name: str) -> None:
    kind, bid, taken, before, value = SCORING_CASES[name]
    assert bid_score(rules_of(), kind, bid, taken) == before
    changed = rules_of().with_options({name: value})
    assert bid_score(changed, kind, bid, taken) == EXPECTED_AFTER[name]
    # and through a deal's scores
    deal = Deal(changed, 3, 2, max(taken, 1) + 2, kind)
    if deal.has_bids:
        assert bid is not None
        deal.bids = [bid, 0, 0]
    assert deal.scores([taken, 0, 0])[0] == EXPECTED_AFTER[name]


def test_scoring_table_is_complete() -> None:
    numbers = {n for n, spec in OPTIONS.items() if spec.type_name == "int"}
    assert numbers == set(SCORING_CASES) | {"revoke_penalty", "joker_lead_penalty"}
    assert set(EXPECTED_AFTER) == set(SCORING_CASES)


def test_play_objects_compare_by_value() -> None:
    assert Play(parse_card("7S"), JokerDecl("take")) == Play(parse_card("7S"), JokerDecl("take"))


# --- score_extras: the house scoring rules ------------------------------------------------------

# value -> (kind, bid, taken, cards, score without it, score with it)
SCORE_EXTRA_CASES: dict[str, list[tuple[DealKind, int | None, int, int, int, int]]] = {
    "percent-4": [("normal", 2, 2, 4, 20, 60), ("normal", 2, 1, 4, -10, -30),
                  ("normal", 2, 2, 5, 20, 20), ("dark", 0, 0, 4, 5, 15)],
    "full-bid-double": [("normal", 3, 3, 3, 30, 60), ("no-trump", 5, 5, 5, 50, 100),
                        ("normal", 1, 1, 1, 10, 10), ("normal", 3, 2, 3, -10, -10),
                        ("normal", 2, 2, 3, 20, 20)],
    "miser-sweep": [("miser", None, 4, 4, -80, 100), ("miser", None, 3, 4, -60, -60),
                    ("miser", None, 0, 4, 100, 100), ("golden", None, 4, 4, 80, 80)],
}


flips("score_extras")


@pytest.mark.parametrize("value", list(OPTIONS["score_extras"].choices))
def test_score_extras(value: str) -> None:
    """Each house scoring rule, worked by hand: off, on, and where it does not
    apply; through bid_score, a deal's scores and explain's formula."""
    from raspis_cli.explain.reasons import score_formula

    changed = rules_of(score_extras=value)
    for kind, bid, taken, size, before, after in SCORE_EXTRA_CASES[value]:
        assert bid_score(rules_of(), kind, bid, taken, size) == before
        assert bid_score(changed, kind, bid, taken, size) == after
        deal = Deal(changed, 3, 2, size, kind)
        if deal.has_bids:
            assert bid is not None
            deal.bids = [bid, 0, 0]
        assert deal.scores([taken, 0, size - taken])[0] == after
        assert (value in score_formula(changed, kind, bid, taken, size)) == (before != after)
    with pytest.raises(ValueError):
        bid_score(changed, "normal", 1, 1)  # the card count is needed


# preset, score_extras, tricks taken in a 12-card miser deal -> the score, explain's formula
MISER_SWEEPS: list[tuple[str, str, int, int, str]] = [
    # raspisnoy: miser_per_trick -20, no multiplier
    ("raspisnoy", "", 12, -240, "-/12 → miser_per_trick -20 × 12 = -240"),
    ("raspisnoy", "miser-sweep", 12, 100, "-/12 → miser-sweep = +100"),
    ("raspisnoy", "miser-sweep", 11, -220, "-/11 → miser_per_trick -20 × 11 = -220"),
    # classic: miser_per_trick -10, special_multiplier 2, which doubles the sweep too
    ("classic", "", 12, -240, "-/12 → (miser_per_trick -10 × 12) × special_multiplier 2 = -240"),
    ("classic", "miser-sweep", 12, 200, "-/12 → (miser-sweep +100) × special_multiplier 2 = +200"),
    ("classic", "miser-sweep", 11, -220,
     "-/11 → (miser_per_trick -10 × 11) × special_multiplier 2 = -220"),
]


@pytest.mark.parametrize(("preset", "extras", "taken", "score", "formula"), MISER_SWEEPS)
def test_miser_sweep_scores_flat(preset: str, extras: str, taken: int, score: int, formula: str) -> None:
    """A 12-card miser deal with every trick taken scores +100 under
    ``miser-sweep`` in place of the per-trick penalties (the peer engine's
    «штрафы за взятки в этом случае аннулируются»), times the kind's
    multiplier; one trick fewer is the usual penalty."""
    from raspis_cli.explain.reasons import score_formula

    rules = rules_of(preset, score_extras=extras)
    assert bid_score(rules, "miser", None, taken, 12) == score
    assert score_formula(rules, "miser", None, taken, 12) == formula
    deal = Deal(rules, 3, 2, 12, "miser")
    assert deal.scores([taken, 12 - taken, 0])[0] == score


def test_miser_sweep_with_percent_4() -> None:
    """A 4-card miser deal swept under both house rules: +100, times 3."""
    rules = rules_of(score_extras="percent-4,miser-sweep")
    assert bid_score(rules, "miser", None, 4, 4) == 300
    assert bid_score(rules, "miser", None, 3, 4) == -180
