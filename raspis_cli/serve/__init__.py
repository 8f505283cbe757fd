"""``raspis serve``: the sheet at the table and the club's pages, on every phone.

The layer of the web server (the only one besides ``cli/`` that imports a web
framework), a thin adapter that carries the table's page
(:mod:`raspis_cli.page`) over HTTP: :mod:`app` (the Starlette routes and
their guards), :mod:`access` (the access code), :mod:`club` (the database's
pages), :mod:`run` (uvicorn).
"""
