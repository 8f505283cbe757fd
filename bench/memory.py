"""Peak memory of validate, load and convert on large files: figures, not a test.

Builds a large ``.rsp`` and the same games as ``.jsonl`` in a temporary
folder (simulated four-player full-play games, copied with a different Event
tag per copy so that every game is distinct), runs ``raspis validate -q``,
``raspis load -q`` and ``raspis convert --to json`` / ``--to jsonl`` on each
in a fresh process, and prints each one's time, peak RSS (``ru_maxrss`` of
the child), its target and whether it is met. The files are deleted after.

    .venv/bin/python bench/memory.py --mb 1000        # about 1 GB of each
    .venv/bin/python bench/memory.py --mb 200 --keep  # keep the files
    .venv/bin/python bench/memory.py --mb 50 --only load --format rsp
    .venv/bin/python bench/memory.py --mb 90 --detail sheet --only load --format rsp  # 60,000 games

Targets: issue 11, validate and load under 300 MB whatever the file's size;
issue 16, load at most 200 MB at any size, and convert streaming game by
game (held here to the same 300 MB as validate).
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


def build(folder: Path, megabytes: int, games: int, unit: Path | None = None,
          detail: str = "full") -> tuple[Path, Path]:
    """``big.rsp`` and ``big.jsonl`` of about ``megabytes`` each (copies of
    ``unit``, a notation file, or of ``games`` simulated games with every
    card, or sheets only with ``detail="sheet"``)."""
    unit_rsp, unit_jsonl = folder / "unit.rsp", folder / "unit.jsonl"
    if unit is not None:
        shutil.copyfile(unit, unit_rsp)
    else:
        raspis("simulate", "--players", "4", "--games", str(games), "--seed", "11", "--detail", detail,
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


def _rss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _phase(trace: Path) -> str:
    """The load's phase: the first word of the last line of its
    ``RASPIS_LOAD_TRACE`` file (``parsed N`` counted as ``parse``)."""
    try:
        lines = trace.read_text(encoding="utf-8").splitlines()
    except OSError:
        return "start"
    words = lines[-1].split() if lines else []
    if not words:
        return "start"
    return "parse" if words[0] == "parsed" else words[0]


def measure_phases(*args: str) -> tuple[float, float, dict[str, float]]:
    """Seconds, peak RSS (MB, ``ru_maxrss``) and the peak RSS of each phase of
    one ``raspis load ARGS`` (Linux: ``/proc/PID/status`` read every 20 ms,
    the phase from the load's ``RASPIS_LOAD_TRACE`` file)."""
    with tempfile.TemporaryDirectory(prefix="raspis-trace-") as folder:
        trace = Path(folder) / "trace"
        env = {**os.environ, "PYTHONPATH": str(ROOT), "RASPIS_LOAD_TRACE": str(trace)}
        started = time.perf_counter()
        child = subprocess.Popen([sys.executable, "-m", "raspis_cli", "load", *args],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=ROOT)
        peaks: dict[str, float] = {}
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            phase = _phase(trace)
            rss = _rss_kb(child.pid) / 1024
            peaks[phase] = max(peaks.get(phase, 0.0), rss)
            time.sleep(0.02)
        seconds = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) > 1:
        raise SystemExit(f"raspis load {' '.join(args)}: exit {os.waitstatus_to_exitcode(status)}")
    return seconds, usage.ru_maxrss / 1024, peaks


TARGETS: dict[str, list[tuple[str, float, bool]]] = {
    # command: (whose target, MB, strictly under)
    "validate": [("issue 11", 300, True)],
    "load": [("issue 11", 300, True), ("issue 16", 200, False)],
    "convert": [("issue 16", 300, True)],
}


def verdicts(command: str, peak: float) -> str:
    """``target ... figure ... met/missed`` for each target of ``command``."""
    out = []
    for whose, limit, strict in TARGETS[command]:
        met = peak < limit if strict else peak <= limit
        out.append(f"{whose}: {'<' if strict else '≤'} {limit:.0f} MB {'met' if met else 'MISSED'}")
    return "; ".join(out)


def main() -> None:
    """Build the files, measure, print one line per run, delete the files."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mb", type=float, default=1000, help="size of each file in MB (default 1000)")
    parser.add_argument("--games", type=int, default=500, help="distinct games simulated (default 500)")
    parser.add_argument("--keep", action="store_true", help="keep the files")
    parser.add_argument("--unit", type=Path, help="copy this notation file instead of simulating")
    parser.add_argument("--only", choices=["validate", "load", "convert"], help="measure one command only")
    parser.add_argument("--format", choices=["rsp", "jsonl"], help="measure one input format only")
    parser.add_argument("--phases", action="store_true",
                        help="also the load's peak RSS in each of its phases (Linux: /proc)")
    parser.add_argument("--detail", choices=["full", "sheet"], default="full",
                        help="simulate games with every card (default) or sheets only: many more games "
                             "a megabyte, for what grows with the number of games")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="raspis-memory-"))
    try:
        started = time.perf_counter()
        files = build(folder, args.mb, args.games, args.unit, args.detail)
        print(f"built {', '.join(f'{p.name} {p.stat().st_size / 1e6:.0f} MB' for p in files)} "
              f"in {time.perf_counter() - started:.0f} s", flush=True)
        print(f"{'command':22} {'file':10} {'size':>8}  {'time':>8}  {'peak RSS':>9}  target: verdict",
              flush=True)

        def show(command: str, label: str, path: Path, seconds: float, peak: float) -> None:
            print(f"{label:22} {path.name:10} {path.stat().st_size / 1e6:5.0f} MB  {seconds:7.1f} s  "
                  f"{peak:6.0f} MB  {verdicts(command, peak)}", flush=True)

        for path in files:
            if args.format is not None and path.suffix != "." + args.format:
                continue
            if args.only in (None, "validate"):
                seconds, peak = measure("validate", "-q", str(path))
                show("validate", "validate -q", path, seconds, peak)
            if args.only in (None, "load"):
                db = folder / f"{path.stem}.duckdb"
                if args.phases:
                    seconds, peak, phases = measure_phases("-q", str(path), "--db", str(db))
                    show("load", "load -q", path, seconds, peak)
                    print("  peak RSS by phase (MB): "
                          + ", ".join(f"{name} {mb:.0f}" for name, mb in phases.items()), flush=True)
                else:
                    seconds, peak = measure("load", "-q", str(path), "--db", str(db))
                    show("load", "load -q", path, seconds, peak)
                db.unlink(missing_ok=True)
            if args.only in (None, "convert"):
                for to in ("json", "jsonl"):
                    out = folder / f"out.{to}"
                    seconds, peak = measure("convert", "--to", to, str(path), "-o", str(out))
                    show("convert", f"convert --to {to}", path, seconds, peak)
                    out.unlink(missing_ok=True)
    finally:
        if args.keep:
            print(f"kept {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
