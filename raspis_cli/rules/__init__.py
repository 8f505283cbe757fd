"""The rules of a table: one frozen value holding every option of docs/RULES.md.

>>> rules = Rules.preset("classic").with_options({"void": "free"})
>>> rules.void
'free'

Presets are JSON data files in ``raspis_cli/rules/presets/``; an option is
one field here, one entry in :data:`~raspis_cli.rules.options.OPTIONS`, and
one place in the engine that reads it.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Final, Literal, assert_never

from raspis_cli.model.cards import Deck
from raspis_cli.model.joker_modes import DEMANDS, JokerModeName
from raspis_cli.rules.options import (
    KINDS,
    OPTIONS,
    OptionError,
    OptionSpec,
    OptionValue,
)
from raspis_cli.rules.values import (
    DealerRestrictionName,
    DiscardSuit,
    FirstLeader,
    FullDealTrump,
    JokerCard,
    JokerHighWinner,
    JokerLowNobodyFollows,
    JokerTakeLead,
    ScheduleName,
    ScoreExtra,
    SpecialKind,
    ThirdPass,
    TrumpCard,
    TwoJokers,
    Void,
    ZeroTotalRank,
    is_deal_kind,
    second_joker_is_opposite,
)
from raspis_cli.text.i18n import N_
from raspis_cli.text.messages import Message, Quoted, Seq, Term, message_of, msg

__all__ = [
    "KINDS",
    "KindMultiplier",
    "OPTIONS",
    "PRESETS",
    "OptionError",
    "OptionSpec",
    "Rules",
    "RulesError",
    "parse_assignment",
]

KindMultiplier = Literal["special_multiplier", "percent_multiplier"]
"""The options that multiply a kind of deal's score."""

PRESETS = ("raspisnoy", "classic", "georgian", "joker54", "online36")
"""The shipped presets; ``raspisnoy`` is the default."""


class RulesError(ValueError):
    """An unknown preset, option or option value."""


@dataclass(frozen=True)
class Rules:
    """Every option of docs/RULES.md, with the ``raspisnoy`` values as defaults."""

    preset_name: str = "raspisnoy"
    deck: int = 36
    joker: JokerCard = "7S"
    players: tuple[int, int] = (3, 5)
    schedule: ScheduleName = "raspisnoy"
    ladder: bool = True
    ladder_down: bool = False
    specials: tuple[SpecialKind, ...] = ("no-trump", "dark", "miser", "golden")
    control_deals: bool = False
    trump_card: TrumpCard = "turned-up"
    full_deal_trump: FullDealTrump = "dealer-shows"
    circular_trumps: bool = False
    dealer_restriction: DealerRestrictionName = "sum"
    third_pass: ThirdPass = False
    void: Void = "free"
    first_leader: FirstLeader = "left-of-dealer"
    joker_lead_modes: tuple[JokerModeName, ...] = ("high", "low")
    joker_follow_modes: tuple[JokerModeName, ...] = ("take", "discard")
    joker_demand_first_trick_only: bool = False
    joker_high_winner: JokerHighWinner = "joker"
    joker_take_beaten_by_trump: bool = False
    joker_low_nobody_follows: JokerLowNobodyFollows = "first-card-suit"
    joker_take_lead: JokerTakeLead = "second-card-sets-suit"
    two_jokers: TwoJokers = "later-wins"
    discard_suit: DiscardSuit = "required"
    revoke_penalty: int = 0
    revoke_replay: bool = False
    joker_lead_penalty: int = 0
    exact_per_trick: int = 10
    exact_bonus: int = 0
    pass_made: int = 5
    under_per_missing: int = -10
    under_per_taken: int = 0
    over_per_taken: int = 1
    miser_zero: int = 100
    miser_per_trick: int = -20
    golden_zero: int = -100
    golden_per_trick: int = 20
    forehead_per_trick: int = 50
    forehead_per_missing: int = -50
    special_multiplier: int = 1
    percent_multiplier: int = 3
    score_extras: tuple[ScoreExtra, ...] = ()
    zero_total_rank: ZeroTotalRank = "as-scored"
    # derived, not options
    deck_cards: Deck = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "deck_cards", _deck(self.deck, self.joker))

    # --- construction ----------------------------------------------------

    @staticmethod
    def preset(name: str) -> Rules:
        """The rules of a shipped preset; raises :class:`RulesError` if unknown."""
        return _preset(name)

    def with_options(self, options: Mapping[str, object]) -> Rules:
        """A copy with options overridden by name; values as JSON or text.

        Raises :class:`RulesError` for an unknown option or a bad value.
        """
        changes: dict[str, Any] = {}
        for name, raw in options.items():
            spec = OPTIONS.get(name)
            if spec is None:
                raise RulesError(msg("unknown option {name}").format(name=Quoted(name)) + _did_you_mean(name))
            try:
                changes[name] = spec.read(raw)
            except OptionError as e:
                raise RulesError(message_of(e)) from None
        if not changes:
            return self
        changed = dataclasses.replace(self, **changes)
        _check_joker_playable(changed)
        return changed

    def with_options_kept(self, options: Mapping[str, object]) -> tuple[Rules, dict[str, RulesError]]:
        """:meth:`with_options` for options read from a record or given with a game: all at
        once when they go together, else one at a time in order, each that cannot be set
        (unknown, a bad value, or refused with those before it) left out and returned with
        its error, by name."""
        try:
            return self.with_options(options), {}
        except RulesError:
            pass
        rules, refused = self, {}
        for name, value in options.items():
            try:
                rules = rules.with_options({name: value})
            except RulesError as e:
                refused[name] = e
        return rules, refused

    @staticmethod
    def from_record(preset: str | None, options: Mapping[str, object] | None = None) -> Rules:
        """The rules a record names: a preset (default ``raspisnoy``) plus the overrides that
        can be set (:meth:`with_options_kept`; the others are the record's problems, which
        :func:`raspis_cli.judge.results.resolve_rules` reports). Raises :class:`RulesError`
        for an unknown preset."""
        rules = Rules.preset(preset or "raspisnoy")
        return rules.with_options_kept(options or {})[0]

    # --- reading -----------------------------------------------------------

    def value(self, name: str) -> OptionValue:
        """The value of an option by name."""
        if name not in OPTIONS:
            raise RulesError(msg("unknown option {name}").format(name=Quoted(name)))
        value: OptionValue = getattr(self, name)
        return value

    def options(self) -> dict[str, OptionValue]:
        """Every option and its value, in the order of docs/RULES.md."""
        return {name: getattr(self, name) for name in OPTIONS}

    def changed_from(self, base: Rules) -> dict[str, OptionValue]:
        """The options whose value differs from ``base``."""
        return {n: v for n, v in self.options().items() if getattr(base, n) != v}

    def overrides(self) -> dict[str, object]:
        """The options that differ from this rules' preset, as JSON values
        (what a record's ``rules.options`` holds)."""
        base = _preset(self.preset_name)
        return {n: OPTIONS[n].to_json(v) for n, v in self.changed_from(base).items()}

    def record_json(self) -> str | dict[str, object]:
        """The rules as RECORD-JSON writes a game's ``rules``: the preset's
        name alone, or ``{"preset": ..., "options": {...}}`` with the options
        in force that differ from it."""
        changed = self.overrides()
        if not changed:
            return self.preset_name
        return {"preset": self.preset_name, "options": changed}

    def to_json(self) -> dict[str, object]:
        """Every option as JSON values."""
        return {n: OPTIONS[n].to_json(v) for n, v in self.options().items()}

    def max_cards(self, players: int) -> int:
        """M: the most cards each player can be dealt (0 for no players: a
        record without names is reported, not divided by)."""
        return self.deck // players if players > 0 else 0

    def kind_multiplier(self, kind: str) -> tuple[KindMultiplier | None, int]:
        """The option that multiplies a deal kind's score, and its value:
        ``special_multiplier`` for no-trump, dark, miser and golden deals,
        ``percent_multiplier`` for percent deals, none (1) for the rest (a
        word that is no kind is refused: the engine reports it before
        scoring)."""
        if not is_deal_kind(kind):
            raise RulesError(f"not a deal kind: {kind!r}")
        match kind:
            case "no-trump" | "dark" | "miser" | "golden":
                return "special_multiplier", self.special_multiplier
            case "percent":
                return "percent_multiplier", self.percent_multiplier
            case "normal" | "forehead":
                return None, 1
            case _:
                assert_never(kind)


def _deck(size: int, joker: str) -> Deck:
    return _deck_cached(size, joker if size == 36 else "none")


@cache
def _deck_cached(size: int, joker: str) -> Deck:
    return Deck(size, None if joker == "none" else joker)


def _check_joker_playable(rules: Rules) -> None:
    """Refuse joker options that leave a player whose only card is a joker no
    declaration to play it with (docs/RULES.md §6): no lead mode, no follow mode,
    only demands on the lead while demands are allowed in the first trick alone, or,
    with two jokers played opposite, a follow mode missing for the second joker
    (``take`` or ``discard``, whichever is the opposite of the first). A deck without
    a joker is not asked. Raises :class:`RulesError`."""
    jokers = len(rules.deck_cards.jokers)
    if not jokers:
        return
    if not rules.joker_lead_modes:
        raise RulesError(msg("{option} allows no declaration: a player whose only card is the joker "
                             "could not lead it").format(option=Quoted("joker_lead_modes")))
    if not rules.joker_follow_modes:
        raise RulesError(msg("{option} allows no declaration: a player whose only card is the joker "
                             "could not play it when following").format(option=Quoted("joker_follow_modes")))
    if rules.joker_demand_first_trick_only and all(mode in DEMANDS for mode in rules.joker_lead_modes):
        # the demands (the joker-mode table's rows with a demand) are what the engine allows in the
        # first trick alone under this option
        raise RulesError(msg("{flag} needs a lead mode other than the demands {demands} in {option}: after "
                             "the first trick a player whose only card is the joker could not lead it")
                         .format(flag=Quoted("joker_demand_first_trick_only=true"),
                                 demands=_modes_named(tuple(DEMANDS)), option=Quoted("joker_lead_modes")))
    opposites: tuple[JokerModeName, ...] = ("take", "discard")
    missing = [mode for mode in opposites if mode not in rules.joker_follow_modes]
    if jokers == 2 and second_joker_is_opposite(rules.two_jokers) and missing:
        raise RulesError(msg("{flag} needs {modes} in {option}: the second joker of a trick must be "
                             "declared the opposite of the first, and a player whose only card is that "
                             "joker could not play it").format(
                                 flag=Quoted("two_jokers=opposite"), option=Quoted("joker_follow_modes"),
                                 modes=_modes_named(opposites)))


def _modes_named(modes: tuple[str, ...]) -> Seq:
    """Joker modes as a message names them: each quoted in the reader's words, ``and`` between."""
    return Seq(tuple(Quoted(Term("joker-mode", mode)) for mode in modes), msg(" and "))


def _did_you_mean(name: str) -> Message | str:
    import difflib

    close = difflib.get_close_matches(name, list(OPTIONS), n=1)
    return msg(" (did you mean {word}?)").format(word=Quoted(close[0])) if close else ""


PRESET_FOLDER = Path(__file__).resolve().parent / "presets"
"""The preset files (data, one JSON file a preset); read from the package's own
folder (not through importlib.resources, whose import costs every command ~10 ms)."""


def _preset_text(name: str) -> str:
    return (PRESET_FOLDER / f"{name}.json").read_text(encoding="utf-8")


@cache
def _preset(name: str) -> Rules:
    if name not in PRESETS:
        raise RulesError(msg("unknown preset {name}; the presets are {presets}").format(
            name=Quoted(name), presets=", ".join(PRESETS)))
    text = _preset_text(name)
    data = json.loads(text)
    options = data.get("options", {})
    return dataclasses.replace(Rules(), preset_name=name).with_options(options)


PRESET_DESCRIPTIONS: Final = (
    N_("Raspisnoy poker as the raspisnoy.com edition plays it: 36 cards, 7♠ joker, free void, "
       "raspisnoy schedule and scoring"),
    N_("Classic (the Russian and Ukrainian rule pages): must-trump, joker 'as' any card, "
       "classic specials scored double"),
    N_("Georgian (грузинский покер): 4 players, 24 deals, must-trump, bid*50+50 scoring, "
       "revoke -50, the joker played as in classic"),
    N_("The online tables' 54-card «Джокер»: two jokers played opposite, the dealer leads, "
       "revoke -50 and replay"),
    N_("The 36-card online table of soufee/rasp-poker: ladder and blocks of special deals with "
       "проценты, control deals, the dealer's last card trump"),
)
"""The shipped presets' descriptions (the files' own English text), marked for the
catalogue: a person reads ``msg(preset_description(name))``; JSON keeps the file's text."""


def preset_description(name: str) -> str:
    """The one-line description a preset file carries (English, as written there)."""
    _preset(name)
    text = _preset_text(name)
    return str(json.loads(text).get("description", ""))


def parse_assignment(text: str) -> tuple[str, str]:
    """Split ``OPTION=VALUE`` as given to ``--set``; raises :class:`RulesError`."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise RulesError(msg("expected OPTION=VALUE, got {got}").format(got=Quoted(text)))
    return name.strip(), value.strip()

