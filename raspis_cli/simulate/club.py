"""A club's history: who may come, table sizes, dates and each player's skill (:class:`ClubPlan`).
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Sequence
from dataclasses import dataclass

from raspis_cli.model.record import (  # the card tables are the record's: one of each
    CompactDeal,
    GameRecord,
)
from raspis_cli.rules import Rules
from raspis_cli.simulate.game import SITE, game_seed, play_game

__all__ = [
    "ClubPlan",
    "parse_date_range",
    "parse_skill",
]


def parse_skill(assignments: Sequence[str]) -> dict[str, tuple[float, float]]:
    """``NAME=0.8`` (a fixed skill) or ``NAME=0.6..0.9`` (a skill that changes
    from the first game of a club history to its last) items as a map of
    ``(first, last)``; raises :class:`ValueError` for a bad one."""
    out: dict[str, tuple[float, float]] = {}
    for item in assignments:
        name, eq, value = item.rpartition("=")
        first, dots, last = value.partition("..")
        try:
            numbers = (float(first), float(last if dots else first))
        except ValueError:
            numbers = (-1.0, -1.0)
        if not eq or not name or not all(0.0 <= n <= 1.0 for n in numbers):
            raise ValueError("expected NAME=SKILL or NAME=FROM..TO with skills from 0 to 1 "
                             f"(e.g. Анна=0.8, Boris=0.6..0.9), got {item!r}")
        out[name] = numbers
    return out


@dataclass(frozen=True, slots=True)
class ClubPlan:
    """How a club history looks: who may come, table sizes, when, how well each plays.

    Game ``i`` of ``total`` seats a table size drawn from ``table_sizes`` and
    that many names drawn from ``pool`` (the rest are absent that evening),
    dated ``first + i * days / total`` so the history runs forward in time."""

    pool: tuple[str, ...]
    table_sizes: tuple[int, ...]
    first: datetime.date
    last: datetime.date
    total: int
    skill: tuple[tuple[str, tuple[float, float]], ...] = ()
    """Per name, the skill at the first game and at the last (linear between)."""

    def check(self, rules: Rules) -> None:
        """Raise :class:`ValueError` when the plan cannot be played under ``rules``."""
        low, high = rules.players
        if len(set(self.pool)) != len(self.pool):
            raise ValueError("the players pool names someone twice")
        for size in self.table_sizes:
            if not low <= size <= high:
                raise ValueError(f"the rules ({rules.preset_name}) allow {low} to {high} players, "
                                 f"not {size}")
            if size > len(self.pool):
                raise ValueError(f"a table of {size} needs at least {size} names in the pool, "
                                 f"not {len(self.pool)}")
        if self.last < self.first:
            raise ValueError(f"the date range ends ({self.last}) before it starts ({self.first})")

    def game(self, rules: Rules, seed: int, index: int, detail: str, bot: str | None = None,
             bot_samples: int | None = None) -> GameRecord:
        """Game ``index`` of the history (every seat played by ``bot``, default heuristic)."""
        head, deals = self.game_parts(rules, seed, index, detail, bot, bot_samples)
        head.deals = [deal.to_record(head.players) for deal in deals]
        return head

    def game_parts(self, rules: Rules, seed: int, index: int, detail: str, bot: str | None = None,
                   bot_samples: int | None = None) -> tuple[GameRecord, list[CompactDeal]]:
        """:meth:`game` as its record without deals and its deals as integers."""
        rng = random.Random(game_seed(seed, index))
        size = rng.choice(self.table_sizes)
        names = rng.sample(self.pool, size)
        days = (self.last - self.first).days
        day = self.first + datetime.timedelta(days=index * days // max(self.total - 1, 1)
                                              if self.total > 1 else 0)
        tags = {"Event": f"Club game {index + 1}", "Site": SITE, "Date": day.isoformat()}
        along = index / (self.total - 1) if self.total > 1 else 0.0
        skill = {name: a + (b - a) * along for name, (a, b) in self.skill}
        return play_game(rules, size, rng, names, detail, tags, [bot] * size if bot else None,
                          bot_samples, skill)


def parse_date_range(text: str) -> tuple[datetime.date, datetime.date]:
    """``2024-01-01..2025-12-31`` as two dates; raises :class:`ValueError`."""
    first, sep, last = text.partition("..")
    try:
        if not sep:
            raise ValueError
        return datetime.date.fromisoformat(first.strip()), datetime.date.fromisoformat(last.strip())
    except ValueError:
        raise ValueError(f"expected FROM..TO dates like 2024-01-01..2025-12-31, got {text!r}") from None
