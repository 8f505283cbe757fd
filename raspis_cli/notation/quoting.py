"""Player names as the notation writes them: quoted when they could be read as something else.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    pass

from raspis_cli.notation.tokens import (
    BARE_NAME_RE,
    JOKER_WORDS,
    KEYWORDS,
    KIND_WORDS,
    NONE_WORDS,
    SUIT_SYMBOL_RE,
    read_card_token,
)
from raspis_cli.text.messages import Quoted, msg

__all__ = ["NotationWriteError", "needs_quotes", "quote_name", "unquote"]


def unquote(text: str) -> str:
    if text.startswith('"'):
        return re.sub(r"\\(.)", r"\1", text[1:-1])
    return text


class NotationWriteError(ValueError):
    """A record holds something the notation cannot write (a name with a comma
    in the player list, a line break in a tag or a name, an unknown joker mode)."""


def quote_name(name: str) -> str:
    """A player name as written in a deal line: quoted when it must be.
    Raises :class:`NotationWriteError` for a name with a line break (the
    notation is line-oriented: no quoting can hold one)."""
    if "\n" in name or "\r" in name:
        raise NotationWriteError(msg("a player name cannot hold a line break: {name}").format(
            name=Quoted(name[:60])))
    if needs_quotes(name):
        return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return name


def needs_quotes(name: str) -> bool:
    """True when a name cannot stand bare in a body line (spaces, digits first,
    a keyword, a deal kind, a card spelling, a suit symbol, a "no trump" or
    joker word)."""
    if not name or BARE_NAME_RE.fullmatch(name) is None:
        return True
    low = name.lower()
    return (
        low in KEYWORDS or low in KIND_WORDS or low in NONE_WORDS or low in JOKER_WORDS
        or read_card_token(name) is not None or SUIT_SYMBOL_RE.search(name) is not None
    )
