"""``python -m raspis_cli``: the same as the ``raspis`` command."""

from raspis_cli.cli import main

main()
