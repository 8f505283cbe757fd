"""The table's page: one model and one page, whoever carries the taps.

:mod:`table` (the editable sheet of ``live``, shared: the lock, the version,
the words of an entry), :mod:`view` (what a phone shows), :mod:`render` (the
page through Jinja2, its templates and its script). No web framework and no
I/O of its own: ``serve`` carries the page over HTTP to the phones at the
table, ``app`` runs it in the phone's browser with no server at all.
"""
