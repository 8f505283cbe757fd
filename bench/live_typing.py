"""Seconds from nothing to a validated 28-deal sheet typed through `raspis live` by a script.

A pseudo-terminal (pexpect, the driver of tests/test_live.py) types a
simulated 4-player raspisnoy game prompt by prompt: a new file, 28 deals
(trump, bids, taken), the end of the game; then `raspis validate` checks the
file. Prints the wall time of each part (runs: --runs, median shown).

    python -m bench.live_typing [--runs 3] [--seed 7]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.livekit import PLAYERS, LiveDriver, cli_env, planned_game

ROOT = Path(__file__).resolve().parent.parent


def one_run(seed: int) -> dict[str, float]:
    """One game typed and validated; the seconds of each part."""
    _, deals = planned_game(seed)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "evening.rsp"
        start = time.perf_counter()
        live = LiveDriver(path, "--players", ", ".join(PLAYERS), "--dealer", deals[0].dealer)
        live.expect("28 deals")
        first_prompt = time.perf_counter()
        per_deal = []
        for deal in deals:
            began = time.perf_counter()
            live.type_deal(deal)
            per_deal.append(time.perf_counter() - began)
        live.expect("the game is over")
        status = live.finish()
        typed = time.perf_counter()
        check = subprocess.run([sys.executable, "-m", "raspis_cli", "validate", str(path)],
                               cwd=ROOT, env=cli_env(), capture_output=True, text=True)
        done = time.perf_counter()
        if status != 0 or check.returncode != 0 or "28 deals, 1 valid" not in check.stdout:
            raise SystemExit(f"the run failed: live exit {status}; validate: {check.stdout}")
    return {"total": done - start, "startup": first_prompt - start,
            "deal (median)": statistics.median(per_deal), "28 deals": typed - first_prompt,
            "validate": done - typed}


def main() -> None:
    """Run and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    runs = [one_run(args.seed) for _ in range(args.runs)]
    print(f"raspis live: a 28-deal game typed by a script through a pseudo-terminal, "
          f"{args.runs} run(s), median seconds")
    for key in runs[0]:
        values = [r[key] for r in runs]
        print(f"  {key:<15} {statistics.median(values):7.2f}   (runs: "
              + ", ".join(f"{v:.2f}" for v in values) + ")")


if __name__ == "__main__":
    main()
