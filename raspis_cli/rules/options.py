"""Every option of docs/RULES.md: its name, type, allowed values, default and meaning.

An option is described once, here; :class:`~raspis_cli.rules.Rules` is built
from these descriptions and presets are data files that set some of them.
Values are parsed from JSON values (records, preset files) and from
command-line text (``--set void=free``) by the same functions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Final

from raspis_cli.model.joker_modes import FOLLOW_MODES, JOKER_MODES, LEAD_MODES
from raspis_cli.rules.values import (
    DEAL_KINDS,
    SCORE_EXTRAS,
    DealerRestrictionName,
    DiscardSuit,
    FirstLeader,
    FullDealTrump,
    JokerHighWinner,
    JokerLowNobodyFollows,
    JokerTakeLead,
    ScheduleName,
    TrumpCard,
    TwoJokers,
    Void,
    ZeroTotalRank,
    values_of,
)
from raspis_cli.text.i18n import N_
from raspis_cli.text.messages import Quoted, message_of, msg

__all__ = ["FOLLOW_MODES", "JOKER_MODES", "KINDS", "LEAD_MODES", "OPTIONS", "OptionError",
           "OptionSpec"]

KINDS: Final = DEAL_KINDS
"""Every deal kind (the closed type :data:`~raspis_cli.rules.values.DealKind`)."""
SCHEDULES: Final = values_of(ScheduleName)


class OptionError(ValueError):
    """An unknown option name or a value the option does not accept."""


OptionValue = int | bool | str | tuple[int, int] | tuple[str, ...]


@dataclass(frozen=True)
class OptionSpec:
    """One option: how to read it, what it may be, what it means."""

    name: str
    type_name: str
    meaning: str
    parse: Callable[[object], OptionValue]
    choices: tuple[str, ...] = ()
    value_meanings: Mapping[str, str] = field(default_factory=dict)
    """What each value means (as :meth:`show` writes it), marked for the
    catalogue; every value of a switch has one (``rules show`` says it)."""

    def read(self, value: object) -> OptionValue:
        """Parse a JSON value or command-line text into the option's value."""
        try:
            return self.parse(value)
        except OptionError as e:
            raise OptionError(msg("option {name}: {problem}").format(
                name=self.name, problem=message_of(e))) from None

    def show(self, value: OptionValue) -> str:
        """The value as text, as it is written on the command line."""
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, tuple) and self.type_name == "range":
            return f"{value[0]}-{value[1]}"
        if isinstance(value, tuple):
            return ",".join(str(v) for v in value)
        return str(value)

    def to_json(self, value: OptionValue) -> object:
        """The value as JSON, as a record or preset file writes it."""
        if isinstance(value, tuple):
            return list(value)
        return value


def _choice(*choices: str) -> Callable[[object], OptionValue]:
    def parse(value: object) -> OptionValue:
        text = str(value).strip() if not isinstance(value, bool) else ""
        if isinstance(value, int) and not isinstance(value, bool):
            text = str(value)
        if text not in choices:
            raise OptionError(msg("expected one of {choices}, got {got}").format(choices=", ".join(choices),
                                                                                got=Quoted(str(value))))
        return text

    return parse


def _bool(value: object) -> OptionValue:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "yes", "on", "1"):
        return True
    if text in ("false", "no", "off", "0"):
        return False
    raise OptionError(msg("expected true or false, got {got}").format(got=Quoted(str(value))))


def _pass_rule(value: object) -> OptionValue:
    if str(value).strip().lower() == "players":
        return "players"
    try:
        return _bool(value)
    except OptionError:
        raise OptionError(msg("expected true, false or players, got {got}").format(
            got=Quoted(str(value)))) from None


OPTION_INT_RANGE: Final = (-99_999, 99_999)
"""The range of a whole-number option (points, counts): far beyond any real
table's, small enough that no score computed from it overflows."""


def _int(value: object) -> OptionValue:
    if isinstance(value, bool):
        raise OptionError(msg("expected a whole number, got {got}").format(got=Quoted(str(value))))
    if isinstance(value, int):
        number = value
    else:
        text = str(value).strip()
        if len(text) > 30:
            raise OptionError(msg("expected a whole number from {low} to {high}, got {n} characters").format(
                low=f"{OPTION_INT_RANGE[0]:,}", high=f"{OPTION_INT_RANGE[1]:,}", n=len(text)))
        try:
            number = int(text)
        except ValueError:
            raise OptionError(msg("expected a whole number, got {got}").format(
                got=Quoted(str(value)))) from None
    low, high = OPTION_INT_RANGE
    if not low <= number <= high:
        shown = str(number) if number.bit_length() <= 96 else msg("a number of {n} bits").format(
            n=number.bit_length())
        raise OptionError(msg("expected a whole number from {low} to {high}, got {got}").format(
            low=f"{low:,}", high=f"{high:,}", got=shown))
    return number


def _as_int(value: object) -> int:
    number = _int(value)
    assert isinstance(number, int)
    return number


def _range(value: object) -> OptionValue:
    items: list[object]
    if isinstance(value, (list, tuple)):
        items = list(value)
    elif isinstance(value, int) and not isinstance(value, bool):
        items = [value, value]
    else:
        text = str(value).strip().strip("[]")
        items = [p for p in text.replace(",", "-").replace("–", "-").split("-") if p.strip()]
        if len(items) == 1:
            items = items * 2
    if len(items) != 2:
        raise OptionError(msg("expected [min, max] like 3-5, got {got}").format(got=Quoted(str(value))))
    low, high = (_as_int(v) for v in items)
    if not 2 <= low <= high:
        raise OptionError(msg("expected 2 <= min <= max, got {got}").format(got=Quoted(str(value))))
    return (low, high)


def _subset(*choices: str) -> Callable[[object], OptionValue]:
    def parse(value: object) -> OptionValue:
        if isinstance(value, (list, tuple)):
            items = [str(v).strip() for v in value]
        else:
            items = str(value).replace(",", " ").split()
        for item in items:
            if item not in choices:
                raise OptionError(msg("expected some of {choices}, got {got}").format(
                    choices=", ".join(choices), got=Quoted(item)))
        # canonical order, no repeats
        return tuple(c for c in choices if c in items)

    return parse


def _kinds(value: object) -> OptionValue:
    if isinstance(value, (list, tuple)):
        items = [str(v).strip() for v in value]
    else:
        items = str(value).replace(",", " ").split()
    for item in items:
        if item not in KINDS or item == "normal":
            raise OptionError(msg("expected special kinds from {kinds}, got {got}").format(
                kinds=", ".join(KINDS[1:]), got=Quoted(item)))
    return tuple(items)


def _deck(value: object) -> OptionValue:
    number = _int(value)
    if number not in (36, 54):
        raise OptionError(msg("expected 36 or 54, got {got}").format(got=Quoted(str(value))))
    return number


def _joker(value: object) -> OptionValue:
    if value is None:
        return "none"
    text = str(value).strip().upper()
    if text in ("7S", "6S"):
        return text
    if text == "NONE":
        return "none"
    raise OptionError(msg("expected 7S, 6S or none, got {got}").format(got=Quoted(str(value))))


def _spec(name: str, type_name: str, meaning: str, parse: Callable[[object], OptionValue],
          choices: tuple[str, ...] = ()) -> OptionSpec:
    return OptionSpec(name, type_name, meaning, parse, choices)


def _choice_spec(name: str, meaning: str, closed: object, meanings: Mapping[str, str]) -> OptionSpec:
    """A switch: its values are those of its closed type, each with its meaning."""
    choices = values_of(closed)
    if tuple(meanings) != choices:
        raise AssertionError(f"option {name}: the meanings of {tuple(meanings)} for the values {choices}")
    return OptionSpec(name, "choice", meaning, _choice(*choices), choices, meanings)


def _points(name: str, meaning: str) -> OptionSpec:
    return OptionSpec(name, "int", meaning, _int)


_SPECS: Final = [
    _spec("deck", "choice", N_("36 cards (6..A) or 54 (2..A and jokers RJ, BJ)"), _deck, ("36", "54")),
    _spec("joker", "choice", N_("in 36 cards, the card that is the joker: 7S, 6S or none"), _joker,
          ("7S", "6S", "none")),
    _spec("players", "range", N_("the allowed number of players, min-max"), _range),
    _choice_spec("schedule", N_("the sequence of deals"), ScheduleName, {
        "raspisnoy": N_("1 to M cards, M once for each player, then the special deals"),
        "classic": N_("1 to M cards and back to 1; the special deals after, in any order"),
        "georgian": N_("1 to 9 cards, four deals of 9, 9 to 1, four deals of 9"),
        "joker54": N_("2 to 8 cards and back to 2"),
        "blocks": N_("1 card up to the most that is a multiple of the players, the largest deal once for "
                     "each player, then each special deal once for each player, block by block"),
        "free": N_("any: each deal states its count of cards and its kind"),
    }),
    _spec("ladder", "bool", N_("raspisnoy and blocks: the game opens with the ladder, 1 card, 2, …"), _bool),
    _spec("ladder_down", "bool", N_("raspisnoy: M-1 .. 1 follows the max deals"), _bool),
    _spec("specials", "kinds", N_("the special deal kinds, in the order played (the largest deal; "
                                  "percent: 4 cards)"), _kinds, KINDS[1:]),
    _spec("control_deals", "bool", N_("after the schedule, control deals until one player leads alone: "
                                      "the last-placed player chooses the kind and the dealer"), _bool),
    _choice_spec("trump_card", N_("the trump of a deal that leaves cards over"), TrumpCard, {
        "turned-up": N_("the first card of the stock, turned up"),
        "dealer-last": N_("the last card dealt, the dealer's own, shown"),
    }),
    _choice_spec("full_deal_trump", N_("trump when every card is dealt"), FullDealTrump, {
        "dealer-shows": N_("the dealer shows one of their own cards"),
        "last-card": N_("the last card dealt, which is the dealer's"),
        "random-card": N_("a card of the deck drawn at random"),
        "none": N_("no trump"),
    }),
    _spec("circular_trumps", "bool", N_("no fixed trump: the suit after the suit led is trump"), _bool),
    _choice_spec("dealer_restriction", N_("what the dealer, who bids last, may not bid"),
                 DealerRestrictionName, {
                     "sum": N_("the bid that makes the bids add up to the number of cards"),
                     "no-full-bid": N_("a bid of every card"),
                     "off": N_("no restriction"),
                 }),
    OptionSpec("third_pass", "choice", N_("passes (bids of 0) in a row that nobody may make"), _pass_rule,
               ("false", "true", "players"), {
                   "false": N_("any number may be made"),
                   "true": N_("no third pass in a row, in deals with bids"),
                   "players": N_("no N-th pass in a row for N players, in deals with bids"),
               }),
    _choice_spec("void", N_("what a player without the suit led must play"), Void, {
        "free": N_("any card"),
        "must-trump": N_("a trump when holding one"),
        "must-trump-high": N_("a trump when holding one; against a joker's «по старшим», the highest"),
    }),
    _choice_spec("first_leader", N_("who leads the first trick"), FirstLeader, {
        "left-of-dealer": N_("the player left of the dealer, who bids first"),
        "dealer": N_("the dealer"),
    }),
    _spec("joker_lead_modes", "modes", N_("joker declarations allowed on the lead"),
          _subset(*LEAD_MODES), LEAD_MODES),
    _spec("joker_follow_modes", "modes", N_("joker declarations allowed when following"),
          _subset(*FOLLOW_MODES), FOLLOW_MODES),
    _spec("joker_demand_first_trick_only", "bool", N_("high/lowest only in the first trick of a deal"),
          _bool),
    _choice_spec("joker_high_winner", N_("a non-trump high demand answered with a trump: who wins"),
                 JokerHighWinner, {"joker": N_("the joker"), "highest-trump": N_("the highest trump")}),
    _spec("joker_take_beaten_by_trump", "bool",
          N_("a joker declared take + non-trump suit, leading or following, is beaten by a later trump"),
          _bool),
    _choice_spec("joker_low_nobody_follows", N_("low + suit with nobody on that suit or trump: who wins"),
                 JokerLowNobodyFollows, {
                     "first-card-suit": N_("the first real card's suit counts as led, and its highest card "
                                           "wins"),
                     "joker-wins": N_("the joker"),
                 }),
    _choice_spec("joker_take_lead", N_("after a joker led take with no suit"), JokerTakeLead, {
        "second-card-sets-suit": N_("the second card played sets the suit led"),
        "follow-freely": N_("the others play any card"),
    }),
    _choice_spec("two_jokers", N_("54 cards, both jokers in one trick"), TwoJokers, {
        "later-wins": N_("a later take beats an earlier one"),
        "opposite": N_("the second joker counts as the opposite of the first"),
    }),
    _choice_spec("discard_suit", N_("whether a joker thrown away (a discard, or led low with 36 cards) must "
                                    "name a suit"), DiscardSuit, {
        "required": N_("it must"),
        "optional": N_("it may name none"),
    }),
    _points("revoke_penalty", N_("points added for a card off the suit led (or off trump) while holding it")),
    _spec("revoke_replay", "bool", N_("after a revoke the deal is replayed"), _bool),
    _points("joker_lead_penalty", N_("points added for leading the joker unless it is the last card")),
    _points("exact_per_trick", N_("bid made (bid > 0): points per trick bid")),
    _points("exact_bonus", N_("bid made (bid > 0): points added once")),
    _points("pass_made", N_("bid 0 and took 0: points")),
    _points("under_per_missing", N_("took fewer than bid: points per missing trick")),
    _points("under_per_taken", N_("took fewer than bid: points per trick taken")),
    _points("over_per_taken", N_("took more than bid: points per trick taken")),
    _points("miser_zero", N_("miser deal, no trick taken: points")),
    _points("miser_per_trick", N_("miser deal: points per trick taken")),
    _points("golden_zero", N_("golden deal, no trick taken: points")),
    _points("golden_per_trick", N_("golden deal: points per trick taken")),
    _points("forehead_per_trick", N_("forehead deal, bid made (bid > 0): points per trick bid")),
    _points("forehead_per_missing", N_("forehead deal, took fewer than bid: points per missing trick")),
    _points("special_multiplier", N_("the multiplier of no-trump, dark, miser and golden deal scores")),
    _points("percent_multiplier", N_("the multiplier of percent deal scores (проценты)")),
    _spec("score_extras", "modes", N_("scoring rules some tables add on top"),
          _subset(*SCORE_EXTRAS), SCORE_EXTRAS),
    _choice_spec("zero_total_rank", N_("where a final total of exactly 0 ranks"), ZeroTotalRank, {
        "as-scored": N_("as its number says"),
        "second": N_("second, whatever the others' totals; first goes to the highest other total"),
    }),
]

OPTIONS: Final[dict[str, OptionSpec]] = {spec.name: spec for spec in _SPECS}
"""Every option by name, in the order of docs/RULES.md."""
