"""An editable score sheet (расписка): the model behind ``raspis live`` and ``raspis serve``.

No terminal, no web: a front end shows :meth:`EditableSheet.step` (what is
asked now), passes what the scorekeeper typed to :meth:`~EditableSheet.answer`
or to a command (:meth:`~EditableSheet.back`, :meth:`~EditableSheet.undo`,
:meth:`~EditableSheet.edit`, :meth:`~EditableSheet.comment`,
:meth:`~EditableSheet.replayed`), and shows the :class:`Outcome` it gets back.
With a :class:`~raspis_cli.sheet.sheetfile.SheetFile` attached, every change
is saved at once, in one step (a crash leaves the file as before or as after).

Every check goes through the replay (the engine, as ``validate`` uses it), so
nothing is written that ``validate`` would reject on the deal being entered.

**A value a person wrote is evidence.** Scores and running totals already in
the file are never changed without asking: a new deal gets the recomputed
score and total of its own row and nothing else is touched; an edit that
would change a score or total a person wrote (of the deal edited or of a
later one) stops at a ``rewrite`` step, whose default keeps them as written.
**A number raspis wrote is raspis's own**: the scores and totals this sheet
computed and wrote itself (deals entered in this session, the final line it
added, values rewritten at the person's word) are recomputed by an edit
without asking, and the outcome says so (:attr:`Outcome.recomputed`).
Rewriting keeps a dispute as it was: a written score that disagreed with the
recount stays, and the totals after an edited deal move by the correction's
difference, so each difference the person's own arithmetic carried is carried
still (:func:`edit_consequences`). :meth:`~EditableSheet.disagreements` lists
the written values that differ from the recount (to be shown when a sheet is
resumed).

API (stable: names are added, never renamed)
--------------------------------------------
``EditableSheet(games, choice=None, file=None, lang="en")``
    The games of a file; the last one is kept, and the file is written in
    ``lang`` (``ru``: a Russian sheet, :func:`~raspis_cli.notation.writer.write_game`).
    Raises :class:`SheetError`
    for a sheet that cannot be kept (no game, unreadable rules, a player
    named twice, a deal whose dealer is not a player: with its line).
``.players``, ``.rules``, ``.game``, ``.result`` (the replay of the game),
``.finished``, ``.total_deals()``, ``.played()``, ``.text()``
    The sheet as it stands.
``.step() -> Step | None``
    What is asked now (``None``: the game is complete and nothing is open).
``.answer(text) -> Outcome``
    The value typed at the current step ("" takes :attr:`Step.default`);
    refused with a reason (:attr:`Outcome.refused`) or taken. The last
    answer of a deal writes it (:attr:`Outcome.completed`); the last bid
    gives the sum against the cards (:attr:`Outcome.bid_sum`).
``.back()``
    One step back inside the open deal; the value there is offered again.
``.undo()``
    Take back the last thing entered: the open deal's last answer; when the
    open deal is empty, the last deal written in this session (reopened at its
    last answer; the file keeps it as written until it is written again or all
    its answers are taken back, :meth:`~EditableSheet.kept_as_written`, and
    whatever else is saved meanwhile is saved around it); an
    edit not begun is cancelled.
``.edit(number)``
    Reopen written deal ``number`` with its values as the defaults; the open
    deal is put aside and comes back after it. On its last answer the later
    deals are re-checked (:attr:`Outcome.problems`), and written values it
    would change are asked about (the ``rewrite`` step).
``.rewrite(rewrite)``
    Answer the ``rewrite`` step: ``False`` keeps the written values as
    written (what an empty answer does), ``True`` rewrites them.
``.own_values() -> set[tuple[int, str, str]]``
    The scores and totals raspis wrote itself in this session, as
    (position, player, ``score``/``total``/``final``); position -1: the final line.
``.cancel()``
    Drop the edit in progress (its values are not written; a comment typed is kept).
``.comment(text)``
    A comment on the open deal's line (refused when it holds a line break or
    a control character, or would make the line longer than the reader takes).
    A comment is a value: it is saved at once (on the deal's line, blank or
    written; a deal the sheet has no line for yet keeps its comments as the
    game's, after ``unfinished``) and kept through an edit (finished or
    cancelled), undo, quitting and a crash.
``.replayed()``
    The open deal is abandoned and dealt again (пересдача): the ``revoker``
    step when the rules have a revoke penalty, then it is written.
``.keep_comments()``
    Make sure the comments typed are saved (they are, as typed; on quit).
``.disagreements() -> list[Cell]``
    The written taken, scores, running totals and final totals that differ
    from the recount, each with both values.
``.ahead() -> list[NextDeal]``
    The deals still to play, with their dealers (empty for a free schedule).
``.standings() -> list[tuple[int, str, int]]``
    Place, player, total (recounted), best first.

Steps (:attr:`Step.what`): ``cards`` (a free schedule), ``kind`` (a special
deal the table chooses), ``trump``, ``bid``, ``taken``, ``revoker``,
``rewrite`` (answers: :data:`KEEP_WORDS` / :data:`REWRITE_WORDS`, "" keeps).
Command words for a text front end: :data:`COMMAND_WORDS`, :func:`read_command`;
numbers as typed: :func:`read_count` (ASCII digits only, a pass word for 0).

``.open`` is the :class:`OpenDeal` being entered or corrected (``None`` when
the game is complete); ``.file`` the store every change is saved through
(anything with ``save(text)``; :class:`raspis_cli.sheet.sheetfile.SheetFile`
locks the file, refuses a change made on disk, writes through a link).
``.journal`` (``None`` by default) is told of every change
(:class:`DealKeeper`, :class:`raspis_cli.sheet.journal.DealJournal`: the
answers of the deal being entered kept beside the file, so that a crash loses
only the entry in flight); ``.deal_in_progress`` is that deal (the open one, or
the one put aside by an edit).
Saving raises what the store raises (:class:`SheetError` subclasses,
:class:`OSError`); the sheet in memory is then exactly as before the call
(the open deal still open, with its answers: the change can be made again),
and ``.unsaved`` holds the text that could not be written (the change with
it), to be kept aside. One ``EditableSheet`` per file and process: calls are
not thread-safe.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Concatenate, NamedTuple, ParamSpec, Protocol, TypeVar

from raspis_cli.engine import KINDS_WITHOUT_BIDS, Deal
from raspis_cli.judge.replay import DealResult, GameResult, Problem, RulesChoice, replay_game, resolve_rules
from raspis_cli.model.cards import Card, Suit
from raspis_cli.model.deal_kinds import has_trump, judged_kind, kind_label
from raspis_cli.model.record import NO_TRUMP, DealRecord, GameRecord, NoTrump, PenaltyRecord, TrumpValue
from raspis_cli.notation.tokens import JOKER_WORD, KIND_WORDS, NONE_WORD, read_trump_token
from raspis_cli.notation.writer import bidding_order, trump_text, write_games
from raspis_cli.rules import Rules
from raspis_cli.rules.schedule import schedule_for
from raspis_cli.rules.standings import final_places
from raspis_cli.rules.trumps import trump_holder
from raspis_cli.sheet.blank import (
    NextDeal,
    SheetError,
    blank_out,
    fill_deal,
    is_played,
    next_deal,
    with_deals,
)
from raspis_cli.text.decoding import MAX_LINE_BYTES
from raspis_cli.text.messages import Message, Quoted, Seq, Term, msg, msg_n

__all__ = [
    "COMMAND_WORDS",
    "KEEP_WORDS",
    "REWRITE_WORDS",
    "BidSum",
    "Cell",
    "Command",
    "DealKeeper",
    "EditableSheet",
    "OpenDeal",
    "Outcome",
    "SheetError",
    "SheetStore",
    "Step",
    "edit_consequences",
    "read_command",
    "read_count",
]

BID_KINDS = ("bid-range", "dealer-restriction", "third-pass")
MISMATCH_KINDS = ("score-mismatch", "total-mismatch", "taken-mismatch")

COMMAND_WORDS: dict[str, str] = {
    "help": "help", "?": "help", "помощь": "help",
    "back": "back", "назад": "back",
    "undo": "undo", "отмена": "undo", "отменить": "undo",
    "edit": "edit", "исправить": "edit", "изменить": "edit",
    "sheet": "sheet", "расписка": "sheet",
    "schedule": "schedule", "расписание": "schedule",
    "totals": "totals", "счёт": "totals", "счет": "totals",
    "replayed": "replayed", "redeal": "replayed", "пересдача": "replayed",
    "quit": "quit", "q": "quit", "exit": "quit", "выход": "quit",
    "comment": "comment", "note": "comment", "комментарий": "comment",
}
"""The words of a text front end, English and Russian, to the command."""

COMMANDS_WITH_ARGUMENT = ("edit", "comment")
KEEP_WORDS = ("keep", "k", "оставить", "о", "-")
REWRITE_WORDS = ("rewrite", "r", "переписать", "п", "+")
PASS_WORDS = ("пас", "п", "pass", "p")



class Command(NamedTuple):
    """A command a line names (``edit``) and its argument (``3``; "" for none)."""

    name: str
    argument: str


def read_command(text: str) -> Command | None:
    """The command a line names, with its argument (``("edit", "3")``,
    ``("comment", "; опоздал")``), or ``None`` for a value. A line starting
    ``;`` is a comment. Words are matched without regard to case."""
    stripped = text.strip()
    if stripped.startswith(";"):
        return Command("comment", stripped)
    parts = stripped.split(maxsplit=1)
    if not parts:
        return None
    command = COMMAND_WORDS.get(parts[0].lower())
    if command is None:
        return None
    rest = parts[1].strip() if len(parts) > 1 else ""
    if rest and command not in COMMANDS_WITH_ARGUMENT:
        return None
    if command == "comment":
        rest = "; " + rest if rest else ""
    return Command(command, rest)


def read_count(text: str) -> int | Message | None:
    """A bid or a number of tricks typed: digits 0-9 (up to three), or a pass
    word (0). An error text for a number written with other digits (``²``,
    ``①``, ``٣``); ``None`` for anything else (the caller says what it wants)."""
    low = text.strip().lower()
    if low in PASS_WORDS:
        return 0
    if re.fullmatch(r"[0-9]{1,3}", low):
        return int(low)
    if low and any(unicodedata.numeric(ch, None) is not None and not "0" <= ch <= "9" for ch in low):
        return msg("{got} is not written with the digits 0-9").format(got=Quoted(text.strip()))
    return None


# -- values ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """What is asked now.

    ``key`` names the value (``trump``, ``bid:Анна``, ``taken:Анна``, ...),
    ``what`` its sort (see the module's docstring), ``player`` whose it is,
    ``default`` the text an empty answer takes, ``forbidden`` the bids the
    player may not make now, ``choices`` the kinds to choose from (``kind``),
    ``bid`` the player's bid (``taken``), ``changes`` the written values an
    edit would change (``rewrite``)."""

    key: str
    what: str
    deal: NextDeal
    player: str | None = None
    default: str = ""
    forbidden: tuple[int, ...] = ()
    choices: tuple[str, ...] = ()
    dealer: bool = False
    bid: int | None = None
    changes: tuple[Cell, ...] = ()
    editing: bool = False


@dataclass(frozen=True)
class Cell:
    """A written value beside the recount: deal ``number`` (``None`` for the
    final line) at ``position`` in the record (-1: final), ``player``,
    ``what`` (``taken``, ``score``, ``total``, ``final``), ``written`` and
    ``recomputed`` (for an edit's change: the value a rewrite writes, the
    recount plus any difference the written totals carry); ``carried`` for a
    total that carries the same difference as the player's total before it;
    ``own`` for a value raspis computed and wrote itself."""

    number: int | None
    position: int
    player: str
    what: str
    written: int
    recomputed: int | None
    carried: bool = False
    own: bool = False


@dataclass(frozen=True)
class BidSum:
    """The bids of a deal against its cards (перебор, недобор)."""

    bids: int
    cards: int

    @property
    def difference(self) -> int:
        """Bids minus cards: above zero an overbid, below an underbid."""
        return self.bids - self.cards

    def text(self) -> Message:
        """The sum as the table says it, in the language in force."""
        head = msg_n("bids {bids} of {cards} card", "bids {bids} of {cards} cards", self.cards).format(
            bids=self.bids, cards=self.cards)
        d = self.difference
        if d > 0:
            return head + ": " + msg("overbid by {n}").format(n=d)
        if d < 0:
            return head + ": " + msg("underbid by {n}").format(n=-d)
        return head + ": " + msg("the bids add up to the cards")


@dataclass
class OpenDeal:
    """A deal being entered (new) or corrected (``editing``): the answers so
    far by step key, in the order given (``trail``), the values offered as
    defaults, its comments."""

    deal: NextDeal
    values: dict[str, object] = field(default_factory=dict)
    trail: list[str] = field(default_factory=list)
    defaults: dict[str, object] = field(default_factory=dict)
    comments: list[str] = field(default_factory=list)
    editing: bool = False
    abandoned: bool = False
    """The deal is being written as replayed (the revoker is asked)."""
    pending: GameRecord | None = None
    """An edit's game with the written values kept, waiting for keep/rewrite."""
    rewritten: GameRecord | None = None
    """The same game with the changed values rewritten."""
    changes: tuple[Cell, ...] = ()
    """The values a person wrote that the edit would change (asked about)."""
    recomputed: tuple[Cell, ...] = ()
    """raspis's own values the edit recomputes (in both games)."""

    @property
    def trump(self) -> TrumpValue | None:
        """The trump answered."""
        value = self.values.get("trump")
        return value if isinstance(value, (Card, Suit, NoTrump)) else None

    @property
    def bids(self) -> dict[str, int]:
        """The bids answered, by player."""
        return {k[4:]: v for k, v in self.values.items() if k.startswith("bid:") and isinstance(v, int)}

    @property
    def taken(self) -> dict[str, int]:
        """The counts answered, by player."""
        return {k[6:]: v for k, v in self.values.items() if k.startswith("taken:") and isinstance(v, int)}

    @property
    def has_bids(self) -> bool:
        """Whether the deal's kind has bids (not miser or golden)."""
        return self.deal.kind not in KINDS_WITHOUT_BIDS

    @property
    def empty(self) -> bool:
        """Nothing answered yet."""
        return not self.trail


@dataclass
class Outcome:
    """What a call did. ``refused``: why nothing changed. ``event``: what
    happened (``answered``, ``completed``, ``back``, ``undone``,
    ``taken-back``, ``cancelled``, ``editing``, ``edited``, ``replayed``,
    ``comment``, ``asks``). ``number``: the deal concerned. ``completed``:
    the deal written. ``problems``: what the replay finds in it (and, after
    an edit, new problems in later deals). ``kept``/``rewritten``: values a
    person wrote that an edit left as written / rewrote; ``recomputed``: the
    values raspis had computed itself that an edit recomputed. ``bid_sum``: after the last
    bid. ``undone``: the step key taken back. ``saved``: the file was written."""

    refused: Message | None = None
    event: str = ""
    number: int | None = None
    completed: DealResult | None = None
    problems: list[Problem] = field(default_factory=list)
    kept: list[Cell] = field(default_factory=list)
    rewritten: list[Cell] = field(default_factory=list)
    recomputed: list[Cell] = field(default_factory=list)
    bid_sum: BidSum | None = None
    undone: str | None = None
    saved: bool = False

    def edit_notes(self) -> list[Message]:
        """What an edit did to the values written on the sheet, one note each
        (kept as written, rewritten, raspis's own recomputed): every front end
        says the same."""
        notes: list[Message] = []
        if self.kept:
            notes.append(msg_n("{n} written value kept as written: it now differs from the recount",
                               "{n} written values kept as written: they now differ from the recount",
                               len(self.kept)).format(n=len(self.kept)))
        if self.rewritten:
            notes.append(msg_n("{n} written value rewritten", "{n} written values rewritten",
                               len(self.rewritten)).format(n=len(self.rewritten)))
        if self.recomputed:
            notes.append(msg_n("{n} score or total raspis had computed itself is recomputed",
                               "{n} scores and totals raspis had computed itself are recomputed",
                               len(self.recomputed)).format(n=len(self.recomputed)))
        return notes


class SheetStore(Protocol):
    """Where a sheet is saved (:class:`raspis_cli.sheet.sheetfile.SheetFile`)."""

    def save(self, text: str) -> None:
        """Write the whole text, in one step; raise when it cannot."""


class DealKeeper(Protocol):
    """Told of every change (:class:`raspis_cli.sheet.journal.DealJournal`)."""

    def keep(self, sheet: EditableSheet) -> None:
        """Keep what the sheet's :attr:`~EditableSheet.deal_in_progress` holds now."""


def _refused(message: Message) -> Outcome:
    return Outcome(refused=message)


_P = ParamSpec("_P")
_R = TypeVar("_R")
_Change = Callable[Concatenate["EditableSheet", _P], _R]


def _journaled(method: _Change[_P, _R]) -> _Change[_P, _R]:
    """A change of the sheet, all or nothing: when saving raises, the sheet in
    memory is put back as it was before the change (the open deal open again,
    with its answers) and the error goes on; otherwise its journal (when it
    has one) keeps the open deal."""

    @functools.wraps(method)
    def changed(self: EditableSheet, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        before = self._state()
        try:
            out = method(self, *args, **kwargs)
        except BaseException:
            self._restore(before)
            raise
        if self.journal is not None and not (isinstance(out, Outcome) and out.refused is not None):
            self.journal.keep(self)
        return out

    return changed


def _copy_open(o: OpenDeal | None) -> OpenDeal | None:
    """A copy of an open deal whose answers and comments change apart from the original's."""
    if o is None:
        return None
    return dataclasses.replace(o, values=dict(o.values), trail=list(o.trail), defaults=dict(o.defaults),
                               comments=list(o.comments))


@dataclass(frozen=True)
class _State:
    """What a change of the sheet may alter (the games are replaced, never altered in place)."""

    games: list[GameRecord]
    result: GameResult
    open: OpenDeal | None
    parked: OpenDeal | None
    session: list[int]
    held: dict[int, DealRecord]
    held_totals: dict[str, int] | None
    own: set[tuple[int, str, str]]


class EditableSheet:
    """The games of a file and the one being kept (the last one); see the
    module's docstring for the API."""

    def __init__(self, games: Sequence[GameRecord], choice: RulesChoice | None = None,
                 file: SheetStore | None = None, lang: str = "en") -> None:
        if not games:
            raise SheetError(msg("the file holds no game"))
        self.lang = lang
        """The language the file is written in (``en``, ``ru``)."""
        self.games = list(games)
        self.choice = choice
        self.file = file
        game = self.game
        rules, problems = resolve_rules(game, choice)
        if problems:
            raise SheetError(Message.joined("; ", (p.message for p in problems)))
        if len(set(game.players)) != len(game.players) or len(game.players) < 2:
            raise SheetError(msg("the game needs two or more players, each named once, in its [Players] tag"))
        for deal in game.deals:
            if deal.dealer not in game.players:
                line = msg("line {line}").format(line=deal.pos.line) + ": " if deal.pos is not None else ""
                raise SheetError(line + msg("the dealer of deal {number}, {name}, is not one of the players "
                                          "({players})").format(number=deal.number, name=Quoted(deal.dealer),
                                                                players=", ".join(game.players)))
        self.rules: Rules = rules
        self.result: GameResult = replay_game(game, choice=choice)
        self.journal: DealKeeper | None = None
        """Told of every change (the open deal's answers kept beside the file)."""
        self.open: OpenDeal | None = None
        self._parked: OpenDeal | None = None
        self._session: list[int] = []
        """The positions of the deals written in this session, in order (for undo)."""
        self._held: dict[int, DealRecord] = {}
        """The deals taken back by undo and not entered again, by number, as they
        were written: the file keeps them so (the sheet in memory has them blank)
        until each is written again or every answer of an earlier one taken back
        is taken back too. Whatever else is saved in between (an edit, a comment)
        is saved around them: quitting, a crash or a power cut loses nothing that
        was written."""
        self._held_totals: dict[str, int] | None = None
        """The game's ``final`` totals as written when the first deal was held."""
        self._own: set[tuple[int, str, str]] = set()
        """The scores and totals raspis wrote itself (see :meth:`own_values`)."""
        self.unsaved: str | None = None
        """The text the last save could not write (``None`` once a save succeeds):
        the change it held is not in the sheet in memory; a front end keeps it
        aside (:func:`raspis_cli.sheet.sheetfile.keep_aside`)."""
        self._open_next()

    # -- the sheet as it stands -------------------------------------------------------------

    @property
    def game(self) -> GameRecord:
        """The game being kept."""
        return self.games[-1]

    @property
    def players(self) -> list[str]:
        """The players in seating order."""
        return list(self.game.players)

    @property
    def finished(self) -> bool:
        """Whether the game is complete (no ``unfinished`` mark)."""
        return not self.game.unfinished

    def text(self) -> str:
        """The file's text: every game in the canonical notation, the deals
        :meth:`kept_as_written` as they were written."""
        return write_games([*self.games[:-1], self._as_saved()], self.lang)

    def _as_saved(self) -> GameRecord:
        """The game as the file holds it: the sheet's, with the deals taken
        back and not entered again as they were written."""
        game = self.game
        loose = self._loose_comments()
        if not self._held and not loose:
            return game
        if self._held:
            deals = [self._held.get(d.number, d) if not is_played(d) else d for d in game.deals]
            out = with_deals(game, deals)
            out.totals = self._held_totals
            game = self._marked(out)
        if loose:
            game = _with_game_comments(game, loose)
        return game

    def _loose_comments(self) -> list[str]:
        """The comments typed for the open (or put aside) deal when the sheet
        has no line for it yet: the file keeps them as the game's."""
        out: list[str] = []
        for o in (self._parked, self.open):
            if o is not None and not o.editing and o.deal.index >= len(self.game.deals):
                out += o.comments
        return out

    @property
    def deal_in_progress(self) -> OpenDeal | None:
        """The new deal being entered: the open one, or the one an edit put aside."""
        o = self.open
        return o if o is None or not o.editing else self._parked

    def played(self) -> int:
        """How many deals have their results written."""
        return sum(1 for d in self.game.deals if is_played(d))

    def total_deals(self) -> int | None:
        """The number of deals of the schedule (``None`` for a free schedule)."""
        schedule = schedule_for(self.rules, len(self.players))
        return None if schedule.free else len(schedule.listing)

    def next_deal(self) -> NextDeal | None:
        """The deal to enter next; ``None`` when the game is complete."""
        return next_deal(self.game, self.rules)

    def bidding_order(self, deal: NextDeal) -> list[str]:
        """The players in the order they bid: left of the dealer first."""
        return bidding_order(self.players, deal.dealer)

    def standings(self) -> list[tuple[int, str, int]]:
        """Place, player and recounted total, best first (equal standing shares
        a place; the rules' places: :func:`~raspis_cli.rules.standings.final_places`)."""
        names = list(self.result.totals)
        totals = [self.result.totals[name] for name in names]
        places = final_places(totals, self.rules.zero_total_rank)
        return sorted(zip(places, names, totals, strict=True), key=lambda row: (row[0], -row[2]))

    def ahead(self) -> list[NextDeal]:
        """The deals still to play, in order, with their dealers: the blank
        lines of the sheet, then what the schedule adds (empty for a free
        schedule). Dealt-again deals cannot be foreseen and are not shown."""
        schedule = schedule_for(self.rules, len(self.players))
        if schedule.free:
            return []
        game = self.game
        played = [i for i, d in enumerate(game.deals) if is_played(d)]
        start = played[-1] + 1 if played else 0
        out = [NextDeal(i, d.number, d.cards, d.kind, d.dealer, True)
               for i, d in enumerate(game.deals[start:], start=start)]
        scored = sum(1 for d in game.deals if not d.replayed)
        listing = schedule.listing
        players = self.players
        last = game.deals[-1] if game.deals else None
        number = last.number + 1 if last is not None else 1
        seat = (players.index(last.dealer) + 1) % len(players) if last is not None else 0
        for k, want in enumerate(listing[scored:]):
            out.append(NextDeal(len(game.deals) + k, number + k, want.cards, want.kind,
                                players[(seat + k) % len(players)], False))
        return out

    def disagreements(self) -> list[Cell]:
        """The written values that differ from the recount, in sheet order."""
        return _disagreements(self.game, self.result)

    # -- what is asked ----------------------------------------------------------------------

    def _steps(self, o: OpenDeal) -> list[Step]:
        """The steps of the open deal, as far as its answers decide them."""
        d = o.deal
        steps: list[Step] = []
        if o.abandoned:
            return [Step("revoker", "revoker", d, default="-")]
        if o.pending is not None:
            return [Step("rewrite", "rewrite", d, default=KEEP_WORDS[0], choices=("keep", "rewrite"),
                         changes=o.changes, editing=True)]
        if schedule_for(self.rules, len(self.players)).free:
            steps.append(Step("cards", "cards", d, default=self._default_text(o, "cards")))
        deal = self._deal_of(o)
        choices = self.kind_choices(deal)
        if choices:
            steps.append(Step("kind", "kind", deal, default=kind_label(str(o.defaults.get("kind", d.kind))),
                              choices=choices))
        if self.asks_trump(deal):
            steps.append(Step("trump", "trump", deal, default=self._default_text(o, "trump")))
        order = self.bidding_order(deal)
        if deal.kind not in KINDS_WITHOUT_BIDS:
            for name in order:
                steps.append(Step(f"bid:{name}", "bid", deal, name, self._default_text(o, f"bid:{name}"),
                                  dealer=name == deal.dealer))
        taken_keys = [f"taken:{n}" for n in order]
        for k, name in enumerate(order):
            key = taken_keys[k]
            bid = o.values.get(f"bid:{name}")
            if k == len(order) - 1:
                others = [o.values.get(t) for t in taken_keys[:-1]]
                default = str(deal.cards - sum(v for v in others if isinstance(v, int)))
            else:
                default = self._default_text(o, key)
            steps.append(Step(key, "taken", deal, name, default, bid=bid if isinstance(bid, int) else None))
        return [dataclasses.replace(s, editing=o.editing) for s in steps]

    def _deal_of(self, o: OpenDeal) -> NextDeal:
        """The open deal with the cards and kind answered."""
        d = o.deal
        cards = o.values.get("cards")
        kind = o.values.get("kind")
        if isinstance(cards, int) and cards != d.cards:
            d = dataclasses.replace(d, cards=cards)
        if isinstance(kind, str) and kind != d.kind:
            d = dataclasses.replace(d, kind=kind)
        return d

    @staticmethod
    def _default_text(o: OpenDeal, key: str) -> str:
        value = o.defaults.get(key)
        if value is None:
            return ""
        if key == "trump":
            return trump_text(value)  # type: ignore[arg-type]
        if key == "kind":
            return kind_label(str(value))
        return str(value)

    def step(self) -> Step | None:
        """What is asked now; ``None`` when nothing is open (the game is complete)."""
        o = self.open
        if o is None:
            return None
        steps = self._steps(o)
        for s in steps:
            if s.key not in o.values:
                if s.what == "bid" and s.player is not None:
                    forbidden = tuple(self.forbidden_bids(o, s.player))
                    return dataclasses.replace(s, forbidden=forbidden)
                return s
        return steps[-1]  # unreachable: a deal with every answer is written at once

    # -- answering --------------------------------------------------------------------------

    @_journaled
    def answer(self, text: str) -> Outcome:
        """The value typed at the current step ("" takes the default)."""
        o = self.open
        step = self.step()
        if o is None or step is None:
            return _refused(msg("the game is complete: nothing is asked"))
        typed = text.strip() or step.default
        if step.what == "rewrite":
            low = typed.lower()
            if low in KEEP_WORDS or low in REWRITE_WORDS:
                return self.rewrite(low in REWRITE_WORDS)
            return _refused(msg("{got}: answer keep (keep as written) or rewrite").format(got=Quoted(typed)))
        if not typed:
            return _refused(msg("an answer is needed here"))
        got = self._read(o, step, typed)
        if isinstance(got, Message):
            return _refused(got)
        if isinstance(got, tuple):  # a kind, a revoker: a value that may itself be a text
            got = got[0]
        if step.what == "revoker":
            assert isinstance(got, str)
            return self._write_replayed(o, got or None)
        o.values[step.key] = got
        o.trail.append(step.key)
        o.defaults.pop(step.key, None)
        out = Outcome(event="answered", number=o.deal.number)
        if step.what == "bid" and o.has_bids and len(o.bids) == len(self.players):
            out.bid_sum = BidSum(sum(o.bids.values()), self._deal_of(o).cards)
        if step.what == "taken" and len(o.taken) == len(self.players):
            done = self._write(o)
            done.bid_sum = out.bid_sum
            return done
        return out

    def _read(self, o: OpenDeal, step: Step, text: str) -> object:
        """The value of ``text`` at ``step``, or the error text."""
        deal = self._deal_of(o)
        if step.what == "cards":
            value = read_count(text)
            if isinstance(value, Message):
                return value
            if value is None or value <= 0:
                return msg("{got} is not a number of cards").format(got=Quoted(text))
            return value
        if step.what == "kind":
            return self.read_kind(deal, text)
        if step.what == "trump":
            return self.read_trump(o, text)
        if step.what == "revoker":
            name = text.strip()
            if name in ("-", "0", msg("nobody").shown(), msg("nobody").english()):
                return ("",)
            return (name,) if name in self.players else msg(
                "{got} is not a player: {players}, or - for nobody").format(
                    got=Quoted(name), players=", ".join(self.players))
        value = read_count(text)
        if isinstance(value, Message):
            return value
        assert step.player is not None
        if step.what == "bid":
            if value is None:
                return msg("{got} is not a bid: a number 0 to {cards}").format(got=Quoted(text),
                                                                               cards=deal.cards)
            problem = self.bid_problem(o, step.player, value)
            return problem if problem is not None else value
        if value is None:
            return msg("{got} is not a number of tricks").format(got=Quoted(text))
        problem = self.taken_problem(o, step.player, value)
        return problem if problem is not None else value

    # -- the checks (through the replay) ----------------------------------------------------

    def asks_trump(self, deal: NextDeal) -> bool:
        """Whether the deal has a trump to write down (not a no-trump deal,
        not circular trumps, not a full deal the rules leave without one)."""
        if not has_trump(judged_kind(deal.kind)) or self.rules.circular_trumps:
            return False
        full = deal.cards * len(self.players) == self.rules.deck
        return trump_holder(self.rules, full) != "no-trump"

    def kind_choices(self, deal: NextDeal) -> tuple[str, ...]:
        """The kinds the table may choose for this deal: the special deals of
        a schedule that leaves their order to the table (``classic``: after
        the fixed deals, any special kind at the largest deal), else none."""
        schedule = schedule_for(self.rules, len(self.players))
        if not schedule.tail_kinds:
            return ()
        scored = sum(1 for d in self.game.deals[:deal.index] if not d.replayed)
        return schedule.tail_kinds if scored >= len(schedule.fixed) else ()

    def read_kind(self, deal: NextDeal, text: str) -> tuple[str] | Message:
        """The kind typed for a deal whose kind the table chooses (a 1-tuple),
        or why it cannot be (an error text naming the kinds allowed)."""
        choices = self.kind_choices(deal)
        kind = KIND_WORDS.get(text.strip().lower())
        if kind is None or kind not in choices:
            return msg("{got} is not one of the special deals: {kinds}").format(
                got=Quoted(text.strip()), kinds=Seq(tuple(Term("kind", k) for k in choices)))
        return (kind,)

    def _record(self, o: OpenDeal, bids: dict[str, int] | None = None,
                taken: dict[str, int] | None = None, trump: TrumpValue | None = None) -> DealRecord:
        """The deal as it would be written with these values (no scores)."""
        d = self._deal_of(o)
        trump = trump if trump is not None else o.trump
        if trump is None and not self.asks_trump(d):
            trump = NO_TRUMP if not has_trump(judged_kind(d.kind)) else None
        old = self.game.deals[d.index] if o.editing and d.index < len(self.game.deals) else None
        record = DealRecord(number=d.number, kind=d.kind, dealer=d.dealer, cards=d.cards, trump=trump,
                            bids=dict(bids) if bids else None, taken=dict(taken) if taken else None,
                            comments=list(o.comments),
                            comment_anchors=(list(old.comment_anchors) if old is not None
                                             and old.comments == o.comments
                                             else ["on:deal"] * len(o.comments)))
        if old is not None:
            record.penalties = old.penalties
            record.extra = dict(old.extra)
        return record

    def _problems(self, o: OpenDeal, deal: DealRecord) -> list[Problem]:
        game = fill_deal(self.game, o.deal.index, deal)
        result = replay_game(game, choice=self.choice)
        return [p for p in result.problems if p.deal == o.deal.number and p.kind not in MISMATCH_KINDS]

    def read_trump(self, o: OpenDeal, text: str) -> TrumpValue | Message:
        """The trump typed (a card, a suit, ``-``), or why it cannot be."""
        token = text.strip().replace(" ", "")
        got = read_trump_token(token)
        if got is None:
            return msg("{got} is not a card, a suit or '-' (write the card turned up: 9♥, 9h, 9ч, "
                       "or its suit, "
                     "or - for none)").format(got=Quoted(text.strip()))
        value: TrumpValue
        if got == NONE_WORD:
            value = NO_TRUMP
        elif got == JOKER_WORD:
            jokers = self.rules.deck_cards.jokers
            if len(jokers) != 1:
                return msg("this deck has two jokers or none: write RJ or BJ")
            value = jokers[0]
        else:
            assert not isinstance(got, str)
            value = got
        for p in self._problems(o, self._record(o, trump=value)):
            if p.kind in ("trump", "unknown-card"):
                return p.message
        return value

    def bid_problem(self, o: OpenDeal, player: str, bid: int) -> Message | None:
        """Why ``player`` may not bid ``bid`` after the bids entered before
        theirs (the replay's message), or ``None`` when the bid stands."""
        trial = self._bids_before(o, player)
        trial[player] = bid
        for p in self._problems(o, self._record(o, trial)):
            if p.kind in BID_KINDS and p.player == player:
                return p.message
        return None

    def _bids_before(self, o: OpenDeal, player: str) -> dict[str, int]:
        """The bids answered for the players who bid before ``player``."""
        order = self.bidding_order(self._deal_of(o))
        bids = o.bids
        return {n: bids[n] for n in order[:order.index(player)] if n in bids}

    def forbidden_bids(self, o: OpenDeal, player: str) -> list[int]:
        """The bids ``player`` may not make now (the dealer's forbidden bid,
        a third pass): the engine's legal bids, in the state the replay of
        the sheet with the bids entered leaves the deal in."""
        before = self._bids_before(o, player)
        game = fill_deal(self.game, o.deal.index, self._record(o, before))
        result = replay_game(game, choice=self.choice)
        replayed = next((d.deal for d in result.deals if d.position == o.deal.index), None)
        if replayed is None:
            return []
        deal = Deal(self.rules, len(self.players), replayed.dealer, replayed.cards, replayed.kind,
                    replayed.trump, None, replayed.pass_streaks, self.players)
        seat = {name: i for i, name in enumerate(self.players)}
        for name, bid in before.items():
            deal.bid(seat[name], bid)
        if deal.next_bidder != seat[player]:
            return []
        legal = set(deal.legal_bids())
        return [b for b in range(self._deal_of(o).cards + 1) if b not in legal]

    def taken_problem(self, o: OpenDeal, player: str, taken: int) -> Message | None:
        """Why ``player`` cannot have taken ``taken`` given the counts entered
        before theirs (the counts must add up to the cards), or ``None``."""
        cards = self._deal_of(o).cards
        if taken < 0 or taken > cards:
            return msg("{player} cannot take {taken} tricks of {cards}").format(player=player, taken=taken,
                                                                            cards=cards)
        order = self.bidding_order(self._deal_of(o))
        counts = o.taken
        before = [n for n in order[:order.index(player)]]
        so_far = sum(counts[n] for n in before if n in counts)
        last = order.index(player) == len(order) - 1
        if so_far + taken > cards:
            return msg_n("the taken would add up to {sum}, more than the {cards} card dealt",
                            "the taken would add up to {sum}, more than the {cards} cards dealt",
                            cards).format(sum=so_far + taken, cards=cards)
        if last and so_far + taken != cards:
            return msg("the taken must add up to {cards}: {player} took {left}, not {taken}").format(
                cards=cards, player=player, left=cards - so_far, taken=taken)
        return None

    # -- writing ----------------------------------------------------------------------------

    def _save(self) -> bool:
        """Write the sheet as it stands (the deals held as written kept so).
        When the store raises, the text is kept in :attr:`unsaved` and the
        error goes on (the change that called it is undone in memory)."""
        if self.file is None:
            return False
        text = self.text()
        try:
            self.file.save(text)
        except BaseException:
            self.unsaved = text
            raise
        self.unsaved = None
        return True

    def _state(self) -> _State:
        """The sheet's state in memory, to put back when a change cannot be saved."""
        return _State(list(self.games), self.result, _copy_open(self.open), _copy_open(self._parked),
                      list(self._session), dict(self._held),
                      None if self._held_totals is None else dict(self._held_totals), set(self._own))

    def _restore(self, state: _State) -> None:
        """Put back a state taken by :meth:`_state` (the copies stay the state's)."""
        self.games = list(state.games)
        self.result = state.result
        self.open, self._parked = _copy_open(state.open), _copy_open(state.parked)
        self._session = list(state.session)
        self._held = dict(state.held)
        self._held_totals = None if state.held_totals is None else dict(state.held_totals)
        self._own = set(state.own)

    def _let_go(self, numbers: Iterable[int]) -> None:
        """These deals are no longer held as written (entered again, or taken back)."""
        for number in numbers:
            self._held.pop(number, None)
        if not self._held:
            self._held_totals = None

    def own_values(self) -> set[tuple[int, str, str]]:
        """The scores and totals raspis computed and wrote itself in this
        session: (position, player, ``score``/``total``/``final``), position
        -1 for the final line. An edit recomputes them without asking."""
        return set(self._own)

    def _mark_own(self, position: int, deal: DealRecord) -> None:
        """The scores and totals of the deal at ``position`` were written by raspis."""
        for what, values in (("score", deal.scores), ("total", deal.totals)):
            for name in values or {}:
                self._own.add((position, name, what))

    def kept_as_written(self) -> list[int]:
        """The numbers of the deals taken back by undo and not yet entered
        again, which the file still holds as they were written (in order)."""
        return sorted(self._held)

    def saved_played(self) -> int:
        """How many deals the file holds with their results (:meth:`played`,
        and the deals :meth:`kept_as_written`)."""
        return sum(1 for d in self._as_saved().deals if is_played(d))

    def _set_game(self, game: GameRecord) -> None:
        self.games[-1] = game
        self.result = replay_game(game, choice=self.choice)

    def _marked(self, game: GameRecord) -> GameRecord:
        """The game with ``unfinished`` and the final totals as its deals say:
        finished (recounted totals on the ``final`` line, unless totals are
        written there already) when no scheduled deal is left."""
        rules = self.rules
        done = bool(game.deals) and all(is_played(d) for d in game.deals) and next_deal(game, rules) is None
        out = with_deals(game, list(game.deals))
        out.unfinished = not done
        if not done:
            out.totals = None
            self._own = {c for c in self._own if c[0] >= 0}
        elif out.totals is None:
            out.totals = dict(replay_game(game, choice=self.choice).totals)
            self._own |= {(-1, name, "final") for name in out.totals}
        return out

    def _write(self, o: OpenDeal) -> Outcome:
        """The open deal's last answer is in: write it."""
        deal = self._record(o, o.bids if o.has_bids else None, o.taken)
        index = o.deal.index
        if o.editing:
            return self._write_edit(o, deal)
        game = fill_deal(self.game, index, deal)
        result = replay_game(game, choice=self.choice)
        _write_scores(deal, next(d for d in result.deals if d.position == index))
        self._mark_own(index, deal)
        self._set_game(self._marked(fill_deal(self.game, index, deal)))
        self._session.append(index)
        self._let_go([deal.number])
        mine = next(d for d in self.result.deals if d.position == index)
        problems = [p for p in self.result.problems if p.deal == deal.number]
        self.open = None
        saved = self._save()
        self._open_next()
        return Outcome(event="completed", number=deal.number, completed=mine, problems=problems, saved=saved)

    def _write_edit(self, o: OpenDeal, deal: DealRecord) -> Outcome:
        """An edit's last answer is in: the written values it would change
        are asked about (the ``rewrite`` step), or it is written."""
        index = o.deal.index
        old = self.game.deals[index]
        deal.scores, deal.totals = old.scores, old.totals
        kept = fill_deal(self.game, index, deal)
        after = replay_game(kept, choice=self.choice)
        consequences = edit_consequences(kept, self.result, after, index, self._own)
        mine = tuple(c for c in consequences if c.own)
        theirs = tuple(c for c in consequences if not c.own)
        o.pending = _rewrite(kept, mine)
        o.rewritten = _rewrite(kept, consequences)
        o.changes, o.recomputed = theirs, mine
        if not theirs:
            return self.rewrite(False)
        return Outcome(event="asks", number=deal.number)

    @_journaled
    def rewrite(self, rewrite: bool) -> Outcome:
        """Answer the ``rewrite`` step: write the edit keeping the written
        values it would change (``False``, the default) or rewriting them."""
        o = self.open
        if o is None or o.pending is None:
            return _refused(msg("no edit is waiting for keep or rewrite"))
        game = o.rewritten if rewrite else o.pending
        assert game is not None
        index = o.deal.index
        if game.deals[index].comments != o.comments:  # a comment typed at the rewrite step
            game = fill_deal(game, index, _with_comments(game.deals[index], o.comments))
        before = self.result
        self._set_game(self._marked(game))
        old_problems = {(p.kind, p.deal, p.player, p.message) for p in before.problems}
        problems = [p for p in self.result.problems
                    if (p.kind, p.deal, p.player, p.message) not in old_problems
                    and p.kind not in MISMATCH_KINDS]
        mine = next(d for d in self.result.deals if d.position == index)
        changes = list(o.changes)
        if rewrite:  # rewritten at the person's word: raspis's own from now on
            self._own |= {(c.position, c.player, c.what) for c in changes}
        self.open = None
        saved = self._save()
        self._unpark()
        return Outcome(event="edited", number=o.deal.number, completed=mine, problems=problems,
                       kept=[] if rewrite else changes, rewritten=changes if rewrite else [],
                       recomputed=list(o.recomputed), saved=saved)

    def _open_next(self) -> None:
        nd = self.next_deal()
        if nd is None:
            self.open = None
            return
        o = OpenDeal(nd)
        if nd.index < len(self.game.deals):
            o.comments = list(self.game.deals[nd.index].comments)
        self.open = o

    # -- commands ---------------------------------------------------------------------------

    @_journaled
    def back(self) -> Outcome:
        """One step back inside the open deal: the last answer is asked
        again, with its value offered."""
        o = self.open
        if o is None:
            return _refused(msg("nothing is open to step back in"))
        if o.pending is not None:
            o.pending = o.rewritten = None
            o.changes = o.recomputed = ()
        if o.abandoned:
            o.abandoned = False
            return Outcome(event="back", number=o.deal.number)
        if not o.trail:
            return _refused(msg("this is the deal's first question; to correct a deal written before, type "
                              "edit and its number"))
        key = o.trail.pop()
        o.defaults[key] = o.values.pop(key)
        return Outcome(event="back", number=o.deal.number, undone=key)

    @_journaled
    def undo(self) -> Outcome:
        """Take back the last thing entered (see the module's docstring)."""
        o = self.open
        if o is not None and (o.pending is not None or o.abandoned):
            return self.back()
        if o is not None and o.trail:
            key = o.trail.pop()
            o.values.pop(key)
            saved = False
            if o.deal.number in self._held and not o.values:
                # every answer of the deal taken back: so are the deals after it
                self._let_go([n for n in self._held if n >= o.deal.number])
                saved = self._save()
            return Outcome(event="undone", number=o.deal.number, undone=key, saved=saved)
        if o is not None and o.editing:
            return self.cancel()
        if not self._session:
            return _refused(msg("nothing entered in this session to take back; to correct a deal written "
                              "before, type edit and its number"))
        index = self._session.pop()
        game = self.game
        loose = self._loose_comments()
        if loose:  # the deal left has no line: its comments stay, as the game's
            game = _with_game_comments(game, loose)
        old = game.deals[index]
        if old.replayed:  # the deal dealt again goes with it
            after = game.deals[index + 1] if index + 1 < len(game.deals) else None
            if after is not None and after.number == old.number and not is_played(after):
                game = with_deals(game, game.deals[:index + 1] + game.deals[index + 2:])
        self._own = {c for c in self._own if not c[0] >= index}
        self._set_game(self._marked(blank_out(game, index)))
        self._parked = None
        self._open_next()
        reopened = self.open
        assert reopened is not None and reopened.deal.index == index
        values = self._values_of(old, reopened)
        keys = [s.key for s in self._steps(dataclasses.replace(reopened, values=values))
                if s.key in values]
        if keys and not old.replayed:  # a deal dealt again: taking back the replay is enough
            values.pop(keys.pop())
        reopened.values = {k: values[k] for k in keys}
        reopened.trail = keys
        if reopened.values and not old.replayed:  # the file keeps it as written until it is written again
            saved = False
            if not self._held:
                self._held_totals = game.totals
            self._held[old.number] = old
        else:  # a deal dealt again: the replay taken back at once, the deal after it with it
            self._let_go([old.number])
            saved = self._save()
        return Outcome(event="taken-back", number=old.number, saved=saved)

    @_journaled
    def cancel(self) -> Outcome:
        """Drop the edit in progress; the deal put aside comes back."""
        o = self.open
        if o is None or not o.editing:
            return _refused(msg("no edit is in progress"))
        self.open = None
        self._unpark()
        return Outcome(event="cancelled", number=o.deal.number)

    @_journaled
    def edit(self, number: int) -> Outcome:
        """Reopen written deal ``number``, its values as the defaults."""
        o = self.open
        if o is not None and o.editing:
            return _refused(msg("deal {number} is being corrected: finish it first (undo at its first "
                              "question leaves it)").format(number=o.deal.number))
        game = self.game
        candidates = [i for i, d in enumerate(game.deals) if d.number == number and is_played(d)
                      and not d.replayed]
        if not candidates:
            if any(d.number == number and d.replayed for d in game.deals) and not any(
                    d.number == number and is_played(d) and not d.replayed for d in game.deals):
                return _refused(msg("deal {number} was abandoned and dealt again; it is corrected "
                                    "with a text "
                                  "editor").format(number=number))
            total = self.total_deals()
            if total is not None and not 1 <= number <= total:
                return _refused(msg_n("the game has {n} deal: there is no deal {number}",
                                      "the game has {n} deals: there is no deal {number}", total).format(
                                          n=total, number=number))
            return _refused(msg("deal {number} is not written yet").format(number=number))
        index = candidates[-1]
        old = game.deals[index]
        if old.hands is not None or old.tricks is not None:
            return _refused(msg("deal {number} holds the cards played; it is corrected with a text "
                              "editor").format(number=number))
        nd = NextDeal(index, old.number, old.cards, old.kind, old.dealer, True)
        edit = OpenDeal(nd, editing=True, comments=list(old.comments))
        edit.defaults = self._values_of(old, edit)
        if not self.asks_trump(nd):
            edit.defaults.pop("trump", None)
        if self.open is not None and (not self.open.empty or self.open.comments):
            self._parked = self.open  # its answers and its comments come back after the edit
        else:
            self._parked = None
        self.open = edit
        return Outcome(event="editing", number=number)

    def _values_of(self, deal: DealRecord, o: OpenDeal) -> dict[str, object]:
        """A written deal's values by step key."""
        values: dict[str, object] = {}
        schedule = schedule_for(self.rules, len(self.players))
        if schedule.free:
            values["cards"] = deal.cards
        if self.kind_choices(o.deal):
            values["kind"] = deal.kind
        if deal.trump is not None:
            values["trump"] = deal.trump
        for name, bid in (deal.bids or {}).items():
            values[f"bid:{name}"] = bid
        for name, taken in (deal.taken or {}).items():
            values[f"taken:{name}"] = taken
        return values

    def _unpark(self) -> None:
        """Open the next deal again, with the answers put aside when they
        still stand (re-checked in order; the first refused one and those
        after it are offered as defaults)."""
        parked, self._parked = self._parked, None
        self._open_next()
        o = self.open
        if parked is None or o is None:
            return
        if o.deal.index == parked.deal.index and o.comments != parked.comments:
            o.comments = list(parked.comments)
            self._put_comments(o)
        if o.deal != parked.deal:
            return
        for key in parked.trail:
            step = self.step()
            if step is None or step.key != key:
                break
            got = self._read(o, step, self._value_text(key, parked.values[key]))
            if isinstance(got, Message):
                break
            o.values[key] = got[0] if step.what == "kind" else got  # type: ignore[index]
            o.trail.append(key)
        for key in parked.trail[len(o.trail):]:
            o.defaults[key] = parked.values[key]

    @staticmethod
    def _value_text(key: str, value: object) -> str:
        if key == "trump":
            return trump_text(value)  # type: ignore[arg-type]
        return str(value)

    @_journaled
    def comment(self, text: str) -> Outcome:
        """A comment on the open deal's line (``; `` is put before a text
        that does not start with it). Refused when it could not be read back."""
        o = self.open
        if o is None:
            return _refused(msg("the game is complete: no deal to comment on"))
        comment = text.strip()
        if not comment.lstrip(";").strip():
            return _refused(msg("the comment is empty"))
        if not comment.startswith(";"):
            comment = "; " + comment
        if any(unicodedata.category(ch) in ("Cc", "Zl", "Zp") and ch != "\t" for ch in comment):
            return _refused(msg("a comment cannot hold a line break, a carriage return or another control "
                              "character"))
        # the line holds the deal's cells too: room for them is kept
        line_size = (sum(len(c.encode("utf-8")) + 1 for c in [*o.comments, comment])
                     + 64 * len(self.players) + 256)
        if line_size > MAX_LINE_BYTES:
            return _refused(msg("the comment is too long: the deal's line would be {n} KiB, more than the "
                              "64 KiB a line of a sheet may hold").format(n=(line_size + 1023) // 1024))
        if o.comments and o.comments[-1].startswith(";"):
            # a ';' comment runs to the end of its line: a second one written after it is part of it
            # when the file is read again, so the sheet holds them as the file will
            o.comments[-1] = f"{o.comments[-1]} {comment}"
        else:
            o.comments.append(comment)
        self._put_comments(o)
        return Outcome(event="comment", number=o.deal.number, saved=self._save())

    def _put_comments(self, o: OpenDeal) -> bool:
        """Put the comments of ``o`` on its line in the sheet (a blank line, a
        deal held as written, or the written deal being corrected: its values
        stay as written until the edit is); True when the line changed. A
        deal with no line yet keeps them in ``o`` (saved as the game's)."""
        game = self.game
        index = o.deal.index
        if index >= len(game.deals):
            return False
        line = game.deals[index]
        if line.number != o.deal.number or line.comments == o.comments:
            return False
        deals = list(game.deals)
        deals[index] = _with_comments(line, o.comments)
        self._set_game(with_deals(game, deals))
        held = self._held.get(line.number)
        if held is not None and not is_played(line):
            self._held[line.number] = _with_comments(held, o.comments)
        return True

    @_journaled
    def keep_comments(self) -> bool:
        """Make sure the comments typed for the deals not finished (the open
        one, the one put aside by an edit) are on their lines, and save; True
        when one was not yet. (:meth:`comment` saves each comment at once.)"""
        changed = False
        for o in (self._parked, self.open):
            if o is not None:
                changed = self._put_comments(o) or changed
        if changed:
            self._save()
        return changed

    @_journaled
    def replayed(self) -> Outcome:
        """The open deal is abandoned and dealt again (пересдача, docs/RULES.md
        §7): the ``revoker`` step when the rules have a revoke penalty; then
        it is written ``replayed`` (the trump if typed, the penalty) and the
        same deal (number, cards, kind, dealer) follows."""
        o = self.open
        if o is None or o.editing:
            return _refused(msg("only the deal being played can be dealt again"))
        if self.rules.revoke_penalty:
            o.abandoned = True
            return Outcome(event="asks", number=o.deal.number)
        return self._write_replayed(o, None)

    def _write_replayed(self, o: OpenDeal, revoker: str | None) -> Outcome:
        d = self._deal_of(o)
        record = self._record(o)
        record.bids = record.taken = None
        record.replayed = True
        if revoker is not None and self.rules.revoke_penalty:
            record.penalties = [PenaltyRecord(revoker, self.rules.revoke_penalty, "revoke")]
        game = fill_deal(self.game, d.index, record)
        result = replay_game(game, choice=self.choice)
        _write_scores(record, next(x for x in result.deals if x.position == d.index))
        self._own = {(p + 1 if p > d.index else p, name, what) for p, name, what in self._own}
        self._mark_own(d.index, record)
        again = DealRecord(number=d.number, kind=d.kind, dealer=d.dealer, cards=d.cards)
        deals = list(game.deals)
        deals[d.index] = record
        deals.insert(d.index + 1, again)
        self._set_game(self._marked(with_deals(game, deals)))
        self._session.append(d.index)
        self._let_go([d.number])  # what was written of it is replaced by the replay
        mine = next(x for x in self.result.deals if x.position == d.index)
        self.open = None
        saved = self._save()
        self._open_next()
        return Outcome(event="replayed", number=d.number, completed=mine, saved=saved)


def _with_comments(deal: DealRecord, comments: list[str]) -> DealRecord:
    """The deal with these comments: those it has keep their places, the
    new ones go at the end of its line."""
    same = 0
    while same < min(len(comments), len(deal.comments)) and comments[same] == deal.comments[same]:
        same += 1
    anchors = list(deal.comment_anchors[:same])
    anchors += ["after:deal"] * (same - len(anchors))
    anchors += ["on:deal"] * (len(comments) - same)
    return dataclasses.replace(deal, comments=list(comments), comment_anchors=anchors)


def _with_game_comments(game: GameRecord, comments: list[str]) -> GameRecord:
    """The game with these comments added to its own, after its last line."""
    out = with_deals(game, list(game.deals))
    anchors = list(out.comment_anchors) + ["start"] * (len(out.comments) - len(out.comment_anchors))
    out.comments = [*out.comments, *comments]
    out.comment_anchors = [*anchors, *["after:unfinished"] * len(comments)]
    return out


def _write_scores(deal: DealRecord, got: DealResult) -> None:
    """Write the recomputed score and running total of a deal entered now
    (as :func:`raspis_cli.sheet.blank.write_results` does: when every score is known)."""
    if all(s is not None for s in got.scores.values()):
        deal.scores = {n: s for n, s in got.scores.items() if s is not None}
        deal.totals = dict(got.totals)


# -- written values against the recount --------------------------------------------------------


def _disagreements(game: GameRecord, result: GameResult) -> list[Cell]:
    out: list[Cell] = []
    offsets: dict[str, int] = {}
    for d in result.deals:
        if d.written_taken and d.taken_source == "tricks":
            for name, value in d.written_taken.items():
                got = d.taken.get(name)
                if got is not None and got != value:
                    out.append(Cell(d.number, d.position, name, "taken", value, got))
        for name, value in (d.written_scores or {}).items():
            got = d.scores.get(name)
            if got is not None and got != value:
                out.append(Cell(d.number, d.position, name, "score", value, got))
        for name, value in (d.written_totals or {}).items():
            if name not in d.totals:
                continue
            offset = value - d.totals[name]
            if offset:
                out.append(Cell(d.number, d.position, name, "total", value, d.totals[name],
                                carried=offsets.get(name) == offset))
            offsets[name] = offset
    for name, value in (game.totals or {}).items():
        got = result.totals.get(name)
        if got is not None and got != value:
            out.append(Cell(None, -1, name, "final", value, got, carried=offsets.get(name) == value - got))
    return out


def edit_consequences(game: GameRecord, before: GameResult, after: GameResult, index: int,
                      own: Iterable[tuple[int, str, str]] = ()) -> list[Cell]:
    """The written scores and totals an edit of the deal at ``index`` changes,
    each with the value rewriting it writes. ``game`` holds the edited deal
    with its old scores and totals; ``before`` and ``after`` are the recounts
    without and with the edit; ``own`` the values raspis wrote itself (their
    cells are marked ``own``).

    A written score that agreed with the recount takes the new recount; one
    that did not (a dispute) stays as written. Each running total after it
    moves by what the scores above it moved (or, where no score is written,
    by what the recount of the deal moved), and the final line with them:
    the difference each written total carried before (the person's own
    arithmetic) it carries still, so a disputed sheet stays disputed as it
    was and the arithmetic written on it still adds up."""
    mine = set(own)
    was = {d.position: d for d in before.deals}
    now = {d.position: d for d in after.deals}
    moved: dict[str, int] = {}
    out: list[Cell] = []
    for position in range(index, len(game.deals)):
        written = game.deals[position]
        old, new = was.get(position), now.get(position)
        if new is None:
            continue
        for name in game.players:
            recount_before = old.scores.get(name) if old is not None else None
            recount_after = new.scores.get(name)
            score = (written.scores or {}).get(name)
            if score is not None:
                takes = recount_after if recount_before == score and recount_after is not None else score
                if takes != score:
                    out.append(Cell(new.number, position, name, "score", score, takes,
                                    own=(position, name, "score") in mine))
                moved[name] = moved.get(name, 0) + takes - score
            elif recount_after is not None:
                moved[name] = moved.get(name, 0) + recount_after - (recount_before or 0)
            total = (written.totals or {}).get(name)
            if total is not None and moved.get(name):
                out.append(Cell(new.number, position, name, "total", total, total + moved[name],
                                own=(position, name, "total") in mine))
    for name, value in (game.totals or {}).items():
        if moved.get(name):
            out.append(Cell(None, -1, name, "final", value, value + moved[name],
                            own=(-1, name, "final") in mine))
    return out


def _rewrite(game: GameRecord, changes: Sequence[Cell]) -> GameRecord:
    """The game with the cells given set to their recomputed values."""
    deals = list(game.deals)
    copies: dict[int, DealRecord] = {}
    totals = dict(game.totals) if game.totals is not None else None
    for cell in changes:
        if cell.position < 0:
            if totals is not None and cell.recomputed is not None:
                totals[cell.player] = cell.recomputed
            continue
        deal = copies.get(cell.position)
        if deal is None:
            deal = dataclasses.replace(deals[cell.position])
            deal.scores = dict(deal.scores) if deal.scores is not None else None
            deal.totals = dict(deal.totals) if deal.totals is not None else None
            copies[cell.position] = deal
            deals[cell.position] = deal
        target = deal.scores if cell.what == "score" else deal.totals
        if target is not None and cell.recomputed is not None:
            target[cell.player] = cell.recomputed
    out = with_deals(game, deals)
    out.totals = totals
    return out

