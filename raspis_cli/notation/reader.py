"""``.rsp`` text to game records, with every syntax error found.

>>> result = read_text('[Players "A, B, C"]\\n1. 1 A 9♥ | 0/0 | 1/1 | 0/0\\n')
>>> result.games[0].deals[0].bids
{'B': 1, 'C': 0, 'A': 0}

The reader is streaming: :func:`iter_games` takes an iterator of lines and
yields each game as soon as the next one starts. Syntax errors are collected
as :class:`~raspis_cli.model.diagnostics.Diagnostic` values; a line that cannot
be read is skipped, and after a deal line that cannot be read the reader
resynchronises at the next deal or game. Rule matters (an unknown preset, a
card not in the deck, an illegal bid) are recorded as written: the replay
reports them.
"""

from __future__ import annotations

import functools
import gc
import io
import itertools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from raspis_cli.model.cards import Card, Suit
from raspis_cli.model.diagnostics import Diagnostic, syntax_error
from raspis_cli.model.lines import PAIRS_BY_FIELD, PAIRS_LINES
from raspis_cli.model.record import (
    NO_TRUMP,
    NUMBER_RANGES,
    DealRecord,
    GameRecord,
    JokerDecl,
    PenaltyRecord,
    PlayRecord,
    Pos,
    TrumpValue,
    bound_numbers,
)
from raspis_cli.notation.line_grammar import (
    DealLine,
    FlagLine,
    HandLine,
    PairsLine,
    PenaltyLine,
    TagLine,
    TrickLine,
    mixed_script_reading,
    parse_decl,
    parse_line,
    plain_deal_line,
)
from raspis_cli.notation.scanner import Scanner, SourceLine
from raspis_cli.notation.tokens import (
    BARE_NAME_RE,
    CARD_TOKENS,
    JOKER_WORD,
    KEYWORDS,
    NONE_WORD,
    P_TOKEN,
    SUIT_SYMBOL_RE,
    TRUMP_WORD,
    read_card_token,
)
from raspis_cli.notation.writer import bidding_order, deal_keys, game_keys, option_text
from raspis_cli.rules import OPTIONS, Rules, RulesError
from raspis_cli.text.messages import Message, Quoted, msg

__all__ = ["ReadResult", "read_text", "read_file", "read_bytes", "iter_games", "split_lines"]


@dataclass(slots=True)
class ReadResult:
    """The games of a text and the syntax errors found in it (in file order)."""

    games: list[GameRecord] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when the text has no syntax error (warnings aside)."""
        return all(d.is_warning for d in self.diagnostics)


def split_lines(text: str) -> list[str]:
    """The lines of a text: a leading BOM dropped, LF, CRLF or CR breaks."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def read_text(text: str, path: str = "<text>") -> ReadResult:
    """Read every game of a text; never raises on bad input."""
    result = ReadResult()
    gc_was_on = gc.isenabled()
    gc.disable()  # see _Reader.run: many small objects, no cycles
    try:
        result.games.extend(_Reader(path, result.diagnostics)._run(split_lines(text)))
    finally:
        if gc_was_on:
            gc.enable()
    return result


def read_bytes(data: bytes, path: str = "<bytes>", encoding: str | None = None) -> ReadResult:
    """Read a file's bytes, decoded as :mod:`raspis_cli.text.decoding` decides
    (UTF-8 with or without BOM, UTF-16 by its BOM, CP1251 by its look, or
    ``encoding``); LF, CRLF or CR. Undecodable bytes and overlong lines are
    diagnostics, like syntax errors."""
    from raspis_cli.text.decoding import iter_lines

    result = ReadResult()
    diags = result.diagnostics

    def report(code: str, message: Message, line: int, column: int, source: str) -> None:
        diags.append(syntax_error(code, message, line, column, source, path))

    gc_was_on = gc.isenabled()
    gc.disable()  # see _Reader.run
    try:
        lines = iter_lines(io.BytesIO(data), report, encoding)
        result.games.extend(_Reader(path, diags)._run(lines))
    finally:
        if gc_was_on:
            gc.enable()
    return result


def read_file(path: str | Path) -> ReadResult:
    """Read a ``.rsp`` file by path (``OSError`` if it cannot be opened)."""
    return read_bytes(Path(path).read_bytes(), str(path))


def iter_games(lines: Iterable[str], path: str = "<text>",
               diagnostics: list[Diagnostic] | None = None, start: int = 1) -> Iterator[GameRecord]:
    """Yield the games of an iterator of lines (without line breaks), one at
    a time; syntax errors are appended to ``diagnostics``. ``start``: the
    number of the first line (a piece of a file read from its middle)."""
    reader = _Reader(path, diagnostics if diagnostics is not None else [])
    yield from reader.run(lines, start)


# --- the reader's state machine ----------------------------------------------------


class _DealState:
    """A deal being read: the record and where its sections came from."""

    __slots__ = ("deal", "cell_sections", "last_key", "anchors", "texts", "broken")

    def __init__(self, deal: DealRecord) -> None:
        self.deal = deal
        self.cell_sections: set[str] = set()
        self.last_key = "deal"
        self.texts: list[str] = []
        self.anchors: list[str] = []
        self.broken = False


class _GameState:
    __slots__ = ("game", "has_body", "last_key", "on_key", "texts", "anchors", "rules",
                 "first_line", "last_line", "seat", "rotations", "index", "unbounded")

    def __init__(self, line: int) -> None:
        self.game = GameRecord(players=[], pos=Pos(line, 1))
        self.unbounded = False
        """Whether a number was read that may be out of range (the game's
        numbers are then checked at its end, :func:`bound_numbers`): every
        line read the long way may hold one; a plain deal line's are checked
        as it is read."""
        self.has_body = False
        self.last_key = "start"
        self.on_key = "start"
        self.texts: list[str] = []
        self.anchors: list[str] = []
        self.rules: Rules | None = None
        self.first_line = line
        self.last_line = line
        self.seat: dict[str, str] = {}
        self.rotations: dict[str, list[str]] = {}
        self.index: dict[str, int] = {}
        """Each player's seat (when the names are all different)."""


_MIXED_RE = re.compile("[A-Za-z][\u0400-\u04ff]|[\u0400-\u04ff][A-Za-z]")
_TOKEN_RE = re.compile(r"[^\s(]+")
_RUSSIAN_DATE_RE = re.compile(r"(\d{1,2})[./-](\d{1,2})[./-](\d{4}|\d{2})")
_ISO_DATE_RE = re.compile(r"(\d{4})(?:[-./](\d{1,2}|\?\?)(?:[-./](\d{1,2}|\?\?))?)?")


_CLEAN_TOKENS: set[str] = set()
"""Words (whitespace-free runs of a line's code) seen lately that do not mix
Latin and Cyrillic letters (:data:`_MIXED_RE`): a line mixes them exactly
when one of its words does, and the same few words (cards, names,
keywords) make up every line, so most lines are checked by one set test.
Only short words are remembered (:data:`_CLEAN_WORD_MAX`), so the set holds
a few megabytes at most, whatever the file (a hostile one of long distinct
words would otherwise keep as much as it held, up to 65,536 lines of 64 KiB)."""
_CLEAN_TOKENS_MAX = 1 << 16
_CLEAN_WORD_MAX = 48
"""The longest word :data:`_CLEAN_TOKENS` remembers (cards, keywords and names are shorter)."""


def _mixed_tokens(parts: list[str]) -> bool:
    """Whether one of a line's words mixes Latin and Cyrillic letters; the
    words that do not are remembered in :data:`_CLEAN_TOKENS`."""
    clean = _CLEAN_TOKENS
    found = False
    for part in parts:
        if part in clean:
            continue
        if _MIXED_RE.search(part) is not None:
            found = True
        elif len(part) <= _CLEAN_WORD_MAX:
            if len(clean) >= _CLEAN_TOKENS_MAX:
                clean.clear()
            clean.add(part)
    return found


def canonical_date(text: str) -> str | None:
    """``2026-12-04`` for ``2026-12-04``, ``2026.12.04``, ``2026/12/04``,
    ``04.12.2026``, ``4.12.26`` (Russian day.month.year); ``2026`` or
    ``2026-??-??`` when only the year is written; ``None`` when unreadable."""
    import datetime

    value = text.strip()
    m = _ISO_DATE_RE.fullmatch(value)
    if m is not None:
        year, month, day = m.group(1), m.group(2), m.group(3)
        if month is None:
            return year
        if day is None or not (month.isdigit() and day.isdigit()):
            parts = [year, month.zfill(2) if month.isdigit() else "??",
                     day.zfill(2) if day is not None and day.isdigit() else "??"]
            return "-".join(parts)
        try:
            return datetime.date(int(year), int(month), int(day)).isoformat()
        except ValueError:
            return None
    m = _RUSSIAN_DATE_RE.fullmatch(value)
    if m is not None:
        day, month, year = m.groups()
        full_year = int(year) if len(year) == 4 else 2000 + int(year)
        try:
            return datetime.date(full_year, int(month), int(day)).isoformat()
        except ValueError:
            return None
    return None


_TRICK_KEYS: Final = tuple(f"trick:{n}" for n in range(64))
"""The comment anchors of a deal's tricks, by number (``_TRICK_KEYS[3] == "trick:3"``)."""


class _Reader:
    fast_paths = True
    """Whether lines are read by the fast paths (:meth:`plain_deal`,
    :meth:`plain_detail` and the trick lines they make compact) where they
    can be; the long way alone when not (the tests compare the two)."""

    def __init__(self, path: str, diagnostics: list[Diagnostic]) -> None:
        self.path = path
        self.diags = diagnostics
        self.game: _GameState | None = None
        self.deal: _DealState | None = None
        self.skipping = False  # after an unreadable deal line: skip its detail lines
        self.pending: list[tuple[str, int]] = []  # own-line comments not yet placed
        self.src: SourceLine | None = None
        self.last_owner = "game"  # whose line was read last: "game" or "deal"

    # -- diagnostics ---------------------------------------------------------

    def warn(self, code: str, message: Message, column: int, src: SourceLine | None = None) -> None:
        """A warning (code ``W…``): reported, but the line is read and the game stays valid."""
        self.error(code, message, column, src)

    def date(self, value: str, column: int) -> str:
        """A Date tag's value written canonically (``2026-12-04``; ``2026`` or
        ``2026-??-??`` when only the year is known); a date that cannot be read
        is kept as written, with a warning."""
        canonical = canonical_date(value)
        if canonical is None:
            self.warn("W106", msg("cannot read the date {value}: write it as 2026-12-04 or 04.12.2026 "
                                "(kept as written; games without a readable date have no date in the "
                                "database)").format(value=Quoted(value)), column)
            return value
        return canonical

    def mixed_scripts(self, src: SourceLine) -> None:
        """Warn about every card token of a line that mixes Latin and Cyrillic letters."""
        for m in _TOKEN_RE.finditer(src.code):
            message = mixed_script_reading(m.group().rstrip(",:"))
            if message is not None:
                self.warn("W301", message, m.start() + 1, src)

    def error(self, code: str, message: Message, column: int, src: SourceLine | None = None) -> None:
        s = src or self.src
        assert s is not None
        self.diags.append(syntax_error(code, message, s.number, max(column, 1), s.text, self.path))

    # -- main loop -------------------------------------------------------------

    def run(self, lines: Iterable[str], start: int = 1) -> Iterator[GameRecord]:
        # Building a game makes many small objects and no cycles: the cyclic
        # garbage collector is paused while a game is built (it doubles the
        # speed) and runs as usual while the caller holds the game.
        gc_was_on = gc.isenabled()
        gc.disable()
        try:
            for game in self._run(lines, start):
                if gc_was_on:
                    gc.enable()
                yield game
                gc.disable()
        finally:
            if gc_was_on:
                gc.enable()

    def _run(self, lines: Iterable[str], start: int = 1) -> Iterator[GameRecord]:
        scan_errors: list[tuple[str, Message, int, int, str]] = []
        scanner = Scanner(scan_errors)
        clean = _CLEAN_TOKENS
        keywords = KEYWORDS
        card_tokens = CARD_TOKENS
        fast = self.fast_paths
        for number, code in enumerate(lines, start):
            if not (fast and scanner.block is None and not self.skipping and not self.pending
                    and not ('"' in code or ";" in code or "{" in code or "}" in code
                             or (code[:1] in "[ \t" and "[" in code))):
                # (the test of Scanner.plain, inline): comments, quotes, an open block, a
                # tag line; or the reader resynchronising, or comments waiting for a line
                for src in scanner.feed(number, code):
                    finished = self.source_line(src, scan_errors)
                    if finished is not None:
                        yield finished
                continue
            # a plain line, its own code (no comment, nothing pending, no scan error):
            # read here without a SourceLine where a fast path takes it
            parts = code.split()
            if not clean.issuperset(parts) and _mixed_tokens(parts):
                finished = self.source_line(SourceLine(number, code, code), scan_errors, parts)
                if finished is not None:
                    yield finished
                continue
            if not parts:
                continue  # a blank line (no comment on it, nothing pending): nothing to do
            d = self.deal
            # the commonest lines, a plain trick or hand line after the deal's
            # first of its kind (what plain_detail does, inline): a trick kept
            # as one compact trick, a hand as its cards
            if d is not None and len(parts) > 2 and "(" not in code:
                key = keywords.get(parts[0])
                lead = parts[1]
                if (key == "trick" or key == "hand") and lead[-1] == ":" and len(lead) > 1:
                    g = self.game
                    assert g is not None
                    state = d.deal.__dict__
                    name = lead[:-1]
                    if key == "trick":
                        play = state["_play"]
                        rotation = g.rotations.get(name)
                        ok = (play is not None and rotation is not None
                              and len(parts) - 2 <= len(rotation))
                    else:
                        hands = state["hands"]
                        ok = hands is not None and name not in hands
                    if ok:
                        cards = list(map(card_tokens.get, parts[2:]))
                        indent = len(code) - len(code.lstrip())
                        if (None not in cards and JOKER_WORD not in cards
                                and len(code) == indent + sum(map(len, parts)) + len(parts) - 1):
                            g.last_line = number
                            self.last_owner = "deal"
                            if key == "trick":
                                play.append((rotation, cards, number, code))
                                count = len(play)
                                d.last_key = (_TRICK_KEYS[count] if count < len(_TRICK_KEYS)
                                              else f"trick:{count}")
                            else:
                                hands[name] = cards
                                at = Pos(number, indent + len(parts[0]) + 2)
                                positions = state["_positions"]
                                hand_key = "hand:" + name
                                positions[hand_key] = at
                                positions.setdefault("hands", at)
                                d.last_key = hand_key
                            continue
            if self.fast_line(code, number, parts):
                continue
            finished = self.source_line(SourceLine(number, code, code), scan_errors, parts, True)
            if finished is not None:
                yield finished
        for src in scanner.end():
            finished = self.source_line(src, scan_errors)
            if finished is not None:
                yield finished
        for code, said, line, col, text in scan_errors:
            self.diags.append(syntax_error(code, said, line, col, text, self.path))
        # comments before any game make no game; after a game they end it
        if self.game is not None:
            if self.pending:
                self.game.last_line = max(n for _, n in self.pending)
                self.flush_pending(starts_game=False)
            finished = self.finish_game()
            if finished is not None:
                yield finished

    def fast_line(self, code: str, number: int, parts: list[str]) -> bool:
        """Whether a fast path took this plain line (no comment on it, nothing
        pending): a plain deal line, a plain detail line, a trick line with
        joker declarations; False, nothing done, for the long way."""
        if code[:1].isdigit() and self.plain_deal(code, number):
            return True
        d = self.deal
        if d is None:
            return False
        key = self.plain_detail(code, d, number, parts)
        if key is None and "(" in code:
            key = self.declared_trick(code, d, number, parts)
        if key is None:
            return False
        g = self.game
        assert g is not None
        g.last_line = number
        d.last_key = key
        self.last_owner = "deal"
        return True

    def source_line(self, src: SourceLine, scan_errors: list[tuple[str, Message, int, int, str]],
                    parts: list[str] | None = None, tried: bool = False) -> GameRecord | None:
        """Read one scanned line (the scan's errors first); the previous game
        when this line ends it. ``parts``: the line's words when split
        already; ``tried``: the fast paths already tried and not taken (and
        the line's scripts already checked)."""
        self.src = src
        code = src.code
        if parts is None:
            parts = code.split()
        if not tried and not _CLEAN_TOKENS.issuperset(parts) and _mixed_tokens(parts):
            self.mixed_scripts(src)
        parsed: object
        if (not scan_errors and not src.comments and not self.skipping and not self.pending
                and self.fast_paths):
            if not parts:
                return None  # a blank line (no comment on it, nothing pending): nothing to do
            if not tried and self.fast_line(code, src.number, parts):
                return None
            d = self.deal
            parsed = parse_line(code)
            tp = type(parsed)
            if d is not None and (tp is TrickLine or tp is HandLine):
                # the common case, kept short: a detail line of the deal
                g = self.game
                assert g is not None
                g.last_line = src.number
                key = (self.trick(parsed, d, src) if tp is TrickLine  # type: ignore[arg-type]
                       else self.detail(parsed, d, src))
                if key is not None:
                    d.last_key = key
                    self.last_owner = "deal"
                return None
        else:
            bad_line = False
            for ecode, msg, line, col, text in scan_errors:
                self.diags.append(syntax_error(ecode, msg, line, col, text, self.path))
                bad_line = bad_line or line == src.number
            scan_errors.clear()
            parsed = None if bad_line else parse_line(code)
        return self.line(src, parsed)

    def line(self, src: SourceLine, parsed: object) -> GameRecord | None:
        """Apply one line; returns the previous game when this line ends it."""
        if parsed is None:
            if src.comments:
                self.pending.extend((c.text, src.number) for c in src.comments)
            return None
        finished = None
        if isinstance(parsed, TagLine) and self.game is not None and self.game.has_body:
            # the comments just above the tag (no blank line between) start the next game; those
            # before them stay after the line above them, in this game
            leading = self.take_leading(src.number)
            if self.pending:
                self.game.last_line = max(n for _, n in self.pending)
                self.flush_pending(starts_game=False)
            self.pending.extend(leading)
            finished = self.finish_game()
        if self.game is None:
            self.game = _GameState(src.number)
        self.game.last_line = src.number
        if type(parsed) is not TagLine and not (type(parsed) is PairsLine
                                                and parsed.keyword == "final"):  # (final: see there)
            self.game.unbounded = True
        ahead: list[tuple[str, int]] = []
        if self.pending:
            if isinstance(parsed, DealLine):
                ahead = self.take_leading(src.number)
            self.flush_pending(starts_game=isinstance(parsed, TagLine)
                               and not self.game.has_body and self.game.last_key == "start")
        owner = self.handle(parsed, src)
        if owner is not None:
            self.last_owner = owner
        for text, _line in ahead:
            if owner == "deal" and self.deal is not None:  # the comments just above a deal line are its own
                self.deal.texts.append(text)
                self.deal.anchors.append("start")
            else:
                self.attach(text, on=False)
        for c in src.comments:
            self.attach(c.text, on=owner is not None)
        return finished

    def take_leading(self, number: int) -> list[tuple[str, int]]:
        """Take from the own-line comments not yet placed those written just
        above line ``number`` (on the lines right before it, no blank line
        between): they belong to the deal that line starts."""
        pending = self.pending
        i = len(pending)
        below = number
        while i > 0 and 0 <= below - pending[i - 1][1] <= 1 and pending[i - 1][1] < number:
            below = pending[i - 1][1]
            i -= 1
        taken = pending[i:]
        del pending[i:]
        return taken

    def flush_pending(self, starts_game: bool) -> None:
        g = self.game
        assert g is not None
        for text, line in self.pending:
            if starts_game:
                self.attach_game(text, "start")
                g.first_line = min(g.first_line, line)
            else:
                self.attach(text, on=False)
        self.pending.clear()

    def attach(self, text: str, on: bool) -> None:
        """Attach a comment to the line just read (``on``) or after the last one."""
        g = self.game
        assert g is not None
        d = self.deal
        if self.last_owner == "deal" and d is not None:
            d.texts.append(text)
            d.anchors.append(("on:" if on else "after:") + d.last_key)
            return
        key = g.on_key if on else g.last_key
        anchor = "start" if key == "start" else ("on:" if on else "after:") + key
        self.attach_game(text, anchor)

    def attach_game(self, text: str, anchor: str) -> None:
        g = self.game
        assert g is not None
        g.texts.append(text)
        g.anchors.append(anchor)

    # -- lines -----------------------------------------------------------------

    def handle(self, parsed: object, src: SourceLine) -> str | None:
        """Apply one parsed line; returns ``"deal"`` or ``"game"`` (whose line
        the comments on this line belong to), or ``None``."""
        g = self.game
        assert g is not None
        if isinstance(parsed, Diagnostic):
            head = src.code.lstrip()
            word = head.split(None, 1)[0].lower() if head else ""
            if self.skipping and head[:1] not in ("[", *"0123456789") and (
                    KEYWORDS.get(word) not in ("final", "unfinished")):
                return None  # resynchronising: the rest of an unreadable deal
            self.error(parsed.code, parsed.message, parsed.column or 1)
            if head[:1].isdigit():
                self.finish_deal()
                self.skipping = True
                g.has_body = True
            return None
        if isinstance(parsed, TagLine):
            self.finish_deal()
            self.skipping = False
            self.tags(parsed, src)
            return "game"
        if isinstance(parsed, DealLine):
            self.finish_deal()
            self.skipping = False
            g.has_body = True
            self.start_deal(parsed, src)
            return "deal" if self.deal is not None else None
        if isinstance(parsed, PairsLine) and parsed.keyword == "final":
            self.finish_deal()
            self.skipping = False
            g.has_body = True
            self.final(parsed, src)
            g.last_key = g.on_key = "final"
            return "game"
        if isinstance(parsed, FlagLine) and parsed.keyword == "unfinished":
            self.finish_deal()
            self.skipping = False
            g.has_body = True
            g.game.unfinished = True
            g.last_key = g.on_key = "unfinished"
            return "game"
        if self.skipping:
            return None
        d = self.deal
        if d is None:
            self.error("E301", msg("this line belongs to a deal, but no deal line comes before it "
                                 "(a deal starts like '3. 3 Vera "
                                 "K♣')"), len(src.code) - len(src.code.lstrip()) + 1)
            return None
        key = self.detail(parsed, d, src)
        if key is None:
            return None
        d.last_key = key
        return "deal"

    # -- tags --------------------------------------------------------------------

    def tags(self, parsed: TagLine, src: SourceLine) -> None:
        g = self.game
        assert g is not None
        game = g.game
        line = src.number
        first = True
        for name, value, name_col, value_col in parsed.tags:
            low = name.lower()
            if low == "rules":
                if game.rules_preset is not None:
                    self.error("E102", msg("the Rules tag is written twice in this game"), name_col)
                    continue
                game.rules_preset = value.strip()
                game.positions["rules"] = Pos(line, value_col)
                key = "rules"
            elif low == "option":
                opt, eq, val = value.partition("=")
                opt = opt.strip()
                if not eq or not opt:
                    self.error("E103", msg('expected an option like [Option "void=free"], got {got}').format(
                        got=Quoted(value)), value_col)
                    continue
                if opt in game.rules_options:
                    self.error("E102", msg("the option {option} is written twice in this "
                                         "game").format(option=Quoted(opt)),
                               value_col)
                    continue
                game.rules_options[opt] = _option_value(opt, val.strip())
                game.positions[f"option:{opt}"] = Pos(line, value_col)
                key = f"option:{opt}"
                g.rules = None
            elif low == "players":
                if game.players:
                    self.error("E102", msg("the Players tag is written twice in this game"), name_col)
                    continue
                offset = value_col + 1
                names: list[str] = []
                separator = ","
                if "," not in value and len(value.split()) > 1:
                    separator = " "
                    listed = ", ".join(value.split())
                    self.warn("W104", msg("[Players] names are separated by commas; read as {n} players: "
                                        "{names} (write [Players \"{names}\"])").format(
                        n=len(value.split()), names=listed), value_col)
                    value = " ".join(value.split())
                for part in value.split(separator):
                    stripped = part.strip()
                    col = offset + len(part) - len(part.lstrip())
                    if not stripped:
                        self.error("E104", msg('expected player names separated by commas, like [Players '
                                             '"Анна, Boris, Vera"]; '
                                             "a name is empty"), col)
                        names = []
                        break
                    names.append(stripped)
                    game.positions.setdefault(f"player:{stripped}", Pos(line, col))
                    offset += len(part) + 1
                if not names:
                    continue
                game.players = names
                game.positions["players"] = Pos(line, value_col)
                g.seat = {p: names[(i + 1) % len(names)] for i, p in enumerate(names)}
                if len(set(names)) == len(names):
                    g.rotations = {p: names[i:] + names[:i] for i, p in enumerate(names)}
                    g.index = {p: i for i, p in enumerate(names)}
                key = "players"
            else:
                if name in game.tags:
                    self.error("E102", msg("the {name} tag is written twice in this "
                                         "game").format(name=name), name_col)
                    continue
                if low == "date":
                    value = self.date(value, value_col)
                game.tags[name] = value
                game.positions[f"tag:{name}"] = Pos(line, value_col)
                key = f"tag:{name}"
            g.last_key = key
            if first:
                g.on_key = key
                first = False

    # -- deals -------------------------------------------------------------------

    def start_deal(self, p: DealLine, src: SourceLine) -> None:
        g = self.game
        assert g is not None
        line = src.number
        readable, trump = self.deal_trump(p)
        if not readable:
            self.skipping = True
            return
        cols = p.cols
        deal = DealRecord.bare(p.number, p.kind, p.dealer, p.cards, trump, Pos(line, cols["number"]))
        state = _DealState(deal)
        self.deal = state
        players = g.game.players
        if p.cells is None:
            _deal_line_positions(deal.positions, p, players, line)
            return
        if not players:
            _deal_line_positions(deal.positions, p, players, line)
            self.error("E213", msg('sheet cells need the players: write a [Players "..."] tag before the '
                                 'deals'),
                       cols["cells"] + 1)
            state.broken = True
            return
        if len(p.cells) != len(players):
            _deal_line_positions(deal.positions, p, players, line)
            self.error("E212", msg("the sheet line has {cells} cells but the game has {n} players "
                                 "({players})").format(
                cells=len(p.cells), n=len(players), players=", ".join(players)), cols["cells"] + 1)
            state.broken = True
            return
        self.cells(state, [v for c in p.cells for v in (c.bid, c.taken, c.score, c.total)], players)
        _deal_line_positions(deal.positions, p, players, line)

    def deal_trump(self, p: DealLine) -> tuple[bool, TrumpValue | None]:
        """Whether the trump of a deal line can be read (not: a joker where
        the deck has none, reported) and the trump as the record holds it."""
        if p.trump is None:
            return True, None
        if p.trump == NONE_WORD:
            return True, NO_TRUMP
        if p.trump == JOKER_WORD:
            joker = self.joker_card(p.cols["trump"])
            return joker is not None, joker
        assert isinstance(p.trump, (Card, Suit))
        return True, p.trump

    def plain_deal(self, code: str, number: int) -> bool:
        """A deal line with one plain cell per player, read by one match
        (:func:`plain_deal_line`) and applied as :meth:`line` would apply it;
        the positions of its values are worked out when asked for. False:
        not such a line (nothing done)."""
        g = self.game
        if g is None or not g.game.players:
            return False
        players = g.game.players
        found = plain_deal_line(code, len(players))
        if found is None:
            return False
        p, texts = found
        known = _CELL_INTS
        values: list[int | None] = list(map(known.get, texts, _MISSING))  # type: ignore[arg-type]
        if _UNSEEN in values:
            values = [_cell_int(t) for t in texts]
        if not (_SMALL_TEXTS.issuperset(texts) and 0 <= p.number <= _NUMBER_HIGH
                and 0 <= p.cards <= _CARDS_HIGH):
            g.unbounded = True  # maybe out of range: bound_numbers looks
        if p.trump == JOKER_WORD or (p.kind == "miser" and all(
                values[k] is not None and values[k + 1] is None and values[k + 2] is None
                and values[k + 3] is None for k in range(0, len(values), 4))):
            return False  # a joker's trump, a miser's bare numbers: the long way
        self.finish_deal()
        self.skipping = False
        g.has_body = True
        g.last_line = line = number
        raw = p.trump  # (a joker's trump went the long way above: the rest as deal_trump reads it)
        trump: TrumpValue | None = NO_TRUMP if raw == NONE_WORD else raw  # type: ignore[assignment]
        deal = DealRecord.bare(p.number, p.kind, p.dealer, p.cards, trump, Pos(line, p.cols["number"]))
        state = _DealState(deal)
        self.deal = state
        self.cells(state, values, players)
        deal.add_positions_later(functools.partial(_plain_deal_positions, code, players, line))
        self.last_owner = "deal"
        return True

    def cells(self, state: _DealState, values: list[int | None], players: list[str]) -> None:
        """The values of a sheet line's cells into the deal: four per player
        in seating order (bid, taken, score, total; ``None`` where not written).
        A name listed twice has the values of its last cell."""
        deal = state.deal
        g = self.game
        assert g is not None
        names = players
        at = g.index
        n = len(players)
        written = values  # which sections are there: as written, before any merging
        if len(at) != n:
            merged = {name: values[seat * 4:seat * 4 + 4] for seat, name in enumerate(players)}
            names = list(merged)
            values = [v for cell in merged.values() for v in cell]
            at = {name: seat for seat, name in enumerate(names)}
        sections = state.cell_sections
        if written[0::4].count(None) != n:
            order = g.rotations.get(g.seat.get(deal.dealer, ""))
            if order is None:
                order = bidding_order(players, deal.dealer)
            column = values[0::4]
            bids: dict[str, int] = {}
            if names is players and None not in column and len(order) == n:
                # every bid written: the cells turned to start at the first bidder
                first = at[order[0]]
                deal.bids = dict(zip(order, column[first:] + column[:first]))  # type: ignore[arg-type]  # noqa: B905
            else:
                for name in order:
                    bid = column[at[name]]
                    if bid is not None:
                        bids[name] = bid
                deal.bids = bids
            sections.add("bids")
        for section, part in _CELL_SECTIONS:
            missing = written[part::4].count(None)
            if missing != n:
                column = values[part::4]
                if not missing and names is players:
                    setattr(deal, section, dict(zip(names, column)))  # noqa: B905 (one per player; the keyword is slow)
                else:
                    setattr(deal, section, {name: v for name, v in zip(names, column, strict=True)
                                            if v is not None})
                sections.add(section)

    def detail(self, parsed: object, d: _DealState, src: SourceLine) -> str | None:
        deal = d.deal
        line = src.number
        pos = deal.written_positions()
        if isinstance(parsed, HandLine):
            if deal.hands is None:
                deal.hands = {}
            if parsed.name in deal.hands:
                self.error("E307", msg("{player}'s hand is written twice in deal {number}").format(
                    player=parsed.name, number=deal.number),
                           parsed.column)
                return None
            cards: list[Card] = []
            for c in parsed.cards:
                if isinstance(c, Card):
                    cards.append(c)
                else:
                    joker = self.joker_card(parsed.column)
                    if joker is None:
                        return None
                    cards.append(joker)
            deal.hands[parsed.name] = cards
            pos[f"hand:{parsed.name}"] = Pos(line, parsed.column)
            pos.setdefault("hands", Pos(line, parsed.column))
            return f"hand:{parsed.name}"
        if isinstance(parsed, TrickLine):
            return self.trick(parsed, d, src)
        if isinstance(parsed, PairsLine):
            section = parsed.keyword
            if section in d.cell_sections or getattr(deal, section) is not None:
                where = deal.positions.get(section)
                self.error("E307", msg("the {section} of deal {number} are already written").format(
                    section=section, number=deal.number)
                           + (" " + msg("(line {line})").format(line=where.line) if where else ""),
                           parsed.pairs[0][2])
                return None
            pkey = PAIRS_BY_FIELD[section].one
            values: dict[str, int] = {}
            for name, value, col in parsed.pairs:
                if name in values:
                    self.error("E308", msg("{player} appears twice in the {section} of deal {number}").format(
                        player=name, section=section, number=deal.number), col)
                    return None
                values[name] = value
                pos[f"{pkey}:{name}"] = Pos(line, col)
            setattr(deal, section, values)
            pos[section] = Pos(line, parsed.pairs[0][2])
            return section
        if isinstance(parsed, PenaltyLine):
            if deal.penalties is None:
                deal.penalties = []
            deal.penalties.append(PenaltyRecord(parsed.name, parsed.points, parsed.reason,
                                                Pos(line, parsed.cols["name"])))
            pos.setdefault("penalties", Pos(line, parsed.cols["name"]))
            return f"penalty:{len(deal.penalties)}"
        if isinstance(parsed, FlagLine):  # replayed
            deal.replayed = True
            pos["replayed"] = Pos(line, len(src.code) - len(src.code.lstrip()) + 1)
            return "replayed"
        raise AssertionError(parsed)  # pragma: no cover

    def plain_detail(self, code: str, d: _DealState, line: int,
                     parts: list[str] | None = None) -> str | None:
        """A plain trick or hand line (``trick NAME: CARD CARD ...``,
        single-spaced, no joker declaration, no names but the first) applied
        at once: a trick kept as one compact trick
        (:data:`~raspis_cli.model.record.CompactTrick`), a hand as its cards. The
        same reading as :func:`parse_line` with :meth:`trick` or
        :meth:`detail` give it, without an object per card. ``None``: not
        such a line (nothing done), read it the usual way. ``parts``: the
        line's words (``code.split()``), when the caller has them."""
        if parts is None:
            parts = code.split()
        if len(parts) < 3 or '"' in code or "(" in code:
            return None
        key = KEYWORDS.get(parts[0])
        if key != "trick" and key != "hand":
            return None
        lead = parts[1]
        if len(lead) < 2 or lead[-1] != ":":
            return None
        name = lead[:-1]
        g = self.game
        assert g is not None
        deal = d.deal
        rotation: list[str] | None = None
        if key == "trick":
            rotation = g.rotations.get(name)
            if rotation is None or len(parts) - 2 > len(rotation):
                return None
        elif deal.hands is not None and name in deal.hands:
            return None  # written twice: the long way says so
        fast = CARD_TOKENS
        cards = [fast.get(t) for t in parts[2:]]
        if None in cards or JOKER_WORD in cards:
            return None
        indent = len(code) - len(code.lstrip())
        if len(code) != indent + sum(map(len, parts)) + len(parts) - 1:
            return None  # not single-spaced: the long way finds each column
        if rotation is None:
            if deal.hands is None:
                deal.hands = {}
            deal.hands[name] = cards  # type: ignore[assignment]
            at = Pos(line, indent + len(parts[0]) + 2)
            positions = deal.written_positions()
            positions[f"hand:{name}"] = at
            positions.setdefault("hands", at)
            return f"hand:{name}"
        play = deal.start_compact_play()
        play.append((rotation, cards, line, code))  # type: ignore[arg-type]
        return f"trick:{len(play)}"

    def declared_trick(self, code: str, d: _DealState, line: int, parts: list[str]) -> str | None:
        """A single-spaced trick line whose cards carry joker declarations
        (``trick NAME: CARD CARD(decl) ...``, no names but the leader's) kept
        as one :data:`~raspis_cli.model.record.DeclaredTrick`, as
        :func:`parse_line` and :meth:`trick` keep it: each declaration read by
        the one reading of declarations (:func:`parse_decl`). ``None``, and
        nothing done, for anything else, or for a declaration that needs the
        deal (a suit named as the trump's) or would be an error: the long way
        reads it (and says what is wrong)."""
        if len(parts) < 3 or '"' in code:
            return None
        lead = parts[1]
        if KEYWORDS.get(parts[0]) != "trick" or len(lead) < 2 or lead[-1] != ":":
            return None
        name = lead[:-1]
        g = self.game
        assert g is not None
        rotation = g.rotations.get(name)
        deal = d.deal
        if rotation is None or deal.__dict__["_tricks"] is not None or not _plain_leader(name):
            return None
        indent = len(code) - len(code.lstrip())
        name_col = indent + len(parts[0]) + 2
        at = name_col + len(lead) - 1  # just after the ':'
        if _DECLARED_BODY_RE.fullmatch(code, at) is None:
            return None
        cards: list[Card] = []
        declared: list[JokerDecl | None] = []
        cols = [name_col]
        known = CARD_TOKENS
        for m in _DECLARED_ITEM_RE.finditer(code, at):
            card = known.get(m.group(1))
            if type(card) is not Card:
                return None  # no card, or the joker as a word: the long way
            text = m.group(2)
            decl: JokerDecl | None = None
            if text is not None:
                decl = _declaration(text, not cards)
                if decl is None:
                    return None
            if cards:
                cols.append(m.start(1) + 1)
            cards.append(card)
            declared.append(decl)
        if len(cards) > len(rotation):
            return None
        play = deal.start_compact_play()
        play.append((rotation, cards, line, code, declared, cols))
        return f"trick:{len(play)}"

    def trick(self, parsed: TrickLine, d: _DealState, src: SourceLine) -> str | None:
        g = self.game
        assert g is not None
        deal = d.deal
        line = src.number
        names = parsed.players
        cards = parsed.cards
        cols = parsed.cols
        decls = parsed.decls
        leader = names[0]
        if leader is None:
            self.error("E312", msg("expected the leader's name before the first card, like 'trick Анна: A♥ "
                                 "...'"),
                       cols[0])
            return None
        rotation = g.rotations.get(leader)
        plays: list[PlayRecord]
        if (self.fast_paths and rotation is not None and len(cards) <= len(rotation)
                and names.count(None) == len(names) - 1 and deal.__dict__["_tricks"] is None):
            # only the leader named: the cards in turn round the table, kept as
            # one tuple (a DeclaredTrick), the objects made only when asked for
            resolved: list[Card] = []
            declared: list[JokerDecl | None] = [None] * len(cards)
            for k, card in enumerate(cards):
                if not isinstance(card, Card):
                    joker = self.joker_card(cols[k])
                    if joker is None:
                        return None
                    card = joker
                resolved.append(card)
                raw = decls[k] if decls is not None else None
                if raw is not None:
                    decl = self.joker_decl(raw, deal, cols[k])
                    if decl is None:
                        return None
                    declared[k] = decl
            play = deal.start_compact_play()
            play.append((rotation, resolved, line, src.code, declared, cols))
            return f"trick:{len(play)}"
        if parsed.simple and rotation is not None and len(cards) <= len(rotation):
            plays = [PlayRecord(p, c, None, Pos(line, col))  # type: ignore[arg-type]
                     for p, c, col in zip(rotation, cards, cols, strict=False)]
        else:
            plays = []
            seat = g.seat
            prev: str | None = None
            for k, card in enumerate(cards):
                player = names[k]
                column = cols[k]
                if player is None:
                    nxt = seat.get(prev) if prev is not None else None
                    if nxt is None:
                        self.error("E309", msg("cannot tell who played this card: {name} is not in the "
                                             "[Players] tag, so "
                                             "write each card's player").format(name=Quoted(str(prev))),
                                   column)
                        return None
                    player = nxt
                if not isinstance(card, Card):
                    joker = self.joker_card(column)
                    if joker is None:
                        return None
                    card = joker
                decl = None
                raw = decls[k] if decls is not None else None
                if raw is not None:
                    decl = self.joker_decl(raw, deal, column)
                    if decl is None:
                        return None
                plays.append(PlayRecord(player, card, decl, Pos(line, column)))
                prev = player
        if deal.compact_play() is None and deal.tricks is not None:
            tricks = deal.tricks
            tricks.append(plays)
            deal.positions[f"trick:{len(tricks)}"] = Pos(line, cols[0])
            return f"trick:{len(tricks)}"
        play = deal.start_compact_play()
        play.append(plays)
        return f"trick:{len(play)}"

    def joker_decl(self, decl: tuple[str, Suit | str | None, Card | str | None],
                   deal: DealRecord, column: int) -> JokerDecl | None:
        mode, suit, card = decl
        if suit == TRUMP_WORD:
            trump = deal.trump
            rules = self.rules()
            if isinstance(trump, Card):
                suit = rules.deck_cards.suit_of(trump)
            elif isinstance(trump, Suit):
                suit = trump
            else:
                suit = None
            if suit is None:
                self.error("E311", msg("the joker's '{mode}' names the trump suit, but deal {number} has "
                                     "no trump "
                                     "written: name the suit").format(mode=mode, number=deal.number), column)
                return None
        if card == JOKER_WORD:
            self.error("E304", msg("a joker cannot be declared as the joker: name a card like A♦"),
                       column)
            return None
        assert suit is None or isinstance(suit, Suit)
        assert card is None or isinstance(card, Card)
        return JokerDecl(mode, suit, card)

    def rules(self) -> Rules:
        g = self.game
        assert g is not None
        if g.rules is None:
            try:
                g.rules = Rules.from_record(g.game.rules_preset, g.game.rules_options)
            except RulesError:
                try:
                    g.rules = Rules.preset(g.game.rules_preset or "raspisnoy")
                except RulesError:
                    g.rules = Rules()
        return g.rules

    def joker_card(self, column: int) -> Card | None:
        deck = self.rules().deck_cards
        if deck.size == 54:
            self.error("E310", msg("a 54-card deck has two jokers: write RJ (red) or BJ (black)"),
                       column)
            return None
        if not deck.jokers:
            self.error("E310", msg("this game's deck has no joker (joker=none): write the card"),
                       column)
            return None
        return deck.jokers[0]

    def final(self, parsed: PairsLine, src: SourceLine) -> None:
        g = self.game
        assert g is not None
        game = g.game
        line = src.number
        if game.totals is not None:
            self.error("E307", msg("the final totals of this game are already written"),
                       parsed.cells[0][1] if parsed.cells else parsed.pairs[0][2])
            return
        totals: dict[str, int] = {}
        if parsed.cells is not None:
            if not game.players:
                self.error("E213", msg('final cells need the players: write a [Players "..."] tag, or '
                                     'write the '
                                     "totals by name ('final Анна 120, Boris 35')"),
                           parsed.cells[0][1] if parsed.cells else 1)
                return
            if len(parsed.cells) != len(game.players):
                self.error("E212",
                           msg("the final line has {cells} cells but the game has {n} players").format(
                    cells=len(parsed.cells), n=len(game.players)), parsed.cells[0][1]
                           if parsed.cells else 1)
                return
            for name, (value, col) in zip(game.players, parsed.cells, strict=True):
                totals[name] = value
                game.positions[f"total:{name}"] = Pos(line, col)
        else:
            for name, value, col in parsed.pairs:
                if name in totals:
                    self.error("E308", msg("{player} appears twice in the final "
                                         "totals").format(player=name), col)
                    return
                totals[name] = value
                game.positions[f"total:{name}"] = Pos(line, col)
        game.totals = totals
        low, high = NUMBER_RANGES["total"]
        if totals and not (low <= min(totals.values()) and max(totals.values()) <= high):
            g.unbounded = True  # bound_numbers reports it

    # -- finishing -------------------------------------------------------------------

    def finish_deal(self) -> None:
        d = self.deal
        if d is None:
            return
        self.deal = None
        g = self.game
        assert g is not None
        if d.broken:
            self.last_owner = "game"
            return
        deal = d.deal
        if d.texts:
            deal.comments, deal.comment_anchors = _normalise(
                d.texts, d.anchors, deal_keys(deal, g.game.players), "after:deal")
        g.game.deals.append(deal)

    def finish_game(self) -> GameRecord | None:
        self.finish_deal()
        g = self.game
        self.game = None
        self.skipping = False
        if g is None:
            return None
        game = g.game
        if g.texts:
            game.comments, game.comment_anchors = _normalise(
                g.texts, g.anchors, game_keys(game), "start")
        game.span = (g.first_line, g.last_line)
        for problem in bound_numbers(game) if g.unbounded else ():
            line, column = (problem.pos.line, problem.pos.column) if problem.pos else (g.first_line, 1)
            self.diags.append(syntax_error("E215", problem.message, line, column, "", self.path))
        return game


_DECLARED_BODY_RE: Final = re.compile(r"(?: [^\s()]+(?:\([^()]*\))?)+")
"""The cards of a single-spaced trick line after ``NAME:``, some with a
joker declaration attached (:meth:`_Reader.declared_trick`)."""
_DECLARED_ITEM_RE: Final = re.compile(r" ([^\s()]+)(?:\(([^()]*)\))?")
"""One card of :data:`_DECLARED_BODY_RE`, and its declaration's text."""
_P_TOKEN_RE: Final = re.compile(P_TOKEN)


@functools.lru_cache(maxsize=4096)
def _declaration(text: str, leads: bool) -> JokerDecl | None:
    """The declaration a trick line's ``(text)`` makes, read as the long way
    reads it (:func:`parse_decl`, then :meth:`_Reader.joker_decl`);
    ``None`` where that needs the deal (a suit named as the trump's) or is
    an error (unreadable, the joker declared as the joker): the long way
    reads those. Remembered (the same few declarations recur)."""
    raw = parse_decl(text, leads)
    decl: JokerDecl | None = None
    if raw is not None:
        mode, suit, card = raw
        if suit != TRUMP_WORD and card != JOKER_WORD:
            assert suit is None or isinstance(suit, Suit)
            assert card is None or isinstance(card, Card)
            decl = JokerDecl(mode, suit, card)
    return decl


@functools.lru_cache(maxsize=4096)
def _plain_leader(name: str) -> bool:
    """Whether the long way (:func:`parse_line`) reads ``name`` before a
    trick's ``:`` as a player's name: one word, no card, no suit sign.
    Remembered (a game has a few leaders)."""
    return (_P_TOKEN_RE.fullmatch(name) is not None and BARE_NAME_RE.fullmatch(name) is not None
            and SUIT_SYMBOL_RE.search(name) is None and CARD_TOKENS.get(name) is None
            and read_card_token(name) is None)


_CELL_PARTS: tuple[str, ...] = ("bid", "taken", "score", "total")
"""The values of a sheet cell, in the order :meth:`_Reader.cells` takes them."""
_CELL_INTS: dict[str | None, int | None] = {None: None, "-": None}
"""A sheet cell's texts read lately, as the values they are (``None``: not
written): the same few numbers recur in every sheet."""
_UNSEEN: Final = object()
"""The value :data:`_CELL_INTS` gives a text it has not seen."""
_MISSING: Final = itertools.repeat(_UNSEEN)
""":data:`_UNSEEN` without end, the defaults for ``map(_CELL_INTS.get, ...)``."""


_SMALL_TEXTS: set[str | None] = {None, "-"}
"""Those of :data:`_CELL_INTS`'s texts that are within the range of every
value a cell holds (a bid's, taken, score's and total's, :data:`NUMBER_RANGES`)."""
_SMALL_LOW = max(NUMBER_RANGES[what][0] for what in _CELL_PARTS)
_SMALL_HIGH = min(NUMBER_RANGES[what][1] for what in _CELL_PARTS)
_NUMBER_HIGH = NUMBER_RANGES["number"][1]
_CARDS_HIGH = NUMBER_RANGES["cards"][1]
assert NUMBER_RANGES["number"][0] == NUMBER_RANGES["cards"][0] == 0


def _cell_int(text: str | None) -> int | None:
    """A sheet cell's text as its value, remembered in :data:`_CELL_INTS`
    (and in :data:`_SMALL_TEXTS` when it is in range)."""
    known = _CELL_INTS
    if text in known:
        return known[text]
    assert text is not None
    value = int(text)
    if len(known) >= 4096:
        known.clear()
        known[None] = known["-"] = None
        _SMALL_TEXTS.clear()
        _SMALL_TEXTS.update((None, "-"))
    known[text] = value
    if _SMALL_LOW <= value <= _SMALL_HIGH:
        _SMALL_TEXTS.add(text)
    return value


_CELL_SECTIONS: tuple[tuple[str, int], ...] = tuple(
    (kind.field, _CELL_PARTS.index(kind.cell)) for kind in PAIRS_LINES
    if kind.cell is not None and kind.field != "bids")
"""The deal's sections a sheet cell fills besides the bids, with the part of the cell."""


def _plain_deal_positions(code: str, players: list[str], line: int, found: dict[str, Pos]) -> None:
    """The positions of a deal line read by :meth:`_Reader.plain_deal`, worked out when asked for."""
    parsed = parse_line(code)
    assert isinstance(parsed, DealLine)
    _deal_line_positions(found, parsed, players, line)


def _deal_line_positions(positions: dict[str, Pos], p: DealLine, players: list[str],
                         line: int) -> None:
    """Where each value of a deal line was written: its head (number, cards,
    kind, dealer, trump) and, when its cells are the players', each value
    of them and the start of each section they fill."""
    cols = p.cols
    for key in ("number", "cards", "kind", "dealer", "trump"):
        if key in cols:
            positions.setdefault(key, Pos(line, cols[key]))
    cells = p.cells
    if not cells or not players or len(cells) != len(players):
        return
    for kind in PAIRS_LINES:
        attr = kind.cell
        if attr is None or not any(getattr(c, attr) is not None for c in cells):
            continue
        for name, c in zip(players, cells, strict=True):
            if getattr(c, attr) is not None:
                positions.setdefault(f"{kind.one}:{name}", Pos(line, c.cols[attr]))
        positions.setdefault(kind.field, Pos(line, cells[0].column))


def _normalise(texts: list[str], anchors: list[str], keys: list[str],
               default: str) -> tuple[list[str], list[str]]:
    """Comments in the order the writer writes them, anchors the writer knows."""
    order = {k: i for i, k in enumerate(keys)}
    placed: list[tuple[int, int, int, str, str]] = []
    for i, (text, anchor) in enumerate(zip(texts, anchors, strict=True)):
        where, _, key = anchor.partition(":")
        if anchor != "start" and key not in order:
            anchor = default
            where, _, key = anchor.partition(":")
            if anchor != "start" and key not in order:
                anchor = "after:" + keys[0] if keys[0] != "start" else "start"
                where, _, key = anchor.partition(":")
        if anchor == "start":
            placed.append((-1, 0, i, text, anchor))
        else:
            placed.append((order[key], 0 if where == "on" else 1, i, text, anchor))
    placed.sort()
    return [p[3] for p in placed], [p[4] for p in placed]


def _option_value(name: str, value: str) -> str:
    """An option value in its canonical spelling when the option knows it."""
    if name in OPTIONS:
        return option_text(name, value)
    return value
