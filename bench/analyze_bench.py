"""How fast ``raspis analyze`` answers where a player meets it, against its targets.

Runs the README's example, ``raspis analyze samples/raspisnoy-full-3p.rsp``
(bid advice with the default samples), as a user does, in a fresh process:
with ``-j 1`` and with ``-j 2``; before them, with the compiled solver, a first
run (one deal, numba's cache empty: the compile a user waits for once).
Prints the CPU time of the process and its workers (``RUSAGE_CHILDREN``:
the machine is shared, so CPU time, not the wall clock, is the figure;
``uptime`` says how loaded it was), whether the compiled solver ran, how
many player-deals got no answer (a search over the budget), and the target
(160 s of CPU for ``-j 1``, every deal answered, and the best bid of the
reference, :data:`REFERENCE`, on at least 25 of the 27 advice lines of its
12-card deals; 20 s of wall for the first run) with *met* or *MISSED*.
Then ``-j 1`` against ``-j 2`` on a file of many simulated games
(``--games``; deal 2 of each, ``--samples 0``, so reading and replaying
the file dominate): the workers read the file's pieces, each once, so
``-j 2`` takes less wall time than ``-j 1``.

    .venv/bin/python -m bench.analyze_bench            # the sample, and 300 games
    .venv/bin/python -m bench.analyze_bench --quick    # deal 5 and 20 games: checks the script runs
    .venv/bin/python -m bench.analyze_bench --positions  # and where the bid advice's positions go
    .venv/bin/python -m bench.analyze_bench --budgets 20000000,80000000  # and what answering costs

``--positions`` analyses the sample once more in this process and prints the
solver positions the bid advice visited, and the share of them visited by
samples that went over their budget (visited for no answer), by deal size:
positions do not depend on the machine, so runs of different days compare.

``--budgets`` runs the sample's ``-j 1`` row again with each ``--budget``
given: its CPU time (and as a multiple of the default budget's), and how
many player-deals are still unanswered, so what answering every deal
costs is a figure, not a guess; and how many of the best bids each gives
are those of the largest budget given.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = "samples/raspisnoy-full-3p.rsp"
TARGET_CPU = 160.0
"""The ``-j 1`` row's CPU seconds (an idle 2-core machine), every deal answered."""
TARGET_AGREEMENT = 25
"""Of the sample's 27 bid advice lines of 12-card deals, how many must name the reference's best bid."""
REFERENCE = Path(__file__).resolve().parent / "analyze_reference.json"
"""The best bids of the sample's 12-card advice lines as the advice gave them at ``--budget
80000000`` before every sample was solved to its end (each sample then had 4,000,000 positions,
the line up to 100 samples, settled from 12): the reference the default run is measured against."""
TARGET_FIRST_RUN = 20.0
"""The first run's wall time, the compile included: docs/ANALYZE.md says "10 to 20 s"."""
UNANSWERED = ("no sample solved within the search budget", "not solved within the search budget")


def _run(args: list[str], extra_env: dict[str, str] | None = None) -> tuple[float, float, str]:
    """CPU seconds (the process and its workers), wall seconds, standard output of ``raspis ARGS``."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "RASPIS_NO_JIT")}
    env.update(extra_env or {})
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "raspis_cli", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, encoding="utf-8", check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"raspis {' '.join(args)} failed:\n{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, done.stdout


def _uptime() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()
    except OSError:
        return "uptime not available"


def main() -> None:
    """Run the rows and print them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="deal 5 only and 20 games")
    parser.add_argument("--games", type=int, default=300, help="simulated games of the -j rows")
    parser.add_argument("--positions", action="store_true",
                        help="also count the bid advice's positions, solved and not, in this process")
    parser.add_argument("--budgets", default="",
                        help="comma-separated --budget values: the sample's -j 1 row again with each")
    options = parser.parse_args()
    from raspis_cli.solver import kernel

    print(f"machine: nproc {os.cpu_count()}; {_uptime()}")
    print(f"solver kernel: {'compiled (numba)' if kernel.JIT else 'plain Python (numba missing)'}")
    sample = [SAMPLE] + (["--deal", "5"] if options.quick else [])
    print("| run | CPU s | wall s | player-deals unanswered | target | |")
    print("|---|---|---|---|---|---|")
    first = ["analyze", SAMPLE, "--deal", "1", "--samples", "1"]
    if kernel.JIT:
        # a first run: numba's cache empty, every search compiled
        with tempfile.TemporaryDirectory() as cache:
            cpu, wall, _out = _run(first, {"NUMBA_CACHE_DIR": cache})
        met = wall <= TARGET_FIRST_RUN
        print(f"| analyze {' '.join(first[1:])}, first run (the solver compiled) | {cpu:.1f} | {wall:.1f} | "
              f"- | <= {TARGET_FIRST_RUN:.0f} s wall | {'met' if met else 'MISSED'} |")
    _run(first)  # numba's cache loaded once, not timed
    default_cpu = 0.0
    default_out = ""
    for jobs in (1, 2):
        cpu, wall, out = _run(["analyze", *sample, "-j", str(jobs)])
        unanswered = count_unanswered(out)
        name = f"analyze {' '.join(sample)} -j {jobs}"
        if jobs == 1:
            default_cpu, default_out = cpu, out
            agreed, lines = agreement(out)
            met = cpu <= TARGET_CPU and unanswered == 0 and (options.quick or agreed >= TARGET_AGREEMENT)
            print(f"best bid as the reference's ({REFERENCE.name}) on {agreed} of {lines} "
                  f"12-card lines (target >= {TARGET_AGREEMENT} of 27)")
            verdict = (f"<= {TARGET_CPU:.0f} s CPU, all answered, >= {TARGET_AGREEMENT} of 27 "
                       f"as the reference | {'met' if met else 'MISSED'}")
        else:
            verdict = "(same output) |"
        print(f"| {name} | {cpu:.1f} | {wall:.1f} | {unanswered} | {verdict} |")
    games = 20 if options.quick else options.games
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "games.rsp")
        _run(["simulate", "-p", "3", "-n", str(games), "--seed", "7", "-o", path])
        walls = []
        outputs = []
        for jobs in (1, 2):
            cpu, wall, out = _run(["analyze", path, "--deal", "2", "--samples", "0", "-f", "json",
                                   "-j", str(jobs)])
            walls.append(wall)
            outputs.append(out)
            print(f"| analyze {games} games --deal 2 --samples 0 -j {jobs} | {cpu:.1f} | {wall:.1f} | - | "
                  + ("|" if jobs == 1 else
                     f"wall below -j 1's | {'met' if wall < walls[0] else 'MISSED'}") + " |")
        print(f"-j 1 and -j 2 outputs identical: {outputs[0] == outputs[1]}")
    if options.budgets:
        budgets = [int(value) for value in options.budgets.split(",")]
        print("| run | CPU s | wall s | player-deals unanswered | CPU / the default budget's "
              f"| best bids as at --budget {largest_budget(budgets):,} |")
        print("|---|---|---|---|---|---|")
        for row in budget_rows(sample, budgets, default_cpu, default_out=default_out):
            print(row)
    if options.positions:
        _advice_positions(5 if options.quick else None)


def count_unanswered(out: str) -> int:
    """The player-deals the text output of ``analyze`` left without an answer
    (the outcome, or the bid advice with no sample solved)."""
    return sum(out.count(phrase) for phrase in UNANSWERED)


def best_bids(out: str) -> dict[tuple[str, str], int | None]:
    """Each player-deal's best bid in the text output of ``analyze`` (keyed by
    the deal's heading and the player), ``None`` where the advice gave none."""
    found: dict[tuple[str, str], int | None] = {}
    deal = player = ""
    for line in out.splitlines():
        heading = re.match(r"Deal (\d+) ", line)
        if heading:
            deal = heading.group(1)
            continue
        seat = re.match(r"  (\S+)\s+bid ", line)
        if seat:
            player = seat.group(1)
        elif line.lstrip().startswith(("advice", "bid ")) and deal:
            best = re.search(r"best bid (\d+)", line)
            found[(deal, player)] = int(best.group(1)) if best else None
    return found


def agreement(out: str) -> tuple[int, int]:
    """Of the 12-card advice lines of the reference (:data:`REFERENCE`) that
    the text output of ``analyze`` gives, how many name the reference's best
    bid, and how many it gives."""
    import json

    reference: dict[str, int] = json.loads(REFERENCE.read_text(encoding="utf-8"))["best"]
    given = best_bids(out)
    lines = [(given.get((key.split("/")[0], key.split("/")[1])), bid) for key, bid in reference.items()]
    return sum(found == bid for found, bid in lines), sum(found is not None for found, _bid in lines)


def largest_budget(budgets: list[int]) -> int:
    """The largest of these ``--budget`` values (0, no limit, above any number)."""
    return max(budgets, key=lambda budget: budget or 1 << 62)


def budget_rows(sample: list[str], budgets: list[int], default_cpu: float,
                extra_env: dict[str, str] | None = None, default_out: str = "") -> list[str]:
    """``analyze SAMPLE --budget B -j 1`` for each budget: a table row of its
    CPU and wall seconds, its unanswered player-deals, its CPU as a multiple
    of ``default_cpu`` (the default budget's), and how many of the best bids
    it gives are the best bids of the largest budget given (0: none, the
    largest): how far a smaller budget's answers can be trusted. With
    ``default_out`` (the default budget's output) a first row counts its
    best bids the same way."""
    runs = []
    for budget in budgets:
        cpu, wall, out = _run(["analyze", *sample, "-j", "1", "--budget", str(budget)], extra_env)
        runs.append((budget, cpu, wall, out))
    largest = largest_budget(budgets)
    reference = best_bids(next(out for budget, _cpu, _wall, out in runs if budget == largest))
    rows = []
    if default_out:
        rows.append(f"| analyze {' '.join(sample)} -j 1 (the default budget) | {default_cpu:.1f} | - | "
                    f"{count_unanswered(default_out)} | 1.0x | {_same_best(default_out, reference)} |")
    for budget, cpu, wall, out in runs:
        ratio = f"{cpu / default_cpu:.1f}x" if default_cpu > 0 else "-"
        rows.append(f"| analyze {' '.join(sample)} --budget {budget:,} -j 1 | {cpu:.1f} | {wall:.1f} | "
                    f"{count_unanswered(out)} | {ratio} | {_same_best(out, reference)} |")
    return rows


def _same_best(out: str, reference: dict[tuple[str, str], int | None]) -> str:
    """"K of N": of the N best bids ``out`` gives, K are the reference's."""
    given = {key: bid for key, bid in best_bids(out).items() if bid is not None}
    same = sum(reference.get(key) == bid for key, bid in given.items())
    return f"{same} of {len(given)}"


def _positions_row(label: str, lines: int, positions: int, unsolved: int) -> str:
    share = f"{100 * unsolved / positions:.0f} %" if positions else "-"
    return f"| {label} | {lines} | {positions:,} | {unsolved:,} ({share}) |"


def _advice_positions(deal: int | None) -> None:
    """Print the bid advice's positions on the sample (or its deal ``deal``),
    by the deal's number of cards: in all, and in samples that went over
    their budget."""
    from raspis_cli.analyze.post_mortem import analyze_game
    from raspis_cli.judge.check import read_results

    [(result, _)] = read_results(str(ROOT / SAMPLE))
    analysis = analyze_game(result, deal=deal)
    by_cards: dict[int, list[int]] = {}
    for one in analysis.deals:
        for player in one.players:
            if player.advice is not None:
                row = by_cards.setdefault(one.cards, [0, 0, 0])
                row[0] += 1
                row[1] += player.advice.positions
                row[2] += player.advice.unsolved_positions
    print("| cards | player-deals advised | advice positions | of them in unsolved samples |")
    print("|---|---|---|---|")
    for cards, row in sorted(by_cards.items()):
        print(_positions_row(str(cards), *row))
    print(_positions_row("all", *(sum(column) for column in zip(*by_cards.values(), strict=True))))


if __name__ == "__main__":
    main()
