"""The tables of ``stats`` (and of ``rules``) in the interface language: every
report's title and every column header in Russian under ``--lang ru`` or a
Russian locale, in English words otherwise; JSON and CSV keep the keys (a
contract, docs/SCHEMA.md); a table wider than the terminal folds its headers,
not its values."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console
from rich.table import Table

from raspis_cli.cli.output import COLUMN_LABELS, column_label
from raspis_cli.cli.plaintable import fit_widths
from raspis_cli.report.strings import report_strings
from raspis_cli.store.schema import REPORT_NAMES, REPORT_TITLES
from raspis_cli.text.i18n import _, set_language
from tests.clikit import run_cli

ROOT = Path(__file__).resolve().parent.parent

KEYS = {
    "leaderboard": ["rules", "players", "player", "games", "wins", "win_rate", "mean_total", "deals",
                    "mean_per_deal", "relative_per_deal"],
    "bid_accuracy": ["player", "bids", "exact_rate", "under_rate", "over_rate", "mean_bid", "mean_taken"],
    "bid_accuracy_by_cards": ["players", "cards", "bids", "exact_rate", "under_rate", "over_rate"],
    "bid_accuracy_by_seat": ["players", "bid_position", "bids", "exact_rate", "under_rate", "over_rate"],
    "pass_success": ["player", "passes", "made", "made_rate"],
    "dealer_record": ["player", "dealer_restriction", "bids", "exact_rate", "under_rate", "over_rate",
                      "restricted"],
    "deal_kinds": ["kind", "player_deals", "mean_score", "mean_taken", "zero_rate", "exact_rate"],
    "joker_outcomes": ["joker_mode", "played_as", "plays", "won", "won_rate"],
    "head_to_head": ["player", "opponent", "games", "ahead", "behind", "level", "mean_margin"],
    "ratings": ["pool", "rank", "player", "rating", "uncertainty", "ordinal", "games", "change", "last_date"],
}
"""The columns of every report, as JSON and CSV name them (docs/SCHEMA.md): they do not change."""

LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
ALLOWED_IN_RUSSIAN_TITLES = {"openskill"}  # the library's name


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("club") / "club.duckdb"
    done = run_cli("load", "samples", "--db", str(db), "-q")
    assert done.returncode == 0, done.stderr
    return db


@pytest.fixture
def russian() -> Iterator[None]:
    set_language("ru")
    yield
    set_language(None)


def _tables(text: str) -> list[tuple[str, list[str]]]:
    """(title, header cells) of every table a piped command printed."""
    lines = text.splitlines()
    found = []
    for i, line in enumerate(lines):
        if line.startswith("┏"):
            assert lines[i + 2].startswith("┡"), "a piped table has one header line"
            found.append((lines[i - 1], [c.strip() for c in lines[i + 1].strip("┃").split("┃")]))
    return found


EVERY_REPORT = [word for name in REPORT_NAMES for word in ("--report", name)]


@pytest.mark.slow
def test_russian_stats_has_russian_titles_and_headers(club: Path) -> None:
    done = run_cli("--lang", "ru", "stats", "--db", str(club), *EVERY_REPORT)
    assert done.returncode == 0, done.stderr
    tables = _tables(done.stdout)
    assert tables[0][0] == ("Таблица по правилам и числу игроков, по порядку «относительно» (очки за "
                            "раздачу сверх среднего всех за теми же столами: сравниваются равные)")
    assert len(tables) == len(REPORT_NAMES)
    raw = {key for keys in KEYS.values() for key in keys}
    for name, (title, header) in zip(REPORT_NAMES, tables, strict=True):
        english = set(LATIN_WORD.findall(title)) - ALLOWED_IN_RUSSIAN_TITLES
        assert not english, f"{name}: English left in the title {title!r}: {sorted(english)}"
        assert re.search("[а-яё]{4}", title), title
        assert len(header) == len(KEYS[name]), (name, header)
        for cell in header:
            assert cell not in raw, f"{name}: a raw key as a header: {cell!r}"
            assert not LATIN_WORD.search(cell) and re.search("[а-яё]", cell), f"{name}: {cell!r}"
    assert "обычная" in done.stdout and "бескозырка" in done.stdout, "deal kinds in words, as rules schedule"
    # the locale gives the same as --lang ru
    by_locale = run_cli("stats", "--db", str(club), *EVERY_REPORT, env_extra={"LANG": "ru_RU.UTF-8"})
    assert by_locale.stdout == done.stdout


def test_english_stats_headers_are_words(club: Path) -> None:
    done = run_cli("stats", "--db", str(club), *EVERY_REPORT)
    assert done.returncode == 0, done.stderr
    tables = _tables(done.stdout)
    assert [title for title, _h in tables] == [REPORT_TITLES[name] for name in REPORT_NAMES]
    for name, (_title, header) in zip(REPORT_NAMES, tables, strict=True):
        assert header == [column_label(key) for key in KEYS[name]]
        assert not [cell for cell in header if "_" in cell], (name, header)
    assert not re.search("[а-яё]{4}", "".join(title for title, _h in tables))


@pytest.mark.slow
def test_json_csv_and_query_keep_the_keys_in_russian(club: Path) -> None:
    everything = json.loads(run_cli("--lang", "ru", "stats", "--db", str(club), "-f", "json").stdout)
    assert list(everything) == list(REPORT_NAMES)
    for name, rows in everything.items():
        assert rows and list(rows[0]) == KEYS[name], name
    lines = run_cli("--lang", "ru", "stats", "--db", str(club), "-f", "jsonl").stdout.splitlines()
    assert {tuple(json.loads(line)) for line in lines} == {("report", *KEYS[n]) for n in REPORT_NAMES}
    for name in ("leaderboard", "ratings"):
        csv = run_cli("--lang", "ru", "stats", "--db", str(club), "--report", name, "-f", "csv").stdout
        assert csv.splitlines()[0] == ",".join(KEYS[name])
    kinds = json.loads(run_cli("--lang", "ru", "stats", "--db", str(club), "--report", "deal_kinds",
                               "-f", "json").stdout)
    assert {row["kind"] for row in kinds} >= {"normal", "no-trump"}, "JSON keeps the kinds' names"
    # query prints the columns as the SQL named them, whatever the language
    query = run_cli("--lang", "ru", "query", "SELECT 4 AS players, 0.5 AS win_rate", "--db", str(club))
    assert _tables(query.stdout)[0][1] == ["players", "win_rate"]


def test_rules_tables_have_russian_headers() -> None:
    for args in (["rules", "list"], ["rules", "show", "raspisnoy"],
                 ["rules", "schedule", "raspisnoy", "-p", "Анна, Борис, Вера"]):
        done = run_cli("--lang", "ru", *args)
        assert done.returncode == 0, done.stderr
        (_title, header), = _tables(done.stdout)
        assert not [cell for cell in header if LATIN_WORD.search(cell)], (args, header)


def test_the_cli_uses_the_club_pages_russian_words(russian: None) -> None:
    same = {"rating": "rating", "ordinal": "ordinal", "games": "games", "change": "change", "wins": "wins",
            "win_rate": "win_rate", "mean_total": "mean_total", "mean_per_deal": "per_deal",
            "relative_per_deal": "relative", "player": "player", "pool": "pool",
            "rules": "rules", "kind": "kind", "cards": "cards", "bid_position": "seat"}
    words = report_strings()
    for column, word in same.items():
        assert column_label(column) == words[word].lower(), column
    assert all(_(label) != label for label in COLUMN_LABELS.values()), "every label has its Russian"


def test_a_wide_table_folds_its_headers_not_its_values() -> None:
    header = ["правила", "место", "игрок", "рейтинг", "неуверенность", "надёжный", "игр", "изменение",
              "последняя игра"]
    rows = [["raspisnoy", "1", "Дмитрий", "25.80", "7.78", "2.46", "4", "0.80", "2026-11-27"]] * 3
    widths = fit_widths(header, rows, 80)
    assert widths is not None and sum(widths) + 3 * len(widths) + 1 <= 80
    out = io.StringIO()
    table = Table(show_lines=False)
    for name, width in zip(header, widths, strict=True):
        table.add_column(name, overflow="fold", width=width)
    for row in rows:
        table.add_row(*row)
    Console(file=out, width=80, color_system=None).print(table)
    body = [line for line in out.getvalue().splitlines() if line.startswith("│")]
    assert len(body) == 3, "one line a row: no value folded"
    assert all(value in body[0] for value in rows[0])
    assert fit_widths(["a", "b"], [["1", "2"]], 80) is None, "a table that fits is left as it is"
    assert fit_widths(["name"], [["x" * 90]], 80) is None, "cells too wide: rich folds them"


def _rows(text: str) -> list[list[str]]:
    """The cells of every body row of the piped tables in ``text``."""
    return [[c.strip() for c in line.strip("│").split("│")] for line in text.splitlines()
            if line.startswith("│")]


def test_russian_rules_show_and_list_explain_in_russian() -> None:
    from raspis_cli.rules import OPTIONS, PRESETS

    # the words a meaning may quote: option names and values, preset ids, card codes
    data = {"raspisnoy", "com", "RJ", "BJ", "7S", "6S", "none"} | set(PRESETS) | {
        preset.rstrip("0123456789") for preset in PRESETS} | {
        word for name, spec in OPTIONS.items() for text in (name, *spec.choices)
        for word in LATIN_WORD.findall(text)}
    shown = run_cli("--lang", "ru", "rules", "show", "raspisnoy")
    title = shown.stdout.splitlines()[0]
    assert title.startswith("raspisnoy: Расписной покер"), title
    meanings = " ".join(row[-1] for row in _rows(shown.stdout))  # the setting as typed, then its meaning
    assert len(_rows(shown.stdout)) >= len(OPTIONS)
    assert "очков за каждую заказанную взятку" in meanings
    english = sorted(set(LATIN_WORD.findall(meanings + title)) - data)
    assert not english, f"English meanings under --lang ru: {english}"
    listed = run_cli("--lang", "ru", "rules", "list")
    descriptions = " ".join(row[2] for row in _rows(listed.stdout))
    assert not sorted(set(LATIN_WORD.findall(descriptions)) - data)
    assert "Грузинский покер" in descriptions
    # JSON keeps the preset files' own English text (a contract)
    as_json = json.loads(run_cli("--lang", "ru", "rules", "list", "--format", "json").stdout)
    assert as_json[0]["description"].startswith("Raspisnoy poker as the raspisnoy.com edition")


@pytest.mark.slow
def test_russian_stats_rows_say_joker_modes_and_restrictions_in_words(club: Path) -> None:
    done = run_cli("--lang", "ru", "stats", "--db", str(club), "--report", "joker_outcomes",
                   "--report", "dealer_record")
    assert done.returncode == 0, done.stderr
    rows = _rows(done.stdout)
    jokers = {(row[0], row[1]) for row in rows if len(row) == len(KEYS["joker_outcomes"])}
    restrictions = {row[1] for row in rows if len(row) == len(KEYS["dealer_record"])}
    assert ("забрать", "в ответ") in jokers and ("по старшим", "заходом") in jokers, jokers
    assert restrictions == {"сумма ≠ картам"}, restrictions
    assert not [cell for pair in jokers for cell in pair if LATIN_WORD.search(cell)], jokers
    english = run_cli("--lang", "en", "stats", "--db", str(club), "--report", "joker_outcomes")
    assert {(row[0], row[1]) for row in _rows(english.stdout)} >= {("take", "follow"), ("high", "lead")}
    # JSON and CSV keep the values as stored, whatever the language
    as_json = json.loads(run_cli("--lang", "ru", "stats", "--db", str(club), "--report", "joker_outcomes",
                                 "--format", "json").stdout)
    assert {row["joker_mode"] for row in as_json} >= {"take", "high"}
    assert {row["played_as"] for row in as_json} == {"lead", "follow"}
    as_csv = run_cli("--lang", "ru", "stats", "--db", str(club), "--report", "dealer_record",
                     "--format", "csv").stdout
    assert ",sum," in as_csv


def test_the_marked_preset_descriptions_are_the_files_own() -> None:
    # PRESET_DESCRIPTIONS repeats each preset file's description for the catalogue: a file
    # whose description changes must change it too, or its Russian would be lost
    from raspis_cli.rules import PRESET_DESCRIPTIONS, PRESETS, preset_description

    assert tuple(preset_description(name) for name in PRESETS) == PRESET_DESCRIPTIONS
