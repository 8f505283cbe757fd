"""The final places of a game (docs/RULES.md §7, ``zero_total_rank``): one
function the engine's winners, the store's places and the ratings take."""

from __future__ import annotations

from collections.abc import Sequence
from typing import assert_never

from raspis_cli.rules.values import ZeroTotalRank

__all__ = ["final_places", "first_place_shared", "first_places"]


def final_places(totals: Sequence[int], rule: ZeroTotalRank) -> list[int]:
    """Each seat's final place, 1 the first; equal standing shares a place
    and the next is skipped (1, 1, 3).

    ``as-scored``: the higher total ranks higher. ``second`` (soufee/rasp-poker
    §8.1): a total of exactly 0 is second whatever the others' totals; first
    goes to the highest total that is not 0 (positive if there is one), the
    rest rank after the zeros by their totals. Nothing changes when every
    total is 0 or none is."""
    keys: list[tuple[int, int]]
    match rule:
        case "as-scored":
            keys = [(0, total) for total in totals]
        case "second":
            others = [total for total in totals if total != 0]
            if not others or len(others) == len(totals):
                keys = [(0, total) for total in totals]
            else:
                top = max(others)
                keys = [(2, 0) if total == top else (1, 0) if total == 0 else (0, total) for total in totals]
        case _:
            assert_never(rule)
    return [1 + sum(1 for other in keys if other > mine) for mine in keys]


def first_place_shared(totals: Sequence[int]) -> bool:
    """Whether two or more players have the most points: under
    ``control_deals`` another control deal is due (soufee/rasp-poker §8.5:
    the points decide, before any rule of places such as ``zero_total_rank``)."""
    return len(first_places(totals, "as-scored")) > 1


def first_places(totals: Sequence[int], rule: ZeroTotalRank) -> list[int]:
    """The seats in first place (co-winners share a tie)."""
    return [seat for seat, place in enumerate(final_places(totals, rule)) if place == 1]
