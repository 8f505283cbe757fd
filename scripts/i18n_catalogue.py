"""Keep the Russian catalogue in step with the source.

    python scripts/i18n_catalogue.py          # add every new msgid (empty translation) to raspis.po
    python scripts/i18n_catalogue.py --check  # list msgids without a translation; exit 1 if any
    python scripts/i18n_catalogue.py --mo     # also write raspis.mo beside the .po (Babel's write_mo)

A msgid is the first argument of ``_()`` / ``N_()`` / ``msg()`` (a string literal), the two
of ``ngettext()`` / ``msg_n()`` (in Jinja templates too), and the docstring of every function
registered as a command
(``@app.command``, ``@x_app.command``, ``.callback``): typer shows it as help.
"""

from __future__ import annotations

import argparse
import ast
import inspect
import re
import sys
from pathlib import Path

from babel.messages.pofile import escape

from raspis_cli.text.catalogue import catalogue_path, compiled, po_entries, read_catalogue

ROOT = Path(__file__).resolve().parent.parent

Msgid = str | tuple[str, str]


def _is_command_decorator(node: ast.expr) -> bool:
    call = node.func if isinstance(node, ast.Call) else node
    return isinstance(call, ast.Attribute) and call.attr in ("command", "callback")


def extract_file(path: Path) -> list[tuple[Msgid, int]]:
    """The msgids of one source file, with their line numbers, in order."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found: list[tuple[Msgid, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            args = node.args
            if node.func.id in ("_", "N_", "msg") and args and isinstance(args[0], ast.Constant) \
                    and isinstance(args[0].value, str):
                found.append((args[0].value, node.lineno))
            elif node.func.id in ("ngettext", "msg_n") and len(args) >= 2 and all(
                    isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args[:2]):
                singular, plural = args[0], args[1]
                assert isinstance(singular, ast.Constant) and isinstance(plural, ast.Constant)
                found.append(((singular.value, plural.value), node.lineno))
        elif isinstance(node, ast.FunctionDef) and any(_is_command_decorator(d) for d in node.decorator_list):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                found.append((inspect.cleandoc(doc), node.lineno))
    return sorted(found, key=lambda item: item[1])


_TEMPLATE_CALL = re.compile(
    r"""\b(?:(?P<one>_)\(\s*(?P<q1>["'])(?P<m1>.*?)(?P=q1)\s*\)"""
    r"""|ngettext\(\s*(?P<q2>["'])(?P<s>.*?)(?P=q2)\s*,\s*(?P<q3>["'])(?P<p>.*?)(?P=q3)\s*,)""")


def extract_template(path: Path) -> list[tuple[Msgid, int]]:
    """The msgids of a Jinja template (``{{ _("...") }}``, ``ngettext("...", "...", n)``)."""
    text = path.read_text(encoding="utf-8")
    found: list[tuple[Msgid, int]] = []
    for m in _TEMPLATE_CALL.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        found.append((m.group("m1"), line) if m.group("one") else ((m.group("s"), m.group("p")), line))
    return found


def extract(root: Path = ROOT / "raspis_cli") -> dict[Msgid, list[str]]:
    """Every msgid of the package (Python sources and Jinja templates), with
    the places (``path:line``) it is used."""
    out: dict[Msgid, list[str]] = {}
    sources = [(p, extract_file) for p in sorted(root.rglob("*.py"))] \
        + [(p, extract_template) for p in sorted(root.rglob("*.j2"))]
    for path, extractor in sources:
        for msgid, line in extractor(path):
            out.setdefault(msgid, []).append(f"{path.relative_to(ROOT)}:{line}")
    return out


def po_entry(msgid: Msgid, places: list[str]) -> str:
    """A new PO entry with an empty translation."""
    lines = [f"#: {' '.join(places[:3])}"]
    if isinstance(msgid, tuple):
        lines += [f"msgid {escape(msgid[0])}", f"msgid_plural {escape(msgid[1])}",
                  'msgstr[0] ""', 'msgstr[1] ""', 'msgstr[2] ""']
    else:
        lines += [f"msgid {escape(msgid)}", 'msgstr ""']
    return "\n".join(lines) + "\n"


def main() -> int:
    """Add new msgids to the catalogue, or check it."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="only list msgids without a translation")
    parser.add_argument("--mo", action="store_true", help="also write the compiled .mo")
    args = parser.parse_args()
    path = catalogue_path("ru")
    text = path.read_text(encoding="utf-8")
    known = po_entries(text)
    used = extract()
    missing = {m: p for m, p in used.items() if m not in known}
    empty = [m for m in used if m in known and not all(known[m])]
    if args.check:
        for msgid in [*missing, *empty]:
            print(f"untranslated: {msgid!r} ({', '.join(used[msgid])})")
        return 1 if missing or empty else 0
    if missing:
        text = text.rstrip("\n") + "\n\n" + "\n".join(po_entry(m, p) for m, p in missing.items())
        path.write_text(text, encoding="utf-8")
        print(f"{len(missing)} new msgid(s) added to {path.relative_to(ROOT)}: translate them")
    if args.mo:
        path.with_suffix(".mo").write_bytes(compiled(read_catalogue(text)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
