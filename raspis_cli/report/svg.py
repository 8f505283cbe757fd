"""Charts as inline SVG: lines (running totals, ratings over time) and a heatmap.

Plain text built here, every label escaped; the templates insert it as is.
No script, no network: the SVG draws the same opened from disk.
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence
from typing import Final

from raspis_cli.text.i18n import _, decimal
from raspis_cli.text.textsafe import isolated_text

__all__ = ["PALETTE", "heatmap", "line_chart", "line_charts"]

PALETTE: Final = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b",
                  "#e377c2", "#7f7f7f", "#bcbd22")
"""Line colours, one per series in order (repeats after ten)."""


def _e(text: object) -> str:
    """Text of a chart (a name in the legend): shown as a page shows record text, escaped for SVG."""
    return html.escape(isolated_text(str(text)), quote=True)


def _ticks(low: float, high: float, count: int = 5, whole: bool = False) -> list[float]:
    """Round tick values covering low..high (``whole``: integers only)."""
    if high <= low:
        high = low + 1
    raw = (high - low) / count
    if whole:
        raw = max(raw, 1.0)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    first = math.floor(low / step) * step
    ticks = []
    value = first
    while value <= high + step * 0.001:
        ticks.append(round(value, 10))
        value += step
    return ticks


Series = Mapping[str, tuple[Sequence[float], Sequence[float | None]]]
"""Per name, the x values and the y values (None: no point there)."""


def line_charts(series: Series, *, title: str, xlabel: str, ylabel: str) -> str:
    """The chart twice: wide with the legend beside it (``class="chart"``), and
    narrow for a phone with the legend below (``class="chart-phone"``, shown
    instead of the wide one on a narrow screen so that its labels stay
    readable rather than shrunk to half their size)."""
    return (line_chart(series, title=title, xlabel=xlabel, ylabel=ylabel)
            + line_chart(series, title=title, xlabel=xlabel, ylabel=ylabel, width=380, height=250,
                         phone=True))


def line_chart(series: Series, *, title: str, xlabel: str, ylabel: str, width: int = 760, height: int = 320,
               phone: bool = False) -> str:
    """One ``<polyline class="series">`` per name (a gap-free line over the
    points it has), axes with round ticks, and a legend (beside the plot, or
    below it for a ``phone``: the SVG grows by a line per two names)."""
    points = [(x, y) for xs, ys in series.values() for x, y in zip(xs, ys, strict=True) if y is not None]
    left, right, top, bottom = (44, 10, 12, 40) if phone else (56, 150, 28, 40)
    plot_w, plot_h = width - left - right, height - top - bottom
    legend_rows = (len(series) + 1) // 2 if phone else 0
    full_height = height + legend_rows * 18
    kind = "chart-phone" if phone else "chart"
    line = "series-phone" if phone else "series"
    out = [f'<svg class="{kind}" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {full_height}" '
           f'width="{width}" height="{full_height}" role="img" aria-label="{_e(title)}" '
           f'data-series="{len(series)}">',
           f'<title>{_e(title)}</title>']
    if not points:
        out.append("</svg>")
        return "".join(out)
    x0, x1 = min(p[0] for p in points), max(p[0] for p in points)
    y0, y1 = min(p[1] for p in points), max(p[1] for p in points)
    yt = _ticks(min(y0, 0) if y0 >= 0 and y0 < (y1 - y0) else y0, y1)
    y0, y1 = yt[0], max(yt[-1], y1)
    if x1 == x0:
        x1 = x0 + 1

    def sx(x: float) -> float:
        return left + (x - x0) / (x1 - x0) * plot_w

    def sy(y: float) -> float:
        return top + plot_h - (y - y0) / (y1 - y0) * plot_h

    out.append(f'<g class="axes" stroke="#999" stroke-width="1">'
               f'<line x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}"/>'
               f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + plot_h}"/></g>')
    out.append('<g class="ticks" font-size="11" fill="#555">')
    for t in yt:
        y = sy(t)
        out.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y:.1f}" y2="{y:.1f}" stroke="#eee"/>'
                   f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{decimal(f"{t:g}", None)}</text>')
    whole_x = all(float(p[0]).is_integer() for p in points)
    for t in _ticks(x0, x1, 5 if phone else 8, whole_x):
        if x0 <= t <= x1:
            x = sx(t)
            label = decimal(f"{t:g}", None)
            out.append(f'<text x="{x:.1f}" y="{top + plot_h + 16}" text-anchor="middle">{label}</text>')
    out.append(f'<text x="{left + plot_w / 2:.0f}" y="{height - 6}" text-anchor="middle">{_e(xlabel)}</text>'
               f'<text x="14" y="{top + plot_h / 2:.0f}" text-anchor="middle" '
               f'transform="rotate(-90 14 {top + plot_h / 2:.0f})">{_e(ylabel)}</text></g>')
    for i, (name, (xs, ys)) in enumerate(series.items()):
        colour = PALETTE[i % len(PALETTE)]
        coords = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in zip(xs, ys, strict=True) if y is not None)
        out.append(f'<polyline class="{line}" data-name="{_e(name)}" fill="none" stroke="{colour}" '
                   f'stroke-width="2" points="{coords}"><title>{_e(name)}</title></polyline>')
        if phone:
            lx, ly = 8 + (i % 2) * (width // 2), height + 4 + (i // 2) * 18
        else:
            lx, ly = left + plot_w + 12, top + 14 + i * 18
        out.append(f'<g class="legend"><line x1="{lx}" x2="{lx + 18}" '
                   f'y1="{ly - 4}" y2="{ly - 4}" stroke="{colour}" stroke-width="3"/>'
                   f'<text x="{lx + 22}" y="{ly}" font-size="12">{_e(_short(name))}</text></g>')
    out.append("</svg>")
    return "".join(out)


def _short(name: str, limit: int = 18) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"


def heatmap(rows: Sequence[str], columns: Sequence[str], values: Mapping[tuple[str, str], tuple[float, int]],
            *, title: str, xlabel: str, ylabel: str, cell: int = 34) -> str:
    """A grid of coloured cells: ``values[(row, column)] = (rate 0..1, count)``;
    white is 0, dark green is 1; the rate is written in each cell."""
    left, top = 70, 30
    width = left + cell * len(columns) + 20
    height = top + cell * len(rows) + 40
    out = [f'<svg class="heatmap" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
           f'width="{width}" height="{height}" role="img" aria-label="{_e(title)}">',
           f'<title>{_e(title)}</title><g font-size="11">']
    for j, column in enumerate(columns):
        out.append(f'<text x="{left + j * cell + cell / 2:.0f}" y="{top - 8}" '
                   f'text-anchor="middle">{_e(column)}</text>')
    for i, row in enumerate(rows):
        y = top + i * cell
        out.append(f'<text x="{left - 8}" y="{y + cell / 2 + 4:.0f}" text-anchor="end">{_e(row)}</text>')
        for j, column in enumerate(columns):
            found = values.get((row, column))
            x = left + j * cell
            if found is None:
                out.append(f'<rect x="{x}" y="{y}" width="{cell - 2}" height="{cell - 2}" fill="#f4f4f4"/>')
                continue
            rate, count = found
            shade = _green(rate)
            ink = "#fff" if rate > 0.55 else "#222"
            share = _("{share}% of {count}").format(share=decimal(rate * 100, 1), count=count)
            out.append(f'<rect class="cell" x="{x}" y="{y}" width="{cell - 2}" height="{cell - 2}" '
                       f'fill="{shade}"><title>{_e(row)} · {_e(column)}: {_e(share)}</title></rect>'
                       f'<text x="{x + (cell - 2) / 2:.0f}" y="{y + cell / 2 + 3:.0f}" text-anchor="middle" '
                       f'fill="{ink}" font-size="10">{round(rate * 100)}</text>')
    out.append(f'<text x="{left + cell * len(columns) / 2:.0f}" y="{height - 8}" '
               f'text-anchor="middle">{_e(xlabel)}</text>'
               f'<text x="12" y="{top + cell * len(rows) / 2:.0f}" text-anchor="middle" '
               f'transform="rotate(-90 12 {top + cell * len(rows) / 2:.0f})">{_e(ylabel)}</text>')
    out.append("</g></svg>")
    return "".join(out)


def _green(rate: float) -> str:
    rate = min(max(rate, 0.0), 1.0)
    r = round(247 + (0 - 247) * rate)
    g = round(252 + (104 - 252) * rate)
    b = round(245 + (55 - 245) * rate)
    return f"#{r:02x}{g:02x}{b:02x}"
