"""The language raspis speaks to a person: English, or Russian by locale or ``--lang ru``.

A bottom layer (standard library only): any module may import it, the
engine included, because nothing is read until a Russian text is asked for.

Two ways to say something, by when the words are needed::

    # what is found and may be stored or shown later (a violation, a reading
    # problem, a refusal): a Message, data until it is shown
    from raspis_cli.text.messages import msg, msg_n
    msg("deal {deal}: no trump written", deal=3)           # words made by .shown() / .english()
    msg_n("{n} card", "{n} cards", n, n=n)                 # plural forms (Russian has three)

    # words shown at once (help, a table's header, a page's label): this module
    from raspis_cli.text.i18n import _, N_, ngettext
    _("deal {deal}").format(deal=3)                        # translate now, then format
    KIND_LABELS = {"miser": N_("miser")}                   # mark a constant now ...
    _(KIND_LABELS[kind])                                   # ... translate it where it is shown
    number(-10), decimal(-0.19)                            # −10, −0,19 in Russian

    set_language("ru")          # "ru", "en", or None: from the environment (the default)
    language()                  # "ru" or "en": the language in force
    explicit_language()         # what --lang said, or None (fmt's keywords follow only this)
    language_from_argv(argv)    # (language given by --lang or None, argv without it)

Rules for messages: the msgid is the English text itself; write placeholders as
``{name}`` and give the values as typed parameters (a card, a name, a
:class:`~raspis_cli.text.messages.Quoted` token the person wrote), never an
f-string. Only string literals go inside ``_()``, ``N_()``, ``ngettext()``,
``msg()`` and ``msg_n()``: ``tests/test_i18n.py`` extracts them from the source
and fails when one has no Russian text in the catalogue or when the
placeholders differ.

The catalogue is ``raspis_cli/text/locale/ru/LC_MESSAGES/raspis.po`` (standard
gettext PO; edit it by hand or run ``python scripts/i18n_catalogue.py`` to add
every new msgid with an empty translation to fill in). At first use of Russian
Babel reads it and compiles it in memory (:mod:`raspis_cli.text.catalogue`), so
the catalogue source is the only file to keep and merge;
``scripts/i18n_catalogue.py --mo`` writes the binary ``.mo`` beside it for other
gettext tools.

The language is chosen, in order: ``--lang ru|en`` anywhere on the command
line, then the first of ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is
set (``ru``, ``ru_RU.UTF-8`` ... mean Russian; anything else English).
Command modules build their help texts when imported, so the language is set
(``raspis_cli.cli.main``) before they are.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
from collections.abc import Iterator
from typing import Final

from raspis_cli.text.catalogue import translation

__all__ = [
    "LANGUAGES",
    "MINUS",
    "N_",
    "_",
    "decimal",
    "explicit_language",
    "language",
    "language_from_argv",
    "language_from_environment",
    "minus_sign",
    "ngettext",
    "number",
    "set_language",
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


MINUS: Final = "\u2212"
"""The minus sign of a number shown in Russian text (``−0,19``); never in what is read back."""


def decimal(value: object, digits: int | None = 2, *, sign: bool = False) -> str:
    """A number with ``digits`` decimals (None: as it is, a ``Decimal``'s own)
    as the language writes it for a person to read: ``-0.19`` in English;
    in Russian Babel's (CLDR's) number format, a decimal comma and the minus
    sign U+2212, ``−0,19`` (``sign``: ``+`` before a positive one, ``+0,80``).
    The digits are rounded once, as English rounds them, so both languages
    show the same figure. Only for text shown to people: a file meant to be
    read back, and what is stored, write numbers themselves, the same in
    every locale."""
    spec = ("+" if sign else "") + ("" if digits is None else f".{digits}f")
    text = format(value, spec) if spec else str(value)
    if language() != "ru":
        return text
    digits_of = text.lstrip("+-").partition(".")
    if not (digits_of[0].isdigit() and (not digits_of[1] or digits_of[2].isdigit())):
        return text.replace(".", ",")  # nan, inf, 1e+06: as Python writes it
    from decimal import Decimal

    from babel.numbers import format_decimal, get_minus_sign_symbol

    places = len(digits_of[2])
    pattern = "0" + ("." + "0" * places if places else "")
    if sign:
        pattern = f"+{pattern};-{pattern}"
    shown = format_decimal(Decimal(text), format=pattern, locale="ru", decimal_quantization=True)
    return shown.replace(get_minus_sign_symbol("ru"), MINUS)


def number(value: int, *, sign: bool = False) -> str:
    """A whole number as the language writes it for a person to read:
    ``-10`` in English, ``−10`` in Russian (the minus sign U+2212); ``sign``:
    ``+`` before a positive one (``+5``). Only for text shown to people: a
    record, JSON and what is stored write numbers themselves."""
    return minus_sign(f"{value:+d}" if sign else str(value), language())


def minus_sign(text: str, lang: str) -> str:
    """A number's text (``-10``) with the minus ``lang`` shows: U+2212 in Russian."""
    return MINUS + text[1:] if lang == "ru" and text.startswith("-") else text


def _(message: str) -> str:
    """``message`` (English) in the language in force, now: for words shown
    at once (help, a page's labels). What is found and may be stored or
    shown later is a :class:`~raspis_cli.text.messages.Message`."""
    if language() == "en":
        return message
    return translation(language()).gettext(message)


def N_(message: str) -> str:  # noqa: N802  (the gettext convention)
    """Mark a constant for the catalogue without translating it now."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for the count ``n``, translated now."""
    if language() == "en":
        return singular if n == 1 else plural
    return translation(language()).ngettext(singular, plural, n)
