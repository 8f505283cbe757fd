"""A joker's declaration: what its holder says it does (a mode of docs/RULES.md §6, with its suit or card).

A model type: the record holds it as written, the engine judges it.
"""

from __future__ import annotations

from dataclasses import dataclass

from raspis_cli.model.cards import Card, Suit
from raspis_cli.model.joker_modes import BY_MODE

__all__ = ["JokerDecl"]


@dataclass(frozen=True, slots=True)
class JokerDecl:
    """A joker's declaration: a mode of docs/RULES.md §6, with its suit or card."""

    mode: str
    suit: Suit | None = None
    card: Card | None = None

    def to_json(self) -> dict[str, str]:
        """``{"mode", "suit"?, "card"?}`` as docs/RECORD-JSON.md writes it."""
        out = {"mode": self.mode}
        if self.suit is not None:
            out["suit"] = self.suit.name
        if self.card is not None:
            out["card"] = self.card.code
        return out

    def __str__(self) -> str:
        row = BY_MODE.get(self.mode)
        words = row.text if row is not None else self.mode
        if self.card is not None:
            return f"{words} {self.card}"
        if self.suit is not None:
            return f"{words} {self.suit}"
        return words
