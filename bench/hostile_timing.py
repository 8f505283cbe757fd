"""How long raspis takes on pathological inputs: figures, not a test.

The test suite checks that these shapes are read correctly
(``tests/test_fuzz.py``); it never asserts how long that takes, because a
busy machine makes any wall-clock limit fail correct code. This script
prints the times, and the ratio that shows reading is linear: 10x the
games should take about 10x as long.

    .venv/bin/python -m bench.hostile_timing
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from raspis_cli.notation import read_text
from raspis_cli.notation.jsoncodec import read_json_text
from tests.fuzzkit import check_bytes, seeds
from tests.test_fuzz import PATHOLOGICAL

ROOT = Path(__file__).resolve().parent.parent

LONG_LINES = {
    "sheet cell with 60,000 spaces": "23. 9 Вера | 3/3 200 1330 |" + " " * 30_000 + "9" + " " * 30_000
    + "2/5 50 1130 | 2/0 0 1440",
    "penalty with 60,000 spaces": "  penalty Анна -20 revoke" + " " * 60_000 + "of hearts",
    # each took seconds to minutes before its pattern was made possessive (the campaign's seed 42)
    "trick of names run into numbers": "  trick " + "a1" * 30_000 + " x",
    "trick, a card and 60,000 spaces": "  trick Борис: 6♣" + " " * 60_000 + "x",
    "sheet line, 60,000 spaces after": '[Players "Анна, Борис, Вера"]\n1. 1 Борис ♠ | 0/0 | 1/1 | 0/0'
    + " " * 60_000 + "[",
}


def _nested(depth: int) -> str:
    """Message data nested ``depth`` messages deep (a crafted database), as JSON text."""
    head = ('{"template": "deal {number}: {message}", "translate": false, '
            '"params": {"number": 2, "message": {"message": ')
    return head * depth + '{"template": "the comment is empty"}' + "}}}" * depth


STORED_MESSAGES = {
    # a stored message's data said again in Russian (serve's and the report's pages of a stored game)
    "stored: 240 messages nested": _nested(240),
    "stored: 100,000 nested (refused)": _nested(100_000),
    "stored: a 20,000-item list": json.dumps({"template": "{items}", "translate": False,
                                              "params": {"items": {"seq": [{"card": "QD"}] * 20_000}}}),
    "stored: a 200,000-character name": json.dumps({"template": "{player}: the comment is empty",
                                                    "params": {"player": "Ж" * 200_000}}),
}


def best(action: object, repeat: int = 3) -> float:
    """The best of ``repeat`` timings of ``action()`` in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    """Print one line per input: its size and the best of three times."""
    for name, data in sorted(PATHOLOGICAL.items()):
        print(f"{name:36} {len(data):>10,} bytes  {best(lambda d=data: check_bytes(d), 1):8.3f} s")
    for name, line in LONG_LINES.items():
        print(f"{name:36} {len(line):>10,} chars  {best(lambda t=line: read_text(t + chr(10))):8.3f} s")
    game = seeds()[-2].decode("utf-8")
    small = best(lambda: read_text(game * 4))
    big = best(lambda: read_text(game * 40))
    print(f"read 4 games {small:.3f} s, 40 games {big:.3f} s: ratio {big / small:.1f} (linear: about 10)")
    from raspis_cli.notation.writer import written_language

    block = ("{ a comment\n" + " " * 60_000 + "x\n}").split("\n")
    print(f"{'fmt, its language: a comment line of 60,000 spaces':36} {sum(map(len, block)):>10,} chars  "
          f"{best(lambda: written_language(block)):8.3f} s")
    from raspis_cli.text import i18n
    from raspis_cli.text.messages import stored_message

    with i18n.speaking("ru"):
        for name, stored in STORED_MESSAGES.items():
            print(f"{name:36} {len(stored):>10,} chars  "
                  f"{best(lambda d=stored: stored_message('as stored', d), 1):8.3f} s")
    json_game = seeds()[-1].decode("utf-8")
    listed = best(lambda: read_json_text("[" + ",".join([json_game] * 300) + "]"))
    print(f"a .json list of 300 games: {listed:.3f} s")


if __name__ == "__main__":
    main()
