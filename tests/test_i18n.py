"""The interface in two languages: every message has its Russian text, the
catalogue reads through the standard gettext machinery, and the language is
chosen by ``--lang`` or the locale."""

from __future__ import annotations

import gettext
import importlib.util
import io
import re
import string
import sys
from pathlib import Path
from types import ModuleType

import pytest
from clikit import run_cli

from raspis_cli.i18n import (
    catalogue_path,
    compile_po,
    language_from_argv,
    language_from_environment,
    read_po,
)

ROOT = Path(__file__).resolve().parent.parent


def _catalogue_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("i18n_catalogue", ROOT / "scripts" / "i18n_catalogue.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["i18n_catalogue"] = module
    spec.loader.exec_module(module)
    return module


def _fields(text: str) -> set[str]:
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name is not None}


def test_every_message_has_both_languages() -> None:
    used = _catalogue_tool().extract()
    assert len(used) > 20, "the extraction finds the messages"
    catalogue = read_po(catalogue_path("ru").read_text(encoding="utf-8"))
    missing = [f"{m!r} ({', '.join(places)})" for m, places in used.items()
               if m not in catalogue or not all(catalogue[m])]
    assert not missing, "no Russian text for:\n" + "\n".join(missing)
    for msgid, places in used.items():
        english = msgid if isinstance(msgid, tuple) else (msgid,)
        expected = set().union(*(_fields(e) for e in english))
        for russian in catalogue[msgid]:
            assert _fields(russian) == expected, (msgid, russian, places)


def test_the_catalogue_compiles_for_gnu_gettext() -> None:
    text = catalogue_path("ru").read_text(encoding="utf-8")
    translations = gettext.GNUTranslations(io.BytesIO(compile_po(text)))
    assert translations.gettext("Print the version and exit.") == "Показать версию и выйти."
    assert translations.info()["language"] == "ru"


def test_plural_forms_follow_russian_grammar() -> None:
    po = (
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
        '"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && '
        'n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"\n\n'
        'msgid "{n} card"\nmsgid_plural "{n} cards"\nmsgstr[0] "{n} карта"\nmsgstr[1] "{n} карты"\n'
        'msgstr[2] "{n} карт"\n\n#, fuzzy\nmsgid "fuzzy one"\nmsgstr "не то"\n'
    )
    translations = gettext.GNUTranslations(io.BytesIO(compile_po(po)))
    forms = [translations.ngettext("{n} card", "{n} cards", n).format(n=n) for n in (1, 2, 5, 11, 21, 22)]
    assert forms == ["1 карта", "2 карты", "5 карт", "11 карт", "21 карта", "22 карты"]
    assert translations.gettext("fuzzy one") == "fuzzy one", "fuzzy entries are not used, as msgfmt does"


@pytest.mark.parametrize(("environ", "expected"), [
    ({}, "en"),
    ({"LANG": "ru_RU.UTF-8"}, "ru"),
    ({"LANG": "en_US.UTF-8"}, "en"),
    ({"LC_ALL": "ru_RU.UTF-8", "LANG": "en_US.UTF-8"}, "ru"),
    ({"LC_MESSAGES": "ru_RU", "LANG": "en_GB"}, "ru"),
    ({"LANGUAGE": "en:ru", "LANG": "ru_RU.UTF-8"}, "en"),
    ({"LANG": "C.UTF-8"}, "en"),
])
def test_language_from_the_locale(environ: dict[str, str], expected: str) -> None:
    assert language_from_environment(environ) == expected


def test_lang_is_found_anywhere_and_kept_for_fmt() -> None:
    assert language_from_argv(["--lang", "ru", "validate", "x"]) == ("ru", ["validate", "x"])
    assert language_from_argv(["validate", "x", "--lang=en"]) == ("en", ["validate", "x"])
    assert language_from_argv(["fmt", "x", "--lang", "ru"], keep_after=("fmt",)) == \
        ("ru", ["fmt", "x", "--lang", "ru"])
    assert language_from_argv(["validate", "--", "--lang"]) == (None, ["validate", "--", "--lang"])


def test_help_in_russian_by_locale_and_by_option() -> None:
    russian = run_cli("--help", env_extra={"LANG": "ru_RU.UTF-8"})
    assert russian.returncode == 0
    assert "Проверить по правилам каждый заказ" in russian.stdout
    assert "Наборы правил" in russian.stdout
    by_option = run_cli("--lang", "ru", "validate", "--help")
    assert "Код выхода: 0" in by_option.stdout
    english = run_cli("--help", "--lang", "en", env_extra={"LANG": "ru_RU.UTF-8"})
    assert "Check every bid, card and joker declaration" in english.stdout
    assert not re.search("[а-яё]{4}", english.stdout.replace("расписной покер", "").replace("расписка", ""))


def test_an_unknown_language_is_one_line() -> None:
    done = run_cli("--lang", "fr", "--help")
    assert done.returncode == 2
    assert done.stderr == "raspis: error: --lang: 'fr' is not a language raspis speaks (ru, en)\n"
