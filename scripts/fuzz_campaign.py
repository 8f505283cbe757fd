#!/usr/bin/env python3
"""A long fuzzing campaign against the readers, the replay and the CLI.

    .venv/bin/python -m scripts.fuzz_campaign --minutes 30            # mutation loop
    .venv/bin/python -m scripts.fuzz_campaign --minutes 30 --atheris  # coverage-guided (pip install atheris)
    .venv/bin/python -m scripts.fuzz_campaign --semantic --inputs 100000  # semantic, differential
    .venv/bin/python -m scripts.fuzz_campaign --attacks --inputs 100000   # with the attack classes

With ``--semantic``, inputs are games whose *meaning* is changed
(``fuzzkit.semantic_mutation``: cards swapped between hands, bids reordered,
a player listed twice, control characters and separators in names, huge
numbers, empty trick lists, joker declarations and option names the notation
cannot hold), and the oracle is the JSON / notation differential
(``fuzzkit.check_differential``): a game and its notation conversion have
the same id, verdict and violations, and the conversion reads back byte for
byte (or the conversion is refused with a message).

Inputs are seeds (samples, the conformance corpus, simulated games in the
notation and JSON) changed by tests/fuzzkit.py's mutations (bytes flipped,
inserted, deleted, duplicated; cuts; token and line shuffles; odd tokens) or
simulated JSON games with a value replaced. Each input must pass
``fuzzkit.check_bytes`` (nothing raises, fmt is idempotent, JSON carries the
games) and finish in time linear in its size; every 25th also goes through
the CLI (``validate``, ``fmt``, ``convert``), which must exit 0, 1 or 2
without a traceback. Failures are written to ``--out`` (one file per
distinct failure) and summarised at the end.

With ``--attacks``, the byte mutations are mixed with the attack classes of
tests/attackkit.py, each with its oracle: crafted club databases (a planted
secret must appear nowhere), a command's output onto one of its inputs
(never written; an existing file only with --force), odd digits and control
characters at ``raspis live``'s prompts (no traceback; the sheet reads
back), two ``live`` sessions on one sheet (the second refused while the
first runs, naming it; no deal lost). The inputs run in ``--workers N``
processes (all in-process but ``concurrent-live``, which starts the first
``live``), each watched: an input over its CPU limit (a byte mutation: 10 s
and 50 µs a byte; a class: 60 s) or 600 s of wall time is a failure, its
worker killed and started again; a byte mutation over 2 s of CPU and 20 µs
a byte is a failure (slow). Every failing input is saved under ``--out``
(bytes, or the random state of its attack), and ``--replay FILE`` runs it
again in one process. Ctrl-C (or ``kill PID``) ends the campaign with its
figures so far.

    nice -n 19 python -m scripts.fuzz_campaign --attacks --inputs 100000 --seed 42 --workers 2
    python -m scripts.fuzz_campaign --replay fuzz-failures/failure-001-bytes.bin
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import shutil
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

SLOW_SECONDS = 2.0
SLOW_PER_BYTE = 20e-6  # an input may take 2 s plus 20 µs a byte (a full game is ~15 KB: ~5 ms)


def run_cli(data: bytes, folder: Path) -> None:
    from raspis_cli.cli.runner import run_app

    for name in ("f.rsp", "f.json"):
        path = folder / name
        path.write_bytes(data)
        for argv in (["validate", str(path)], ["fmt", str(path)], ["convert", "--to", "json", str(path)]):
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = run_app(argv)
            text = out.getvalue() + err.getvalue()
            assert code in (0, 1, 2), (argv, code, text[-2000:])
            assert "Traceback" not in text and "internal error" not in text, (argv, text[-2000:])


def loop(minutes: float, seed: int, out: Path) -> int:
    from tests import fuzzkit

    rnd = random.Random(seed)
    seeds = fuzzkit.seeds()
    failures: dict[tuple[str, str, int], bytes] = {}
    tried = 0
    slow = 0
    biggest = 0
    deadline = time.monotonic() + minutes * 60
    start = time.monotonic()
    folder = Path(tempfile.mkdtemp(prefix="raspis-fuzz-"))
    while time.monotonic() < deadline:
        if rnd.random() < 0.15:
            data = fuzzkit.json_mutation(rnd)
        else:
            data = rnd.choice(seeds)
            for _ in range(rnd.randrange(1, 6)):
                data = fuzzkit.mutate(data, rnd)
        tried += 1
        biggest = max(biggest, len(data))
        began = time.perf_counter()
        try:
            fuzzkit.check_bytes(data)
            if tried % 25 == 0:
                run_cli(data, folder)
        except Exception as e:  # a campaign collects every kind
            frame = traceback.extract_tb(e.__traceback__)[-1]
            key = (type(e).__name__, Path(frame.filename).name, frame.lineno or 0)
            if key not in failures or len(data) < len(failures[key]):
                failures[key] = data
                print(f"[{tried}] {key[0]} at {key[1]}:{key[2]}: {str(e)[:200]}", flush=True)
        spent = time.perf_counter() - began
        if spent > SLOW_SECONDS + SLOW_PER_BYTE * len(data):
            slow += 1
            failures[("slow", f"{spent:.1f}s", len(data))] = data
            print(f"[{tried}] slow: {spent:.1f} s for {len(data)} bytes", flush=True)
        if tried % 2000 == 0:
            print(f"... {tried} inputs, {time.monotonic() - start:.0f} s, {len(failures)} failures",
                  flush=True)
    out.mkdir(parents=True, exist_ok=True)
    for i, (key, data) in enumerate(sorted(failures.items(), key=lambda kv: str(kv[0]))):
        (out / f"failure-{i:03d}-{key[0]}-{key[1]}-{key[2]}.bin").write_bytes(data)
    elapsed = time.monotonic() - start
    print(f"\n{tried} inputs in {elapsed / 60:.1f} min ({tried / elapsed:.0f}/s), largest {biggest} bytes; "
          f"{len(failures)} distinct failures ({slow} slow); seed {seed}")
    for key in sorted(failures, key=str):
        print("  ", *key)
    return 1 if failures else 0


def semantic_loop(minutes: float, inputs: int, seed: int, out: Path) -> int:
    """Semantic mutations with the differential oracle, until ``inputs`` are
    tried or ``minutes`` are spent."""
    import collections

    from tests import fuzzkit

    rnd = random.Random(seed)
    fuzzkit.semantic_seeds()
    failures: dict[tuple[str, str, int], str] = {}
    outcomes: collections.Counter[str] = collections.Counter()
    tried = 0
    start = time.monotonic()
    deadline = start + minutes * 60
    while tried < inputs and time.monotonic() < deadline:
        text = fuzzkit.semantic_mutation(rnd)
        tried += 1
        try:
            outcomes[fuzzkit.check_differential(text)] += 1
        except Exception as e:  # a campaign collects every kind
            frame = traceback.extract_tb(e.__traceback__)[-1]
            key = (type(e).__name__, Path(frame.filename).name, frame.lineno or 0)
            outcomes["failed"] += 1
            if key not in failures or len(text) < len(failures[key]):
                failures[key] = text
                print(f"[{tried}] {key[0]} at {key[1]}:{key[2]}: {str(e)[:200]}", flush=True)
        if tried % 5000 == 0:
            print(f"... {tried} inputs, {time.monotonic() - start:.0f} s, {dict(outcomes)}", flush=True)
    out.mkdir(parents=True, exist_ok=True)
    for i, (key, text) in enumerate(sorted(failures.items(), key=lambda kv: str(kv[0]))):
        (out / f"semantic-{i:03d}-{key[0]}-{key[1]}-{key[2]}.json").write_text(text, encoding="utf-8")
    elapsed = time.monotonic() - start
    print(f"\n{tried} semantic inputs in {elapsed / 60:.1f} min ({tried / elapsed:.0f}/s); outcomes "
          f"{dict(outcomes)}; {len(failures)} distinct failures; seed {seed}")
    return 1 if failures else 0


ATTACK_WEIGHTS = {"output-onto-input": 0.03, "prompt-input": 0.01, "crafted-db": 0.005,
                  "concurrent-live": 0.002}
"""The share of the inputs of ``--attacks`` each attack class takes (the rest
are byte mutations, as in the plain loop): the classes cost 0.05 to 1 s an
input (``concurrent-live`` starts a ``live`` process: about 1 s), a mutation
a few milliseconds."""

CPU_LIMIT = {"bytes": 10.0}
"""Seconds of CPU an input of a class may take before its worker is killed
and the input counted as a failure (a hang); a class not named: 60 s. CPU
time, not wall time: the campaign runs niced on a shared machine."""
CPU_LIMIT_PER_BYTE = 50e-6
WALL_LIMIT = 600.0
"""Seconds of wall time any input may take (a worker waiting for ever)."""


def attack_loop(minutes: float, inputs: int, seed: int, out: Path, workers: int = 1) -> int:
    """The byte mutations of :func:`loop` with the attack classes of
    tests/attackkit.py mixed in (:data:`ATTACK_WEIGHTS`), until ``inputs``
    are tried or ``minutes`` are spent, in ``workers`` processes watched for
    hangs (:data:`CPU_LIMIT`, :data:`WALL_LIMIT`); prints the figures per
    class (Ctrl-C: the figures so far). Every failing input is saved under
    ``out`` (``--replay FILE`` runs one again)."""
    import collections
    import multiprocessing
    from multiprocessing.connection import wait

    context = multiprocessing.get_context("fork")
    signal.signal(signal.SIGTERM, _interrupt)  # kill PID: the figures so far, as with Ctrl-C
    out.mkdir(parents=True, exist_ok=True)
    tried: collections.Counter[str] = collections.Counter()
    failed: collections.Counter[str] = collections.Counter()
    cpu: collections.defaultdict[str, float] = collections.defaultdict(float)
    wall: collections.defaultdict[str, float] = collections.defaultdict(float)
    failures: dict[tuple[str, str], str] = {}
    pool = [_Worker(context, seed, index, 0) for index in range(workers)]
    start = time.monotonic()
    deadline = start + minutes * 60
    total = 0
    restarts = 0

    def count(kind: str, label: str, problem: str | None, spent: float, worker: _Worker) -> None:
        nonlocal total
        payload = worker.payload
        total += 1
        tried[kind] += 1
        cpu[kind] += spent
        wall[kind] += time.monotonic() - worker.began
        if problem is None:
            return
        failed[kind] += 1
        key = (kind, problem[:100])
        if key not in failures:
            failures[key] = label
            saved = _save_input(out, len(failures), kind, problem, label, payload)
            print(f"[{total}] {kind}: {problem[:200]} ({label[:80]}) -> {saved}", flush=True)

    try:
        while total < inputs and time.monotonic() < deadline:
            for ready in wait([w.conn for w in pool], timeout=1.0):
                worker = next(w for w in pool if w.conn is ready)
                try:
                    message = worker.conn.recv()
                except (EOFError, OSError):
                    message = None
                if message is None:  # the worker died under an input
                    kind, payload = worker.current or ("bytes", b"")
                    count(kind, _label(kind, payload), f"the worker died (exit {worker.process.exitcode})",
                          0.0, worker)
                    pool[pool.index(worker)] = worker.restart(context, seed)
                    restarts += 1
                elif message[0] == "begin":
                    worker.begin(message[1], message[2])
                else:
                    _, kind, label, problem, spent = message
                    worker.current = None
                    count(kind, label, problem, spent, worker)
                    if total % 5000 == 0:
                        print(f"... {total} inputs, {time.monotonic() - start:.0f} s, tried {dict(tried)}, "
                              f"failed {dict(failed)}", flush=True)
                if total >= inputs:
                    break
            for i, worker in enumerate(pool):
                stuck = worker.stuck() if total < inputs else None
                if stuck is not None:
                    kind, payload = worker.current or ("bytes", b"")
                    count(kind, _label(kind, payload), stuck, worker.cpu(), worker)
                    pool[i] = worker.restart(context, seed)
                    restarts += 1
    except KeyboardInterrupt:  # Ctrl-C ends the campaign with its figures so far
        pass
    finally:
        for worker in pool:
            worker.stop()
    _attack_figures(out, failures, tried, failed, (cpu, wall), total, time.monotonic() - start, seed,
                    workers, restarts)
    return 1 if failures else 0


def _interrupt(number: int, frame: object) -> None:
    raise KeyboardInterrupt


def _label(kind: str, payload: object) -> str:
    """The label of an input whose worker did not report it."""
    return f"{len(payload)} bytes" if isinstance(payload, bytes) else f"{kind}, its random state saved"


class _Worker:
    """One process of :func:`attack_loop`: its pipe, and the input it is on."""

    def __init__(self, context: Any, seed: int, index: int, restart: int) -> None:
        self.index, self.restarts = index, restart
        self.conn, child = context.Pipe(duplex=False)
        self.process = context.Process(target=_work, args=(child, _seed_of(seed, index, restart)),
                                       daemon=True)
        self.process.start()
        child.close()
        _PARENT_ENDS.append(self.conn)
        self.current: tuple[str, object] | None = None
        self.payload: object = None
        self.began = 0.0
        self.cpu_at = 0.0

    def begin(self, kind: str, payload: object) -> None:
        self.current = (kind, payload)
        self.payload = payload
        self.began = time.monotonic()
        self.cpu_at = self._cpu()

    def _cpu(self) -> float:
        """The process's CPU seconds (user and system), from /proc."""
        try:
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError):
            return 0.0

    def cpu(self) -> float:
        return self._cpu() - self.cpu_at

    def stuck(self) -> str | None:
        """Why the current input counts as hung (None: it does not)."""
        if self.current is None:
            return None
        kind, payload = self.current
        limit = CPU_LIMIT.get(kind, 60.0)
        if isinstance(payload, bytes):
            limit += CPU_LIMIT_PER_BYTE * len(payload)
        spent = self.cpu()
        if spent > limit:
            return f"timeout: over {limit:.1f} s of CPU"
        if time.monotonic() - self.began > WALL_LIMIT:
            return f"timeout: over {WALL_LIMIT:.0f} s ({spent:.0f} s of CPU)"
        return None

    def restart(self, context: Any, seed: int) -> _Worker:
        self.stop()
        return _Worker(context, seed, self.index, self.restarts + 1)

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.conn.close()
        _PARENT_ENDS.remove(self.conn)


_PARENT_ENDS: list[Any] = []
"""The campaign's ends of its workers' pipes: a forked worker closes those it
inherits, so that a worker whose campaign is gone finds its pipe broken."""


def _seed_of(seed: int, index: int, restart: int) -> int | str:
    """The random seed of worker ``index`` after ``restart`` restarts (the
    first worker's first: the campaign's seed, as with one process)."""
    return seed if index == restart == 0 else f"{seed}/{index}/{restart}"


def _work(conn: Any, seed: int | str) -> None:
    """A worker: inputs for ever, each announced (its class and what makes it
    again) before it is run and reported after."""
    from tests import attackkit, fuzzkit

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the campaign's, which stops the workers
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    for end in _PARENT_ENDS:
        end.close()
    rnd = random.Random(seed)
    seeds = fuzzkit.seeds()
    folder = Path(tempfile.mkdtemp(prefix="raspis-attacks-"))
    classes = attackkit.attacks(folder)
    try:
        while True:
            kind = _pick(rnd)
            data = _mutation(rnd, seeds) if kind == "bytes" else b""
            conn.send(("begin", kind, data if kind == "bytes" else _state(rnd)))
            problem, label, spent = _one_attack(kind, rnd, data, classes)
            conn.send(("end", kind, label, problem, spent))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _pick(rnd: random.Random) -> str:
    """The class of the next input."""
    pick = rnd.random()
    for name, weight in ATTACK_WEIGHTS.items():
        if pick < weight:
            return name
        pick -= weight
    return "bytes"


def _mutation(rnd: random.Random, seeds: list[bytes]) -> bytes:
    from tests import fuzzkit

    data = rnd.choice(seeds)
    for _ in range(rnd.randrange(1, 6)):
        data = fuzzkit.mutate(data, rnd)
    return data


def _state(rnd: random.Random) -> dict[str, Any]:
    version, internal, gauss = rnd.getstate()
    return {"version": version, "internal": list(internal), "gauss": gauss}


def _one_attack(kind: str, rnd: random.Random, data: bytes,
                classes: Mapping[str, Callable[[random.Random], Any]]) -> tuple[str | None, str, float]:
    """One input: its failure (None: it held), label and seconds of CPU (a
    byte mutation over :data:`SLOW_SECONDS` and :data:`SLOW_PER_BYTE` is a
    failure: slow)."""
    from tests import fuzzkit

    began = time.process_time()
    problem: str | None = None
    label = ""
    try:
        if kind == "bytes":
            label = f"{len(data)} bytes"
            fuzzkit.check_bytes(data)
        else:
            outcome = classes[kind](rnd)
            label, problem = outcome.label, outcome.failure
    except Exception as e:  # a campaign collects every kind
        frame = traceback.extract_tb(e.__traceback__)[-1]
        problem = f"{type(e).__name__} at {Path(frame.filename).name}:{frame.lineno}: {str(e)[:120]}"
    spent = time.process_time() - began
    if problem is None and kind == "bytes" and spent > SLOW_SECONDS + SLOW_PER_BYTE * len(data):
        problem = f"slow: {spent:.1f} s of CPU for {len(data)} bytes"
    return problem, label, spent


def _save_input(out: Path, number: int, kind: str, problem: str, label: str, payload: object) -> Path:
    """A failing input, as bytes (a mutation) or as the random state its
    attack was drawn from (``--replay`` runs it again)."""
    if isinstance(payload, bytes):
        path = out / f"failure-{number:03d}-{kind}.bin"
        path.write_bytes(payload)
    else:
        path = out / f"failure-{number:03d}-{kind}.json"
        path.write_text(json.dumps({"kind": kind, "problem": problem, "label": label, "random": payload},
                                   ensure_ascii=False), encoding="utf-8")
    return path


def replay(path: Path) -> int:
    """Run one saved input again, in this process (a hang: the stack is
    printed every 60 s)."""
    import faulthandler

    from tests import attackkit, fuzzkit

    faulthandler.dump_traceback_later(60, repeat=True)
    if path.suffix == ".bin":
        data = path.read_bytes()
        problem, label, spent = _one_attack("bytes", random.Random(0), data, {})
    else:
        saved = json.loads(path.read_text(encoding="utf-8"))
        rnd = random.Random()
        state = saved["random"]
        rnd.setstate((state["version"], tuple(state["internal"]), state["gauss"]))
        classes = attackkit.attacks(Path(tempfile.mkdtemp(prefix="raspis-replay-")))
        problem, label, spent = _one_attack(saved["kind"], rnd, b"", classes)
    del fuzzkit
    print(f"{label}: {problem or 'held'} ({spent:.2f} s of CPU)")
    return 1 if problem else 0


def _attack_figures(out: Path, failures: dict[tuple[str, str], str], tried: Mapping[str, int],
                    failed: Mapping[str, int], seconds: tuple[Mapping[str, float], Mapping[str, float]],
                    total: int, elapsed: float, seed: int, workers: int, restarts: int) -> None:
    """The end of :func:`attack_loop`: the distinct failures listed under
    ``out``, the figures per class printed."""
    from tests import attackkit

    out.mkdir(parents=True, exist_ok=True)
    with open(out / "attack-failures.txt", "w", encoding="utf-8") as handle:
        for (kind, problem), label in sorted(failures.items()):
            handle.write(f"{kind}\t{problem}\t{label}\n")
    rate = total / elapsed if elapsed else 0.0
    print(f"\n{total} inputs in {elapsed / 60:.1f} min ({rate:.1f}/s) with {workers} worker(s), "
          f"{restarts} restarted; seed {seed}")
    cpu, wall = seconds
    print(f"  {'class':18} {'tried':>7} {'failed':>6} {'distinct':>8} {'CPU s':>7} {'wall s':>7}")
    for kind in ["bytes", *ATTACK_WEIGHTS]:
        print(f"  {kind:18} {tried.get(kind, 0):7} {failed.get(kind, 0):6} "
              f"{len([k for k in failures if k[0] == kind]):8} {cpu.get(kind, 0.0):7.0f} "
              f"{wall.get(kind, 0.0):7.0f}")
    for kind, why in attackkit.PENDING.items():
        print(f"  {kind:18} pending: {why}")
    for (kind, problem), label in sorted(failures.items()):
        print("  ", kind, "|", problem, "|", label[:80])


def atheris_main(minutes: float) -> int:
    import atheris

    with atheris.instrument_imports():
        import raspis_cli.files.sources
        import raspis_cli.notation.jsoncodec
        import raspis_cli.notation.line_grammar
        import raspis_cli.notation.reader  # noqa: F401
        from tests import fuzzkit

    corpus = Path(tempfile.mkdtemp(prefix="raspis-atheris-"))
    for i, data in enumerate(fuzzkit.seeds()):
        (corpus / f"seed-{i}").write_bytes(data)

    def one(data: bytes) -> None:
        fuzzkit.check_bytes(data)

    atheris.Setup([sys.argv[0], f"-max_total_time={int(minutes * 60)}", "-timeout=20",
                   "-max_len=65536", "-print_final_stats=1", str(corpus)], one)
    atheris.Fuzz()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--out", type=Path, default=Path("fuzz-failures"))
    parser.add_argument("--atheris", action="store_true", help="coverage-guided, with atheris")
    parser.add_argument("--semantic", action="store_true",
                        help="semantic mutations with the JSON / notation differential as the oracle")
    parser.add_argument("--inputs", type=int, default=10**12, help="stop after this many inputs")
    parser.add_argument("--attacks", action="store_true",
                        help="byte mutations with the attack classes of tests/attackkit.py mixed in "
                             "(crafted databases, output onto input, odd input at live's prompts, "
                             "two live sessions on one sheet)")
    parser.add_argument("--workers", type=int, default=1,
                        help="processes of --attacks (each watched for hangs)")
    parser.add_argument("--replay", type=Path, help="run one input --attacks saved again")
    parser.add_argument("--only", choices=["bytes", *ATTACK_WEIGHTS],
                        help="--attacks of this class alone (to run it again after a fix)")
    args = parser.parse_args()
    if args.replay:
        return replay(args.replay)
    if args.only:
        only = {} if args.only == "bytes" else {args.only: 1.0}
        ATTACK_WEIGHTS.clear()  # the workers are forked: they draw from these weights
        ATTACK_WEIGHTS.update(only)
    if args.attacks:
        return attack_loop(args.minutes if args.minutes != 10 else 10**6, args.inputs, args.seed, args.out,
                           max(1, args.workers))
    if args.semantic:
        return semantic_loop(args.minutes if args.minutes != 10 else 10**6, args.inputs, args.seed, args.out)
    if args.atheris:
        return atheris_main(args.minutes)
    return loop(args.minutes, args.seed, args.out)


if __name__ == "__main__":
    sys.exit(main())
