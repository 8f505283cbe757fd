"""The words and tokens of the ``.rsp`` notation: keywords, kinds, "no trump" and joker words, the
joker's declaration phrases, the token patterns every line pattern is built from, and card and trump
tokens.

The regular expressions of :data:`LINE_PATTERNS` are what the line parser matches
(:mod:`raspis_cli.notation.line_grammar`) and what the pyparsing grammar is composed of
(:mod:`raspis_cli.notation.file_grammar`), so the two read the same language.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    pass

from raspis_cli.model.cards import Card, CardError, Suit, parse_card, parse_suit
from raspis_cli.model.deal_kinds import DEAL_KIND_ROWS
from raspis_cli.model.joker_modes import MODE_PHRASES
from raspis_cli.model.lines import LINE_KEYWORDS

__all__ = [
    "CURLY_QUOTES",
    "CURLY_RE",
    "BARE_NAME_RE",
    "CANONICAL_KEYWORD",
    "CARD_FAST",
    "CARD_TOKENS",
    "CELL_RE",
    "DEAL_RE",
    "INT_RE",
    "ITEM_RE",
    "JOKER_WORD",
    "JOKER_WORDS",
    "KEYWORDS",
    "KIND_WORDS",
    "MAX_PHRASE",
    "MODE_PHRASES",
    "DECL_FILLERS",
    "SUIT_CASES",
    "NAME_RE",
    "NONE_WORD",
    "NONE_WORDS",
    "PENALTY_RE",
    "SUIT_SYMBOL_RE",
    "TAG_RE",
    "TRUMP_WORD",
    "VARIATION",
    "read_card_token",
    "read_suit",
    "read_trump",
    "read_trump_token",
]


# --- words -------------------------------------------------------------------

KIND_WORDS: Final[dict[str, str]] = {
    word: row.kind for row in DEAL_KIND_ROWS for word in (row.kind, row.russian, *row.spellings)}
"""Each spelling of a kind of deal -> the kind (the table: :mod:`raspis_cli.model.deal_kinds`)."""

KEYWORDS: Final[dict[str, str]] = dict(LINE_KEYWORDS)
"""Each keyword spelling -> its canonical English word (the table: :mod:`raspis_cli.model.lines`)."""

CANONICAL_KEYWORD: Final = {k: k for k in set(KEYWORDS.values())}

NONE_WORD: Final = "none"
"""The trump value of an explicit "no trump" (``-``, ``none``, ``нет``, ``б/к``)."""
JOKER_WORD: Final = "joker"
"""A card written as the word joker (``JK``, ``Дж``): the reader resolves it."""
TRUMP_WORD: Final = "trump"
"""A declaration's suit written as "trump" (``козырям``): the reader resolves it."""

NONE_WORDS: Final = frozenset({"-", "—", "–", "none", "нет", "без", "б/к", "бк", "no"})
JOKER_WORDS: Final = frozenset({"jk", "joker", "дж", "джокер", "jkr", "жк"})

SUIT_CASES: Final[dict[Suit | str, dict[str, tuple[str, ...]]]] = {
    # every case, singular and plural, of each suit's names (and of the adjective a player puts
    # before "масти"), Russian and Ukrainian; parse_suit reads the base forms (пики, бубны ...)
    Suit.S: {
        "ru": ("пика", "пики", "пике", "пику", "пикой", "пикою", "пик", "пикам", "пиками", "пиках",
               "вини", "виней", "виням", "винями", "винях",
               "пиковая", "пиковой", "пиковую", "пиковые", "пиковых", "пиковым", "пиковыми"),
        "uk": ("піка", "піки", "піці", "піку", "пікою", "пік", "пікам", "піками", "піках",
               "пікова", "пікової", "пікову", "пікові", "пікових", "піковим", "піковими"),
        "en": ("spades", "spade"),
    },
    Suit.C: {
        "ru": ("трефа", "трефы", "трефе", "трефу", "трефой", "трефою", "треф", "трефам", "трефами",
               "трефах", "крести", "крестей", "крестям", "крестями", "крестях", "кресте",
               "трефовая", "трефовой", "трефовую", "трефовые", "трефовых", "трефовым", "трефовыми",
               "крестовая", "крестовой", "крестовую", "крестовые", "крестовых", "крестовым"),
        "uk": ("трефа", "трефи", "трефі", "трефу", "трефою", "треф", "трефам", "трефами", "трефах",
               "хрести", "хреста", "хрестів", "хрестам", "хрестами", "хрестах",
               "трефова", "трефової", "трефову", "трефові", "трефових", "трефовим", "трефовими"),
        "en": ("clubs", "club"),
    },
    Suit.D: {
        "ru": ("бубна", "бубны", "бубне", "бубну", "бубной", "бубною", "бубен", "бубён", "бубнам",
               "бубнами", "бубнах", "буби", "бубей", "бубям", "бубями", "бубях",
               "бубновая", "бубновой", "бубновую", "бубновые", "бубновых", "бубновым", "бубновыми"),
        "uk": ("бубна", "бубни", "бубні", "бубну", "бубною", "бубон", "бубнам", "бубнами", "бубнах",
               "бубнова", "бубнової", "бубнову", "бубнові", "бубнових", "бубновим", "бубновими"),
        "en": ("diamonds", "diamond"),
    },
    Suit.H: {
        "ru": ("черва", "червы", "черве", "черву", "червой", "червою", "черви", "червей", "черв",
               "червям", "червам", "червями", "червами", "червях", "червах",
               "чирва", "чирвы", "чирве", "чирву", "чирвой", "чирвою", "чирви", "чирв", "чирвей",
               "чирвам", "чирвям", "чирвами", "чирвями", "чирвах", "чирвях",
               "червовая", "червовой", "червовую", "червовые", "червовых", "червовым", "червовыми",
               "червонная", "червонной", "червонную", "червонные", "червонных", "червонным",
               "чирвовая", "чирвовой", "чирвовую", "чирвовые", "чирвовых", "чирвовым"),
        "uk": ("черва", "черви", "черві", "черву", "червою", "черв", "червам", "червами", "червах",
               "чирва", "чирви", "чирві", "чирву", "чирвою", "чирв", "чирвам", "чирвами", "чирвах",
               "черв'якам",  # sic: the machine-translated Ukrainian page's word for червям
               "червова", "червової", "червову", "червові", "червових", "червовим", "червовими"),
        "en": ("hearts", "heart"),
    },
    TRUMP_WORD: {
        "ru": ("козырь", "козыря", "козырю", "козырем", "козыре", "козыри", "козырей", "козырям",
               "козырями", "козырях",
               "козырная", "козырной", "козырную", "козырные", "козырных", "козырным", "козырными"),
        "uk": ("козир", "козиря", "козирю", "козирем", "козирі", "козирів", "козирям", "козирями",
               "козирях",
               "козирна", "козирної", "козирну", "козирні", "козирних", "козирним", "козирними"),
        "en": ("trump", "trumps"),
    },
}
"""The words a joker's declaration may name its suit with, by suit (``trump``: the deal's trump
suit) and language: every case of the suits' names, as a player says them ("по старшим пикам",
"скидываю бубну", "по старших козирях", "червовой масти"). docs/NOTATION.md lists them."""

_DECL_SUITS: Final[dict[str, Suit | str]] = {
    word: suit for suit, languages in SUIT_CASES.items() for words in languages.values()
    for word in words}

MAX_PHRASE: Final = max(len(k) for k in MODE_PHRASES)

DECL_FILLERS: Final = frozenset({
    "масти", "масть", "suit", "карт", "карты", "карта", "карту", "картой", "взятку", "себе",
    "ненужную", "масті", "карти", "хабар", "непотрібну",
})
"""Words a declaration may hold besides its phrase and its suit or card, read past:
"за самую младшую карту", "старшие карты масти бубны", "скинуть ненужную карту"."""

VARIATION: Final = {ord("\ufe0f"): None, ord("\ufe0e"): None}


# --- token patterns (shared by the fast regexes and the pyparsing grammar) -----

P_WORD_CHARS: Final = r'[^\s|:,;=(){}\[\]"]'
P_QUOTED: Final = r'"(?:[^"\\\n]|\\.)*"'
P_BARE_NAME: Final = r'[^\s\d+\-|:,;=(){}\[\]"]' + P_WORD_CHARS + "*"
P_NAME: Final = f"(?:{P_QUOTED}|{P_BARE_NAME})"
P_TOKEN: Final = P_WORD_CHARS + "+"
P_INT: Final = r"[+-]?\d+"
P_NAT: Final = r"\d+"
P_TAG_NAME: Final = r"[^\W\d]\w*"
P_DECL: Final = r"\([^()]*\)"
P_KIND: Final = "(?:" + "|".join(
    re.escape(w) for w in sorted(KIND_WORDS, key=len, reverse=True)
) + r")(?=\s|$)"
P_CELL_BT: Final = r"(?:\d+|-)?(?:/(?:\d+|-)?)?"

NAME_RE: Final = re.compile(P_NAME)
BARE_NAME_RE: Final = re.compile(P_BARE_NAME)
INT_RE: Final = re.compile(P_INT)


def _line_element(name: str, pattern: str, flags: int = 0) -> tuple[str, str, int]:
    return name, pattern, flags


LINE_PATTERNS: Final[dict[str, tuple[str, str, int]]] = {
    # one or more tag pairs: [Name "value"]
    "tag": _line_element("tag pair", rf"\[\s*({P_TAG_NAME})\s*({P_QUOTED})\s*\]"),
    # N. CARDS [KIND] DEALER [TRUMP] [| cells]
    "deal": _line_element(
        "deal line",
        rf"\s*(?P<number>{P_NAT})(?:\.|\))?\s+(?P<cards>{P_NAT})\s+"
        rf"(?:(?P<kind>{P_KIND})\s+)?(?P<dealer>{P_NAME})"
        rf"(?:\s+(?P<trump>[^\s|]+))?\s*(?:\|(?P<cells>.*))?",
        re.IGNORECASE,
    ),
    # one sheet cell: bid/taken score total
    "cell": _line_element(
        "sheet cell",
        # possessive spaces, and a score right after the leading spaces when there is no
        # bid/taken: the same cells as "\s*BT(\s+SCORE)?(\s+TOTAL)?\s*" without its
        # quadratic backtracking over long runs of spaces
        rf"\s*+(?P<bt>{P_CELL_BT})(?:(?:\s++|(?<=\s))(?P<score>{P_INT}|-))?"
        rf"(?:\s++(?P<total>{P_INT}|-))?\s*+",
    ),
    # hand NAME: cards...
    "hand": _line_element("hand line", rf"\s*\S+\s+(?P<name>{P_NAME})\s*:?(?P<cards>.*)"),
    # penalty NAME POINTS reason
    "penalty": _line_element(
        "penalty line",
        rf"\s*\S+\s+(?P<name>{P_NAME})\s*+(?::\s*+)?(?P<points>{P_INT})(?:\s++(?P<reason>.*\S))?\s*+",
    ),
    # an item of a trick or of a NAME NUMBER list: a quoted name, a word with an
    # attached or detached joker declaration, or a single punctuation mark
    "item": _line_element("list item", rf"({P_QUOTED})|({P_TOKEN})(?:\s*({P_DECL}))?|(\S)"),
}
"""The regular expressions the live parser matches (name, pattern, flags): each
line is matched by one of these. :data:`LINE_ELEMENTS` holds the same as
``pyparsing.Regex`` elements, built at first use (pyparsing is not imported to
read a file)."""

_LINE_RES: Final = {key: re.compile(pattern, flags) for key, (_n, pattern, flags) in LINE_PATTERNS.items()}
TAG_RE: Final = _LINE_RES["tag"]
DEAL_RE: Final = _LINE_RES["deal"]
CELL_RE: Final = _LINE_RES["cell"]
_HAND_RE: Final = _LINE_RES["hand"]
PENALTY_RE: Final = _LINE_RES["penalty"]
ITEM_RE: Final = _LINE_RES["item"]


# --- cards -------------------------------------------------------------------

CARD_FAST: dict[str, Card | str] = {}
CARD_TOKENS = CARD_FAST
"""Card tokens read without a regular expression: a token's card (or
:data:`JOKER_WORD`); a token not here is read by :func:`read_card_token`."""
for _i in range(54):
    _c = Card.from_index(_i)
    for _sp in {str(_c), _c.code, _c.code.lower()}:
        CARD_FAST[_sp] = _c
    if _c.rank == 10 and _c.suit is not None:
        CARD_FAST["T" + _c.suit.name] = _c
        CARD_FAST["T" + _c.suit.symbol] = _c


_NOT_CARD: set[str] = set()


def read_card_token(token: str) -> Card | str | None:
    """A card token: a :class:`Card`, :data:`JOKER_WORD`, or ``None`` if not a card.

    Accepts every spelling :func:`raspis_cli.model.cards.parse_card` accepts in one
    token (``10♥ 10H TH Д♠ Тч RJ``) and the joker words ``JK``, ``Дж``,
    ``joker``.
    """
    hit = CARD_FAST.get(token)
    if hit is not None:
        return hit
    if token in _NOT_CARD:
        return None
    low = token.translate(VARIATION).lower()
    if low in JOKER_WORDS:
        return JOKER_WORD
    try:
        card = parse_card(low)
    except CardError:
        if len(_NOT_CARD) < 4096:
            _NOT_CARD.add(token)
        return None
    if len(CARD_FAST) < 4096:
        CARD_FAST[token] = card
    return card


def read_suit(token: str) -> Suit | str | None:
    low = token.translate(VARIATION).lower()
    extra = _DECL_SUITS.get(low)
    if extra is not None:
        return extra
    try:
        return parse_suit(low)
    except CardError:
        return None



def read_trump_token(token: str) -> Card | Suit | str | None:
    """A deal line's trump token: a :class:`Card`, a :class:`Suit`,
    :data:`NONE_WORD` for no trump (or :data:`JOKER_WORD`), or ``None``."""
    return read_trump(token)


def read_trump(token: str) -> Card | Suit | str | None:
    low = token.lower()
    if low in NONE_WORDS:
        return NONE_WORD
    card = read_card_token(token)
    if card is not None:
        return card
    try:
        return parse_suit(low)
    except CardError:
        return None



SUIT_SYMBOL_RE: Final = re.compile("[♠♣♦♥♤♧♢♡]")

CURLY_QUOTES: Final = str.maketrans({"“": '"', "”": '"', "„": '"', "«": '"', "»": '"', "″": '"'})
"""Typographic quotes (a phone's keyboard) as the plain quote the notation reads."""
CURLY_RE: Final = re.compile("[“”„«»″]")
