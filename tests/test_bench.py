"""``bench/bench.py --quick`` runs and prints its one table (a smoke test:
nothing here is timed)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # the benchmarks run in their quick mode


ROOT = Path(__file__).resolve().parent.parent


def test_bench_quick_prints_the_table(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "bench.py"), "--quick",
                           "--games", "12", "--sheet-games", "12", "--cache", str(tmp_path)],
                          capture_output=True, text=True, encoding="utf-8", timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    header = [line for line in out.splitlines() if line.startswith("| corpus")]
    assert len(header) == 1, "one table"
    assert "| games/s" in header[0] and "peak RSS MB" in header[0] and "x line-split" in header[0]
    for corpus in ("full", "sheet"):
        for stage in ("floor: read + split lines", "floor: DuckDB read_csv", "parse",
                      "parse + validate", "load -j 1", "load -j 2", "DuckDB ingest (Arrow)"):
            assert f"| {corpus} " in out and f"| {stage} " in out, (corpus, stage)
    rows = [line for line in out.splitlines() if line.startswith("| full") or line.startswith("| sheet")]
    # python-chess's reference row when it is installed (the bench extra), a note why not otherwise
    has_chess = importlib.util.find_spec("chess") is not None
    assert len(rows) == 14 + has_chess
    if has_chess:
        assert "| full   | reference: python-chess parse + replay PGN " in out
        assert "python-chess's speed per move" in out
    else:
        assert "reference: python-chess skipped: python-chess is not installed" in out
    assert out.startswith("corpus: full = 12 four-player raspisnoy games")
    assert "machine: nproc" in out and "memory: full:" in out
    targets = [line for line in out.splitlines() if line.startswith(("| parse + validate, ", "| load -j ",
                                                                     "| peak memory"))]
    assert len(targets) == 6 and all(line.endswith(("| met |", "| missed |")) for line in targets)


def test_solver_bench_quick_prints_its_rows() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "solver_bench.py"), "--quick"],
                          capture_output=True, text=True, encoding="utf-8", timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "agreement with brute force" in out and "50/50 agree" in out
    assert "3 players x 3 cards, median per player-deal" in out
    assert "PIMC bid advice, 3x3, K=4" in out and "(4/4 samples solved)" in out


def test_analyze_bench_counts_the_advice_positions_of_deal_5() -> None:
    """``analyze_bench --positions`` on deal 5 of the sample: the three
    players' advice, every sample solved, so none of the positions unsolved."""
    done = subprocess.run([sys.executable, "-c", "from bench.analyze_bench import _advice_positions; "
                           "_advice_positions(5)"],
                          capture_output=True, text=True, encoding="utf-8", timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    rows = [line.split("|")[1:-1] for line in done.stdout.splitlines()[2:]]
    assert [row[0].strip() for row in rows] == ["5", "all"]
    for row in rows:
        assert row[1].strip() == "3"
        assert int(row[2].replace(",", "")) > 0
        assert row[3].strip() == "0 (0 %)"


def test_analyze_bench_budget_rows_count_what_a_budget_leaves_unanswered() -> None:
    """``analyze_bench --budgets`` on deal 5 of the sample, plain Python: a
    tiny budget leaves players' deals unanswered, none (0) answers them all;
    the rows say so, the CPU ratio to the given default, and how many best
    bids are the unbounded run's (the tiny run's output also given as the
    default's, the first row)."""
    code = ("from bench.analyze_bench import SAMPLE, _run, budget_rows; "
            "env = {'RASPIS_NO_JIT': '1'}; sample = [SAMPLE, '--deal', '5']; "
            "tiny = _run(['analyze', *sample, '--budget', '1000'], env)[2]; "
            "print('\\n'.join(budget_rows(sample, [1000, 0], 1.0, env, default_out=tiny)))")
    done = subprocess.run([sys.executable, "-c", code],
                          capture_output=True, text=True, encoding="utf-8", timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    rows = [[cell.strip() for cell in line.split("|")[1:-1]] for line in done.stdout.splitlines()]
    assert [row[0] for row in rows] == [
        "analyze samples/raspisnoy-full-3p.rsp --deal 5 -j 1 (the default budget)",
        "analyze samples/raspisnoy-full-3p.rsp --deal 5 --budget 1,000 -j 1",
        "analyze samples/raspisnoy-full-3p.rsp --deal 5 --budget 0 -j 1"]
    default, tiny, unbounded = rows
    assert default[3] == tiny[3] and int(tiny[3]) > 0 and tiny[4].endswith("x")
    # the tiny budget answers two of the three, with the unbounded best bids
    assert default[5] == tiny[5] == "2 of 2"
    assert unbounded[3] == "0" and unbounded[5] == "3 of 3"


def test_analyze_bench_counts_the_best_bids_as_the_reference() -> None:
    """``agreement`` reads the best bids of the text output and counts those
    of the reference's 12-card lines it gives, and those that are the same."""
    reference = json.loads((ROOT / "bench" / "analyze_reference.json").read_text(encoding="utf-8"))["best"]
    assert len(reference) == 27
    right = reference["12/Анна"]
    text = ("Game 1: x\nDeal 12 · normal · 12 cards\n"
            "  Анна   bid 2, took 2; could force exactly 2\n"
            f"         advice (12/12 samples): best bid {right} (expected +1.0), bid 2 expected -5.0\n"
            f"         bots (12 deals played out): best bid {right + 1} (mean +1.0), bid 2 mean +1.0\n"
            "  Boris  bid 2, took 2; could force exactly 2\n"
            f"         advice (12/12 samples): best bid {reference['12/Boris'] + 1} (expected +1.0), "
            "bid 2 expected -5.0\n")
    done = subprocess.run([sys.executable, "-c", "import sys; from bench.analyze_bench import agreement; "
                           "print(agreement(sys.stdin.read()))"], input=text,
                          capture_output=True, text=True, encoding="utf-8", timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "(1, 2)"
