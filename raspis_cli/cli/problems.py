"""Diagnostics shown on the terminal: the place, the kind, the source line and its caret."""

from __future__ import annotations

from typing import TYPE_CHECKING

from raspis_cli.cli.console import stderr

if TYPE_CHECKING:
    from raspis_cli.model.diagnostics import Diagnostic


_STYLES = {"where": "bold", "label": "red", "caret": "green"}


def render_diagnostic(d: Diagnostic, path: str | None = None, source: str | None = None,
                      colour: bool = False, shift: int = 0) -> list[str]:
    """The lines of :func:`raspis_cli.model.diagnostics.render` (record text escaped);
    with ``colour``, as rich markup (the place bold, the kind red, the caret
    green). ``source`` is the line's text when the caller kept it (an excerpt
    when ``shift``: what to subtract from the column to point into it)."""
    from raspis_cli.model.diagnostics import render

    if not colour:
        return render(d, path, source, shift=shift)
    from rich.markup import escape

    def style(role: str, text: str) -> str:
        name = _STYLES.get(role)
        return f"[{name}]{escape(text)}[/{name}]" if name else escape(text)

    return render(d, path, source, style, shift)


def print_diagnostic(d: Diagnostic, path: str | None = None) -> None:
    """Show one diagnostic on standard error, with its source line and caret."""
    stderr.print("\n".join(render_diagnostic(d, path)), markup=False)
