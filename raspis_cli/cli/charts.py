"""Charts in the terminal (plotext): running totals of a game, ratings over time.

plotext is imported inside :func:`line_chart`, so ``raspis --help`` and every
command without ``--chart`` never load it. A chart is drawn only on a
terminal: piped or redirected output gets nothing (the tables and JSON
stay clean for the program reading them), and one line on standard error says
so. The axes of counted things (deals, games, points) are labelled in whole
numbers.
"""

from __future__ import annotations

import itertools
import math
import shutil
import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from raspis_cli.text.i18n import _

if TYPE_CHECKING:
    from raspis_cli.store.ratings import RatingStep

__all__ = ["draw", "line_chart", "on_terminal", "ratings_chart", "ratings_series", "running_totals_chart",
           "whole_ticks"]

Series = Mapping[str, tuple[Sequence[float], Sequence[float]]]
"""One line per name: its x values and y values."""


def whole_ticks(low: float, high: float, most: int) -> list[int]:
    """At most ``most`` whole numbers from ``low`` to ``high`` (rounded outwards),
    evenly spaced by a round step (1, 2, 5, 10, 20, 50 …), for an axis of counts."""
    first, last = math.floor(low), math.ceil(high)
    span = max(last - first, 1)
    step = 1
    for scale in itertools.count():
        step = next((m * 10 ** scale for m in (1, 2, 5) if span / (m * 10 ** scale) < max(most, 1)), 0)
        if step:
            break
    start = math.ceil(first / step) * step
    return list(range(start, last + 1, step))


def line_chart(series: Series, title: str, width: int = 100, height: int = 24,
               xlabel: str = "", ylabel: str = "", colour: bool = True,
               whole_x: bool = False, whole_y: bool = False) -> str:
    """The chart as text: one labelled line per series; ``whole_x``/``whole_y``
    label that axis in whole numbers only."""
    import plotext

    figure = plotext.figure
    figure.clear()
    figure.theme("simple" if colour else "colorless")
    figure.plot_size(width, height)
    for name, (xs, ys) in series.items():
        if not xs:
            continue
        xs = list(xs) if len(xs) > 1 else [xs[0], xs[0] + 1]
        ys = list(ys) if len(ys) > 1 else [ys[0], ys[0]]
        figure.draw(figure.signal(xs, ys).lines().label(_printable(name)))
    figure.title(_printable(title))
    xs_all = [x for xs, _ys in series.values() for x in xs]
    ys_all = [y for _xs, ys in series.values() for y in ys]
    if whole_x and xs_all:
        figure.ruler("x").ticks(whole_ticks(min(xs_all), max(xs_all), max(2, width // 8)))
    if whole_y and ys_all:
        figure.ruler("y").ticks(whole_ticks(min(ys_all), max(ys_all), max(2, height // 4)))
    if xlabel:
        figure.label(xlabel, axis="x")
    if ylabel:
        figure.label(ylabel, axis="y")
    text = str(figure.build())
    figure.clear()
    return text


def _printable(name: str) -> str:
    """A name as a chart label: control characters escaped
    (:func:`~raspis_cli.text.textsafe.escape_text`), anything else not printable
    shown as ``?``, so that no name can move the cursor or restyle the terminal."""
    from raspis_cli.text.textsafe import escape_text

    return "".join(c if c.isprintable() else "?" for c in escape_text(name))


def on_terminal() -> bool:
    """Whether a chart can be drawn: standard output is a terminal. When it is
    not, one line on standard error says that no chart is drawn."""
    if sys.stdout.isatty():
        return True
    sys.stderr.write("raspis: " + _("--chart draws on a terminal only; standard output is not one, "
                                    "so no chart is drawn") + "\n")
    return False


def draw(text: str) -> None:
    """Print a chart (the caller has checked :func:`on_terminal`)."""
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def _size() -> tuple[int, int]:
    columns, lines = shutil.get_terminal_size((100, 30))
    return max(40, min(columns, 160)), max(12, min(lines - 4, 30))


def running_totals_chart(players: Sequence[str], totals: Sequence[Sequence[int | None]], title: str) -> None:
    """Running totals of a game, one line per player (``totals[deal][seat]``;
    a deal without a total leaves a gap in that player's line)."""
    if not on_terminal():
        return
    series: dict[str, tuple[list[float], list[float]]] = {}
    for seat, player in enumerate(players):
        xs = [float(i + 1) for i, row in enumerate(totals) if row[seat] is not None]
        ys = [float(row[seat]) for row in totals if row[seat] is not None]  # type: ignore[arg-type]
        series[player] = (xs, ys)
    width, height = _size()
    draw(line_chart(series, title, width, height, xlabel=_("deal"), ylabel=_("total"),
                    whole_x=True, whole_y=True))


def ratings_series(history: Sequence[RatingStep], player: str | None = None,
                   top: int = 8) -> dict[str, tuple[list[float], list[float]]]:
    """The rating (mean) after each game, per player (``pool: player`` when
    several pools), x = the game's order in its pool; the ``top`` players by
    final ordinal, those with ten games or more first (or the one ``player``)."""
    from raspis_cli.store.ratings import chart_players

    pools = {s.pool for s in history}
    lines: dict[str, tuple[list[float], list[float]]] = {}
    final: dict[str, float] = {}
    games: dict[str, int] = {}
    for step in history:
        if player is not None and step.player != player:
            continue
        name = step.player if len(pools) == 1 else f"{step.pool}: {step.player}"
        xs, ys = lines.setdefault(name, ([], []))
        if not xs:  # from where the player started, just before the first game
            xs.append(float(step.seq - 1))
            ys.append(step.mu_before)
        xs.append(float(step.seq))
        ys.append(step.mu)
        final[name] = step.ordinal
        games[name] = games.get(name, 0) + 1
    keep = chart_players(final, games, top)
    return {name: lines[name] for name in keep}


def ratings_chart(history: Sequence[RatingStep], player: str | None = None) -> None:
    """Ratings over time in the terminal (nothing when piped, and a line on
    standard error says so)."""
    if not on_terminal():
        return
    series = ratings_series(history, player)
    if not series:
        return
    width, height = _size()
    draw(line_chart(series, _("Ratings over time (rating after each game)"), width, height,
                    xlabel=_("game in the pool"), ylabel=_("rating"), whole_x=True))
