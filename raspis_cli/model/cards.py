"""Cards, suits, ranks and decks, with every spelling a person types.

A card is a small integer (its *index*) wrapped in :class:`Card`, an ``int``
subclass with one shared instance per index, so cards compare, hash and index
as fast as ints. The 52 suited cards have index ``suit * 13 + (rank - 2)``;
the red and black jokers of a 54-card deck are 52 and 53. A hand is a bitmask
(bit ``index`` set when the card is held); :func:`mask_of` and
:func:`cards_of` convert.

Which card is *the joker* is a matter of the rules: in a 36-card deck it is a
physical card such as 7♠ (see :class:`Deck`). A joker card has no suit.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from enum import IntEnum
from typing import Final

from raspis_cli.text.i18n import language
from raspis_cli.text.messages import Seq, param_type

__all__ = [
    "card_in",
    "card_list",
    "card_words",
    "BLACK_JOKER",
    "NO_SUIT",
    "RANK_INDEX",
    "RANK_NAMES",
    "RED_JOKER",
    "SUIT_INDEX",
    "SUIT_MASKS",
    "Card",
    "CardError",
    "Deck",
    "Suit",
    "card_index",
    "card_text",
    "cards_of",
    "mask_of",
    "parse_card",
    "parse_rank",
    "parse_suit",
    "rank_index",
    "suit_index",
]


class CardError(ValueError):
    """A card, rank or suit spelling that cannot be read."""

    def __init__(self, token: str, what: str = "card") -> None:
        self.token = token
        self.what = what
        examples = {
            "card": "a card like 10♥, 10H, TH, QS or Д♠",
            "suit": "a suit like H, ♥ or черви",
            "rank": "a rank like 10, T, Q or Д",
        }[what]
        super().__init__(f"expected {examples}, got {token!r}")


class Suit(IntEnum):
    """The four suits, in the circular-trump order ♠ → ♣ → ♦ → ♥."""

    S = 0
    C = 1
    D = 2
    H = 3

    @property
    def symbol(self) -> str:
        """The suit as a symbol: ♠ ♣ ♦ ♥."""
        return _SUIT_SYMBOLS[self]

    @property
    def letter(self) -> str:
        """The suit as its JSON letter: S C D H."""
        return self.name

    def __str__(self) -> str:
        return _SUIT_SYMBOLS[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit in any accepted spelling; raises :class:`CardError`."""
        return parse_suit(text)


_SUIT_SYMBOLS: Final = ("♠", "♣", "♦", "♥")

RANK_NAMES: Final[dict[int, str]] = {
    **{r: str(r) for r in range(2, 11)},
    11: "J",
    12: "Q",
    13: "K",
    14: "A",
}

# index -> Card, filled below
_ALL: list[Card] = []


class Card(int):
    """A physical card: a suited card 2..A or one of the two jokers of 54 cards.

    Construct with :meth:`parse`, :meth:`of` or :meth:`from_index`; ``str()``
    gives the people's form (``10♥``), :attr:`code` the JSON form (``10H``).
    """

    __slots__ = ()

    @staticmethod
    def from_index(index: int) -> Card:
        """The card with this index (0..53)."""
        return _ALL[index]

    @staticmethod
    def of(rank: int, suit: Suit) -> Card:
        """The suited card of this rank (2..14) and suit."""
        if not 2 <= rank <= 14:
            raise ValueError(f"rank out of range: {rank}")
        return _ALL[card_index(rank, suit)]

    @staticmethod
    def parse(text: str) -> Card:
        """Read a card in any accepted spelling; raises :class:`CardError`."""
        return parse_card(text)

    @property
    def index(self) -> int:
        """The card's index 0..53."""
        return int(self)

    @property
    def is_red_or_black_joker(self) -> bool:
        """True for the two jokers of a 54-card deck (``RJ``, ``BJ``)."""
        return self >= 52

    @property
    def suit(self) -> Suit | None:
        """The printed suit, ``None`` for ``RJ``/``BJ``. (A 36-card joker's
        printed suit is still reported here; ask the :class:`Deck`.)"""
        return None if self >= 52 else Suit(self // 13)

    @property
    def rank(self) -> int:
        """The rank 2..14 (J=11, Q=12, K=13, A=14); 0 for ``RJ``/``BJ``."""
        return 0 if self >= 52 else self % 13 + 2

    @property
    def bit(self) -> int:
        """The card's bit in a hand mask."""
        return 1 << int(self)

    @property
    def code(self) -> str:
        """The JSON spelling: ``10H``, ``QS``, ``RJ``."""
        return _CODES[self]

    def __str__(self) -> str:
        return _PRETTY[self]

    def __repr__(self) -> str:
        return f"Card({_CODES[self]!r})"


for _i in range(54):
    _ALL.append(int.__new__(Card, _i))

RED_JOKER: Final = _ALL[52]
BLACK_JOKER: Final = _ALL[53]

_CODES: Final = tuple(
    [RANK_NAMES[i % 13 + 2] + Suit(i // 13).name for i in range(52)] + ["RJ", "BJ"]
)
_PRETTY: Final = tuple(
    [RANK_NAMES[i % 13 + 2] + _SUIT_SYMBOLS[i // 13] for i in range(52)] + ["RJ", "BJ"]
)

_RUSSIAN_RANKS: Final = {"J": "В", "Q": "Д", "K": "К", "A": "Т"}
"""The rank letters a Russian text writes (and the notation reads): валет, дама, король, туз."""

_PRETTY_RU: Final = tuple(_RUSSIAN_RANKS.get(text[0], text[0]) + text[1:] if i < 52
                          else ("красный джокер", "чёрный джокер")[i - 52] for i, text in enumerate(_PRETTY))
"""The cards as Russian text says them: Д♦, and the jokers of 54 cards in words (the notation
has no Russian letters for them: a sheet writes RJ and BJ)."""


def card_text(card: int) -> str:
    """A card as the language in force writes it: ``Q♦`` in English, ``Д♦``
    in Russian."""
    return card_in(card, language())


def card_in(card: int, lang: str) -> str:
    """A card as ``lang`` writes it: ``Q♦`` in English, ``Д♦`` in Russian."""
    return _PRETTY_RU[card] if lang == "ru" else _PRETTY[card]


def card_words(text: str, lang: str) -> str:
    """A card written in English (``Q♠``) as a text in ``lang`` writes it (``Д♠`` in
    Russian); any other text is returned as it is."""
    if lang == "ru" and len(text) >= 2 and text[0] in _RUSSIAN_RANKS and text[1:] in _SUIT_SYMBOLS:
        return _RUSSIAN_RANKS[text[0]] + text[1:]
    return text


def card_list(cards: Iterable[Card], separator: str = " ") -> Seq:
    """Several cards as a parameter of a message (each shown in the reader's language)."""
    return Seq(tuple(cards), separator)


SUIT_MASKS: Final = tuple(0x1FFF << (13 * s) for s in range(4))
"""The hand-mask bits of each suit's 13 cards (jokers of 54 cards excluded)."""

NO_SUIT: Final = 4
"""The suit index of ``RJ``/``BJ`` in :data:`SUIT_INDEX` (and, where a suit
index is expected, "no suit": no trump, nothing led yet)."""

SUIT_INDEX: Final = (*(i // 13 for i in range(52)), NO_SUIT, NO_SUIT)
"""A card index's printed suit as 0..3 (♠ ♣ ♦ ♥), :data:`NO_SUIT` for the
two jokers of 54 cards: the table the hot loops index instead of dividing."""

RANK_INDEX: Final = (*(i % 13 for i in range(52)), 0, 0)
"""A card index's rank as 0 (a two) .. 12 (an ace); 0 for the two jokers."""


param_type("card", Card, card_in, lambda card: card.code, lambda code: parse_card(str(code)))
# a card in a message: Д♦ shown to a Russian reader, {"card": "QD"} stored


def suit_index(card: int) -> int:
    """The printed suit of a card index as 0..3, :data:`NO_SUIT` for ``RJ``/``BJ``."""
    return SUIT_INDEX[card]


def rank_index(card: int) -> int:
    """The rank of a card index as 0 (a two) .. 12 (an ace); 0 for ``RJ``/``BJ``."""
    return RANK_INDEX[card]


def card_index(rank: int, suit: int) -> int:
    """The index of the card of this rank (2..14) and suit (0..3)."""
    return suit * 13 + rank - 2


def mask_of(cards: Iterable[int]) -> int:
    """The hand mask holding these cards."""
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def cards_of(mask: int) -> Iterator[Card]:
    """The cards of a hand mask, lowest index first."""
    while mask:
        low = mask & -mask
        yield _ALL[low.bit_length() - 1]
        mask ^= low


# --- spellings -------------------------------------------------------------

_SUIT_WORDS: Final[dict[str, Suit]] = {}
for _suit, _words in {
    Suit.S: ("s", "♠", "♤", "п", "пики", "пика", "піки", "піка", "вини", "вини"),
    Suit.C: ("c", "♣", "♧", "т", "х", "к", "трефы", "трефа", "трефи", "крести", "хрести", "хреста"),
    Suit.D: ("d", "♦", "♢", "б", "бубны", "бубна", "бубни", "буби"),
    Suit.H: ("h", "♥", "♡", "ч", "черви", "червы", "черва", "чирва", "чирви"),
}.items():
    for _w in _words:
        _SUIT_WORDS[_w] = _suit
# "к" (крести) and "т" (трефы) as suit letters only make sense after a rank;
# as a bare suit they are accepted too, since no other suit uses them.

_RANK_WORDS: Final[dict[str, int]] = {
    **{str(r): r for r in range(2, 11)},
    "t": 10,
    "j": 11,
    "q": 12,
    "k": 13,
    "a": 14,
    "в": 11,
    "д": 12,
    "к": 13,
    "т": 14,
}

_JOKER_WORDS: Final[dict[str, Card]] = {
    "rj": RED_JOKER,
    "bj": BLACK_JOKER,
    "jr": RED_JOKER,
    "jb": BLACK_JOKER,
}

_VARIATION = "\ufe0f\ufe0e"
_CARD_RE: Final = re.compile(r"(10|[2-9]|[tjqkaвдкт])\s?(\S+)", re.IGNORECASE)


def _clean(text: str) -> str:
    return text.strip().translate({ord(c): None for c in _VARIATION}).lower()


def parse_suit(text: str) -> Suit:
    """Read a suit: ``S C D H``, ``♠ ♣ ♦ ♥``, Russian/Ukrainian letters or words."""
    suit = _SUIT_WORDS.get(_clean(text))
    if suit is None:
        raise CardError(text, "suit")
    return suit


def parse_rank(text: str) -> int:
    """Read a rank: ``2``..``10``, ``T``, ``J Q K A``, ``В Д К Т``."""
    rank = _RANK_WORDS.get(_clean(text))
    if rank is None:
        raise CardError(text, "rank")
    return rank


def parse_card(text: str) -> Card:
    """Read one card in any accepted spelling.

    ``10H``, ``TH``, ``10♥``, ``10h``, ``Д♠`` (queen), ``Тч`` (ace of hearts),
    ``7 пики``, ``RJ``/``BJ``. Raises :class:`CardError` naming the token.
    """
    cleaned = _clean(text)
    joker = _JOKER_WORDS.get(cleaned)
    if joker is not None:
        return joker
    cached = _CARD_CACHE.get(cleaned)
    if cached is not None:
        return cached
    m = _CARD_RE.fullmatch(cleaned)
    if m is None:
        raise CardError(text)
    rank = _RANK_WORDS[m.group(1)]
    suit = _SUIT_WORDS.get(m.group(2))
    if suit is None:
        raise CardError(text)
    return _ALL[suit * 13 + rank - 2]


_CARD_CACHE: dict[str, Card] = {}
for _card in _ALL[:52]:
    _r = _card.rank
    _s = _card.suit
    assert _s is not None
    _rank_spellings = [k for k, v in _RANK_WORDS.items() if v == _r]
    _suit_spellings = [k for k, v in _SUIT_WORDS.items() if v == _s and len(k) == 1]
    for _rs in _rank_spellings:
        for _ss in _suit_spellings:
            _CARD_CACHE[_rs + _ss] = _card


class Deck:
    """A deck as the rules define it: its cards and which of them are jokers.

    ``Deck(36, "7S")`` is 6..A with 7♠ as the joker; ``Deck(36, None)`` has no
    joker; ``Deck(54)`` is 2..A plus ``RJ`` and ``BJ``.
    """

    __slots__ = ("cards", "joker_mask", "jokers", "mask", "size", "suit_masks")

    def __init__(self, size: int, joker: str | None = "7S") -> None:
        if size == 36:
            cards = [c for c in _ALL[:52] if c.rank >= 6]
            jokers: tuple[Card, ...] = () if joker in (None, "none") else (parse_card(str(joker)),)
            if jokers and jokers[0] not in cards:
                raise ValueError(f"the joker {joker} is not in a 36-card deck")
        elif size == 54:
            cards = list(_ALL)
            jokers = (RED_JOKER, BLACK_JOKER)
        else:
            raise ValueError(f"a deck has 36 or 54 cards, not {size}")
        self.size: int = size
        self.cards: tuple[Card, ...] = tuple(cards)
        self.mask: int = mask_of(cards)
        self.jokers: tuple[Card, ...] = jokers
        self.joker_mask: int = mask_of(jokers)
        self.suit_masks: tuple[int, ...] = tuple(
            m & self.mask & ~self.joker_mask for m in SUIT_MASKS
        )

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and bool(self.mask >> int(card) & 1)

    def is_joker(self, card: int) -> bool:
        """True when this card is a joker in this deck."""
        return bool(self.joker_mask >> card & 1)

    def suit_of(self, card: int) -> Suit | None:
        """The card's suit in this deck: ``None`` for a joker."""
        if self.joker_mask >> card & 1 or card >= 52:
            return None
        return Suit(card // 13)

    def __repr__(self) -> str:
        joker = ",".join(c.code for c in self.jokers) or "none"
        return f"Deck({self.size}, jokers={joker})"


param_type("suit", Suit, lambda suit, _lang: str(suit), lambda suit: suit.name, lambda name: Suit[str(name)])
# a suit in a message: ♦ in either language, {"suit": "D"} stored
