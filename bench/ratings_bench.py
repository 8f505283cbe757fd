"""Does the rating do what a rating is for? And how fast is it?

1. Club histories are simulated where skill truly differs (``raspis simulate
   --skill``: a bot misjudges a bid, and plays a card carelessly, with
   probability 1 - skill), two years of dates, loaded with ``raspis load``
   and rated as ``raspis stats --report ratings`` rates them
   (:func:`raspis_cli.store.ratings.rate_games`, the same gamma, beta and tau).
   Four kinds, several independent histories of each (seeds 1..H):

   A. 8 players of skill 0.95, 0.90 ... 0.60, fixed; every table of 3, 4 or 5
      seated at random from the 8;
   B. as A, but Анна declines 0.95 -> 0.60 and Тимур learns 0.60 -> 0.95;
   C. skills fixed, but the club meets in two circles: half the games seat the
      five strongest players, half the five weakest, Дмитрий and Ольга play in
      both (tables mix strong and weak players unevenly);
   D. a club's evenings: a small table (mostly 3 players), a big one (mostly
      5) and open evenings (3-5 from everyone), the 8 of A shared between the
      small and the big table alternately in skill order (the two in the
      middle at both), and two newcomers joining on 2025-12-01 (fewer games).
      Totals and a seat's chance of winning differ by table size, so the
      mean total and the win rate are biased by where a player sits.

2. Held-out prediction: ratings, win rates, mean totals (and the planted
   skills, an oracle) are taken from the first 70 % of the games (date
   order); on the last 30 % each predicts the winner and the whole finishing
   order. Every predictor gets the same Plackett–Luce form, weights
   ``exp(t x)``, with the temperature ``t`` fitted on the training games by
   maximum likelihood (of the winners for the winner, of the orders for the
   order: its best shot). Figures: winner log-loss and accuracy, finishing
   order log-loss (:func:`order_loss`; a tie is the sum over the orders it
   allows), pairs of players at a table put in the right order; and the paired
   per-game differences, averaged per history, with their standard error over
   the H histories.

3. Skill recovery: Spearman of the planted skill with the final ordinal over
   all games of each history A and D (goal >= 0.9 over 2,000 games for 8 players).

4. Speed: rating 100,000 games (synthetic standings, tables of 3-6 from 200
   players) through ``rate_games``, CPU time of this process.

``--choose`` instead prints how gamma, beta and tau were chosen: each
setting's training-period predictive log-loss of the order and of the winner
(every training game predicted from the ratings before it, with the model's
own scale), over the training parts only, and per kind of history.
``--beta B`` adds a rating with another beta to the held-out tables.

    python bench/ratings_bench.py --histories 24 --batch --cache /tmp/rb  # the README's figures
    python bench/ratings_bench.py --histories 2 --games 500         # a quick look
    python bench/ratings_bench.py --choose --histories 24 --cache /tmp/rb
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
from typing import NamedTuple

from raspis_cli.store.ratings import (
    BETA,
    START_MU,
    START_SIGMA,
    TAU,
    RatedGame,
    rate_games,
    rated_games,
    unit_gamma,
)

ROOT = Path(__file__).resolve().parent.parent

SKILLS = {"Анна": 0.95, "Boris": 0.9, "Вера": 0.85, "Дмитрий": 0.8,
          "Ольга": 0.75, "Пётр": 0.7, "Света": 0.65, "Тимур": 0.6}
CHANGING = {"Анна": "0.95..0.6", "Тимур": "0.6..0.95"}
"""History B: two players change over the two years (Анна declines, Тимур learns)."""
CIRCLES = (("Анна", "Boris", "Вера", "Дмитрий", "Ольга"), ("Дмитрий", "Ольга", "Пётр", "Света", "Тимур"))
"""History C: the two circles, half the games each; Дмитрий and Ольга play in both."""
NEWCOMERS = {"Юлия": 0.875, "Кирилл": 0.675}
"""History D: two players who join the club on :data:`JOINED` (skills inside the others' range)."""
D_SKILLS = SKILLS | NEWCOMERS
SMALL_TABLE = ("Анна", "Вера", "Дмитрий", "Ольга", "Света")
BIG_TABLE = ("Boris", "Дмитрий", "Ольга", "Пётр", "Тимур")
"""History D's two regular evenings: the 8 in skill order go alternately to the small table
(1st, 3rd, 5th, 7th) and the big one (2nd, 4th, 6th, 8th); the two in the middle of the order,
Дмитрий and Ольга, play at both (a big table of 5 needs five)."""
JOINED = datetime.date(2025, 12, 1)
FIRST, LAST = datetime.date(2025, 1, 1), datetime.date(2026, 12, 31)
D_RUNS = (  # (share of the games, table sizes, pool before JOINED, who joins on JOINED)
    (0.45, "3,3,3,4", SMALL_TABLE, ("Кирилл",)),
    (0.40, "5,5,5,4", BIG_TABLE, ("Юлия",)),
    (0.15, "3,4,5", tuple(SKILLS), tuple(NEWCOMERS)),
)
"""History D: a club's evenings. A small table (mostly 3 players), a big one (mostly 5) and
open evenings (3-5 from everyone who is a member by then); Кирилл joins the small table and
Юлия the big one on :data:`JOINED`, both come to open evenings after it."""
KINDS = {"A": "skills fixed, tables seated at random from the 8",
         "B": "Анна declines 0.95->0.6, Тимур learns 0.6->0.95, tables at random",
         "C": "skills fixed, two circles (the 5 strongest, the 5 weakest; Дмитрий, Ольга in both)",
         "D": "skills fixed; a small table (mostly 3), a big one (mostly 5), open evenings; "
              "two newcomers join on 2025-12-01"}
OPENSKILL_DEFAULTS = (START_SIGMA / 2, START_MU / 300)
"""openskill's own beta and tau for mu 25, sigma 25/3 (with its default gamma, sigma / c)."""
BEFORE = (2 * START_SIGMA, START_MU / 3000)
"""raspis's beta and tau before gamma 1 (with openskill's default gamma, sigma / c)."""


def _raspis(*args: str) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    subprocess.run([sys.executable, "-m", "raspis_cli", *args], check=True, env=env, cwd=ROOT)


def _simulate(out: Path, pool: Sequence[str], games: int, seed: int, jobs: int,
              skills: dict[str, str], sizes: str = "3,4,5",
              dates: tuple[datetime.date, datetime.date] = (FIRST, LAST)) -> None:
    skill = [arg for name in pool for arg in ("--skill", f"{name}={skills[name]}")]
    _raspis("simulate", "--players", "4", "--table-sizes", sizes, "--players-pool", ",".join(pool),
            "--date-range", f"{dates[0]}..{dates[1]}", "--games", str(games), "--seed", str(seed),
            "--detail", "scores", "-f", "jsonl", "-o", str(out), "-j", str(jobs), *skill)


def _club_runs(folder: Path, stem: str, games: int, seed: int, jobs: int) -> list[Path]:
    """History D's six simulated runs (each regular evening and the open ones, before and
    after the newcomers join); the games of each part in proportion to its days."""
    skills = {n: str(s) for n, s in D_SKILLS.items()}
    before = (JOINED - FIRST).days / ((LAST - FIRST).days + 1)
    files: list[Path] = []
    counts = [round(games * share) for share, *_ in D_RUNS]
    counts[-1] = games - sum(counts[:-1])
    for k, ((_, sizes, pool, joining), count) in enumerate(zip(D_RUNS, counts, strict=True)):
        first = round(count * before)
        for part, (n, people, dates) in enumerate((
                (first, pool, (FIRST, JOINED - datetime.timedelta(days=1))),
                (count - first, (*pool, *joining), (JOINED, LAST)))):
            files.append(folder / f"{stem}-{k}{part}.jsonl")
            _simulate(files[-1], people, n, seed + 2000 + 100 * k + 10 * part, jobs, skills, sizes, dates)
    return files


def club_database(kind: str, games: int, seed: int, jobs: int, cache: Path | None) -> Path:
    """A simulated history of ``kind`` loaded into a database (kept in
    ``cache`` when given, and taken from there the next time); its path."""
    folder = cache or Path(tempfile.mkdtemp(prefix="ratings_bench_"))
    folder.mkdir(parents=True, exist_ok=True)
    db = folder / f"{kind}{seed}-{games}.duckdb"
    if db.exists():
        return db
    skills = {n: str(s) for n, s in SKILLS.items()} | (CHANGING if kind == "B" else {})
    if kind == "D":
        files = _club_runs(folder, f"{kind}{seed}-{games}", games, seed, jobs)
    elif kind == "C":
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


def _fit_temperature(train: Sequence[Sequence[float]], places: Sequence[Sequence[int]]) -> float:
    """The t of p ∝ exp(t x) that gives the training winners the best log-loss
    (a grid of 61 steps, then a finer one around the best)."""
    scale = max((abs(v) for xs in train for v in xs), default=1.0) or 1.0
    tables = list(zip(train, places, strict=True))

    def loss(t: float) -> float:
        return sum(_winner_loss(_softmax(xs, t), p) for xs, p in tables)

    step = 1 / 6 / scale
    best = min((k * step for k in range(61)), key=loss)
    return min((max(0.0, best + k * step / 10) for k in range(-9, 10)), key=loss)


def _tied_orders(weights: Sequence[float], remaining: float) -> float:
    """The probability that a group of tied players take the next places in
    some order (any of them first, then any of the others ...), from a
    remaining total weight ``remaining``: the sum over the group's orders."""
    if len(weights) == 1:
        return weights[0] / remaining
    return sum(w / remaining * _tied_orders([*weights[:i], *weights[i + 1:]], remaining - w)
               for i, w in enumerate(weights))


def order_loss(strengths: Sequence[float], t: float, places: Sequence[int]) -> float:
    """-log of the Plackett–Luce probability of the observed finishing order,
    the players' weights exp(t x): the best of the table first, then the best
    of the rest ... Players who share a place (equal totals) are one event,
    "the group takes these places in some order": its probability is the sum
    over the group's orders: a tie is taken as a result that hides the order
    of the tied players, so its probability is that the true order is one of
    those it allows."""
    top = max(t * x for x in strengths)
    ws = [math.exp(t * x - top) for x in strengths]
    by_place: dict[int, list[float]] = {}
    for w, place in zip(ws, places, strict=True):
        by_place.setdefault(place, []).append(w)
    groups = [by_place[p] for p in sorted(by_place)]
    suffix = [0.0] * (len(groups) + 1)
    for k in range(len(groups) - 1, -1, -1):
        suffix[k] = suffix[k + 1] + sum(groups[k])
    log_p = 0.0
    for k, group in enumerate(groups[:-1]):  # the last group takes the last places surely
        log_p += math.log(max(_tied_orders(group, suffix[k]) if len(group) > 1 else group[0] / suffix[k],
                              1e-300))
    return -log_p


def _fit_order_temperature(train: Sequence[Sequence[float]], places: Sequence[Sequence[int]]) -> float:
    """The t of weights exp(t x) that gives the training games' finishing
    orders the greatest Plackett–Luce likelihood (a grid of 21 steps, then a
    golden-section search around the best)."""
    scale = max((abs(v) for xs in train for v in xs), default=1.0) or 1.0
    tables = list(zip(train, places, strict=True))

    def loss(t: float) -> float:
        return sum(order_loss(xs, t, p) for xs, p in tables)

    step = 1 / 2 / scale
    best = min((k * step for k in range(21)), key=loss)
    low, high = max(0.0, best - step), best + step
    ratio = (math.sqrt(5) - 1) / 2
    a, b = high - ratio * (high - low), low + ratio * (high - low)
    fa, fb = loss(a), loss(b)
    for _ in range(20):
        if fa < fb:
            high, b, fb = b, a, fa
            a = high - ratio * (high - low)
            fa = loss(a)
        else:
            low, a, fa = a, b, fb
            b = low + ratio * (high - low)
            fb = loss(b)
    return a if fa < fb else b


class Outcome(NamedTuple):
    """One test game for one predictor."""

    winner_loss: float
    hit: int
    """Whether the player given the best chance won (or shared the first place)."""
    pairs_right: float
    """Pairs with different places put in the right order (equal strengths: half)."""
    pairs: int
    order_loss: float


def _outcome(strengths: Sequence[float], t: float, t_order: float, places: Sequence[int]) -> Outcome:
    probs = _softmax(strengths, t)
    best = max(range(len(probs)), key=lambda i: probs[i])
    right = 0.0
    judged = 0
    for i in range(len(places)):
        for j in range(i + 1, len(places)):
            if places[i] == places[j]:
                continue
            judged += 1
            if strengths[i] == strengths[j]:
                right += 0.5
            else:
                right += float((strengths[i] > strengths[j]) == (places[i] < places[j]))
    return Outcome(_winner_loss(probs, places), int(places[best] == 1), right, judged,
                   order_loss(strengths, t_order, places))


ORACLE = "planted skill (oracle)"
PREVIOUS = "rating (raspis before: gamma sigma/c, beta 16.67, tau 0.0083)"
PREDICTORS = ("rating (raspis)", PREVIOUS, "rating (openskill defaults)", "win rate", "mean total",
              "total above the table's mean", ORACLE, "no skill (uniform)")
BATCH = "Plackett-Luce fitted at once (--batch)"
"""Not a rating: the same model fitted to all training places at once, a diagnosis."""
COMPARISONS = (
    ("rating (raspis)", "win rate"), ("rating (raspis)", "mean total"),
    ("rating (raspis)", "total above the table's mean"), ("rating (raspis)", ORACLE),
    (PREVIOUS, "win rate"), (PREVIOUS, "mean total"),
    ("rating (openskill defaults)", "win rate"), ("rating (openskill defaults)", "mean total"),
    (ORACLE, "win rate"), (ORACLE, "mean total"), (BATCH, "mean total"),
)
"""The paired differences reported (first minus second)."""


def beta_name(beta: float) -> str:
    """The name of a rating with another beta (``--beta``)."""
    return f"rating (beta {beta:.2f})"


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


def held_out(games: list[RatedGame], totals: dict[str, dict[str, int]], split: float,
             oracle: Sequence[dict[str, float]], batch: bool = False,
             betas: Sequence[float] = ()) -> dict[str, list[Outcome]]:
    """Per predictor, the outcome of every test game (the games after the split).
    ``oracle`` is each game's planted skills (a predictor that knows them);
    ``betas`` add ratings with other betas (:func:`beta_name`)."""
    cut = int(len(games) * split)
    train = games[:cut]
    wins: dict[str, float] = {}
    played: dict[str, int] = {}
    total_sum: dict[str, float] = {}
    above_sum: dict[str, float] = {}
    for g in train:
        table_mean = statistics.fmean(totals[g.game_id][p] for p in g.players)
        for p, place in zip(g.players, g.places, strict=True):
            played[p] = played.get(p, 0) + 1
            wins[p] = wins.get(p, 0) + (place == 1)
            total_sum[p] = total_sum.get(p, 0) + totals[g.game_id][p]
            above_sum[p] = above_sum.get(p, 0) + totals[g.game_id][p] - table_mean

    def rating(beta: float, tau: float, gamma: Callable[..., float] | None = unit_gamma) -> dict[str, float]:
        return {s.player: s.mu for s in rate_games(train, beta=beta, tau=tau, gamma=gamma)}

    values: dict[str, dict[str, float]] = {
        "rating (raspis)": rating(BETA, TAU),
        PREVIOUS: rating(*BEFORE, gamma=None),
        "rating (openskill defaults)": rating(*OPENSKILL_DEFAULTS, gamma=None),
        "win rate": {p: (wins[p] + 1) / (played[p] + 2) for p in played},
        "mean total": {p: total_sum[p] / played[p] for p in played},
        "total above the table's mean": {p: above_sum[p] / played[p] for p in played},
    }
    for beta in betas:
        values[beta_name(beta)] = rating(beta, TAU)
    if batch:
        values[BATCH] = plackett_luce_fit(train)
    strengths: dict[str, list[list[float]]] = {}
    for name, value in values.items():
        unknown = statistics.fmean(value.values())  # a player with no training game: the mean
        strengths[name] = [[value.get(p, unknown) for p in g.players] for g in games]
    strengths[ORACLE] = [[o[p] for p in g.players] for g, o in zip(games, oracle, strict=True)]
    strengths["no skill (uniform)"] = [[0.0] * len(g.players) for g in games]
    places = [g.places for g in games]
    result: dict[str, list[Outcome]] = {}
    for name in [n for n in (*PREDICTORS, *map(beta_name, betas), BATCH) if n in strengths]:
        xs = strengths[name]
        uniform = name == "no skill (uniform)"
        t = 0.0 if uniform else _fit_temperature(xs[:cut], places[:cut])
        t_order = 0.0 if uniform else _fit_order_temperature(xs[:cut], places[:cut])
        result[name] = [_outcome(x, t, t_order, p) for x, p in zip(xs[cut:], places[cut:], strict=True)]
    return result


def planted(kind: str, games: Sequence[RatedGame]) -> list[dict[str, float]]:
    """Each game's planted skills: fixed, or (history B) along the history,
    linear from the first game to the last as ``raspis simulate`` makes them
    (the rating order of a single run is its game order)."""
    fixed = dict(D_SKILLS if kind == "D" else SKILLS)
    if kind != "B":
        return [fixed] * len(games)
    changing = {n: tuple(map(float, v.split(".."))) for n, v in CHANGING.items()}
    last = max(len(games) - 1, 1)
    return [fixed | {n: a + (b - a) * k / last for n, (a, b) in changing.items()}
            for k in range(len(games))]


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
    """The tables of one kind of history over its H runs: each predictor's
    figures, then the paired differences."""
    h = len(runs)
    print("| predictor | winner log-loss | winner accuracy | order log-loss | pairs in order |")
    print("|---|---|---|---|---|")
    for name in runs[0]:
        loss = statistics.fmean(statistics.fmean(o.winner_loss for o in run[name]) for run in runs)
        acc = statistics.fmean(statistics.fmean(o.hit for o in run[name]) for run in runs)
        order = statistics.fmean(statistics.fmean(o.order_loss for o in run[name]) for run in runs)
        pairs = statistics.fmean(_pairs(run[name]) for run in runs)
        print(f"| {name} | {loss:.4f} | {acc:.1%} | {order:.4f} | {pairs:.1%} |")
    print()
    print("| difference (paired, per game) | winner log-loss | winner accuracy | order log-loss "
          "| pairs in order |")
    print("|---|---|---|---|---|")
    extra = [(n, base) for n in runs[0] if n.startswith("rating (beta")
             for base in ("win rate", "mean total")]
    for a, b in (*COMPARISONS, *extra):
        if a not in runs[0] or b not in runs[0]:
            continue

        def per_game(field: Callable[[Outcome], float], a: str = a, b: str = b) -> list[float]:
            return [statistics.fmean(field(x) - field(y) for x, y in zip(run[a], run[b], strict=True))
                    for run in runs]

        cells = [_pm(per_game(lambda o: o.winner_loss)),
                 _pm(per_game(lambda o: o.hit), 100, " pt"),
                 _pm(per_game(lambda o: o.order_loss)),
                 _pm([_pairs(run[a]) - _pairs(run[b]) for run in runs], 100, " pt")]
        print(f"| {a} − {b} | " + " | ".join(cells) + " |")
    print(f"({h} histories; ± is the standard error of the mean over them of each history's mean "
          f"per-game difference; a negative log-loss and a positive accuracy difference favour the first)")


def _pairs(outcomes: Sequence[Outcome]) -> float:
    return sum(o.pairs_right for o in outcomes) / max(1, sum(o.pairs for o in outcomes))


def _pm(xs: Sequence[float], factor: float = 1.0, unit: str = "") -> str:
    mean, se = _mean_se(xs)
    if factor == 1.0:
        return f"{mean:+.4f} ± {se:.4f}"
    return f"{mean * factor:+.1f} ± {se * factor:.1f}{unit}"


def describe(kind: str, histories: Sequence[Sequence[RatedGame]],
             totals: Sequence[dict[str, dict[str, int]]], split: float) -> None:
    """What the naive statistics see in a kind of history: the mean total and
    a seat's chance of winning at each table size, and the fewest and most
    training games a player has."""
    by_size: dict[int, list[float]] = {}
    won: dict[int, list[float]] = {}
    fewest, most = [], []
    tied = 0
    for games, total in zip(histories, totals, strict=True):
        tied += sum(len(set(g.places)) < len(g.places) for g in games)
        played: dict[str, int] = {}
        for k, g in enumerate(games):
            n = len(g.players)
            by_size.setdefault(n, []).extend(total[g.game_id][p] for p in g.players)
            won.setdefault(n, []).extend(float(place == 1) for place in g.places)
            if k < int(len(games) * split):
                for p in g.players:
                    played[p] = played.get(p, 0) + 1
        fewest.append(min(played.values()))
        most.append(max(played.values()))
    sizes = sorted(by_size)
    print("tables of " + ", ".join(f"{n}: {len(by_size[n]) // n} games, mean total "
                                   f"{statistics.fmean(by_size[n]):.1f}, win rate of a seat "
                                   f"{statistics.fmean(won[n]):.1%}" for n in sizes)
          + f"; training games per player: fewest {min(fewest)}-{max(fewest)}, "
            f"most {min(most)}-{max(most)}; games with a shared place "
            f"{tied / sum(map(len, histories)):.1%}")


GAMMAS: dict[str, Callable[..., float] | None] = {"1": unit_gamma, "sigma/c": None}
"""Weng & Lin's gamma: raspis's 1, and openskill's default sigma / c."""


def predictive_loss(train: Sequence[RatedGame], beta: float, tau: float,
                    gamma: Callable[..., float] | None = unit_gamma) -> tuple[float, float]:
    """Mean log-loss of each training game's winner(s), and of its whole
    finishing order (:func:`order_loss`), predicted from the ratings before
    the game, Plackett–Luce with the model's own scale
    ``c = sqrt(sum(sigma^2 + beta^2))``: what choosing beta and tau may look at."""
    steps: dict[str, list[tuple[float, float, int]]] = {}
    for s in rate_games(train, beta=beta, tau=tau, gamma=gamma):
        steps.setdefault(s.game_id, []).append((s.mu_before, s.sigma_before, s.place))
    winner = order = 0.0
    for seats in steps.values():
        c = math.sqrt(sum(sigma * sigma + beta * beta for _, sigma, _ in seats))
        mus, places = [mu for mu, _, _ in seats], [p for _, _, p in seats]
        winner += _winner_loss(_softmax(mus, 1 / c), places)
        order += order_loss(mus, 1 / c, places)
    return winner / len(steps), order / len(steps)


CHOICE_BETAS = (START_SIGMA, 1.5 * START_SIGMA, 2 * START_SIGMA, 3 * START_SIGMA, 4 * START_SIGMA)
CHOICE_TAUS = (0.0, START_MU / 3000, 0.03, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4)


def choose(histories: dict[str, list[list[RatedGame]]], split: float) -> None:
    """Print the training-period predictive log-loss of the finishing order
    (and of the winner) for each gamma, beta and tau, over every history's
    training part, and per kind of history for the chosen gamma and beta."""
    runs = {kind: [games[:int(len(games) * split)] for games in histories[kind]] for kind in histories}
    count = sum(map(len, runs.values()))
    print(f"training-period predictive log-loss of the finishing order (first {split:.0%} of each of "
          f"{count} histories, mean of their means; lower is better; in brackets the winner's); "
          f"rows gamma and beta, columns tau")
    print("| gamma | beta | " + " | ".join(f"tau {t:.4f}" for t in CHOICE_TAUS) + " |")
    print("|---|---|" + "---|" * len(CHOICE_TAUS))
    per_kind: dict[tuple[str, float, float], dict[str, float]] = {}
    for gamma_name, gamma in GAMMAS.items():
        for beta in CHOICE_BETAS:
            cells = []
            for tau in CHOICE_TAUS:
                losses = {kind: [predictive_loss(r, beta, tau, gamma) for r in kind_runs]
                          for kind, kind_runs in runs.items()}
                per_kind[gamma_name, beta, tau] = {k: statistics.fmean(o for _, o in v)
                                                   for k, v in losses.items()}
                every = [x for v in losses.values() for x in v]
                cells.append(f"{statistics.fmean(o for _, o in every):.5f} "
                             f"({statistics.fmean(w for w, _ in every):.5f})")
            print(f"| {gamma_name} | {beta:.2f} | " + " | ".join(cells) + " |", flush=True)
    best = min(per_kind, key=lambda key: statistics.fmean(per_kind[key].values()))
    print(f"best by the order, every history alike: gamma {best[0]}, beta {best[1]:.2f}, tau {best[2]:.4f}")
    # the chosen gamma and beta (not the module's BETA: a run made before the
    # constants follow the choice must still show the chosen setting's row)
    print(f"per kind of history, the order log-loss at the chosen gamma {best[0]} and beta {best[1]:.2f}, "
          f"by tau:")
    print("| kind | " + " | ".join(f"tau {t:.4f}" for t in CHOICE_TAUS) + " | best tau |")
    print("|---|" + "---|" * (len(CHOICE_TAUS) + 1))
    for kind in runs:
        row = {tau: per_kind[best[0], best[1], tau][kind] for tau in CHOICE_TAUS}
        print(f"| {kind} | " + " | ".join(f"{row[t]:.5f}" for t in CHOICE_TAUS)
              + f" | {min(row, key=row.__getitem__):.4f} |")
    print(f"raspis uses gamma 1, beta {BETA:.2f}, tau {TAU:.4f}; openskill's defaults are gamma sigma/c, "
          f"beta {OPENSKILL_DEFAULTS[0]:.2f}, tau {OPENSKILL_DEFAULTS[1]:.4f}")


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
    parser.add_argument("--kinds", default="ABCD")
    parser.add_argument("--split", type=float, default=0.7)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cache", type=Path, help="keep the simulated databases here (and reuse them)")
    parser.add_argument("--speed-games", type=int, default=100_000)
    parser.add_argument("--choose", action="store_true", help="print the choice of gamma, beta and tau")
    parser.add_argument("--batch", action="store_true",
                        help="also a Plackett-Luce model fitted to the training places at once (slow)")
    parser.add_argument("--beta", type=float, action="append", default=[],
                        help="also a rating with this beta (repeatable): a variant to compare")
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
    print("planted skill: " + ", ".join(f"{n} {s}" for n, s in SKILLS.items())
          + "; history D also the newcomers " + ", ".join(f"{n} {s}" for n, s in NEWCOMERS.items()))
    if args.choose:
        choose(histories, args.split)
        return
    print(f"rating: gamma 1, beta {BETA:.2f}, tau {TAU:.4f} (openskill defaults: gamma sigma/c, beta "
          f"{OPENSKILL_DEFAULTS[0]:.2f}, tau {OPENSKILL_DEFAULTS[1]:.4f}); held-out: trained on the first "
          f"{args.split:.0%} of each history, tested on the rest")
    print()
    for kind in args.kinds:
        runs = [held_out(g, t, args.split, planted(kind, g), args.batch, args.beta)
                for g, t in zip(histories[kind], totals[kind], strict=True)]
        tested = sum(len(r[PREDICTORS[0]]) for r in runs)
        print(f"history {kind}: {KINDS[kind]} ({len(runs)} histories, {tested} test games)")
        describe(kind, histories[kind], totals[kind], args.split)
        report_kind(kind, runs)
        print()
    for kind, skills in (("A", SKILLS), ("D", D_SKILLS)):
        if kind not in histories:
            continue
        rhos = []
        names = sorted(skills)
        mu_rhos = []
        for games in histories[kind]:
            final = {s.player: s for s in rate_games(games)}
            rhos.append(spearman([skills[n] for n in names], [final[n].ordinal for n in names]))
            mu_rhos.append(spearman([skills[n] for n in names], [final[n].mu for n in names]))
        print(f"skill recovery, histories {kind}, all {args.games} games each: Spearman(planted skill, "
              f"final ordinal) = {', '.join(f'{r:.3f}' for r in rhos)} (mean {statistics.fmean(rhos):.3f}, "
              f"lowest {min(rhos):.3f}; goal >= 0.9); with the final mu: lowest {min(mu_rhos):.3f}, "
              f"mean {statistics.fmean(mu_rhos):.3f}")
    took, rate = speed(args.speed_games)
    print(f"speed: rated {args.speed_games:,} games (tables of 3-6, 200 players) in {took:.1f} s of CPU "
          f"= {rate:,.0f} games/s (one core; machine: nproc {os.cpu_count()}, "
          f"{datetime.date.today().isoformat()})")


if __name__ == "__main__":
    main()
