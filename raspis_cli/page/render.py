"""The pages of ``raspis serve`` through Jinja2 (autoescaping on: a name holding
``<script>`` is text on every phone).

Every text a template shows passes :func:`~raspis_cli.text.textsafe.isolated_text`
(as the report's does): a bidi override or embedding in a name or a comment
is shown as ``\\u202e``, never obeyed, and a right-to-left name is isolated
from the numbers beside it; the templates put names and comments in
``<bdi>`` too. A word a button sends back (``data-say``) is written with
the ``word`` filter: escaped, not changed."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jinja2
import markupsafe

from raspis_cli.text.textsafe import isolated_text

if TYPE_CHECKING:
    from decimal import Decimal

    from raspis_cli.page.table import Table

__all__ = ["page_script", "render_page", "table_html"]

_HERE = Path(__file__).resolve().parent
_TEMPLATES = _HERE / "templates"


def _shown(value: Any) -> Any:
    """A text as a page shows it (bidi controls visible, right-to-left isolated)."""
    if isinstance(value, str) and not isinstance(value, markupsafe.Markup):
        return isolated_text(value)
    return value


@functools.cache
def _environment(extra: Path | None = None) -> jinja2.Environment:
    folders = [str(_TEMPLATES)] if extra is None else [str(extra), str(_TEMPLATES)]
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(folders), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                             finalize=_shown)
    env.filters["word"] = markupsafe.escape  # sent back as it is: escaped, never changed
    return env


def render_page(template: str, lang: str, *, more_templates: Path | None = None, **context: Any) -> str:
    """The template ``template`` (a fixed name of ``templates/``, or of the
    folder ``more_templates``, whose templates may extend and include the
    page's) in ``lang``."""
    return _environment(more_templates).get_template(template).render(lang=lang, **context)


def page_script() -> bytes:
    """The page's own script (``static/table.js``): what a tap sends, the
    connection watched, a deal's line opened; no rule."""
    return (_HERE / "static" / "table.js").read_bytes()


def table_html(table: Table, lang: str, stake: Decimal | None = None) -> str:
    """The sheet's part of the page as it is now, in ``lang`` (the language in
    force): the open deal, its question, the running sheet, a failed save."""
    from raspis_cli.page.table import RELOAD
    from raspis_cli.page.view import table_view
    from raspis_cli.text.i18n import _

    failure = table.failure
    return render_page("table_body.html.j2", lang, v=table_view(table.sheet, lang, stake),
                       failure=None if failure is None else {
                           "text": failure.text(), "reload": failure.changed, "word": RELOAD,
                           "button": _("Read the file again")})
