"""The project's own documents say what the code does: every option, value,
preset and violation kind is in docs/RULES.md and docs/RECORD-JSON.md, the
worked examples there hold, the JSON field names there are the ones written,
and every relative link in the Markdown files leads somewhere."""

from __future__ import annotations

import ast
import json
import re
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest

from raspis_cli.engine.actions import VIOLATION_KINDS
from raspis_cli.engine.scoring import bid_score
from raspis_cli.rules import OPTIONS, PRESETS, Rules
from raspis_cli.rules.values import judged_kind
from tests.clikit import ROOT, run_cli

RULES_MD = ROOT / "docs" / "RULES.md"
RECORD_JSON_MD = ROOT / "docs" / "RECORD-JSON.md"
PACKAGE = ROOT / "raspis_cli"
PRESET_FILES = PACKAGE / "rules" / "presets"



# --- reading the documents ---------------------------------------------------------


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _table(text: str, header: list[str]) -> list[list[str]]:
    """The body rows of the Markdown table whose header row is ``header``."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("|") and _cells(line) == header:
            rows = []
            for row in lines[i + 2:]:
                if not row.startswith("|"):
                    break
                rows.append(_cells(row))
            return rows
    raise AssertionError(f"no table with the header {header}")


def _code(cell: str) -> str:
    """The text of a cell that is one `code span`."""
    match = re.fullmatch(r"`([^`]*)`", cell)
    assert match, f"expected one `code` value in the cell {cell!r}"
    return match.group(1)


def _codes(cell: str) -> list[str]:
    return re.findall(r"`([^`]*)`", cell)


def _sections(text: str) -> dict[str, str]:
    """The text of each numbered section (``## 6. Play``) by its number."""
    parts = re.split(r"^## (\d+)\. ", text, flags=re.MULTILINE)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts) - 1, 2)}


# --- options --------------------------------------------------------------------------

OPTION_INDEX = ["option", "Russian", "values", "default", "§"]


def _option_rows() -> dict[str, list[str]]:
    rows = _table(_text(RULES_MD), OPTION_INDEX)
    return {_code(row[0]): row for row in rows}


def test_every_option_is_in_the_index_with_its_values_and_default() -> None:
    rows = _option_rows()
    assert list(rows) == list(OPTIONS), "the index must list every option, in the order of options.py"
    default = Rules()
    for name, spec in OPTIONS.items():
        _, russian, values, default_cell, _ = rows[name]
        assert russian, f"{name}: no Russian name"
        assert _code(default_cell) == spec.show(getattr(default, name)), f"{name}: default"
        for choice in spec.choices:
            assert choice in _codes(values), f"{name}: the value {choice!r} is not documented"


def test_every_option_is_explained_in_its_section() -> None:
    sections = _sections(_text(RULES_MD))
    for name, row in _option_rows().items():
        number = row[4]
        assert number in sections, f"{name}: no section {number}"
        body = sections[number]
        assert f"`{name}`" in body, f"{name} is not explained in section {number}"
        for choice in OPTIONS[name].choices:
            assert f"`{choice}`" in body, f"{name}={choice} is not explained in section {number}"


# --- presets --------------------------------------------------------------------------


def _preset_rows() -> dict[str, dict[str, str]]:
    rows = _table(_text(RULES_MD), ["option", *PRESETS])
    return {_code(row[0]): {p: _code(cell) for p, cell in zip(PRESETS, row[1:], strict=True)}
            for row in rows}


def test_preset_table_matches_the_preset_files() -> None:
    table = _preset_rows()
    default = Rules()
    set_by_data = set()
    for preset in PRESETS:
        data = json.loads((PRESET_FILES / f"{preset}.json").read_text(encoding="utf-8"))
        rules = Rules.preset(preset)
        set_by_data |= {name for name in data["options"] if getattr(rules, name) != getattr(default, name)}
    missing = sorted(set_by_data - set(table))
    assert not missing, f"options a preset sets off the default but the §8 table leaves out: {missing}"
    for name, cells in table.items():
        spec = OPTIONS[name]
        for preset, documented in cells.items():
            actual = spec.show(getattr(Rules.preset(preset), name))
            assert documented == actual, f"{preset}.{name}: the docs say {documented}, the data {actual}"


def test_options_outside_the_preset_table_have_their_default_everywhere() -> None:
    table = _preset_rows()
    default = Rules()
    for name in OPTIONS:
        if name not in table:
            for preset in PRESETS:
                assert getattr(Rules.preset(preset), name) == getattr(default, name), (preset, name)


# --- worked examples -------------------------------------------------------------------


def test_scoring_examples_hold() -> None:
    rows = _table(_text(RULES_MD), ["preset", "kind", "bid", "taken", "score"])
    assert len(rows) >= 10
    for preset, kind, bid, taken, score in rows:
        rules = Rules.preset(preset)
        got = bid_score(rules, judged_kind(kind), None if bid == "-" else int(bid), int(taken))
        assert got == int(score), f"{preset} {kind} bid {bid} took {taken}: {got}, docs say {score}"


# --- violation kinds -------------------------------------------------------------------


def test_every_violation_kind_is_documented() -> None:
    rows = _table(_text(RECORD_JSON_MD), ["kind", "meaning"])
    documented = [_code(row[0]) for row in rows]
    assert documented == list(VIOLATION_KINDS)
    assert all(row[1] for row in rows)


def _kind_parameter(params: list[str]) -> int | None:
    """Where ``kind`` sits among the parameters of a callable that reports a
    violation: one that takes both a ``kind`` and a ``message``."""
    if "kind" in params and "message" in params:
        return params.index("kind")
    return None


def _modules() -> Iterator[tuple[Path, ast.Module]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _emitters(trees: list[tuple[Path, ast.Module]]) -> dict[str, int]:
    """Every callable in the package that reports a violation, by name, with the
    position of its ``kind`` argument."""
    found: dict[str, int] = {}
    for _, tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                params = [a.arg for a in node.args.posonlyargs + node.args.args]
                if params and params[0] in ("self", "cls"):
                    params = params[1:]
            elif isinstance(node, ast.ClassDef):
                params = [s.target.id for s in node.body
                          if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)]
            else:
                continue
            index = _kind_parameter(params)
            if index is not None:
                found[node.name] = index
    return found


def _callee(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def _emitted_kinds() -> dict[str, list[str]]:
    """Every kind the package's code can report, with the places it is written:
    the literal ``kind`` of each call of a reporting callable, and the kind
    strings that helpers return beside a message or a mask (``("bid-range",
    message)``, ``(mask, "follow-suit")``) to be reported by their caller."""
    trees = list(_modules())
    emitters = _emitters(trees)
    assert emitters, "no callable with kind and message parameters: the scan needs updating"
    kinds: dict[str, list[str]] = {}

    def found(value: ast.expr, path: Path) -> None:
        if isinstance(value, ast.Constant) and isinstance(value.value, str) and value.value:
            where = f"{path.relative_to(ROOT)}:{value.lineno}"
            kinds.setdefault(value.value, []).append(where)

    for path, tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _callee(node) in emitters:
                index = emitters[_callee(node) or ""]
                keyword = [k.value for k in node.keywords if k.arg == "kind"]
                if keyword:
                    found(keyword[0], path)
                elif index < len(node.args):
                    found(node.args[index], path)
            if isinstance(node, ast.FunctionDef) and node.returns is not None:
                returns = ast.unparse(node.returns)
                if not re.fullmatch(r"tuple\[(int, str|str, str|str, Message)\]( \| None)?", returns):
                    continue
                for inner in ast.walk(node):
                    if isinstance(inner, ast.Return) and isinstance(inner.value, ast.Tuple):
                        for element in inner.value.elts:
                            found(element, path)
    return kinds


@pytest.mark.slow
def test_the_code_reports_exactly_the_documented_kinds() -> None:
    emitted = _emitted_kinds()
    unknown = {k: v for k, v in emitted.items() if k not in VIOLATION_KINDS}
    assert not unknown, ("kinds reported by the code but missing from VIOLATION_KINDS and "
                         f"docs/RECORD-JSON.md: {unknown}")
    never = set(VIOLATION_KINDS) - set(emitted)
    assert not never, f"kinds in VIOLATION_KINDS that no code reports: {sorted(never)}"


@pytest.mark.slow
def test_kind_scan_sees_a_new_kind() -> None:
    """The scan itself can fail: a call with an undocumented kind is found."""
    source = 'Diagnostic("made-up-kind", "a message")\nViolation(kind="other-kind", message="m")\n'
    tree = ast.parse(source)
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    emitters = _emitters(list(_modules()))
    kinds = []
    for call in calls:
        keyword = [k.value for k in call.keywords if k.arg == "kind"]
        value = keyword[0] if keyword else call.args[emitters[_callee(call) or ""]]
        assert isinstance(value, ast.Constant)
        kinds.append(value.value)
    assert [k for k in kinds if k not in VIOLATION_KINDS] == ["made-up-kind", "other-kind"]


# --- the JSON contract -------------------------------------------------------------------

# objects keyed by player name (or tag name), not by field name
_NAME_MAPS = {"totals", "scores", "hands", "bids", "taken", "tags", "options"}


def _keys(value: object) -> set[str]:
    out: set[str] = set()
    if isinstance(value, dict):
        for key, inner in value.items():
            out.add(key)
            if key == "params":  # a message's parameters: named by its template (docs: messages as data)
                out |= {k for v in dict(inner).values() if isinstance(v, dict) for k in v}
            elif key not in _NAME_MAPS:
                out |= _keys(inner)
    elif isinstance(value, list):
        for inner in value:
            out |= _keys(inner)
    return out


def _documented(key: str) -> bool:
    return f"`{key}`" in _text(RECORD_JSON_MD) or f'"{key}"' in _text(RECORD_JSON_MD)


def test_every_field_of_the_validate_report_is_documented(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"players": [', encoding="utf-8")
    junk = tmp_path / "junk.jsonl"  # a line that is no game: the file's own syntax list
    junk.write_text('{"players": ["A", "B", "C"], "deals": []}\nnot json\n', encoding="utf-8")
    result = run_cli("validate", "--format", "json", "samples/errors-friday.rsp",
                     "samples/raspisnoy-sheet-dispute.rsp", str(broken), str(junk))
    report = json.loads(result.stdout)
    keys = _keys(report)
    assert {"files", "games", "violations", "kind", "error", "code", "syntax"} <= keys
    assert [k for k in sorted(keys) if not _documented(k)] == []


def test_every_field_of_a_converted_record_is_documented() -> None:
    result = run_cli("convert", "--to", "json", "samples/joker54-full.rsp", "samples/mixed-detail.rsp",
                     "samples/raspisnoy-sheet-dispute.rsp")
    assert result.returncode == 0, result.stderr
    keys = _keys([json.loads(line) for line in _json_documents(result.stdout)])
    assert {"format", "deals", "tricks", "joker", "mode", "penalties"} <= keys
    assert [k for k in sorted(keys) if not _documented(k)] == []


def _json_documents(text: str) -> list[str]:
    """The JSON documents ``convert`` printed, one per input file."""
    decoder = json.JSONDecoder()
    out, at = [], 0
    while at < len(text):
        if text[at].isspace():
            at += 1
            continue
        value, end = decoder.raw_decode(text, at)
        out.append(json.dumps(value))
        at = end
    return out


# --- citations and links ---------------------------------------------------------------


def test_the_code_cites_the_documents_where_they_are() -> None:
    bare = re.compile(r"(?<![\w/])(RULES|RECORD-JSON)\.md")
    offenders = []
    for path in sorted(PACKAGE.rglob("*")):
        if path.suffix in (".py", ".json"):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if bare.search(line):
                    offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert offenders == [], "cite docs/RULES.md and docs/RECORD-JSON.md by their path"


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading."""
    text = re.sub(r"[`*_]", "", heading.strip()).lower()
    text = "".join(c for c in text if c in " -" or unicodedata.category(c)[0] in "LN")
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    in_code = False
    for line in _text(path).splitlines():
        if line.startswith("```"):
            in_code = not in_code
        if in_code or not line.startswith("#"):
            continue
        slug = _slug(line.lstrip("#"))
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        out.add(slug if count == 0 else f"{slug}-{count}")
    return out


MARKDOWN = [ROOT / "README.md", ROOT / "bench" / "README.md", ROOT / "CHANGELOG.md", ROOT / "CONTRIBUTING.md",
            *sorted((ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("path", MARKDOWN, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve(path: Path) -> None:
    text = re.sub(r"```.*?```", "", _text(path), flags=re.DOTALL)
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        file_part, _, anchor = target.partition("#")
        linked = (path.parent / file_part).resolve() if file_part else path
        if not linked.exists() or (anchor and linked.suffix == ".md"
                                   and anchor not in _anchors(linked)):
            broken.append(target)
    assert broken == []


def test_readme_links_both_documents() -> None:
    readme = _text(ROOT / "README.md")
    assert "](docs/RULES.md" in readme and "](docs/RECORD-JSON.md" in readme
    assert "](RECORD-JSON.md" in _text(ROOT / "docs" / "SCHEMA.md")


def test_every_line_keyword_is_in_the_notation_guide() -> None:
    """A line kind added to ``raspis_cli/model/lines.py`` fails here until
    ``docs/NOTATION.md`` shows it (its English and Russian keyword); its
    JSON field needs no word of its own in docs/RECORD-JSON.md, which says
    every line of pairs is a deal field of the same name."""
    from raspis_cli.model.lines import KEYWORD_SPELLINGS, PAIRS_LINES

    guide = (ROOT / "docs" / "NOTATION.md").read_text(encoding="utf-8")
    for words in KEYWORD_SPELLINGS.values():
        english, russian = words[0], words[1]
        assert re.search(rf"`{re.escape(english)}\b", guide), english
        assert f"`{russian}`" in guide, russian
    contract = (ROOT / "docs" / "RECORD-JSON.md").read_text(encoding="utf-8")
    assert "every line of pairs" in contract
    for kind in PAIRS_LINES:
        assert f"`{kind.field}`" in contract or kind.field not in ("bids", "taken", "scores", "totals")
