"""Does the rating do what a rating is for? And how fast is it?

1. Club histories are simulated where skill truly differs (``raspis simulate
   --skill``: a bot misjudges a bid, and plays a card carelessly, with
   probability 1 - skill), 8 players, tables of 3, 4 and 5 (absentees), two
   years of dates, loaded with ``raspis load`` and rated as ``raspis stats
   --report ratings`` rates them (:func:`raspis_cli.store.ratings.rate_games`,
   the same beta and tau). Three kinds, several independent histories of each
   (seeds 1..H):

   A. skills fixed (0.95, 0.90 ... 0.60), every table seated at random;
   B. as A, but Анна declines 0.95 -> 0.60 and Тимур learns 0.60 -> 0.95;
   C. skills fixed, but the club meets in two circles: half the games seat the
      five strongest players, half the five weakest, Дмитрий and Ольга play in
      both (tables mix strong and weak players unevenly).

2. Held-out prediction: ratings, win rates and mean totals are taken from the
   first 70 % of the games (date order); on the last 30 % each predicts the
   winner. Every predictor gets the same Plackett–Luce form, ``p ∝ exp(t x)``
   with the temperature ``t`` fitted on the training games (its best shot).
   Figures: winner log-loss, winner accuracy, pairs of players at a table put
   in the right order; and the paired per-game difference of the rating from
   each naive predictor, averaged per history, with its standard error over
   the H histories.

3. Skill recovery: Spearman of the planted skill with the final ordinal over
   all games of each history A (goal >= 0.9 over 2,000 games for 8 players).

4. Speed: rating 100,000 games (synthetic standings, tables of 3-6 from 200
   players) through ``rate_games``, CPU time of this process.

``--choose`` instead prints how beta and tau were chosen: each pair's
training-period predictive log-loss (every training game's winner predicted
from the ratings before it, with the model's own scale), over the training
parts only.

    python bench/ratings_bench.py --histories 6 --batch --cache /tmp/rb  # the README's figures
    python bench/ratings_bench.py --histories 2 --games 500        # a quick look
    python bench/ratings_bench.py --choose --histories 4 --cache /tmp/rb
"""

from __future__ import annotations

import argparse
import datetime
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from raspis_cli.store.ratings import (  # noqa: E402
    BETA,
    START_MU,
    START_SIGMA,
    TAU,
    RatedGame,
    rate_games,
    rated_games,
)

SKILLS = {"Анна": 0.95, "Boris": 0.9, "Вера": 0.85, "Дмитрий": 0.8,
          "Ольга": 0.75, "Пётр": 0.7, "Света": 0.65, "Тимур": 0.6}
CHANGING = {"Анна": "0.95..0.6", "Тимур": "0.6..0.95"}
"""History B: two players change over the two years (Анна declines, Тимур learns)."""
CIRCLES = (("Анна", "Boris", "Вера", "Дмитрий", "Ольга"), ("Дмитрий", "Ольга", "Пётр", "Света", "Тимур"))
"""History C: the two circles, half the games each; Дмитрий and Ольга play in both."""
KINDS = {"A": "skills fixed, tables seated at random from the 8",
         "B": "Анна declines 0.95->0.6, Тимур learns 0.6->0.95, tables at random",
         "C": "skills fixed, two circles (the 5 strongest, the 5 weakest; Дмитрий, Ольга in both)"}
OPENSKILL_DEFAULTS = (START_SIGMA / 2, START_MU / 300)
"""openskill's own beta and tau for mu 25, sigma 25/3: what raspis used before."""


def _raspis(*args: str) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    subprocess.run([sys.executable, "-m", "raspis_cli", *args], check=True, env=env, cwd=ROOT)


def _simulate(out: Path, pool: Sequence[str], games: int, seed: int, jobs: int,
              skills: dict[str, str]) -> None:
    skill = [arg for name in pool for arg in ("--skill", f"{name}={skills[name]}")]
    _raspis("simulate", "--players", "4", "--table-sizes", "3,4,5", "--players-pool", ",".join(pool),
            "--date-range", "2025-01-01..2026-12-31", "--games", str(games), "--seed", str(seed),
            "--detail", "scores", "-f", "jsonl", "-o", str(out), "-j", str(jobs), *skill)


def club_database(kind: str, games: int, seed: int, jobs: int, cache: Path | None) -> Path:
    """A simulated history of ``kind`` loaded into a database (kept in
    ``cache`` when given, and taken from there the next time); its path."""
    folder = cache or Path(tempfile.mkdtemp(prefix="ratings_bench_"))
    folder.mkdir(parents=True, exist_ok=True)
    db = folder / f"{kind}{seed}-{games}.duckdb"
    if db.exists():
        return db
    skills = {n: str(s) for n, s in SKILLS.items()} | (CHANGING if kind == "B" else {})
    if kind == "C":
        files = [folder / f"{kind}{seed}-{games}-{i}.jsonl" for i in range(2)]
        _simulate(files[0], CIRCLES[0], games // 2, seed, jobs, skills)
        _simulate(files[1], CIRCLES[1], games - games // 2, seed + 1000, jobs, skills)
    else:
        files = [folder / f"{kind}{seed}-{games}.jsonl"]
        _simulate(files[0], list(SKILLS), games, seed, jobs, skills)
    partial = db.with_suffix(".partial")
    partial.unlink(missing_ok=True)
    _raspis("load", *map(str, files), "--db", str(partial), "-q")
    partial.rename(db)
    for f in files:
        f.unlink()
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


def _softmax(xs: Sequence[float], t: float) -> list[float]:
    top = max(t * x for x in xs)
    ws = [math.exp(t * x - top) for x in xs]
    total = sum(ws)
    return [w / total for w in ws]


def _winner_loss(probs: Sequence[float], places: Sequence[int]) -> float:
    """-log of the probability given to the winner (co-winners: their sum)."""
    p = sum(pr for pr, place in zip(probs, places, strict=True) if place == 1)
    return -math.log(max(p, 1e-12))


def _fit_temperature(train: Sequence[RatedGame], value: dict[str, float]) -> float:
    """The t of p ∝ exp(t x) that gives the training winners the best log-loss
    (a grid of 61 steps, then a finer one around the best)."""
    scale = max((abs(v) for v in value.values()), default=1.0) or 1.0
    tables = [([value.get(p, 0.0) for p in g.players], g.places) for g in train]

    def loss(t: float) -> float:
        return sum(_winner_loss(_softmax(xs, t), places) for xs, places in tables)

    step = 1 / 6 / scale
    best = min((k * step for k in range(61)), key=loss)
    return min((max(0.0, best + k * step / 10) for k in range(-9, 10)), key=loss)


Outcome = tuple[float, int, int, int]
"""One test game for one predictor: winner log-loss, winner hit, pairs right, pairs judged."""


def _outcome(strengths: Sequence[float], t: float, places: Sequence[int]) -> Outcome:
    probs = _softmax(strengths, t)
    best = max(range(len(probs)), key=lambda i: probs[i])
    right = judged = 0
    for i in range(len(places)):
        for j in range(i + 1, len(places)):
            if places[i] == places[j] or strengths[i] == strengths[j]:
                continue
            judged += 1
            right += int((strengths[i] > strengths[j]) == (places[i] < places[j]))
    return _winner_loss(probs, places), int(places[best] == 1), right, judged


PREDICTORS = ("rating (raspis)", "rating (openskill defaults)", "win rate", "mean total",
              "no skill (uniform)")
BATCH = "Plackett-Luce fitted at once (--batch)"
"""Not a rating: the same model fitted to all training places at once, a diagnosis."""


def plackett_luce_fit(train: Sequence[RatedGame], iterations: int = 200) -> dict[str, float]:
    """Log-strengths maximising the Plackett–Luce likelihood of every
    training game's full finishing order (Hunter's MM algorithm; equal places
    in seat order), each player starting with one win and one loss against a
    virtual player of strength 1 (keeps every strength finite)."""
    stages: list[list[int]] = []
    names = sorted({p for g in train for p in g.players})
    index = {p: i for i, p in enumerate(names)}
    wins = [1.0] * len(names)
    for g in train:
        order = [index[g.players[i]] for i in sorted(range(len(g.players)), key=g.places.__getitem__)]
        for k in range(len(order) - 1):
            stages.append(order[k:])
            wins[order[k]] += 1
    gamma = [1.0] * len(names)
    for _ in range(iterations):
        denominator = [2 / (g + 1) for g in gamma]  # the virtual games
        for chosen in stages:
            inverse = 1 / sum(gamma[i] for i in chosen)
            for i in chosen:
                denominator[i] += inverse
        gamma = [w / d for w, d in zip(wins, denominator, strict=True)]
    return {p: math.log(gamma[i]) for p, i in index.items()}


def held_out(games: list[RatedGame], totals: dict[str, dict[str, int]],
             split: float, batch: bool = False) -> dict[str, list[Outcome]]:
    """Per predictor, the outcome of every test game (the games after the split)."""
    cut = int(len(games) * split)
    train, test = games[:cut], games[cut:]
    wins: dict[str, float] = {}
    played: dict[str, int] = {}
    total_sum: dict[str, float] = {}
    for g in train:
        for p, place in zip(g.players, g.places, strict=True):
            played[p] = played.get(p, 0) + 1
            wins[p] = wins.get(p, 0) + (place == 1)
            total_sum[p] = total_sum.get(p, 0) + totals[g.game_id][p]

    def rating(beta: float, tau: float) -> dict[str, float]:
        return {s.player: s.mu for s in rate_games(train, beta=beta, tau=tau)}

    values = {
        "rating (raspis)": rating(BETA, TAU),
        "rating (openskill defaults)": rating(*OPENSKILL_DEFAULTS),
        "win rate": {p: (wins[p] + 1) / (played[p] + 2) for p in played},
        "mean total": {p: total_sum[p] / played[p] for p in played},
        "no skill (uniform)": {},
    }
    if batch:
        values[BATCH] = plackett_luce_fit(train)
    result: dict[str, list[Outcome]] = {}
    for name, value in values.items():
        t = _fit_temperature(train, value) if value else 0.0
        result[name] = [_outcome([value.get(p, 0.0) for p in g.players], t, g.places) for g in test]
    return result


def _history(db: Path) -> tuple[list[RatedGame], dict[str, dict[str, int]]]:
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    try:
        history = rated_games(con, "rules")
        totals: dict[str, dict[str, int]] = {}
        for gid, player, total in con.execute("SELECT game_id, player, total FROM seats").fetchall():
            totals.setdefault(gid, {})[player] = total
    finally:
        con.close()
    return history, totals


def _mean_se(xs: Sequence[float]) -> tuple[float, float]:
    mean = statistics.fmean(xs)
    return mean, (statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else math.nan)


def report_kind(kind: str, runs: list[dict[str, list[Outcome]]]) -> None:
    """The table of one kind of history over its H runs."""
    h = len(runs)
    print("| predictor | winner log-loss | winner accuracy | pairs in order "
          "| log-loss - win rate's | - mean total's | accuracy - win rate's | - mean total's |")
    print("|---|---|---|---|---|---|---|---|")

    def per_run(name: str, field: Callable[[Outcome], float]) -> list[float]:
        return [statistics.fmean(field(o) for o in run[name]) for run in runs]

    def diff(name: str, base: str, field: Callable[[Outcome], float]) -> str:
        d = [statistics.fmean(field(a) - field(b) for a, b in zip(run[name], run[base], strict=True))
             for run in runs]
        mean, se = _mean_se(d)
        return f"{mean:+.4f} ± {se:.4f}"

    for name in [n for n in (*PREDICTORS, BATCH) if n in runs[0]]:
        loss = statistics.fmean(per_run(name, _loss))
        acc = statistics.fmean(per_run(name, _hit))
        pairs = [sum(o[2] for o in run[name]) / max(1, sum(o[3] for o in run[name])) for run in runs]
        uniform = name == PREDICTORS[-1]
        cells = [f"{loss:.4f}", f"{acc:.1%}", "-" if uniform else f"{statistics.fmean(pairs):.1%}"]
        if name.startswith("rating") or name == BATCH:
            cells += [diff(name, "win rate", _loss), diff(name, "mean total", _loss),
                      _pct(runs, name, "win rate"), _pct(runs, name, "mean total")]
        else:
            cells += ["", "", "", ""]
        print(f"| {name} | " + " | ".join(cells) + " |")
    print(f"({h} histories; ± is the standard error of the mean over them of each history's mean "
          f"per-game difference; negative log-loss and positive accuracy differences favour the rating)")


def _loss(o: Outcome) -> float:
    return o[0]


def _hit(o: Outcome) -> float:
    return float(o[1])


def _pct(runs: list[dict[str, list[Outcome]]], name: str, base: str) -> str:
    d = [statistics.fmean(a[1] - b[1] for a, b in zip(run[name], run[base], strict=True)) for run in runs]
    mean, se = _mean_se(d)
    return f"{mean * 100:+.1f} ± {se * 100:.1f} pt"


def predictive_loss(train: Sequence[RatedGame], beta: float, tau: float) -> float:
    """Mean log-loss of each training game's winner(s) predicted from the
    ratings before the game, Plackett–Luce with the model's own scale
    ``c = sqrt(sum(sigma^2 + beta^2))``: what choosing beta and tau may look at."""
    steps: dict[str, list[tuple[float, float, int]]] = {}
    for s in rate_games(train, beta=beta, tau=tau):
        steps.setdefault(s.game_id, []).append((s.mu_before, s.sigma_before, s.place))
    total = 0.0
    for seats in steps.values():
        c = math.sqrt(sum(sigma * sigma + beta * beta for _, sigma, _ in seats))
        total += _winner_loss(_softmax([mu for mu, _, _ in seats], 1 / c), [p for _, _, p in seats])
    return total / len(steps)


def choose(histories: dict[str, list[list[RatedGame]]], split: float) -> None:
    """Print the training-period predictive log-loss of each beta and tau."""
    betas = (START_SIGMA / 2, START_SIGMA, 1.5 * START_SIGMA, 2 * START_SIGMA, 3 * START_SIGMA,
             4 * START_SIGMA, 6 * START_SIGMA)
    taus = (0.0, START_MU / 3000, START_MU / 300)
    runs = [games[:int(len(games) * split)] for kind in histories for games in histories[kind]]
    print(f"training-period predictive log-loss (first {split:.0%} of each of {len(runs)} histories, "
          f"mean of their means; lower is better); rows beta, columns tau")
    print("| beta | " + " | ".join(f"tau {t:.4f}" for t in taus) + " |")
    print("|---|" + "---|" * len(taus))
    for beta in betas:
        cells = [statistics.fmean(predictive_loss(r, beta, tau) for r in runs) for tau in taus]
        print(f"| {beta:.2f} | " + " | ".join(f"{c:.5f}" for c in cells) + " |", flush=True)
    print(f"raspis uses beta {BETA:.2f}, tau {TAU:.4f}; openskill's defaults are beta "
          f"{OPENSKILL_DEFAULTS[0]:.2f}, tau {OPENSKILL_DEFAULTS[1]:.4f}")


def speed(count: int, seed: int = 1) -> tuple[float, float]:
    """CPU seconds to rate ``count`` synthetic games; games per second."""
    rng = random.Random(seed)
    people = [f"P{i}" for i in range(200)]
    games = []
    for i in range(count):
        size = rng.randint(3, 6)
        players = tuple(rng.sample(people, size))
        places = tuple(rng.sample(range(1, size + 1), size))
        games.append(RatedGame(f"g{i}", None, "raspisnoy", players, places))
    start = time.process_time()
    for _ in rate_games(games):
        pass
    took = time.process_time() - start
    return took, count / took


def main() -> None:
    """Run the measurements and print their tables."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per history")
    parser.add_argument("--histories", type=int, default=4, help="independent histories of each kind")
    parser.add_argument("--kinds", default="ABC")
    parser.add_argument("--split", type=float, default=0.7)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cache", type=Path, help="keep the simulated databases here (and reuse them)")
    parser.add_argument("--speed-games", type=int, default=100_000)
    parser.add_argument("--choose", action="store_true", help="print the choice of beta and tau")
    parser.add_argument("--batch", action="store_true",
                        help="also a Plackett-Luce model fitted to the training places at once (slow)")
    args = parser.parse_args()

    started = time.perf_counter()
    histories: dict[str, list[list[RatedGame]]] = {}
    totals: dict[str, list[dict[str, dict[str, int]]]] = {}
    for kind in args.kinds:
        for seed in range(1, args.histories + 1):
            games, total = _history(club_database(kind, args.games, seed, args.jobs, args.cache))
            histories.setdefault(kind, []).append(games)
            totals.setdefault(kind, []).append(total)
    print(f"{args.histories} histories of each kind ({', '.join(args.kinds)}), {args.games} games each "
          f"(raspisnoy, tables of 3-5, 2025-01-01..2026-12-31, seeds 1..{args.histories}); made, loaded "
          f"or read from the cache in {time.perf_counter() - started:.0f} s")
    print("planted skill: " + ", ".join(f"{n} {s}" for n, s in SKILLS.items()))
    if args.choose:
        choose(histories, args.split)
        return
    print(f"rating: beta {BETA:.2f}, tau {TAU:.4f} (openskill defaults: beta {OPENSKILL_DEFAULTS[0]:.2f}, "
          f"tau {OPENSKILL_DEFAULTS[1]:.4f}); held-out: trained on the first {args.split:.0%} of each "
          f"history, tested on the rest")
    print()
    for kind in args.kinds:
        runs = [held_out(g, t, args.split, args.batch)
                for g, t in zip(histories[kind], totals[kind], strict=True)]
        tested = sum(len(r[PREDICTORS[0]]) for r in runs)
        print(f"history {kind}: {KINDS[kind]} ({len(runs)} histories, {tested} test games)")
        report_kind(kind, runs)
        print()
    if "A" in histories:
        rhos = []
        names = sorted(SKILLS)
        for games in histories["A"]:
            final = {s.player: s.ordinal for s in rate_games(games)}
            rhos.append(spearman([SKILLS[n] for n in names], [final[n] for n in names]))
        print(f"skill recovery, histories A, all {args.games} games each: Spearman(planted skill, final "
              f"ordinal) = {', '.join(f'{r:.3f}' for r in rhos)} (mean {statistics.fmean(rhos):.3f}, "
              f"lowest {min(rhos):.3f}; goal >= 0.9)")
    took, rate = speed(args.speed_games)
    print(f"speed: rated {args.speed_games:,} games (tables of 3-6, 200 players) in {took:.1f} s of CPU "
          f"= {rate:,.0f} games/s (one core; machine: nproc {os.cpu_count()}, "
          f"{datetime.date.today().isoformat()})")


if __name__ == "__main__":
    main()
