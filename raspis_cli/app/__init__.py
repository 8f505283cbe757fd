"""``raspis app``: the table on one phone, offline, with no laptop and no server.

The layer of the phone app: :mod:`phone` (the model its page calls in the
browser: games kept in the browser's storage, the table's page of
:mod:`raspis_cli.page` run there), :mod:`bundle` (the static app written by
``raspis app build``: the Python runtime, raspis's pure layers, the page),
:mod:`icons` (its icons, drawn). Nothing here imports a web framework.
"""
