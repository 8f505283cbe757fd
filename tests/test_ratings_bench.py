"""The finishing-order measure of ``bench/ratings_bench.py``: a Plackett–Luce
probability of the whole order (ties as the sum over their orders) and the
temperature fitted to training orders (nothing here is timed)."""

from __future__ import annotations

import importlib.util
import itertools
import math
import random
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ratings_bench", ROOT / "bench" / "ratings_bench.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("ratings_bench", module)
    spec.loader.exec_module(module)
    return module


rb = _bench()


def _places(order: tuple[int, ...]) -> list[int]:
    """Places of players 0..n-1 when they finish in ``order`` (best first)."""
    return [order.index(i) + 1 for i in range(len(order))]


def test_order_probabilities_of_every_strict_order_sum_to_one() -> None:
    xs = [0.3, 1.2, -0.5, 2.0]
    total = sum(math.exp(-rb.order_loss(xs, 1.3, _places(o))) for o in itertools.permutations(range(4)))
    assert math.isclose(total, 1.0, rel_tol=1e-12)


def test_order_probability_is_plackett_luce() -> None:
    # players 0, 1, 2 of strengths 0, 1, 2 finish 2, 1, 0: e^2/(1+e+e^2) * e/(1+e)
    expected = math.exp(2) / (1 + math.e + math.exp(2)) * math.e / (1 + math.e)
    assert math.isclose(rb.order_loss([0.0, 1.0, 2.0], 1.0, [3, 2, 1]), -math.log(expected))


def test_a_tie_is_the_sum_of_the_orders_it_allows() -> None:
    xs, t = [0.4, -0.2, 1.1, 0.0], 0.9
    both = [math.exp(-rb.order_loss(xs, t, p)) for p in ([2, 3, 1, 4], [3, 2, 1, 4])]
    assert math.isclose(math.exp(-rb.order_loss(xs, t, [2, 2, 1, 4])), sum(both), rel_tol=1e-12)
    # no skill: every one of the 4! orders alike; a tie of two allows two of them
    assert math.isclose(rb.order_loss([0.0] * 4, 0.0, [1, 2, 3, 4]), math.log(24))
    assert math.isclose(rb.order_loss([0.0] * 4, 0.0, [1, 1, 3, 4]), math.log(12))


def test_the_order_temperature_recovers_the_one_orders_were_drawn_with() -> None:
    rng = random.Random(5)
    strengths, places = [], []
    for _ in range(1500):
        xs = [rng.uniform(-1, 1) for _ in range(rng.choice((3, 4, 5)))]
        left, order = list(range(len(xs))), []
        while left:  # Plackett–Luce with weights exp(2 x)
            pick = rng.choices(left, weights=[math.exp(2 * xs[i]) for i in left])[0]
            order.append(pick)
            left.remove(pick)
        strengths.append(xs)
        places.append(_places(tuple(order)))
    assert 1.7 < rb._fit_order_temperature(strengths, places) < 2.3
