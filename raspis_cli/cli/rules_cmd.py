"""``raspis rules``: the presets, their options and their schedules."""

from __future__ import annotations

from typing import Annotated

import typer

from raspis_cli.cli.app import app
from raspis_cli.cli.console import fail
from raspis_cli.cli.options import PresetArgument, SetOption, build_rules, check_format, player_name
from raspis_cli.cli.output import print_rows, write_json, write_jsonl
from raspis_cli.model.deal_kinds import kind_label
from raspis_cli.rules import OPTIONS, PRESETS, OptionSpec, Rules, preset_description
from raspis_cli.rules.options import OptionValue
from raspis_cli.rules.schedule import schedule_for
from raspis_cli.text.i18n import _, language
from raspis_cli.text.messages import Span, quoted, show_param

rules_app = typer.Typer(help=_("The rule presets, their options and schedules."), no_args_is_help=True)
app.add_typer(rules_app, name="rules")

FormatOption = Annotated[
    str, typer.Option("--format", "-f", help=_("table, json or jsonl."), metavar="table|json|jsonl")
]


@rules_app.command("list")
def rules_list(fmt: FormatOption = "table") -> None:
    """List the shipped presets."""
    check_format(fmt, ("table", "json", "jsonl"))
    described = (lambda text: text) if fmt != "table" else _  # JSON keeps the files' text
    rows = [
        {"preset": name, "players": "-".join(map(str, Rules.preset(name).players)) if fmt != "table"
         else show_param(Span(*Rules.preset(name).players), language()),
         "description": described(preset_description(name))}
        for name in PRESETS
    ]
    print_rows(rows, fmt)


@rules_app.command("show")
def rules_show(
    preset: PresetArgument,
    options: SetOption = None,
    fmt: FormatOption = "table",
) -> None:
    """Every option of a preset: its value and meaning."""
    check_format(fmt, ("table", "json", "jsonl"))
    rules = build_rules(preset, options)
    if fmt == "json":
        write_json({"preset": preset, "options": rules.to_json()})
        return
    if fmt == "jsonl":
        write_jsonl([{"preset": preset, "options": rules.to_json()}])
        return
    if language() == "ru":  # the value as it is typed after --set, the meaning in Russian words
        rows = [{"setting": f"{name}={spec.show(rules.value(name))}",
                 "meaning": _meaning(spec, rules.value(name))} for name, spec in OPTIONS.items()]
    else:
        rows = [{"option": name, "value": spec.show(rules.value(name)),
                 "meaning": _meaning(spec, rules.value(name))} for name, spec in OPTIONS.items()]
    print_rows(rows, fmt, title=f"{preset}: {_(preset_description(preset))}")


def _meaning(spec: OptionSpec, value: OptionValue) -> str:
    """What an option means and, for a switch, what its value in force means
    (both from the option table)."""
    meaning = _(spec.meaning)
    shown = spec.show(value)
    if shown in spec.value_meanings:
        return _("{meaning}: {value_meaning}").format(meaning=meaning,
                                                     value_meaning=_(spec.value_meanings[shown]))
    return meaning


@rules_app.command("schedule")
def rules_schedule(
    preset: PresetArgument,
    players: Annotated[str, typer.Option(
        "--players", "-p", help=_('The number of players, or their names in seating order '
        '("Анна, Борис, Вера": the table then shows who deals each deal).'), metavar=_("N|NAMES"))],
    options: SetOption = None,
    fmt: FormatOption = "table",
    dealer: Annotated[str | None, typer.Option(
        "--dealer", help=_("With names: who deals first (default: the first player)."),
        metavar=_("NAME"))] = None,
) -> None:
    """The sequence of deals of a preset for N players (with names: and the dealers)."""
    check_format(fmt, ("table", "json", "jsonl"))
    rules = build_rules(preset, options)
    names: list[str] | None = None
    if players.strip().isdigit():
        count = int(players)
        if count < 2:
            fail(_("--players: {n} is less than 2").format(n=count))
    else:
        from raspis_cli.sheet.blank import SheetError, parse_players

        try:
            names = parse_players(players)
        except SheetError as e:
            fail(f"--players: {e}")
        if dealer is not None:
            dealer = player_name(dealer, names, "--dealer", _("{name} is not one of the players").format(
                name=quoted(dealer)))
        count = len(names)
    if dealer is not None and names is None:
        fail(_("--dealer needs the players' names in --players"))
    low, high = rules.players
    if not low <= count <= high:
        fail(_("{preset} is for {low} to {high} players, not {n}").format(preset=preset, low=low, high=high,
                                                                          n=count))
    schedule = schedule_for(rules, count)
    if schedule.free:
        fail(_("the free schedule has no fixed sequence: any deals, each stating its cards and kind"))
    rows = [deal.to_json() for deal in schedule.listing]
    if names is not None:
        from raspis_cli.sheet.blank import dealer_of

        for i, row in enumerate(rows):
            row["dealer"] = dealer_of(names, dealer or names[0], i)
    if fmt == "table":  # a person reads the kinds in the interface language; JSON keeps the names
        for row in rows:
            row["kind"] = kind_label(str(row["kind"]))
    print_rows(rows, fmt)
