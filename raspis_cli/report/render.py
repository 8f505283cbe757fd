"""Rendering the reports through Jinja2 (imported here, lazily by the CLI).

Autoescaping is on for every template: a player called ``<script>`` is text
in the page. The SVG charts are built (and escaped) in :mod:`svg` and marked
safe in the templates; the replay data is JSON through ``tojson``, which
escapes ``<``, ``>`` and ``&``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from raspis_cli.report.strings import report_strings
from raspis_cli.text.i18n import _, decimal, ngettext

__all__ = ["render"]

_TEMPLATES = Path(__file__).resolve().parent / "templates"


def render(template: str, lang: str, **context: Any) -> str:
    """The page ``template`` (a file of ``templates/``), as text; ``lang`` is
    the page's ``<html lang>`` (the words are in the language in force).
    Templates translate with ``_("...")`` and ``ngettext("...", "...", n)``,
    marked in the catalogue like the Python sources' (scripts/i18n_catalogue.py)."""
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(_TEMPLATES)),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals.update(_=_, ngettext=ngettext, decimal=decimal)
    return env.get_template(template).render(lang=lang, s=report_strings(), **context)
