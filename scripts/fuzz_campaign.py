#!/usr/bin/env python3
"""A long fuzzing campaign against the readers, the replay and the CLI.

    .venv/bin/python -m scripts.fuzz_campaign --minutes 30            # mutation loop
    .venv/bin/python -m scripts.fuzz_campaign --minutes 30 --atheris  # coverage-guided (pip install atheris)
    .venv/bin/python -m scripts.fuzz_campaign --semantic --inputs 100000  # semantic, differential

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
from pathlib import Path

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
    args = parser.parse_args()
    if args.semantic:
        return semantic_loop(args.minutes if args.minutes != 10 else 10**6, args.inputs, args.seed, args.out)
    if args.atheris:
        return atheris_main(args.minutes)
    return loop(args.minutes, args.seed, args.out)


if __name__ == "__main__":
    sys.exit(main())
