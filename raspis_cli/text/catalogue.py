"""The message catalogues: the PO source of each language, read and compiled by Babel.

The bottom of the text layer (standard library, and Babel imported only when
a catalogue is first read). ``translation(lang)`` is what
:mod:`raspis_cli.text.i18n` asks for a language's words: the PO source is read
by :func:`babel.messages.pofile.read_po`, compiled in memory by
:func:`babel.messages.mofile.write_mo` and served by
:class:`gettext.GNUTranslations`, so the PO file is the only one to keep and
merge, and its ``Plural-Forms`` header (Russian: three forms) decides
``ngettext``.
"""

from __future__ import annotations

import functools
import gettext
import io
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog

__all__ = ["DOMAIN", "LOCALE_DIR", "catalogue_path", "compiled", "po_entries", "read_catalogue",
           "translation"]

DOMAIN = "raspis"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"

_translations: dict[str, gettext.NullTranslations] = {}


def catalogue_path(lang: str = "ru") -> Path:
    """The PO source of one language's catalogue."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.lru_cache(maxsize=4)
def read_catalogue(text: str) -> Catalog:
    """A PO file's text as Babel's :class:`~babel.messages.catalog.Catalog`
    (read once: the same text is asked for again to read stored messages
    back; do not change the catalogue returned)."""
    from babel.messages.pofile import read_po

    return read_po(io.StringIO(text))


def compiled(catalog: Catalog) -> bytes:
    """The ``.mo`` bytes of a catalogue (untranslated and fuzzy entries left out, as msgfmt does);
    the same bytes for the same catalogue (Babel would date the header with the hour it is
    compiled, the PO file giving no date of its own)."""
    import copy
    import datetime

    from babel.messages.mofile import write_mo

    dated = copy.copy(catalog)  # the catalogue read is shared: only the copy is dated
    dated.creation_date = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)
    out = io.BytesIO()
    write_mo(out, dated)
    return out.getvalue()


def po_entries(text: str) -> dict[str | tuple[str, str], list[str]]:
    """The entries of a PO file's text: ``msgid`` (or ``(msgid, msgid_plural)``)
    to the list of translations (one, or one per plural form); the header is
    the entry with the empty msgid. Fuzzy entries are left out, as msgfmt does."""
    entries: dict[str | tuple[str, str], list[str]] = {}
    for message in read_catalogue(text):
        if message.fuzzy and message.id:
            continue
        if isinstance(message.id, str):
            key: str | tuple[str, str] = message.id
        else:
            key = (str(message.id[0]), str(message.id[1]))
        strings = message.string
        entries[key] = [strings] if isinstance(strings, str) else [str(s or "") for s in strings or ()]
    return entries


def translation(lang: str) -> gettext.NullTranslations:
    """The catalogue of ``lang`` (``ru``/``en``), read once: English is the msgids themselves.
    The PO source when there is one; otherwise the compiled ``.mo`` beside
    where it would be (the phone app's bundle carries that alone)."""
    cached = _translations.get(lang)
    if cached is not None:
        return cached
    found: gettext.NullTranslations
    path = catalogue_path(lang)
    binary = path.with_suffix(".mo")
    if lang == "en" or not (path.exists() or binary.exists()):
        found = gettext.NullTranslations()
    elif path.exists():
        catalog = read_catalogue(path.read_text(encoding="utf-8"))
        found = gettext.GNUTranslations(io.BytesIO(compiled(catalog)))
    else:  # a bundle that carries the compiled catalogue alone (the phone app: no Babel there)
        found = gettext.GNUTranslations(io.BytesIO(binary.read_bytes()))
    _translations[lang] = found
    return found
