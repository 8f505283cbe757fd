"""``raspis explain``: why a cell says what it says, and what to correct in a disputed sheet."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Annotated

import typer

from raspis_cli.cli.app import EXIT_OK, EXIT_VIOLATIONS, app
from raspis_cli.cli.console import fail, shell_command, stdout
from raspis_cli.cli.options import (
    EncodingOption,
    RecordFileArgument,
    RulesOption,
    SetOption,
    check_encoding_option,
    parse_stake,
    player_name,
    rules_choice,
)
from raspis_cli.model.diagnostics import kind_counts, kind_title
from raspis_cli.text.i18n import _, decimal, ngettext, number
from raspis_cli.text.messages import quoted


def say(text: str = "") -> None:
    """A line of the explanation (record text in it escaped: textsafe)."""
    from raspis_cli.text.textsafe import escape_text

    stdout.print("\n".join(escape_text(line) for line in text.split("\n")), markup=False, highlight=False)


@app.command("explain")
def explain(
    file: RecordFileArgument,
    game: Annotated[int | None, typer.Option("--game", "-g", help=_("The game (1-based; default: "
                                             "each game of the file)."), min=1, metavar="N")] = None,
    deal: Annotated[int | None, typer.Option("--deal", "-d", help=_("Explain this deal's cells."),
                                             min=0, metavar="N")] = None,
    player: Annotated[str | None, typer.Option("--player", help=_("Explain this player's cells."),
                                               metavar=_("NAME"))] = None,
    stake: Annotated[str | None, typer.Option("--stake", help=_("Money per point: print who pays "
                                              "whom (each pays or receives the difference from "
                                              "the table's mean total × the stake), in the fewest "
                                              "payments."), metavar="X")] = None,
    rules: RulesOption = None,
    options: SetOption = None,
    encoding: EncodingOption = None,
) -> int:
    """Explain a sheet: each cell's score as a formula of named rules, and for
    a sheet that disagrees with itself the fewest corrections (a bid, a taken,
    a score or a total) that make it consistent, most likely first.

    Exit 0 when the sheet (or the cells asked about) agrees with the rules, 1
    when something written differs, 2 when the file cannot be read.
    """
    from raspis_cli.cli.problems import print_diagnostic
    from raspis_cli.explain.reasons import cell_formula, find_fixes
    from raspis_cli.judge.check import CheckError, read_results
    from raspis_cli.model.diagnostics import SYNTAX, WARNING, Diagnostic

    check_encoding_option(encoding)
    choice = rules_choice(rules, options)
    money = parse_stake(stake) if stake is not None else None
    display = "<stdin>" if file == "-" else file
    stray: list[Diagnostic] = []
    try:
        checked = [r for r, _alt in read_results(file, choice, encoding, stray=stray)]
    except CheckError as e:
        fail(str(e))
    reading = [*stray, *(d for r in checked for d in [*r.problems, *r.warnings]
                         if d.kind in (SYNTAX, WARNING))]
    for diag in sorted(reading, key=lambda d: (d.line or 0, d.column or 0)):
        print_diagnostic(diag, display)
    if not checked:
        fail(f"{display}: " + _("no game in the file"))
    if game is not None and game > len(checked):
        fail(f"--game {game}: " + ngettext("{file} has {n} game", "{file} has {n} games",
                                           len(checked)).format(file=display, n=len(checked)))
    chosen = [game] if game is not None else list(range(1, len(checked) + 1))
    status = EXIT_OK
    for position in chosen:
        result = checked[position - 1]
        record = result.record
        if len(chosen) > 1 or game is not None:
            say(_("game {number}").format(number=position)
                + (f" · {record.tags['Date']}" if "Date" in record.tags else ""))
        if player is not None:
            player = player_name(player, record.players, "--player", _(
                "{name} is not a player of game {number}").format(name=quoted(player), number=position))
        if deal is not None or player is not None:
            deals = [d for d in result.deals if deal is None or d.number == deal]
            if not deals:
                fail(f"--deal {deal}: " + _("game {number} has no deal "
                                            "{deal}").format(number=position, deal=deal))
            names = [player] if player is not None else record.players
            for d in deals:
                for name in names:
                    formula = cell_formula(result, d, name)
                    say(formula.text)
                    if not formula.agrees:
                        status = EXIT_VIOLATIONS
        else:
            fixes = find_fixes(record, choice)
            others = [p for p in result.problems  # (syntax problems are shown above)
                      if p.kind not in ("score-mismatch", "total-mismatch", "taken-sum", SYNTAX)]
            if not result.problems:
                say(_("the sheet is consistent: every score and total written is what the rules give"))
            elif fixes:
                status = EXIT_VIOLATIONS
                n = len(result.problems)
                say(ngettext("{n} difference from the rules ({kinds}); the smallest corrections, most likely "
                             "first:", "{n} differences from the rules ({kinds}); the smallest corrections, "
                             "most likely first:", n).format(n=n, kinds=_kinds(result.problems)))
                for k, fix in enumerate(fixes, 1):
                    say(f"{k}. {fix.explanation} ["
                        + ngettext("{n} correction", "{n} corrections", fix.size).format(n=fix.size) + "]")
            else:
                status = EXIT_VIOLATIONS
                say(_("{n} problem(s) that no change of a written bid, taken, score or total mends "
                      "({kinds}): run {command}").format(
                    n=len(result.problems), kinds=_kinds(result.problems),
                    command=shell_command("raspis", "validate", file if file != "-" else "FILE")))
            for p in others if fixes else ():
                say("  " + _("also: deal {number}: {kind}: {message}").format(number=p.deal,
                                                                              kind=kind_title(p.kind),
                                                                                message=p.message.shown()))
        if money is not None:
            print_settlement(result.totals, money, record.unfinished)
    return status


def _kinds(problems: Sequence[object]) -> str:
    return kind_counts(str(getattr(p, "kind", "?")) for p in problems)


def print_settlement(totals: dict[str, int], stake: Decimal, unfinished: bool) -> None:
    """Who pays whom at ``stake`` a point: each balance, then the fewest payments."""
    from raspis_cli.explain.settle import balances, settle

    mean = sum(totals.values()) / len(totals) if totals else 0
    say(_("settlement at {stake} a point (each pays or receives the difference from the mean total {mean} × "
          "{stake})").format(stake=decimal(stake, None), mean=decimal(f"{mean:g}", None))
        + (" — " + _("the game is unfinished") if unfinished else "") + ":")
    for name, balance in balances(totals, stake).items():
        if not balance:
            say("  " + _("{name}: total {total}, square").format(name=name, total=number(totals[name])))
        elif balance > 0:
            say("  " + _("{name}: total {total}, receives {amount}").format(
                name=name, total=number(totals[name]), amount=decimal(abs(balance), None)))
        else:
            say("  " + _("{name}: total {total}, pays {amount}").format(
                name=name, total=number(totals[name]), amount=decimal(abs(balance), None)))
    payments = settle(totals, stake)
    if not payments:
        say(_("nobody pays anybody"))
    for payer, payee, amount in payments:
        say("  " + _("{payer} pays {payee} {amount}").format(payer=payer, payee=payee,
                                                              amount=decimal(amount, None)))
    say(ngettext("{n} payment", "{n} payments", len(payments)).format(n=len(payments)))
