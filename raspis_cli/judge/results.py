"""What a replay gives back, and the rules it replays under: a deal's and a game's result beside
what was written, the rules chosen on the command line, and the record's rules resolved."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from raspis_cli.engine import Deal
from raspis_cli.model.cards import CardError, card_text, parse_card
from raspis_cli.model.diagnostics import Diagnostic
from raspis_cli.model.record import NO_TRUMP, GameRecord
from raspis_cli.rules import OPTIONS, PRESETS, Rules
from raspis_cli.text.messages import Quoted, message_of, msg

__all__ = ["DealResult", "GameResult", "RulesChoice", "resolve_rules", "trump_label", "trump_text"]



class DealResult:
    """One deal recomputed, beside what was written.

    ``taken`` holds the recomputed (from tricks) or written or inferred trick
    counts, ``taken_source`` says which; ``scores`` and ``totals`` are
    recomputed, ``None`` for a player whose score cannot be known (no bid).

    The judging path makes a deal's result as a few lists by seat
    (:meth:`by_seat`): the dicts by name and the engine's deal (``deal``)
    are made from them the first time someone asks (show, score, a report),
    not for every deal a validation or a load goes through.
    """

    __slots__ = ("_bids", "_deal", "_make_deal", "_names", "_penalties", "_scores", "_taken",
                 "_totals", "cards", "dealer", "kind", "number", "position", "problems",
                 "replayed", "taken_source", "trump", "written_scores", "written_taken",
                 "written_totals")

    def __init__(self, number: int, kind: str, cards: int, dealer: str, trump: str,
                 bids: dict[str, int | None], taken: dict[str, int | None], taken_source: str,
                 scores: dict[str, int | None], totals: dict[str, int], penalties: dict[str, int],
                 written_taken: dict[str, int] | None, written_scores: dict[str, int] | None,
                 written_totals: dict[str, int] | None, replayed: bool = False,
                 problems: list[Diagnostic] | None = None, deal: Deal | None = None,
                 position: int = -1) -> None:
        self.number = number
        self.kind = kind
        self.cards = cards
        self.dealer = dealer
        self.trump = trump
        self._bids: Any = bids
        self._taken: Any = taken
        self.taken_source = taken_source
        self._scores: Any = scores
        self._totals: Any = totals
        self._penalties: Any = penalties
        self.written_taken = written_taken
        self.written_scores = written_scores
        self.written_totals = written_totals
        self.replayed = replayed
        self.problems: list[Diagnostic] = [] if problems is None else problems
        self._deal = deal
        self._make_deal: Callable[[], Deal] | None = None
        self._names: Sequence[str] | None = None
        self.position = position
        """The deal's index in the record's list of deals."""

    @classmethod
    def by_seat(cls, number: int, kind: str, cards: int, dealer: str, trump: str,
                names: Sequence[str], bids: list[int | None] | None, taken: list[int],
                taken_source: str, scores: list[int], totals: list[int], penalties: list[int] | None,
                written_taken: dict[str, int] | None, written_scores: dict[str, int] | None,
                written_totals: dict[str, int] | None, deal: Deal | Callable[[], Deal],
                position: int) -> DealResult:
        """A result kept as lists by seat (``names``: every player, none
        twice, in seating order; ``bids`` ``None`` for a kind without bids,
        ``penalties`` ``None`` for none): each dict by name is made when it is
        first asked for, and the engine's deal too when ``deal`` is a
        function that makes it. The lists are the result's own from now on."""
        self = cls.__new__(cls)
        self.number = number
        self.kind = kind
        self.cards = cards
        self.dealer = dealer
        self.trump = trump
        self._names = names
        self._bids = bids
        self._taken = taken
        self.taken_source = taken_source
        self._scores = scores
        self._totals = totals
        self._penalties = penalties
        self.written_taken = written_taken
        self.written_scores = written_scores
        self.written_totals = written_totals
        self.replayed = False
        self.problems = []
        if isinstance(deal, Deal):
            self._deal, self._make_deal = deal, None
        else:
            self._deal, self._make_deal = None, deal
        self.position = position
        return self

    def seat_values(self) -> tuple[list[int | None] | None, list[int], list[int], list[int]] | None:
        """``(bids, taken, scores, totals)`` by seat while the result is kept
        as lists (:meth:`by_seat`; ``bids`` ``None`` for a kind without bids)
        and nobody has asked for a dict; ``None`` otherwise. For readers of
        every value that need no names (the store's rows)."""
        if self._names is None or type(self._taken) is not list:
            return None
        return cast("tuple[list[int | None] | None, list[int], list[int], list[int]]",
                    (self._bids, self._taken, self._scores, self._totals))

    def seat_penalty(self, seat: int) -> int:
        """The penalty points of the player in ``seat`` (of a result kept by seat)."""
        found = self._penalties
        if found is None:
            return 0
        if type(found) is list:
            return cast(int, found[seat])
        assert self._names is not None
        return self.penalties[self._names[seat]]

    def _by_name(self, slot: str, missing: int | None) -> object:
        """The value kept in ``slot`` as a dict by name: made from the list by
        seat the first time (``missing`` for every player when the list is
        ``None``), and kept as the result's from then on."""
        found = getattr(self, slot)
        if type(found) is not dict:
            names = self._names or ()
            found = (dict.fromkeys(names, missing) if found is None
                     else dict(zip(names, found)))  # noqa: B905 (one per seat)
            setattr(self, slot, found)
        return found

    @property
    def bids(self) -> dict[str, int | None]:
        """Each player's bid (``None``: not known, or a kind without bids)."""
        return cast("dict[str, int | None]", self._by_name("_bids", None))

    @property
    def taken(self) -> dict[str, int | None]:
        """Each player's tricks taken (see :attr:`taken_source`)."""
        return cast("dict[str, int | None]", self._by_name("_taken", None))

    @property
    def scores(self) -> dict[str, int | None]:
        """Each player's score in the deal, penalties included (``None``: not known)."""
        return cast("dict[str, int | None]", self._by_name("_scores", None))

    @property
    def totals(self) -> dict[str, int]:
        """Each player's running total after the deal."""
        return cast("dict[str, int]", self._by_name("_totals", None))

    @property
    def penalties(self) -> dict[str, int]:
        """Each player's penalty points in the deal."""
        return cast("dict[str, int]", self._by_name("_penalties", 0))

    @property
    def deal(self) -> Deal | None:
        """The engine's deal as the replay left it (its tricks' history), when there is one."""
        if self._deal is None and self._make_deal is not None:
            self._deal = self._make_deal()
            self._make_deal = None
        return self._deal

    def __repr__(self) -> str:
        return (f"DealResult(number={self.number!r}, kind={self.kind!r}, cards={self.cards!r}, "
                f"dealer={self.dealer!r}, taken={self.taken!r}, taken_source={self.taken_source!r}, "
                f"scores={self.scores!r}, totals={self.totals!r}, position={self.position!r})")


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
            problems.append(Diagnostic("rules", msg("unknown rules preset {preset}; the presets are "
                                                  "{presets} (replayed under raspisnoy)").format(
                                                      preset=Quoted(preset), presets=", ".join(PRESETS)),
                                    pos=game.where("rules")))
            preset = "raspisnoy"
        rules = Rules.preset(preset)
        record_options = game.rules_options
    rules, refused = rules.with_options_kept(record_options)
    for name, e in refused.items():
        known = "" if name in OPTIONS else " " + msg("(ignored)")
        problems.append(Diagnostic("rules", message_of(e) + known,
                                   pos=game.positions.get(f"option:{name}", game.where("rules"))))
    rules, refused = rules.with_options_kept(choice.options)
    for name, e in refused.items():  # given (--set) for every game, refused with this game's options
        problems.append(Diagnostic("rules", msg("--set {name} is not applied to this game: {problem}").format(
            name=Quoted(name), problem=message_of(e)), pos=game.where("rules")))
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
        return msg("no trump").shown()
    try:
        return card_text(parse_card(trump))
    except CardError:
        return trump  # a suit alone: ♥
