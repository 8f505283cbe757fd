"""Rendering the reports through Jinja2 (imported here, lazily by the CLI).

Autoescaping is on for every template: a player called ``<script>`` is text
in the page. Every text a template shows (``{{ value }}``, and each item
``join`` joins) goes through :func:`~raspis_cli.text.textsafe.isolated_text`:
a bidi override in a name is shown as ``\\u202e``, never obeyed, and a
right-to-left name is isolated from the date beside it. The SVG charts are
built (and escaped the same way) in :mod:`svg` and marked safe in the
templates; the replay data is JSON through ``tojson``, which
escapes ``<``, ``>`` and ``&``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

from raspis_cli.report.strings import report_strings
from raspis_cli.text.i18n import _, decimal, ngettext, number
from raspis_cli.text.textsafe import isolated_text

__all__ = ["render"]

_TEMPLATES = Path(__file__).resolve().parent / "templates"


def render(template: str, lang: str, **context: Any) -> str:
    """The page ``template`` (a file of ``templates/``), as text; ``lang`` is
    the page's ``<html lang>`` (the words are in the language in force).
    Templates translate with ``_("...")`` and ``ngettext("...", "...", n)``,
    marked in the catalogue like the Python sources' (scripts/i18n_catalogue.py)."""
    import jinja2
    import markupsafe
    from jinja2.filters import do_join

    def shown(value: Any) -> Any:
        if isinstance(value, str) and not isinstance(value, markupsafe.Markup):
            return isolated_text(value)
        return value

    @jinja2.pass_eval_context
    def join(context: Any, items: Any, separator: str = "", attribute: Any = None) -> str:
        return cast(str, do_join(context, [shown(item) for item in items], separator, attribute))

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(_TEMPLATES)),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=shown,
    )
    env.filters["join"] = join
    env.filters["num"] = number  # a whole number as the page's language writes it (−10 in Russian)
    env.filters["signed"] = lambda value: number(value, sign=True)
    env.globals.update(_=_, ngettext=ngettext, decimal=decimal)
    return env.get_template(template).render(lang=lang, s=report_strings(), **context)
