"""What a replay gives back, and the rules it replays under: a deal's and a game's result beside
what was written, the rules chosen on the command line, and the record's rules resolved."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from raspis_cli.engine import Deal
from raspis_cli.model.cards import CardError, card_text, parse_card
from raspis_cli.model.diagnostics import Diagnostic
from raspis_cli.model.record import NO_TRUMP, GameRecord
from raspis_cli.rules import OPTIONS, PRESETS, Rules, RulesError
from raspis_cli.text.i18n import _, message_of

__all__ = ["DealResult", "GameResult", "RulesChoice", "resolve_rules", "trump_label", "trump_text"]


@dataclass(slots=True)
class DealResult:
    """One deal recomputed, beside what was written.

    ``taken`` holds the recomputed (from tricks) or written or inferred trick
    counts, ``taken_source`` says which; ``scores`` and ``totals`` are
    recomputed, ``None`` for a player whose score cannot be known (no bid).
    """

    number: int
    kind: str
    cards: int
    dealer: str
    trump: str
    bids: dict[str, int | None]
    taken: dict[str, int | None]
    taken_source: str
    scores: dict[str, int | None]
    totals: dict[str, int]
    penalties: dict[str, int]
    written_taken: dict[str, int] | None
    written_scores: dict[str, int] | None
    written_totals: dict[str, int] | None
    replayed: bool = False
    problems: list[Diagnostic] = field(default_factory=list)
    deal: Deal | None = None
    position: int = -1
    """The deal's index in the record's list of deals."""


@dataclass(slots=True)
class GameResult:
    """A replayed game: its rules, problems, deals recomputed and standings."""

    index: int
    record: GameRecord
    rules: Rules
    problems: list[Diagnostic]
    deals: list[DealResult]
    totals: dict[str, int]
    winners: list[str]
    warnings: list[Diagnostic] = field(default_factory=list)
    """Reading warnings on the game's lines (a line read one way of two): not violations."""

    @property
    def valid(self) -> bool:
        """True when the replay found nothing wrong."""
        return not self.problems

    def to_json(self) -> dict[str, object]:
        """The game object of ``validate --format json``."""
        return {
            "index": self.index,
            "valid": self.valid,
            "violations": [p.to_json() for p in self.problems],
            "totals": dict(self.totals),
            "deals": [
                {"number": d.number,
                 "scores": {n: s for n, s in d.scores.items() if s is not None}}
                for d in self.deals
            ],
            **({"warnings": [w.to_json() for w in self.warnings]} if self.warnings else {}),
        }


@dataclass(frozen=True, slots=True)
class RulesChoice:
    """Rules given on the command line: a preset that replaces the record's
    rules (``--rules``), and options set on top (``--set``)."""

    preset: str | None = None
    options: Mapping[str, object] = field(default_factory=dict)


def resolve_rules(game: GameRecord, choice: RulesChoice | None = None) -> tuple[Rules, list[Diagnostic]]:
    """The rules a game is replayed under, and a ``rules`` problem for each
    part of the record's rules that cannot be read (the rest still applies)."""
    problems: list[Diagnostic] = []
    choice = choice or RulesChoice()
    if choice.preset is not None:
        rules = Rules.preset(choice.preset)
        record_options: Mapping[str, object] = {}
    else:
        preset = game.rules_preset or "raspisnoy"
        if preset not in PRESETS:
            problems.append(Diagnostic("rules", _("unknown rules preset {preset}; the presets are "
                                                  "{presets} (replayed under raspisnoy)").format(
                                                      preset=repr(preset), presets=", ".join(PRESETS)),
                                    pos=game.where("rules")))
            preset = "raspisnoy"
        rules = Rules.preset(preset)
        record_options = game.rules_options
    for name, value in record_options.items():
        try:
            rules = rules.with_options({name: value})
        except RulesError as e:
            known = "" if name in OPTIONS else " " + _("(ignored)")
            problems.append(Diagnostic("rules", message_of(e) + known,
                                    pos=game.positions.get(f"option:{name}", game.where("rules"))))
    rules = rules.with_options(choice.options)
    return rules, problems


def trump_text(trump: object) -> str:
    """A deal's trump as a result shows it: a card or suit, ``none`` for no trump, empty when unknown."""
    if trump is None:
        return ""
    if trump is NO_TRUMP:
        return "none"
    return str(trump)


def trump_label(trump: str | None, unknown: str = "") -> str:
    """A result's trump (:func:`trump_text`) as a person reads it: ``Д♦`` in
    Russian, ``no trump`` in words, ``unknown`` when it is not written."""
    if not trump:
        return unknown
    if trump == "none":
        return _("no trump")
    try:
        return card_text(parse_card(trump))
    except CardError:
        return trump  # a suit alone: ♥
