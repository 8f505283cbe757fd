"""The double-dummy solver and PIMC bid advice: agreement and speed against targets.

    python bench/solver_bench.py [--agree N] [--deals N] [--sizes 4x9,3x12]
                                 [--budget NODES] [--pimc K] [--pimc-size 4x9]
                                 [--seed S] [--quick]

Prints, one line each, ``target | figure | met/MISSED``:

- agreement: N random small positions (2-4 players, 1-4 cards, every preset,
  shuffled joker and void options, random points of the play) solved by the
  solver and by brute force over the engine's own deal: every one must agree,
  the outcome and what bid advice asks (the score each bid is sure of, and
  of one random payoff);
- speed per player-deal: random deals of each size (players x cards, the
  joker dealt, raspisnoy, a random trump), the full outcome of one random
  player from the first card (exact counts, at least, at most: what
  ``raspis analyze`` shows); the median and the worst. A solve over the
  node budget counts at the time it took when it stopped, marked ``>=``.
  Then the same deals asked what PIMC asks (the exact counts and "at
  least"; "at most" only when an exact count may exist);
- PIMC: one player's bid advice with K samples on a 4-player 9-card deal,
  every sample solved (no budget).

The kernel is compiled by numba when it is installed (the ``fast`` extra);
``RASPIS_NO_JIT=1`` runs the same source as plain Python. The first line
says which, and how long loading (or compiling) the kernel took: that is
left out of the figures. Runs on one core (one process); times are the
process's CPU time, so other work on a shared machine does not inflate them.
See bench/README.md.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from pathlib import Path

from raspis_cli.rules import Rules
from raspis_cli.solver.pimc import bid_payoffs
from raspis_cli.solver.randomdeal import random_position, random_small_case
from raspis_cli.solver.search import (
    BudgetExceededError,
    Solver,
    brute_force,
    brute_force_guaranteed,
    solve,
)

ROOT = Path(__file__).resolve().parent.parent

TARGETS_MS = {(4, 9): (50.0, 2000.0), (3, 12): (200.0, None)}
"""Median and worst per player-deal, in ms, by (players, cards)."""


def _line(what: str, target: str, figure: str, met: bool | None) -> None:
    verdict = "-" if met is None else ("met" if met else "MISSED")
    print(f"{what:<58} | target {target:<16} | {figure:<36} | {verdict}", flush=True)


def agreement(count: int, seed: int) -> bool:
    """Solver against brute force on ``count`` random small positions."""
    rng = random.Random(seed)
    checked = mismatched = skipped = 0
    started = time.process_time()
    while checked < count:
        deal, player = random_small_case(rng)
        try:
            expected = brute_force(deal, player)
        except ValueError:  # a line without a legal play: contradictory options
            skipped += 1
            continue
        # what bid advice asks too: each bid's sure score, and a random payoff
        payoffs = bid_payoffs(deal.rules, rng.choice(["normal", "forehead"]), deal.cards,
                              range(deal.cards + 1))
        payoffs.append([rng.randint(-3, 3) for _ in range(deal.cards + 1)])
        if solve(deal, player) != expected or \
                Solver(deal, player).guaranteed(deal, payoffs) != brute_force_guaranteed(
                    deal, player, payoffs):
            mismatched += 1
            print(f"  MISMATCH: {deal.rules.preset_name} hands={deal.hands} trick={deal.trick} "
                  f"player={player}", flush=True)
        checked += 1
    took = time.process_time() - started
    _line("agreement with brute force", "all agree",
          f"{checked - mismatched:,}/{checked:,} agree ({took:.0f} s)", mismatched == 0)
    print(f"  ({skipped} positions skipped: options that leave a player no legal play)")
    return mismatched == 0


def speed(players: int, cards: int, deals: int, seed: int, budget: int | None,
          full: bool = True) -> None:
    """The outcome of one random player of ``deals`` random deals (``full``:
    with "at most" always searched, as analyze asks; else as PIMC asks)."""
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
        started = time.process_time()
        try:
            solver.outcome(deal, at_most=full)
        except BudgetExceededError:
            over += 1
        times.append((time.process_time() - started) * 1000)
        nodes.append(solver.nodes)
    median = statistics.median(times)
    worst = max(times)
    target_median, target_worst = TARGETS_MS.get((players, cards), (None, None))
    if not full:
        target_median = target_worst = None
    mark = ">=" if over else ""
    what = "" if full else " (as PIMC asks)"
    label = f"{players} players x {cards} cards{what}, median per player-deal"
    _line(label, f"<= {target_median:g} ms" if target_median else "-",
          f"{mark}{median:,.0f} ms ({deals} deals)",
          None if target_median is None else (median <= target_median and not over))
    _line(f"{players} players x {cards} cards{what}, worst",
          f"<= {target_worst:g} ms" if target_worst else "-",
          f"{mark}{worst:,.0f} ms", None if target_worst is None else (worst <= target_worst and not over))
    print(f"  positions searched: median {statistics.median(nodes):,.0f}, max {max(nodes):,}; "
          f"{over} of {deals} stopped at the budget of {budget:,} positions" if budget else
          f"  positions searched: median {statistics.median(nodes):,.0f}, max {max(nodes):,}",
          flush=True)


def pimc(samples: int, players: int, cards: int, seed: int) -> None:
    """One player's bid advice with ``samples`` samples on one random deal."""
    from raspis_cli.solver.pimc import bid_advice

    rng = random.Random(f"{seed}/pimc")
    rules = Rules.preset("raspisnoy")
    deal = random_position(rng, rules, players, cards, joker_chance=1.0, kind="normal", played=0)
    assert deal.hands is not None
    seat = (deal.dealer + 1) % players
    started = time.process_time()
    advice = bid_advice(rules, deal, seat, samples, seed=seed, budget=None)
    took = time.process_time() - started
    target = (players, cards) == (4, 9)
    stop = f", settled after {advice.drawn}" if advice.settled else ""
    _line(f"PIMC bid advice, {players}x{cards}, K={samples}", "<= 5 s" if target else "-",
          f"{took:.1f} s ({advice.solved}/{advice.drawn} samples solved{stop})",
          (took <= 5.0 and advice.solved == advice.drawn) if target else None)


def _warm_up() -> str:
    """Load (or compile) the kernel on a small deal; what it is and how long that took."""
    from raspis_cli.solver import kernel as solver_kernel

    started = time.process_time()
    deal = random_position(random.Random(0), Rules.preset("raspisnoy"), 3, 3, played=0)
    solver = Solver(deal, 0)
    solver.outcome(deal)
    solver.can_force(deal, 1)  # every search of the kernel
    took = time.process_time() - started
    if solver_kernel.JIT:
        import numba

        return f"compiled by numba {numba.__version__} (loaded in {took:.1f} s, not counted)"
    return f"plain Python (RASPIS_NO_JIT set or numba missing; first solve {took:.1f} s)"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agree", type=int, default=10_000, help="random small positions")
    parser.add_argument("--deals", type=int, default=200, help="deals per size")
    parser.add_argument("--sizes", default="4x9,3x12",
                        help="players x cards, comma-separated ('': no speed rows)")
    parser.add_argument("--budget", type=int, default=50_000_000, help="positions per solve")
    parser.add_argument("--pimc", type=int, default=100, help="samples of the PIMC row (0: none)")
    parser.add_argument("--pimc-size", default="4x9", help="players x cards of the PIMC row")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--quick", action="store_true", help="tiny sizes: checks the script runs")
    args = parser.parse_args()
    if args.quick:
        args.agree, args.deals, args.sizes, args.pimc = 50, 3, "3x3,4x4", 4
        args.pimc_size = "3x3"
    print(f"machine: {platform.machine()}, Python {platform.python_version()}, one process")
    print(f"kernel: {_warm_up()}")
    ok = agreement(args.agree, args.seed) if args.agree else True
    for size in filter(None, args.sizes.split(",")):
        players, cards = (int(x) for x in size.lower().split("x"))
        speed(players, cards, args.deals, args.seed, args.budget)
        speed(players, cards, args.deals, args.seed, args.budget, full=False)
    if args.pimc:
        players, cards = (int(x) for x in args.pimc_size.lower().split("x"))
        pimc(args.pimc, players, cards, args.seed)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
