"""The values the engine exchanges: plays and violations (the joker declaration is a model type)."""

from __future__ import annotations

from dataclasses import dataclass

from raspis_cli.model.cards import Card
from raspis_cli.model.joker import JokerDecl
from raspis_cli.text.messages import Message

__all__ = ["VIOLATION_KINDS", "JokerDecl", "Play", "Violation"]

VIOLATION_KINDS = (
    "syntax",
    "rules",
    "players",
    "dealer-order",
    "schedule",
    "deal-size",
    "unknown-card",
    "duplicate-card",
    "trump",
    "bid-order",
    "bid-range",
    "dealer-restriction",
    "third-pass",
    "wrong-turn",
    "not-in-hand",
    "follow-suit",
    "must-trump",
    "joker-mode",
    "joker-demand",
    "trick-count",
    "taken-mismatch",
    "taken-sum",
    "score-mismatch",
    "total-mismatch",
    "penalty",
    "replay",
)
"""Every violation kind raspis reports, in the order of docs/RECORD-JSON.md.

The one list of kinds: a kind the code emits must be here and documented
there (``tests/test_docs.py`` checks both). ``syntax`` is reported by the
readers' callers, the rest by the engine and the replay."""




@dataclass(frozen=True, slots=True)
class Play:
    """A legal action of play: a card and, for a joker, its declaration."""

    card: Card
    joker: JokerDecl | None = None

    def __str__(self) -> str:
        return f"{self.card} {self.joker}" if self.joker else str(self.card)


@dataclass(frozen=True, slots=True)
class Violation:
    """A rule broken by a recorded action.

    ``kind`` is one of :data:`VIOLATION_KINDS` (docs/RECORD-JSON.md). ``trick`` is 1-based,
    ``seat`` the offender's seat (0-based) where one applies; ``at`` names the
    recorded value to point at: ``"bid"``, ``"play"`` (the play ``index`` of
    the trick, 0-based), ``"hand"``, ``"trump"``, ``"dealer"``, ``"number"``,
    ``"cards"``, ``"kind"``, ``"taken"``, ``"score"``, ``"total"``,
    ``"penalty"``, ``"deal"``, ``"players"``, ``"rules"``.
    """

    kind: str
    message: Message
    seat: int | None = None
    trick: int | None = None
    at: str = "deal"
    index: int | None = None
