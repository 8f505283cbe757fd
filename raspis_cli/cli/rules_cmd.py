"""``raspis rules``: the presets, their options and their schedules."""

from __future__ import annotations

from typing import Annotated

import typer

from raspis_cli.cli.common import (
    PresetArgument,
    SetOption,
    app,
    build_rules,
    fail,
    print_rows,
    write_json,
    write_jsonl,
)
from raspis_cli.i18n import _
from raspis_cli.rules import OPTIONS, PRESETS, Rules, preset_description
from raspis_cli.rules.schedule import schedule_for

rules_app = typer.Typer(help=_("The rule presets, their options and schedules."), no_args_is_help=True)
app.add_typer(rules_app, name="rules")

FormatOption = Annotated[
    str, typer.Option("--format", "-f", help="table, json or jsonl.", metavar="table|json|jsonl")
]


def _check_format(fmt: str, allowed: tuple[str, ...] = ("table", "json", "jsonl")) -> str:
    if fmt not in allowed:
        raise typer.BadParameter(f"expected one of {', '.join(allowed)}, got {fmt!r}",
                                 param_hint="--format")
    return fmt


@rules_app.command("list")
def rules_list(fmt: FormatOption = "table") -> None:
    """List the shipped presets."""
    _check_format(fmt)
    rows = [
        {"preset": name, "players": "-".join(map(str, Rules.preset(name).players)),
         "description": preset_description(name)}
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
    _check_format(fmt)
    rules = build_rules(preset, options)
    if fmt == "json":
        write_json({"preset": preset, "options": rules.to_json()})
        return
    if fmt == "jsonl":
        write_jsonl([{"preset": preset, "options": rules.to_json()}])
        return
    rows = [
        {"option": name, "value": spec.show(rules.value(name)), "meaning": spec.meaning}
        for name, spec in OPTIONS.items()
    ]
    print_rows(rows, fmt, title=f"{preset}: {preset_description(preset)}")


@rules_app.command("schedule")
def rules_schedule(
    preset: PresetArgument,
    players: Annotated[int, typer.Option("--players", "-p", help="Number of players.", min=2, metavar="N")],
    options: SetOption = None,
    fmt: FormatOption = "table",
) -> None:
    """The sequence of deals of a preset for N players."""
    _check_format(fmt)
    rules = build_rules(preset, options)
    low, high = rules.players
    if not low <= players <= high:
        fail(f"{preset} is for {low} to {high} players, not {players}")
    schedule = schedule_for(rules, players)
    if schedule.free:
        fail("the free schedule has no fixed sequence: any deals, each stating its cards and kind")
    rows = [deal.to_json() for deal in schedule.listing]
    print_rows(rows, fmt)
