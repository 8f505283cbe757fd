"""The documentation site's copy button copies a console block's commands
alone: no ``$ `` prompt, nothing the commands print. The theme (mkdocs-material)
copies a block's ``innerText`` while the block carries ``data-md-copying``;
docs/stylesheets/extra.css hides the prompts and the output there (an output
line's end of line stays: an empty line, which a shell passes over). The site is
built (the ``docs`` extra: skipped without mkdocs) and read in Chromium."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browserkit import need_browser
from tests.servekit import desktop

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow  # the site built by mkdocs, read in Chromium

COPIED = """(() => {
  const code = [...document.querySelectorAll("pre > code")].find(c => c.querySelector(".gp"));
  code.setAttribute("data-md-copying", "");
  const text = code.innerText;
  code.removeAttribute("data-md-copying");
  return [text, code.innerText];
})()"""
"""The first console block's text as the copy button takes it, and as the page shows it."""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("material") is None:
        pytest.skip("mkdocs and its material theme are the docs extra (pip install -e '.[docs]')")
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--site-dir", str(out), "-q"], cwd=ROOT,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"}, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return out


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    need_browser("the documentation site")
    driver = desktop("en")
    try:
        yield driver
    finally:
        driver.quit()


def test_the_copy_button_copies_the_commands_alone(site: Path, browser: Any) -> None:
    browser.get((site / "club" / "index.html").as_uri())
    copied, shown = browser.execute_script(f"return {COPIED}")
    assert shown.startswith("$ raspis simulate --players-pool")
    assert "loaded 200 games into club.duckdb" in shown
    lines = [line for line in copied.splitlines() if line]  # an output line leaves its end of line
    assert lines[0].startswith("raspis simulate --players-pool Анна,Boris,Вера,Дмитрий,Ольга")
    assert "raspis load club.rsp --db club.duckdb" in lines
    assert not [line for line in lines if line.startswith("$") or "loaded 200 games" in line or "│" in line]
    assert [line for line in lines if not line.startswith(("raspis ", "    --"))] == []
