"""The double-dummy solver and PIMC bid advice: agreement and speed against targets.

    python bench/solver_bench.py [--agree N] [--deals N] [--sizes 4x9,3x12]
                                 [--budget NODES] [--pimc K] [--pimc-size 4x9]
                                 [--seed S] [--quick]

Prints, one line each, ``target | figure | met/MISSED``:

- agreement: N random small positions (2-4 players, 1-4 cards, every preset,
  shuffled joker and void options, random points of the play) solved by the
  solver and by brute force over the engine's own deal: every one must agree;
- speed per player-deal: random deals of each size (players x cards, the
  joker dealt, raspisnoy, a random trump), the full outcome of one random
  player from the first card; the median and the worst. A solve over the
  node budget counts at the time it took when it stopped, marked ``>=``;
- PIMC: one player's bid advice with K samples on a 4-player 9-card deal
  (each sample may search budget / 20 positions, as ``raspis analyze``).

Runs on one core (one process). See bench/README.md.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from raspis_cli.engine.randomdeal import random_position, random_small_case  # noqa: E402
from raspis_cli.engine.solver import BudgetExceededError, Solver, brute_force, solve  # noqa: E402
from raspis_cli.rules import Rules  # noqa: E402

TARGETS_MS = {(4, 9): (50.0, 2000.0), (3, 12): (200.0, None)}
"""Median and worst per player-deal, in ms, by (players, cards)."""


def _line(what: str, target: str, figure: str, met: bool | None) -> None:
    verdict = "-" if met is None else ("met" if met else "MISSED")
    print(f"{what:<44} | target {target:<16} | {figure:<36} | {verdict}", flush=True)


def agreement(count: int, seed: int) -> bool:
    """Solver against brute force on ``count`` random small positions."""
    rng = random.Random(seed)
    checked = mismatched = skipped = 0
    started = time.perf_counter()
    while checked < count:
        deal, player = random_small_case(rng)
        try:
            expected = brute_force(deal, player)
        except ValueError:  # a line without a legal play: contradictory options
            skipped += 1
            continue
        if solve(deal, player) != expected:
            mismatched += 1
            print(f"  MISMATCH: {deal.rules.preset_name} hands={deal.hands} trick={deal.trick} "
                  f"player={player}", flush=True)
        checked += 1
    took = time.perf_counter() - started
    _line("agreement with brute force", "all agree",
          f"{checked - mismatched:,}/{checked:,} agree ({took:.0f} s)", mismatched == 0)
    print(f"  ({skipped} positions skipped: options that leave a player no legal play)")
    return mismatched == 0


def speed(players: int, cards: int, deals: int, seed: int, budget: int | None) -> None:
    """The full outcome of one random player of ``deals`` random deals."""
    rng = random.Random(f"{seed}/{players}x{cards}")
    rules = Rules.preset("raspisnoy")
    times: list[float] = []
    nodes: list[int] = []
    over = 0
    for _ in range(deals):
        deal = random_position(rng, rules, players, cards, joker_chance=1.0, kind="normal",
                               played=0)
        player = rng.randrange(players)
        solver = Solver(deal, player, budget)
        started = time.perf_counter()
        try:
            solver.outcome(deal)
        except BudgetExceededError:
            over += 1
        times.append((time.perf_counter() - started) * 1000)
        nodes.append(solver.nodes)
    median = statistics.median(times)
    worst = max(times)
    target_median, target_worst = TARGETS_MS.get((players, cards), (None, None))
    mark = ">=" if over else ""
    label = f"{players} players x {cards} cards, median per player-deal"
    _line(label, f"<= {target_median:g} ms" if target_median else "-",
          f"{mark}{median:,.0f} ms ({deals} deals)",
          None if target_median is None else (median <= target_median and not over))
    _line(f"{players} players x {cards} cards, worst", f"<= {target_worst:g} ms" if target_worst else "-",
          f"{mark}{worst:,.0f} ms", None if target_worst is None else (worst <= target_worst and not over))
    print(f"  positions searched: median {statistics.median(nodes):,.0f}, max {max(nodes):,}; "
          f"{over} of {deals} stopped at the budget of {budget:,} positions" if budget else
          f"  positions searched: median {statistics.median(nodes):,.0f}, max {max(nodes):,}",
          flush=True)


def pimc(samples: int, players: int, cards: int, seed: int, budget: int | None) -> None:
    """One player's bid advice with ``samples`` samples on one random deal."""
    from raspis_cli.engine.pimc import bid_advice

    rng = random.Random(f"{seed}/pimc")
    rules = Rules.preset("raspisnoy")
    deal = random_position(rng, rules, players, cards, joker_chance=1.0, kind="normal", played=0)
    assert deal.hands is not None
    seat = (deal.dealer + 1) % players
    started = time.perf_counter()
    # as analyze: each sample may search a 20th of the budget
    advice = bid_advice(rules, deal, seat, samples, seed=seed,
                        budget=None if budget is None else max(1, budget // 20))
    took = time.perf_counter() - started
    target = (players, cards) == (4, 9)
    _line(f"PIMC bid advice, {players}x{cards}, K={samples}", "<= 5 s" if target else "-",
          f"{took:.1f} s ({advice.solved}/{samples} samples solved)",
          (took <= 5.0 and advice.solved == samples) if target else None)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agree", type=int, default=10_000, help="random small positions")
    parser.add_argument("--deals", type=int, default=200, help="deals per size")
    parser.add_argument("--sizes", default="4x9,3x12",
                        help="players x cards, comma-separated ('': no speed rows)")
    parser.add_argument("--budget", type=int, default=2_000_000, help="positions per solve")
    parser.add_argument("--pimc", type=int, default=100, help="samples of the PIMC row (0: none)")
    parser.add_argument("--pimc-size", default="4x9", help="players x cards of the PIMC row")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--quick", action="store_true", help="tiny sizes: checks the script runs")
    args = parser.parse_args()
    if args.quick:
        args.agree, args.deals, args.sizes, args.pimc = 50, 3, "3x3,4x4", 4
        args.pimc_size = "3x3"
    print(f"machine: {platform.machine()}, Python {platform.python_version()}, one process")
    ok = agreement(args.agree, args.seed) if args.agree else True
    for size in filter(None, args.sizes.split(",")):
        players, cards = (int(x) for x in size.lower().split("x"))
        speed(players, cards, args.deals, args.seed, args.budget)
    if args.pimc:
        players, cards = (int(x) for x in args.pimc_size.lower().split("x"))
        pimc(args.pimc, players, cards, args.seed, args.budget)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
