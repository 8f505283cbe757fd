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

from collections.abc import Callable
from dataclasses import dataclass

from raspis_cli.text.i18n import Text, _, canonical_text
from raspis_cli.text.textsafe import EXCERPT_WIDTH, cut_line, escape_text, show_source_line

__all__ = ["SYNTAX", "WARNING", "Diagnostic", "Pos", "Styler", "line_error", "render", "syntax_error"]

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
    ``syntax``), a message in words, and where: the deal, trick and player it
    concerns, the source position, the file.

    ``code`` is the numbered code of a reading problem (``E303``, ``J002``);
    ``source`` the text of the line it is on, when the reader kept it."""

    kind: str
    message: str
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
        # a long line is kept as an excerpt around the column, never whole,
        # and so is a message quoting a long token
        if len(self.message) > 2 * EXCERPT_WIDTH:
            short = Text(_excerpt(self.message), _excerpt(canonical_text(self.message)))
            object.__setattr__(self, "message", short)
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
        """What the problem is called in text: its code (``warning: W301`` for
        a warning), else its kind."""
        if self.kind == WARNING:
            return f"{WARNING}: {self.code}" if self.code else WARNING
        return self.code or self.kind

    def text(self) -> str:
        """The message, preceded by the code of a reading problem (``E303: ...``),
        in the language in force."""
        return self.code + ": " + self.message if self.code else self.message

    def canonical_text(self) -> str:
        """:meth:`text` as it is stored: in English whatever the language in
        force (the JSON contract, the ``violations`` table)."""
        return canonical_text(self.text())

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
        return out

    def render(self) -> str:
        """:func:`render` as one string, with the file name the diagnostic carries."""
        return "\n".join(render(self))

    def __str__(self) -> str:
        return render(self)[0]


def _excerpt(message: str) -> str:
    return message[:EXCERPT_WIDTH] + "…" + message[-EXCERPT_WIDTH // 2:]


def syntax_error(code: str, message: str, line: int | None = None, column: int | None = None,
                 source: str = "", path: str = "") -> Diagnostic:
    """A reading problem: numbered ``code``, message, place and the line's text.
    Its kind is ``syntax``, or ``warning`` for a ``W…`` code (the line was read)."""
    pos = None if line is None else Pos(line, column or 1)
    return Diagnostic(WARNING if code.startswith("W") else SYNTAX, message, pos=pos, code=code,
                      path=path, source=source)


def line_error(code: str, message: str, column: int) -> Diagnostic:
    """What is wrong with one line, before the reader knows the line's number
    (line 0): the grammar returns it and the reader places it."""
    return Diagnostic("syntax", message, pos=Pos(0, column), code=code)


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
    context = [_("deal {number}").format(number=d.deal)] if d.deal is not None else []
    if d.trick is not None:
        context.append(_("trick {number}").format(number=d.trick))
    if d.player is not None:
        context.append(d.player)
    prefix = f"{', '.join(context)}: " if context else ""
    head = (style("where", escape_text(where) + ":") + " " if where else "") \
        + style("label", d.label + ":") + " "
    lines = [head + style("text", escape_text(prefix + d.message))]
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
