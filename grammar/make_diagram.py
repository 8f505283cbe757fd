"""Write the railroad diagram of the notation: grammar/notation-diagram.html.

The diagram is drawn by pyparsing's ``create_diagram`` from
:data:`raspis_cli.notation.grammar.FILE`, the same token patterns the reader
matches. It needs the optional extra ``diagrams``
(``pip install 'raspis[diagrams]'``: pyparsing[diagrams], i.e.
railroad-diagrams and jinja2).

    python grammar/make_diagram.py [OUTPUT.html]
"""

from __future__ import annotations

import sys
from pathlib import Path

from raspis_cli.notation.grammar import FILE


def main(argv: list[str]) -> int:
    """Write the diagram; returns the exit code."""
    out = Path(argv[0]) if argv else Path(__file__).resolve().parent / "notation-diagram.html"
    try:
        FILE.create_diagram(str(out), vertical=4, show_results_names=False, show_groups=False)
    except ImportError as e:
        print(f"make_diagram: {e}; install the extra: pip install 'raspis[diagrams]'",
              file=sys.stderr)
        return 2
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
