"""The pages of ``raspis serve`` through Jinja2 (autoescaping on: a name holding
``<script>`` is text on every phone)."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import jinja2

__all__ = ["render_page"]

_TEMPLATES = Path(__file__).resolve().parent / "templates"


@functools.cache
def _environment() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(_TEMPLATES)), autoescape=True,
                              undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)


def render_page(template: str, lang: str, **context: Any) -> str:
    """The template ``template`` (a fixed name of ``templates/``) in ``lang``."""
    return _environment().get_template(template).render(lang=lang, **context)
