"""A problem at a place, and how it is shown: the one diagnostic type.

Every layer reports what it finds as a :class:`Diagnostic`: the reader a line
it cannot read (``kind`` ``syntax``, a numbered ``code`` such as ``E303``),
the decoding layer bytes it cannot decode (``E002``) or a file it cannot open
(``E001``), the replay a rule broken (``kind`` ``follow-suit``, with the deal,
trick and player). :func:`render` shows any of them the same way::

    game.rsp:14:12: E303: expected a card like 10♥, TH or Д♠, got '1O♥'
       14 |   trick Анна: 1O♥ 7♥ 9♥
          |               ^

This module is the bottom layer: it imports nothing of the project but
:mod:`raspis_cli.text.textsafe` (what is echoed from a record is escaped, a long
line is shown as an excerpt around the column).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Final

from raspis_cli.text.i18n import language
from raspis_cli.text.messages import Message, as_message, layout, msg
from raspis_cli.text.textsafe import EXCERPT_WIDTH, cut_line, escape_text, show_source_line

__all__ = ["RUSSIAN_TITLES", "SYNTAX", "WARNING", "Diagnostic", "Pos", "Styler", "begins_with_name",
           "kind_counts", "kind_title", "line_error", "located", "render", "syntax_error"]

RUSSIAN_TITLES: Final[dict[str, str]] = {
    "syntax": "запись", "warning": "предупреждение", "rules": "правила", "players": "игроки",
    "dealer-order": "очерёдность сдачи", "schedule": "расписание", "deal-size": "размер раздачи",
    "unknown-card": "чужая карта", "duplicate-card": "карта дважды", "trump": "козырь",
    "bid-order": "порядок заказов", "bid-range": "заказ вне пределов",
    "dealer-restriction": "запрет сдающему",
    "third-pass": "третий пас", "wrong-turn": "ход не в очередь", "not-in-hand": "карты нет на руке",
    "follow-suit": "ренонс", "must-trump": "не покрыл козырем", "joker-mode": "объявление джокера",
    "joker-demand": "требование джокера", "trick-count": "число взяток", "taken-mismatch": "взятки "
                                                                                           "не сходятся",
    "taken-sum": "сумма взяток", "score-mismatch": "очки не сходятся", "total-mismatch": "сумма не сходится",
    "penalty": "штраф", "replay": "пересдача",
}
"""What a Russian reader sees for each violation kind (and a reading warning)
where an English one sees the kind itself, the word of the JSON contract."""

def kind_title(kind: str, lang: str | None = None) -> str:
    """A violation kind as ``lang`` (the language in force by default) calls
    it: the kind itself in English (``schedule``), its title in Russian
    (``расписание``)."""
    if (lang or language()) == "ru":
        return RUSSIAN_TITLES.get(kind, kind)
    return kind


def kind_counts(kinds: Iterable[str]) -> str:
    """How many problems of each kind, by the kind's name in the language in
    force, alphabetically: ``bid-order 1, syntax 3`` (``запись 3, …``)."""
    counts: dict[str, int] = {}
    for kind in kinds:
        title = kind_title(kind)
        counts[title] = counts.get(title, 0) + 1
    return ", ".join(f"{title} {n}" for title, n in sorted(counts.items()))


SYNTAX = "syntax"
"""The kind of every problem found while reading (its ``code`` says which)."""

WARNING = "warning"
"""The kind of a reading warning (code ``W…``): reported, but the line was
read one way of two and the game stays valid."""


@dataclass(frozen=True, slots=True)
class Pos:
    """A place in a source file: 1-based line and column."""

    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.line}:{self.column}"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem: its kind (a violation kind of docs/RECORD-JSON.md, or
    ``syntax``), what is wrong as a :class:`~raspis_cli.text.messages.Message`
    (data: a msgid and typed parameters, made words only when shown), and
    where: the deal, trick and player it concerns, the source position, the
    file.

    ``code`` is the numbered code of a reading problem (``E303``, ``J002``);
    ``source`` the text of the line it is on, when the reader kept it."""

    kind: str
    message: Message
    deal: int | None = None
    trick: int | None = None
    player: str | None = None
    pos: Pos | None = None
    code: str = ""
    path: str = ""
    source: str = ""
    shift: int = 0
    """``source`` is an excerpt of a long line (:func:`~raspis_cli.text.textsafe.cut_line`):
    ``column - shift`` points into it."""

    def __post_init__(self) -> None:
        # a long line is kept as an excerpt around the column, never whole
        if len(self.source) > EXCERPT_WIDTH and not self.shift and self.pos is not None:
            cut, shift = cut_line(self.source, self.pos.column)
            object.__setattr__(self, "source", cut)
            object.__setattr__(self, "shift", shift)

    @property
    def is_warning(self) -> bool:
        """A warning (code ``W…``): the line was read; the game stays valid."""
        return self.kind == WARNING

    @property
    def line(self) -> int | None:
        """The 1-based source line, if known."""
        return None if self.pos is None else self.pos.line

    @property
    def column(self) -> int | None:
        """The 1-based source column, if known."""
        return None if self.pos is None else self.pos.column

    @property
    def label(self) -> str:
        """What the problem is called in text, in the language in force: its
        code (``warning: W301`` for a warning), else its kind (``schedule``;
        in Russian the kind's title, ``расписание``)."""
        return self.label_in(language())

    def label_in(self, lang: str) -> str:
        """:attr:`label` in ``lang``."""
        if self.kind == WARNING:
            word = RUSSIAN_TITLES[WARNING] if lang == "ru" else WARNING
            return f"{word}: {self.code}" if self.code else word
        return self.code or kind_title(self.kind, lang)

    def full_message(self) -> Message:
        """The message, preceded by the code of a reading problem (``E303: ...``)."""
        return layout("{code}: {message}", code=self.code,
                      message=self.message) if self.code else self.message

    def text(self) -> str:
        """:meth:`full_message` in the language in force."""
        return _excerpt(self.full_message().shown())

    def canonical_text(self) -> str:
        """:meth:`text` as it is stored: in English whatever the language in
        force (the JSON contract, the ``violations`` table)."""
        return _excerpt(self.full_message().english())

    def message_data(self) -> dict[str, object]:
        """The message as data (:meth:`~raspis_cli.text.messages.Message.to_data`):
        what ``--format json`` and the ``violations`` table carry beside the
        English text, from which a page says it again in its reader's language."""
        return self.message.to_data()

    def to_json(self) -> dict[str, object]:
        """The violation object of ``validate --format json`` (docs/RECORD-JSON.md)."""
        out: dict[str, object] = {"kind": self.kind}
        if self.deal is not None:
            out["deal"] = self.deal
        if self.trick is not None:
            out["trick"] = self.trick
        if self.player is not None:
            out["player"] = self.player
        if self.pos is not None:
            out["line"] = self.pos.line
            out["column"] = self.pos.column
        out["message"] = self.canonical_text()
        if self.code:
            out["code"] = self.code
        out["data"] = self.message_data()
        return out

    def render(self) -> str:
        """:func:`render` as one string, with the file name the diagnostic carries."""
        return "\n".join(render(self))

    def __str__(self) -> str:
        return render(self)[0]


def _excerpt(message: str) -> str:
    """A message quoting a long token is shown as an excerpt, never whole."""
    if len(message) <= 2 * EXCERPT_WIDTH:
        return message
    return message[:EXCERPT_WIDTH] + "…" + message[-EXCERPT_WIDTH // 2:]


def syntax_error(code: str, message: Message | str, line: int | None = None, column: int | None = None,
                 source: str = "", path: str = "") -> Diagnostic:
    """A reading problem: numbered ``code``, message, place and the line's text.
    Its kind is ``syntax``, or ``warning`` for a ``W…`` code (the line was read)."""
    pos = None if line is None else Pos(line, column or 1)
    return Diagnostic(WARNING if code.startswith("W") else SYNTAX, as_message(message), pos=pos, code=code,
                      path=path, source=source)


def line_error(code: str, message: Message, column: int) -> Diagnostic:
    """What is wrong with one line, before the reader knows the line's number
    (line 0): the grammar returns it and the reader places it."""
    return Diagnostic("syntax", message, pos=Pos(0, column), code=code)


def begins_with_name(text: str, name: str) -> bool:
    """Whether a message begins with the player's name (``Вера: 8♠ на заход…``,
    ``Вера played 8♠``): the name is then not said again before it."""
    return text.startswith(name) and text[len(name):][:1] in (" ", ":", ",")


def located(d: Diagnostic, lang: str | None = None) -> str:
    """The message in ``lang`` (the language in force by default) with the
    deal, trick and player it concerns before it (``deal 3, trick 2, Анна:
    …``); the player is left out when the message itself begins with the
    name, so it is never said twice."""
    if lang is None:
        lang = language()
    text = d.message.render(lang)
    context = [msg("deal {number}", number=d.deal).render(lang)] if d.deal is not None else []
    if d.trick is not None:
        context.append(msg("trick {number}", number=d.trick).render(lang))
    if d.player is not None and not begins_with_name(text, d.player):
        context.append(d.player)
    return f"{', '.join(context)}: {text}" if context else text


Styler = Callable[[str, str], str]
"""``style(role, text)``: how a part of a rendered diagnostic is shown; roles
are ``where``, ``label``, ``text``, ``source`` and ``caret``. The default
returns the text as it is; the CLI passes one that adds colour."""


def _plain(_role: str, text: str) -> str:
    return text


def render(d: Diagnostic, path: str | None = None, source: str | None = None,
           style: Styler = _plain, shift: int = 0) -> list[str]:
    """The lines that show a diagnostic: ``file:line:col: LABEL: deal D, trick
    T, PLAYER: message``, then, when the source line is known (``source``,
    else the one the diagnostic carries), the line under its number and a
    caret under the column (``shift``: what to subtract from the column to
    point into a given ``source`` that is an excerpt). ``path`` overrides the
    file name it carries."""
    where = path if path is not None else d.path
    if d.pos is not None:
        where = f"{where}:{d.pos.line}:{d.pos.column}" if where else f"{d.pos.line}:{d.pos.column}"
    head = (style("where", escape_text(where) + ":") + " " if where else "") \
        + style("label", d.label + ":") + " "
    lines = [head + style("text", escape_text(_excerpt(located(d))))]
    if source is None:  # the line the diagnostic carries, and its own shift
        shift = d.shift
    text = source if source is not None else d.source
    if d.pos is not None and text and text.strip():
        # an excerpt around the column, escaped; the caret stands under the column
        shown, pad = show_source_line(text, max(d.pos.column - shift, 1))
        gutter = f"{d.pos.line:>5} | "
        lines.append(gutter + style("source", shown))
        lines.append(" " * (len(gutter) - 2) + "| " + style("caret", pad + "^"))
    return lines
