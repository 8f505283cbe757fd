"""``raspis live``: keep the sheet at the table, one deal at a time.

The terminal front end of :class:`raspis_cli.sheet.editable.EditableSheet`:
it shows the step the sheet asks, passes the answer or the command
(``back``, ``undo``, ``edit N``, ``sheet``, ``schedule``, ... and their
Russian words) and shows what came of it. The prompts go through
prompt_toolkit on a terminal (history with the arrow keys, completion of
player names and commands with Tab) and through plain lines otherwise (a
script, a pipe). The sheet saves itself after every change, in one step,
under a lock (:class:`raspis_cli.sheet.sheetfile.SheetFile`).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Annotated, NamedTuple

import typer

from raspis_cli.cli.app import app
from raspis_cli.cli.console import fail, safe_markup, shell_command, stdout
from raspis_cli.cli.new_cmd import DealerOption
from raspis_cli.cli.options import RulesOption, SetOption, parse_stake
from raspis_cli.judge.results import trump_label
from raspis_cli.model.deal_kinds import kind_label
from raspis_cli.model.diagnostics import kind_title
from raspis_cli.text.i18n import N_, _, ngettext, number
from raspis_cli.text.messages import Span, layout

if TYPE_CHECKING:
    from raspis_cli.judge.replay import DealResult
    from raspis_cli.sheet.editable import Cell, EditableSheet, Outcome, Step

__all__ = ["LiveSession", "Prompter", "live"]

HELP = N_("""\
At any question:
  back          one question back in this deal (its value is offered again)
  undo          take back the last thing entered (at a deal's first question: the deal before)
  edit N        correct deal N (its values are offered; Enter keeps each)
  sheet         the sheet so far
  schedule      the deals still to play, with their dealers
  totals        the running totals
  ; TEXT        a comment on this deal's line (also: comment TEXT)
  replayed      this deal is abandoned and dealt again (пересдача)
  quit          stop here (Ctrl-D, Ctrl-C too): every deal entered is already saved
Russian words work too: назад, отмена, исправить N, расписка, расписание, счёт, пересдача, выход.
A bid or a count: a number (0 or пас for a pass). Enter takes the value in [brackets].
A trump: the card turned up (9♥, 9h, 9ч, 10♠, Тп) or its suit (♥, h, черви), - for none.""")


class Question(NamedTuple):
    """A question as shown, and the default an empty answer takes."""

    text: str
    default: str


class Quit(Exception):  # noqa: N818  a request, not an error
    """The scorekeeper asked to stop."""


def _read_line() -> str:
    """A line of standard input whatever its encoding: UTF-8, else the
    locale's, never an exception for bytes it cannot decode."""
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:
        return sys.stdin.readline()
    raw = buffer.readline()
    try:
        return str(raw.decode("utf-8"))
    except UnicodeDecodeError:
        import locale

        return str(raw.decode(locale.getpreferredencoding(False) or "utf-8", errors="replace"))


class Prompter:
    """Asks one line: prompt_toolkit on a terminal, plain lines otherwise."""

    def __init__(self, words: Sequence[str]) -> None:
        self.interactive = sys.stdin.isatty() and sys.stdout.isatty()
        self.session: object | None = None
        if self.interactive:
            from prompt_toolkit import PromptSession
            from prompt_toolkit.completion import WordCompleter
            from prompt_toolkit.history import InMemoryHistory

            completer = WordCompleter(list(words), ignore_case=True, WORD=True)
            self.session = PromptSession(history=InMemoryHistory(), completer=completer,
                                         complete_while_typing=False)

    def ask(self, message: str, default: str = "") -> str:
        """One answer, stripped ("" for Enter); raises :class:`Quit` on end of input or Ctrl-C."""
        from raspis_cli.text.textsafe import escape_text

        shown = escape_text(f"{message} [{default}]: " if default else f"{message}: ")
        try:
            if self.session is not None:
                from prompt_toolkit import PromptSession

                assert isinstance(self.session, PromptSession)
                answer = str(self.session.prompt(shown))
            else:
                sys.stdout.write(shown)
                sys.stdout.flush()
                line = _read_line()
                if not line:
                    raise EOFError
                answer = line.rstrip("\r\n")
                sys.stdout.write(escape_text(answer) + "\n")  # echo: a transcript reads as typed
                sys.stdout.flush()
        except (EOFError, KeyboardInterrupt):
            raise Quit from None
        return answer.strip()


def _trump_words(trump: str) -> str:
    """``trump К♣`` or ``no trump``: a deal's trump in the title of its table."""
    if trump == "none":
        return _("no trump")
    return _("trump {trump}").format(trump=trump_label(trump))


def _key_text(sheet: EditableSheet, key: str) -> str:
    """A step key in words: "Борис's bid", "the trump"."""
    what, _sep, player = key.partition(":")
    if what == "bid":
        return _("{player}'s bid").format(player=player)
    if what == "taken":
        return _("{player}'s count").format(player=player)
    if what == "trump":
        return _("the trump")
    if what == "kind":
        return _("the kind of deal")
    return _("the cards dealt")


def _signed(what: str, value: int | None) -> str:
    if value is None:
        return "?"
    return number(value, sign=True) if what == "score" else number(value)


def cell_line(cell: Cell) -> str:
    """A written value beside the recount, in words."""
    where = (_("deal {number}").format(number=cell.number) if cell.number is not None else _("final line"))
    what = {"taken": _("taken"), "score": _("score"), "total": _("total"),
            "final": _("final total")}[cell.what]
    return _("{where}, {player}: {what} written {written}, recomputed {recomputed}").format(
        where=where, player=cell.player, what=what, written=_signed(cell.what, cell.written),
        recomputed=_signed(cell.what, cell.recomputed))


def disagreement_lines(sheet: EditableSheet, path: str) -> list[str]:
    """The lines said when the sheet of ``path`` is resumed (by ``live`` and
    ``serve``): the written values that differ from the recount, kept as
    written (none: no line)."""
    cells = sheet.disagreements()
    if not cells:
        return []
    shown = [c for c in cells if not c.carried]
    lines = [ngettext("{n} written value differs from the recount; it is kept as written "
                      "({command} lists it):",
                      "{n} written values differ from the recount; they are kept as written "
                      "({command} lists them):", len(shown)).format(
        n=len(shown), command=shell_command("raspis", "validate", path))]
    lines += ["  " + cell_line(cell) for cell in shown]
    if len(shown) < len(cells):
        lines.append("  " + _("(later totals that carry the same difference are not listed)"))
    return lines


class LiveSession:
    """The conversation: shows each step, passes the answers, shows the outcome."""

    def __init__(self, path: str, sheet: EditableSheet, prompter: Prompter,
                 stake: Decimal | None = None, restored: str | None = None) -> None:
        self.path = path
        self.sheet = sheet
        self.restored = restored
        """What the open deal's journal gave back at the start, in words."""
        self.ask_line = prompter.ask
        self.stake = stake
        self.header: tuple[int, bool] | None = None

    # -- output -----------------------------------------------------------------------------

    def say(self, text: str) -> None:
        """A line of the conversation (record text in it escaped: textsafe)."""
        from raspis_cli.text.textsafe import escape_text

        stdout.print("\n".join(escape_text(line) for line in text.split("\n")), markup=False,
                     highlight=False)

    def show_totals(self) -> None:
        """The running totals, highest first."""
        ranked = sorted(self.sheet.result.totals.items(), key=lambda kv: -kv[1])
        self.say(_("totals after deal {number}: {totals}").format(
            number=self.sheet.played(), totals=", ".join(f"{name} {value}" for name, value in ranked)))

    def show_deal_result(self, result: DealResult) -> None:
        """The deal's bids, taken, scores and running totals as a table."""
        from rich.table import Table

        title = (_("deal {number}").format(number=result.number) + " · "
                 + ngettext("{n} card", "{n} cards", result.cards).format(n=result.cards)
                 + (f" · {kind_label(result.kind)}" if result.kind != "normal" else "")
                 + (" · " + _trump_words(result.trump) if result.trump else ""))
        table = Table(title=safe_markup(title), title_justify="left")
        for column in (_("player"), _("bid"), _("taken"), _("score"), _("total")):
            table.add_column(column, justify="left" if column == _("player") else "right")
        written = self.sheet.game.deals[result.position]
        for name in self.sheet.players:
            bid = result.bids.get(name)
            score = (written.scores or {}).get(name, result.scores.get(name))
            total = (written.totals or {}).get(name, result.totals[name])
            table.add_row(safe_markup(name), "-" if bid is None else str(bid), str(result.taken.get(name)),
                          "?" if score is None else number(score, sign=True), number(total))
        stdout.print(table)

    def show_sheet(self) -> None:
        """The sheet so far (the deals written), as ``raspis score`` shows it."""
        import dataclasses

        from raspis_cli.cli.score_cmd import show_sheet
        from raspis_cli.sheet.blank import is_played

        result = self.sheet.result
        deals = self.sheet.game.deals
        written = [d for d in result.deals if 0 <= d.position < len(deals) and is_played(deals[d.position])]
        if not written:
            self.say("  " + _("no deal is written yet"))
            return
        show_sheet(dataclasses.replace(result, deals=written), path=self.path)

    def show_schedule(self) -> None:
        """The deals still to play, with their dealers."""
        ahead = self.sheet.ahead()
        if not ahead:
            self.say("  " + (_("the schedule is free: the cards are told deal by deal")
                             if self.sheet.total_deals() is None else _("no deal is left to play")))
            return
        self.say(ngettext("{n} deal to play:", "{n} deals to play:", len(ahead)).format(n=len(ahead)))
        for deal in ahead:
            kind = "" if deal.kind == "normal" else f" · {kind_label(deal.kind)}"
            cards = ngettext("{n} card", "{n} cards", deal.cards).format(n=deal.cards)
            dealer = _("dealer {player}").format(player=deal.dealer)
            self.say(f"  {deal.number:>2}. {cards}{kind} · {dealer}")

    def show_disagreements(self) -> None:
        """At the start: the written values that differ from the recount (kept)."""
        for line in disagreement_lines(self.sheet, self.path):
            self.say(line)

    def show_cells(self, head: str, cells: Sequence[Cell]) -> None:
        """A list of written values, at most eight of them named."""
        self.say(head)
        for cell in cells[:8]:
            self.say("    " + cell_line(cell))
        if len(cells) > 8:
            more = len(cells) - 8
            self.say("    " + ngettext("and {n} more", "and {n} more", more).format(n=more))

    def show_header(self, step: Step) -> None:
        """The deal's line when a deal is begun (or reopened)."""
        sheet = self.sheet
        d = step.deal
        mark = (d.index, step.editing)
        if self.header == mark:
            return
        self.header = mark
        cards = ngettext("{n} card", "{n} cards", d.cards).format(n=d.cards) if d.cards else ""
        kind = "" if d.kind == "normal" else f" · {kind_label(d.kind)}"
        if step.editing:
            self.say("\n── " + _("correcting deal {number}").format(number=d.number)
                     + (f" · {cards}" if cards else "") + kind + " · "
                     + _("dealer {player}").format(player=d.dealer) + " · "
                     + _("Enter keeps each value; undo at the first question leaves it"))
            return
        total = sheet.total_deals()
        number = (_("deal {number} of {total}").format(number=d.number, total=total) if total
                  else _("deal {number}").format(number=d.number))
        from raspis_cli.engine import KINDS_WITHOUT_BIDS

        order = sheet.bidding_order(d)
        has_bids = d.kind not in KINDS_WITHOUT_BIDS
        first = _("{player} bids first").format(player=order[0]) if has_bids else _("no bids")
        self.say(f"\n── {number}" + (f" · {cards}" if cards else "") + kind + " · "
                 + _("dealer {player}").format(player=d.dealer) + f" · {first}")

    def prompt(self, step: Step) -> Question:
        """The question of a step and the default shown."""
        sheet = self.sheet
        d = step.deal
        if step.what == "cards":
            return Question(_("deal {number}, cards each").format(number=d.number), step.default)
        if step.what == "kind":
            kinds = ", ".join(kind_label(k) for k in step.choices)
            return Question(_("kind ({kinds})").format(kinds=kinds), step.default)
        if step.what == "trump":
            # offered as the reader's notation writes it (К♣ in Russian, where the sheet's text is K♣)
            return Question(_("trump"), trump_label(step.default))
        if step.what == "bid":
            role = " " + _("(dealer)") if step.dealer else ""
            refused = ", ".join(map(str, step.forbidden))
            also = ", " + _("not {bids}").format(bids=refused) if step.forbidden else ""
            bids = layout("{span}{also}", span=Span(0, d.cards), also=also).shown()
            return Question(_("{player} bids ({range})").format(player=f"{step.player}{role}", range=bids),
                            step.default)
        if step.what == "taken":
            said = " " + _("(bid {bid})").format(bid=step.bid) if step.bid is not None else ""
            return Question(_("{player} took").format(player=step.player) + said, step.default)
        if step.what == "revoker":
            return Question(_("who revoked ({points} points; - for nobody)").format(
                points=sheet.rules.revoke_penalty), "-")
        return Question(_("keep them as written or rewrite them (keep/rewrite)"), _("keep"))

    # -- the conversation -------------------------------------------------------------------

    def run(self) -> int:
        """The whole conversation; the exit code."""
        sheet = self.sheet
        total = sheet.total_deals()
        played = sheet.played()
        if played:
            self.say(f"{self.path}: " + ngettext("{n} deal written; going on (type help for the commands)",
                                                 "{n} deals written; going on (type help for the commands)",
                                                 played).format(n=played))
            self.show_disagreements()
            self.show_totals()
        else:
            self.say(f"{self.path}: {', '.join(sheet.players)}"
                     + (", " + ngettext("{n} deal", "{n} deals", total).format(n=total) if total else "")
                     + " " + _("(type help for the commands)"))
        if self.restored:
            self.say(self.restored)
        self.say(_("commands: {commands}").format(commands=_command_words()))
        while True:
            step = sheet.step()
            if step is None:
                break
            self.show_header(step)
            if step.what == "rewrite":
                self.show_cells(ngettext(
                    "  the correction changes {n} value written on the sheet:",
                    "  the correction changes {n} values written on the sheet:", len(step.changes)).format(
                        n=len(step.changes)), step.changes)
            question, default = self.prompt(step)
            try:
                answer = self.ask_line(question, default)
                if not self.command(answer):
                    if not answer and not step.default:
                        continue
                    self.show(sheet.answer(answer))
            except Quit:
                sheet.keep_comments()
                held = sheet.kept_as_written()
                if held:
                    self.say("\n" + ngettext(
                        "deal {numbers} was taken back and not entered again: the sheet keeps it as it was "
                        "written",
                        "deals {numbers} were taken back and not entered again: the sheet keeps them as they "
                        "were written", len(held)).format(numbers=", ".join(map(str, held))))
                saved = sheet.saved_played()
                self.say("\n" + ngettext("stopped: {n} deal saved in {path}; go on with: {command}",
                                          "stopped: {n} deals saved in {path}; go on with: {command}",
                                          saved).format(n=saved, path=self.path,
                                                        command=shell_command("raspis", "live", self.path)))
                return 0
        self.finish()
        return 0

    def finish(self) -> None:
        """The end of the game: the winner, the standings, who pays whom."""
        sheet = self.sheet
        result = sheet.result
        self.say("\n" + (_("the game is over: {names} wins with {total}") if len(result.winners) == 1
                         else _("the game is over: {names} win with {total}")).format(
            names=", ".join(result.winners), total=max(result.totals.values())))
        for place, name, points in sheet.standings():
            self.say(f"  {place}. {name} {points}")
        if self.stake is not None:
            from raspis_cli.cli.explain_cmd import print_settlement

            print_settlement(dict(result.totals), self.stake, False)
        self.say(_("saved {path}").format(path=self.path))

    def command(self, answer: str) -> bool:
        """Carry out a command typed at a question; False when it is not one."""
        from raspis_cli.sheet.editable import read_command, read_count

        got = read_command(answer)
        if got is None:
            return False
        name, argument = got
        sheet = self.sheet
        if name == "help":
            self.say(_(HELP))
        elif name == "quit":
            raise Quit
        elif name == "back":
            self.show(sheet.back())
        elif name == "undo":
            self.show(sheet.undo())
        elif name == "edit":
            number = read_count(argument) if argument else None
            if not isinstance(number, int):
                self.say("  ✗ " + _("edit what? type edit and the deal's number: edit 3"))
            else:
                self.show(sheet.edit(number))
        elif name == "sheet":
            self.show_sheet()
        elif name == "schedule":
            self.show_schedule()
        elif name == "totals":
            self.show_totals()
        elif name == "replayed":
            self.show(sheet.replayed())
        elif name == "comment":
            self.show(sheet.comment(argument))
        return True

    def show(self, outcome: Outcome) -> None:
        """What came of an answer or a command."""
        sheet = self.sheet
        if outcome.refused is not None:
            self.say(f"  ✗ {outcome.refused.shown()}")
            return
        event = outcome.event
        if outcome.bid_sum is not None:
            self.say("  " + outcome.bid_sum.text().shown())
        if event == "completed" and outcome.completed is not None:
            self.show_deal_result(outcome.completed)
        elif event == "undone" and outcome.undone is not None:
            self.say("  " + _("taken back: {what}").format(what=_key_text(sheet, outcome.undone)))
        elif event == "taken-back":
            self.say("  " + _("deal {number} reopened: its last question is asked again").format(
                number=outcome.number))
            self.header = None
        elif event == "cancelled":
            self.say("  " + _("the correction of deal {number} is dropped: its values are not written, "
                              "a comment typed is kept").format(number=outcome.number))
            self.header = None
        elif event == "edited":
            self.say("  " + _("deal {number} corrected").format(number=outcome.number))
            for note in outcome.edit_notes():
                self.say("  " + note.shown())
            self.header = None
        elif event == "comment":
            self.say("  " + _("comment kept for deal {number}").format(number=outcome.number))
        elif event == "replayed" and outcome.completed is not None:
            d = outcome.completed
            penalty = ", ".join(f"{name} {number(points, sign=True)}" for name, points in d.penalties.items()
                                if points)
            self.say("  " + _("deal {number} is replayed (пересдача): it is dealt again by {dealer}").format(
                number=d.number, dealer=d.dealer)
                + (" · " + _("penalties {penalty}").format(penalty=penalty) if penalty else ""))
            self.header = None
        for problem in outcome.problems:
            later = problem.deal != outcome.number
            where = _("deal {number}").format(number=problem.deal) + ": " if later else ""
            self.say(f"  ! {where}{kind_title(problem.kind)}: {problem.message.shown()}")


def _command_words() -> str:
    """The commands in the interface language, with their Russian words in English."""
    return _("back, undo, edit N, sheet, schedule, totals, ; comment, replayed, help, quit")


@app.command("live")
def live(
    file: Annotated[str, typer.Argument(help=_("The sheet: a new file, or an unfinished one to go on "
                                        "with."), metavar=_("FILE"))],
    players: Annotated[str | None, typer.Option(
        "--players", "-p", help=_('For a new file: the players in seating order, "Анна, Борис, Вера" '
        "(asked when not given)."), metavar=_("NAMES"))] = None,
    rules: RulesOption = None,
    options: SetOption = None,
    dealer: DealerOption = None,
    stake: Annotated[str | None, typer.Option("--stake", help=_(
        "Money per point: at the end, who pays whom (as explain --stake)."), metavar=_("AMOUNT"))] = None,
) -> int:
    """Keep the sheet as the game is played, one deal at a time.

    For each deal: the trump, the bids in bidding order (the dealer's
    forbidden bid and a third pass refused; their sum against the cards
    told), the tricks taken (they must add up to the cards); then the deal's
    scores and running totals. Any answer can be corrected (back, undo, edit
    N); values written in the file are kept unless you choose to rewrite
    them. The file is saved after every change, in one step, and marked
    unfinished until the last deal. Type help at any question for the
    commands.
    """
    from raspis_cli.cli.keeping import keep_open_deal, lock_sheet, open_written, start_new
    from raspis_cli.sheet.blank import SheetError
    from raspis_cli.sheet.editable import COMMAND_WORDS
    from raspis_cli.sheet.sheetfile import SheetChangedError, keep_aside

    money = parse_stake(stake) if stake is not None else None
    store = lock_sheet(file, "raspis live")
    try:
        if store.exists():
            sheet = open_written(file, store, players, rules, options)
            if sheet.finished:
                fail(_("{file}: the game is finished (no 'unfinished' mark); nothing to add").format(
                    file=file))
        else:
            if players is None:
                prompter = Prompter([])
                if not prompter.interactive:
                    fail(_("{file} is new: give the players with --players \"Анна, Борис, "
                           "Вера\"").format(file=file))
                try:
                    players = prompter.ask(_("players, in seating order, separated by commas"))
                except Quit:
                    return 0
            sheet = start_new(file, store, players, rules, options, dealer)
        restored = keep_open_deal(store, sheet)
        words = [*sheet.players, *COMMAND_WORDS, "пас"]
        session = LiveSession(file, sheet, Prompter(words), money, restored)
        try:
            return session.run()
        except SheetChangedError as e:
            copy = keep_aside(store.target, sheet.unsaved or sheet.text())
            fail(str(e) + ("; " + _("what live had is saved in {copy}: compare the two").format(copy=copy)
                           if copy else ""))
        except SheetError as e:
            fail(str(e))
        except OSError as e:
            fail(_("{file}: cannot write: {reason}").format(file=file, reason=e.strerror or e))
    finally:
        store.close()
