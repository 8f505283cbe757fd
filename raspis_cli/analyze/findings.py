"""What an analysis finds, as values: a mistake, a player's deal, a deal, a player's summary, a game.

Each has ``to_json`` (the objects of docs/ANALYZE.md); their words are
:mod:`raspis_cli.analyze.words`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from raspis_cli.analyze.bot_opinion import BotOpinion
from raspis_cli.model.cards import card_words
from raspis_cli.model.joker import ANY_WORDS, JokerDecl
from raspis_cli.solver.pimc import BidAdvice
from raspis_cli.solver.search import Outcome
from raspis_cli.text.i18n import _, speaking

__all__ = ["DealAnalysis", "GameAnalysis", "KeptPlay", "Mistake", "PlayerDeal", "PlayerSummary"]


@dataclass(frozen=True, slots=True)
class KeptPlay:
    """A card that would have kept a bid. For a joker: ``any_declaration``
    when every legal declaration would; else the modes of which every legal
    declaration would (``any_modes``), and the other declarations that would."""

    card: str
    declarations: tuple[JokerDecl, ...] = ()
    any_modes: tuple[str, ...] = ()
    any_declaration: bool = False

    def words(self, lang: str) -> str:
        """``8♣``, ``7♠ (as A♥)``, ``7♠ (high, any suit / take)``, ``7♠ (any declaration)``;
        in Russian ``7♠ (по старшим, любая масть / забрать)``."""
        with speaking(lang):
            any_words = {key: _(msgid) for key, msgid in ANY_WORDS.items()}
        card = card_words(self.card, lang)
        if self.any_declaration:
            return f"{card} ({any_words['declaration']})"
        if not self.declarations and not self.any_modes:
            return card
        parts = [f"{JokerDecl(mode).words(lang)}, {any_words['suit']}" for mode in self.any_modes]
        parts += [d.words(lang) for d in self.declarations]
        return f"{card} ({' / '.join(parts)})"

    def to_json(self) -> dict[str, object]:
        """The play as data (docs/ANALYZE.md): ``card``; for a joker
        ``any_declaration``, or ``any_suit`` (the modes every suit of which
        keeps the bid) and ``declarations`` (``{"mode", "suit"?, "card"?}``, as
        RECORD-JSON writes a declaration); ``words``, the play in English."""
        out: dict[str, object] = {"card": self.card}
        if self.any_declaration:
            out["any_declaration"] = True
        if self.any_modes:
            out["any_suit"] = list(self.any_modes)
        if self.declarations:
            out["declarations"] = [d.to_json() for d in self.declarations]
        out["words"] = self.words("en")
        return out


@dataclass(slots=True)
class Mistake:
    """A card that lost a bid (``kind`` ``lost-bid``) or handed one to
    another player (``handed-bid``)."""

    kind: str
    trick: int
    player: str
    card: str
    declared: JokerDecl | None
    bidder: str
    bid: int
    keeping: list[KeptPlay] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        """The mistake object of docs/ANALYZE.md."""
        out: dict[str, object] = {"kind": self.kind, "trick": self.trick, "player": self.player,
                                  "card": self.card, "bidder": self.bidder, "bid": self.bid}
        if self.declared is not None:
            out["declared"] = self.declared.to_json()
        if self.kind == "lost-bid":
            out["keeping"] = [kept.to_json() for kept in self.keeping]
        return out


@dataclass(slots=True)
class PlayerDeal:
    """One player's deal: bid, taken, what could be forced, advice."""

    player: str
    bid: int | None
    taken: int
    outcome: Outcome | None
    decisions: int = 0
    lost: int = 0
    advice: BidAdvice | None = None
    solved: bool = True
    bots: BotOpinion | None = None
    """The second opinion beside the advice: the samples played out by the bots."""

    @property
    def unanswered(self) -> bool:
        """Whether the search budget left this player's deal without an answer:
        the outcome not solved, or bid advice with no sample solved."""
        return not self.solved or (self.advice is not None and not self.advice.forced
                                   and not self.advice.solved)

    @property
    def makeable(self) -> bool | None:
        """Whether the bid could be forced at the first card (``None``: unknown)."""
        if self.bid is None or self.outcome is None:
            return None
        return self.bid in self.outcome.exact

    def to_json(self) -> dict[str, object]:
        """The player object of docs/ANALYZE.md."""
        out: dict[str, object] = {"player": self.player, "bid": self.bid, "taken": self.taken,
                                  "made": self.bid is not None and self.bid == self.taken,
                                  "solved": self.solved}
        if self.outcome is not None:
            out["forceable"] = list(self.outcome.exact)
            out["at_least"] = self.outcome.at_least
            out["at_most"] = self.outcome.at_most
            out["makeable"] = self.makeable
        out["decisions"] = self.decisions
        out["mistakes"] = self.lost
        if self.advice is not None:
            advice = self.advice
            regret = None if self.bid is None else advice.regret(self.bid)
            shown: dict[str, object] = {
                "samples": advice.samples,
                "drawn": advice.drawn,
                "solved": advice.solved,
                "settled": advice.settled,
                "budget_spent": advice.budget_spent,
                "forced": advice.forced,
                "expected": {str(b): round(v, 2) for b, v in advice.expected.items()},
                "best": advice.best,
                "regret": None if regret is None else round(regret, 2),
            }
            if self.bots is not None:
                shown["bots"] = self.bots.to_json()
            out["advice"] = shown
        return out


@dataclass(slots=True)
class DealAnalysis:
    """One deal analysed, or why it could not be (``skipped``)."""

    number: int
    position: int
    cards: int
    kind: str
    players: list[PlayerDeal] = field(default_factory=list)
    mistakes: list[Mistake] = field(default_factory=list)
    skipped: str | None = None
    positions: int = 0
    """The solver's positions the analysis visited (the progress bar's
    measure; not in the JSON: the same for every run, a cost, not a finding)."""

    def to_json(self) -> dict[str, object]:
        """The deal object of docs/ANALYZE.md."""
        out: dict[str, object] = {"deal": self.number, "cards": self.cards, "kind": self.kind}
        if self.skipped is not None:
            out["skipped"] = self.skipped
            return out
        out["players"] = [p.to_json() for p in self.players]
        out["mistakes"] = [m.to_json() for m in self.mistakes]
        return out


@dataclass(slots=True)
class PlayerSummary:
    """One player's figures over a game."""

    player: str
    bids: int = 0
    makeable: int = 0
    made: int = 0
    decisions: int = 0
    mistakes: int = 0
    handed: int = 0
    regret: float | None = None
    """The sum of the bid regrets computed (``None``: none was, no bid advice)."""

    @property
    def accuracy(self) -> float | None:
        """(decisions − mistakes) / decisions, ``None`` without decisions."""
        if not self.decisions:
            return None
        return (self.decisions - self.mistakes) / self.decisions

    def to_json(self) -> dict[str, object]:
        """The summary object of docs/ANALYZE.md."""
        accuracy = self.accuracy
        return {"player": self.player, "bids": self.bids, "makeable": self.makeable,
                "made": self.made, "decisions": self.decisions, "mistakes": self.mistakes,
                "handed": self.handed,
                "regret": None if self.regret is None else round(self.regret, 2),
                "accuracy": None if accuracy is None else round(accuracy, 4)}


@dataclass(slots=True)
class GameAnalysis:
    """Every deal of one game analysed, and the per-player summary."""

    index: int
    event: str | None
    deals: list[DealAnalysis]
    summary: list[PlayerSummary]

    def to_json(self) -> dict[str, object]:
        """The game object of docs/ANALYZE.md."""
        return {"game": self.index + 1, "event": self.event,
                "deals": [d.to_json() for d in self.deals],
                "summary": [s.to_json() for s in self.summary]}
