"""Each violation kind the engine owns, produced alone (RECORD-JSON.md)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from raspis_cli.engine import Deal, Game, JokerDecl, TrumpInput, Violation
from raspis_cli.model.cards import Card, Suit, parse_card
from raspis_cli.rules import Rules
from tests.enginekit import cards, deal_of, kinds_of, rules_of

FREE = rules_of(schedule="free")


def _start(rules: Rules, players: int, hands: Sequence[str] | None, *, kind: str = "normal",
           trump: TrumpInput = None, trump_given: bool = False, cards_each: int | None = None,
           number: int = 1, dealer: int = 0) -> list[Violation]:
    """The violations of opening one deal of a fresh game."""
    game = Game(rules, players)
    dealt = [cards(h) for h in hands] if hands is not None else None
    size = cards_each if cards_each is not None else len(dealt[0]) if dealt else 1
    _, found = game.start_deal(number, kind, dealer, size, trump, trump_given, dealt)
    return found


def test_players() -> None:
    found = Game(rules_of(), 2).player_problems()
    assert kinds_of(found) == ["players"]
    assert found[0].at == "players"
    assert Game(rules_of(), 3).player_problems() == []


def test_dealer_order() -> None:
    game = Game(FREE, 3)
    deal, found = game.start_deal(1, "normal", 0, 1)
    assert found == []
    game.finish_deal(deal, [0, 0, 0])
    _, found = game.start_deal(2, "normal", 2, 1)
    assert kinds_of(found) == ["dealer-order"]
    assert found[0].seat == 2


def test_dealer_stays_after_a_replayed_deal() -> None:
    game = Game(FREE, 3)
    deal, _ = game.start_deal(1, "normal", 0, 1, replayed=True)
    game.finish_deal(deal, [0, -50, 0], replayed=True)
    _, found = game.start_deal(1, "normal", 0, 1)
    assert found == []
    assert game.totals == [0, -50, 0]


def test_schedule_card_count() -> None:
    assert kinds_of(_start(rules_of(), 3, None, cards_each=2)) == ["schedule"]
    assert _start(rules_of(), 3, None, cards_each=1) == []


def test_schedule_kind() -> None:
    assert kinds_of(_start(rules_of(), 3, None, cards_each=1, kind="miser")) == ["schedule"]
    assert kinds_of(_start(rules_of(), 3, None, cards_each=1, kind="grand")) == ["schedule"]


def test_schedule_numbering() -> None:
    game = Game(FREE, 3)
    deal, _ = game.start_deal(1, "normal", 0, 1)
    game.finish_deal(deal, [0, 0, 0])
    # deal 2 is missing: reported once, and deal 3's dealer is two seats on
    _, found = game.start_deal(3, "normal", 2, 1)
    assert kinds_of(found) == ["schedule"]


def test_a_gap_lost_to_syntax_errors_is_not_reported_again() -> None:
    game = Game(FREE, 3)
    deal, _ = game.start_deal(1, "normal", 0, 1)
    game.finish_deal(deal, [0, 0, 0])
    _, found = game.start_deal(3, "normal", 2, 1, gap_explained=True)
    assert found == []


def test_schedule_missing_deals_at_the_end() -> None:
    game = Game(rules_of(), 3)
    assert kinds_of(game.finish()) == ["schedule"]
    assert game.finish(unfinished=True) == []


def test_deal_size_hand() -> None:
    found = _start(rules_of(), 3, ["AH", "KH", "QH JH"])
    assert kinds_of(found) == ["deal-size"]
    assert found[0].seat == 2


def test_deal_size_too_many_cards_for_the_deck() -> None:
    # a free schedule states any count; 13 cards each is more than 36 / 3
    found = _start(rules_of(schedule="free", players="3-5"), 3, None, cards_each=13)
    assert "deal-size" in kinds_of(found)
    assert set(kinds_of(found)) <= {"deal-size", "schedule"}


def test_unknown_card_in_a_hand() -> None:
    assert kinds_of(_start(rules_of(), 3, ["2H", "KH", "QH"])) == ["unknown-card"]


def test_unknown_card_played() -> None:
    deal = Deal(rules_of(), 3, 2, 1)
    deal.skip_bidding()
    assert kinds_of(deal.play(0, parse_card("5C"))) == ["unknown-card"]
    assert deal.to_play == 0  # the state is unchanged


def test_duplicate_card_in_hands() -> None:
    found = _start(rules_of(), 3, ["AH", "AH", "QH"])
    assert kinds_of(found) == ["duplicate-card"]
    assert found[0].seat == 1


def test_duplicate_card_trump_turned_up_from_a_hand() -> None:
    found = _start(rules_of(), 3, ["AH", "KH", "QH"], trump=parse_card("KH"), trump_given=True)
    assert kinds_of(found) == ["duplicate-card"]
    assert found[0].at == "trump"


def test_trump_in_a_no_trump_deal() -> None:
    found = _start(FREE, 3, ["AH", "KH", "QH"], kind="no-trump", trump=parse_card("6D"),
                   trump_given=True)
    assert kinds_of(found) == ["trump"]
    assert _start(FREE, 3, ["AH", "KH", "QH"], kind="no-trump", trump=None,
                  trump_given=True) == []


def test_trump_under_circular_trumps() -> None:
    rules = rules_of(schedule="free", circular_trumps=True)
    assert kinds_of(_start(rules, 3, None, trump=Suit.H, trump_given=True)) == ["trump"]


def test_trump_unknown_card() -> None:
    found = _start(rules_of(), 3, ["AH", "KH", "QH"], trump=parse_card("2D"), trump_given=True)
    assert kinds_of(found) == ["unknown-card"]


def test_a_turned_up_joker_means_no_trump() -> None:
    game = Game(rules_of(), 3)
    deal, found = game.start_deal(1, "normal", 0, 1, parse_card("7S"), True, [cards("AH"),
                                                                              cards("KH"),
                                                                              cards("QH")])
    assert found == []
    assert deal.trump is None
    deal, _ = Game(rules_of(), 3).start_deal(1, "normal", 0, 1, parse_card("7D"), True)
    assert deal.trump is Suit.D


def test_bid_order_out_of_turn() -> None:
    deal = Deal(rules_of(), 3, 2, 3)
    found = deal.bid(1, 1)
    assert kinds_of(found) == ["bid-order"]
    assert found[0].seat == 1


def test_bid_order_bids_in_a_deal_without_bids() -> None:
    for kind in ("miser", "golden"):
        deal = Deal(rules_of(), 3, 2, 3, kind)
        assert deal.next_bidder is None and deal.legal_bids() == []
        assert kinds_of(deal.bid(0, 1)) == ["bid-order"]


def test_bid_order_after_the_bidding() -> None:
    deal = Deal(rules_of(), 3, 2, 3)
    for seat in range(3):
        deal.bid(seat, 0)
    assert kinds_of(deal.bid(0, 1)) == ["bid-order"]


def test_bid_range() -> None:
    deal = Deal(rules_of(), 3, 2, 3)
    assert kinds_of(deal.bid(0, 4)) == ["bid-range"]
    assert kinds_of(deal.bid(1, -1)) == ["bid-range"]


def test_dealer_restriction() -> None:
    deal = Deal(rules_of(), 3, 2, 3)
    deal.bid(0, 1)
    deal.bid(1, 1)
    found = deal.bid(2, 1)
    assert kinds_of(found) == ["dealer-restriction"]
    assert found[0].seat == 2


def test_third_pass() -> None:
    deal = Deal(rules_of(third_pass=True), 3, 2, 3, pass_streaks=[0, 2, 0])
    deal.bid(0, 1)
    assert kinds_of(deal.bid(1, 0)) == ["third-pass"]


def test_third_pass_counts_over_deals_through_game() -> None:
    game = Game(rules_of(schedule="free", third_pass=True, dealer_restriction="off"), 3)
    # seat 1 passes in deals 1 and 3; deal 2 (miser) has no bids and neither
    # counts nor breaks the streak; the pass in deal 4 is the third
    results = []
    for number, kind in enumerate(("normal", "miser", "normal", "normal"), start=1):
        deal, found = game.start_deal(number, kind, (number - 1) % 3, 2)
        assert found == []
        while deal.next_bidder is not None:
            seat = deal.next_bidder
            found += deal.bid(seat, 0 if seat == 1 else 1)
        results.append(kinds_of(found))
        game.finish_deal(deal, [0, 0, 0])
    assert results == [[], [], [], ["third-pass"]]
    assert game.pass_streaks == [0, 3, 0]


def test_third_pass_allowed_when_it_is_the_only_bid() -> None:
    # 1 card, the others bid 0: the dealer may not bid 1 (sum), so may pass
    deal = Deal(rules_of(third_pass=True), 3, 2, 1, pass_streaks=[0, 0, 2])
    deal.bid(0, 0)
    deal.bid(1, 0)
    assert deal.legal_bids() == [0]
    assert deal.bid(2, 0) == []


def test_wrong_turn() -> None:
    deal = deal_of(rules_of(), ["AH", "KH", "QH"], trump=Suit.D)
    found = deal.play(1, parse_card("KH"))
    assert kinds_of(found) == ["wrong-turn"]
    assert (found[0].seat, found[0].trick, found[0].index) == (1, 1, 0)


def test_not_in_hand() -> None:
    deal = deal_of(rules_of(), ["AH", "KH", "QH"], trump=Suit.D)
    assert kinds_of(deal.play(0, parse_card("9H"))) == ["not-in-hand"]
    assert deal.to_play == 0 and deal.trick == []


def test_not_in_hand_already_played() -> None:
    deal = deal_of(rules_of(), ["AH 6C", "KH 7C", "QH 8C"], trump=Suit.D)
    for seat, card in enumerate(("AH", "KH", "QH")):
        deal.play(seat, parse_card(card))
    assert kinds_of(deal.play(0, parse_card("AH"))) == ["not-in-hand"]


def test_follow_suit() -> None:
    deal = deal_of(rules_of(), ["KD", "9D 6C", "AD"], trump=Suit.H)
    deal.play(0, parse_card("KD"))
    found = deal.play(1, parse_card("6C"))
    assert kinds_of(found) == ["follow-suit"]
    assert "9♦" in found[0].message.english()


def test_must_trump() -> None:
    deal = deal_of(rules_of(void="must-trump"), ["KD", "6H 6C", "AD"], trump=Suit.H)
    deal.play(0, parse_card("KD"))
    assert kinds_of(deal.play(1, parse_card("6C"))) == ["must-trump"]


def test_must_trump_not_in_a_no_trump_deal() -> None:
    deal = deal_of(rules_of(void="must-trump"), ["KD", "6H 6C", "AD"], trump=None)
    deal.play(0, parse_card("KD"))
    assert deal.play(1, parse_card("6C")) == []


@pytest.mark.parametrize(
    ("decl", "why"),
    [
        (None, "without a declaration"),
        (JokerDecl("take", Suit.H), "not a joker declaration when leading"),
        (JokerDecl("high"), "must name a suit"),
        (JokerDecl("low"), "must name a suit"),
        (JokerDecl("high", card=parse_card("AH")), "names a suit, not a card"),
    ],
)
def test_joker_mode_on_the_lead(decl: JokerDecl | None, why: str) -> None:
    deal = deal_of(rules_of(), ["7S", "8H", "AH"], trump=Suit.D)
    found = deal.play(0, parse_card("7S"), decl)
    assert kinds_of(found) == ["joker-mode"]
    assert why in found[0].message.english()


@pytest.mark.parametrize(
    ("rules", "decl", "why"),
    [
        (rules_of(), JokerDecl("high", Suit.H), "not a joker declaration when following"),
        (rules_of(), JokerDecl("discard"), "must name a suit"),
        (rules_of("classic"), JokerDecl("as"), "must name a card"),
        (rules_of("classic"), JokerDecl("as", card=parse_card("7S")), "not a card of this deck"),
        (rules_of("classic"), JokerDecl("as", card=parse_card("2H")), "not a card of this deck"),
    ],
)
def test_joker_mode_when_following(rules: Rules, decl: JokerDecl, why: str) -> None:
    deal = deal_of(rules, ["8H", "7S", "AH"], trump=Suit.D)
    deal.play(0, parse_card("8H"))
    found = deal.play(1, parse_card("7S"), decl)
    assert kinds_of(found) == ["joker-mode"]
    assert why in found[0].message.english()


def test_joker_mode_circular_trumps_lead_must_name_a_suit() -> None:
    rules = rules_of("joker54", circular_trumps=True)
    deal = deal_of(rules, ["RJ", "8H", "AH"], dealer=2)
    # joker54's first leader is the dealer
    assert deal.to_play == 2
    deal = deal_of(rules.with_options({"first_leader": "left-of-dealer"}), ["RJ", "8H", "AH"])
    assert kinds_of(deal.play(0, parse_card("RJ"), JokerDecl("take"))) == ["joker-mode"]
    deal = deal_of(rules.with_options({"first_leader": "left-of-dealer"}), ["RJ", "8H", "AH"])
    assert deal.play(0, parse_card("RJ"), JokerDecl("take", Suit.H)) == []


def test_joker_demand_highest() -> None:
    deal = deal_of(rules_of(), ["7S", "7H 8H", "AH"], trump=Suit.D)
    deal.play(0, parse_card("7S"), JokerDecl("high", Suit.H))
    found = deal.play(1, parse_card("7H"))
    assert kinds_of(found) == ["joker-demand"]
    assert "8♥" in found[0].message.english()
    assert deal.penalties == [0, 0, 0]  # a lower card of the suit is no revoke


def test_joker_demand_lowest() -> None:
    deal = deal_of(rules_of(joker_lead_modes="high lowest low"), ["7S", "7H 8H", "AH"],
                   trump=Suit.D)
    deal.play(0, parse_card("7S"), JokerDecl("lowest", Suit.H))
    assert kinds_of(deal.play(1, parse_card("8H"))) == ["joker-demand"]


def test_joker_demand_off_suit_is_a_revoke() -> None:
    deal = deal_of(rules_of(revoke_penalty=-50), ["7S", "7H 6C", "AH"], trump=Suit.D)
    deal.play(0, parse_card("7S"), JokerDecl("high", Suit.H))
    assert kinds_of(deal.play(1, parse_card("6C"))) == ["joker-demand"]
    assert deal.penalties == [0, -50, 0]


def test_trick_count() -> None:
    deal = deal_of(rules_of(), ["AH", "KH", "QH"], trump=Suit.D)
    for seat, card in enumerate(("AH", "KH", "QH")):
        deal.play(seat, parse_card(card))
    assert deal.done
    found = deal.play(0, parse_card("JH"))
    assert kinds_of(found) == ["trick-count"]


def test_play_without_hands_checks_only_the_joker() -> None:
    deal = Deal(rules_of(), 3, 2, 1, trump=Suit.H)
    deal.skip_bidding()
    assert deal.legal_plays() == []
    assert deal.play(0, parse_card("KD")) == []
    assert deal.play(1, parse_card("6C")) == []  # not judged: the hand is unknown
    assert kinds_of(deal.play(2, parse_card("7S"))) == ["joker-mode"]
    assert deal.taken == [1, 0, 0]


def test_a_legal_deal_has_no_violations() -> None:
    deal = deal_of(rules_of(), ["AH 6C", "KH 7C", "QH 8C"], trump=Suit.D, bids=[1, 0, 0])
    found: list[Violation] = []
    for seat, card in ((0, "AH"), (1, "KH"), (2, "QH"), (0, "6C"), (1, "7C"), (2, "8C")):
        found += deal.play(seat, Card.parse(card))
    assert found == []
    assert deal.taken == [1, 0, 1]
    assert deal.scores() == [10, 5, 1]
