"""Settling up after a game played for money: who pays whom, in as few payments as can be.

The convention (the README says it too): each player's balance is the
difference between their total and the table's mean total, times the stake
per point. Balances add up to zero; a player above the mean receives, one
below pays. Amounts are in hundredths (kopecks, cents), rounded so that they
still add up to zero.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction

__all__ = ["Payment", "balances", "settle"]

Payment = tuple[str, str, Decimal]
"""(payer, payee, amount)."""

CENT = Decimal("0.01")


def balances(totals: Mapping[str, int], stake: Decimal) -> dict[str, Decimal]:
    """Each player's balance, (total − mean) × stake, in hundredths, adding up
    to exactly zero (the largest remainders take the odd hundredths)."""
    if not totals:
        return {}
    names = list(totals)
    mean = Fraction(sum(totals.values()), len(names))
    exact = {n: (Fraction(totals[n]) - mean) * Fraction(stake) * 100 for n in names}
    floors = {n: exact[n].numerator // exact[n].denominator for n in names}
    short = -sum(floors.values())  # hundredths still to hand out (0 ≤ short < players)
    by_remainder = sorted(names, key=lambda n: (-(exact[n] - floors[n]), names.index(n)))
    for n in by_remainder[:short]:
        floors[n] += 1
    return {n: (Decimal(floors[n]) * CENT).quantize(CENT, ROUND_HALF_EVEN) for n in names}


def settle(totals: Mapping[str, int], stake: Decimal) -> list[Payment]:
    """The payments that settle the balances, as few as possible.

    The fewest payments are the number of players with a balance minus the
    largest number of groups into which they split with each group adding up
    to zero (a group of k settles in k − 1 payments). Found exactly over all
    subsets (a table has at most a dozen players)."""
    owed = {n: int(v / CENT) for n, v in balances(totals, stake).items() if v != 0}
    names = list(owed)
    count = len(names)
    if count == 0:
        return []
    if count > 16:  # pragma: no cover - no table is this large; greedy then
        return _pay_within(names, owed)
    full = (1 << count) - 1
    sums = [0] * (1 << count)
    for mask in range(1, 1 << count):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + owed[names[low.bit_length() - 1]]
    # best[mask]: the most zero-sum groups the players of mask split into
    best = [-1] * (1 << count)
    choice = [0] * (1 << count)
    best[0] = 0
    for mask in range(1, 1 << count):
        if sums[mask] != 0:
            continue
        low = mask & -mask
        # a zero-sum group holding the lowest player, and the best split of the rest
        sub = mask
        while sub:
            if sub & low and sums[sub] == 0 and best[mask ^ sub] >= 0 and \
                    best[mask ^ sub] + 1 > best[mask]:
                best[mask] = best[mask ^ sub] + 1
                choice[mask] = sub
            sub = (sub - 1) & mask
    payments: list[Payment] = []
    mask = full
    while mask:
        group = choice[mask]
        payments += _pay_within([names[i] for i in range(count) if group >> i & 1], owed)
        mask ^= group
    return payments


def _pay_within(group: list[str], owed: Mapping[str, int]) -> list[Payment]:
    """Settle a zero-sum group in len(group) − 1 payments: the biggest debtor
    pays the biggest creditor, and so on."""
    left = {n: owed[n] for n in group}
    out: list[Payment] = []
    while True:
        payers = sorted((n for n in left if left[n] < 0), key=lambda n: (left[n], group.index(n)))
        payees = sorted((n for n in left if left[n] > 0), key=lambda n: (-left[n], group.index(n)))
        if not payers or not payees:
            return out
        payer, payee = payers[0], payees[0]
        amount = min(-left[payer], left[payee])
        out.append((payer, payee, (Decimal(amount) * CENT).quantize(CENT)))
        left[payer] += amount
        left[payee] -= amount
