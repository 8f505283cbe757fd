"""What is stored is the same bytes in any locale; translation happens when shown.

The engine builds each message as a :class:`~raspis_cli.text.messages.Message`:
a msgid and typed parameters, made words only when shown. DuckDB and every
``--format json``/``jsonl``/``csv`` output take its English text and its data,
so a club database loaded by two people, one under a Russian locale and one
under an English one, holds one language, and SQL over ``violations.message``
gives one answer. The language is never switched to get there: the same
process shows Russian and stores English.
"""

from __future__ import annotations

import json
import pickle
import random
import re
from pathlib import Path

import duckdb
import pytest

from raspis_cli.judge.check import validate_file
from raspis_cli.model.deal_kinds import DEAL_KINDS
from raspis_cli.model.diagnostics import Diagnostic
from raspis_cli.model.joker_modes import JOKER_MODES
from raspis_cli.model.lines import KEYWORD_SPELLINGS
from raspis_cli.notation.jsoncodec import games_to_json_text
from raspis_cli.rules import Rules
from raspis_cli.rules.options import OPTIONS
from raspis_cli.simulate.game import simulate_game
from raspis_cli.text import i18n
from raspis_cli.text.i18n import _, set_language, speaking
from raspis_cli.text.messages import (
    Message,
    Quoted,
    Seq,
    layout,
    message_of,
    msg,
    msg_n,
    stored_form,
    stored_message,
)
from tests.clikit import run_cli
from tests.faultkit import FAULTS, with_fault
from tests.fuzzkit import mutate, seeds, semantic_mutation
from tests.russiankit import latin_ranks, latin_words, record_words

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "samples").glob("*.rsp"))
RECORDS = SAMPLES + sorted((ROOT / "tests" / "data").rglob("*.rsp")) \
    + sorted((ROOT / "tests" / "data" / "hostile").glob("*.json"))
RUSSIAN = {"LANG": "ru_RU.UTF-8"}
ENGLISH = {"LANG": "C.UTF-8"}


@pytest.fixture
def russian() -> object:
    set_language("ru")
    yield None
    set_language("en")


def _rows(db: Path) -> dict[str, list[tuple[object, ...]]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        tables = [r[0] for r in con.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE' "
            "ORDER BY table_name").fetchall()]
        return {t: con.execute(f'SELECT * FROM "{t}" ORDER BY ALL').fetchall() for t in tables}
    finally:
        con.close()


@pytest.mark.slow
def test_a_load_under_two_locales_stores_the_same_rows(tmp_path: Path) -> None:
    stored = {}
    for name, env in (("ru", RUSSIAN), ("en", ENGLISH)):
        db = tmp_path / f"{name}.duckdb"
        done = run_cli("load", *map(str, RECORDS), "--db", str(db), env_extra=env)
        assert done.returncode == 0, done.stderr
        stored[name] = _rows(db)
    assert stored["ru"] == stored["en"]
    messages = [row for row in stored["en"]["violations"]]
    assert len(messages) > 10, "the records break rules, so the comparison compares messages"
    # English canonical text, whoever loaded: the Russian sentence is only shown
    assert any("'Гена' is not a player of this game" in str(row) for row in messages)
    assert not any("не игрок" in str(row) for row in messages)


MACHINE_OUTPUTS = [
    ("validate", *map(str, SAMPLES), "--format", "json"),
    ("validate", *map(str, RECORDS), "--format", "jsonl"),
    ("score", "samples/raspisnoy-sheet-dispute.rsp", "--format", "json"),
    ("score", "samples/errors-friday.rsp", "--format", "jsonl"),
    ("score", "samples/errors-friday.rsp", "--format", "csv"),
    ("show", "samples/raspisnoy-full-3p.rsp", "--deal", "9", "--format", "json"),
    ("show", "samples/joker54-full.rsp", "--deal", "3", "--format", "jsonl"),
    ("simulate", "-p", "4", "-n", "2", "--seed", "3", "--format", "json"),
    ("rules", "show", "raspisnoy", "--format", "json"),
    ("rules", "list", "--format", "jsonl"),
    ("analyze", "samples/raspisnoy-full-3p.rsp", "--deal", "3", "--format", "json"),
    ("convert", "samples/raspisnoy-full-3p.rsp", "--to", "json"),
]


@pytest.mark.slow
@pytest.mark.parametrize("command", MACHINE_OUTPUTS, ids=lambda c: " ".join(c[:1] + c[-2:]))
def test_machine_readable_output_is_the_same_bytes_in_any_locale(command: tuple[str, ...]) -> None:
    english = run_cli(*command, env_extra=ENGLISH)
    russian = run_cli(*command, env_extra=RUSSIAN)
    assert english.stdout, english.stderr
    assert (russian.returncode, russian.stdout) == (english.returncode, english.stdout)


@pytest.mark.slow
def test_stats_and_query_json_are_the_same_bytes_in_any_locale(tmp_path: Path) -> None:
    db = tmp_path / "club.duckdb"
    assert run_cli("load", *map(str, SAMPLES), "--db", str(db)).returncode == 0
    for command in (("stats", "--db", str(db), "--format", "json"),
                    ("query", "SELECT kind, message FROM violations ORDER BY ALL", "--db", str(db),
                     "--format", "json")):
        english = run_cli(*command, env_extra=ENGLISH)
        russian = run_cli(*command, env_extra=RUSSIAN)
        assert english.returncode == 0, english.stderr
        assert russian.stdout == english.stdout


def test_the_russian_text_output_stays_russian() -> None:
    """The same run that stores English shows Russian: no switch of language."""
    done = run_cli("validate", "samples/errors-friday.rsp", env_extra=RUSSIAN)
    assert "«Гена» — не игрок этой партии" in done.stdout
    assert "is not a player" not in done.stdout


def _corpus(rnd: random.Random, tmp_path: Path) -> list[Path]:
    """Records that break every kind of rule: the samples and test records,
    one injected fault of each kind per simulated game, byte and semantic
    mutations (seeded: the same files on every run)."""
    paths = list(RECORDS)
    for seed, (preset, players) in enumerate((("raspisnoy", 3), ("joker54", 4), ("classic", 4))):
        game = simulate_game(Rules.preset(preset), players, 40 + seed, detail="full")
        for fault in FAULTS:
            broken, expected = with_fault(game, fault, rnd)
            if expected is not None:
                path = tmp_path / f"{preset}-{fault}.json"
                path.write_text(games_to_json_text([broken]), encoding="utf-8")
                paths.append(path)
    originals = seeds()
    for i in range(150):
        path = tmp_path / f"bytes-{i}.rsp"
        path.write_bytes(mutate(rnd.choice(originals), rnd))
        paths.append(path)
    for i in range(60):
        path = tmp_path / f"semantic-{i}.json"
        path.write_text(semantic_mutation(rnd), encoding="utf-8")
        paths.append(path)
    return paths


@pytest.mark.slow
def test_every_message_built_in_russian_keeps_its_english_text(tmp_path: Path) -> None:
    """Differential: each file validated under Russian, its canonical JSON,
    equals the same file validated under English. A message built with an
    f-string or ``str.join`` around a translated part fails here."""
    paths = _corpus(random.Random(29), tmp_path)
    differ = []
    try:
        for path in paths:
            set_language("en")
            english = validate_file(str(path), as_json=True).to_json()
            set_language("ru")
            russian = validate_file(str(path), as_json=True).to_json()
            if russian != english:
                shown = json.dumps(russian, ensure_ascii=False, default=stored_form)
                differ.append(f"{path.name}: {shown[:400]}")
    finally:
        set_language("en")
    assert len(paths) > 100
    assert not differ, "\n".join(differ[:5])


def test_a_message_is_data_made_words_only_when_shown() -> None:
    """A message is its msgid and typed parameters: shown in either language
    from the same object, stored as JSON data and said again from it, copied
    across processes; it is no ``str``, so it cannot be stored as words."""
    deal = msg("deal {number}", number=3)
    message = msg("{name} is not a player of this game", name=Quoted("Гена"))
    line = layout("{deal}: {message}", deal=deal, message=message)
    assert line.render("en") == "deal 3: 'Гена' is not a player of this game"
    assert line.render("ru") == "раздача 3: «Гена» — не игрок этой партии"
    cards = msg_n("{n} card", "{n} cards", 5, n=5)
    assert (cards.render("ru"), cards.english()) == ("5 карт", "5 cards")
    both = Message.joined("; ", [deal, cards])
    assert (both.english(), both.render("ru")) == ("deal 3; 5 cards", "раздача 3; 5 карт")
    stored = json.loads(json.dumps(line.to_data(), ensure_ascii=False))
    assert Message.from_data(stored) == line
    assert stored["params"]["message"]["message"]["params"] == {"name": {"quoted": "Гена"}}
    assert message_of(ValueError(message)) is message, "an exception passes its message on"
    copied = pickle.loads(pickle.dumps(line))  # across the load's worker processes
    assert copied == line
    assert not isinstance(line, str)
    assert json.dumps({"m": line}, default=stored_form, ensure_ascii=False) == (
        '{"m": "deal 3: \'Гена\' is not a player of this game"}')


def test_underscore_translates_at_once_into_a_plain_string(russian: None) -> None:
    assert type(_("deal {number}")) is str
    set_language("en")
    assert type(_("deal {number}").format(number=3)) is str
    assert i18n.language() == "en"


@pytest.fixture(scope="module")
def corpus_problems(tmp_path_factory: pytest.TempPathFactory) -> list[Diagnostic]:
    """Every problem the fuzzed corpus gives (read once for the tests below)."""
    found: list[Diagnostic] = []
    for path in _corpus(random.Random(29), tmp_path_factory.mktemp("corpus")):
        report = validate_file(str(path))
        found += list(report.syntax) + [p for r in report.results for p in r.problems]
        found += [report.error] if report.error is not None else []
    return found


@pytest.mark.slow
def test_a_stored_message_shows_as_validate_shows_it(corpus_problems: list[Diagnostic]) -> None:
    """Differential: every message of the fuzzed corpus, stored as the
    database keeps it (its data as JSON text) and said again in Russian
    (``raspis serve``'s page of a stored game), is what ``validate`` shows
    under Russian, and its English is the stored English text: every one,
    with no reading back of English."""
    templates: set[str] = set()
    differ = []
    with speaking("ru"):
        for p in corpus_problems:
            data = json.dumps(p.message_data(), ensure_ascii=False)
            again = Message.from_data(json.loads(data))
            templates.add(p.message.template)
            if (again.shown(), again.english()) != (p.message.shown(), p.message.english()):
                differ.append((again.shown(), p.message.shown()))
            if stored_message(p.canonical_text(), data) != p.message.shown():
                differ.append((stored_message(p.canonical_text(), data), p.message.shown()))
    assert len(templates) > 60, len(templates)
    assert not differ, differ[:5]


def _written(value: object) -> list[str]:
    """What a message's parameters hold as a person wrote it (names, quoted text)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, Quoted):
        return _written(value.text)
    if isinstance(value, BaseException):
        return _written(message_of(value))
    if isinstance(value, Message):
        return [w for _, v in value.params for w in _written(v)]
    if isinstance(value, Seq):
        return [w for item in value.items for w in _written(item)]
    return []


NOTATION_WORDS = {w for words in KEYWORD_SPELLINGS.values() for w in words if w.isascii()} \
    | set(JOKER_MODES) | set(DEAL_KINDS) | {"none", "RJ", "BJ"}
"""The notation's English words, as a line written in English uses them."""
OPTION_VALUES = {str(c) for spec in OPTIONS.values() for c in (getattr(spec, "choices", None) or ())}


def _templates(value: object) -> list[str]:
    """The templates of a message and of the messages inside it."""
    if isinstance(value, BaseException):
        return _templates(message_of(value))
    if isinstance(value, Message):
        return [value.template] + [t for _, v in value.params for t in _templates(v)]
    if isinstance(value, (Seq, Quoted)):
        items = value.items if isinstance(value, Seq) else (value.text,)
        return [t for item in items for t in _templates(item)]
    return []


@pytest.mark.slow
def test_every_message_of_the_fuzzed_corpus_is_wholly_russian(corpus_problems: list[Diagnostic]) -> None:
    """Each message the fuzzed corpus gives, said in Russian, has no Latin word
    and no Latin card rank but what a person wrote (a name, a quoted token)."""
    leaks: dict[str, str] = {}
    seen: set[str] = set()
    with speaking("ru"):
        for p in corpus_problems:
            text = p.message.shown()
            seen.add(p.message.template)
            written = _written(p.message)
            cut = text
            for w in sorted(written, key=len, reverse=True):
                if len(w) > 1:
                    cut = cut.replace(w, " ")
            allowed = record_words(*written)
            if written and not any(re.search("[а-яёА-ЯЁ]", w) for w in written):
                allowed |= NOTATION_WORDS  # a line written in English is answered in its words
            if any("option" in t for t in _templates(p.message)):
                allowed |= OPTION_VALUES  # the values an option takes, as they are typed
            bad = latin_words(cut, allowed) + ([] if allowed & NOTATION_WORDS else latin_ranks(cut))
            if bad:
                leaks.setdefault(p.message.template, f"{text} {bad}")
    assert len(seen) > 60
    assert not leaks, "\n".join(list(leaks.values())[:20])


def test_a_row_stored_before_messages_were_data_is_shown_as_stored() -> None:
    """A database row of an older raspis has no message data: its English text
    is shown as it is; data that cannot be read (a crafted database) too."""
    with speaking("ru"):
        assert stored_message("deal 2: the comment is empty", None) == "deal 2: the comment is empty"
        assert stored_message("as stored", "{not json") == "as stored"
        data = json.dumps(msg("deal {number}", number=2).to_data())
        assert stored_message("deal 2", data) == "раздача 2"
