"""The tree is the architecture: every import of the package points down through its layers, no
two modules import each other (directly or round a longer circle), and no module takes another's
private names.

The imports are read with ``ast``, lazy ones (inside functions, under ``TYPE_CHECKING``) included:
a lazy import still ties the two modules together. CONTRIBUTING.md draws the same layers and names
every module; a test below holds the two in step.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "raspis_cli"

LAYERS: tuple[tuple[str, ...], ...] = (
    ("text",),
    ("model",),
    ("rules",),
    ("engine",),
    ("solver",),
    ("notation",),
    ("files",),
    ("judge",),
    ("bots",),
    ("simulate",),
    ("analyze",),
    ("explain",),
    ("sheet",),
    ("store",),
    ("report",),
    ("page",),
    ("serve",),
    ("app",),
    ("cli", "__main__"),
)
"""The layers, bottom first. A module may import from its own layer's package and from any layer
below it, never from one above (``raspis_cli`` itself, which holds only the version, is below
them all)."""

RANK = {package: rank for rank, packages in enumerate(LAYERS) for package in packages}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _layer(module: str) -> str | None:
    """The layer package of a module of raspis_cli (``None``: the package root)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def _imports(path: Path) -> Iterator[tuple[int, str, list[str]]]:
    """(line, module imported, names) for every import of raspis_cli in a file, lazy ones too."""
    module = _module_name(path) if path.is_relative_to(PACKAGE) else ""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "raspis_cli":
                    yield node.lineno, alias.name, []
        elif isinstance(node, ast.ImportFrom):
            target = node.module or ""
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join([*base, target] if target else base)
            if target.split(".")[0] == "raspis_cli":
                yield node.lineno, target, [a.name for a in node.names]


def _edges() -> dict[str, set[str]]:
    """Module -> the modules of raspis_cli it imports (a name that is a submodule counts as one)."""
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for module, path in MODULES.items():
        for _line, target, names in _imports(path):
            found = {f"{target}.{n}" for n in names if f"{target}.{n}" in MODULES}
            if target in MODULES and (not names or len(found) < len(names)):
                found.add(target)
            graph[module] |= found - {module}
    return graph


def test_every_module_sits_in_a_layer() -> None:
    loose = [m for m in MODULES if m.count(".") == 1 and m != "raspis_cli.__main__"
             and _layer(m) not in RANK]
    assert not loose, f"modules outside the layers (put them in a layer's package): {loose}"
    unknown = sorted({layer for m in MODULES if (layer := _layer(m)) is not None and layer not in RANK})
    assert not unknown, f"packages that are no layer (add them to LAYERS and CONTRIBUTING.md): {unknown}"


@pytest.mark.slow
def test_imports_point_down_through_the_layers() -> None:
    upward = []
    for module, path in MODULES.items():
        here = _layer(module)
        if here is None:
            continue
        for line, target, _names in _imports(path):
            there = _layer(target)
            if there is not None and there != here and RANK[there] > RANK[here]:
                upward.append(f"{path.relative_to(ROOT)}:{line}: {module} ({here}) imports {target}"
                              f" ({there})")
    assert not upward, "imports against the layers:\n" + "\n".join(upward)


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


@pytest.mark.slow
def test_no_import_circles() -> None:
    cycles = _cycles(_edges())
    assert not cycles, "modules that import each other (round a circle): " + "; ".join(
        " <-> ".join(c) for c in cycles)


def test_the_circle_finder_finds_a_circle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def _checked_files() -> list[Path]:
    files = sorted(PACKAGE.rglob("*.py"))
    for folder in ("tests", "bench", "scripts", "grammar"):
        files += sorted((ROOT / folder).glob("*.py"))
    return files


@pytest.mark.slow
def test_no_private_names_imported_across_modules() -> None:
    taken = []
    for path in _checked_files():
        for line, target, names in _imports(path):
            for name in names:
                # ``_`` is gettext's: the one way to mark a string for translation
                if name.startswith("_") and not name.startswith("__") and name != "_":
                    taken.append(f"{path.relative_to(ROOT)}:{line}: {name} from {target}")
    assert not taken, "private names imported from another module (make them public):\n" + "\n".join(taken)


def test_bench_and_scripts_do_not_reach_into_the_tests() -> None:
    reaching = []
    for folder in ("bench", "scripts", "grammar"):
        for path in sorted((ROOT / folder).glob("*.py")):
            text = path.read_text(encoding="utf-8")
            if re.search(r"sys\.path\.(insert|append)", text):
                reaching.append(str(path.relative_to(ROOT)))
    assert not reaching, f"edit sys.path to import the test kits (import raspis_cli instead): {reaching}"


def _tree_paths(tree: str) -> set[str]:
    """The paths a drawn tree names: each entry's first word, under the folders it is indented in."""
    paths: set[str] = set()
    folders: list[tuple[int, str]] = []
    for line in tree.splitlines():
        words = line.split()
        if not words or words[0].startswith("`"):
            continue
        indent = len(line) - len(line.lstrip())
        while folders and folders[-1][0] >= indent:
            folders.pop()
        path = "".join(name for _indent, name in folders) + words[0]
        paths.add(path)
        if words[0].endswith("/"):
            folders.append((indent, words[0]))
    return paths


def test_contributing_names_every_module_under_its_layer() -> None:
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    named = _tree_paths(text.split("<!-- tree -->")[1])
    missing = []
    for module in MODULES:
        parts = module.split(".")
        if len(parts) == 1:
            continue
        is_package = (PACKAGE / Path(*parts[1:])).is_dir()
        shown = "raspis_cli/" + "/".join(parts[1:]) + ("/" if is_package else ".py")
        if shown not in named:
            missing.append(shown)
    assert not missing, f"modules CONTRIBUTING.md's tree does not name: {missing}"
    stale = sorted(p for p in named if p.endswith(".py") and not (ROOT / p).exists())
    assert not stale, f"CONTRIBUTING.md's tree names modules that are no more: {stale}"


@pytest.mark.parametrize("layer", [p for packages in LAYERS for p in packages if p != "__main__"])
def test_each_layer_says_what_it_holds(layer: str) -> None:
    init = PACKAGE / layer / "__init__.py"
    assert init.exists()
    docstring = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
    assert docstring, f"{layer}/__init__.py: no docstring"
