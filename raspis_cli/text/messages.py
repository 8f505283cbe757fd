"""A message as data: what is said (the English msgid) and its typed parameters.

The engine, the readers and the replay say what they found as a
:class:`Message`: the catalogue's msgid (English, the key of every
translation) and the values it speaks of, each typed: a whole number, a
decimal, a name or what a person wrote (``str``, shown as it is), a card,
an option value or keyword (:class:`Term`, shown in the reader's words), a
range of numbers (:class:`Span`), a list (:class:`Seq`) or another message.
Words are made only when the message is shown (:meth:`Message.shown`), in
the language in force, from the catalogue; what is stored is
:meth:`Message.english` (the canonical text) beside :meth:`Message.to_data`
(the msgid and the parameters as JSON), from which a page shows it again in
its reader's language without reading the English back.

A :class:`Message` is not a ``str``: a function that wants text says so
(``message.shown()``), so mypy names every place a message would be turned
into words too early.

Types of the layers above (a card) join in with :func:`param_type`: how a
value is shown in each language, and how it is written to and read from
JSON.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Literal, TypeAlias

from raspis_cli.text.i18n import minus_sign

__all__ = [
    "as_message",
    "layout",
    "Message",
    "Quoted",
    "message_of",
    "msg",
    "msg_n",
    "param_type",
    "quoted",
    "show_param",
    "Seq",
    "Span",
    "stored_form",
    "stored_message",
    "Term",
    "term_words",
]


Language: TypeAlias = Literal["en", "ru"]


@dataclass(frozen=True, slots=True)
class Term:
    """An option value, a keyword or a kind of deal: stored as the record's
    word (``take``, ``miser``), shown in the reader's words (``забрать``,
    ``мизер``). ``group`` names whose words they are (``joker-mode``,
    ``kind``, ``keyword``, an option's name); the layer that owns them
    registers them with :func:`term_words`."""

    group: str
    value: str


@dataclass(frozen=True, slots=True)
class Span:
    """A range of whole numbers, ``0-1`` in English and ``0–1`` in Russian."""

    low: int
    high: int


@dataclass(frozen=True, slots=True)
class Quoted:
    """What a person wrote (or an example of it), quoted: ``'тмная'`` in
    English, ``«тмная»`` in Russian."""

    text: object


def quoted(text: object, lang: str | None = None) -> str:
    """``text`` in the quotes of ``lang`` (the language in force by default):
    ``'…'`` in English, ``«…»`` in Russian."""
    if lang is None:
        from raspis_cli.text.i18n import language

        lang = language()
    return f"«{text}»" if lang == "ru" else f"'{text}'"


@dataclass(frozen=True, slots=True)
class Seq:
    """Several values shown one after another, ``separator`` between them
    (a list of cards, of allowed values)."""

    items: tuple[object, ...]
    separator: object = ", "
    """A ``str``, or a message (`` or ``) said in the reader's language."""


@dataclass(frozen=True, slots=True)
class _ParamType:
    tag: str
    kind: type
    shown: Callable[[Any, str], str]
    encode: Callable[[Any], object]
    decode: Callable[[Any], object]


_TYPES_BY_CLASS: dict[type, _ParamType] = {}
_TYPES_BY_TAG: dict[str, _ParamType] = {}
_TERMS: dict[str, Callable[[str, str], str | None]] = {}


def param_type(tag: str, kind: type, shown: Callable[[Any, str], str], encode: Callable[[Any], object],
               decode: Callable[[Any], object]) -> None:
    """Let values of ``kind`` be parameters of a message: ``shown(value,
    lang)`` the words of it in ``lang`` (``en``/``ru``), ``encode`` its JSON
    value (under ``{tag: …}``), ``decode`` the value again from it."""
    entry = _ParamType(tag, kind, shown, encode, decode)
    _TYPES_BY_CLASS[kind] = entry
    _TYPES_BY_TAG[tag] = entry


def term_words(group: str, words: Callable[[str, str], str | None]) -> None:
    """Register the words of a :class:`Term` ``group``: ``words(value, lang)``
    its word in ``lang``, or None to show the value as it is."""
    _TERMS[group] = words


def _number(text: str, lang: str) -> str:
    return minus_sign(text.replace(".", ","), lang) if lang == "ru" else text


def show_param(value: object, lang: str) -> str:
    """One parameter in the words of ``lang``."""
    entry = _TYPES_BY_CLASS.get(type(value))
    if entry is not None:
        return entry.shown(value, lang)
    if isinstance(value, BaseException):  # an error said inside a message: what it says
        value = message_of(value)
    if isinstance(value, Message):
        return value.render(lang)
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return str(value).lower()
    if type(value) in (int, float, Decimal):  # a subclass (an enum) is shown as itself, below
        return _number(str(value), lang)
    if isinstance(value, Term):
        words = _TERMS.get(value.group)
        word = words(value.value, lang) if words is not None else None
        return value.value if word is None else word
    if isinstance(value, Quoted):
        return quoted(show_param(value.text, lang), lang)
    if isinstance(value, Span):
        dash = "\u2013" if lang == "ru" else "-"
        return f"{_number(str(value.low), lang)}{dash}{_number(str(value.high), lang)}"
    if isinstance(value, Seq):
        return show_param(value.separator, lang).join(show_param(item, lang) for item in value.items)
    return str(value)


def _encode(value: object) -> object:
    entry = _TYPES_BY_CLASS.get(type(value))
    if entry is not None:
        return {entry.tag: entry.encode(value)}
    if isinstance(value, BaseException):
        value = message_of(value)
    if isinstance(value, Message):
        return {"message": value.to_data()}
    if type(value) in (str, bool, int, float) or value is None:
        return value
    if isinstance(value, Decimal):
        return {"decimal": str(value)}
    if isinstance(value, Term):
        return {"term": value.value, "of": value.group}
    if isinstance(value, Quoted):
        return {"quoted": _encode(value.text)}
    if isinstance(value, Span):
        return {"span": [value.low, value.high]}
    if isinstance(value, Seq):
        return {"seq": [_encode(item) for item in value.items], "separator": _encode(value.separator)}
    return str(value)


def _decode(data: object) -> object:
    if isinstance(data, dict):
        if "message" in data:
            return Message.from_data(data["message"])
        if "decimal" in data:
            return Decimal(str(data["decimal"]))
        if "term" in data:
            return Term(str(data.get("of", "")), str(data["term"]))
        if "quoted" in data:
            return Quoted(_decode(data["quoted"]))
        if "span" in data:
            low, high = data["span"]
            return Span(int(low), int(high))
        if "seq" in data:
            return Seq(tuple(_decode(item) for item in data["seq"]), _decode(data.get("separator", ", ")))
        for tag, entry in _TYPES_BY_TAG.items():
            if tag in data:
                return entry.decode(data[tag])
        return str(data)
    if isinstance(data, list):
        return Seq(tuple(_decode(item) for item in data))
    return data


@dataclass(frozen=True, slots=True)
class Message:
    """What is said: the catalogue's msgid (``template``, English, with
    ``{name}`` placeholders), its parameters, and for a count the plural
    msgid and the count that chooses the form. Immutable; :meth:`format`
    gives a new message with more parameters."""

    template: str
    params: tuple[tuple[str, object], ...] = ()
    plural: str = ""
    count: int | None = None
    translate: bool = field(default=True)
    """False for a message that is not a msgid (a name, a joint of two
    messages): its template is used as it is in every language."""

    def format(self, **params: object) -> Message:
        """This message with ``params`` bound (``{name}`` placeholders)."""
        merged = dict(self.params)
        merged.update(params)
        return Message(self.template, tuple(merged.items()), self.plural, self.count, self.translate)

    def render(self, lang: str) -> str:
        """The words of this message in ``lang`` (``en`` or ``ru``)."""
        template = self._template(lang)
        if not self.params:
            return template
        values = {name: show_param(value, lang) for name, value in self.params}
        try:
            return template.format(**values)
        except (KeyError, IndexError, ValueError):  # a translation that names another placeholder
            return self._template("en").format_map(_Missing(values))

    def _template(self, lang: str) -> str:
        if not self.translate:
            return self.template
        if lang == "en":
            if self.plural and self.count is not None and self.count != 1:
                return self.plural
            return self.template
        from raspis_cli.text.catalogue import translation

        catalogue = translation(lang)
        if self.plural and self.count is not None:
            return catalogue.ngettext(self.template, self.plural, self.count)
        return catalogue.gettext(self.template)

    def shown(self) -> str:
        """The words of this message in the language in force."""
        from raspis_cli.text.i18n import language

        return self.render(language())

    def english(self) -> str:
        """The canonical (English) text: what is stored beside :meth:`to_data`."""
        return self.render("en")

    def __str__(self) -> str:
        return self.shown()

    def __add__(self, other: Message | str) -> Message:
        return Message("{head}{tail}", (("head", self), ("tail", other)), translate=False)

    def __radd__(self, other: str) -> Message:
        return Message("{head}{tail}", (("head", other), ("tail", self)), translate=False)

    @staticmethod
    def joined(separator: Message | str, parts: Iterable[object]) -> Message:
        """``parts`` one after another, ``separator`` between them."""
        return Message("{items}", (("items", Seq(tuple(parts), separator)),), translate=False)

    def to_data(self) -> dict[str, object]:
        """The message as JSON data: ``template`` (the msgid), ``plural`` and
        ``count`` for a counted one, ``params`` each as its JSON value (a
        card as ``{"card": "Q♦"}``, an option value as ``{"term": "take",
        "of": "joker-mode"}``, a nested message as ``{"message": …}``)."""
        out: dict[str, object] = {"template": self.template}
        if self.plural:
            out["plural"] = self.plural
            out["count"] = self.count
        if not self.translate:
            out["translate"] = False
        out["params"] = {name: _encode(value) for name, value in self.params}
        return out

    @staticmethod
    def from_data(data: object) -> Message:
        """The message :meth:`to_data` wrote (a string: a message of that text)."""
        if not isinstance(data, Mapping):
            return Message(str(data), translate=False)
        params = data.get("params") or {}
        count = data.get("count")
        return Message(str(data.get("template", "")),
                       tuple((str(k), _decode(v)) for k, v in dict(params).items()),
                       str(data.get("plural", "") or ""), count if isinstance(count, int) else None,
                       bool(data.get("translate", True)))


class _Missing(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def msg(template: str, /, **params: object) -> Message:
    """A message: the msgid ``template`` (an English string literal, which
    ``scripts/i18n_catalogue.py`` collects) and its parameters."""
    return Message(template, tuple(params.items()))


def msg_n(singular: str, plural: str, count: int, /, **params: object) -> Message:
    """A message about ``count`` things: the form for the count is chosen
    when it is shown (Russian has three)."""
    return Message(singular, tuple(params.items()), plural, count)


def as_message(text: Message | str) -> Message:
    """``text`` as a message: a ``str`` (a name, what a person wrote, a
    library's words) is said as it is in every language."""
    return text if isinstance(text, Message) else Message(text, translate=False)


def message_of(error: BaseException) -> Message:
    """What an exception says, as a message: the :class:`Message` it was
    raised with, else its text (a library's words) as it is."""
    if len(error.args) == 1 and isinstance(error.args[0], Message):
        return error.args[0]
    if len(error.args) == 1 and isinstance(error.args[0], str):
        return as_message(error.args[0])
    return as_message(str(error))


def stored_message(text: str, data: str | None) -> str:
    """A stored message (the ``violations`` table's ``message`` and
    ``message_data``) in the language in force: said again from its data;
    a row stored before messages were data is shown as its English text."""
    if data:
        import json

        try:
            return Message.from_data(json.loads(data)).shown()
        except (ValueError, TypeError, KeyError, RecursionError):  # not data raspis wrote
            return text
    return text


def stored_form(value: object) -> object:
    """What JSON holds for a value of raspis's own (``json.dumps``'s
    ``default``): a message as its English text, the same bytes in any
    locale."""
    if isinstance(value, Message):
        return value.english()
    raise TypeError(f"{type(value).__name__} is not JSON")


def layout(template: str, /, **params: object) -> Message:
    """Messages and values put together by punctuation alone (``{player}:
    {problem}``): the same in every language, so no msgid of the catalogue."""
    return Message(template, tuple(params.items()), translate=False)
