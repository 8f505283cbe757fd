"""Tables written to a pipe without rich are character for character what rich
prints there (raspis_cli/cli/plaintable.py), so that skipping rich's import
on the start-up path changes no output."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.table import Table

from raspis_cli.cli.plaintable import box_table

ROOT = Path(__file__).resolve().parent.parent


def _rich(header: list[str], rows: list[list[str]], title: str | None, right: list[bool],
          width: int) -> str:
    out = io.StringIO()
    console = Console(file=out, width=width, soft_wrap=True, highlight=False, color_system=None)
    table = Table(title=title, show_lines=False)
    for name, is_right in zip(header, right, strict=True):
        table.add_column(name, overflow="fold", justify="right" if is_right else "left")
    for row in rows:
        table.add_row(*row)
    console.print(table, markup=False)
    return out.getvalue()


_TEXT = st.text(alphabet="ab Ыж♠♥10-+=/()·長", min_size=0, max_size=12).map(str.strip)


@settings(max_examples=60, deadline=None)
@given(columns=st.integers(1, 5), data=st.data())
def test_box_table_is_what_rich_prints(columns: int, data: st.DataObject) -> None:
    header = data.draw(st.lists(_TEXT.filter(bool), min_size=columns, max_size=columns))
    rows = data.draw(st.lists(st.lists(_TEXT, min_size=columns, max_size=columns), max_size=4))
    right = data.draw(st.lists(st.booleans(), min_size=columns, max_size=columns))
    title = data.draw(st.one_of(st.none(), _TEXT.filter(bool)))
    plain = box_table(header, rows, title, right, width=240)
    assert plain == _rich(header, rows, title, right, 240)


def test_a_table_wider_than_the_width_is_left_to_rich() -> None:
    assert box_table(["name"], [["x" * 50]], width=40) is None
    assert box_table(["name"], [[" padded"]]) is None


_THROUGH_RICH = ("import sys; import raspis_cli.cli.plaintable as p; p.box_table = lambda *a, **k: None; "
                 "from raspis_cli.cli import main; sys.argv[0] = 'raspis'; main()")


def _run(args: list[str], through_rich: bool) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = ["-c", _THROUGH_RICH] if through_rich else ["-m", "raspis_cli"]
    return subprocess.run([sys.executable, *command, *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, encoding="utf-8", check=False).stdout


def test_score_and_rules_list_print_the_same_with_and_without_rich() -> None:
    for args in (["score", "samples/raspisnoy-sheet-dispute.rsp", "--compare", "classic"],
                 ["rules", "list"]):
        plain = _run(args, through_rich=False)
        assert plain == _run(args, through_rich=True)
        assert "┏" in plain
