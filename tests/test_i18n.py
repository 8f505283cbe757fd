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
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from raspis_cli.cli.registry import COMMANDS as REGISTERED
from raspis_cli.text.catalogue import catalogue_path, compiled, po_entries, read_catalogue
from raspis_cli.text.i18n import language_from_argv, language_from_environment
from tests.clikit import run_cli

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
    catalogue = po_entries(catalogue_path("ru").read_text(encoding="utf-8"))
    missing = [f"{m!r} ({', '.join(places)})" for m, places in used.items()
               if m not in catalogue or not all(catalogue[m])]
    assert not missing, "no Russian text for:\n" + "\n".join(missing)
    for msgid, places in used.items():
        english = msgid if isinstance(msgid, tuple) else (msgid,)
        expected = set().union(*(_fields(e) for e in english))
        for russian in catalogue[msgid]:
            assert _fields(russian) == expected, (msgid, russian, places)


def _form(translations: gettext.GNUTranslations, n: int) -> int:
    """The index of the plural form the catalogue's header formula gives ``n``."""
    plural: Callable[[int], int] = translations.plural  # type: ignore[attr-defined]  # set from the header
    return plural(n)


def test_the_catalogue_compiles_for_gnu_gettext() -> None:
    text = catalogue_path("ru").read_text(encoding="utf-8")
    catalog = read_catalogue(text)
    assert catalog.num_plurals == 3 and str(catalog.locale) == "ru"
    translations = gettext.GNUTranslations(io.BytesIO(compiled(catalog)))
    assert translations.gettext("Print the version and exit.") == "Показать версию и выйти."
    assert translations.info()["language"] == "ru"
    assert [_form(translations, n) for n in (1, 2, 5, 11, 21, 22)] == [0, 1, 2, 2, 0, 1]


def test_the_catalogue_agrees_with_cldr_and_has_each_msgid_once() -> None:
    """The PO header's plural formula gives CLDR's Russian category (one, few,
    many) for every whole count, and no msgid is written twice (msgfmt refuses
    a catalogue that has one twice; Babel would keep only the last)."""
    from babel import Locale

    text = catalogue_path("ru").read_text(encoding="utf-8")
    translations = gettext.GNUTranslations(io.BytesIO(compiled(read_catalogue(text))))
    index = {"one": 0, "few": 1, "many": 2}
    russian = Locale.parse("ru")
    assert all(_form(translations, n) == index[russian.plural_form(n)] for n in range(1000))
    written = re.findall(r"^msgid (\".*)$", text, re.M)
    assert len(written) == len(po_entries(text)), "a msgid written twice in the catalogue"


def test_plural_forms_follow_russian_grammar() -> None:
    po = (
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
        '"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && '
        'n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"\n\n'
        'msgid "{n} card"\nmsgid_plural "{n} cards"\nmsgstr[0] "{n} карта"\nmsgstr[1] "{n} карты"\n'
        'msgstr[2] "{n} карт"\n\n#, fuzzy\nmsgid "fuzzy one"\nmsgstr "не то"\n'
    )
    translations = gettext.GNUTranslations(io.BytesIO(compiled(read_catalogue(po))))
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


# --- no English left in a Russian session ----------------------------------------------------------

KINDS_AND_CODES = re.compile(r"\b[EW]\d{3}\b|\b[a-z]+(?:[-_][a-z]+)+\b")
"""Violation kinds (``score-mismatch``), option names (``pass_made``) and codes
(``E303``): contract values, the same in both languages."""
QUOTED = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"|«[^»\n]*»")
ALLOWED_LATIN = {
    "Boris",  # a player of the samples
    "samples", "errors", "friday", "rsp", "raspis", "raspisnoy", "dispute", "sheet",  # file names
    "validate", "live", "help", "undo", "quit", "totals", "replayed", "Ctrl", "Enter",  # commands, keys
    "unfinished", "normal", "miser", "golden", "dark", "forehead", "percent",  # the notation's English words
    "syntax", "schedule", "players", "trump", "penalty", "replay", "TH", "RJ", "BJ",  # kinds, cards
}


def _english_words(text: str) -> list[str]:
    """Latin words of three letters or more that are not names, kinds, codes,
    quoted record text (or a source line shown under a problem) or the
    allowed words above."""
    text = "\n".join(line for line in text.splitlines() if not re.match(r"\s*\d*\s*\|", line))
    text = KINDS_AND_CODES.sub(" ", QUOTED.sub(" ", text))
    text = re.sub(r"\S*[/\\.]\S*", " ", text)  # paths, 2/1 cells
    words = re.findall(r"[A-Za-z]{3,}", text)
    return [w for w in words if w not in ALLOWED_LATIN]


def test_a_russian_validate_leaves_no_english_sentence() -> None:
    done = run_cli("validate", "samples/errors-friday.rsp", "samples/raspisnoy-sheet-dispute.rsp",
                   "--lang", "ru")
    assert done.returncode == 1
    assert "раздача 2" in done.stdout and "всего: 2 файла" in done.stdout
    left = _english_words(done.stdout)
    assert not left, f"English left in Russian output: {sorted(set(left))}"
    # and the JSON report keeps the contract's English whatever the language
    report = run_cli("validate", "samples/errors-friday.rsp", "--format", "json", "--lang", "ru")
    assert "no bid is written for Boris" in report.stdout and "раздача" not in report.stdout


@pytest.mark.slow
def test_a_russian_explain_and_live_leave_no_english_sentence(tmp_path: Path) -> None:
    explained = run_cli("explain", "samples/raspisnoy-sheet-dispute.rsp", "--stake", "0.1", "--lang", "ru")
    assert "должно быть +5" in explained.stdout
    cells = run_cli("explain", "samples/raspisnoy-sheet-dispute.rsp", "--deal", "17", "--lang", "ru")
    sheet = tmp_path / "вечер.rsp"
    # typed lines (no terminal: plain input): a bid the dealer may not make, help, undo, quit
    typed = "\n".join(["♠", "1", "0", "0", "1", "help", "1", "0", "0", "undo", "quit"]) + "\n"
    live = run_cli("live", str(sheet), "--players", "Анна, Борис, Вера", "--lang", "ru", stdin=typed)
    assert live.returncode == 0, live.stderr
    assert "сдающему так нельзя" in live.stdout and "отменена" in live.stdout and "остановлено" in live.stdout
    blank = run_cli("new", "-p", "Анна, Борис, Вера", "-o", str(tmp_path / "новый.rsp"), "--lang", "ru")
    assert "записан" in blank.stderr
    for output in (explained.stdout, cells.stdout, live.stdout, live.stderr, blank.stderr):
        left = _english_words(output)
        assert not left, f"English left in Russian output: {sorted(set(left))}\n{output}"


RULES_SUBCOMMANDS = ("list", "show", "schedule")
"""The subcommands of ``raspis rules`` (importing the command module here would register it)."""
APP_SUBCOMMANDS = ("build", "serve")
"""The subcommands of ``raspis app``."""
HELP_DATA = {
    "text", "json", "jsonl", "csv", "markdown", "table", "notation", "auto", "heuristic", "pimc", "full",
    "scores", "rules", "all", "ratings", "leaderboard", "classic", "georgian", "Event", "Date", "html",
    "joker", "online",  # the presets joker54 and online36 as the word pattern cuts them
    "UTF", "BOM", "PIMC", "numba", "DuckDB", "Parquet", "Spark", "Trino", "HTML", "JSON", "JSONL", "SQL",
    "COPY", "EXPORT", "ATTACH", "INSTALL", "LOAD", "RASPIS", "DB", "com",  # formats, brands, SQL, $RASPIS_DB
    "Python", "https", "npm", "pyodide",  # the app: its runtime, where it comes from, where it is published
    "LANGUAGE", "LANG", "ALL", "MESSAGES",  # the locale variables
    *(name for name, *_rest in REGISTERED), *RULES_SUBCOMMANDS, *APP_SUBCOMMANDS,  # the commands themselves
}
COMMANDS: list[list[str]] = [[]] + [[name] for name, *_rest in REGISTERED] + [
    ["rules", name] for name in RULES_SUBCOMMANDS] + [["app", name] for name in APP_SUBCOMMANDS]
"""Every command, from the registry (cli/registry.py), and the rules and app groups' subcommands."""


def _english_in_help(text: str) -> list[str]:
    text = re.sub(r"--?[A-Za-z][\w-]*", " ", text)  # option names
    return [w for w in _english_words(text) if w not in HELP_DATA]


@pytest.mark.slow
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c) or "raspis")
def test_russian_help_leaves_no_english_sentence(command: list[str]) -> None:
    done = run_cli("--lang", "ru", *command, "--help")
    assert done.returncode == 0, done.stderr
    assert "Вызов: raspis" in done.stdout and "Показать эту справку и выйти." in done.stdout
    left = _english_in_help(done.stdout)
    assert not left, f"English left in Russian help: {sorted(set(left))}\n{done.stdout}"


@pytest.mark.slow
def test_russian_usage_errors_leave_no_english_sentence() -> None:
    cases = {
        ("scroe",): "Нет такой команды 'scroe'. Может быть, 'score'?",
        ("score", "--gam", "1", "x"): "Нет такой опции: --gam (возможные опции: --game)",
        ("score",): "Не указан аргумент 'ФАЙЛ'.",
        ("convert", "x"): "Не указана опция '--to' / '-t'. Выберите из:",
        ("score", "--game", "abc", "x"): "Неверное значение '--game' / '-g': нужно целое число",
        ("validate", "--format", "xml", "x"): "ожидалось text, json или jsonl, а написано «xml»",
        ("score", "a", "b"): "Лишние аргументы (b)",
        ("rules", "schedule", "raspisnoy", "-p", "1"): "raspis: ошибка: --players: 1 меньше 2",
        ("report", "-o", "x.html"): "укажите файл партии или --db",
        ("stats", "--db", "nowhere.duckdb"): "базы nowhere.duckdb нет (сначала загрузите партии",
        ("convert", "tests/data/hostile/duplicate-players.json", "--to", "notation"): "указан дважды",
        ("stats", "--since", "2026-13-01", "--db", "x"): "ожидалась дата вида 2026-11-20",
    }
    for args, expected in cases.items():
        done = run_cli("--lang", "ru", *args)
        assert done.returncode == 2, (args, done.stderr)
        assert expected in done.stderr, (args, done.stderr)
        left = _english_in_help(done.stderr)
        assert not left, f"English left in a Russian error: {sorted(set(left))}\n{done.stderr}"
    # English stays as typer's click writes it
    english = run_cli("score", "--gam", "1", "x")
    assert "Usage: raspis score [OPTIONS] FILE" in english.stderr
    assert "Error: No such option: --gam (Possible options: --game)" in english.stderr
