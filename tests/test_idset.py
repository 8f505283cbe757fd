"""The compact game-id table of ``load`` (raspis_cli.store.idset) against a plain dict."""

from __future__ import annotations

import hashlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from raspis_cli.store.idset import IdMarks


def _hex(n: int) -> str:
    return hashlib.sha256(str(n).encode()).hexdigest()[:20]


def test_marks_match_a_dict_through_growth() -> None:
    rng = random.Random(16)
    table, expected = IdMarks(), {}
    ids = [_hex(n) for n in range(5000)]
    # ids that share their first 16 digits, or their last 4, and ones that are not hex ids
    ids += [ids[0][:16] + f"{n:04x}" for n in range(40)] + [f"{n:016x}" + ids[1][16:] for n in range(40)]
    ids += ["", "ABCDEF0123456789ABCD", "0x" + "1" * 18, " " + "2" * 19, "1_" + "3" * 18, "g" * 20, "4" * 21]
    for _ in range(20_000):
        gid = rng.choice(ids)
        if rng.random() < 0.5:
            mark = rng.choice([0, 1, 2, 3, 2**32 - 2, rng.randrange(2**32 - 1)])
            table.put(gid, mark)
            expected[gid] = mark
        assert table.get(gid) == expected.get(gid, -1), gid
        assert (gid in table) == (gid in expected)
    assert len(table) == len(expected)
    for gid in ids:
        assert table.get(gid, 7) == expected.get(gid, 7), gid
    assert table.nbytes() <= 14 * 4 * len(expected)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 300), st.integers(0, 2**32 - 2)), max_size=400))
def test_marks_property(puts: list[tuple[int, int]]) -> None:
    table, expected = IdMarks(), {}
    for n, mark in puts:
        table.put(_hex(n), mark)
        expected[_hex(n)] = mark
    assert len(table) == len(expected)
    for n in range(301):
        assert table.get(_hex(n)) == expected.get(_hex(n), -1)


def test_a_mark_out_of_range_is_refused() -> None:
    table = IdMarks()
    for mark in (-1, 2**32 - 1):
        with pytest.raises(ValueError):
            table.put(_hex(1), mark)
    assert _hex(1) not in table
