"""A joker's declaration: what its holder says it does (a mode of docs/RULES.md §6, with its suit or card).

A model type: the record holds it as written, the engine judges it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from raspis_cli.model.cards import Card, Suit
from raspis_cli.model.joker_modes import BY_MODE, mode_words

__all__ = ["ANY_WORDS", "MODE_WORDS", "JokerDecl"]


MODE_WORDS: Final[dict[str, dict[str, str]]] = {lang: mode_words(lang) for lang in ("en", "ru")}
"""A declaration's mode in words, per language: the joker table's own words."""

ANY_WORDS: Final[dict[str, dict[str, str]]] = {
    "en": {"declaration": "any declaration", "suit": "any suit"},
    "ru": {"declaration": "любое объявление", "suit": "любая масть"},
}
"""Declarations said together: every legal one, every suit of one mode."""


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

    def words(self, lang: str) -> str:
        """The declaration in one language: ``high ♦``, ``as A♥``; ``по старшим ♦``, ``как A♥``."""
        words = MODE_WORDS.get(lang, MODE_WORDS["en"]).get(self.mode, self.mode)
        if self.card is not None:
            return f"{words} {self.card}"
        if self.suit is not None:
            return f"{words} {self.suit}"
        return words

    def __str__(self) -> str:
        row = BY_MODE.get(self.mode)
        words = row.text if row is not None else self.mode
        if self.card is not None:
            return f"{words} {self.card}"
        if self.suit is not None:
            return f"{words} {self.suit}"
        return words
