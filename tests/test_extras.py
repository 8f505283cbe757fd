"""The optional parts of raspis (pyproject's extras): a command whose part is
not installed says which extra adds it and how, from the checkout (raspis is
on no package index: ``pip install 'raspis[...]'`` would fail, or install
somebody else's package), and changes nothing. The child processes stand in
for an install without the part by hiding its module (``sys.modules[name] =
None``: ``import`` fails and ``importlib.util.find_spec`` finds nothing)."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _without(hidden: tuple[str, ...], *args: str, env: dict[str, str] | None = None,
             ) -> subprocess.CompletedProcess[str]:
    child = ("import sys\n"
             f"for name in {hidden!r}:\n    sys.modules[name] = None\n"
             f"sys.argv = ['raspis', *{list(args)!r}]\n"
             "from raspis_cli.cli import main\nmain()\n")
    full = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1", "COLUMNS": "400", **(env or {})}
    return subprocess.run([sys.executable, "-c", child], cwd=ROOT, env=full, capture_output=True, text=True,
                          encoding="utf-8", timeout=300)


def test_load_without_arrow_names_the_club_extra(tmp_path: Path) -> None:
    db = tmp_path / "club.duckdb"
    done = _without(("pyarrow",), "load", "samples/classic.rsp", "--db", str(db))
    assert done.returncode == 2, done.stderr
    assert "pip install -e '.[club]'" in done.stderr and "pipx install --force '.[club]'" in done.stderr
    assert not db.exists()


def test_serve_without_the_web_server_names_the_serve_extra(tmp_path: Path) -> None:
    sheet = tmp_path / "friday.rsp"
    done = _without(("starlette", "uvicorn"), "serve", str(sheet), "--players", "Анна, Борис, Вера")
    assert done.returncode == 2, done.stderr
    assert "pip install -e '.[serve]'" in done.stderr
    assert not sheet.exists()


@pytest.mark.parametrize(("lang", "words"), [("en", "the analyze extra adds it"), ("ru", "её добавляет")])
def test_analyze_without_numba_says_it_is_slow_and_names_the_analyze_extra(lang: str, words: str) -> None:
    env = {k: v for k, v in os.environ.items() if k != "RASPIS_NO_JIT"}
    child_env = {**env, "PYTHONPATH": str(ROOT), "NO_COLOR": "1", "COLUMNS": "400"}
    child = ("import sys\nsys.modules['numba'] = None\n"
             "sys.argv = ['raspis', '--lang', sys.argv[1], 'analyze', 'samples/classic.rsp', '--deal', '1',"
             " '--samples', '0']\nfrom raspis_cli.cli import main\nmain()\n")
    done = subprocess.run([sys.executable, "-c", child, lang], cwd=ROOT, env=child_env, capture_output=True,
                          text=True, encoding="utf-8", timeout=300)
    assert done.returncode in (0, 1), done.stderr
    assert words in done.stderr and "pip install -e '.[analyze]'" in done.stderr, done.stderr


def test_every_extra_a_message_names_exists() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"]
    assert {"analyze", "club", "serve"} <= set(extras)
    assert "numba>=0.59,<1" in extras["analyze"] and any(d.startswith("pyarrow") for d in extras["club"])
    test = extras["test"]
    assert {d.split(">")[0] for d in extras["analyze"] + extras["club"] + extras["serve"]} <= {
        d.split(">")[0] for d in test}, "the tests install every part"
