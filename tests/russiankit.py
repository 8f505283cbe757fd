"""Russian as a native speaker writes it: checks for any text raspis shows.

:func:`problems` reads a Russian output (a terminal's text or a page's visible
text) and returns what a Russian reader would stumble on:

* **Latin words** outside what is the same in both languages: option names
  (``pass_made``), codes (``E303``), preset and command names, formats, what
  is typed after ``=`` or ``--format``, and the words of the records
  themselves (a player called Boris, a tag value, a source line shown under a
  problem); option values, kinds of deal, violation kinds and the notation's
  keywords are shown in Russian words, quoted or not;
* **card ranks in Latin letters** (``Q♦``): Russian text writes ``Д♦``, in
  quotes too;
* **typography**: a hyphen for the minus (``−10``), straight quotes
  (``«недоиграна»``), a hyphen in a range (``0–1``), except in a record meant
  to be read back (``fmt``, ``new``);
* **a count with the wrong plural form** (``3 игроки``, ``5 игрока``) for
  the nouns raspis counts, and the old ``игрок-раздач``;
* **a masculine past-tense verb about a player** (``Вера заказ 1, взял 2``):
  names carry no grammatical gender here, so the words after a name are
  neutral (``Вера: взято 2``);
* **a name bent out of the nominative** (``платит Борису``): phrases are
  built so that a name stays as it is written;
* **a decimal point** (``5.60``) where Russian writes a comma;
* **a second word for a game** (``игра``): a game of cards is a ``партия``.

The checks are general: they know no particular message, so a new string
written anywhere (by any command) is held to them by
``tests/test_russian_text.py``, which renders every command and page.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from raspis_cli.rules import PRESETS
from raspis_cli.rules.options import OPTIONS

__all__ = ["CASE_WORDS", "NOUNS", "plural_form", "problems", "record_phrases", "record_words",
           "visible_lines"]

SAME_IN_BOTH = {
    # formats, file types, brands and tools that have no Russian name
    "text", "json", "jsonl", "csv", "markdown", "table", "notation", "html", "HTML", "JSON", "JSONL", "CSV",
    "SQL", "DuckDB", "Parquet", "UTF", "BOM", "PIMC", "openskill", "raspis", "rsp", "duckdb", "svg",
    "Ctrl", "Enter", "com", "Windows",
    # a stored column as SQL names it (load's summary: the games flagged valid = false)
    "valid",
    # card spellings the reader takes, shown as what a person may type (10♥, TH or Д♠), and the
    # jokers of 54 cards, which the notation writes RJ and BJ in either language
    "TH", "RJ", "BJ",
}
"""Latin words a Russian text may carry: data formats and names of tools.
Option values, kinds, violation kinds and the notation's English keywords
are not among them: a Russian reader is shown the Russian words (a value
typed after ``=`` or as an option's argument is checked where it is typed,
not here)."""

COMMANDS = {"fmt", "convert", "validate", "score", "show", "simulate", "load", "stats", "query", "export",
            "rules", "list", "schedule", "new", "live", "explain", "analyze", "report"}

_CODE = re.compile(r"\b[EWJ]\d{3}\b")
_OPTION_FLAG = re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*")
_PATH = re.compile(r"\S*[/\\]\S*|\S+\.(?:rsp|json|jsonl|duckdb|html|csv|parquet|md|com|ru|org)\b")
_SOURCE_ECHO = re.compile(r"^\s*\d*\s*\|")
_LATIN_WORD = re.compile(r"(?<![\w-])[A-Za-z][A-Za-z]+(?:[-_][A-Za-z]+)*(?![\w-])")
_LATIN_RANK = re.compile(r"(?<![\w])[JQKA][♠♣♦♥]")


def visible_lines(text: str) -> list[str]:
    """The lines of a Russian output to check: a source line shown under a
    problem (``   14 | 2. 2 Boris K♣ …``) and its caret are the record's own
    text, not raspis's words."""
    return [line for line in text.splitlines() if not _SOURCE_ECHO.match(line)]


def record_words(*texts: str) -> set[str]:
    """The Latin words of records (their names, tags, comments): a Russian
    output may quote them as they are written."""
    return {w for text in texts for w in _LATIN_WORD.findall(text)}


def _allowed() -> set[str]:
    words = set(SAME_IN_BOTH) | COMMANDS | set(PRESETS) | set(OPTIONS)
    words |= {preset.rstrip("0123456789") for preset in PRESETS}  # joker54, online36 as the pattern cuts them
    # the names of stats reports, as typed after --report (stats' overview names them)
    from raspis_cli.store.schema import REPORTS

    words |= set(REPORTS)
    return words


_TYPED_VALUE = re.compile(r"(?<==)[A-Za-z][\w,-]*|(?<== )[a-z]+\b|(?<=--format )[a-z]+|(?<=--to )[a-z]+"
                          r"|(?<=\[)[A-Z]\w*|\"[A-Za-z_]+\"|\b[a-z_]+\[\d+\](?:\.[a-z_]+)*")
"""What is typed as it is (``--set void=free``, ``--format json``, a tag's
name ``[Players``, a JSON record's key ``"bids"`` and path ``deals[0].bids``):
the notation's and the command line's words, not the text's."""


def latin_words(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """Latin words in ``text`` that a Russian reader would not expect."""
    ok = _allowed() | set(allowed)
    out = []
    for line in visible_lines(text):
        line = _OPTION_FLAG.sub(" ", _CODE.sub(" ", _PATH.sub(" ", _TYPED_VALUE.sub(" ", line))))
        for word in _LATIN_WORD.findall(line):
            if word not in ok and not all(part in ok or len(part) == 1 for part in re.split(r"[-_]", word)):
                out.append(word)
    return out


def latin_ranks(text: str) -> list[str]:
    """Cards written with a Latin rank letter (``Q♦``): Russian text writes ``Д♦``."""
    return [m for line in visible_lines(text) for m in _LATIN_RANK.findall(line)]


# --- plural forms ---------------------------------------------------------------------------------------

NOUNS: dict[str, tuple[str, str, str]] = {
    "партия": ("партия", "партии", "партий"),
    "раздача": ("раздача", "раздачи", "раздач"),
    "игрок": ("игрок", "игрока", "игроков"),
    "взятка": ("взятка", "взятки", "взяток"),
    "карта": ("карта", "карты", "карт"),
    "очко": ("очко", "очка", "очков"),
    "нарушение": ("нарушение", "нарушения", "нарушений"),
    "файл": ("файл", "файла", "файлов"),
    "выборка": ("выборка", "выборки", "выборок"),
    "ошибка": ("ошибка", "ошибки", "ошибок"),
    "предупреждение": ("предупреждение", "предупреждения", "предупреждений"),
    "строка": ("строка", "строки", "строк"),
    "заказ": ("заказ", "заказа", "заказов"),
    "пас": ("пас", "паса", "пасов"),
    "цифра": ("цифра", "цифры", "цифр"),
    "знак": ("знак", "знака", "знаков"),
    "поправка": ("поправка", "поправки", "поправок"),
    "исправление": ("исправление", "исправления", "исправлений"),
    "решение": ("решение", "решения", "решений"),
    "процесс": ("процесс", "процесса", "процессов"),
    "секунда": ("секунда", "секунды", "секунд"),
    "штраф": ("штраф", "штрафа", "штрафов"),
}
"""The nouns raspis counts, in their three counting forms (1, 2–4, 5–20)."""

_FORM_OF = {form: (noun, i) for noun, forms in NOUNS.items() for i, form in enumerate(forms)}
_COUNT = re.compile(r"(?<![\w,.])(?P<pre>(?:[а-яё]+\s+)?)(?P<n>\d+(?:,\d+)?)\s+(?P<word>[а-яё]+)\b",
                    re.IGNORECASE)
CASE_WORDS = {"из", "до", "от", "с", "со", "после", "около", "более", "менее", "больше", "меньше", "на",
              "в", "по", "для", "без", "кроме", "вместо", "среди", "при", "о", "об", "к", "за", "под", "над",
              "перед", "между", "чем", "раздача", "раздаче", "раздачи", "взятка", "взятке", "номер", "номера"}
"""Words after which a count takes another case, or the number is a label (``раздача 5 игрока``)."""


def plural_form(n: int) -> int:
    """The Russian counting form of ``n``: 0 (1, 21), 1 (2–4, 22–24), 2 (0, 5–20, 25…)."""
    if n % 10 == 1 and n % 100 != 11:
        return 0
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return 1
    return 2


def wrong_plurals(text: str) -> list[str]:
    """Counts followed by the wrong form of a counted noun (``3 игроки``, ``5 игрока``)."""
    out = []
    for line in visible_lines(text):
        for m in _COUNT.finditer(line):
            pre = m.group("pre").strip().lower()
            word = m.group("word").lower()
            if word not in _FORM_OF and word not in {"игроки", "карты", "очки", "раздачи"}:
                continue
            if pre in CASE_WORDS:
                continue
            number = m.group("n")
            if word in {"игроки", "очки"} and word not in _FORM_OF:
                out.append(m.group(0).strip())
                continue
            form = _FORM_OF[word][1]
            want = 1 if "," in number else plural_form(int(number))
            if form != want:
                out.append(m.group(0).strip())
    out += re.findall(r"игрок-раздач\w*", text)
    return out


# --- names and gender -------------------------------------------------------------------------------------

NOT_VERBS = {"финал", "канал", "интервал", "материал", "сигнал", "идеал", "журнал", "стол", "пол", "угол",
             "итог", "порог", "срок", "налог", "диалог", "каталог", "урок", "поток", "кусок", "звонок",
             "игрок", "ход", "мизер", "список", "остаток", "порядок", "недостаток", "эпилог", "пролог",
             "вывод", "совет", "мог", "бок", "ряд", "ел", "пропуск", "расчёт", "ввод", "выход", "вход",
             "смысл", "знак", "заказ", "объявлений", "итогов", "сдающий", "анализ", "раз", "год"}
"""Words that end like a past-tense masculine verb and are not verbs (``итог``)."""

_VERB = re.compile(r"^(?:[а-яё]+(?:ал|ял|ел|ил|ыл|ул|ёл)(?:ся)?|[а-яё]*(?:мог|ёк|ёс|рос|лёг|шёл)(?:ся)?)$",
                   re.IGNORECASE)


def masculine_after_names(text: str, names: Iterable[str]) -> list[str]:
    """A past-tense masculine verb in the clause that starts with a player's
    name (``Анна взял``, ``Вера заказ 1, взял 2``, ``Борис мог обеспечить``)."""
    out: list[str] = []
    listed = sorted(set(names), key=len, reverse=True)
    if not listed:
        return out
    name_re = re.compile(r"(?<![\w])(?:" + "|".join(re.escape(n) for n in listed) + r")(?![\w])")
    for line in visible_lines(text):
        for m in name_re.finditer(line):
            clause = re.split(r"[.;()\[\]|│·—]", line[m.end():], maxsplit=1)[0]
            for word in re.findall(r"(?:не\s+)?[а-яёА-ЯЁ]+", clause):
                bare = word.split()[-1].lower()
                if bare in NOT_VERBS or len(bare) < 3:
                    continue
                if _VERB.match(bare):
                    out.append(f"{m.group(0)} … {word}")
    return out


_DATIVE_AFTER = re.compile(
    r"\b(?:платит|платить|отдаёт|передаёт|должен|должна|подарил|подарок)\s+(?P<w>[A-ZА-ЯЁ]\w*)")


def bent_names(text: str, names: Iterable[str]) -> list[str]:
    """A player's name bent by a case ending (``Борису``, ``Анне``) or put
    where Russian would bend it (``платит Борис``): names stay nominative,
    the phrase is built around them (``Вера → Борис: 9,20``)."""
    out = []
    listed = {n for n in names if re.fullmatch(r"[А-ЯЁ][а-яё]+", n)}
    for line in visible_lines(text):
        for m in _DATIVE_AFTER.finditer(line):
            out.append(m.group(0))
        for name in listed:
            stem = name[:-1] if name[-1] in "аяь" else name
            for ending in ("у", "ю", "е", "ы", "и", "ой", "ей", "ом", "ем", "а"):
                bent = stem + ending
                if bent != name and re.search(rf"(?<![\w]){re.escape(bent)}(?![\w])", line):
                    out.append(bent)
    return out


_DECIMAL_POINT = re.compile(r"(?<![\w.])[-+]?\d+\.\d+(?![\w.])")


def decimal_points(text: str) -> list[str]:
    """Decimal fractions written with a point (``5.60``) outside dates and versions."""
    return [m for line in visible_lines(text) for m in _DECIMAL_POINT.findall(line)
            if not re.fullmatch(r"\d+\.\d+\.\d+", m)]


_HYPHEN_MINUS = re.compile(r"(?<![\w/=§-])-\d")
_STRAIGHT_QUOTED = re.compile(r"(?<![\w])'[^'\n]+'(?![\w])")
_HYPHEN_RANGE = re.compile(r"(?<![\w/.:=§-])\d{1,3}-\d{1,3}(?![\w/.:-])")


def typography(text: str) -> list[str]:
    """What Russian typography writes otherwise: a hyphen for the minus
    (``-10``: ``−10``), straight quotes (``'недоиграна'``: ``«недоиграна»``),
    a hyphen between the ends of a range (``0-1``: ``0–1``)."""
    out = []
    for line in visible_lines(text):
        out += _HYPHEN_MINUS.findall(line) + _STRAIGHT_QUOTED.findall(line) + _HYPHEN_RANGE.findall(line)
    return out


_GAME_WORD = re.compile(r"(?<![\w])игр(?:а|ы|е|у|ой|ам|ами|ах)?(?![\wа-яё])", re.IGNORECASE)


def game_words(text: str) -> list[str]:
    """``игра`` in any case: a game of cards is one word everywhere, ``партия``."""
    return [m for line in visible_lines(text) for m in _GAME_WORD.findall(line)]


def record_phrases(*texts: str) -> list[str]:
    """The tag values and comments of records (``Домашняя игра``, ``спор: Борис
    записал …``): quoted as they are written."""
    tags = [m for text in texts for m in re.findall(r'^\[\w+ "([^"\n]+)"\]', text, re.M)]
    comments = [m for text in texts for m in re.findall(r';[ \t]*([^\n]*\S)[ \t]*$', text, re.M)]
    return tags + comments


_KIND_THEN_NUMBER = re.compile(
    r"(?<![\w])(?:обычная|бескозырка|тёмная|мизер|золотая|лобовая) \d+(?![\d,.]*\s*карт)")


def bare_counts(text: str) -> list[str]:
    """A kind of deal followed by a bare number (``обычная 1``): say what is
    counted (``обычная, 1 карта``)."""
    return [m for line in visible_lines(text) for m in _KIND_THEN_NUMBER.findall(line)]


def problems(text: str, *, names: Iterable[str] = (), allowed: Iterable[str] = (),
             phrases: Iterable[str] = (), record: bool = False) -> dict[str, list[str]]:
    """Every check on one Russian output; ``names`` are the players of the
    records shown, ``allowed`` the Latin words of the records themselves,
    ``phrases`` their tag values (left out of the checks). ``record``: the
    output is a record meant to be read back (``fmt``, ``new``), whose minus
    and quotes are the notation's, not typography."""
    names = list(names)
    for phrase in sorted(phrases, key=len, reverse=True):
        text = text.replace(phrase, "§")  # a mark, not a gap: what stood beside it is not made a word
    found = {
        "latin words": latin_words(text, [*allowed, *names]),
        "latin card ranks": latin_ranks(text),
        "wrong plural forms": wrong_plurals(text),
        "masculine verbs after a name": masculine_after_names(text, names),
        "names out of the nominative": bent_names(text, names),
        "decimal points": decimal_points(text),
        "another word for a game": game_words(text),
        "a bare number after a kind": bare_counts(text),
        "typography": [] if record else typography(text),
    }
    return {k: v for k, v in found.items() if v}
