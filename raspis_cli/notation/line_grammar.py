"""The grammar of one ``.rsp`` line: the parsed line types and the parser of each kind of line.

Every line (its comments already blanked by :func:`raspis_cli.notation.scanner.scan`) is classified by
its first character or first word and matched by **one** regular expression of
:data:`raspis_cli.notation.tokens.LINE_PATTERNS`; lists inside a line (cards of a hand, entries of a
trick, sheet cells) are split by one more regular expression each. This keeps parsing near a million
lines a second. A line that cannot be read is walked token by token to say what is wrong and where.

The notation modules import only the standard library, the card model and the bottom layers
(i18n, suggest); they know the *text*, nothing of the rules or the record model:
:mod:`raspis_cli.notation.reader` turns the parsed lines into game records.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    pass

from raspis_cli.model.cards import Card, Suit
from raspis_cli.model.deal_kinds import kind_words_of, kinds_in_words
from raspis_cli.model.diagnostics import Diagnostic, line_error
from raspis_cli.model.joker_modes import BY_MODE, mode_of
from raspis_cli.model.lines import KEYWORD_SPELLINGS
from raspis_cli.notation.quoting import unquote
from raspis_cli.notation.tokens import (
    BARE_NAME_RE,
    CARD_FAST,
    CELL_RE,
    DEAL_RE,
    DECL_FILLERS,
    INT_RE,
    ITEM_RE,
    KEYWORDS,
    KIND_WORDS,
    MAX_PHRASE,
    MODE_PHRASES,
    NAME_RE,
    P_CELL_BT,
    P_INT,
    P_QUOTED,
    PENALTY_RE,
    SUIT_SYMBOL_RE,
    TAG_RE,
    VARIATION,
    read_card_token,
    read_suit,
    read_trump,
)
from raspis_cli.text.messages import Message, Quoted, Seq, msg
from raspis_cli.text.suggest import did_you_mean, has_cyrillic, mixes_scripts, script_variants, suggest

__all__ = [
    "Cell",
    "DealLine",
    "Decl",
    "FlagLine",
    "HandLine",
    "PairsLine",
    "ParsedLine",
    "PenaltyLine",
    "TagLine",
    "TrickLine",
    "parse_decl",
    "parse_line",
    "plain_deal_line",
]


# --- parsed lines --------------------------------------------------------------


@dataclass(slots=True)
class TagLine:
    """One or more tag pairs: ``(name, value, name column, value column)``."""

    tags: list[tuple[str, str, int, int]]


@dataclass(slots=True)
class Cell:
    """One player's cell of a sheet line: bid/taken, score, running total.

    Each value is ``None`` when not written; ``cols`` maps ``bid``, ``taken``,
    ``score``, ``total`` to 1-based columns of the values written.
    """

    column: int
    bid: int | None = None
    taken: int | None = None
    score: int | None = None
    total: int | None = None
    cols: dict[str, int] = field(default_factory=dict)


@dataclass(slots=True)
class DealLine:
    """``N. CARDS [KIND] DEALER [TRUMP] [| cell | cell ...]``.

    ``trump`` is a :class:`Card`, a :class:`Suit`, :data:`NONE_WORD`,
    :data:`JOKER_WORD`, or ``None`` when not written.
    """

    number: int
    cards: int
    kind: str
    dealer: str
    trump: Card | Suit | str | None
    cells: list[Cell] | None
    cols: dict[str, int]


@dataclass(slots=True)
class HandLine:
    """``hand NAME: CARD ...``; cards may be :data:`JOKER_WORD`."""

    name: str
    cards: list[Card | str]
    column: int


@dataclass(slots=True)
class PairsLine:
    """``bids|taken|scores|totals|final NAME N, ...`` or ``final | N | N ...``."""

    keyword: str
    pairs: list[tuple[str, int, int]]
    cells: list[tuple[int, int]] | None = None


Decl = tuple[str, Suit | str | None, Card | str | None]
"""A joker declaration: mode, suit (or :data:`TRUMP_WORD`), card."""


@dataclass(slots=True)
class TrickLine:
    """``trick LEADER: CARD [NAME] CARD(decl) ...`` as parallel lists, one item
    per card: the player where written (else ``None``: the next seat), the
    card, and its column (the player's, where written). ``decls`` is ``None``
    when no card of the trick carries a declaration."""

    players: list[str | None]
    cards: list[Card | str]
    cols: list[int]
    decls: list[Decl | None] | None = None
    simple: bool = False
    """Only the leader is named, every card is a :class:`Card`, no declarations."""


@dataclass(slots=True)
class PenaltyLine:
    """``penalty NAME POINTS [reason]``."""

    name: str
    points: int
    reason: str
    cols: dict[str, int]


@dataclass(slots=True)
class FlagLine:
    """``replayed`` or ``unfinished``."""

    keyword: str


ParsedLine = TagLine | DealLine | HandLine | PairsLine | TrickLine | PenaltyLine | FlagLine


# --- line parsing --------------------------------------------------------------

_EXAMPLE_DEAL: Final = Quoted(msg("3. 3 Vera K♣ | 1/1 | 0/0 | 1/2"))
_KEYWORDS_EN: Final = tuple(k for k in KEYWORD_SPELLINGS if k != "unfinished")
_KEYWORDS_RU: Final = tuple(KEYWORD_SPELLINGS[k][1] for k in _KEYWORDS_EN)
_NAMED_CARD_LINES: Final = frozenset({"hand", "trick"})
"""The lines whose name is followed by a colon and cards (``взятка Анна: 7♠ …``)."""
_NAME_COLON_RE: Final = re.compile(r"\s+[^\s:|]+:")


def _keywords_like(word: str, rest: str) -> list[str]:
    """The keywords an unknown first ``word`` is listed and corrected among: in
    the line's own language (Russian for a Cyrillic word), and those whose
    line looks like this one (a name and a colon after it: a hand or a
    trick; else the others)."""
    words = _KEYWORDS_RU if has_cyrillic(word) else _KEYWORDS_EN
    if not word[:1].isalpha():
        return list(words)
    named = _NAME_COLON_RE.match(rest) is not None
    return [w for key, w in zip(_KEYWORDS_EN, words, strict=True) if (key in _NAMED_CARD_LINES) == named]


_LONG_NUMBER_RE: Final = re.compile(r"\d{100,}")


def parse_line(code: str) -> ParsedLine | Diagnostic | None:
    """Parse one line of code (comments already blanked); ``None`` if blank."""
    try:
        return _parse_line(code)
    except ValueError:  # int() of a number longer than sys.get_int_max_str_digits()
        m = _LONG_NUMBER_RE.search(code)
        if m is None:
            raise
        return line_error("E214", msg("a number of {n} digits is too "
                                    "long").format(n=len(m.group())), m.start() + 1)


def _parse_line(code: str) -> ParsedLine | Diagnostic | None:
    parts = code.split()
    if not parts:
        return None
    head = parts[0]
    first = head[0]
    if first == "[":
        return _parse_tags(code)
    if first.isdigit():
        if "|" in code and _PASS_WORD_RE.search(code, code.index("|")):
            code = _PASS_WORD_RE.sub(_pass_as_zero, code)
        return _check_miser_cells(_parse_deal(code))
    key = KEYWORDS.get(head)
    if key == "trick" or key == "hand":
        fast = _fast_list(code, parts, key)
        if fast is not None:
            return fast
    stripped = code.lstrip()
    indent = len(code) - len(stripped)
    word_m = _HEAD_WORD_RE.match(stripped)
    word = word_m.group() if word_m else stripped[:1]
    word_end = len(word)
    key = KEYWORDS.get(word) or KEYWORDS.get(word.lower())
    if key is None:
        keywords = _keywords_like(word, stripped[word_end:])
        hint = did_you_mean(word, keywords, n=1) if word[:1].isalpha() else ""
        return line_error(
            "E201",
            msg("expected a deal line like {example} or a line starting with {keywords}, got {got}").format(
                example=_EXAMPLE_DEAL, keywords=Seq(tuple(keywords)),
                got=_show(_first_token(stripped))) + hint,
            indent + 1,
        )
    rest_col = indent + word_end
    if key == "trick":
        trick = _parse_trick(code, rest_col)
        if isinstance(trick, Diagnostic) and _PAIRS_RE.fullmatch(code, rest_col):
            return line_error("E307", msg("{word} starts a trick line (the cards played, leader first); "
                                       "for the tricks each player took write 'взятки' or 'taken', "
                                       "like 'взятки Анна 1, Борис 2'").format(word=Quoted(word)),
                             indent + 1)
        return trick
    if key == "hand":
        return _parse_hand(code, rest_col)
    if key == "penalty":
        return _parse_penalty(code, rest_col)
    if key in ("replayed", "unfinished"):
        if code[rest_col:].strip():
            return line_error("E207", msg("expected nothing after {key}, got {got}").format(
                key=Quoted(key), got=_show(_first_token(code[rest_col:].lstrip()))),
                             rest_col + 1 + len(code[rest_col:]) - len(code[rest_col:].lstrip()))
        return FlagLine(key)
    return _parse_pairs(key, code, rest_col)


_HEAD_WORD_RE: Final = re.compile(r"[^\s:]+")
_PAIRS_RE: Final = re.compile(r'\s*+(?>(?:"[^"]*+"|[^\s:=,"]+)\s*+[:=]?+\s*+[+-]?+\d++\s*+,?+\s*+)+')
"""``NAME NUMBER, ...`` (the tricks each player took) written after a trick
word. Each pair is an atomic group and everything but the name possessive:
once matched, a pair is not split another way, nor a run of spaces (a name
may hold digits, so ``a1a1a1…`` splits in exponentially many ways, and the
two runs of spaces matched around ``[:=]?`` split a run of spaces in quadratically many:
lines of either took minutes before failing)."""


def _fast_list(code: str, parts: list[str], key: str) -> TrickLine | HandLine | None:
    """The common canonical trick and hand lines, read by ``str.split`` alone:
    single spaces, ``NAME:`` first, plain cards. ``None``: take the full path."""
    if len(parts) < 3 or '"' in code or "(" in code:
        return None
    lead = parts[1]
    if len(lead) < 2 or lead[-1] != ":":
        return None
    fast = CARD_FAST
    toks = parts[2:]
    cards = [fast.get(t) for t in toks]
    if None in cards:
        return None
    indent = len(code) - len(code.lstrip())
    if len(code) != indent + sum(map(len, parts)) + len(parts) - 1:
        return None  # not single-spaced: columns need the full path
    name_col = indent + len(parts[0]) + 2
    if key == "hand":
        return HandLine(lead[:-1], cards, name_col)  # type: ignore[arg-type]
    cols = [name_col]
    pos = name_col + len(lead) + 1
    for t in toks[:-1]:
        pos += len(t) + 1
        cols.append(pos)
    players: list[str | None] = [None] * len(toks)
    players[0] = lead[:-1]
    return TrickLine(players, cards, cols, None, True)  # type: ignore[arg-type]


def _first_token(text: str) -> str:
    m = re.match(r'"[^"]*"?|[^\s]+', text)
    return m.group() if m else text[:1]


def _show(token: str) -> Message | Quoted:
    if not token:
        return msg("the end of the line")
    return Quoted(token)


def _parse_tags(code: str) -> TagLine | Diagnostic:
    tags: list[tuple[str, str, int, int]] = []
    pos = 0
    n = len(code)
    while True:
        while pos < n and code[pos].isspace():
            pos += 1
        if pos >= n:
            break
        m = TAG_RE.match(code, pos)
        if m is None:
            return line_error("E101", msg('expected a tag pair like [Event "Friday club"], got {got}').format(
                got=_show(code[pos:].strip()[:30])), pos + 1)
        tags.append((m.group(1), unquote(m.group(2)), m.start(1) + 1, m.start(2) + 1))
        pos = m.end()
    return TagLine(tags)


def _fast_deal(code: str) -> DealLine | None:
    """A plain deal line (no quotes), read by ``str.split``; ``None``: take the
    regular expression's path (which also explains errors)."""
    bar = code.find("|")
    head = code if bar < 0 else code[:bar]
    if '"' in head:
        return None
    toks = head.split()
    n = len(toks)
    if n < 3 or n > 5:
        return None
    num = toks[0]
    if num[-1] in ".)":
        num = num[:-1]
    if not num.isdigit() or not num.isascii() or not toks[1].isdigit() or not toks[1].isascii():
        return None
    kind = "normal"
    kind_tok: str | None = None
    trump_tok: str | None = None
    if n == 3:
        dealer = toks[2]
    elif n == 4:
        k = KIND_WORDS.get(toks[2].lower())
        if k is not None:
            kind, kind_tok, dealer = k, toks[2], toks[3]
        else:
            dealer, trump_tok = toks[2], toks[3]
    else:
        k = KIND_WORDS.get(toks[2].lower())
        if k is None:
            return None
        kind, kind_tok, dealer, trump_tok = k, toks[2], toks[3], toks[4]
    if BARE_NAME_RE.fullmatch(dealer) is None:
        return None
    pos = 0
    cols: dict[str, int] = {}
    for key, tok in (("number", toks[0]), ("cards", toks[1]), ("kind", kind_tok),
                     ("dealer", dealer), ("trump", trump_tok)):
        if tok is not None:
            pos = head.find(tok, pos)
            cols[key] = pos + 1
            pos += len(tok)
    trump: Card | Suit | str | None = None
    if trump_tok is not None:
        trump = read_trump(trump_tok)
        if trump is None:
            return None
    cells: list[Cell] | None = None
    if bar >= 0:
        cells = _fast_cells(code, bar)
        if cells is None:
            return None
        cols["cells"] = bar + 1
    return DealLine(int(num), int(toks[1]), kind, dealer, trump, cells, cols)


def _fast_cells(code: str, bar: int) -> list[Cell] | None:
    parts = code[bar + 1 :].split("|")
    if len(parts) > 1 and not parts[-1].strip():
        parts.pop()
    cells: list[Cell] = []
    base = bar + 1  # 0-based index of the first character of the part
    for part in parts:
        toks = part.split()
        if len(toks) > 3:
            return None
        cell = Cell(base + 1)
        cols = cell.cols
        pos = 0
        for k, tok in enumerate(toks):
            pos = part.find(tok, pos)
            col = base + pos + 1
            if k == 0:
                bid_txt, slash, taken_txt = tok.partition("/")
                if bid_txt and bid_txt != "-":
                    if not (bid_txt.isdigit() and bid_txt.isascii()):
                        return None
                    cell.bid = int(bid_txt)
                    cols["bid"] = col
                if slash and taken_txt and taken_txt != "-":
                    if not (taken_txt.isdigit() and taken_txt.isascii()):
                        return None
                    cell.taken = int(taken_txt)
                    cols["taken"] = col + len(bid_txt) + 1
                if not (bid_txt or slash) or ("/" in taken_txt):
                    return None
            elif tok != "-":
                body = tok[1:] if tok[0] in "+-" else tok
                if not (body.isdigit() and body.isascii()):
                    return None
                if k == 1:
                    cell.score = int(tok)
                    cols["score"] = col
                else:
                    cell.total = int(tok)
                    cols["total"] = col
            pos += len(tok)
        cells.append(cell)
        base += len(part) + 1
    return cells


_CELL_PATTERN: Final = (r"\s*+([0-9]{1,18}|-)/([0-9]{1,18}|-)"
                        r"(?:\s++(-?[0-9]{1,18}|-)(?:\s++(-?[0-9]{1,18}|-))?)?\s*+")
"""A sheet cell as the writer writes it: ``BID/TAKEN [SCORE [TOTAL]]``, each
value a plain number or ``-``; anything else (a sign ``+``, a pass word, a
bare number) is read the long way. Its runs of spaces are possessive: a run
is never split between two of them (a line of 70,000 spaces after its last
cell took 20 s to fail)."""
_CELLS_RES: dict[int, re.Pattern[str]] = {}

CellValues = tuple[str | None, ...]
"""The texts of a sheet line's cells, four per player (bid, taken, score,
total): a number, ``-`` or ``None`` (not written)."""


def plain_deal_line(code: str, players: int) -> tuple[DealLine, CellValues] | None:
    """A deal line with one plain cell per player (``3. 3 Vera K♣ | 1/1 10 25
    | ...``) read by one match: the deal line without its cells (the
    columns of the head only) and the cells' values as written. ``None``:
    any other line, for :func:`parse_line`, which reads it the same when it
    is such a line (and also finds each value's column)."""
    bar = code.find("|")
    if bar < 0 or players < 1:
        return None
    pattern = _CELLS_RES.get(players)
    if pattern is None:
        pattern = _CELLS_RES[players] = re.compile(r"\|".join([_CELL_PATTERN] * players) + r"\|?\s*+")
    m = pattern.fullmatch(code, bar + 1)
    if m is None:
        return None
    text = code[:bar]
    head = _HEADS.get(text)
    if head is None:
        try:
            head = _fast_deal(text)
        except ValueError:  # a number longer than int() reads: parse_line says so (E214)
            return None
        if head is None:
            return None
        if len(text) <= _HEAD_MAX:
            if len(_HEADS) >= 4096:
                _HEADS.clear()
            _HEADS[text] = head
    return head, m.groups()


_HEADS: dict[str, DealLine] = {}
"""Deal lines' heads (``N. CARDS [KIND] DEALER [TRUMP]``) read lately: the
same few recur in every game of a club (read only, never changed). Only
heads of at most :data:`_HEAD_MAX` characters are kept, so the cache holds
a megabyte or so whatever the file (4,096 heads of a hostile file's 64 KiB
lines would be hundreds of megabytes)."""
_HEAD_MAX = 96


def _parse_deal(code: str) -> DealLine | Diagnostic:
    fast = _fast_deal(code)
    if fast is not None:
        return fast
    m = DEAL_RE.fullmatch(code)
    if m is None:
        return _diagnose_deal(code)
    kind_word = m.group("kind")
    kind = "normal" if kind_word is None else KIND_WORDS[kind_word.lower()]
    trump_tok = m.group("trump")
    trump: Card | Suit | str | None = None
    cols = {"number": m.start("number") + 1, "cards": m.start("cards") + 1,
            "dealer": m.start("dealer") + 1}
    if kind_word is not None:
        cols["kind"] = m.start("kind") + 1
    if trump_tok is not None:
        cols["trump"] = m.start("trump") + 1
        trump = read_trump(trump_tok)
        if trump is None:
            hint: Message | str = ""
            if (kind_word is None and SUIT_SYMBOL_RE.search(trump_tok) is None
                    and BARE_NAME_RE.fullmatch(trump_tok) is not None):
                close = suggest(m.group("dealer").lower(), kind_words_of(m.group("dealer")), n=1)
                hint = msg(" (if {word} is a kind of deal, write one of {kinds})").format(
                    word=Quoted(m.group("dealer")), kinds=kinds_in_words(m.group("dealer")))
                if close:
                    hint = msg(" (did you mean the kind {kind}?)").format(kind=Quoted(close[0]))
            return line_error("E204", msg("expected a trump like K♣, ♣ or - (none), got {got}").format(
                got=Quoted(trump_tok)) + hint, cols["trump"])
    cells: list[Cell] | None = None
    if m.group("cells") is not None:
        got = _parse_cells(m.group("cells"), m.start("cells"))
        if isinstance(got, Diagnostic):
            return got
        cells = got
        cols["cells"] = m.start("cells")
    return DealLine(int(m.group("number")), int(m.group("cards")), kind,
                    unquote(m.group("dealer")), trump, cells, cols)


_PASS_WORD_RE: Final = re.compile(r"(?<=[|\s])(?:пас|Пас|ПАС|п|П|pass|Pass)(?=/)"
                                   r"|(?<=\|)(\s*)(?:пас|Пас|pass)(?=\s*(?:\||$))")


def _pass_as_zero(m: re.Match[str]) -> str:
    """A pass written as a word in a cell (``пас/1``, ``п/0``, ``| пас |``) is the bid 0,
    padded so that the columns after it stay where they are."""
    if m.group(1) is None:  # before a slash: the bid
        return "0".rjust(len(m.group()))
    return (m.group(1) + "0/-").ljust(len(m.group()))


def _check_miser_cells(parsed: DealLine | Diagnostic) -> DealLine | Diagnostic:
    """A miser deal written as bare trick counts (``| 0 | 2 | 1``) reads as scores: say how to write it."""
    if (isinstance(parsed, DealLine) and parsed.kind == "miser" and parsed.cells
            and all(c.bid is not None and "taken" not in c.cols and c.score is None and c.total is None
                    for c in parsed.cells)):
        counts = [c.bid for c in parsed.cells]
        if all(n is not None and 0 <= n <= parsed.cards for n in counts) and sum(
                n or 0 for n in counts) == parsed.cards:
            written = " | ".join(f"-/{n}" for n in counts)
            return line_error("E212", msg("a miser deal has no bids: write the tricks taken as {cells}, "
                                       "not as bare numbers (a bare number is a bid)").format(cells=written),
                             parsed.cells[0].column)
    return parsed



def _diagnose_deal(code: str) -> Diagnostic:
    """Walk a deal line token by token to say what is wrong and where."""
    toks = [(m.group(), m.start() + 1) for m in re.finditer(rf'{P_QUOTED}|\||[^\s|]+', code)]
    i = 0
    number, col = toks[0]
    m = re.fullmatch(r"(\d+)[.)]?", number)
    if m is None:
        return line_error("E202", msg("expected a deal number like '3.', got "
                                    "{got}").format(got=Quoted(number)), col)
    i = 1
    if i >= len(toks) or not toks[i][0].isdigit():
        got = toks[i] if i < len(toks) else ("", len(code) + 1)
        return line_error("E202", msg("expected the number of cards dealt after the deal number, got "
                                    "{got}").format(
            got=_show(got[0])), got[1])
    i += 1
    if i < len(toks) and toks[i][0].lower() in KIND_WORDS:
        i += 1
    if i >= len(toks) or NAME_RE.fullmatch(toks[i][0]) is None:
        got = toks[i] if i < len(toks) else ("", len(code) + 1)
        return line_error("E203", msg("expected the dealer's name, got "
                                    "{got}").format(got=_show(got[0])), got[1])
    dealer_at = i
    i += 1
    if i < len(toks) and toks[i][0] != "|":
        i += 1
    if i < len(toks) and toks[i][0] != "|":
        bar_at = next((k for k, t in enumerate(toks) if t[0] == "|"), len(toks))
        if dealer_at == 2 and bar_at == 5:
            return line_error("E206", msg("expected a kind of deal ({kinds}), got {got}").format(
                kinds=kinds_in_words(toks[2][0]), got=Quoted(toks[2][0]))
                + did_you_mean(toks[2][0].lower(), kind_words_of(toks[2][0]), n=1), toks[2][1])
        return line_error("E205", msg("expected '|' and the sheet cells or the end of the line, got "
                                    "{got}").format(
            got=Quoted(toks[i][0])), toks[i][1])
    return line_error("E205", msg("this deal line cannot be read"), toks[0][1])  # pragma: no cover


def _parse_cells(text: str, offset: int) -> list[Cell] | Diagnostic:
    cells: list[Cell] = []
    pos = 0
    parts = text.split("|")
    if parts and not parts[-1].strip() and len(parts) > 1:
        parts.pop()  # a closing "|"
    for part in parts:
        base = offset + pos  # 0-based index of the cell's first char
        m = CELL_RE.fullmatch(part)
        if m is None:
            tok_m = re.search(r"\S+", part)
            bad = tok_m.group() if tok_m else part
            col = base + (tok_m.start() if tok_m else 0) + 1
            for tm in re.finditer(r"\S+", part):
                ok = (_CELL_BT_RE.fullmatch(tm.group()) is not None
                      if tm.start() == (tok_m.start() if tok_m else 0)
                      else re.fullmatch(rf"{P_INT}|-", tm.group()) is not None)
                if not ok:
                    bad, col = tm.group(), base + tm.start() + 1
                    break
            return line_error("E211", msg("expected a sheet cell like 2/1, 2/1 20 or 2/1 20 45 (bid/taken "
                                        "score total), "
                                       "got {got}").format(got=Quoted(bad)), col)
        cell = Cell(base + 1)
        bt = m.group("bt")
        if bt:
            bid_txt, slash, taken_txt = bt.partition("/")
            if bid_txt and bid_txt != "-":
                cell.bid = int(bid_txt)
                cell.cols["bid"] = base + m.start("bt") + 1
            if slash and taken_txt and taken_txt != "-":
                cell.taken = int(taken_txt)
                cell.cols["taken"] = base + m.start("bt") + len(bid_txt) + 2
        for key in ("score", "total"):
            val = m.group(key)
            if val is not None and val != "-":
                setattr(cell, key, int(val))
                cell.cols[key] = base + m.start(key) + 1
        cells.append(cell)
        pos += len(part) + 1
    return cells


_CELL_BT_RE: Final = re.compile(P_CELL_BT)



def _parse_hand(code: str, rest_col: int) -> HandLine | Diagnostic:
    rest = code[rest_col:]
    m = NAME_RE.search(rest)
    lead = rest.lstrip()
    if m is None or not lead or m.start() != len(rest) - len(lead):
        return line_error("E302", msg("expected a player name after 'hand', got {got}").format(
            got=_show(_first_token(lead))), rest_col + len(rest) - len(lead) + 1)
    name = unquote(m.group())
    name_col = rest_col + m.start() + 1
    pos = rest_col + m.end()
    while pos < len(code) and code[pos].isspace():
        pos += 1
    if pos < len(code) and code[pos] == ":":
        pos += 1
    body = code[pos:]
    toks = body.split()
    cards: list[Card | str] = []
    append = cards.append
    fast = CARD_FAST
    for tok in toks:
        c = fast.get(tok)
        if c is None:
            break
        append(c)
    else:
        return HandLine(name, cards, name_col)
    cards = []
    for tm in re.finditer(r"[^\s,]+", body):  # commas between cards are allowed, as in bid lines
        tok = tm.group()
        c = read_card_token(tok)
        if c is None:
            return line_error("E303",
                              msg("expected a card like 10♥, TH or Д♠, got {got}").format(got=Quoted(tok))
                             + look_alike_hint(tok), pos + tm.start() + 1)
        cards.append(c)
    return HandLine(name, cards, name_col)


def look_alike_hint(token: str) -> Message:
    """For a token that is no card but would be one with its look-alike
    letters in the other script: `` (did you mean 'Вп' with a Cyrillic В: J♠?)``."""
    for other, script in script_variants(token):
        card = read_card_token(other)
        if card is not None:
            return msg(" (did you mean {token}, with {script} letters: {card}?)").format(
                token=Quoted(other), script=msg(script), card=card)
    return Message("", translate=False)


def mixed_script_reading(token: str) -> Message | None:
    """For a card token that mixes Latin and Cyrillic letters, the warning
    saying which reading was taken (``None`` when it mixes nothing or is no card)."""
    if not mixes_scripts(token):
        return None
    card = read_card_token(token)
    if card is None:
        return None
    others = []
    for other, script in script_variants(token):
        alt = read_card_token(other)
        if alt is not None and alt != card:
            others.append(msg("all {script}, {token} would be {card}").format(
                script=msg(script), token=Quoted(other), card=alt))
    if not others:
        return None  # read the same in either script (Kт, Кт): nothing to warn about
    message = msg("{token} mixes Latin and Cyrillic letters; read as {card}").format(
        token=Quoted(token), card=card)
    return message + " (" + Message.joined("; ", others) + ")"


_DECL_PUNCTUATION: Final = str.maketrans({**{c: " " for c in ",;«»\"“”„"}, "’": "'", "ʼ": "'"})


def parse_decl(text: str, leads: bool) -> Decl | None:
    """Read a joker declaration (without its parentheses) of a joker that ``leads`` the trick
    or follows; ``None`` if unreadable.

    ``take``, ``discard ♥``, ``high ♠``, ``low``, ``as A♦``, and the players' words, Russian
    and Ukrainian (the rows of :mod:`raspis_cli.model.joker_modes`): ``забрать``,
    ``скинуть черви``, ``по старшим пикам``, ``по старших козирях`` (the suit is then
    :data:`TRUMP_WORD`), ``за младшую бубну`` (``low`` on the lead, ``discard`` following).
    """
    words = text.translate(VARIATION).lower().translate(_DECL_PUNCTUATION).split()
    modes: tuple[str, ...] | None = None
    used = 0
    for n in range(min(MAX_PHRASE, len(words)), 0, -1):
        modes = MODE_PHRASES.get(tuple(words[:n]))
        if modes is not None:
            used = n
            break
    if modes is None:
        return None
    rest = [w for w in words[used:] if w not in DECL_FILLERS]
    mode = mode_of(modes, leads, bool(rest))
    if not rest:
        return (mode, None, None)
    if BY_MODE[mode].names == "card":
        card = read_card_token("".join(rest)) if len(rest) <= 2 else None
        return None if card is None else (mode, None, card)
    suit = read_suit(rest[0]) if len(rest) == 1 else None
    return None if suit is None else (mode, suit, None)


_DECL_CACHE: dict[tuple[str, bool], Decl | None] = {}


def _decl(text: str, leads: bool) -> Decl | None:
    try:
        return _DECL_CACHE[(text, leads)]
    except KeyError:
        d = parse_decl(text, leads)
        if len(_DECL_CACHE) < 4096:
            _DECL_CACHE[(text, leads)] = d
        return d


def _parse_trick(code: str, rest_col: int) -> TrickLine | Diagnostic:
    players: list[str | None] = []
    cards: list[Card | str] = []
    cols: list[int] = []
    decls: list[Decl | None] = []
    pending: str | None = None
    pending_col = 0
    fast = CARD_FAST
    for m in ITEM_RE.finditer(code, rest_col):
        word = m.group(2)
        if word is not None:
            c = fast.get(word)
            if c is None:
                c = read_card_token(word)
            if c is None:
                if (pending is not None or BARE_NAME_RE.fullmatch(word) is None
                        or SUIT_SYMBOL_RE.search(word) is not None):
                    return _bad_trick_token(word, m.start() + 1)
                if m.group(3) is not None:
                    return line_error("E303", msg("expected a card like 10♥ before the joker declaration "
                                                "{decl}, got "
                                               "{got}").format(decl=Quoted(m.group(3)), got=Quoted(word)),
                                      m.start() + 1)
                pending = word
                pending_col = m.start() + 1
                continue
            decl_txt = m.group(3)
            decl: Decl | None = None
            if decl_txt is not None:
                decl = _decl(decl_txt[1:-1], not cards)
                if decl is None:
                    # the examples in the line's own language
                    expected = (msg("expected a joker declaration like (забрать), (скинуть черви), "
                                    "(по старшим пикам), got {got}") if has_cyrillic(decl_txt) else
                                msg("expected a joker declaration like (take), (discard ♥), (high ♠), "
                                    "(low ♦), (as A♦), got {got}"))
                    return line_error("E304", expected.format(got=Quoted(decl_txt)), m.start(3) + 1)
            players.append(pending)
            cards.append(c)
            decls.append(decl)
            cols.append(m.start() + 1 if pending is None else pending_col)
            pending = None
            continue
        quoted = m.group(1)
        if quoted is not None:
            if pending is not None:
                return _bad_trick_token(quoted, m.start() + 1)
            pending = unquote(quoted)
            pending_col = m.start() + 1
            continue
        other = m.group(4)
        if other in (":", ","):
            if other == ":" and pending is None:
                return line_error("E303", msg("expected a player name or a card before ':'"),
                                 m.start() + 1)
            continue
        return _bad_trick_token(code[m.start():].split()[0], m.start() + 1)
    if pending is not None:
        return line_error("E303", msg("expected a card after {name}, got the end of the "
                                    "line").format(name=Quoted(pending)),
                         len(code.rstrip()) + 1)
    if not cards:
        return line_error("E303", msg("expected the cards of the trick, leader first, like "
                                   "'trick Анна: A♥ 7♠(take) 6♥'"), len(code.rstrip()) + 1)
    has_decl = any(d is not None for d in decls)
    return TrickLine(players, cards, cols, decls if has_decl else None)


def _bad_trick_token(token: str, col: int) -> Diagnostic:
    return line_error("E303", msg("expected a card like 10♥ or a joker declaration, got {got}").format(
        got=Quoted(token)) + look_alike_hint(token), col)


def _parse_pairs(key: str, code: str, rest_col: int) -> PairsLine | Diagnostic:
    rest = code[rest_col:]
    if key == "final" and rest.strip().startswith("|"):
        cells: list[tuple[int, int]] = []
        bar = code.index("|", rest_col)
        pos = bar + 1
        parts = code[pos:].split("|")
        if len(parts) > 1 and not parts[-1].strip():
            parts.pop()
        for part in parts:
            tm = re.search(r"\S+", part)
            if tm is None or INT_RE.fullmatch(tm.group()) is None or part[tm.end():].strip():
                bad = tm.group() if tm else ""
                return line_error("E211", msg("expected a total like 123 or -40, got "
                                            "{got}").format(got=_show(bad)),
                                 pos + (tm.start() if tm else 0) + 1)
            cells.append((int(tm.group()), pos + tm.start() + 1))
            pos += len(part) + 1
        return PairsLine(key, [], cells)
    pairs: list[tuple[str, int, int]] = []
    name: str | None = None
    name_col = 0
    for m in ITEM_RE.finditer(code, rest_col):
        tok = m.group()
        if m.group(4) in (",", ":") or (m.group(4) == "=" and name is not None):
            continue
        if name is None:
            if m.group(1) is not None:
                name = unquote(m.group(1))
            elif m.group(2) is not None and BARE_NAME_RE.fullmatch(m.group(2)) \
                    and m.group(3) is None:
                name = m.group(2)
            else:
                return line_error("E306", msg("expected a player name and a number like '{key} Boris 1, "
                                            "Vera 0', got "
                                           "{got}").format(key=key, got=Quoted(tok)), m.start() + 1)
            name_col = m.start() + 1
            continue
        if m.group(2) is not None and INT_RE.fullmatch(m.group(2)) and m.group(3) is None:
            pairs.append((name, int(m.group(2)), name_col))
            name = None
            continue
        return line_error("E305", msg("expected a number after {name}, got "
                                    "{got}").format(name=Quoted(name), got=Quoted(tok)),
                         m.start() + 1)
    if name is not None:
        return line_error("E305", msg("expected a number after {name}, got the end of the "
                                    "line").format(name=Quoted(name)),
                         len(code.rstrip()) + 1)
    if not pairs:
        return line_error("E306", msg("expected a player name and a number like '{key} Boris 1, Vera 0', "
                                    "got the end "
                                   "of the line").format(key=key),
                         len(code.rstrip()) + 1)
    return PairsLine(key, pairs)


def _parse_penalty(code: str, rest_col: int) -> PenaltyLine | Diagnostic:
    m = PENALTY_RE.fullmatch(code)
    if m is None:
        rest = code[rest_col:].lstrip()
        col = len(code) - len(rest) + 1
        nm = NAME_RE.match(rest)
        if nm is None:
            return line_error("E313", msg("expected 'penalty NAME POINTS reason', like 'penalty Boris -50 "
                                        "revoke', got "
                                       "{got}").format(got=_show(_first_token(rest))), col)
        after = rest[nm.end():].lstrip(" :")
        return line_error("E305", msg("expected the penalty points after {name}, got {got}").format(
            name=Quoted(unquote(nm.group())), got=_show(_first_token(after))), len(code) - len(after) + 1)
    cols = {"name": m.start("name") + 1, "points": m.start("points") + 1}
    return PenaltyLine(unquote(m.group("name")), int(m.group("points")),
                       (m.group("reason") or "").strip(), cols)
