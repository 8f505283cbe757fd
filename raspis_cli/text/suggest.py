""""Did you mean …": the known words closest to a misspelt one.

A bottom layer (standard library only). Words are compared case-folded and
with Cyrillic spelt in Latin letters, so ``Anna`` finds ``Анна`` and ``Саща``
finds ``Саша``::

    suggest("Саща", ["Анна", "Саша", "Вера"])        # ["Саша"]
    did_you_mean("бескозырк", KIND_WORDS)             # " (did you mean 'бескозырка'?)" or ""
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import NamedTuple

from raspis_cli.text.i18n import N_
from raspis_cli.text.messages import Message, Quoted, Seq, msg

__all__ = ["NameMatch", "did_you_mean", "has_cyrillic", "latin", "match_name", "suggest"]

_CYRILLIC_IN_LATIN = {
    "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ё": "e", "ж": "zh", "з": "z", "и": "i",
    "й": "i", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o", "п": "p", "р": "r", "с": "s", "т": "t",
    "у": "u", "ф": "f", "х": "h", "ц": "ts", "ч": "ch", "ш": "sh", "щ": "sch", "ъ": "", "ы": "y", "ь": "",
    "э": "e", "ю": "yu", "я": "ya",
}


def latin(word: str) -> str:
    """``word`` case-folded, Cyrillic letters spelt in Latin ones (for comparing only)."""
    return "".join(_CYRILLIC_IN_LATIN.get(ch, ch) for ch in word.casefold())


def suggest(word: str, candidates: Iterable[str], n: int = 3, cutoff: float = 0.6) -> list[str]:
    """Up to ``n`` of ``candidates`` closest to ``word``, best first (none when
    ``word`` is itself one of them)."""
    pool = list(dict.fromkeys(candidates))
    if word in pool:
        return []
    by_key: dict[str, str] = {}
    for candidate in pool:
        by_key.setdefault(latin(candidate), candidate)
    keys = difflib.get_close_matches(latin(word), list(by_key), n=n, cutoff=cutoff)
    return [by_key[k] for k in keys]


class NameMatch(NamedTuple):
    """What a name typed on the command line means among the players:
    ``name`` the player (None when no one player fits), ``close`` the names
    to suggest when none does."""

    name: str | None
    close: tuple[str, ...]


def match_name(word: str, names: Iterable[str]) -> NameMatch:
    """The one player ``word`` names, for every command that takes a name
    (``--player``, ``--dealer``): the name itself, else the one name that is the
    same case-folded with Cyrillic spelt in Latin (``Anna``, ``анна`` and ``ANNA``
    all name ``Анна``). Two such names (``Anna`` and ``Анна`` at one table) are
    both suggested, neither chosen; a name nobody has gets the closest ones."""
    pool = list(dict.fromkeys(names))
    if word in pool:
        return NameMatch(word, ())
    key = latin(word.strip())
    same = [name for name in pool if latin(name) == key]
    if len(same) == 1:
        return NameMatch(same[0], ())
    return NameMatch(None, tuple(same) if same else tuple(suggest(word, pool, n=3, cutoff=0.5)))


def did_you_mean(word: str, candidates: Iterable[str], n: int = 3) -> Message:
    """`` (did you mean 'X'?)`` / `` (did you mean 'X' or 'Y'?)``, or an empty
    string when nothing is close."""
    found = suggest(word, candidates, n=n)
    if not found:
        return Message("", translate=False)
    words = [Quoted(w) for w in found]
    if len(words) == 1:
        return msg(" (did you mean {word}?)").format(word=words[0])
    return msg(" (did you mean {words} or {last}?)").format(words=Seq(tuple(words[:-1])), last=words[-1])


# --- letters that look alike in Latin and Cyrillic ---------------------------------------------------

_LATIN_LOOKS = "ABCEHKMOPTXaceopxy"
_CYRILLIC_LOOKS = "АВСЕНКМОРТХасеорху"
TO_CYRILLIC = str.maketrans(_LATIN_LOOKS, _CYRILLIC_LOOKS)
TO_LATIN = str.maketrans(_CYRILLIC_LOOKS, _LATIN_LOOKS)


def has_cyrillic(text: str) -> bool:
    """True when ``text`` has a Cyrillic letter (a word of the Russian notation)."""
    return any("\u0400" <= ch <= "\u04ff" for ch in text)


def mixes_scripts(token: str) -> bool:
    """True when ``token`` has both Latin and Cyrillic letters."""
    return has_cyrillic(token) and any("A" <= ch <= "Z" or "a" <= ch <= "z" for ch in token)


def script_variants(token: str) -> list[tuple[str, str]]:
    """``token`` with its look-alike letters all made Cyrillic and all made
    Latin: ``[("Вп", "Cyrillic"), ("Bn", "Latin")]`` (those that differ from it)."""
    out: list[tuple[str, str]] = []
    for table, script in ((TO_CYRILLIC, N_("Cyrillic")), (TO_LATIN, N_("Latin"))):
        other = token.translate(table)
        if other != token and other not in [o for o, _s in out]:
            out.append((other, script))
    return out
