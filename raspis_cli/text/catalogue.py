"""The message catalogues: the PO source of each language, read and compiled.

The bottom of the text layer (standard library only). ``translation(lang)``
is what :mod:`raspis_cli.text.i18n` asks for a language's words.
"""

from __future__ import annotations

import gettext
from pathlib import Path

__all__ = ["DOMAIN", "LOCALE_DIR", "catalogue_path", "compile_po", "read_po", "translation"]

DOMAIN = "raspis"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"

_translations: dict[str, gettext.NullTranslations] = {}


def catalogue_path(lang: str = "ru") -> Path:
    """The PO source of one language's catalogue."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def translation(lang: str) -> gettext.NullTranslations:
    """The catalogue of ``lang`` (``ru``/``en``), read once: English is the msgids themselves."""
    cached = _translations.get(lang)
    if cached is not None:
        return cached
    translation: gettext.NullTranslations
    path = catalogue_path(lang)
    if lang == "en" or not path.exists():
        translation = gettext.NullTranslations()
    else:
        import io

        translation = gettext.GNUTranslations(io.BytesIO(compile_po(path.read_text(encoding="utf-8"))))
    _translations[lang] = translation
    return translation



# --- the PO format: read it and compile it as Tools/i18n/msgfmt.py does -------------------------------


def read_po(text: str) -> dict[str | tuple[str, str], list[str]]:
    """The entries of a PO file: ``msgid`` (or ``(msgid, msgid_plural)``) to
    the list of translations (one, or one per plural form). The header is the
    entry with the empty msgid. Fuzzy entries are skipped, as msgfmt does."""
    entries: dict[str | tuple[str, str], list[str]] = {}
    msgid: str | None = None
    plural: str | None = None
    strs: dict[int, str] = {}
    fuzzy = False
    section: tuple[str, int] | None = None

    def flush() -> None:
        nonlocal msgid, plural, strs, fuzzy
        if msgid is not None and not fuzzy:
            key: str | tuple[str, str] = (msgid, plural) if plural is not None else msgid
            entries[key] = [strs[i] for i in sorted(strs)]
        msgid, plural, strs, fuzzy = None, None, {}, False

    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("#"):
            if line.startswith("#,") and "fuzzy" in line:
                if section is not None and section[0] == "str":
                    flush()
                    section = None
                fuzzy = True
            continue
        if not line:
            continue
        if line.startswith("msgid_plural "):
            plural = _po_string(line[len("msgid_plural "):])
            section = ("plural", 0)
        elif line.startswith("msgid "):
            if section is not None and section[0] == "str":
                flush()
            msgid = _po_string(line[len("msgid "):])
            section = ("id", 0)
        elif line.startswith("msgstr["):
            index = int(line[len("msgstr["):line.index("]")])
            strs[index] = _po_string(line[line.index("]") + 1:].strip())
            section = ("str", index)
        elif line.startswith("msgstr "):
            strs[0] = _po_string(line[len("msgstr "):])
            section = ("str", 0)
        elif line.startswith('"') and section is not None:
            part = _po_string(line)
            kind, index = section
            if kind == "id" and msgid is not None:
                msgid += part
            elif kind == "plural" and plural is not None:
                plural += part
            elif kind == "str":
                strs[index] = strs.get(index, "") + part
    flush()
    return entries


def _po_string(text: str) -> str:
    import ast

    value = ast.literal_eval(text.strip())
    if not isinstance(value, str):
        raise ValueError(f"not a PO string: {text!r}")
    return value


def compile_po(text: str) -> bytes:
    """The ``.mo`` bytes of a PO file's text (untranslated entries left out)."""
    import struct

    messages: dict[bytes, bytes] = {}
    for msgid, strs in read_po(text).items():
        if not any(strs) and msgid != "":
            continue
        if isinstance(msgid, tuple):
            messages[msgid[0].encode() + b"\0" + msgid[1].encode()] = b"\0".join(s.encode() for s in strs)
        else:
            messages[msgid.encode()] = strs[0].encode() if strs else b""
    keys = sorted(messages)
    ids = b""
    strs_blob = b""
    offsets: list[tuple[int, int, int, int]] = []
    for key in keys:
        offsets.append((len(ids), len(key), len(strs_blob), len(messages[key])))
        ids += key + b"\0"
        strs_blob += messages[key] + b"\0"
    count = len(keys)
    keys_start = 7 * 4 + 16 * count
    values_start = keys_start + len(ids)
    key_table: list[int] = []
    value_table: list[int] = []
    for id_offset, id_length, str_offset, str_length in offsets:
        key_table += [id_length, id_offset + keys_start]
        value_table += [str_length, str_offset + values_start]
    header = struct.pack("Iiiiiii", 0x950412DE, 0, count, 7 * 4, 7 * 4 + count * 8, 0, 0)
    return (header + struct.pack(f"{len(key_table)}i", *key_table)
            + struct.pack(f"{len(value_table)}i", *value_table) + ids + strs_blob)
