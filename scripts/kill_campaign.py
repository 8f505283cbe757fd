"""Kill ``raspis load`` with SIGKILL at random moments and check the database.

Each run copies a database that already holds some games, starts
``python -m raspis_cli load`` on more games, kills its process group with
SIGKILL after a random delay, and then checks, by a checksum of every table
(row count and the sum of the rows' hashes), that the database is exactly as
it was before the load, or exactly as after a complete load, and never in
between:

- killed before ``COMMIT`` was issued: exactly as before;
- killed after ``COMMIT`` returned: exactly as after;
- killed while ``COMMIT`` ran: one of the two.

The first open after the kill is read-only (DuckDB replays a leftover WAL in
memory), then the same load is run again to the end, which must give the
complete database: a killed load leaves nothing that stops the next.

The phase a kill hit comes from the load's trace (``$RASPIS_LOAD_TRACE``):
the last phase the process entered. Delays are drawn half uniformly over the
whole load (process start to exit) and half aimed at the moments the
reference run entered each phase, give or take a few milliseconds.

    python scripts/kill_campaign.py --runs 300 --seed 7
    python scripts/kill_campaign.py --runs 100 --fresh   # into a new database

``tests/test_store_faults.py`` imports this module and runs a short campaign.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from raspis_cli.notation.jsoncodec import games_to_jsonl_text
from raspis_cli.notation.writer import write_games
from raspis_cli.rules import Rules
from raspis_cli.simulate.run import simulate_games
from raspis_cli.store.load import TRACE_ENV

ROOT = Path(__file__).resolve().parent.parent

Checksum = dict[str, tuple[int, int]]

PHASES = ("startup", "open", "schema", "parse", "insert", "players", "ratings", "commit", "committed",
          "close", "closed", "completed")
"""The phases in load order; ``startup`` is before the first trace line
(interpreter start, imports), ``completed`` means the process exited before
the kill."""

BEFORE_COMMIT = frozenset(("startup", "open", "schema", "parse", "insert", "players", "ratings"))
AFTER_COMMIT = frozenset(("committed", "close", "closed", "completed"))


def checksum(db: Path) -> Checksum | None:
    """Row count and sum of row hashes of every table, or ``None`` when
    there is no database file. Opens read-only (a WAL is replayed in memory)."""
    if not db.exists():
        return None
    con = duckdb.connect(str(db), read_only=True)
    try:
        tables = [r[0] for r in con.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE' "
            "ORDER BY table_name").fetchall()]
        out: Checksum = {}
        for table in tables:
            row = con.execute(f'SELECT count(*), coalesce(sum(hash(t)::HUGEINT), 0) FROM "{table}" t'
                              ).fetchone()
            assert row is not None
            out[table] = (int(row[0]), int(row[1]))
        return out
    finally:
        con.close()


@dataclass
class Setup:
    """The files of a campaign: the base database and the load's input."""

    work: Path
    base: Path | None
    inputs: list[Path]
    db: Path
    before: Checksum | None = None
    after: Checksum | None = None
    timeline: dict[str, float] = field(default_factory=dict)
    duration: float = 0.0


def load_command(setup: Setup, jobs: int = 1) -> list[str]:
    return [sys.executable, "-m", "raspis_cli", "load", *map(str, setup.inputs),
            "--db", str(setup.db), "-q", "--wait", "0", "-j", str(jobs)]


def _reset(setup: Setup) -> None:
    for name in (setup.db, Path(str(setup.db) + ".wal")):
        name.unlink(missing_ok=True)
    if setup.base is not None:
        shutil.copyfile(setup.base, setup.db)


def _read_trace(path: Path) -> list[tuple[str, float]]:
    if not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines():
        name, _, stamp = line.rpartition(" ")
        if name:
            out.append((name, float(stamp)))
    return out


def phase_of(name: str) -> str:
    """The campaign phase of a trace line (``insert seats`` -> ``insert``)."""
    word = name.split()[0]
    return "parse" if word == "parsed" else word


def prepare(work: Path, *, games: int = 20, files: int = 4, base_games: int = 6,
            fresh: bool = False, seed: int = 1) -> Setup:
    """Write the input files and the base database, and time a complete load."""
    work.mkdir(parents=True, exist_ok=True)
    rules = Rules.preset("raspisnoy")
    inputs = []
    per_file = max(games // files, 1)
    for i in range(files):
        batch = list(simulate_games(rules, 4, per_file, seed=seed, start=base_games + i * per_file))
        path = work / (f"in{i}.jsonl" if i % 2 else f"in{i}.rsp")
        path.write_text(games_to_jsonl_text(batch) if i % 2 else write_games(batch), encoding="utf-8")
        inputs.append(path)
    base = None
    if not fresh:
        base_input = work / "base.rsp"
        base_input.write_text(write_games(list(simulate_games(rules, 4, base_games, seed=seed))),
                              encoding="utf-8")
        base = work / "base.duckdb"
        for name in (base, Path(str(base) + ".wal")):
            name.unlink(missing_ok=True)
        subprocess.run([sys.executable, "-m", "raspis_cli", "load", str(base_input), "--db", str(base),
                        "-q"], check=True)
    setup = Setup(work, base, inputs, work / "killed.duckdb")
    _reset(setup)
    setup.before = checksum(setup.db)
    trace = work / "reference.trace"
    trace.unlink(missing_ok=True)
    started = time.time()
    subprocess.run(load_command(setup), check=True, env={**os.environ, TRACE_ENV: str(trace)})
    setup.duration = time.time() - started
    for entered, stamp in _read_trace(trace):
        setup.timeline.setdefault(phase_of(entered), stamp - started)
    setup.after = checksum(setup.db)
    assert setup.after != setup.before
    return setup


@dataclass(frozen=True)
class Kill:
    """When to kill: ``delay`` seconds after the start, or, with ``phase``,
    ``delay`` seconds after the load enters that phase."""

    delay: float
    phase: str | None = None

    def __str__(self) -> str:
        return f"{self.delay:6.3f}s" + (f" into {self.phase}" if self.phase else " after start")


@dataclass
class Outcome:
    """One kill: when, which phase it hit, and what the database held after."""

    kill: Kill
    phase: str
    state: str  # "before", "after", or "BROKEN: ..."
    wal_left: bool
    ok: bool


def _wait_for_phase(process: subprocess.Popen[bytes], trace: Path, phase: str) -> bool:
    """Poll the trace until the load enters ``phase``; False if it exits first."""
    while process.poll() is None:
        if any(phase_of(name) == phase for name, _ in _read_trace(trace)):
            return True
        time.sleep(0.0005)
    return False


def run_one(setup: Setup, kill: Kill, jobs: int = 1, rerun: bool = True) -> Outcome:
    """Load, kill it, check the database, and (with ``rerun``) load again to
    the end and check the complete database."""
    _reset(setup)
    trace = setup.work / "killed.trace"
    trace.unlink(missing_ok=True)
    process = subprocess.Popen(load_command(setup, jobs), env={**os.environ, TRACE_ENV: str(trace)},
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               start_new_session=True)
    reached = kill.phase is None or _wait_for_phase(process, trace, kill.phase)
    try:
        if not reached:
            raise subprocess.TimeoutExpired(process.args, 0)  # exited: no kill
        code = process.wait(timeout=kill.delay)
    except subprocess.TimeoutExpired:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        code = process.wait()
    if code == 0:
        phase = "completed"
    else:
        assert code == -signal.SIGKILL, process.stderr.read().decode() if process.stderr else code
        lines = _read_trace(trace)
        phase = phase_of(lines[-1][0]) if lines else "startup"
    if process.stderr is not None:
        process.stderr.close()
    wal_left = Path(str(setup.db) + ".wal").exists()
    try:
        state = checksum(setup.db)
    except duckdb.Error as e:
        return Outcome(kill, phase, f"BROKEN: does not open: {e}", wal_left, False)
    if state == setup.before:
        verdict = "before"
    elif state == setup.after:
        verdict = "after"
    elif state is not None and setup.before is None and not state:
        verdict = "before"  # a new database: the file was created, nothing committed
    else:
        verdict = f"BROKEN: in between: {state}"
    ok = (verdict == "before" and phase in BEFORE_COMMIT | {"commit"}) or (
        verdict == "after" and phase in AFTER_COMMIT | {"commit"})
    if ok and rerun:
        done = subprocess.run(load_command(setup), capture_output=True, text=True)
        if done.returncode != 0:
            return Outcome(kill, phase, f"BROKEN: the next load fails: {done.stderr.strip()}",
                           wal_left, False)
        if checksum(setup.db) != setup.after:
            return Outcome(kill, phase, "BROKEN: the next load gives another database", wal_left, False)
    return Outcome(kill, phase, verdict, wal_left, ok)


TARGETS = ("open", "schema", "parse", "insert", "players", "commit", "committed", "close")
"""The phases aimed at (``committed`` is the checkpoint the load runs right
after ``COMMIT`` returns, which writes the log into the database file)."""


def kills(setup: Setup, runs: int, rng: random.Random) -> list[Kill]:
    """Half uniform over the whole load (start to exit), half aimed at a
    phase: a uniform moment within it, as long as it lasted in the reference run."""
    marks = sorted(setup.timeline.items(), key=lambda x: x[1])
    length = {}
    for (name, start), (_, end) in zip(marks, [*marks[1:], ("end", setup.duration)], strict=True):
        length[name] = max(end - start, 0.001)
    targets = [t for t in TARGETS if t in length]
    out = []
    for i in range(runs):
        if i % 2 == 0 or not targets:
            out.append(Kill(rng.uniform(0.0, setup.duration * 1.05)))
        else:
            phase = targets[(i // 2) % len(targets)]
            out.append(Kill(rng.uniform(0.0, length[phase]), phase))
    return out


def campaign(setup: Setup, runs: int, seed: int, jobs: int = 1, rerun: bool | int = True,
             report: bool = False) -> list[Outcome]:
    """``runs`` kills; every 4th run reads with ``-j 2`` (or ``jobs``); ``rerun``:
    True after every kill, an int N after every Nth."""
    rng = random.Random(seed)
    outcomes = []
    for i, kill in enumerate(kills(setup, runs, rng)):
        again = rerun if isinstance(rerun, bool) else i % rerun == 0
        outcome = run_one(setup, kill, jobs if i % 4 != 3 else max(jobs, 2), again)
        outcomes.append(outcome)
        if report:
            mark = "ok  " if outcome.ok else "FAIL"
            print(f"{mark} {i + 1:4d} kill {kill!s:22s} phase {outcome.phase:9s} -> {outcome.state}"
                  f"{' (WAL left)' if outcome.wal_left else ''}", flush=True)
    return outcomes


def summarize(outcomes: list[Outcome]) -> str:
    phases = Counter(o.phase for o in outcomes)
    states = Counter((o.phase, o.state if o.ok else "FAIL") for o in outcomes)
    lines = [f"{len(outcomes)} runs, {sum(not o.ok for o in outcomes)} failures, "
             f"{sum(o.wal_left for o in outcomes)} left a WAL"]
    for phase in PHASES:
        if phases[phase]:
            detail = ", ".join(f"{state} {n}" for (p, state), n in sorted(states.items()) if p == phase)
            lines.append(f"  {phase:10s} {phases[phase]:4d}  ({detail})")
    missing = [p for p in PHASES if not phases[p]]
    if missing:
        lines.append(f"  phases not hit: {', '.join(missing)}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--games", type=int, default=40, help="games in the load")
    parser.add_argument("--files", type=int, default=4)
    parser.add_argument("--jobs", type=int, default=1, help="-j of the load (every 4th run uses 2 or more)")
    parser.add_argument("--fresh", action="store_true", help="load into a new database")
    parser.add_argument("--no-rerun", action="store_true", help="skip the load to the end after each kill")
    parser.add_argument("--work", default=None, help="working folder (default: a temporary one)")
    args = parser.parse_args()
    import tempfile

    with tempfile.TemporaryDirectory(prefix="raspis-kill-") as tmp:
        work = Path(args.work) if args.work else Path(tmp)
        setup = prepare(work, games=args.games, files=args.files, fresh=args.fresh, seed=args.seed)
        print(f"reference load: {setup.duration:.2f} s; phases at "
              + ", ".join(f"{p} {t:.3f}" for p, t in sorted(setup.timeline.items(), key=lambda x: x[1])),
              flush=True)
        started = time.time()
        outcomes = campaign(setup, args.runs, args.seed, args.jobs, not args.no_rerun, report=True)
        print(summarize(outcomes))
        print(f"{time.time() - started:.0f} s")
    return 1 if any(not o.ok for o in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main())
