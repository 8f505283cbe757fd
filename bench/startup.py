"""How long ``raspis`` takes to start, as a multiple of ``python -c "import typer"``.

    python bench/startup.py              # 9 runs of each command; medians and ratios
    python bench/startup.py --runs 3     # quicker
    python bench/startup.py --imports 8  # and each command's 8 costliest imports (python -X importtime)

Every run is a fresh process (``python -m raspis_cli ...`` from the repository),
stdout to a pipe. The target is at most 2x the typer import for
``raspis --help``, ``raspis validate`` of a small sheet, a command's ``--help``
(``analyze``'s too, whose solver is loaded only when a deal is analysed) and a
Tab press (the shell's completion request, as bash's script sends it): the
rows with a target say whether it is met. Figures taken on a
busy machine vary; the ratio of medians is what to read. The runs use bytecode
as an installed raspis does (the warm-up run writes ``__pycache__`` even when
``PYTHONDONTWRITEBYTECODE`` is set in the caller's environment; ``--no-bytecode``
keeps it, which costs ~0.1 s a run on a fresh checkout).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SMALL = "samples/raspisnoy-sheet-dispute.rsp"

COMPLETION = {"_RASPIS_COMPLETE": "complete_bash", "COMP_WORDS": "raspis score --format ", "COMP_CWORD": "3"}
"""What bash's completion script sets for ``raspis score --format <Tab>``."""
COMPLETION_OF_A_COMMAND = {"_RASPIS_COMPLETE": "complete_bash", "COMP_WORDS": "raspis an", "COMP_CWORD": "1"}
"""What bash's completion script sets for ``raspis an<Tab>``."""

COMMANDS: list[tuple[str, list[str]]] = [
    ('python -c "pass"', ["-c", "pass"]),
    ('python -c "import typer"  (the baseline)', ["-c", "import typer"]),
    ("raspis --help", ["-m", "raspis_cli", "--help"]),
    ("raspis --version", ["-m", "raspis_cli", "--version"]),
    (f"raspis validate {SMALL}", ["-m", "raspis_cli", "validate", SMALL]),
    (f"raspis score {SMALL}", ["-m", "raspis_cli", "score", SMALL]),
    ("raspis rules list", ["-m", "raspis_cli", "rules", "list"]),
    ("raspis query --help", ["-m", "raspis_cli", "query", "--help"]),
    ("raspis analyze --help", ["-m", "raspis_cli", "analyze", "--help"]),
    ("raspis score --format <Tab>", ["-m", "raspis_cli"]),
    ("raspis an<Tab>", ["-m", "raspis_cli"]),
]
ENVIRONMENTS: dict[str, dict[str, str]] = {
    "raspis score --format <Tab>": COMPLETION,
    "raspis an<Tab>": COMPLETION_OF_A_COMMAND,
}
"""The rows run with more in their environment (a completion request)."""
TARGET = 2.0
"""At most this many times ``import typer``, for the rows of :data:`TARGETED`."""
TARGETED = frozenset({"raspis --help", f"raspis validate {SMALL}", "raspis analyze --help",
                      "raspis score --format <Tab>", "raspis an<Tab>"})
"""The rows held to :data:`TARGET`."""
BASELINE = 1
COMPILE_EVERY_RUN = False


def _env(label: str = "") -> dict[str, str]:
    env = {**os.environ, **ENVIRONMENTS.get(label, {})}
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["NO_COLOR"] = "1"
    # bytecode as an installed raspis has it (pip compiles it; a first run writes it): with
    # PYTHONDONTWRITEBYTECODE every run would compile the package's source again (~0.15 s)
    if not COMPILE_EVERY_RUN:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def time_once(args: list[str], label: str = "") -> float:
    """Wall seconds of one fresh ``python ARGS`` (in the environment of the row ``label``)."""
    start = time.perf_counter()
    subprocess.run([sys.executable, *args], cwd=ROOT, env=_env(label), stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def costliest_imports(args: list[str], top: int, label: str = "") -> list[tuple[int, str]]:
    """The ``top`` imports with the largest cumulative time (microseconds)."""
    done = subprocess.run([sys.executable, "-X", "importtime", *args], cwd=ROOT, env=_env(label),
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
    rows: list[tuple[int, str]] = []
    for line in done.stderr.splitlines():
        if line.startswith("import time:") and "|" in line and "cumulative" not in line:
            _self, cumulative, name = line[len("import time:"):].split("|", 2)
            if name.startswith("  ") is False or name.count(" ") <= 3:  # top-level imports only
                rows.append((int(cumulative), name.strip()))
    return sorted(rows, reverse=True)[:top]


def main() -> int:
    """Time each command; print medians and ratios to the typer import."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--imports", type=int, default=0, metavar="N")
    parser.add_argument("--no-bytecode", action="store_true",
                        help="keep PYTHONDONTWRITEBYTECODE: with no __pycache__ in the tree, every run "
                             "compiles the package's source again (an existing __pycache__ is still read)")
    args = parser.parse_args()
    global COMPILE_EVERY_RUN
    COMPILE_EVERY_RUN = args.no_bytecode
    # warm the file cache and the bytecode once
    for label, argv in COMMANDS:
        time_once(argv, label)
    times: dict[str, list[float]] = {label: [] for label, _argv in COMMANDS}
    for _ in range(args.runs):  # interleaved, so that a busy moment touches every command alike
        for label, argv in COMMANDS:
            times[label].append(time_once(argv, label))
    baseline = statistics.median(times[COMMANDS[BASELINE][0]])
    print(f"startup: {args.runs} runs each, median wall seconds; nproc {os.cpu_count()}, "
          f"load average {os.getloadavg()[0]:.1f} (a busy machine inflates every row alike)")
    print()
    print(f"| command | median s | min s | x import typer | target (<= {TARGET:g}x) |")
    print("|---|---:|---:|---:|---|")
    for label, _argv in COMMANDS:
        median = statistics.median(times[label])
        ratio = median / baseline
        verdict = ("met" if ratio <= TARGET else "missed") if label in TARGETED else ""
        print(f"| {label} | {median:.3f} | {min(times[label]):.3f} | {ratio:.2f} | {verdict} |")
    if args.imports:
        for label, argv in COMMANDS[2:]:
            print(f"\n{label}: costliest top-level imports (cumulative ms)")
            for micros, name in costliest_imports(argv, args.imports, label):
                print(f"  {micros / 1000:8.1f}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
