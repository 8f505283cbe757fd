"""The language raspis speaks to a person: English, or Russian by locale or ``--lang ru``.

A bottom layer (standard library only): any module may import it, the
engine included, because nothing is read until a Russian text is asked for.

API (for every module that prints or builds text a person reads)::

    from raspis_cli.text.i18n import _, N_, ngettext

    _("deal {deal}: no trump written").format(deal=3)    # translate, then format
    ngettext("{n} card", "{n} cards", n).format(n=n)     # plural forms (Russian has three)
    KIND_LABELS = {"miser": N_("miser")}                 # mark a constant now ...
    _(KIND_LABELS[kind])                                 # ... translate it where it is shown

    set_language("ru")          # "ru", "en", or None: from the environment (the default)
    language()                  # "ru" or "en": the language in force
    explicit_language()         # what --lang said, or None (fmt's keywords follow only this)
    language_from_argv(argv)    # (language given by --lang or None, argv without it)

Rules for messages: the msgid is the English text itself; write placeholders as
``{name}`` and call ``.format`` *after* ``_()``, never an f-string inside
``_()``. Only string literals go inside ``_()``, ``N_()`` and ``ngettext()``:
``tests/test_i18n.py`` extracts them from the source and fails when one has no
Russian text in the catalogue or when the placeholders differ.

The catalogue is ``raspis_cli/text/locale/ru/LC_MESSAGES/raspis.po`` (standard
gettext PO; edit it by hand or run ``python scripts/i18n_catalogue.py`` to add
every new msgid with an empty translation to fill in). At first use of Russian
it is compiled in memory to the ``.mo`` format (as CPython's Tools/i18n/msgfmt.py
does) and read by :class:`gettext.GNUTranslations`, so the catalogue source is
the only file to keep and merge; ``scripts/i18n_catalogue.py --mo`` writes the
binary ``.mo`` beside it for other gettext tools.

The language is chosen, in order: ``--lang ru|en`` anywhere on the command
line, then the first of ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is
set (``ru``, ``ru_RU.UTF-8`` ... mean Russian; anything else English).
Command modules build their help texts when imported, so the language is set
(``raspis_cli.cli.main``) before they are.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import os
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Final

from raspis_cli.text.catalogue import catalogue_path, po_entries, translation

__all__ = [
    "LANGUAGES",
    "MINUS",
    "N_",
    "_",
    "Text",
    "canonical",
    "canonical_text",
    "catalogue_path",
    "decimal",
    "explicit_language",
    "joined",
    "language",
    "language_from_argv",
    "language_from_environment",
    "message_of",
    "ngettext",
    "po_entries",
    "set_language",
    "show_as",
    "show_stored",
    "shown_from_canonical",
    "speaking",
]

LANGUAGES = ("en", "ru")

_language: str | None = None
_explicit: str | None = None
_speaking: contextvars.ContextVar[str | None] = contextvars.ContextVar("raspis_speaking", default=None)


def language_from_environment(environ: dict[str, str] | None = None) -> str:
    """``ru`` when the first of LANGUAGE, LC_ALL, LC_MESSAGES, LANG that is set
    names Russian, else ``en``."""
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            first = value.split(":", 1)[0].strip().lower()
            return "ru" if first.startswith("ru") else "en"
    return "en"


def normalise_language(value: str) -> str | None:
    """``ru``/``en`` for a language name (``ru``, ``RU``, ``ru_RU.UTF-8``,
    ``russian``, ``русский``, ``english``), or None when it names neither."""
    text = value.strip().lower()
    if text.startswith(("ru", "рус")):
        return "ru"
    if text.startswith(("en", "анг", "c")) or text in ("posix",):
        return "en"
    return None


def set_language(lang: str | None, *, explicit: bool = False) -> str:
    """Use ``lang`` (``ru``/``en``, or None for the environment's) from now on;
    returns the language in force. ``explicit`` records that the user asked
    for it (``--lang``)."""
    global _language, _explicit
    chosen = normalise_language(lang) if lang else None
    _language = chosen or language_from_environment()
    _explicit = chosen if explicit else None
    return _language


@contextlib.contextmanager
def speaking(lang: str) -> Iterator[str]:
    """Speak ``lang`` (``ru``/``en``) inside the block, in this thread or task
    only: a server answers each request in the language of its browser while
    the rest of the process keeps its own."""
    chosen = normalise_language(lang) or language()
    reset = _speaking.set(chosen)
    try:
        yield chosen
    finally:
        _speaking.reset(reset)


def language() -> str:
    """The language in force: ``ru`` or ``en`` (a :func:`speaking` block's first)."""
    spoken = _speaking.get()
    if spoken is not None:
        return spoken
    if _language is None:
        return set_language(None)
    return _language


def explicit_language() -> str | None:
    """The language the user named with ``--lang``, or None."""
    return _explicit


def language_from_argv(argv: list[str], keep_after: tuple[str, ...] = ()) -> tuple[str | None, list[str]]:
    """Find ``--lang X`` / ``--lang=X`` anywhere in ``argv``: returns X (or
    None) and argv without it, except that it is kept in place after a
    command word listed in ``keep_after`` (a command with its own ``--lang``)."""
    found: str | None = None
    out: list[str] = []
    keep = False
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            out.extend(argv[i:])
            break
        if arg in keep_after and all(a.startswith("-") for a in out):
            keep = True
        if arg == "--lang" and i + 1 < len(argv):
            found = argv[i + 1]
            if keep:
                out.extend(argv[i:i + 2])
            i += 2
            continue
        if arg.startswith("--lang="):
            found = arg.split("=", 1)[1]
            if keep:
                out.append(arg)
            i += 1
            continue
        out.append(arg)
        i += 1
    return found, out


_SHOWN: dict[type, Callable[[Any], str]] = {}


def show_as(kind: type, shown: Callable[[Any], str]) -> None:
    """Register how a value of ``kind`` appears as a parameter of a translated
    message: ``shown(value)`` in the text a person reads (a card as ``Д♦``),
    ``str(value)`` in the canonical text (``Q♦``)."""
    _SHOWN[kind] = shown


def _shown(value: object) -> object:
    show = _SHOWN.get(type(value))
    return value if show is None else show(value)


class Text(str):
    """A message in the language in force that keeps its canonical (English) text.

    What :func:`_` and :func:`ngettext` return under Russian: the string itself
    is what a person reads, :attr:`canonical` is the same message built from
    the English msgid with the same parameters. ``.format``, ``+`` and
    :func:`joined` carry both along, so a message built deep in the engine
    shows in Russian and is stored (DuckDB, JSON) in English, whatever the
    locale, without switching the language (:func:`canonical`); an exception
    raised with a :class:`Text` passes it on as a parameter. An f-string,
    ``str.join`` or a slice gives a plain ``str`` and loses the canonical
    text: build messages from ``_()``, ``.format`` and :func:`joined` only
    (the same-bytes-in-any-locale tests catch a loss)."""

    canonical: str

    def __new__(cls, shown: str, canonical: str | None = None) -> Text:
        """``shown`` in the language in force; ``canonical`` its English text."""
        self = super().__new__(cls, shown)
        self.canonical = shown if canonical is None else canonical
        return self

    def format(self, *args: object, **kwargs: object) -> Text:
        """Both texts formatted: the shown one with the parameters as shown,
        the canonical one with each parameter's canonical text."""
        return Text(str.format(self, *(_shown(a) for a in args), **{k: _shown(v) for k, v in kwargs.items()}),
                    self.canonical.format(*(canonical(a) for a in args),
                                          **{k: canonical(v) for k, v in kwargs.items()}))

    def __add__(self, other: str) -> Text:
        return Text(str.__add__(self, other), self.canonical + canonical_text(other))

    def __radd__(self, other: str) -> Text:
        return Text(str.__add__(other, self), canonical_text(other) + self.canonical)

    def __reduce__(self) -> tuple[type[Text], tuple[str, str]]:
        return Text, (str(self), self.canonical)


def canonical(value: object) -> object:
    """``value`` as it is stored: a :class:`Text` as its English text, in a
    dict, list or tuple too (deeply); anything else as it is. What JSON and
    DuckDB receive, so they hold the same bytes in any locale."""
    if isinstance(value, Text):
        return value.canonical
    if isinstance(value, BaseException) and len(value.args) == 1 and isinstance(value.args[0], Text):
        return value.args[0].canonical
    if isinstance(value, dict):
        return {canonical(k): canonical(v) for k, v in value.items()}
    if isinstance(value, list):
        return [canonical(v) for v in value]
    if isinstance(value, tuple):
        return tuple(canonical(v) for v in value)
    return value


def canonical_text(text: str) -> str:
    """One message's canonical (English) text: :func:`canonical` for a ``str``."""
    return text.canonical if isinstance(text, Text) else text


def message_of(error: BaseException) -> str:
    """The message an exception was raised with, its canonical text kept
    (``str(error)`` would drop it); ``str(error)`` for any other exception."""
    if len(error.args) == 1 and isinstance(error.args[0], str):
        return error.args[0]
    return str(error)


def joined(separator: str, parts: Iterable[str]) -> str:
    """``separator.join(parts)`` keeping the canonical text of each part."""
    items = list(parts)
    shown = separator.join(items)
    if not any(isinstance(p, Text) for p in items) and not isinstance(separator, Text):
        return shown
    return Text(shown, canonical_text(separator).join(canonical_text(p) for p in items))


MINUS: Final = "\u2212"
"""The minus sign of a number shown in Russian text (``−0,19``); never in what is read back."""


def decimal(value: object, digits: int | None = 2, *, sign: bool = False) -> str:
    """A number with ``digits`` decimals (None: as it is, a ``Decimal``'s own)
    as the language writes it for a person to read: ``-0.19`` in English;
    in Russian Babel's (CLDR's) number format, a decimal comma and the minus
    sign U+2212, ``−0,19`` (``sign``: ``+`` before a positive one, ``+0,80``).
    The digits are rounded once, as English rounds them, so both languages
    show the same figure. Under Russian a :class:`Text` whose canonical text
    is the English one: a message built with it is stored in English. Only
    for text shown to people: a file meant to be read back writes numbers
    itself, the same in every locale."""
    spec = ("+" if sign else "") + ("" if digits is None else f".{digits}f")
    text = format(value, spec) if spec else str(value)
    if language() != "ru":
        return text
    digits_of = text.lstrip("+-").partition(".")
    if not (digits_of[0].isdigit() and (not digits_of[1] or digits_of[2].isdigit())):
        return Text(text.replace(".", ","), text)  # nan, inf, 1e+06: as Python writes it
    from decimal import Decimal

    from babel.numbers import format_decimal, get_minus_sign_symbol

    places = len(digits_of[2])
    pattern = "0" + ("." + "0" * places if places else "")
    if sign:
        pattern = f"+{pattern};-{pattern}"
    shown = format_decimal(Decimal(text), format=pattern, locale="ru", decimal_quantization=True)
    return Text(shown.replace(get_minus_sign_symbol("ru"), MINUS), text)


def _(message: str) -> str:
    """``message`` (English) in the language in force; under Russian a
    :class:`Text` that keeps ``message`` as its canonical text."""
    if language() == "en":
        return message
    return Text(translation(language()).gettext(message), message)


def N_(message: str) -> str:  # noqa: N802  (the gettext convention)
    """Mark a constant for the catalogue without translating it now."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for the count ``n``, translated
    (a :class:`Text` keeping the English form as its canonical text)."""
    english = singular if n == 1 else plural
    if language() == "en":
        return english
    return Text(translation(language()).ngettext(singular, plural, n), english)


_PERSON_PLACES = frozenset({"player", "name", "dealer", "who", "payer", "payee", "bidder", "next", "leader",
                            "winner", "file", "path", "db", "token", "word", "value", "section"})
"""Placeholders whose value is what a person wrote, a name or a notation keyword: shown as it is stored."""

_COUNT_PLACES = frozenset({"n", "number", "deal", "trick", "size", "offset", "line", "column", "count"})
"""Placeholders that always hold a whole number."""

_WORD_PLACES = frozenset({"kind", "kinds", "what", "whats"})
"""Placeholders whose value may be one translated word (``dark``, ``bids``): any
other short value is a keyword or a name, shown as it is stored."""

_STORED_WORDS: list[Callable[[str], str | None]] = []
_Pattern = tuple[Any, "str | tuple[str, str]", str, int, tuple[str, ...]]
_PATTERNS: dict[str, list[_Pattern]] = {}


def show_stored(shown: Callable[[str], str | None]) -> None:
    """Register how a parameter of a stored message appears when the message is
    shown again (:func:`shown_from_canonical`): ``shown(text)`` for a stored
    parameter's text (``Q♦``) in the language in force (``Д♦``), or None when
    it is not such a value. The stored-text twin of :func:`show_as`."""
    _STORED_WORDS.append(shown)


def _message_patterns() -> list[_Pattern]:
    """Every msgid of the catalogue as a pattern matching the texts it builds:
    (compiled pattern, catalogue key, the English form matched, its literal length, the
    words between its placeholders, which a text it builds holds), the most
    specific (most letters outside its placeholders) first; a msgid with a
    format spec is left out."""
    import re

    lang = language()
    cached = _PATTERNS.get(lang)
    if cached is not None:
        return cached
    found: list[tuple[int, Any, str | tuple[str, str], str, tuple[str, ...]]] = []
    for key in po_entries(catalogue_path(lang).read_text(encoding="utf-8")):
        for english in ((key,) if isinstance(key, str) else dict.fromkeys(key)):
            if not english:
                continue
            parts = re.split(r"\{(\w+)\}", english)
            literal = "".join(parts[0::2])
            if re.search(r"\{[^{}\s]*[:!][^{}]*\}", english) or not literal:
                continue
            pattern, seen = "", set()
            for i, part in enumerate(parts):
                if i % 2 == 0:
                    pattern += re.escape(part)
                elif part in seen:
                    pattern += f"(?P={part})"
                else:
                    seen.add(part)
                    pattern += f"(?P<{part}>[+-]?\\d+)" if part in _COUNT_PLACES else f"(?P<{part}>.+?)"
            letters = len(re.findall(r"[^\W\d_]", literal))
            needs = tuple(part for part in parts[0::2] if part)
            found.append((letters, re.compile(pattern, re.S), key, english, needs))
            if ".+?" in pattern:  # the same with each parameter as long as it can be
                found.append((letters, re.compile(pattern.replace(".+?)", ".+)"), re.S), key, english, needs))
    found.sort(key=lambda item: -item[0])
    patterns = [(compiled, key, english, n, needs) for n, compiled, key, english, needs in found]
    _PATTERNS[lang] = patterns
    return patterns


_AROUND: dict[str, Any] = {}


def _around(pattern: str) -> Any:
    """``pattern`` compiled once (a msgid with a head or a tail around it)."""
    compiled = _AROUND.get(pattern)
    if compiled is None:
        import re

        compiled = _AROUND[pattern] = re.compile(pattern, re.S)
    return compiled


def _stored_value(place: str, value: str, depth: int) -> tuple[str, int]:
    """One parameter of a stored message as it is shown, and how many of its
    characters a msgid's own words matched: a name or what a person wrote as
    it is; a card, a number with decimals or a nested message in the
    language in force."""
    import re

    if place in _PERSON_PLACES or value[:1] in "'\"«" or value.lstrip("+-").isdigit():
        return value, 0
    for shown in _STORED_WORDS:
        word = shown(value)
        if word is not None:
            return word, 0
    if re.fullmatch(r"[+-]?\d+\.\d+", value):
        return value.replace(".", ","), 0
    nested = _parse(value, depth + 1, bare=place in _WORD_PLACES or len(value.split()) >= 4)
    return (value, 0) if nested is None else nested


def _formatted(key: str | tuple[str, str], english: str, literal: int, groups: dict[str, str],
               depth: int) -> tuple[str, int] | None:
    """The translation of ``key`` with the stored parameters ``groups`` (and
    the characters matched), or None when it does not fit them. A msgid of
    placeholders and punctuation only (``{cards} {kind}``) fits only when
    each of its parameters is itself a message."""
    catalogue = translation(language())
    params: dict[str, str] = {}
    covered = literal - 1  # each msgid a reading uses costs one: the simplest reading wins a tie
    for place, value in groups.items():
        params[place], matched = _stored_value(place, value, depth)
        if not literal and matched <= 0:
            return None
        covered += matched
    if isinstance(key, str):
        template = catalogue.gettext(key)
    else:  # the count: {n}, else the first number that agrees with the English form matched
        singular = english == key[0] and key[0] != key[1]
        numbers = [int(v) for p, v in sorted(groups.items(), key=lambda item: item[0] != "n") if v.isdigit()]
        fits = [n for n in numbers if (n == 1) == singular or key[0] == key[1]]
        count = fits[0] if fits else (1 if singular else 5)
        template = catalogue.ngettext(key[0], key[1], count)
    if not groups:
        return template, covered
    try:
        return template.format(**params), covered
    except (KeyError, IndexError, ValueError):
        return None


def _parse(text: str, depth: int, *, bare: bool = True) -> tuple[str, int] | None:
    """:func:`_read_stored` in the language in force (remembered: a page shows
    the same messages again, and a reading tries the same parts many ways)."""
    return _read_stored(text, depth, bare, language())


@functools.lru_cache(maxsize=4096)
def _read_stored(text: str, depth: int, bare: bool, lang: str) -> tuple[str, int] | None:
    """``text`` (a stored message) in the language in force and how many of
    its characters msgids' own words matched (the reading that matches most
    wins: a message with a sentence added, `` (did you mean …?)``, is read as
    the two msgids rather than one whose parameter swallowed the sentence),
    or None when no msgid of the catalogue builds it. Not ``bare``: only a
    msgid with placeholders may build it (a parameter that is one word, such
    as ``as`` or ``high``, is a keyword, not the msgid ``as``)."""
    import re

    if depth > 4 or not text:
        return None
    code = re.match(r"([EWJ]\d{3}): ", text)
    if code:
        rest = _parse(text[code.end():], depth + 1)
        return None if rest is None else (code.group(1) + ": " + rest[0], rest[1] + code.end())
    best: tuple[str, int] | None = None

    def consider(found: tuple[str, int] | None) -> None:
        nonlocal best
        if found is not None and found[1] > 0 and (best is None or found[1] > best[1]):
            best = found

    # a msgid can build the text, or a part of it, only when the text holds its words
    patterns = [p for p in _message_patterns() if all(word in text for word in p[4])]
    for compiled, key, english, literal, _needs in patterns:
        if (not bare and "{" not in english) or (not literal and not depth):
            continue  # a msgid of placeholders only (``{cards} {kind}``) builds a parameter, never a message
        m = compiled.fullmatch(text)
        if m is not None:
            consider(_formatted(key, english, literal, m.groupdict(), depth))
    for compiled, key, english, literal, _needs in patterns:
        if english[:1] not in " ;,.(":
            continue
        m = _around(r"(?P<_head>.+?)(?P<_gap>\s*)" + compiled.pattern).fullmatch(text)
        if m is not None:
            head = _parse(m.group("_head"), depth + 1)
            tail = _formatted(key, english, literal,
                              {k: v for k, v in m.groupdict().items() if k not in ("_head", "_gap")}, depth)
            if head is not None and tail is not None:
                consider((head[0] + m.group("_gap") + tail[0], head[1] + tail[1]))
    # a message with a place put before it (``deal 3: ``)
    for compiled, key, english, literal, _needs in patterns:
        if not literal or not english[-1:].isspace():
            continue
        m = _around(compiled.pattern + "(?P<_tail>.+)").fullmatch(text)
        if m is not None:
            head = _formatted(key, english, literal, {k: v for k, v in m.groupdict().items() if k != "_tail"},
                              depth)
            tail = _parse(m.group("_tail"), depth + 1)
            if head is not None and tail is not None:
                consider((head[0] + tail[0], head[1] + tail[1]))
    name, colon, message = text.partition(": ")
    if colon and len(name) <= 40:  # ``Анна: the joker was played without a declaration``
        said = _parse(message, depth + 1)
        if said is not None:
            consider((name + colon + said[0], said[1]))
    if "; " in text:
        parts = [_parse(part, depth + 1) for part in text.split("; ")]
        if all(part is not None for part in parts):
            consider(("; ".join(part[0] for part in parts if part is not None),
                      sum(part[1] + 2 for part in parts if part is not None)))
    return best


_LONGEST_STORED_READ = 2000
"""A stored message longer than this is shown as stored (no message of raspis is
so long but for what a person wrote in it; reading one back costs more than its
length)."""


def shown_from_canonical(text: str) -> str:
    """A stored message (its canonical English text, as ``violations.message``
    and JSON keep it) as a person reads it in the language in force: the
    catalogue's msgid that builds it is found, its translation formatted with
    the same parameters (cards, decimals and nested messages shown in the
    language too; names and what a person wrote as they are). English, or a
    text no msgid builds, is returned as it is."""
    if language() == "en" or len(text) > _LONGEST_STORED_READ:
        return text
    shown = _parse(text, 0)
    return text if shown is None else Text(shown[0], text)
