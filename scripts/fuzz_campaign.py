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
back). Two ``live`` sessions on one sheet are named there as pending.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import random
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


ATTACK_WEIGHTS = {"output-onto-input": 0.03, "prompt-input": 0.01, "crafted-db": 0.005}
"""The share of the inputs of ``--attacks`` each attack class takes (the rest
are byte mutations, as in the plain loop): the classes cost 0.05 to 1 s an
input, a mutation a few milliseconds."""


def attack_loop(minutes: float, inputs: int, seed: int, out: Path) -> int:
    """The byte mutations of :func:`loop` with the attack classes of
    tests/attackkit.py mixed in (:data:`ATTACK_WEIGHTS`), until ``inputs``
    are tried or ``minutes`` are spent; prints the figures per class."""
    import collections

    from tests import attackkit, fuzzkit

    rnd = random.Random(seed)
    seeds = fuzzkit.seeds()
    folder = Path(tempfile.mkdtemp(prefix="raspis-attacks-"))
    classes = attackkit.attacks(folder)
    tried: collections.Counter[str] = collections.Counter()
    failed: collections.Counter[str] = collections.Counter()
    seconds: collections.defaultdict[str, float] = collections.defaultdict(float)
    failures: dict[tuple[str, str], str] = {}
    start = time.monotonic()
    deadline = start + minutes * 60
    total = 0
    while total < inputs and time.monotonic() < deadline:
        try:
            problem, kind, label, spent = _one_attack(rnd, seeds, classes)
        except KeyboardInterrupt:  # Ctrl-C ends the campaign with its figures so far
            break
        total += 1
        seconds[kind] += spent
        tried[kind] += 1
        if problem is not None:
            failed[kind] += 1
            key = (kind, problem[:100])
            if key not in failures:
                failures[key] = label
                print(f"[{total}] {kind}: {problem[:200]} ({label[:80]})", flush=True)
        if total % 5000 == 0:
            print(f"... {total} inputs, {time.monotonic() - start:.0f} s, tried {dict(tried)}, "
                  f"failed {dict(failed)}", flush=True)
    _attack_figures(out, failures, tried, failed, seconds, total, time.monotonic() - start, seed)
    return 1 if failures else 0


def _one_attack(rnd: random.Random, seeds: list[bytes],
                classes: dict[str, Callable[[random.Random], Any]]) -> tuple[str | None, str, str, float]:
    """One input of :func:`attack_loop`: its failure (None: it held), class, label and seconds."""
    from tests import fuzzkit

    pick = rnd.random()
    kind = "bytes"
    for name, weight in ATTACK_WEIGHTS.items():
        if pick < weight:
            kind = name
            break
        pick -= weight
    began = time.perf_counter()
    problem: str | None = None
    label = ""
    try:
        if kind == "bytes":
            data = rnd.choice(seeds)
            for _ in range(rnd.randrange(1, 6)):
                data = fuzzkit.mutate(data, rnd)
            label = f"{len(data)} bytes"
            fuzzkit.check_bytes(data)
        else:
            outcome = classes[kind](rnd)
            label, problem = outcome.label, outcome.failure
    except Exception as e:  # a campaign collects every kind
        frame = traceback.extract_tb(e.__traceback__)[-1]
        problem = f"{type(e).__name__} at {Path(frame.filename).name}:{frame.lineno}: {str(e)[:120]}"
    return problem, kind, label, time.perf_counter() - began


def _attack_figures(out: Path, failures: dict[tuple[str, str], str], tried: Mapping[str, int],
                    failed: Mapping[str, int], seconds: Mapping[str, float], total: int, elapsed: float,
                    seed: int) -> None:
    """The end of :func:`attack_loop`: the distinct failures written under
    ``out``, the figures per class printed."""
    from tests import attackkit

    out.mkdir(parents=True, exist_ok=True)
    with open(out / "attack-failures.txt", "w", encoding="utf-8") as handle:
        for (kind, problem), label in sorted(failures.items()):
            handle.write(f"{kind}\t{problem}\t{label}\n")
    print(f"\n{total} inputs in {elapsed / 60:.1f} min; seed {seed}")
    for kind in ["bytes", *ATTACK_WEIGHTS]:
        print(f"  {kind:18} {tried.get(kind, 0):7} tried {failed.get(kind, 0):6} failed "
              f"{len([k for k in failures if k[0] == kind]):4} distinct  {seconds.get(kind, 0.0):7.0f} s")
    for kind, why in attackkit.PENDING.items():
        print(f"  {kind:18} pending: {why}")
    for (kind, problem), label in sorted(failures.items()):
        print("  ", kind, "|", problem, "|", label[:80])


def atheris_main(minutes: float) -> int:
    import atheris  # type: ignore[import-not-found]

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
                             "(crafted databases, output onto input, odd input at live's prompts)")
    args = parser.parse_args()
    if args.attacks:
        return attack_loop(args.minutes if args.minutes != 10 else 10**6, args.inputs, args.seed, args.out)
    if args.semantic:
        return semantic_loop(args.minutes if args.minutes != 10 else 10**6, args.inputs, args.seed, args.out)
    if args.atheris:
        return atheris_main(args.minutes)
    return loop(args.minutes, args.seed, args.out)


if __name__ == "__main__":
    sys.exit(main())
