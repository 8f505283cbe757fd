"""Rendering the reports through Jinja2 (imported here, lazily by the CLI).

Autoescaping is on for every template: a player called ``<script>`` is text
in the page. The SVG charts are built (and escaped) in :mod:`svg` and marked
safe in the templates; the replay data is JSON through ``tojson``, which
escapes ``<``, ``>`` and ``&``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from raspis_cli.report.strings import STRINGS

__all__ = ["render"]

_TEMPLATES = Path(__file__).resolve().parent / "templates"


def render(template: str, lang: str, **context: Any) -> str:
    """The page ``template`` (a file of ``templates/``) in ``lang``, as text."""
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(_TEMPLATES)),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    return env.get_template(template).render(lang=lang, s=STRINGS[lang], **context)
