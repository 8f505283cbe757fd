"""Write the railroad diagram of the notation (grammar/notation-diagram.html)
and the keyword rules of grammar/grammar.ebnf, both from the code.

The diagram is drawn by pyparsing's ``create_diagram`` from
:data:`raspis_cli.notation.file_grammar.FILE`, the same token patterns the reader
matches. It needs the optional extra ``diagrams``
(``pip install -e '.[diagrams]'`` in the checkout: pyparsing[diagrams], i.e.
railroad-diagrams and jinja2).

    python grammar/make_diagram.py [OUTPUT.html]

The EBNF's keyword rules (the block that starts with
:data:`raspis_cli.model.lines.KEYWORD_RULES_HEAD`) are rewritten from the table of
line kinds, :mod:`raspis_cli.model.lines`, and its ``mode`` rule from the table
of joker declarations, :mod:`raspis_cli.model.joker_modes`;
``tests/test_grammar_consistency.py`` and ``tests/test_joker_table.py`` fail
until they are.
"""

from __future__ import annotations

import sys
from pathlib import Path

from raspis_cli.model.joker_modes import MODE_RULE_HEAD, mode_rule_ebnf
from raspis_cli.model.lines import KEYWORD_RULES_HEAD, keyword_rules_ebnf
from raspis_cli.notation.file_grammar import FILE

EBNF = Path(__file__).resolve().parent / "grammar.ebnf"


def write_keyword_rules(path: Path = EBNF) -> bool:
    """Rewrite the keyword rules and the ``mode`` rule of the EBNF from their
    tables; True if they changed."""
    text = path.read_text(encoding="utf-8")
    start = text.index(KEYWORD_RULES_HEAD)
    end = text.index("\n\n", start) + 1
    new = text[:start] + keyword_rules_ebnf() + text[end:]
    start = new.index(MODE_RULE_HEAD)
    end = new.index(" ;\n", start) + 3
    new = new[:start] + mode_rule_ebnf() + new[end:]
    if new != text:
        path.write_text(new, encoding="utf-8")
    return new != text


def main(argv: list[str]) -> int:
    """Write the EBNF's keyword rules and the diagram; returns the exit code."""
    if write_keyword_rules():
        print(f"rewrote the keyword rules of {EBNF}")
    out = Path(argv[0]) if argv else Path(__file__).resolve().parent / "notation-diagram.html"
    try:
        FILE.create_diagram(str(out), vertical=4, show_results_names=False, show_groups=False)
    except Exception as e:  # pyparsing says it with a bare Exception
        print(f"make_diagram: {e}; install the extra from the checkout: pip install -e '.[diagrams]'",
              file=sys.stderr)
        return 2
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
