"""The ``.rsp`` notation: reading, writing, and the JSON interchange.

- :mod:`~raspis_cli.notation.tokens`: the words and token patterns;
  :mod:`~raspis_cli.notation.scanner`: comments; :mod:`~raspis_cli.notation.quoting`: names;
- :mod:`~raspis_cli.notation.line_grammar`: one line parsed, or what is wrong with it;
  :mod:`~raspis_cli.notation.file_grammar`: the whole notation as a pyparsing grammar;
- :mod:`~raspis_cli.notation.reader`: text to :class:`~raspis_cli.model.record.GameRecord`;
- :mod:`~raspis_cli.notation.writer`: records to the canonical text;
- :mod:`~raspis_cli.notation.jsoncodec`: records to and from docs/RECORD-JSON.md.
"""

from __future__ import annotations

from raspis_cli.model.diagnostics import Diagnostic
from raspis_cli.notation.reader import ReadResult, iter_games, read_bytes, read_file, read_text
from raspis_cli.notation.writer import NotationWriteError, write_game, write_games

__all__ = [
    "Diagnostic",
    "ReadResult",
    "read_text",
    "read_bytes",
    "read_file",
    "iter_games",
    "write_game",
    "write_games",
    "NotationWriteError",
]
