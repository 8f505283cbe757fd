"""Cards: every spelling a person types, the codes, masks and decks."""

from __future__ import annotations

import pytest

from raspis_cli.model.cards import (
    BLACK_JOKER,
    RED_JOKER,
    Card,
    CardError,
    Deck,
    Suit,
    cards_of,
    mask_of,
    parse_card,
    parse_rank,
    parse_suit,
)

TEN_OF_HEARTS = Card.of(10, Suit.H)


@pytest.mark.parametrize("text", ["10H", "TH", "10♥", "10h", "th", "10 ♥", "10♥\ufe0f", " 10H ",
                                  "10ч", "10Ч", "10 черви", "10 чирва"])
def test_ten_of_hearts_spellings(text: str) -> None:
    assert parse_card(text) == TEN_OF_HEARTS


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("Д♠", 12, Suit.S),   # дама
        ("В♣", 11, Suit.C),   # валет
        ("К♦", 13, Suit.D),   # король (Cyrillic К)
        ("Т♥", 14, Suit.H),   # туз (Cyrillic Т), not ten
        ("Тч", 14, Suit.H),
        ("Дп", 12, Suit.S),
        ("Вб", 11, Suit.D),
        ("Кт", 13, Suit.C),   # т = трефы after a rank
        ("Кк", 13, Suit.C),   # к = крести
        ("7 пики", 7, Suit.S),
        ("7 піки", 7, Suit.S),
        ("8 трефы", 8, Suit.C),
        ("8 трефи", 8, Suit.C),
        ("9 бубны", 9, Suit.D),
        ("9 бубни", 9, Suit.D),
        ("6 черви", 6, Suit.H),
        ("6 чирва", 6, Suit.H),
        ("QS", 12, Suit.S),
        ("JC", 11, Suit.C),
        ("KD", 13, Suit.D),
        ("AH", 14, Suit.H),
        ("2s", 2, Suit.S),
    ],
)
def test_rank_and_suit_spellings(text: str, rank: int, suit: Suit) -> None:
    card = parse_card(text)
    assert (card.rank, card.suit) == (rank, suit)


def test_latin_t_is_ten_and_cyrillic_t_is_ace() -> None:
    assert parse_card("TS").rank == 10
    assert parse_card("ТS").rank == 14  # Cyrillic Т: туз


@pytest.mark.parametrize(("text", "joker"), [("RJ", RED_JOKER), ("BJ", BLACK_JOKER),
                                             ("rj", RED_JOKER), ("bj", BLACK_JOKER)])
def test_jokers_of_54_cards(text: str, joker: Card) -> None:
    card = parse_card(text)
    assert card is joker
    assert card.suit is None and card.rank == 0 and card.is_red_or_black_joker


@pytest.mark.parametrize("text", ["1H", "11H", "10X", "ZZ", "", "10", "H", "KK", "10HH", "♥10"])
def test_unknown_card_spelling_raises_naming_the_token(text: str) -> None:
    with pytest.raises(CardError) as info:
        parse_card(text)
    assert info.value.token == text
    assert repr(text) in str(info.value)


@pytest.mark.parametrize(("text", "suit"), [("S", Suit.S), ("♠", Suit.S), ("пики", Suit.S),
                                            ("піки", Suit.S), ("трефы", Suit.C),
                                            ("трефи", Suit.C), ("бубны", Suit.D),
                                            ("бубни", Suit.D), ("черви", Suit.H),
                                            ("чирва", Suit.H), ("h", Suit.H)])
def test_parse_suit(text: str, suit: Suit) -> None:
    assert parse_suit(text) is suit
    assert Suit.parse(text) is suit


def test_parse_suit_and_rank_errors_name_the_token() -> None:
    with pytest.raises(CardError, match="'X'") as suit_error:
        parse_suit("X")
    assert suit_error.value.what == "suit"
    with pytest.raises(CardError, match="'1'") as rank_error:
        parse_rank("1")
    assert rank_error.value.what == "rank"


@pytest.mark.parametrize(("text", "rank"), [("10", 10), ("T", 10), ("J", 11), ("В", 11),
                                            ("Q", 12), ("Д", 12), ("K", 13), ("К", 13),
                                            ("A", 14), ("Т", 14), ("6", 6)])
def test_parse_rank(text: str, rank: int) -> None:
    assert parse_rank(text) == rank


def test_codes_and_pretty_forms_round_trip() -> None:
    for index in range(54):
        card = Card.from_index(index)
        assert parse_card(card.code) is card
        assert parse_card(str(card)) is card
        assert card.index == index
    assert TEN_OF_HEARTS.code == "10H"
    assert str(TEN_OF_HEARTS) == "10♥"
    assert repr(TEN_OF_HEARTS) == "Card('10H')"


def test_card_of_rejects_bad_rank() -> None:
    with pytest.raises(ValueError, match="rank"):
        Card.of(15, Suit.S)
    with pytest.raises(ValueError, match="rank"):
        Card.of(1, Suit.S)


def test_suit_order_is_circular() -> None:
    # circular trumps: the trump of a trick is the suit after the suit led (engine/trick.py)
    from raspis_cli.engine.trick import trick_trump
    from raspis_cli.model.cards import NO_SUIT

    assert [trick_trump(s, NO_SUIT, True) for s in Suit] == [Suit.C, Suit.D, Suit.H, Suit.S]
    assert trick_trump(NO_SUIT, Suit.H, True) == NO_SUIT and trick_trump(Suit.S, Suit.H, False) == Suit.H
    assert [s.symbol for s in Suit] == ["♠", "♣", "♦", "♥"]
    assert [s.letter for s in Suit] == ["S", "C", "D", "H"]


def test_masks_round_trip() -> None:
    cards = [parse_card(t) for t in ("6S", "AH", "RJ", "10D")]
    mask = mask_of(cards)
    assert list(cards_of(mask)) == sorted(cards)
    assert mask == sum(c.bit for c in cards)


def test_deck_36_with_7s_joker() -> None:
    deck = Deck(36, "7S")
    seven = parse_card("7S")
    assert deck.size == 36 and len(deck.cards) == 36
    assert parse_card("6H") in deck and parse_card("5H") not in deck
    assert deck.jokers == (seven,)
    assert deck.is_joker(seven) and not deck.is_joker(parse_card("8S"))
    # the joker has no suit: it is not a spade of the deck
    assert deck.suit_of(seven) is None
    assert not deck.suit_masks[Suit.S] >> seven & 1
    assert bin(deck.suit_masks[Suit.S]).count("1") == 8
    assert bin(deck.suit_masks[Suit.H]).count("1") == 9


def test_deck_36_other_jokers() -> None:
    assert Deck(36, "6S").jokers == (parse_card("6S"),)
    plain = Deck(36, None)
    assert plain.jokers == () and plain.suit_of(parse_card("7S")) is Suit.S
    assert Deck(36, "none").jokers == ()
    with pytest.raises(ValueError, match="not in a 36-card deck"):
        Deck(36, "2S")


def test_deck_54() -> None:
    deck = Deck(54)
    assert len(deck.cards) == 54
    assert deck.jokers == (RED_JOKER, BLACK_JOKER)
    assert parse_card("2C") in deck
    assert deck.suit_of(RED_JOKER) is None
    assert all(bin(m).count("1") == 13 for m in deck.suit_masks)
    with pytest.raises(ValueError, match="36 or 54"):
        Deck(52)
