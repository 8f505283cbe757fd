"""``raspis serve``: the sheet at the table and the club's pages, on every phone.

The layer of the web server (the only one besides ``cli/`` that imports a web
framework): :mod:`table` (the editable sheet of ``live``, shared: the lock,
the version, the words of an entry), :mod:`view` (what a phone shows),
:mod:`app` (the Starlette routes and their guards), :mod:`club` (the
database's pages), :mod:`run` (uvicorn).
"""
