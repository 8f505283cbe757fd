"""The ``.rsp`` notation: reading, writing, and the JSON interchange.

- :mod:`~raspis_cli.notation.grammar`: the grammar (pyparsing and the card
  model only), line parsing and syntax diagnostics;
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
