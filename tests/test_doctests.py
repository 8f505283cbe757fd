"""Every example in the package's docstrings (``>>>``) runs and prints what it says."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "raspis_cli"


def _modules_with_examples() -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if ">>> " in path.read_text(encoding="utf-8"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found.append(".".join(parts))
    return found


MODULES = _modules_with_examples()


def test_the_examples_are_found() -> None:
    # the modules whose docstrings the README's architecture points to for an example
    assert {"raspis_cli.notation.reader", "raspis_cli.simulate", "raspis_cli.rules"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0, f"{name}: no example ran"
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed"
