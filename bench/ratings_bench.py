"""Does the rating do what a rating is for? And how fast is it?

1. A club history is simulated where skill truly differs: 8 players, bots that
   misjudge a bid, and play a card carelessly, with probability 1 - skill (``raspis simulate --skill``),
   tables of 3, 4 and 5 drawn from the pool (absentees), dates over two years.
   It is loaded with ``raspis load`` and rated as ``raspis stats --report
   ratings`` rates it.
2. Held-out prediction: ratings, win rates and mean totals are taken from the
   first 70 % of the games (date order); on the last 30 % each predicts the
   finishing order. Figures: log-loss of the winner, winner accuracy, and the
   share of pairs of players at a table put in the right order. The naive
   predictors get a Plackett–Luce probability ``p ∝ exp(beta x)`` with ``beta``
   fitted on the training games (their best shot); the rating uses openskill's
   own ``predict_win``, fitted on nothing.
3. Skill recovery: Spearman correlation of the planted skill with the final
   ordinal (goal ≥ 0.9 over 2,000 games for 8 players).
4. Speed: rating 100,000 games (synthetic standings, tables of 3–6 from 200
   players) through :func:`raspis_cli.store.ratings.rate_games`.

    python bench/ratings_bench.py              # 2,000 games (a few minutes)
    python bench/ratings_bench.py --games 300  # a quick look
"""

from __future__ import annotations

import argparse
import datetime
import math
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from raspis_cli.store.ratings import RatedGame, rate_games, rated_games  # noqa: E402

SKILLS = {"Анна": 0.95, "Boris": 0.9, "Вера": 0.85, "Дмитрий": 0.8,
          "Ольга": 0.75, "Пётр": 0.7, "Света": 0.65, "Тимур": 0.6}


def _raspis(*args: str) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    subprocess.run([sys.executable, "-m", "raspis_cli", *args], check=True, env=env, cwd=ROOT)


CHANGING = {"Анна": "0.95..0.6", "Тимур": "0.6..0.95"}
"""The second history: two players change over the two years (Анна declines, Тимур learns)."""


def simulate_club(folder: Path, games: int, seed: int, jobs: int,
                  changing: dict[str, str] | None = None) -> Path:
    """The history as a JSONL file, loaded into a database; its path."""
    records = folder / "club.jsonl"
    skills = {n: str(s) for n, s in SKILLS.items()} | (changing or {})
    skill = [arg for name, s in skills.items() for arg in ("--skill", f"{name}={s}")]
    _raspis("simulate", "--players", "4", "--table-sizes", "3,4,5", "--players-pool", ",".join(SKILLS),
            "--date-range", "2025-01-01..2026-12-31", "--games", str(games), "--seed", str(seed),
            "--detail", "scores", "-f", "jsonl", "-o", str(records), "-j", str(jobs), *skill)
    db = folder / "club.duckdb"
    _raspis("load", str(records), "--db", str(db), "-q")
    return db


def _ranks(values: Sequence[float]) -> list[float]:
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def spearman(a: Sequence[float], b: Sequence[float]) -> float:
    """Spearman's rank correlation (ties get mean ranks)."""
    ra, rb = _ranks(a), _ranks(b)
    ma, mb = sum(ra) / len(ra), sum(rb) / len(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb, strict=True))
    va = math.sqrt(sum((x - ma) ** 2 for x in ra))
    vb = math.sqrt(sum((y - mb) ** 2 for y in rb))
    return cov / (va * vb)


def _softmax(xs: Sequence[float], beta: float) -> list[float]:
    top = max(beta * x for x in xs)
    ws = [math.exp(beta * x - top) for x in xs]
    total = sum(ws)
    return [w / total for w in ws]


def _winner_loss(probs: Sequence[float], places: Sequence[int]) -> float:
    """-log of the probability given to the winner (co-winners: their sum)."""
    p = sum(pr for pr, place in zip(probs, places, strict=True) if place == 1)
    return -math.log(max(p, 1e-12))


def _score(strengths: Sequence[float], probs: Sequence[float],
           places: Sequence[int]) -> tuple[float, int, int, int]:
    """Winner log-loss, winner hit, pairs right, pairs judged."""
    loss = _winner_loss(probs, places)
    best = max(range(len(probs)), key=lambda i: probs[i])
    hit = int(places[best] == 1)
    right = judged = 0
    for i in range(len(places)):
        for j in range(i + 1, len(places)):
            if places[i] == places[j] or strengths[i] == strengths[j]:
                continue
            judged += 1
            right += int((strengths[i] > strengths[j]) == (places[i] < places[j]))
    return loss, hit, right, judged


def _fit_beta(train: Sequence[RatedGame], value: dict[str, float]) -> float:
    """The beta of p ∝ exp(beta x) that gives the training winners the best log-loss."""
    best, best_loss = 0.0, math.inf
    scale = max((abs(v) for v in value.values()), default=1.0) or 1.0
    for step in range(0, 61):
        beta = step / 6 / scale
        loss = sum(_winner_loss(_softmax([value.get(p, 0.0) for p in g.players], beta), g.places)
                   for g in train)
        if loss < best_loss:
            best, best_loss = beta, loss
    return best


def held_out(games: list[RatedGame], totals: dict[str, dict[str, int]],
             split: float) -> list[tuple[str, ...]]:
    """Rows of the prediction table: predictor, log-loss, winner accuracy, pair accuracy."""
    from openskill.models import PlackettLuce

    cut = int(len(games) * split)
    train, test = games[:cut], games[cut:]
    final: dict[str, tuple[float, float]] = {}
    for step in rate_games(train):
        final[step.player] = (step.mu, step.sigma)
    model = PlackettLuce()
    wins: dict[str, float] = {}
    played: dict[str, int] = {}
    total_sum: dict[str, float] = {}
    for g in train:
        for p, place in zip(g.players, g.places, strict=True):
            played[p] = played.get(p, 0) + 1
            wins[p] = wins.get(p, 0) + (place == 1)
            total_sum[p] = total_sum.get(p, 0) + totals[g.game_id][p]
    win_rate = {p: (wins[p] + 1) / (played[p] + 2) for p in played}
    mean_total = {p: total_sum[p] / played[p] for p in played}
    beta_w = _fit_beta(train, win_rate)
    beta_t = _fit_beta(train, mean_total)
    rows: list[tuple[str, ...]] = []
    mu = {p: m for p, (m, _) in final.items()}
    beta_r = _fit_beta(train, mu)
    for name in ("rating: openskill predict_win", "rating: mean, fitted like the others", "win rate",
                 "mean total", "no skill (uniform)"):
        loss = 0.0
        hits = right = judged = 0
        for g in test:
            if name.startswith("rating: openskill"):
                ratings = [model.rating(*final.get(p, (25.0, 25 / 3))) for p in g.players]
                probs = model.predict_win([[r] for r in ratings])
                strengths = [r.mu for r in ratings]
            elif name.startswith("rating"):
                strengths = [mu.get(p, 25.0) for p in g.players]
                probs = _softmax(strengths, beta_r)
            elif name == "win rate":
                strengths = [win_rate.get(p, 0.5) for p in g.players]
                probs = _softmax(strengths, beta_w)
            elif name == "mean total":
                strengths = [mean_total.get(p, 0.0) for p in g.players]
                probs = _softmax(strengths, beta_t)
            else:
                strengths = [0.0] * len(g.players)
                probs = [1 / len(g.players)] * len(g.players)
            lo, hit, r, j = _score(strengths, probs, g.places)
            loss += lo
            hits += hit
            right += r
            judged += j
        rows.append((name, f"{loss / len(test):.4f}", f"{hits / len(test):.1%}",
                     f"{right / judged:.1%}" if judged else "-"))
    return rows


def speed(count: int, seed: int = 1) -> tuple[float, float]:
    """Seconds to rate ``count`` synthetic games; games per second."""
    rng = random.Random(seed)
    people = [f"P{i}" for i in range(200)]
    games = []
    for i in range(count):
        size = rng.randint(3, 6)
        players = tuple(rng.sample(people, size))
        places = tuple(rng.sample(range(1, size + 1), size))
        games.append(RatedGame(f"g{i}", None, "raspisnoy", players, places))
    start = time.perf_counter()
    for _ in rate_games(games):
        pass
    took = time.perf_counter() - start
    return took, count / took


def main() -> None:
    """Run the three measurements and print their tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--split", type=float, default=0.7)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--speed-games", type=int, default=100_000)
    args = parser.parse_args()
    import duckdb

    histories = {}
    for label, changing in (("A", None), ("B", CHANGING)):
        with tempfile.TemporaryDirectory() as tmp:
            started = time.perf_counter()
            db = simulate_club(Path(tmp), args.games, args.seed, args.jobs, changing)
            made = time.perf_counter() - started
            con = duckdb.connect(str(db), read_only=True)
            history = rated_games(con, "rules")
            totals: dict[str, dict[str, int]] = {}
            for gid, player, total in con.execute("SELECT game_id, player, total FROM seats").fetchall():
                totals.setdefault(gid, {})[player] = total
            con.close()
        histories[label] = history
        planted = {n: str(s) for n, s in SKILLS.items()} | (changing or {})
        print(f"history {label}: {len(history)} simulated games (raspisnoy, tables of 3-5 from 8 players, "
              f"2025-01-01..2026-12-31, seed {args.seed}), made and loaded in {made:.0f} s")
        print("planted skill (chance of judging a bid and a card right; FROM..TO changes over the "
              "history): " + ", ".join(f"{n} {s}" for n, s in planted.items()))
        print(f"held-out prediction: trained on the first {args.split:.0%} of the games, tested on the "
              f"last {1 - args.split:.0%} ({len(history) - int(len(history) * args.split)} games)")
        print("| predictor | winner log-loss (lower is better) | winner accuracy "
              "| pairs in the right order |")
        print("|---|---|---|---|")
        for row in held_out(history, totals, args.split):
            print("| " + " | ".join(row) + " |")
        print()
    games = histories["A"]
    final: dict[str, float] = {}
    for step in rate_games(games):
        final[step.player] = step.ordinal
    names = sorted(SKILLS)
    rho = spearman([SKILLS[n] for n in names], [final[n] for n in names])
    print(f"skill recovery, history A, over all {len(games)} games: "
          f"Spearman(planted skill, final ordinal) = {rho:.3f} (goal >= 0.9)")
    print("| player | planted skill | ordinal | rank by ordinal |")
    print("|---|---|---|---|")
    by_ordinal = sorted(names, key=lambda n: -final[n])
    for n in sorted(names, key=lambda n: -SKILLS[n]):
        print(f"| {n} | {SKILLS[n]} | {final[n]:.2f} | {by_ordinal.index(n) + 1} |")
    print()
    took, rate = speed(args.speed_games)
    print(f"speed: rated {args.speed_games:,} games (tables of 3-6, 200 players) in {took:.1f} s "
          f"= {rate:,.0f} games/s (one core; machine: nproc {os.cpu_count()}, "
          f"{datetime.date.today().isoformat()})")


if __name__ == "__main__":
    main()
