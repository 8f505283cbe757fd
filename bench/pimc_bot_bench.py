"""The PIMC bot against today's heuristic bot: mean score per game, 95% CI.

    python bench/pimc_bot_bench.py [--games N] [--players P] [--samples K] [--seed S]
                                   [--log FILE] [--start I] [--report [--also FILE]]

Game ``i`` (seed ``game_seed(S, i)``, raspisnoy rules) seats one PIMC bot at
seat ``i mod P`` (seats rotated) and heuristic bots elsewhere. Per game the
figure is the PIMC seat's final total minus the mean total of the heuristic
seats (0 on average if the bots were equal). Prints the mean of that
difference, the mean totals of each kind of seat, and 95% confidence
intervals (normal approximation, mean ± 1.96·sd/√n).

``--log FILE`` appends one JSON line per finished game, so a long run can be
stopped and read (``--report``) at any point: the figure says how many games
it is over.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from pathlib import Path

from raspis_cli.rules import Rules
from raspis_cli.simulate.game import game_seed, simulate_game

ROOT = Path(__file__).resolve().parent.parent


def _ci(values: list[float]) -> str:
    mean = statistics.fmean(values)
    if len(values) < 2:
        return f"{mean:+.1f}"
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return f"{mean:+.1f} ± {half:.1f} (95% CI {mean - half:+.1f} .. {mean + half:+.1f})"


def report(rows: list[dict[str, float]]) -> bool:
    """Print the figures; True when the PIMC bot wins significantly."""
    if not rows:
        print("no games finished yet")
        return False
    diff = [r["diff"] for r in rows]
    print(f"games: {len(rows)} (seats rotated), {statistics.fmean(r['seconds'] for r in rows):.1f} s "
          "per game")
    print(f"PIMC seat total per game:        {_ci([r['pimc'] for r in rows])}")
    print(f"heuristic seat total per game:   {_ci([r['heuristic'] for r in rows])}")
    print(f"PIMC minus heuristic, per game:  {_ci(diff)}")
    if len(diff) < 2:
        return False
    half = 1.96 * statistics.stdev(diff) / math.sqrt(len(diff))
    low = statistics.fmean(diff) - half
    verdict = "met" if low > 0 else "MISSED"
    print(f"target: PIMC wins by a significant margin (CI above 0) | {verdict}; "
          f"target games >= 2,000 | {len(rows):,} {'met' if len(rows) >= 2000 else 'MISSED'}")
    return low > 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--samples", type=int, default=8)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--log", default=None, help="append a JSON line per game here")
    parser.add_argument("--start", type=int, default=0,
                        help="first game index (a second process can take another range)")
    parser.add_argument("--also", action="append", default=[],
                        help="with --report: another log to count in")
    parser.add_argument("--report", action="store_true", help="only report what --log holds")
    args = parser.parse_args()
    rows: list[dict[str, float]] = []
    log = Path(args.log) if args.log else None
    if log is not None and log.exists():
        rows = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    if args.report:
        for other in args.also:
            rows += [json.loads(line) for line in Path(other).read_text().splitlines()
                     if line.strip()]
        report(rows)
        return 0
    rules = Rules.preset("raspisnoy")
    for index in range(args.start + len(rows), args.start + args.games):
        seat = index % args.players
        bots = ["heuristic"] * args.players
        bots[seat] = "pimc"
        started = time.process_time()
        game = simulate_game(rules, args.players, game_seed(args.seed, index), bots=bots,
                             bot_samples=args.samples)
        assert game.totals is not None
        totals = list(game.totals.values())
        others = [t for s, t in enumerate(totals) if s != seat]
        row = {"game": index, "seat": seat, "pimc": totals[seat],
               "heuristic": statistics.fmean(others),
               "diff": totals[seat] - statistics.fmean(others),
               "seconds": time.process_time() - started}
        rows.append(row)
        if log is not None:
            with log.open("a") as handle:
                handle.write(json.dumps(row) + "\n")
    return 0 if report(rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
