"""``raspis report``: self-contained HTML pages of a game and of a club.

Library code (no typer, no rich): :mod:`game` and :mod:`club` gather what a
page shows, :mod:`svg` draws the charts, :mod:`render` fills the Jinja2
templates of ``templates/`` (inline CSS, JS and SVG: one file that works
opened from disk, offline). Every word of the pages is in :mod:`strings`.
"""
