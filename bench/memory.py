"""Peak memory of validate and load on large files: figures, not a test.

Builds a large ``.rsp`` and the same games as ``.jsonl`` in a temporary
folder (simulated four-player full-play games, copied with a different Event
tag per copy so that every game is distinct), runs ``raspis validate -q``
and ``raspis load -q`` on each in a fresh process, and prints each one's
peak RSS (``ru_maxrss`` of the child) and time. The files are deleted after.

    .venv/bin/python bench/memory.py --mb 1000        # about 1 GB of each
    .venv/bin/python bench/memory.py --mb 200 --keep  # keep the files

Target (issue 11): every run under 300 MB, whatever the file's size.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def raspis(*args: str, out: Path | None = None) -> None:
    """Run ``raspis ARGS`` (output to ``out`` or discarded); raise on exit > 1."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with open(out, "wb") if out else open(os.devnull, "wb") as sink:
        done = subprocess.run([sys.executable, "-m", "raspis_cli", *args], stdout=sink,
                              stderr=subprocess.PIPE, env=env, cwd=ROOT)
    if done.returncode > 1:
        raise SystemExit(f"raspis {' '.join(args)}: exit {done.returncode}: {done.stderr.decode()[-500:]}")


def build(folder: Path, megabytes: int, games: int, unit: Path | None = None) -> tuple[Path, Path]:
    """``big.rsp`` and ``big.jsonl`` of about ``megabytes`` each (copies of
    ``unit``, a notation file, or of ``games`` simulated games)."""
    unit_rsp, unit_jsonl = folder / "unit.rsp", folder / "unit.jsonl"
    if unit is not None:
        shutil.copyfile(unit, unit_rsp)
    else:
        raspis("simulate", "--players", "4", "--games", str(games), "--seed", "11", "--detail", "full",
               out=unit_rsp)
    raspis("convert", "--to", "jsonl", str(unit_rsp), "-o", str(unit_jsonl))
    rsp_text = unit_rsp.read_text(encoding="utf-8")
    jsonl_lines = unit_jsonl.read_text(encoding="utf-8").splitlines()
    copies = max(1, round(megabytes * 1e6 / len(rsp_text.encode("utf-8"))))
    big_rsp, big_jsonl = folder / "big.rsp", folder / "big.jsonl"
    with open(big_rsp, "w", encoding="utf-8") as f:
        for copy in range(copies):
            f.write(rsp_text.replace('[Event "', f'[Event "copy {copy} ') + "\n")
    copies = max(1, round(megabytes * 1e6 / sum(len(line.encode("utf-8")) + 1 for line in jsonl_lines)))
    with open(big_jsonl, "w", encoding="utf-8") as f:
        for copy in range(copies):
            for line in jsonl_lines:
                game = json.loads(line)
                game.setdefault("tags", {})["Event"] = f"copy {copy} " + game["tags"].get("Event", "")
                f.write(json.dumps(game, ensure_ascii=False) + "\n")
    unit_rsp.unlink()
    unit_jsonl.unlink()
    return big_rsp, big_jsonl


def measure(*args: str) -> tuple[float, float]:
    """Seconds and peak RSS (MB) of one ``raspis ARGS`` in a fresh process."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    code = (
        "import resource, subprocess, sys, time; t = time.perf_counter(); "
        "r = subprocess.run([sys.executable, '-m', 'raspis_cli', *sys.argv[1:]], "
        "stdout=subprocess.DEVNULL, stderr=subprocess.PIPE); "
        "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, "
        "r.returncode)"
    )
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          env=env, cwd=ROOT)
    seconds, kilobytes, status = done.stdout.split()
    if int(status) > 1:
        raise SystemExit(f"raspis {' '.join(args)}: exit {status}: {done.stderr[-500:]}")
    return float(seconds), int(kilobytes) / 1024


def main() -> None:
    """Build the files, measure, print one line per run, delete the files."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mb", type=float, default=1000, help="size of each file in MB (default 1000)")
    parser.add_argument("--games", type=int, default=500, help="distinct games simulated (default 500)")
    parser.add_argument("--keep", action="store_true", help="keep the files")
    parser.add_argument("--unit", type=Path, help="copy this notation file instead of simulating")
    parser.add_argument("--only", choices=["validate", "load"], help="measure one command only")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="raspis-memory-"))
    try:
        started = time.perf_counter()
        files = build(folder, args.mb, args.games, args.unit)
        print(f"built {', '.join(f'{p.name} {p.stat().st_size / 1e6:.0f} MB' for p in files)} "
              f"in {time.perf_counter() - started:.0f} s", flush=True)
        for path in files:
            if args.only in (None, "validate"):
                seconds, peak = measure("validate", "-q", str(path))
                print(f"validate -q {path.name:10} {path.stat().st_size / 1e6:7.0f} MB  "
                      f"{seconds:8.1f} s  peak RSS {peak:6.0f} MB", flush=True)
            if args.only in (None, "load"):
                db = folder / f"{path.stem}.duckdb"
                seconds, peak = measure("load", "-q", str(path), "--db", str(db))
                print(f"load -q     {path.name:10} {path.stat().st_size / 1e6:7.0f} MB  "
                      f"{seconds:8.1f} s  peak RSS {peak:6.0f} MB", flush=True)
                db.unlink(missing_ok=True)
    finally:
        if args.keep:
            print(f"kept {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
