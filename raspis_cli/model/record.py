"""The game record: what a notation file or a JSON record says happened.

A record is what was *written*, not what the rules allow: it may hold an
unknown option, an illegal bid or a card the player never had; replaying it
through the engine finds those. Every value keeps where it was written
(:class:`Pos`), so a violation can point at it.

The model follows ``docs/RECORD-JSON.md`` field for field; the notation reader,
the notation writer and the JSON codec all produce and consume it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import overload

from raspis_cli.model.cards import Card, Suit
from raspis_cli.model.diagnostics import Pos
from raspis_cli.model.joker import JokerDecl
from raspis_cli.model.lines import PAIRS_LINES, PENALTY_REASONS, penalty_rule
from raspis_cli.text.i18n import N_
from raspis_cli.text.messages import Message, msg, term_words

__all__ = [
    "NO_TRUMP",
    "CompactDeal",
    "CompactTrick",
    "CompactTrickInts",
    "DeclaredTrick",
    "NUMBER_RANGES",
    "OutOfRange",
    "DealRecord",
    "GameRecord",
    "JokerDecl",
    "NoTrump",
    "PenaltyRecord",
    "PlayRecord",
    "Pos",
    "TrumpValue",
    "bound_numbers",
    "hand_cards",
    "shown_number",
]


class NoTrump(Enum):
    """The explicit "no trump" of a deal (JSON ``null``)."""

    NO_TRUMP = "none"

    def __repr__(self) -> str:
        return "NO_TRUMP"


NO_TRUMP = NoTrump.NO_TRUMP

TrumpValue = Card | Suit | NoTrump
"""A deal's trump as written: the card turned up or shown, a bare suit, or no
trump. ``None`` in :attr:`DealRecord.trump` means it was not written."""


@dataclass(slots=True)
class PlayRecord:
    """One card played in a trick, by a player (a name as written)."""

    player: str
    card: Card
    joker: JokerDecl | None = None
    pos: Pos | None = None


@dataclass(slots=True)
class PenaltyRecord:
    """A penalty written in the record: points (usually negative) and a reason."""

    player: str
    points: int
    reason: str
    pos: Pos | None = None

    @property
    def rule(self) -> str | None:
        """The prescribed penalty the reason names (``revoke``, ``joker-lead``, also in the
        players' words: ``ренонс``, ``ход не в масть``), ``None`` for free words. The reason
        itself stays as written."""
        return penalty_rule(self.reason)


def _reason_words(rule: str, lang: str) -> str | None:
    """A prescribed penalty's reason in a message: ``revoke`` in English, «ренонс» in Russian (the
    players' first Russian word for it, :data:`~raspis_cli.model.lines.PENALTY_REASONS`)."""
    words = PENALTY_REASONS.get(rule)
    return words[1] if lang == "ru" and words is not None and len(words) > 1 else None


term_words("penalty-reason", _reason_words)  # a penalty's reason in a message: «ренонс», stored as revoke


CompactTrick = tuple[list[str], list[Card], int, str]
"""A trick without a joker, every card in turn from the leader, as one tuple:
the players from the leader round the table, the cards in play order, the
line number and the line's code. The notation reader keeps a plain trick line
so; where each card was written (:class:`Pos`) is worked out from the line
only when someone asks (:attr:`DealRecord.tricks`). A trick that was never
written (the simulator's) has line ``0`` and code ``""``: no positions.
The players' names and the cards are shared objects, so a trick costs one
tuple."""


DeclaredTrick = tuple[list[str], list[Card], int, str, list[JokerDecl | None], list[int]]
"""A trick line read the long way (a joker declared, the joker written as a
word, not single-spaced) whose cards are played in turn from the leader,
only the leader named, as one tuple: the players from the leader, the cards,
the line number and code, each card's declaration (``None`` but where a
joker is declared) and each card's column as the parser found it (the
leader's name for the first). Its :class:`PlayRecord` objects are made only
when someone asks (:func:`compact_plays`)."""


def trick_columns(code: str) -> list[int]:
    """The column of each card of a single-spaced trick line ``trick NAME:
    CARD CARD ...``: the leader's name for the first card, then each card's
    own (the notation reader's fast path writes only such lines compactly)."""
    parts = code.split()
    name_col = len(code) - len(code.lstrip()) + len(parts[0]) + 2
    cols = [name_col]
    at = name_col + len(parts[1]) + 1
    for token in parts[2:-1]:
        at += len(token) + 1
        cols.append(at)
    return cols


def compact_plays(trick: CompactTrick | DeclaredTrick) -> list[PlayRecord]:
    """The object view of a compact trick: one :class:`PlayRecord` per card,
    with its position, exactly as the reader's card-by-card path makes it."""
    if len(trick) == 6:
        line = trick[2]
        return [PlayRecord(player, card, decl, Pos(line, column))
                for player, card, decl, column in zip(trick[0], trick[1], trick[4], trick[5], strict=False)]
    players, cards, line, code = trick
    if not code:
        return [PlayRecord(player, card) for player, card in zip(players, cards, strict=False)]
    return [PlayRecord(player, card, None, Pos(line, column))
            for player, card, column in zip(players, cards, trick_columns(code), strict=False)]


PlayEntry = CompactTrick | DeclaredTrick | list[PlayRecord]
"""A trick of a compact deal: compact, declared, or (a line read the long
way with names written) its plays."""


def _first_pos(entry: PlayEntry) -> Pos | None:
    if isinstance(entry, tuple) and len(entry) == 6:
        return Pos(entry[2], entry[5][0]) if entry[5] else None
    if isinstance(entry, tuple):
        return Pos(entry[2], trick_columns(entry[3])[0]) if entry[3] else None
    return entry[0].pos if entry else None


class _TricksField:
    """:attr:`DealRecord.tricks`: the plays as objects, made from the compact
    record of play (:meth:`DealRecord.compact_play`) the first time they are
    asked for. From then on the objects are the record (they may be changed
    in place), and the compact form is dropped."""

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> None: ...
    @overload
    def __get__(self, obj: DealRecord, owner: type | None = None) -> list[list[PlayRecord]] | None: ...
    def __get__(self, obj: DealRecord | None, owner: type | None = None) -> list[list[PlayRecord]] | None:
        if obj is None:
            return None  # the dataclass field's default
        state = obj.__dict__
        play: list[PlayEntry] | None = state["_play"]
        if play is None:
            tricks: list[list[PlayRecord]] | None = state["_tricks"]
            return tricks
        obj.fill_trick_positions()
        made = [entry if isinstance(entry, list) else compact_plays(entry) for entry in play]
        state["_tricks"] = made
        state["_play"] = None
        return made

    def __set__(self, obj: DealRecord, value: list[list[PlayRecord]] | None) -> None:
        state = obj.__dict__
        if state.get("_play") is not None:
            obj.fill_trick_positions()
        state["_tricks"] = value
        state["_play"] = None


class _PositionsField:
    """:attr:`DealRecord.positions`: a dict, into which the positions of
    compact tricks (``"tricks"``, ``"trick:N"``) are put when it is asked for."""

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> None: ...
    @overload
    def __get__(self, obj: DealRecord, owner: type | None = None) -> dict[str, Pos]: ...
    def __get__(self, obj: DealRecord | None, owner: type | None = None) -> dict[str, Pos] | None:
        if obj is None:
            return None  # the default: a new dict (see __set__)
        state = obj.__dict__
        later = state["_later"]
        if later:
            state["_later"] = None
            for fill in later:
                fill(state["_positions"])
        if state["_play"] is not None and state["_placed"] < len(state["_play"]):
            obj.fill_trick_positions()
        positions: dict[str, Pos] = state["_positions"]
        return positions

    def __set__(self, obj: DealRecord, value: dict[str, Pos] | None) -> None:
        obj.__dict__["_positions"] = {} if value is None else value


@dataclass
class DealRecord:
    """One deal as recorded. Only number, kind, dealer and cards are required.

    ``positions`` maps a field to where it was written: ``"number"``,
    ``"kind"``, ``"dealer"``, ``"cards"``, ``"trump"``, and per player
    ``"hand:NAME"``, ``"bid:NAME"``, ``"taken:NAME"``, ``"score:NAME"``,
    ``"total:NAME"``; ``"bids"``, ``"tricks"``, ``"taken"``, ``"scores"`` for
    the start of each section.

    The notation reader keeps the play compactly (:meth:`compact_play`);
    :attr:`tricks` is then made from it on first use, as objects.
    """

    number: int
    kind: str
    dealer: str
    cards: int
    trump: TrumpValue | None = None
    hands: dict[str, list[Card]] | None = None
    bids: dict[str, int] | None = None
    tricks: _TricksField = _TricksField()
    taken: dict[str, int] | None = None
    scores: dict[str, int] | None = None
    totals: dict[str, int] | None = None
    penalties: list[PenaltyRecord] | None = None
    replayed: bool = False
    pos: Pos | None = None
    positions: _PositionsField = _PositionsField()
    comments: list[str] = field(default_factory=list)
    extra: dict[str, object] = field(default_factory=dict)
    comment_anchors: list[str] = field(default_factory=list)
    """Where each of :attr:`comments` sits (added for the notation): ``"on:KEY"``
    at the end of the line of KEY, ``"after:KEY"`` on its own line after it;
    KEY is ``deal`` (the deal line), ``hand:NAME``, ``bids``, ``trick:N``,
    ``taken``, ``scores``, ``totals``, ``penalty:N`` or ``replayed``. Missing
    entries mean ``"after:deal"``. Comments are kept as written, with their
    ``;`` or ``{ }``."""

    def __post_init__(self) -> None:
        self.__dict__.setdefault("_play", None)
        self.__dict__["_placed"] = 0
        self.__dict__["_later"] = None

    @classmethod
    def bare(cls, number: int, kind: str, dealer: str, cards: int,
             trump: TrumpValue | None = None, pos: Pos | None = None) -> DealRecord:
        """``DealRecord(number, kind, dealer, cards, trump, pos=pos)``, made
        without the dataclass's ``__init__`` (its descriptors and default
        factories cost a reader more than the rest of a sheet line): a copy
        of an empty record's state with new containers."""
        state = _BARE_STATE.copy()
        state["number"] = number
        state["kind"] = kind
        state["dealer"] = dealer
        state["cards"] = cards
        state["trump"] = trump
        state["pos"] = pos
        for key, make in _BARE_FRESH:
            state[key] = make()
        record = object.__new__(cls)
        record.__dict__ = state
        return record

    def where(self, key: str) -> Pos | None:
        """Where a field was written, falling back to the deal's own place."""
        state = self.__dict__
        found: Pos | None = state["_positions"].get(key)
        if found is None and (state["_later"] or state["_play"] is not None):
            found = self.positions.get(key)
        return self.pos if found is None else found

    def written_positions(self) -> dict[str, Pos]:
        """:attr:`positions` as they are, without working out those left for
        later (:meth:`add_positions_later`, compact tricks): for a reader to
        add the positions of the lines it reads."""
        positions: dict[str, Pos] = self.__dict__["_positions"]
        return positions

    def add_positions_later(self, fill: Callable[[dict[str, Pos]], None]) -> None:
        """Have ``fill`` put positions into :attr:`positions` when they are
        first asked for (the reader's fast path works out where each value of
        a line was written only then)."""
        state = self.__dict__
        if state["_later"] is None:
            state["_later"] = [fill]
        else:
            state["_later"].append(fill)

    # -- the compact record of play -------------------------------------------

    def compact_play(self) -> list[PlayEntry] | None:
        """The tricks as the notation reader kept them (compact tricks, and
        the plays of lines read the long way), while nobody has asked for
        :attr:`tricks`; ``None`` once the objects are the record (or the deal
        has no tricks)."""
        play: list[PlayEntry] | None = self.__dict__["_play"]
        return play

    def trick_entries(self) -> Sequence[PlayEntry] | None:
        """The tricks without making an object per card: the compact record
        of play while there is one (:meth:`compact_play`), else
        :attr:`tricks`. For readers that take both forms (the writer)."""
        play: list[PlayEntry] | None = self.__dict__["_play"]
        if play is not None:
            return play
        tricks: list[list[PlayRecord]] | None = self.__dict__["_tricks"]
        return tricks

    def trick_plays(self) -> list[list[tuple[str, Card, JokerDecl | None]]] | None:
        """The tricks as (player, card, declaration) per card, in play order,
        read from the compact form while there is one (no object per card, no
        position worked out) or from :attr:`tricks`: for readers of the plays
        that need no positions (the store's rows)."""
        play: list[PlayEntry] | None = self.__dict__["_play"]
        if play is None:
            tricks = self.tricks
            if tricks is None:
                return None
            return [[(p.player, p.card, p.joker) for p in trick] for trick in tricks]
        return [(list(zip(entry[0], entry[1], entry[4], strict=False)) if len(entry) == 6
                 else list(zip(entry[0], entry[1], [None] * len(entry[1]), strict=False)))
                if isinstance(entry, tuple) else [(p.player, p.card, p.joker) for p in entry]
                for entry in play]

    def start_compact_play(self) -> list[PlayEntry]:
        """Begin (or continue) the compact record of play: the list the reader
        appends each trick to. The deal must have no tricks as objects yet."""
        state = self.__dict__
        play: list[PlayEntry] | None = state["_play"]
        if play is None:
            assert state["_tricks"] is None
            play = state["_play"] = []
        return play

    def fill_trick_positions(self) -> None:
        """Put the positions of the compact tricks (``"tricks"``, ``"trick:N"``)
        into :attr:`positions` (those not put there yet)."""
        state = self.__dict__
        play: list[PlayEntry] | None = state["_play"]
        if play is None:
            return
        positions: dict[str, Pos] = state["_positions"]
        start = state["_placed"]
        for number in range(start + 1, len(play) + 1):
            found = _first_pos(play[number - 1])
            if found is None:
                continue
            if number == 1:
                positions.setdefault("tricks", found)
            positions[f"trick:{number}"] = found
        state["_placed"] = len(play)


_BARE_STATE: dict[str, object] = dict(DealRecord(0, "", "", 0).__dict__)
"""An empty deal record's state (:meth:`DealRecord.bare` copies it)."""
_BARE_FRESH: tuple[tuple[str, Callable[[], object]], ...] = tuple(
    (key, type(value)) for key, value in _BARE_STATE.items() if isinstance(value, (list, dict, set)))
"""The containers of that state, each made anew for every record."""


@dataclass(slots=True)
class GameRecord:
    """One game: tags, rules, players in seating order, deals, written totals.

    ``rules_preset`` and ``rules_options`` are as written (unchecked): the
    replay turns them into :class:`~raspis_cli.rules.Rules` and reports a
    ``rules`` violation for what it cannot read. ``positions`` maps
    ``"rules"``, ``"option:NAME"``, ``"players"``, ``"player:NAME"`` and
    ``"total:NAME"`` to where they were written; ``span`` is the first and
    last source line of the game.
    """

    players: list[str]
    deals: list[DealRecord] = field(default_factory=list)
    tags: dict[str, str] = field(default_factory=dict)
    rules_preset: str | None = None
    rules_options: dict[str, object] = field(default_factory=dict)
    totals: dict[str, int] | None = None
    unfinished: bool = False
    pos: Pos | None = None
    span: tuple[int, int] | None = None
    positions: dict[str, Pos] = field(default_factory=dict)
    comments: list[str] = field(default_factory=list)
    extra: dict[str, object] = field(default_factory=dict)
    comment_anchors: list[str] = field(default_factory=list)
    """Where each of :attr:`comments` sits (added for the notation): ``"start"``
    before the tags, ``"on:KEY"`` / ``"after:KEY"`` with KEY ``tag:NAME``,
    ``rules``, ``option:NAME``, ``players``, ``final`` or ``unfinished``.
    Missing entries mean ``"start"``."""

    def where(self, key: str) -> Pos | None:
        """Where a field was written, falling back to the game's own place."""
        return self.positions.get(key, self.pos)


# --- a deal as integers --------------------------------------------------------

CARD_OF: tuple[Card, ...] = tuple(Card.from_index(i) for i in range(54))
"""The card of each index 0..53 (the compact record's cards are indexes)."""

SUIT_RUNS: tuple[int, ...] = (*(0x1FFF << (13 * s) for s in range(4)), 0b11 << 52)
"""The hand-mask bits of each suit (the two jokers of 54 cards last): a hand
is written suit by suit in this order, high cards first."""


def hand_cards(mask: int) -> list[Card]:
    """A hand mask's cards in the order a hand is written: by printed suit
    (♠ ♣ ♦ ♥, the jokers of 54 cards last), high cards first."""
    out = []
    for run in SUIT_RUNS:
        bits = mask & run
        while bits:
            top = bits.bit_length() - 1
            out.append(CARD_OF[top])
            bits ^= 1 << top
    return out


CompactTrickInts = tuple[int, Sequence[int], Sequence[JokerDecl | None] | None]
"""A trick of a :class:`CompactDeal`: the leader's seat, the cards in play
order (each seat in turn from the leader), and each card's declaration
(``None`` for a natural card) when a joker is in the trick, else ``None``."""


@dataclass(slots=True)
class CompactDeal:
    """A deal as integers, seats instead of names: what the simulator makes
    and the notation writer writes from (:func:`raspis_cli.notation.writer.write_compact_game`)
    without a :class:`DealRecord`; :meth:`to_record` gives the record.

    Values are per seat (index into the game's players). ``None`` (or, for
    ``penalties``, empty) means not written: ``trump`` is a card index, ``-1``
    for no trump (:data:`NO_TRUMP`); ``hands`` are the masks as dealt;
    ``bids`` are ``None`` for a kind without bids; ``penalties`` are
    ``(seat, points, reason)``; ``totals`` are the running totals after the
    deal.
    """

    number: int
    kind: str
    cards: int
    dealer: int
    taken: Sequence[int] | None = None
    bids: Sequence[int | None] | None = None
    scores: Sequence[int] | None = None
    totals: Sequence[int] | None = None
    penalties: Sequence[tuple[int, int, str]] = ()
    trump: int | None = None
    hands: Sequence[int] | None = None
    tricks: Sequence[CompactTrickInts] | None = None

    def to_record(self, players: Sequence[str]) -> DealRecord:
        """The deal as a :class:`DealRecord` of these players: bids in bidding
        order (from the left of the dealer), hands in written order, a trick
        without a joker as one :data:`CompactTrick`, a joker's as plays."""
        n = len(players)
        names = list(players)
        record = DealRecord(number=self.number, kind=self.kind, dealer=names[self.dealer],
                            cards=self.cards)
        bids = self.bids
        if bids is not None:
            order = [(self.dealer + 1 + i) % n for i in range(n)]
            record.bids = {names[s]: b for s in order if (b := bids[s]) is not None}
        if self.taken is not None:
            record.taken = dict(zip(names, self.taken, strict=True))
        if self.penalties:
            record.penalties = [PenaltyRecord(names[s], p, r) for s, p, r in self.penalties]
        if self.scores is not None:
            record.scores = dict(zip(names, self.scores, strict=True))
        if self.totals is not None:
            record.totals = dict(zip(names, self.totals, strict=True))
        if self.trump is not None:
            record.trump = NO_TRUMP if self.trump < 0 else CARD_OF[self.trump]
        if self.hands is not None:
            record.hands = {names[s]: hand_cards(mask) for s, mask in enumerate(self.hands)}
        if self.tricks is not None:
            rotations = [names[i:] + names[:i] for i in range(n)]
            play = record.start_compact_play()
            cards_of = CARD_OF
            for leader, cards, decls in self.tricks:
                if decls is None:
                    play.append((rotations[leader], [cards_of[c] for c in cards], 0, ""))
                else:
                    play.append([PlayRecord(names[(leader + k) % n], cards_of[c], decls[k])
                                 for k, c in enumerate(cards)])
        return record


# --- the numbers a record may hold ---------------------------------------------

NUMBER_RANGES: dict[str, tuple[int, int]] = {
    "number": (0, 9_999),
    "cards": (0, 999),
    **{kind.one: (kind.low, kind.high) for kind in PAIRS_LINES},
    "penalty": (-999_999_999, 999_999_999),
}
"""The range of each number a record may hold (inclusive), by what it is:
a deal's number and cards, a bid, a taken count, a written score, running
or final total, a penalty's points. Far beyond any real game (a deck has 54
cards), small enough that nothing computed from them overflows. Option
values have their own range (:data:`raspis_cli.rules.options.OPTION_INT_RANGE`)."""


@dataclass(frozen=True, slots=True)
class OutOfRange:
    """A number outside :data:`NUMBER_RANGES`: what it is, its key in the
    record (``bid:Анна``, ``cards``, ``final:Анна``), the value, where."""

    what: str
    key: str
    value: int
    deal: int | None
    pos: Pos | None

    @property
    def message(self) -> Message:
        """The diagnostic's words (the value cut to 30 digits), in the
        interface language."""
        low, high = NUMBER_RANGES[self.what]
        one, many = _NUMBER_WORDS[self.what]
        text = shown_number(self.value)
        if isinstance(text, Message):  # "the deal (a number of about 31 digits) is ..."
            text = "(" + text + ")"
        place = msg("deal {deal}: ").format(deal=self.deal) if self.deal is not None else ""
        return place + msg("{what} {value} is out of range (a record holds {whats} from {low} "
                         "to {high})").format(what=msg(one), value=text, whats=msg(many),
                                              low=low, high=high)


_NUMBER_WORDS: dict[str, tuple[str, str]] = {
    "number": (N_("the deal number"), N_("deal numbers")),
    "cards": (N_("the number of cards"), N_("numbers of cards")),
    "bid": (N_("the bid"), N_("bids")),
    "taken": (N_("the number taken"), N_("numbers taken")),
    "score": (N_("the score"), N_("scores")),
    "total": (N_("the total"), N_("totals")),
    "penalty": (N_("the penalty"), N_("penalties")),
}
"""What each number of :data:`NUMBER_RANGES` is called in E215's message
(one, many), marked for translation."""


def shown_number(value: int) -> int | Message:
    """A number as a message quotes it: whole up to 30 digits, else its size
    (``str()`` of a number of more than 4,300 digits raises)."""
    if value.bit_length() <= 96:
        return value
    return msg("a number of about {n} digits").format(n=int(value.bit_length() * 0.30103) + 1)


def _outside(what: str, value: int) -> bool:
    low, high = NUMBER_RANGES[what]
    return not low <= value <= high


def bound_numbers(game: GameRecord) -> list[OutOfRange]:
    """Every number of ``game`` outside :data:`NUMBER_RANGES`, removed from
    the record (a deal whose number or cards are out of range is dropped
    whole), so that nothing downstream computes with it; the readers report
    each as a diagnostic at its place."""
    found: list[OutOfRange] = []
    kept: list[DealRecord] = []
    number_low, number_high = NUMBER_RANGES["number"]
    cards_low, cards_high = NUMBER_RANGES["cards"]
    for deal in game.deals:
        if not (number_low <= deal.number <= number_high and cards_low <= deal.cards <= cards_high):
            bad = [w for w in ("number", "cards") if _outside(w, getattr(deal, w))]
            found.extend(OutOfRange(w, w, getattr(deal, w), None, deal.where(w)) for w in bad)
            continue
        kept.append(deal)
        for kind in PAIRS_LINES:
            what = kind.one
            values: dict[str, int] | None = getattr(deal, kind.field)
            if not values:
                continue
            low, high = NUMBER_RANGES[what]
            if low <= min(values.values()) and max(values.values()) <= high:
                continue
            for name in [n for n, v in values.items() if _outside(what, v)]:
                found.append(OutOfRange(what, f"{what}:{name}", values[name], deal.number,
                                        deal.where(f"{what}:{name}")))
                del values[name]
        if deal.penalties:
            for p in [p for p in deal.penalties if _outside("penalty", p.points)]:
                found.append(OutOfRange("penalty", "penalty", p.points, deal.number,
                                        p.pos or deal.where("penalties")))
                deal.penalties.remove(p)
    if len(kept) != len(game.deals):
        game.deals = kept
    if game.totals:
        for name in [n for n, v in game.totals.items() if _outside("total", v)]:
            found.append(OutOfRange("total", f"final:{name}", game.totals[name], None,
                                    game.where(f"total:{name}")))
            del game.totals[name]
    return found
