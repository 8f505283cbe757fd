"""The ``raspis`` command line: one typer app, one module per command group.

Only this package imports typer and rich. Each command module registers its
commands on :data:`app` when imported below.
"""

from __future__ import annotations

import sys

from raspis_cli.cli.common import app, guard_console_encoding, run_app

# Command modules register themselves on ``app`` as they are imported.
from raspis_cli.cli import rules_cmd  # noqa: F401  isort: skip
from raspis_cli.cli import fmt_cmd  # noqa: F401  isort: skip
from raspis_cli.cli import convert_cmd  # noqa: F401  isort: skip
from raspis_cli.cli import validate_cmd  # noqa: F401  isort: skip
from raspis_cli.cli import score_cmd  # noqa: F401  isort: skip
from raspis_cli.cli import show_cmd  # noqa: F401  isort: skip
from raspis_cli.cli import simulate_cmd  # noqa: F401  isort: skip
from raspis_cli.cli import store_cmd  # noqa: F401  isort: skip
from raspis_cli.cli import analyze_cmd  # noqa: F401  isort: skip

__all__ = ["app", "main"]


def main() -> None:
    """Entry point of the ``raspis`` console script."""
    guard_console_encoding()
    sys.exit(run_app(sys.argv[1:]))
