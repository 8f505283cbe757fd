"""A joker's declaration: what its holder says it does (a mode of docs/RULES.md §6, with its suit or card).

A model type: the record holds it as written, the engine judges it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from raspis_cli.model.cards import Card, Suit, card_text
from raspis_cli.model.joker_modes import BY_MODE
from raspis_cli.text.i18n import N_, _, language, speaking
from raspis_cli.text.messages import msg, param_type, term_words

__all__ = ["ANY_WORDS", "JOKER_WORDS", "JokerDecl"]

JOKER_WORDS: Final[dict[str, str]] = {
    "high": N_("high"), "lowest": N_("lowest"), "low": N_("low"), "take": N_("take"),
    "discard": N_("discard"), "as": N_("as"),
}
"""The joker's modes in words, marked for the catalogue (the record keeps the
mode): one for each row of the joker table, the catalogue's Russian the
table's own words (tests/test_joker_table.py holds both)."""

ANY_WORDS: Final[dict[str, str]] = {"declaration": N_("any declaration"), "suit": N_("any suit")}
"""Declarations said together: every legal one, every suit of one mode (msgids)."""


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

    def words(self, lang: str | None = None) -> str:
        """The declaration as ``lang`` (default: the language in force) says it:
        ``take ♠``, ``as A♥``; ``забрать ♠``, ``как Т♦``."""
        with speaking(lang or language()):
            words = _(JOKER_WORDS[self.mode]) if self.mode in JOKER_WORDS else self.mode
            if self.card is not None:
                return words + " " + card_text(self.card)
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


def _mode_words(mode: str, lang: str) -> str | None:
    return msg(JOKER_WORDS[mode]).render(lang) if mode in JOKER_WORDS else None


def _decl_from_json(data: object) -> JokerDecl:
    info = dict(data) if isinstance(data, dict) else {}
    suit = Suit[str(info["suit"])] if "suit" in info else None
    card = Card.parse(str(info["card"])) if "card" in info else None
    return JokerDecl(str(info.get("mode", "")), suit, card)


term_words("joker-mode", _mode_words)  # a joker mode in a message: «забрать», stored as take
param_type("joker", JokerDecl, lambda decl, lang: decl.words(lang), JokerDecl.to_json, _decl_from_json)
