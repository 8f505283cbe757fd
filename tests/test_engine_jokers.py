"""The joker's modes (RULES.md §6), one behaviour per test."""

from __future__ import annotations

from raspis_cli.engine import Deal, JokerDecl
from raspis_cli.model.cards import Suit, parse_card
from raspis_cli.rules import Rules
from tests.enginekit import deal_of, kinds_of, rules_of

JOKER = parse_card("7S")


def _play(deal: Deal, *plays: tuple[int, str, JokerDecl | None]) -> list[str]:
    """Play cards (seat, spelling, declaration) in order; the violation kinds."""
    found = []
    for seat, card, decl in plays:
        found += deal.play(seat, parse_card(card), decl)
    return kinds_of(found)


def _cards(deal: Deal) -> set[str]:
    """The codes of the non-joker cards among the legal plays."""
    return {p.card.code for p in deal.legal_plays() if p.joker is None}


def test_joker_may_be_played_while_holding_the_suit_led() -> None:
    deal = deal_of(rules_of(), ["9H", "7S 8H", "AH"], trump=Suit.D)
    deal.play(0, parse_card("9H"), None)
    assert _cards(deal) == {"8H"}
    assert deal.play(1, JOKER, JokerDecl("take")) == []
    deal.play(2, parse_card("AH"))
    assert deal.taken == [0, 1, 0]


def test_a_joker_is_never_required_and_7s_is_no_spade() -> None:
    deal = deal_of(rules_of(void="must-trump"), ["9S", "7S 9C", "AS"], trump=Suit.D)
    deal.play(0, parse_card("9S"))
    # void in spades (7♠ is the joker), no trump: any card, the joker included
    assert _cards(deal) == {"9C"}
    assert {p.joker.mode for p in deal.legal_plays() if p.joker} == {"take", "discard"}


def test_following_take_beats_trumps() -> None:
    deal = deal_of(rules_of(), ["AH", "7S", "KD"], trump=Suit.D)
    assert _play(deal, (0, "AH", None), (1, "7S", JokerDecl("take")), (2, "KD", None)) == []
    assert deal.taken == [0, 1, 0]


def test_high_demand_highest_card_of_the_suit() -> None:
    deal = deal_of(rules_of(), ["7S", "6H 10H 9C", "8H"], trump=Suit.D)
    deal.play(0, JOKER, JokerDecl("high", Suit.H))
    assert _cards(deal) == {"10H"}


def test_high_demand_void_plays_anything_or_trump_under_must_trump() -> None:
    hands = ["7S", "6D 9C", "8H"]
    deal = deal_of(rules_of(), hands, trump=Suit.D)
    deal.play(0, JOKER, JokerDecl("high", Suit.H))
    assert _cards(deal) == {"6D", "9C"}
    deal = deal_of(rules_of(void="must-trump"), hands, trump=Suit.D)
    deal.play(0, JOKER, JokerDecl("high", Suit.H))
    assert _cards(deal) == {"6D"}


def test_high_demand_joker_wins_even_when_trumped() -> None:
    deal = deal_of(rules_of(), ["7S", "6D", "AH"], trump=Suit.D)
    assert _play(deal, (0, "7S", JokerDecl("high", Suit.H)), (1, "6D", None),
                 (2, "AH", None)) == []
    assert deal.taken == [1, 0, 0]


def test_high_trumps_is_high_with_the_trump_suit() -> None:
    deal = deal_of(rules_of(), ["7S", "6D 10D 9C", "8H"], trump=Suit.D)
    deal.play(0, JOKER, JokerDecl("high", Suit.D))
    assert _cards(deal) == {"10D"}


def test_lowest_demand_lowest_card_and_the_joker_wins() -> None:
    rules = rules_of(joker_lead_modes="high lowest low")
    deal = deal_of(rules, ["7S", "6H 10H", "8H 9H"], trump=Suit.D)
    deal.play(0, JOKER, JokerDecl("lowest", Suit.H))
    assert _cards(deal) == {"6H"}
    deal.play(1, parse_card("6H"))
    assert _cards(deal) == {"8H"}
    deal.play(2, parse_card("8H"))
    assert deal.taken == [1, 0, 0]


def test_low_lead_makes_its_suit_the_suit_led_and_loses() -> None:
    deal = deal_of(rules_of(), ["7S", "6H 9C", "8H 10C"], trump=Suit.D)
    deal.play(0, JOKER, JokerDecl("low", Suit.H))
    assert _cards(deal) == {"6H"}
    deal.play(1, parse_card("6H"))
    deal.play(2, parse_card("8H"))
    assert deal.taken == [0, 0, 1]
    assert deal.history[0].led_suit is Suit.H


def test_low_lead_trumped() -> None:
    deal = deal_of(rules_of(), ["7S", "6D", "8H"], trump=Suit.D)
    assert _play(deal, (0, "7S", JokerDecl("low", Suit.H)), (1, "6D", None),
                 (2, "8H", None)) == []
    assert deal.taken == [0, 1, 0]


def test_joker54_low_without_suit_second_card_sets_the_suit() -> None:
    rules = rules_of("joker54")  # the dealer leads
    deal = deal_of(rules, ["9C 2H", "5H 3C", "RJ KC"], dealer=2, trump=Suit.D)
    assert deal.to_play == 2
    deal.play(2, parse_card("RJ"), JokerDecl("low"))
    assert _cards(deal) == {"9C", "2H"}  # the second player may play anything
    deal.play(0, parse_card("2H"))
    assert _cards(deal) == {"5H"}  # hearts are now led
    deal.play(1, parse_card("5H"))
    assert deal.taken == [0, 1, 0]


def test_joker54_take_without_suit_wins() -> None:
    rules = rules_of("joker54")
    deal = deal_of(rules, ["AD", "5H", "RJ"], dealer=2, trump=Suit.D)
    assert _play(deal, (2, "RJ", JokerDecl("take")), (0, "AD", None), (1, "5H", None)) == []
    assert deal.taken == [0, 0, 1]
    assert deal.penalties == [0, 0, 0]  # the joker was the leader's last card


def test_joker54_a_leading_joker_names_no_suit() -> None:
    """The 54-card page: the leading joker is «старший» or «младший», and
    the second card played sets the suit led whatever the joker's value; a
    suit named is a ``joker-mode`` violation (the play then goes on as
    written, as after any other joker-mode violation)."""
    rules = rules_of("joker54")
    for mode in ("low", "take"):
        deal = deal_of(rules, ["9C 2H", "5H 3C", "RJ KC"], dealer=2, trump=Suit.D)
        assert kinds_of(deal.play(2, parse_card("RJ"), JokerDecl(mode, Suit.H))) == ["joker-mode"]
    # the legal plays of a leading joker name no suit
    deal = deal_of(rules, ["9C 2H", "5H 3C", "RJ KC"], dealer=2, trump=Suit.D)
    assert {(p.joker.mode, p.joker.suit) for p in deal.legal_plays() if p.joker is not None} == {
        ("low", None), ("take", None)}


def test_joker54_joker_lead_penalty_unless_last_card() -> None:
    rules = rules_of("joker54")
    deal = deal_of(rules, ["AD 2C", "5H 3C", "RJ 4C"], dealer=2, trump=Suit.D)
    deal.play(2, parse_card("RJ"), JokerDecl("take"))
    assert deal.penalties == [0, 0, -10]
    assert deal.penalty_notes == [(2, -10, "joker-lead")]


def test_take_with_a_suit_lead_is_followed_as_usual() -> None:
    rules = rules_of(joker_lead_modes="high low take")
    deal = deal_of(rules, ["7S", "6H 10H", "8H 9C"], trump=Suit.D)
    deal.play(0, JOKER, JokerDecl("take", Suit.H))
    assert _cards(deal) == {"6H", "10H"}  # the suit, but not its highest card
    deal.play(1, parse_card("6H"))
    deal.play(2, parse_card("8H"))
    assert deal.taken == [1, 0, 0]


def test_as_a_card_leads_its_suit() -> None:
    rules = rules_of("classic")
    deal = deal_of(rules, ["7S", "6H 9C", "8H 10C"], trump=Suit.D)
    deal.play(0, JOKER, JokerDecl("as", card=parse_card("QH")))
    assert _cards(deal) == {"6H"}
    deal.play(1, parse_card("6H"))
    deal.play(2, parse_card("8H"))
    assert deal.taken == [1, 0, 0]


def test_as_a_card_can_lose_to_a_higher_one() -> None:
    rules = rules_of("classic")
    deal = deal_of(rules, ["KH", "7S", "AH"], trump=Suit.D)
    assert _play(deal, (0, "KH", None), (1, "7S", JokerDecl("as", card=parse_card("QH"))),
                 (2, "AH", None)) == []
    assert deal.taken == [0, 0, 1]


def test_as_a_trump_when_following() -> None:
    rules = rules_of("classic")
    deal = deal_of(rules, ["KH", "7S", "AH"], trump=Suit.D)
    assert _play(deal, (0, "KH", None), (1, "7S", JokerDecl("as", card=parse_card("6D"))),
                 (2, "AH", None)) == []
    assert deal.taken == [0, 1, 0]


def test_two_jokers_later_take_wins() -> None:
    rules = rules_of("joker54", two_jokers="later-wins")
    deal = deal_of(rules, ["RJ", "BJ", "AH"], dealer=0, trump=Suit.D)
    assert deal.to_play == 0
    assert _play(deal, (0, "RJ", JokerDecl("take")), (1, "BJ", JokerDecl("take")),
                 (2, "AH", None)) == []
    assert deal.taken == [0, 1, 0]


def test_two_jokers_opposite_low_then_take() -> None:
    rules = rules_of("joker54")
    deal = deal_of(rules, ["RJ", "BJ", "AH"], dealer=0, trump=Suit.D)
    deal.play(0, parse_card("RJ"), JokerDecl("low"))
    assert {p.joker.mode for p in deal.legal_plays() if p.joker} == {"take"}
    assert _play(deal, (1, "BJ", JokerDecl("take")), (2, "AH", None)) == []
    assert deal.taken == [0, 1, 0]


def test_circular_trumps_joker_lead_names_the_suit_led() -> None:
    rules = rules_of(circular_trumps=True)
    # high ♠: spades are led, so clubs are trump in this trick
    deal = deal_of(rules, ["7S", "6C", "AS"], trump=None)
    assert _play(deal, (0, "7S", JokerDecl("high", Suit.S)), (1, "6C", None),
                 (2, "AS", None)) == []
    assert deal.history[0].trump is Suit.C
    assert deal.taken == [1, 0, 0]


def test_joker_declarations_listed_for_the_raspisnoy_lead() -> None:
    deal = deal_of(Rules(), ["7S 6H", "8H 9H", "10H JH"])
    decls = {p.joker for p in deal.legal_plays() if p.joker is not None}
    assert decls == {JokerDecl(m, s) for m in ("high", "low") for s in Suit}
