"""``raspis live``: keep the sheet at the table, one deal at a time.

The prompts go through prompt_toolkit on a terminal (history with the arrow
keys, completion of player names and commands with Tab) and through plain
lines otherwise (a script, a pipe). After every deal the file is rewritten in
one step (:func:`raspis_cli.files.atomic.write_atomic`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated

import typer

from raspis_cli.cli.app import app
from raspis_cli.cli.console import fail, safe_markup, stdout
from raspis_cli.cli.new_cmd import DealerOption, sheet_options
from raspis_cli.cli.options import RulesOption, SetOption, build_rules, rules_choice
from raspis_cli.judge.results import trump_label
from raspis_cli.text.i18n import N_, _, kind_label, ngettext

COMMANDS = {
    "help": "help", "?": "help", "помощь": "help",
    "undo": "undo", "отмена": "undo", "отменить": "undo",
    "quit": "quit", "q": "quit", "exit": "quit", "выход": "quit",
    "totals": "totals", "счёт": "totals", "счет": "totals",
    "replayed": "replayed", "пересдача": "replayed", "redeal": "replayed",
}
HELP = N_("""\
At any prompt:
  undo          take back the last deal written (it is asked again)
  ; TEXT        a comment, written on this deal's line (also: comment TEXT)
  totals        the running totals so far
  replayed      this deal was abandoned and is dealt again (пересдача): its revoke penalty is asked
  quit          stop here (Ctrl-D, Ctrl-C too): every deal entered is already saved;
                resume with: raspis live FILE
A bid or a count: a number (0 or пас for a pass). Enter takes the value in [brackets].
A trump: the card turned up (9♥, 9h, 9ч, 10♠, Тп) or its suit (♥, h, черви), - for none.""")


class Quit(Exception):  # noqa: N818  a request, not an error
    """The scorekeeper asked to stop."""


class Undo(Exception):  # noqa: N818  a request, not an error
    """The scorekeeper asked to take back the last deal."""


class Replayed(Exception):  # noqa: N818  a request, not an error
    """The scorekeeper said the deal is abandoned and dealt again."""


class Prompter:
    """Asks one line: prompt_toolkit on a terminal, ``input()`` otherwise."""

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
        """One answer, stripped; raises :class:`Quit` on end of input or Ctrl-C."""
        shown = f"{message} [{default}]: " if default else f"{message}: "
        try:
            if self.session is not None:
                from prompt_toolkit import PromptSession

                assert isinstance(self.session, PromptSession)
                answer = str(self.session.prompt(shown))
            else:
                sys.stdout.write(shown)
                sys.stdout.flush()
                line = sys.stdin.readline()
                if not line:
                    raise EOFError
                answer = line.rstrip("\r\n")
                sys.stdout.write(answer + "\n")  # echo: a transcript reads as typed
        except (EOFError, KeyboardInterrupt):
            raise Quit from None
        answer = answer.strip()
        return answer or default


def _trump_words(trump: str) -> str:
    """``trump К♣`` or ``no trump``: a deal's trump in the title of its table."""
    if trump == "none":
        return _("no trump")
    return _("trump {trump}").format(trump=trump_label(trump))


def _number(text: str) -> int | None:
    low = text.strip().lower()
    if low in ("пас", "п", "pass", "p"):
        return 0
    if low.isdigit() and len(low) < 4:
        return int(low)
    return None


class LiveSession:
    """The conversation: shows each deal, asks its values, saves, shows the totals."""

    def __init__(self, path: str, sheet: object, prompter: Prompter) -> None:
        from raspis_cli.sheet.live import LiveSheet

        assert isinstance(sheet, LiveSheet)
        self.path = path
        self.sheet = sheet
        self.ask_line = prompter.ask
        self.entry: object | None = None

    # -- output -------------------------------------------------------------------

    def say(self, text: str) -> None:
        """A line of the conversation (record text in it escaped: textsafe)."""
        from raspis_cli.text.textsafe import escape_text

        stdout.print("\n".join(escape_text(line) for line in text.split("\n")), markup=False,
                     highlight=False)

    def save(self) -> None:
        """Rewrite the file in one step."""
        from raspis_cli.files.atomic import write_atomic

        write_atomic(self.path, self.sheet.text().encode("utf-8"))

    def show_totals(self) -> None:
        """The running totals, highest first."""
        totals = self.sheet.totals()
        ranked = sorted(totals.items(), key=lambda kv: -kv[1])
        self.say(_("totals after deal {number}: {totals}").format(
            number=self.sheet.played(), totals=", ".join(f"{name} {value}" for name, value in ranked)))

    def show_deal_result(self, result: object) -> None:
        """The deal's bids, taken, scores and running totals as a table."""
        from rich.table import Table

        from raspis_cli.judge.replay import DealResult

        assert isinstance(result, DealResult)
        title = (_("deal {number}").format(number=result.number) + " · "
                 + ngettext("{n} card", "{n} cards", result.cards).format(n=result.cards)
                 + (f" · {kind_label(result.kind)}" if result.kind != "normal" else "")
                 + (" · " + _trump_words(result.trump) if result.trump else ""))
        table = Table(title=safe_markup(title), title_justify="left")
        for column in (N_("player"), N_("bid"), N_("taken"), N_("score"), N_("total")):
            table.add_column(_(column), justify="left" if column == "player" else "right")
        for name in self.sheet.players:
            bid = result.bids.get(name)
            score = result.scores.get(name)
            table.add_row(safe_markup(name), "-" if bid is None else str(bid), str(result.taken.get(name)),
                          "?" if score is None else f"{score:+d}", str(result.totals[name]))
        stdout.print(table)

    # -- asking -------------------------------------------------------------------

    def ask(self, message: str, entry: object, default: str = "") -> str:
        """Ask until an answer that is not a command; commands are carried out."""
        from raspis_cli.sheet.live import Entry

        assert isinstance(entry, Entry)
        while True:
            answer = self.ask_line(message, default)
            word = answer.split(maxsplit=1)[0].lower() if answer else ""
            if answer.startswith(";") or word in ("comment", "комментарий", "note"):
                text = answer if answer.startswith(";") else answer.split(maxsplit=1)[1:]
                comment = text if isinstance(text, str) else ("; " + text[0] if text else "")
                if comment.strip(" ;"):
                    entry.comments.append(comment)
                    self.say("  " + _("comment kept for deal {number}").format(number=entry.deal.number))
                continue
            command = COMMANDS.get(word) if len(answer.split()) == 1 else None
            if command == "help":
                self.say(_(HELP))
            elif command == "undo":
                raise Undo
            elif command == "replayed":
                raise Replayed
            elif command == "quit":
                raise Quit
            elif command == "totals":
                self.show_totals()
            elif answer:
                return answer

    def ask_value(self, message: str, entry: object, read: Callable[[str], object | str],
                  default: str = "") -> object:
        """Ask until ``read`` accepts the answer (it returns an error text otherwise)."""
        while True:
            answer = self.ask(message, entry, default)
            got = read(answer)
            if isinstance(got, str):
                self.say(f"  ✗ {got}")
                continue
            return got

    def play_deal(self) -> bool:
        """Enter one deal; False when the game is complete."""
        from raspis_cli.sheet.blank import NextDeal
        from raspis_cli.sheet.live import Entry

        sheet = self.sheet
        nd = sheet.next_deal()
        if nd is None:
            return False
        entry = sheet.start(nd)
        self.entry = entry
        if nd.cards == 0:  # a free schedule: the cards are told deal by deal
            cards = self.ask_value(_("deal {number}, cards each").format(number=nd.number), entry,
                                   lambda t: _number(t) or _("{got} is not a number of cards").format(
                                       got=repr(t)))
            assert isinstance(cards, int)
            entry = Entry(NextDeal(nd.index, nd.number, cards, nd.kind, nd.dealer, nd.scheduled),
                          comments=entry.comments)
            nd = entry.deal
        order = sheet.bidding_order(entry)
        total = sheet.total_deals()
        number = (_("deal {number} of {total}").format(number=nd.number, total=total) if total
                  else _("deal {number}").format(number=nd.number))
        kind = "" if nd.kind == "normal" else f" · {kind_label(nd.kind)}"
        first = _("{player} bids first").format(player=order[0]) if entry.has_bids else _("no bids")
        self.say(f"\n── {number} · " + ngettext("{n} card", "{n} cards", nd.cards).format(n=nd.cards)
                 + f"{kind} · " + _("dealer {player}").format(player=nd.dealer) + f" · {first}")
        try:
            return self.enter_deal(entry, order)
        except Replayed:
            self.replay_deal(entry)
            return True

    def replay_deal(self, entry: object) -> None:
        """The deal abandoned (пересдача): who revoked, then it is written
        ``replayed`` and dealt again with the same number and dealer."""
        from raspis_cli.sheet.live import Entry

        assert isinstance(entry, Entry)
        sheet = self.sheet
        revoker: str | None = None
        if sheet.rules.revoke_penalty:
            def read_revoker(text: str) -> object:
                name = text.strip()
                if name in ("-", "0", _("nobody")):
                    return ("",)
                return (name,) if name in sheet.players else _(
                    "{got} is not a player: {players}, or - for nobody").format(
                        got=repr(name), players=", ".join(sheet.players))

            got = self.ask_value(_("who revoked ({points} points; - for nobody)").format(
                points=sheet.rules.revoke_penalty), entry, read_revoker, "-")
            assert isinstance(got, tuple)
            revoker = got[0] or None
        result = sheet.replay(entry, revoker)
        self.save()
        penalty = ", ".join(f"{name} {points:+d}" for name, points in result.penalties.items() if points)
        self.say("  " + _("deal {number} is replayed (пересдача): it is dealt again by {dealer}").format(
            number=entry.deal.number, dealer=entry.deal.dealer)
            + (" · " + _("penalties {penalty}").format(penalty=penalty) if penalty else ""))

    def enter_deal(self, entry: object, order: list[str]) -> bool:
        """The deal's trump, bids and taken; scores and totals shown."""
        from raspis_cli.sheet.live import Entry

        assert isinstance(entry, Entry)
        sheet = self.sheet
        nd = entry.deal
        choices = sheet.kind_choices(entry)
        if choices:
            def read_kind(text: str) -> object:
                return sheet.read_kind(entry, text)

            kinds = ", ".join(kind_label(k) for k in choices)
            chosen = self.ask_value(_("kind ({kinds})").format(kinds=kinds), entry, read_kind,
                                    kind_label(nd.kind))
            assert isinstance(chosen, tuple)
            if chosen[0] != nd.kind:
                import dataclasses

                entry.deal = nd = dataclasses.replace(nd, kind=chosen[0])
                order = sheet.bidding_order(entry)
        if sheet.asks_trump(entry):
            def read_trump(text: str) -> object:
                return sheet.read_trump(entry, text)

            trump = self.ask_value(_("trump"), entry, read_trump)
            entry.trump = trump  # type: ignore[assignment]
        if entry.has_bids:
            for name in order:
                forbidden = sheet.forbidden_bids(entry, name)
                role = " " + _("(dealer)") if name == nd.dealer else ""
                also = ", " + _("not {bids}").format(bids=", ".join(map(str, forbidden))) if forbidden else ""

                def read_bid(text: str, name: str = name) -> object:
                    value = _number(text)
                    if value is None:
                        return _("{got} is not a bid: a number 0 to "
                                 "{cards}").format(got=repr(text), cards=nd.cards)
                    problem = sheet.bid_problem(entry, name, value)
                    return problem if problem is not None else value

                bid = self.ask_value(_("{player} bids ({range})").format(
                    player=name + role, range=f"0-{nd.cards}{also}"), entry, read_bid)
                assert isinstance(bid, int)
                entry.bids[name] = bid
        for k, name in enumerate(order):
            last = k == len(order) - 1
            default = str(nd.cards - sum(entry.taken.values())) if last else ""
            said = " " + _("(bid {bid})").format(bid=entry.bids[name]) if name in entry.bids else ""

            def read_taken(text: str, name: str = name) -> object:
                value = _number(text)
                if value is None:
                    return _("{got} is not a number of tricks").format(got=repr(text))
                problem = sheet.taken_problem(entry, name, value)
                return problem if problem is not None else value

            taken = self.ask_value(_("{player} took").format(player=name) + said, entry, read_taken, default)
            assert isinstance(taken, int)
            entry.taken[name] = taken
        result, problems = sheet.complete(entry)
        self.save()
        self.show_deal_result(result)
        for problem in problems:
            self.say(f"  ! {problem.kind}: {problem.message}")
        return True

    def run(self) -> int:
        """The whole conversation; the exit code."""
        sheet = self.sheet
        total = sheet.total_deals()
        played = sheet.played()
        if played:
            self.say(f"{self.path}: " + ngettext("{n} deal written; going on (type help for the commands)",
                                                 "{n} deals written; going on (type help for the commands)",
                                                 played).format(n=played))
            self.show_totals()
        else:
            self.say(f"{self.path}: {', '.join(sheet.players)}"
                     + (", " + ngettext("{n} deal", "{n} deals", total).format(n=total) if total else "")
                     + " " + _("(type help for the commands)"))
        while True:
            try:
                if not self.play_deal():
                    break
            except Undo:
                number = sheet.undo()
                if number is None:
                    self.say("  " + _("nothing to undo: no deal is written yet"))
                else:
                    self.save()
                    self.say("  " + _("deal {number} taken back; enter it again").format(number=number))
            except Quit:
                if self.entry is not None and sheet.keep_comments(self.entry):  # type: ignore[arg-type]
                    self.save()
                self.say("\n" + ngettext("stopped: {n} deal saved in {path}; go on with: raspis live {path}",
                                          "stopped: {n} deals saved in {path}; go on with: raspis live "
                                          "{path}",
                                          sheet.played()).format(n=sheet.played(), path=self.path))
                return 0
        result = sheet.result
        self.say("\n" + (_("the game is over: {names} wins with {total}") if len(result.winners) == 1
                         else _("the game is over: {names} win with {total}")).format(
            names=", ".join(result.winners), total=max(result.totals.values())))
        self.show_totals()
        self.say(_("saved {path}").format(path=self.path))
        return 0


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
) -> int:
    """Keep the sheet as the game is played, one deal at a time.

    For each deal: the trump, the bids in bidding order (the dealer's
    forbidden bid and a third pass refused), the tricks taken (they must add
    up to the cards); then the deal's scores and running totals. The file is
    rewritten after every deal, in one step, and marked unfinished until the
    last deal. Type help at any prompt for undo, comments and quit.
    """
    from raspis_cli.sheet.blank import SheetError, blank_game, parse_players
    from raspis_cli.sheet.live import LiveSheet

    path = Path(file)
    if path.exists():
        from raspis_cli.cli.problems import print_diagnostic
        from raspis_cli.files.atomic import remove_stale_temporaries
        from raspis_cli.files.sources import load_source

        remove_stale_temporaries(file)  # left by a kill in the middle of a save

        if rules is not None or options:
            fail(_("{file} exists: its own rules apply (leave out --rules and --set)").format(file=file))
        source = load_source(file, "notation")
        if source.error is not None and not source.diagnostics:
            fail(f"{file}: {source.error.message}")
        if source.diagnostics:
            for diag in source.diagnostics:
                print_diagnostic(diag, file)
            fail(_("{file} has syntax errors; mend them first (it is not rewritten)").format(file=file))
        try:
            sheet = LiveSheet(source.games)
        except SheetError as e:
            fail(f"{file}: {e}")
        if players is not None:
            try:
                wanted = parse_players(players)
            except SheetError as e:
                fail(f"--players: {e}")
            if wanted != sheet.players:
                fail(_("{file} is the game of {players}; to go on with it, leave out --players").format(
                    file=file, players=", ".join(sheet.players)))
        if sheet.finished:
            fail(_("{file}: the game is finished (no 'unfinished' mark); nothing to add").format(file=file))
    else:
        built = build_rules(rules, options)
        prompter = Prompter([])
        if players is None:
            if not prompter.interactive:
                fail(_("{file} is new: give the players with --players \"Анна, Борис, "
                       "Вера\"").format(file=file))
            try:
                players = prompter.ask(_("players, in seating order, separated by commas"))
            except Quit:
                return 0
        try:
            names = parse_players(players)
            import datetime

            game = blank_game(built, names, rules or "raspisnoy", sheet_options(options),
                              {"Date": datetime.date.today().isoformat()}, dealer)
            sheet = LiveSheet([game], rules_choice(None, None))
        except SheetError as e:
            fail(str(e))
    words = [*sheet.players, "undo", "quit", "help", "totals", "пас"]
    session = LiveSession(file, sheet, Prompter(words))
    if not path.exists():
        try:
            session.save()
        except OSError as e:
            fail(_("{file}: cannot write: {reason}").format(file=file, reason=e.strerror or e))
    try:
        return session.run()
    except OSError as e:
        fail(_("{file}: cannot write: {reason}").format(file=file, reason=e.strerror or e))
