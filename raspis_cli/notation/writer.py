"""Game records to the canonical ``.rsp`` text.

One canonical form per language: tags in a fixed order, one sheet line per
deal with its columns aligned across the game (like the paper расписка) by
the columns each text takes on the screen (:func:`display_width`), detail
lines indented by two spaces, suit symbols (``10♥``). In English (the
default) the keywords, kinds of deal, joker modes and penalty codes are
English and the ranks ``J Q K A``; in Russian (``lang="ru"``, ``raspis fmt
--lang ru``) they are the players' words the reader takes (``взятка``,
``бескозырка``, ``(по старшим ♦)``, ``ренонс``) and the ranks ``В Д К Т``
(:class:`SheetWords`). ``raspis fmt`` prints this; reading it back gives
the same records in either language.

The layout functions here (:func:`deal_keys`, :func:`game_keys`) also tell
the reader where each comment will be written, so that comments sit in the
same place after a round trip.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, cast

from raspis_cli.model.cards import Card, Suit, card_words
from raspis_cli.model.deal_kinds import DEAL_KIND_ROWS
from raspis_cli.model.joker_modes import BY_MODE, JOKER_MODES, MODE_PHRASES, mode_of
from raspis_cli.model.lines import (
    KEYWORD_SPELLINGS,
    PAIRS_BY_FIELD,
    PAIRS_LINES,
    PENALTY_REASONS,
    penalty_rule,
)
from raspis_cli.model.record import (
    NO_TRUMP,
    CompactDeal,
    DealRecord,
    GameRecord,
    JokerDecl,
    PlayRecord,
    TrumpValue,
    compact_plays,
)
from raspis_cli.notation.quoting import NotationWriteError, quote_name
from raspis_cli.rules import OPTIONS, RulesError
from raspis_cli.rules.options import OptionError
from raspis_cli.rules.seats import bidding_order as seat_order
from raspis_cli.text.i18n import _
from raspis_cli.text.suggest import has_cyrillic
from raspis_cli.text.textsafe import display_width

__all__ = [
    "NotationWriteError",
    "SheetWords",
    "sheet_words",
    "written_language",
    "write_games",
    "write_game",
    "write_compact_game",
    "deal_keys",
    "game_keys",
    "in_cells",
    "is_blank",
    "bidding_order",
    "option_text",
    "trump_text",
    "FIRST_TAGS",
]

FIRST_TAGS = ("Event", "Site", "Date")
"""Tags written first, in this order; other free tags follow as written."""

SECTIONS = tuple(kind.field for kind in PAIRS_LINES if kind.cell is not None)
"""The lines of pairs that may be written in the sheet cells instead."""
_SECTION_SET = frozenset(SECTIONS)
_TAG_NAME = re.compile(r"[^\W\d]\w*")


# --- layout --------------------------------------------------------------------


def bidding_order(players: Sequence[str], dealer: str) -> list[str]:
    """The players from the left of the dealer round to the dealer (seating
    order when the dealer is not a player)."""
    if dealer not in players:
        return list(players)
    seats = seat_order((players.index(dealer) + 1) % len(players), len(players))
    return [players[seat] for seat in seats]


def in_cells(deal: DealRecord, players: Sequence[str], section: str) -> bool:
    """Whether a section (bids, taken, scores, totals) is written in the sheet
    cells: every name is a player, and bids are in bidding order."""
    values: dict[str, int] | None = getattr(deal, section)
    kind = PAIRS_BY_FIELD[section]
    if values is None or not players:
        return values is None
    seated = set(players)
    if len(seated) != len(players) or kind.cell is None or not seated.issuperset(values):
        return False
    if not kind.cell_negative and values and min(values.values()) < 0:
        return False  # a cell holds no negative bid or taken: a NAME NUMBER line does
    if section == "bids":
        order = [p for p in bidding_order(players, deal.dealer) if p in values]
        return list(values) == order
    return True


def is_blank(deal: DealRecord) -> bool:
    """Whether nothing is written for a deal but its number, cards, kind and
    dealer: a row of the sheet still to be filled in (``raspis new``)."""
    return (deal.trump is None and not deal.hands and not deal.trick_entries()
            and all(getattr(deal, kind.field) is None for kind in PAIRS_LINES)
            and not deal.penalties and not deal.replayed)


def deal_keys(deal: DealRecord, players: Sequence[str]) -> list[str]:
    """The comment anchors of a deal's lines, in the order they are written."""
    keys = ["deal"]
    if deal.hands:
        keys += [f"hand:{name}" for name in deal.hands]
    if deal.bids is not None and not in_cells(deal, players, "bids"):
        keys.append("bids")
    tricks = deal.trick_entries()
    if tricks:
        keys += [f"trick:{i}" for i in range(1, len(tricks) + 1)]
    for kind in PAIRS_LINES[1:]:
        if getattr(deal, kind.field) is not None and not in_cells(deal, players, kind.field):
            keys.append(kind.field)
    if deal.penalties:
        keys += [f"penalty:{i}" for i in range(1, len(deal.penalties) + 1)]
    if deal.replayed:
        keys.append("replayed")
    return keys


def _free_tags(game: GameRecord) -> list[str]:
    first = [t for t in FIRST_TAGS if t in game.tags]
    return first + [t for t in game.tags if t not in FIRST_TAGS]


def game_keys(game: GameRecord) -> list[str]:
    """The comment anchors of a game's own lines, in the order they are written
    (``start`` first; deals are not included)."""
    keys = ["start"] + [f"tag:{t}" for t in _free_tags(game)]
    if game.rules_preset is not None:
        keys.append("rules")
    keys += [f"option:{name}" for name in game.rules_options]
    if game.players:
        keys.append("players")
    if game.totals is not None:
        keys.append("final")
    if game.unfinished:
        keys.append("unfinished")
    return keys


# --- words -------------------------------------------------------------------

_CARD_TEXT = tuple(str(Card.from_index(i)) for i in range(54))
"""Each card as the English notation writes it, by index."""


@dataclass(frozen=True, slots=True)
class SheetWords:
    """The words a sheet is written with in one language (``en``, ``ru``).

    ``keywords``: each line kind (its canonical English word; for a line of
    pairs, the field it fills) -> the keyword written; ``kinds``: each kind of
    deal -> the word written; ``cards``: each card's text by index (``Д♦`` in
    Russian); ``reasons``: each prescribed penalty (``revoke``) -> the reason
    written where the record gives its English code. Every word is one the
    reader takes for the same thing (``tests/test_fmt_russian.py``)."""

    lang: str
    keywords: Mapping[str, str]
    kinds: Mapping[str, str]
    cards: tuple[str, ...]
    reasons: Mapping[str, str]
    modes: Mapping[tuple[str, bool, bool], str]
    """(mode, the joker leads, a suit or card follows) -> the mode's word."""

    def mode(self, mode: str, leads: bool, named: bool) -> str:
        """The word of a joker's declaration mode, for a joker that ``leads``
        the trick (or follows), naming a suit or card or not."""
        return self.modes.get((mode, leads, named), mode)


def _mode_words(lang: str) -> dict[tuple[str, bool, bool], str]:
    """Each mode's word in ``lang`` wherever a joker may be: the Russian word
    of the table where the reader reads it back as the same mode in that
    place, the English word where it would not (a leading joker declared
    ``discard``, a rules violation: «скинуть» on the lead is ``low``)."""
    out: dict[tuple[str, bool, bool], str] = {}
    for row in BY_MODE.values():
        for leads in (True, False):
            for named in (True, False):
                word = row.russian if lang == "ru" else row.mode
                modes = MODE_PHRASES.get(tuple(word.split()), ())
                if not modes or mode_of(modes, leads, named) != row.mode:
                    word = row.mode
                out[row.mode, leads, named] = word
    return out


_SHEET_WORDS: Final = {
    lang: SheetWords(
        lang=lang,
        keywords={key: words[0 if lang == "en" else 1] for key, words in KEYWORD_SPELLINGS.items()},
        kinds={row.kind: row.kind if lang == "en" else row.russian for row in DEAL_KIND_ROWS},
        cards=tuple(card_words(text, lang) for text in _CARD_TEXT),
        reasons={rule: words[0 if lang == "en" else 1] for rule, words in PENALTY_REASONS.items()},
        modes=_mode_words(lang),
    )
    for lang in ("en", "ru")
}


def sheet_words(lang: str = "en") -> SheetWords:
    """The words of a sheet written in ``lang`` (``ru``: Russian; anything else: English)."""
    return _SHEET_WORDS["ru" if lang == "ru" else "en"]


def _reason(reason: str, words: SheetWords) -> str:
    """A penalty's reason as a sheet in ``words``' language writes it: a
    prescribed penalty's English code (``revoke``) in the players' words
    (``ренонс``) in Russian; anything else as written."""
    if words.lang == "en" or not reason or has_cyrillic(reason):
        return reason
    rule = penalty_rule(reason)
    return reason if rule is None else words.reasons.get(rule, reason)


def _ljust(text: str, width: int) -> str:
    """``text`` padded with spaces to ``width`` columns on the screen."""
    return text + " " * (width - display_width(text))


def _rjust(text: str, width: int) -> str:
    """``text`` after the spaces that make it ``width`` columns on the screen."""
    return " " * (width - display_width(text)) + text


# --- values ------------------------------------------------------------------


def option_text(name: str, value: object) -> str:
    """An option value as the notation writes it (the ``--set`` spelling)."""
    spec = OPTIONS.get(name)
    if spec is not None:
        try:
            return spec.show(spec.read(value))
        except (OptionError, RulesError, TypeError, ValueError):
            pass
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(option_text("", v) for v in value)
    if value is None:
        return "none"
    return str(value)


def _reads_back_typed(name: str, value: object) -> bool:
    """An option's value comes back from its notation text as the same
    value: text stays text, and a known option's value is read by its rule
    (an unknown option's number, true or list would come back as text)."""
    if isinstance(value, str):
        return True
    spec = OPTIONS.get(name)
    if spec is None:
        return False
    try:
        spec.read(value)
    except (OptionError, RulesError, TypeError, ValueError):
        return False
    return True


def _quote(value: str) -> str:
    if "\n" in value or "\r" in value:
        raise NotationWriteError(_("a tag value cannot hold a line break: {value}").format(value=repr(value)))
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def trump_text(trump: TrumpValue | None, lang: str = "en") -> str:
    """A trump as the notation in ``lang`` writes it: the card (``K♠``, in
    Russian ``К♠``), the suit symbol, ``-`` for none ("" unknown)."""
    if trump is None:
        return ""
    if trump is NO_TRUMP:
        return "-"
    if isinstance(trump, Suit):
        return trump.symbol
    if isinstance(trump, Card):
        return sheet_words(lang).cards[trump]
    return str(trump)


def _decl(decl: JokerDecl, words: SheetWords | None = None, leads: bool = False) -> str:
    if decl.mode not in JOKER_MODES:
        raise NotationWriteError(_("the notation has no joker mode {mode}").format(mode=repr(decl.mode)))
    if decl.mode == "as" and decl.suit is not None:
        raise NotationWriteError(_("a joker declared 'as' names a card, not a suit: {decl} cannot be "
                                   "written").format(decl=decl.to_json()))
    if decl.mode != "as" and decl.card is not None:
        raise NotationWriteError(_("a joker declared {mode} names a suit, not a card: {decl} cannot be "
                                   "written").format(mode=repr(decl.mode), decl=decl.to_json()))
    if words is None:
        words = _SHEET_WORDS["en"]
    parts: list[str] = [words.mode(decl.mode, leads, decl.card is not None or decl.suit is not None)]
    if decl.card is not None:
        parts.append(words.cards[decl.card])
    elif decl.suit is not None:
        parts.append(decl.suit.symbol)
    return "(" + " ".join(parts) + ")"


def _pairs(values: dict[str, int]) -> str:
    return ", ".join(f"{quote_name(name)} {value}" for name, value in values.items())


def _comment_suffix(on: list[str]) -> str:
    return "".join(" " + c for c in on)


# --- deals -------------------------------------------------------------------


class _Widths:
    """Column widths of a game's sheet lines (in columns on the screen), in
    the language of ``words``."""

    def __init__(self, game: GameRecord | None, seats: int = 0, words: SheetWords | None = None) -> None:
        self.words = words = _SHEET_WORDS["en"] if words is None else words
        n = len(game.players) if game is not None else seats
        self.number = self.cards = self.kind = self.dealer = self.trump = 0
        self.parts = [[0, 0, 0] for _ in range(n)]
        # per deal (by id), the sections written in its sheet cells and the cells
        self.shown: dict[int, frozenset[str]] = {}
        self.cells: dict[int, list[list[str]] | None] = {}
        self.quoted: dict[str, str] = {}
        """Names as written (:func:`quote_name`), by name."""
        if game is None:
            return  # the caller measures (write_compact_game)
        players = game.players
        for deal in game.deals:
            if deal.number < 0 or deal.cards < 0:  # JSON may say so; the notation reads digits only
                raise NotationWriteError(_("deal {number} of {cards} cards: a negative number has no "
                                           "notation form").format(number=deal.number, cards=deal.cards))
            self.number = max(self.number, len(f"{deal.number}."))
            self.cards = max(self.cards, len(str(deal.cards)))
            if deal.kind != "normal":
                self.kind = max(self.kind, display_width(words.kinds.get(deal.kind, deal.kind)))
            self.dealer = max(self.dealer, display_width(self.name(deal.dealer)))
            self.trump = max(self.trump, display_width(trump_text(deal.trump, words.lang)))
            shown = self.shown[id(deal)] = frozenset(
                kind.field for kind in PAIRS_LINES
                if getattr(deal, kind.field) is not None and in_cells(deal, players, kind.field))
            cells = self.cells[id(deal)] = _cells(deal, players, shown)
            if cells is None:
                continue
            for i, cell in enumerate(cells):
                for k, part in enumerate(cell):
                    self.parts[i][k] = max(self.parts[i][k], len(part))

    def name(self, name: str) -> str:
        """:func:`quote_name` of ``name``, worked out once a game."""
        shown = self.quoted.get(name)
        if shown is None:
            shown = self.quoted[name] = quote_name(name)
        return shown

    def cell_width(self, seat: int) -> int:
        """The width of a seat's cells (5 when no deal has one: room for a
        bid/taken and a score written by hand in a blank cell)."""
        parts = self.parts[seat]
        return (sum(parts) + sum(1 for x in parts[1:] if x)) or 5

    def header_width(self) -> int:
        width = self.number + 1 + self.cards + 1 + self.dealer + 1 + self.trump
        if self.kind:
            width += self.kind + 1
        return width


def _cells(deal: DealRecord, players: Sequence[str], shown: frozenset[str]) -> list[list[str]] | None:
    """The parts of each player's sheet cell; ``shown``: the sections written
    in the cells (those of :data:`SECTIONS` written and :func:`in_cells`)."""
    if not shown & _SECTION_SET:
        return None
    bids = deal.bids if "bids" in shown else None
    taken = deal.taken if "taken" in shown else None
    scores = deal.scores if "scores" in shown else None
    totals = deal.totals if "totals" in shown else None
    out = []
    for p in players:
        bid = None if bids is None else bids.get(p)
        tk = None if taken is None else taken.get(p)
        if bid is None and tk is None:
            bt = "-"
        elif tk is None:
            bt = str(bid)
        else:
            bt = f"{'-' if bid is None else bid}/{tk}"
        score = None if scores is None else scores.get(p)
        total = None if totals is None else totals.get(p)
        parts = [bt, "-" if score is None else str(score), "-" if total is None else str(total)]
        if total is None:
            parts.pop()
            if score is None:
                parts.pop()
        out.append(parts)
    return out


def _deal_head(number: int, cards: int, kind: str, dealer: str, trump: str, w: _Widths) -> str:
    """The start of a deal line, up to its cells: number, cards, kind (the
    record's word, written in the language of ``w``), the dealer as written
    and the trump's text, each in its column."""
    head = f"{number}.".ljust(w.number) + " " + str(cards).rjust(w.cards) + " "
    word = "" if kind == "normal" else w.words.kinds.get(kind, kind)
    if w.kind:
        head += _ljust(word, w.kind) + " "
    elif word:
        head += word + " "
    return head + _ljust(dealer, w.dealer) + " " + _ljust(trump, w.trump)


def _deal_line(deal: DealRecord, players: Sequence[str], w: _Widths) -> str:
    head = _deal_head(deal.number, deal.cards, deal.kind, w.name(deal.dealer),
                      trump_text(deal.trump, w.words.lang), w)
    cells = w.cells[id(deal)]
    if cells is None:
        if players and is_blank(deal):
            # a row to fill in: empty cells, closed by a last "|" so that their
            # number reads back unambiguously
            return head + " |" + "".join(" " * (w.cell_width(i) + 2) + "|"
                                         for i in range(len(players)))
        return head.rstrip()
    return _with_cells(head, cells, w)


def _with_cells(head: str, cells: Sequence[Sequence[str]], w: _Widths) -> str:
    """A deal line: its head and each seat's cell in its columns."""
    texts = []
    for i, parts in enumerate(cells):
        widths = w.parts[i]
        text = parts[0].ljust(widths[0])
        for k in (1, 2):
            if widths[k]:
                text += " " + (parts[k] if k < len(parts) else "").rjust(widths[k])
        texts.append(text)
    return (head + " | " + " | ".join(texts)).rstrip()


def _trick_line(trick: Sequence[PlayRecord], following: Mapping[str, str],
                quoted: dict[str, str], words: SheetWords | None = None) -> str:
    """A trick line in the language of ``words``; a player's name is left out
    where the player is the one who ``follows`` (:func:`_followers`) the
    previous one. ``quoted`` caches :func:`quote_name`."""
    if words is None:
        words = _SHEET_WORDS["en"]
    out = [words.keywords["trick"]]
    prev: str | None = None
    for k, play in enumerate(trick):
        card = words.cards[play.card] + (_decl(play.joker, words, k == 0) if play.joker is not None else "")
        name = play.player
        if k and prev is not None and following.get(prev) == name:
            out.append(card)
        else:
            shown = quoted.get(name)
            if shown is None:
                shown = quoted[name] = quote_name(name)
            out.append(f"{shown}: {card}" if k == 0 else f"{shown} {card}")
        prev = name
    return " ".join(out)


def _compact_trick_line(players: Sequence[str], cards: Sequence[Card], following: Mapping[str, str],
                        rotations: Mapping[str, Sequence[str]], quoted: dict[str, str],
                        words: SheetWords | None = None) -> str | None:
    """:func:`_trick_line` of a compact trick (:data:`~raspis_cli.model.record.CompactTrick`),
    from its players and cards, without a :class:`PlayRecord` per card
    (``None`` for a trick without cards). ``rotations``: the players from
    each player round the table (:func:`_rotations`)."""
    if not cards or not players:
        return None
    leader = players[0]
    shown = quoted.get(leader)
    if shown is None:
        shown = quoted[leader] = quote_name(leader)
    if words is None:
        words = _SHEET_WORDS["en"]
    texts = words.cards
    keyword = words.keywords["trick"]
    if rotations.get(leader) == players:
        # each player follows the one before: only the leader is named
        return f"{keyword} {shown}: " + " ".join([texts[c] for c in cards[:len(players)]])
    out = [f"{keyword} {shown}: {texts[cards[0]]}"]
    prev = leader
    for name, card in zip(players[1:], cards[1:], strict=False):
        if following.get(prev) == name:
            out.append(texts[card])
        else:
            shown = quoted.get(name)
            if shown is None:
                shown = quoted[name] = quote_name(name)
            out.append(f"{shown} {texts[card]}")
        prev = name
    return " ".join(out)


def _rotations(players: Sequence[str]) -> dict[str, list[str]]:
    """The players from each player round the table, by name (a name given
    twice: from its first seat)."""
    out: dict[str, list[str]] = {}
    for i, name in enumerate(players):
        out.setdefault(name, [*players[i:], *players[:i]])
    return out


def _followers(players: Sequence[str]) -> dict[str, str]:
    """Each player's left-hand neighbour (the next to play), by name (a name
    given twice: from its first seat)."""
    out: dict[str, str] = {}
    for i, name in enumerate(players):
        out.setdefault(name, players[(i + 1) % len(players)])
    return out


def _deal_lines(deal: DealRecord, players: Sequence[str], w: _Widths, following: Mapping[str, str],
                rotations: Mapping[str, Sequence[str]], quoted: dict[str, str]) -> list[tuple[str, str]]:
    """``(anchor key, text)`` for each line of a deal, in canonical order."""
    words = w.words
    keywords = words.keywords
    lines = [("deal", _deal_line(deal, players, w))]
    in_cell = w.shown[id(deal)]
    if deal.hands:
        texts = words.cards
        hand = keywords["hand"]
        for name, cards in deal.hands.items():
            shown = quoted.get(name)
            if shown is None:
                shown = quoted[name] = quote_name(name)
            text = f"  {hand} {shown}:" + "".join([" " + texts[c] for c in cards])
            lines.append((f"hand:{name}", text))
    if deal.bids is not None and "bids" not in in_cell:
        lines.append(("bids", f"  {keywords['bids']} " + _pairs(deal.bids)))
    tricks = deal.trick_entries()
    if tricks:
        for i, trick in enumerate(tricks, 1):
            if isinstance(trick, tuple) and len(trick) == 4:
                written = _compact_trick_line(trick[0], trick[1], following, rotations, quoted, words)
            elif isinstance(trick, tuple):  # a declared trick (DeclaredTrick): as its plays
                written = _trick_line(compact_plays(trick), following, quoted, words)
            else:
                written = _trick_line(trick, following, quoted, words) if trick else None
            if written is None:
                raise NotationWriteError(_("deal {number}: trick {i} has no cards").format(
                    number=deal.number, i=i))
            lines.append((f"trick:{i}", "  " + written))
    for kind in PAIRS_LINES[1:]:  # (bids, the first, are written before the tricks)
        section = kind.field
        values = getattr(deal, section)
        if values is not None and section not in in_cell:
            if not values:
                raise NotationWriteError(_("deal {number}: an empty {section} list").format(
                    number=deal.number, section=section))
            lines.append((section, f"  {keywords[section]} " + _pairs(values)))
    if deal.penalties:
        for i, pen in enumerate(deal.penalties, 1):
            reason = (" " + _reason(pen.reason, words)) if pen.reason else ""
            if "\n" in reason:
                raise NotationWriteError(_("a penalty reason cannot hold a line break"))
            lines.append((f"penalty:{i}", f"  {keywords['penalty']} {quote_name(pen.player)} {pen.points}"
                          + reason))
    if deal.replayed:
        lines.append(("replayed", "  " + keywords["replayed"]))
    if deal.bids is not None and not deal.bids and "bids" not in in_cell:
        raise NotationWriteError(_("deal {number}: an empty bids list").format(number=deal.number))
    return lines


def _place(lines: list[tuple[str, str]], comments: list[str], anchors: list[str],
           default: str) -> list[str]:
    """Attach comments to their lines: ``on:`` at the end, ``after:`` below,
    ``start`` above the first line. An anchor that names no line falls back
    to ``default``."""
    if not comments:
        return [text for _, text in lines]
    on: dict[str, list[str]] = {}
    after: dict[str, list[str]] = {}
    before: list[str] = []
    keys = {k for k, _ in lines}
    for i, text in enumerate(comments):
        anchor = anchors[i] if i < len(anchors) else default
        where, _, key = anchor.partition(":")
        if anchor != "start" and (where not in ("on", "after") or key not in keys):
            anchor = default
            where, _, key = anchor.partition(":")
            if anchor != "start" and key not in keys:
                key = lines[0][0]
        if anchor == "start":
            before.append(text)
        elif where == "on":
            on.setdefault(key, []).append(text)
        else:
            after.setdefault(key, []).append(text)
    out = list(before)
    for key, text in lines:
        out.append(text + _comment_suffix(on.get(key, [])))
        out.extend(after.get(key, []))
    return out


def _split_game_comments(game: GameRecord) -> tuple[list[str], list[str], list[str], list[str]]:
    """The game's comments of its head (tags) and of its tail (final lines)."""
    head: tuple[list[str], list[str]] = ([], [])
    tail: tuple[list[str], list[str]] = ([], [])
    for i, text in enumerate(game.comments):
        anchor = game.comment_anchors[i] if i < len(game.comment_anchors) else "start"
        side = tail if anchor.partition(":")[2] in ("final", "unfinished") else head
        side[0].append(text)
        side[1].append(anchor)
    return head[0], head[1], tail[0], tail[1]


def _game_head(game: GameRecord) -> tuple[list[tuple[str, str]], list[str]]:
    """The game's own lines before its deals (tags, rules, options, players)
    as ``(anchor key, text)``, and the text lines they make with the comments
    of the head placed; raises :class:`NotationWriteError` for what cannot
    be written."""
    players = game.players
    for name in players:
        if "," in name or not name.strip() or name != name.strip():
            raise NotationWriteError(_("the player name {name} cannot be written in the [Players] tag "
                                       "(no commas, no outer spaces)").format(name=repr(name)))
    if len(set(players)) != len(players):
        twice = next(n for n in players if players.count(n) > 1)
        raise NotationWriteError(_("the player {name} is listed twice (a players violation): the "
                                   "notation could not tell the two seats apart").format(name=repr(twice)))
    own: list[tuple[str, str]] = []
    for tag in _free_tags(game):
        if tag.lower() in ("rules", "option", "players") or not _TAG_NAME.fullmatch(tag):
            raise NotationWriteError(_("a free tag cannot be named {tag}").format(tag=repr(tag)))
        own.append((f"tag:{tag}", f"[{tag} {_quote(game.tags[tag])}]"))
    if game.rules_preset is not None:
        own.append(("rules", f"[Rules {_quote(game.rules_preset)}]"))
    for name, value in game.rules_options.items():
        text = option_text(name, value)
        if not name or name != name.strip() or "=" in name or text != text.strip():
            raise NotationWriteError(_("the option {name} = {value} cannot be written as "
                                       "[Option \"NAME=VALUE\"] (no '=' in the name, no outer spaces): "
                                       "it would read back as another option").format(
                                           name=repr(name), value=repr(value)))
        if not _reads_back_typed(name, value):
            raise NotationWriteError(_("the option {name} = {value} would read back from the notation "
                                       "as the text {text} (the notation writes option values as text, "
                                       "and the rules read no such value for it); keep this record in "
                                       "JSON").format(
                                           name=repr(name), value=json.dumps(value, ensure_ascii=False),
                                           text=json.dumps(text, ensure_ascii=False)))
        own.append((f"option:{name}", f"[Option {_quote(f'{name}={text}')}]"))
    if players:
        own.append(("players", f"[Players {_quote(', '.join(players))}]"))
    head_c, head_a, _tail_c, _tail_a = _split_game_comments(game)
    return own, (_place(own, head_c, head_a, "start") if own else list(head_c))


def _game_tail(game: GameRecord, w: _Widths, has_deals: bool, blank: bool) -> list[str]:
    """The game's lines after its deals (final totals, ``unfinished``), with
    a blank line first when ``blank`` (the last deal had detail lines, or
    there are no deals after the head)."""
    tail_lines: list[tuple[str, str]] = []
    if game.totals is not None:
        tail_lines.append(("final", _final_line(game, w, has_deals)))
    if game.unfinished:
        tail_lines.append(("unfinished", w.words.keywords["unfinished"]))
    if not tail_lines:
        return []
    _, _, tail_c, tail_a = _split_game_comments(game)
    return ([""] if blank else []) + _place(tail_lines, tail_c, tail_a, "after:" + tail_lines[0][0])


def write_game(game: GameRecord, lang: str = "en") -> str:
    """The canonical text of one game in ``lang`` (``en``, the default, or
    ``ru``: :class:`SheetWords`), ending with a line break."""
    players = game.players
    own, out = _game_head(game)
    widths = _Widths(game, words=sheet_words(lang))
    following = _followers(players)
    rotations = _rotations(players)
    quoted = widths.quoted
    prev_detail = False
    for k, deal in enumerate(game.deals):
        lines = _deal_lines(deal, players, widths, following, rotations, quoted)
        detail = len(lines) > 1
        if (k == 0 and own) or (k > 0 and (detail or prev_detail)):
            out.append("")
        out.extend(_place(lines, deal.comments, deal.comment_anchors, "after:deal"))
        prev_detail = detail
    out += _game_tail(game, widths, bool(game.deals), prev_detail or (not game.deals and bool(own)))
    return "\n".join(out) + "\n"


def write_compact_game(game: GameRecord, deals: Sequence[CompactDeal]) -> str:
    """The canonical text of ``game`` with these deals instead of its own:
    what :func:`write_game` writes for it with ``[d.to_record(game.players)
    for d in deals]``, written from the integers (the simulator's fast path)
    without a record, a dictionary or a name per value. ``game`` holds the
    tags, rules, players and final totals (and may hold comments; its
    ``deals`` are not read)."""
    players = game.players
    n = len(players)
    own, out = _game_head(game)
    w = _Widths(None, n)
    shown = [_quoted_name(p) for p in players]
    texts = _CARD_TEXT
    # the columns first: every deal's cells
    rows: list[tuple[str, list[str] | None]] = []
    cell_rows: list[list[str]] = []
    number_w = cards_w = kind_w = dealer_w = trump_w = 0
    widths = w.parts
    for deal in deals:
        number, cards, kind = deal.number, deal.cards, deal.kind
        bids, taken, scores, totals = deal.bids, deal.taken, deal.scores, deal.totals
        if (number < 0 or cards < 0 or not n
                or (bids is not None
                    and (len(bids) != n or None in bids or min(cast("Sequence[int]", bids)) < 0))
                or (taken is not None and (len(taken) != n or min(taken) < 0))):
            # what only the records' writer decides (negative values, a seat
            # without a bid): write the records
            return write_game(dataclasses.replace(game, deals=[d.to_record(players) for d in deals]))
        number_w = max(number_w, len(str(number)) + 1)
        cards_w = max(cards_w, len(str(cards)))
        if kind != "normal":
            kind_w = max(kind_w, len(kind))
        dealer_w = max(dealer_w, display_width(shown[deal.dealer]))
        trump = deal.trump
        trump_text = "" if trump is None else "-" if trump < 0 else texts[trump]
        trump_w = max(trump_w, len(trump_text))
        if bids is None and taken is None and scores is None and totals is None:
            rows.append((trump_text, None))
            continue
        parts: list[str] = []  # every seat's three parts, one after the other
        if bids is not None and taken is not None and scores is not None and totals is not None:
            for made, got, score, total in zip(bids, taken, scores, totals, strict=True):
                parts += (f"{made}/{got}", str(score), str(total))
        else:
            for seat in range(n):
                bid = None if bids is None else bids[seat]
                tk = None if taken is None else taken[seat]
                if tk is not None:
                    bt = f"{bid}/{tk}" if bid is not None else f"-/{tk}"
                else:
                    bt = "-" if bid is None else str(bid)
                scored = "-" if scores is None else str(scores[seat])
                parts += (bt, "" if totals is None and scores is None else scored,
                          "" if totals is None else str(totals[seat]))
        rows.append((trump_text, parts))
        cell_rows.append(parts)
    w.number, w.cards, w.kind, w.dealer, w.trump = number_w, cards_w, kind_w, dealer_w, trump_w
    if cell_rows:
        # each column's width: its longest part
        for index, column in enumerate(zip(*cell_rows, strict=True)):
            widths[index // 3][index % 3] = max(map(len, column))
    # a deal line's cells as one format: each seat's parts in its columns
    cells = " | ".join(
        f"{{{3 * seat}:<{max(widths[seat][0], 1)}}}"
        + "".join(f" {{{3 * seat + k}:>{widths[seat][k]}}}" for k in (1, 2) if widths[seat][k])
        for seat in range(n))
    hand_heads = [f"  hand {name}:" for name in shown]
    suit_texts = _SUIT_TEXT
    trick_heads = [f"  trick {name}: " for name in shown]
    text_of = texts.__getitem__
    prev_detail = False
    for k, deal in enumerate(deals):
        trump_text, row = rows[k]
        head = _deal_head(deal.number, deal.cards, deal.kind, shown[deal.dealer], trump_text, w)
        if row is None:
            blank = not deal.hands and not deal.tricks and not deal.penalties and deal.trump is None
            line = (head + " |" + "".join(" " * (w.cell_width(i) + 2) + "|" for i in range(n))
                    if blank else head.rstrip())
        else:
            line = (head + " | " + cells.format(*row)).rstrip()
        lines = [line]
        if deal.hands is not None:
            for seat, mask in enumerate(deal.hands):
                # the hand suit by suit, high cards first, each suit's text cached
                text = hand_heads[seat]
                suit = 0
                while mask:
                    bits = mask & 0x1FFF
                    if bits:
                        known = suit_texts[suit].get(bits)
                        text += _suit_text(suit, bits) if known is None else known
                    mask >>= 13
                    suit += 1
                lines.append(text)
        if deal.tricks:
            for i, (leader, played, decls) in enumerate(deal.tricks, 1):
                if decls is None and len(played) == n:
                    lines.append(trick_heads[leader] + " ".join(map(text_of, played)))
                    continue
                if not played:
                    raise NotationWriteError(_("deal {number}: trick {i} has no cards").format(
                    number=deal.number, i=i))
                if decls is None:
                    said = [texts[c] for c in played[:n]]  # a compact trick names a seat once
                else:
                    said = [texts[c] + (_decl(d) if d is not None else "")
                            for c, d in zip(played, decls, strict=True)]
                lines.append(trick_heads[leader] + " ".join(said))
        for pen_seat, points, reason in deal.penalties:
            said_reason = (" " + reason) if reason else ""
            if "\n" in said_reason:
                raise NotationWriteError(_("a penalty reason cannot hold a line break"))
            lines.append(f"  penalty {shown[pen_seat]} {points}" + said_reason)
        detail = len(lines) > 1
        if (k == 0 and own) or (k > 0 and (detail or prev_detail)):
            out.append("")
        out += lines
        prev_detail = detail
    out += _game_tail(game, w, bool(deals), prev_detail or (not deals and bool(own)))
    return "\n".join(out) + "\n"


_QUOTED: dict[str, str] = {}
""":func:`quote_name` by name, for :func:`write_compact_game` (a run of
simulated games names the same players again and again)."""


def _quoted_name(name: str) -> str:
    """:func:`quote_name`, worked out once per name (up to 4,096 names)."""
    shown = _QUOTED.get(name)
    if shown is None:
        if len(_QUOTED) >= 4096:
            _QUOTED.clear()
        shown = _QUOTED[name] = quote_name(name)
    return shown


_SUIT_TEXT: tuple[dict[int, str], ...] = tuple({} for _ in range(5))
"""Per suit (the two jokers of 54 cards as a fifth), the text of a hand's
cards of that suit by their bits: each card after a space, high cards first."""


def _suit_text(suit: int, bits: int) -> str:
    """The text of a hand's cards of one suit (``bits``: the suit's 13 bits),
    each after a space, high cards first; kept in :data:`_SUIT_TEXT`."""
    cards = [13 * suit + i for i in range(12, -1, -1) if bits >> i & 1]
    made = _SUIT_TEXT[suit][bits] = "".join(" " + _CARD_TEXT[c] for c in cards)
    return made


def _final_line(game: GameRecord, w: _Widths, has_deals: bool) -> str:
    totals = game.totals or {}
    players = game.players
    if players and len(set(players)) == len(players) and list(totals) and all(
        name in players for name in totals
    ) and len(totals) == len(players):
        word = w.words.keywords["final"]
        head = _ljust(word, w.header_width()) if has_deals else word
        cells = []
        for i, p in enumerate(players):
            width = sum(w.parts[i]) + sum(1 for x in w.parts[i][1:] if x) if has_deals else 0
            cells.append(str(totals[p]).rjust(width))
        return (head + " | " + " | ".join(cells)).rstrip()
    if not totals:
        raise NotationWriteError(_("an empty list of final totals"))
    return w.words.keywords["final"] + " " + _pairs(totals)


def write_games(games: Iterable[GameRecord], lang: str = "en") -> str:
    """The canonical text of several games in ``lang`` (:func:`write_game`),
    separated by blank lines."""
    return "\n".join(write_game(g, lang) for g in games)


_RANK_LETTER_RE: Final = re.compile(r"(?<!\w)([JQKATВДКТ])(?=[♠♣♦♥])")
_DECL_RE: Final = re.compile(r"\(([^()]*)\)")
_MODE_WORDS: Final = frozenset(word for phrase in MODE_PHRASES for word in phrase)


def _script(word: str) -> int:
    """+1 for a word in Cyrillic letters, -1 for one in Latin letters, 0 for neither."""
    if has_cyrillic(word):
        return 1
    return -1 if re.search("[A-Za-z]", word) else 0


def written_language(lines: Iterable[str], default: str = "en") -> str:
    """The language the sheet of these ``lines`` is written in: ``ru`` when more of its notation
    words are Russian than English, ``en`` when fewer, ``default`` when as
    many (a sheet without such words: every language writes it the same).

    The words counted are the notation's own, never a name, a tag or a
    comment: each detail line's keyword (``взятка``/``trick``), a deal line's
    kind (``бескозырка``/``no-trump``), a joker declaration's words
    (``по старшим``/``high``), a prescribed penalty's reason
    (``ренонс``/``revoke``), the letters of card ranks (``Д♦``/``Q♦``)."""
    from raspis_cli.notation.scanner import scan
    from raspis_cli.notation.tokens import DEAL_RE, KEYWORDS, KIND_WORDS, PENALTY_RE

    score = 0
    for src in scan(lines, []):
        code = src.code.strip()
        if not code or code.startswith("["):
            continue
        first = code.split(None, 1)[0].lower().rstrip(":")
        if code[:1].isdigit():
            m = DEAL_RE.match(code)
            kind = m.group("kind") if m is not None else None
            if kind is not None and kind.lower() in KIND_WORDS:
                score += _script(kind)
        elif first in KEYWORDS:
            score += _script(first)
            if KEYWORDS[first] == "penalty":
                m = PENALTY_RE.fullmatch(code)
                reason = m.group("reason") if m is not None else None
                if reason and penalty_rule(reason) is not None:
                    score += _script(reason)
        else:
            continue
        for decl in _DECL_RE.findall(code):
            score += sum(_script(w) for w in decl.lower().split() if w in _MODE_WORDS)
        score += sum(_script(letter) for letter in _RANK_LETTER_RE.findall(code))
    if score > 0:
        return "ru"
    return "en" if score < 0 else default
