"""Every worked example of RULES.md, each its own test, plus the core rules
of §1 the examples rest on."""

from __future__ import annotations

from raspis_cli.engine import Deal, JokerDecl, Play, bid_score, trick_winner
from raspis_cli.model.cards import Suit, parse_card
from raspis_cli.rules import Rules
from raspis_cli.rules.standings import first_places
from tests.enginekit import cards, deal_of, rules_of

# --- §5 bidding -------------------------------------------------------------


def test_bidding_example_004_dealer_may_not_make_the_sum() -> None:
    # 3 players, 5 cards, the dealer third; bids 2 and 1
    deal = Deal(Rules(), 3, 2, 5)
    assert deal.next_bidder == 0
    assert deal.bid(0, 2) == []
    assert deal.bid(1, 1) == []
    assert deal.next_bidder == 2
    assert deal.legal_bids() == [0, 1, 3, 4, 5]
    assert [v.kind for v in deal.bid(2, 2)] == ["dealer-restriction"]


def test_bidding_example_002_dealer_may_not_pass() -> None:
    # 4 players, 6 cards, three bids of 2
    deal = Deal(Rules.preset("classic"), 4, 3, 6)
    for seat in range(3):
        assert deal.bid(seat, 2) == []
    assert deal.legal_bids() == [1, 2, 3, 4, 5, 6]
    assert [v.kind for v in deal.bid(3, 0)] == ["dealer-restriction"]


def test_bidding_goes_left_of_the_dealer_first_dealer_last() -> None:
    deal = Deal(Rules(), 4, 1, 3)
    order = []
    while deal.next_bidder is not None:
        order.append(deal.next_bidder)
        deal.bid(deal.next_bidder, 1)
    assert order == [2, 3, 0, 1]


# --- §6 tricks --------------------------------------------------------------


def test_trick_example_004_trump_beats_the_suit_led() -> None:
    # trump ♥, lead K♦, second 9♦, third (no ♦) 6♥ wins
    deal = deal_of(Rules(), ["KD", "9D", "6H"], trump=Suit.H)
    assert deal.play(0, parse_card("KD")) == []
    assert deal.play(1, parse_card("9D")) == []
    assert deal.legal_plays() == [Play(parse_card("6H"))]
    assert deal.play(2, parse_card("6H")) == []
    assert deal.done
    assert deal.taken == [0, 0, 1]
    assert deal.history[0].winner == 2
    assert deal.history[0].led_suit is Suit.D


def test_trick_example_004_discarding_joker_loses() -> None:
    # lead Q♦, second joker "discard ♦", third 8♦: the first player wins with Q♦
    deal = deal_of(Rules(), ["QD", "7S", "8D"], trump=Suit.H)
    assert deal.play(0, parse_card("QD")) == []
    assert deal.play(1, parse_card("7S"), JokerDecl("discard", Suit.D)) == []
    assert deal.play(2, parse_card("8D")) == []
    assert deal.taken == [1, 0, 0]


def test_trick_winner_on_entries_directly() -> None:
    rules = Rules()
    joker_mask = rules.deck_cards.joker_mask
    k, nine, six = cards("KD 9D 6H")
    assert trick_winner([(0, k, None), (1, nine, None), (2, six, None)], rules, joker_mask,
                        Suit.H) == 2
    assert trick_winner([(0, k, None), (1, nine, None), (2, six, None)], rules, joker_mask,
                        None) == 0


def test_any_trump_beats_any_non_trump() -> None:
    # 6♥ trump beats A♦
    rules = Rules()
    ace, six = cards("AD 6H")
    assert trick_winner([(0, ace, None), (1, six, None)], rules, rules.deck_cards.joker_mask,
                        Suit.H) == 1


def test_off_suit_card_never_wins() -> None:
    rules = Rules()
    six, ace = cards("6D AC")
    assert trick_winner([(0, six, None), (1, ace, None)], rules, rules.deck_cards.joker_mask,
                        Suit.H) == 0


def test_two_equal_cards_the_earlier_wins() -> None:
    # possible only with "as": the joker declared as A♦ after the real A♦
    rules = rules_of("classic")
    deal = deal_of(rules, ["AD", "7S", "6D"], trump=Suit.H)
    deal.play(0, parse_card("AD"))
    assert deal.play(1, parse_card("7S"), JokerDecl("as", card=parse_card("AD"))) == []
    deal.play(2, parse_card("6D"))
    assert deal.taken == [1, 0, 0]
    # and the other way round: the joker as A♦ first
    deal = deal_of(rules, ["7S", "AD", "6D"], trump=Suit.H)
    assert deal.play(0, parse_card("7S"), JokerDecl("as", card=parse_card("AD"))) == []
    deal.play(1, parse_card("AD"))
    deal.play(2, parse_card("6D"))
    assert deal.taken == [1, 0, 0]


def test_first_trick_led_left_of_dealer_later_by_the_winner() -> None:
    deal = deal_of(Rules(), ["6D 6C", "AD 7C", "8D 8C"], dealer=2, trump=Suit.H)
    assert deal.to_play == 0
    deal.play(0, parse_card("6D"))
    deal.play(1, parse_card("AD"))
    deal.play(2, parse_card("8D"))
    assert deal.to_play == 1  # the winner leads
    assert deal.trick_number == 2


# --- §7 scoring --------------------------------------------------------------


def test_scoring_example_004() -> None:
    rules = Rules()
    bids, taken = [3, 0, 2, 1], [3, 0, 0, 4]
    assert [bid_score(rules, "normal", b, t) for b, t in zip(bids, taken, strict=True)] == [
        30, 5, -20, 4]


def test_scoring_example_004_through_a_deal() -> None:
    deal = Deal(Rules(), 4, 3, 7)
    for seat, bid in enumerate([3, 0, 2, 1]):
        assert deal.bid(seat, bid) == []
    assert deal.scores([3, 0, 0, 4]) == [30, 5, -20, 4]


def test_scoring_example_002() -> None:
    rules = Rules.preset("classic")
    assert bid_score(rules, "normal", 2, 2) == 20
    assert bid_score(rules, "normal", 2, 3) == 3
    assert bid_score(rules, "normal", 2, 1) == -10
    assert bid_score(rules, "normal", 0, 0) == 5


def test_scoring_example_georgian() -> None:
    rules = Rules.preset("georgian")
    assert bid_score(rules, "normal", 3, 3) == 200
    assert bid_score(rules, "normal", 0, 0) == 50
    assert bid_score(rules, "normal", 2, 0) == 0
    assert bid_score(rules, "normal", 1, 4) == 40


def test_scoring_example_classic_miser() -> None:
    rules = Rules.preset("classic")
    assert bid_score(rules, "miser", None, 0) == 0
    assert bid_score(rules, "miser", None, 2) == -40


def test_raspisnoy_specials_scores() -> None:
    rules = Rules()
    assert bid_score(rules, "miser", None, 0) == 100
    assert bid_score(rules, "miser", None, 3) == -60
    assert bid_score(rules, "golden", None, 0) == -100
    assert bid_score(rules, "golden", None, 3) == 60
    # no-trump and dark score as normal deals (multiplier 1)
    assert bid_score(rules, "dark", 2, 2) == bid_score(rules, "no-trump", 2, 2) == 20


def test_forehead_scores_keep_their_values_without_multiplier() -> None:
    rules = Rules.preset("classic")
    assert bid_score(rules, "forehead", 1, 1) == 50
    assert bid_score(rules, "forehead", 2, 0) == -100
    assert bid_score(rules, "forehead", 0, 0) == 5
    assert bid_score(rules, "forehead", 1, 3) == 3


def test_classic_specials_are_doubled() -> None:
    rules = Rules.preset("classic")
    assert bid_score(rules, "no-trump", 2, 2) == 40
    assert bid_score(rules, "dark", 2, 1) == -20
    assert bid_score(rules, "golden", None, 2) == 40


def test_co_winners_share_the_highest_total() -> None:
    assert first_places([10, 30, 30, -5], "as-scored") == [1, 2]
    assert first_places([7], "as-scored") == [0]
    assert first_places([], "as-scored") == []
