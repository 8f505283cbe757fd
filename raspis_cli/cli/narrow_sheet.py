"""The score sheet for a narrow terminal: one line per deal, a column per player.

Below the width of the full table (deal, kind, cards, dealer, trump, and per player
``BID/TAKEN SCORE =TOTAL``), ``raspis score`` and ``raspis live``'s ``sheet`` print
this one: the deal's own values in one column, as a line of a sheet file reads
(``10.  9 Борис 10♦``: number, cards, kind when not a normal deal, dealer, trump),
and per player the bid/taken and the running total (``2/2  45``). What does not fit
is given up in steps: the kinds and the dealers shortened (``б/к``, ``Бо``), then the
trump, then the players' names cut in the header (their full names said once, on a
line above it). A cell whose written value differs from the recount is marked ``*``,
and the values are listed under the sheet. Widths are counted in terminal cells
(rich's ``cell_len``: a Cyrillic letter or ``♠`` is one).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from raspis_cli.judge.results import trump_label
from raspis_cli.model.deal_kinds import kind_label
from raspis_cli.text.i18n import N_, _, ngettext, number

if TYPE_CHECKING:
    from raspis_cli.judge.replay import DealResult, GameResult

__all__ = ["NarrowSheet", "differing_values", "dealer_abbreviations", "narrow_sheet"]

SEPARATOR = " │ "
"""Between two columns (a player's cells are told apart by it, the frame has no outer border)."""

MARK = "*"
"""After a cell's total when a value written in it differs from the recount."""

FOOTNOTES = 8
"""The differing written values listed under the sheet at most (then how many more)."""

_SHORT_KINDS = {"no-trump": N_("NT"), "dark": N_("dk"), "miser": N_("mis"), "golden": N_("gld"),
                "forehead": N_("fhd"), "percent": N_("pct")}
"""A kind of deal in three or four letters, for a deal column that has no room for its word."""


@dataclass(frozen=True)
class NarrowSheet:
    """The sheet's lines: the legend (the full names, when the header cuts them),
    the header, its rule, a line per deal, and the notes on differing values."""

    legend: list[str]
    table: list[str]
    notes: list[str]

    def lines(self) -> list[str]:
        """Every line, in order."""
        return [*self.legend, *self.table, *self.notes]


@dataclass(frozen=True)
class _Cell:
    bid_taken: str
    total: str


@dataclass(frozen=True)
class _Style:
    """How much of the deal column and the header is kept."""

    full_kinds: bool
    full_dealers: bool
    trump: bool


_STYLES = (_Style(True, True, True), _Style(False, False, True), _Style(False, False, False))


def _width(text: str) -> int:
    from rich.cells import cell_len

    return cell_len(text)


def _ljust(text: str, width: int) -> str:
    return text + " " * (width - _width(text))


def _rjust(text: str, width: int) -> str:
    return " " * (width - _width(text)) + text


def dealer_abbreviations(players: Sequence[str]) -> dict[str, str]:
    """Each player's shortest beginning (two letters at least) that no other
    player's name begins the same way (``Анна``, ``Андрей`` → ``Анн``, ``Анд``);
    a name of several words that would take more than three letters so, by its
    initials when they tell it apart (``Анна Петровна``, ``Анна Ильинична`` → ``АП``, ``АИ``)."""
    short: dict[str, str] = {}
    initials = {name: "".join(word[0] for word in name.split()) for name in players}
    for name in players:
        others = [other for other in players if other != name]
        length = min(2, len(name))
        while length < len(name) and any(other[:length] == name[:length] for other in others):
            length += 1
        prefix = name[:length].rstrip()
        if (length > 3 and len(name.split()) > 1
                and all(initials[other] != initials[name] for other in others)):
            prefix = initials[name]
        short[name] = prefix
    return short


def _cut(name: str, width: int) -> str:
    """A name in ``width`` cells: whole, else its first word and the initials of
    the others (``Анна П.``, ``Ан… П.``), else cut, ``…`` marking the cut."""
    if _width(name) <= width:
        return name
    first, *others = name.split()
    suffix = "".join(" " + word[0] + "." for word in others)
    if others and _width(first + suffix) <= width:
        return first + suffix
    if others and width - _width(suffix) >= 3:
        return _cut_word(first, width - _width(suffix)) + suffix
    return _cut_word(name, width)


def _cut_word(text: str, width: int) -> str:
    """``text`` cut to ``width`` cells, ``…`` marking the cut."""
    out = ""
    for char in text:
        if _width(out + char) > width - 1:
            break
        out += char
    return out.rstrip() + "…"


def _differs(deal: DealResult, name: str) -> bool:
    """Whether a value written in the player's cell of the deal differs from the recount."""
    taken = deal.taken.get(name)
    score = deal.scores.get(name)
    total = deal.totals.get(name)
    written_taken = (deal.written_taken or {}).get(name)
    written_score = (deal.written_scores or {}).get(name)
    written_total = (deal.written_totals or {}).get(name)
    return ((written_taken is not None and written_taken != taken)
            or (written_score is not None and score is not None and written_score != score)
            or (written_total is not None and written_total != total))


def _cell(deal: DealResult, name: str) -> _Cell:
    bid = deal.bids.get(name)
    taken = deal.taken.get(name)
    total = deal.totals.get(name)
    head = "-"
    if bid is not None or taken is not None:
        # as on the paper sheet: "-" for no bid (miser, golden), "?" for a count not known
        head = ("-" if bid is None else str(bid)) + "/" + ("?" if taken is None else str(taken))
    total_text = "?" if total is None else number(total)
    return _Cell(head, total_text + (MARK if _differs(deal, name) else ""))


def _kind_text(deal: DealResult, full: bool) -> str:
    words = []
    if deal.kind != "normal":
        short = _SHORT_KINDS.get(deal.kind)
        words.append(kind_label(deal.kind) if full or short is None else _(short))
    if deal.replayed:
        words.append(_("replayed") if full else _("rpl"))
    return " ".join(words)


def _trump_text(trump: str | None) -> str:
    """The trump as a sheet file writes it: the card or suit, ``-`` for none, blank if not known."""
    if not trump:
        return ""
    return "-" if trump == "none" else trump_label(trump, "")


def _deal_column(deals: Sequence[DealResult], style: _Style, short: dict[str, str]) -> list[str]:
    """The deal's own values of each line, in aligned sub-columns."""
    parts = [[f"{d.number}.", str(d.cards), _kind_text(d, style.full_kinds),
              d.dealer if style.full_dealers else short.get(d.dealer, d.dealer),
              _trump_text(d.trump) if style.trump else ""] for d in deals]
    widths = [max((_width(row[i]) for row in parts), default=0) for i in range(5)]
    right = (True, True, False, False, False)
    lines = []
    for row in parts:
        cells = [(_rjust if right[i] else _ljust)(row[i], widths[i]) for i in range(5) if widths[i]]
        lines.append(" ".join(cells).rstrip())
    return lines


def narrow_sheet(result: GameResult, width: int) -> NarrowSheet | None:
    """The sheet of ``result``'s deals in lines no wider than ``width`` cells,
    or ``None`` when even its shortest form is wider."""
    players = list(result.totals)
    deals = result.deals
    cells = [[_cell(d, name) for name in players] for d in deals]
    bid_widths = [max((_width(row[k].bid_taken) for row in cells), default=1) for k in range(len(players))]
    total_widths = [max((_width(row[k].total) for row in cells), default=1) for k in range(len(players))]
    content = [b + 1 + t for b, t in zip(bid_widths, total_widths, strict=True)]
    short = dealer_abbreviations(players)
    head = _("deal")
    longest = max((_width(name) for name in players), default=1)
    tries = [(style, limit, True) for style in _STYLES[:-1] for limit in (longest,)]
    tries += [(_STYLES[-1], limit, distinct) for distinct in (True, False) for limit in range(longest, 1, -1)]
    for style, limit, distinct in tries:
        column = _deal_column(deals, style, short)
        deal_width = max([_width(head), *(_width(line) for line in column)])
        names = [_cut(name, max(limit, content[k])) for k, name in enumerate(players)]
        widths = [max(content[k], _width(names[k])) for k in range(len(players))]
        fits = deal_width + sum(w + len(SEPARATOR) for w in widths) <= width
        if not fits or (distinct and len(set(names)) < len(names)):
            continue  # the names cut alike only when no width keeps them apart
        table = [_ljust(head, deal_width) + "".join(SEPARATOR + _ljust(n, w) for n, w in
                                                    zip(names, widths, strict=True)).rstrip(),
                 "─" * deal_width + "".join("─┼─" + "─" * w for w in widths)]
        for line, row in zip(column, cells, strict=True):
            table.append(_ljust(line, deal_width) + "".join(
                SEPARATOR + _ljust(c.bid_taken, w - total_widths[k]) + _rjust(c.total, total_widths[k])
                for k, (c, w) in enumerate(zip(row, widths, strict=True))))
        said = _("players: {names}").format(names=", ".join(players))
        legend = _folded(said, width) if names != players else []
        return NarrowSheet(legend, table, _notes(result))
    return None


def _folded(text: str, width: int) -> list[str]:
    """A line folded at spaces to ``width`` (the rest indented two spaces)."""
    import textwrap

    return textwrap.wrap(text, width, subsequent_indent="  ", break_on_hyphens=False) or [text]


def differing_values(result: GameResult) -> list[str]:
    """Each written value of the sheet that differs from the recount, in words
    (``deal 17, Boris: score written +25, recomputed +5``)."""
    out = []
    for deal in result.deals:
        where = _("deal {number}").format(number=deal.number)
        for name in result.totals:
            rows = (("taken", (deal.written_taken or {}).get(name), deal.taken.get(name), False),
                    ("score", (deal.written_scores or {}).get(name), deal.scores.get(name), True),
                    ("total", (deal.written_totals or {}).get(name), deal.totals.get(name), False))
            for what, written, recomputed, signed in rows:
                if written is None or written == recomputed or (what == "score" and recomputed is None):
                    continue
                out.append(_("{where}, {player}: {what} written {written}, recomputed {recomputed}").format(
                    where=where, player=name, what={"taken": _("taken"), "score": _("score"),
                                                    "total": _("total")}[what],
                    written=number(written, sign=signed),
                    recomputed="?" if recomputed is None else number(recomputed, sign=signed)))
    return out


def _notes(result: GameResult) -> list[str]:
    """The lines under the sheet for the cells marked ``*``."""
    values = differing_values(result)
    if not values:
        return []
    lines = [f"{MARK} {value}" for value in values[:FOOTNOTES]]
    if len(values) > FOOTNOTES:
        more = len(values) - FOOTNOTES
        lines.append(f"{MARK} " + ngettext("and {n} more", "and {n} more", more).format(n=more))
    return lines
