"""Which tests to mark ``slow``, read from a run's timings (CONTRIBUTING.md, "Test a change").

    .venv/bin/python -m pytest -m "not slow" -n auto --junitxml=/tmp/quick.xml
    .venv/bin/python -m scripts.slow_tests /tmp/quick.xml          # lists them
    .venv/bin/python -m scripts.slow_tests /tmp/quick.xml --mark   # adds @pytest.mark.slow

A test function is slow when one of its cases took ``--case`` seconds or more, or all its
cases together ``--total`` seconds or more (a parametrized family of quick cases). The
marker goes on the function, above its other decorators; a function already marked is left
alone, and a module that does not import pytest gets the import.
"""

from __future__ import annotations

import argparse
import ast
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Timing:
    """What one test function cost in a run: its module's path, its name, its cases, the
    seconds of its costliest case and of all of them."""

    path: Path
    name: str
    cases: int
    longest: float
    total: float


def timings(junit_xml: Path, root: Path = ROOT) -> list[Timing]:
    """Every test function of a JUnit XML report (``pytest --junitxml``), its cases summed;
    costliest first."""
    longest: dict[tuple[str, str], float] = defaultdict(float)
    total: dict[tuple[str, str], float] = defaultdict(float)
    cases: dict[tuple[str, str], int] = defaultdict(int)
    for case in ET.parse(junit_xml).iter("testcase"):
        module = case.get("classname", "")
        if "." not in module:
            continue
        key = (module, case.get("name", "").split("[", 1)[0])
        seconds = float(case.get("time", "0"))
        longest[key] = max(longest[key], seconds)
        total[key] += seconds
        cases[key] += 1
    found = []
    for (module, name), seconds in total.items():
        path = root.joinpath(*module.split(".")).with_suffix(".py")
        found.append(Timing(path, name, cases[(module, name)], longest[(module, name)], seconds))
    return sorted(found, key=lambda t: -t.total)


def marked_slow(path: Path) -> set[str]:
    """The test functions of a module that carry ``@pytest.mark.slow`` (or whose module does,
    through ``pytestmark``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    whole = any(isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "pytestmark"
                                                     for t in node.targets)
                and "slow" in ast.unparse(node.value) for node in tree.body)
    return {node.name for node in tree.body
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test")
            and (whole or any(ast.unparse(d).endswith("mark.slow") for d in node.decorator_list))}


def to_mark(found: list[Timing], case: float, total: float) -> list[Timing]:
    """The functions over either bound that are not marked slow yet."""
    already: dict[Path, set[str]] = {}
    over = []
    for timing in found:
        if timing.longest < case and timing.total < total:
            continue
        if timing.path not in already:
            already[timing.path] = marked_slow(timing.path) if timing.path.exists() else set()
        if timing.name not in already[timing.path]:
            over.append(timing)
    return over


def mark(path: Path, names: set[str]) -> None:
    """Put ``@pytest.mark.slow`` above the decorators of each named test function of a module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    starts = sorted((min([d.lineno for d in node.decorator_list] + [node.lineno]) - 1)
                    for node in tree.body if isinstance(node, ast.FunctionDef) and node.name in names)
    for start in reversed(starts):
        lines.insert(start, "@pytest.mark.slow\n")
    imports_pytest = any(isinstance(node, ast.Import) and any(alias.name == "pytest" for alias in node.names)
                         for node in tree.body)
    if not imports_pytest:
        # after the module's docstring and its __future__ import (ruff --fix then sorts it among the others)
        head = 0
        for node in tree.body:
            docstring = isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            future = isinstance(node, ast.ImportFrom) and node.module == "__future__"
            if not (docstring or future):
                break
            head = node.end_lineno or node.lineno
        lines.insert(head, "\nimport pytest\n")
    path.write_text("".join(lines), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """List (or mark) the tests a run's timings call slow; exit 1 when some are unmarked."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("junit_xml", type=Path)
    parser.add_argument("--case", type=float, default=1.5, help="seconds of one case (default 1.5)")
    parser.add_argument("--total", type=float, default=6.0, help="seconds of all cases (default 6)")
    parser.add_argument("--mark", action="store_true", help="add @pytest.mark.slow to them")
    args = parser.parse_args(argv)
    over = to_mark(timings(args.junit_xml), args.case, args.total)
    for timing in over:
        print(f"{timing.longest:6.1f} s longest, {timing.total:6.1f} s in {timing.cases} case(s): "
              f"{timing.path.relative_to(ROOT) if timing.path.is_relative_to(ROOT) else timing.path}"
              f"::{timing.name}")
    if args.mark:
        by_module: dict[Path, set[str]] = defaultdict(set)
        for timing in over:
            by_module[timing.path].add(timing.name)
        for path, names in by_module.items():
            mark(path, names)
        print(f"marked {len(over)} test function(s) slow in {len(by_module)} module(s)")
        return 0
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
