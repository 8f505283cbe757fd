"""Player ratings: a multiplayer skill rating from each game's final standings.

Every rated game is a free-for-all of 2–6 players; its final places (equal
totals share a place) update each player's rating through openskill's
Plackett–Luce model, game after game in date order. A rating is a mean
(``mu``, starting at 25) and an uncertainty (``sigma``, starting at 25/3);
the **ordinal** ``mu - 3 sigma`` is the conservative figure a table is sorted
by (a newcomer starts at 0 and climbs as the rating becomes sure). The model's
``gamma`` (:func:`unit_gamma`: how much a game makes a rating surer),
``beta`` (how noisy one game is) and ``tau`` (how fast a skill may drift) are
raspis's, not openskill's defaults: chosen together by the training-period
predictive log-loss of the finishing order on 96 simulated club histories
(``bench/ratings_bench.py --choose``; README, "Club statistics").

Games are rated per **pool**: by default the rules family
(``games.rules_preset``), since a raspisnoy game and a georgian game are
different contests; pool ``all`` rates every game together. Rating order is
``date`` (games without a date last), then file and position in the file.

openskill is imported inside the functions that use it (``raspis --help``
stays fast). Library code: no printing, no typer or rich.
"""

from __future__ import annotations

import contextlib
import datetime
import itertools
import math
import os
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final, NamedTuple, TypeVar

import duckdb

from raspis_cli.store.db import StoreError, insert_arrow

__all__ = [
    "BETA",
    "HISTORY_COLUMNS",
    "POOLS",
    "RATINGS_SQL",
    "RatedGame",
    "RatingStep",
    "TAU",
    "rated_games",
    "rating_report",
    "rate_games",
    "chart_players",
    "history_table",
    "iter_rated_games",
    "refresh_rating_tables",
    "summarise",
    "unit_gamma",
]

POOLS: Final = ("rules", "all")
"""``rules``: one rating per rules family (the default); ``all``: one pool."""

Key = TypeVar("Key")

START_MU: Final = 25.0
START_SIGMA: Final = 25.0 / 3.0
BETA: Final = 1.5 * START_SIGMA
"""How noisy one game is (the spread of a performance around the skill): three
times openskill's default (sigma / 2). One Raspisnoy game decides little: a
bid misjudged by one trick in the last deals turns the standings round."""
TAU: Final = START_MU / 250.0
"""The drift added to sigma before each game (how fast a skill may change):
0.1, openskill's default is mu / 300. With :func:`unit_gamma` a rating keeps
every game it has seen; the drift is what lets it follow a player who changes."""


@dataclass(frozen=True, slots=True)
class RatedGame:
    """One game as the rating sees it: who sat, and their final places."""

    game_id: str
    date: datetime.date | None
    pool: str
    players: tuple[str, ...]
    places: tuple[int, ...]


class RatingStep(NamedTuple):
    """One player's rating before and after one game (a ``rating_history`` row).

    A named tuple rather than a frozen dataclass: one is made per player per
    game, and a tuple is made faster (rating 100,000 games: 3.3 -> 2.5 s of
    CPU)."""

    pool: str
    seq: int
    game_id: str
    date: datetime.date | None
    player: str
    place: int
    mu_before: float
    sigma_before: float
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative rating after the game: ``mu - 3 sigma``."""
        return self.mu - 3.0 * self.sigma


def unit_gamma(*_: object) -> float:
    """Weng & Lin's ``gamma`` of 1: a game shrinks a player's variance by what
    it says about the player. openskill's default, ``sigma / c``, shrinks it
    less the surer the rating already is, so that a rating keeps moving: with
    it a regular's rating forgot the older games (bench/ratings_bench.py)."""
    return 1.0


def _model(beta: float, tau: float, gamma: Callable[..., float] | None) -> Any:
    from openskill.models import PlackettLuce

    if gamma is None:
        return PlackettLuce(mu=START_MU, sigma=START_SIGMA, beta=beta, tau=tau)
    return PlackettLuce(mu=START_MU, sigma=START_SIGMA, beta=beta, tau=tau, gamma=gamma)


def rate_games(games: Iterable[RatedGame], *, reference: bool = False, beta: float = BETA,
               tau: float = TAU, gamma: Callable[..., float] | None = unit_gamma) -> Iterator[RatingStep]:
    """Rate games in the order given; one step per player per game.

    A game with fewer than two players, or a name twice at one table, says
    nothing about who is better and is passed over. Each game goes through
    openskill's Plackett–Luce update (``gamma=None``: openskill's default
    gamma, ``sigma / c``); :func:`_update_in_place` runs the
    model's own computation without the copies ``rate`` makes of its inputs
    (three times faster, the same numbers: ``reference=True`` calls
    ``rate`` itself, and a test holds the two equal)."""
    model = _model(beta, tau, gamma)
    update = _update_by_rate if reference or not hasattr(model, "_compute") else _update_in_place
    current: dict[tuple[str, str], Any] = {}
    seqs: dict[str, int] = {}
    rating = model.rating
    for game in games:
        players = game.players
        if len(players) < 2 or len(set(players)) != len(players):
            continue
        pool = game.pool
        keys = [(pool, p) for p in players]
        ratings = []
        for key in keys:
            found = current.get(key)
            if found is None:
                found = current[key] = rating(mu=START_MU, sigma=START_SIGMA)
            ratings.append(found)
        before = [(r.mu, r.sigma) for r in ratings]
        after = update(model, ratings, list(game.places))
        seq = seqs.get(pool, 0) + 1
        seqs[pool] = seq
        for key, place, (mu0, sigma0), new in zip(keys, game.places, before, after, strict=True):
            current[key] = new
            yield RatingStep(pool, seq, game.game_id, game.date, key[1], place, mu0, sigma0,
                             new.mu, new.sigma)


def _update_by_rate(model: Any, ratings: list[Any], ranks: list[int]) -> list[Any]:
    """openskill's public ``rate``: new rating objects, the inputs untouched."""
    return [team[0] for team in model.rate([[r] for r in ratings], ranks=ranks)]


def _update_in_place(model: Any, ratings: list[Any], ranks: list[int]) -> list[Any]:
    """What ``rate`` does for one-player teams (add the dynamics ``tau`` to
    sigma, order the teams by rank, compute), on the rating objects
    themselves instead of deep copies of them."""
    tau_squared = model.tau * model.tau
    for r in ratings:
        r.sigma = math.sqrt(r.sigma * r.sigma + tau_squared)
    order = sorted(range(len(ratings)), key=ranks.__getitem__)
    model._compute(teams=[[ratings[i]] for i in order], ranks=[ranks[i] for i in order])
    if model.limit_sigma:  # pragma: no cover - raspis's model leaves it off
        raise ValueError("limit_sigma is not supported by the in-place update")
    return ratings


_ORDER_SQL = """
CREATE TEMP TABLE {table} AS
SELECT row_number() OVER (ORDER BY g.date NULLS LAST, g.source_file, g.game_index, g.game_id) AS seq,
       g.game_id, g.date, {pool} AS pool
FROM {games} g"""

_CHUNK_SQL = """
SELECT o.game_id, o.date, o.pool,
       list(s.player ORDER BY s.seat) AS players,
       list(s.place ORDER BY s.seat) AS places
FROM {table} o JOIN seats s USING (game_id)
WHERE o.seq BETWEEN $first AND $last AND s.place IS NOT NULL
GROUP BY o.seq, o.game_id, o.date, o.pool
ORDER BY o.seq"""

RATED_CHUNK: Final = 4096
"""Games fetched from DuckDB at a time while rating (a chunk is ~2 MB of
Arrow and Python objects; each chunk's query scans ``seats``, so 1,024 cost
20 % more CPU at 10,000 games)."""

_order_tables = itertools.count()


def rated_games(con: duckdb.DuckDBPyConnection, pool: str = "rules", games_sql: str = "games",
                params: dict[str, object] | None = None) -> list[RatedGame]:
    """The games to rate, in rating order. ``games_sql`` is a table name or a
    parenthesised SELECT over ``games`` (the scope of a report)."""
    return list(iter_rated_games(con, pool, games_sql, params))


def iter_rated_games(con: duckdb.DuckDBPyConnection, pool: str = "rules", games_sql: str = "games",
                     params: dict[str, object] | None = None,
                     chunk: int = RATED_CHUNK) -> Iterator[RatedGame]:
    """:func:`rated_games` one at a time. The rating order is numbered once
    in a temporary table (a sort, which DuckDB spills to disk when it must;
    every game is numbered, and one without a placed seat gives no row:
    filtering them there with a join on ``seats`` needed memory for every
    seat, and failed a load under its memory limit at 120,000 games);
    the games are then fetched ``chunk`` at a time, each chunk whole, so the
    connection is free for other statements between chunks (the load inserts
    the history while it rates) and memory holds one chunk, whatever the
    number of games (a single ordered, grouped query over every game needed
    ~100 MB of DuckDB's memory for 60,000 games and failed a load under its
    memory limit)."""
    if pool not in POOLS:
        raise ValueError(f"pool is one of {', '.join(POOLS)}, not {pool!r}")
    pool_sql = "g.rules_preset" if pool == "rules" else "'all'"
    table = f"raspis_rating_order_{os.getpid()}_{next(_order_tables)}"
    try:
        con.execute(_ORDER_SQL.format(table=table, pool=pool_sql, games=games_sql), params or None)
        count_row = con.execute(f"SELECT count(*) FROM {table}").fetchone()
        count = count_row[0] if count_row else 0
        for first in range(1, count + 1, chunk):
            result = con.execute(_CHUNK_SQL.format(table=table), {"first": first, "last": first + chunk - 1})
            # to_arrow_table in DuckDB 2 (which warns that it copies: a few bytes a game)
            fetch = getattr(result, "to_arrow_table", None) or getattr(result, "fetch_arrow_table")  # noqa: B009
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)
                batch = fetch()
            columns = [batch.column(i).to_pylist() for i in range(5)]
            for gid, date, p, players, places in zip(*columns, strict=True):
                yield RatedGame(gid, date, str(p), tuple(players), tuple(places))
    except duckdb.Error as e:
        raise StoreError(str(e).strip()) from None
    finally:
        with contextlib.suppress(duckdb.Error):
            con.execute(f"DROP TABLE IF EXISTS {table}")


def summarise(steps: Sequence[RatingStep], since: datetime.date | None = None,
              player: str | None = None) -> list[dict[str, Any]]:
    """The ratings table from a history: per pool and player, the rating after
    the last game, the games played in the period (on or after ``since``) and
    the change of the rating (mean) over that period; sorted by pool, then
    ordinal (best first). ``rank`` is the place in the pool. Players with no
    game in the period are left out; ``player`` keeps one player's rows."""
    last: dict[tuple[str, str], RatingStep] = {}
    first_in: dict[tuple[str, str], RatingStep] = {}
    count: dict[tuple[str, str], int] = {}
    for step in steps:
        key = (step.pool, step.player)
        in_period = since is None or (step.date is not None and step.date >= since)
        last[key] = step
        if in_period:
            first_in.setdefault(key, step)
            count[key] = count.get(key, 0) + 1
    rows: list[dict[str, Any]] = []
    for key in sorted(first_in, key=lambda k: (k[0], -last[k].ordinal, k[1])):
        end = last[key]
        rows.append({
            "pool": key[0],
            "rank": 0,
            "player": key[1],
            "rating": end.mu,
            "uncertainty": end.sigma,
            "ordinal": end.ordinal,
            "games": count[key],
            "change": end.mu - first_in[key].mu_before,
            "last_date": end.date.isoformat() if end.date else None,
        })
    pool, rank = None, 0
    for row in rows:
        rank = rank + 1 if row["pool"] == pool else 1
        pool = row["pool"]
        row["rank"] = rank
    return [r for r in rows if player is None or r["player"] == player]


def rating_report(con: duckdb.DuckDBPyConnection, games_sql: str, params: dict[str, object],
                  pool: str = "rules", since: datetime.date | None = None,
                  player: str | None = None) -> tuple[list[dict[str, Any]], list[RatingStep]]:
    """The ``ratings`` report over the games of ``games_sql`` (already cut at
    the end of the period), and the history it came from."""
    steps = list(rate_games(rated_games(con, pool, games_sql, params)))
    return summarise(steps, since, player), steps


CHART_TOP: Final = 8
"""Lines in a ratings chart."""
CHART_MIN_GAMES: Final = 10
"""Games a player needs to be drawn before players with fewer."""


def chart_players(ordinal: dict[Key, float], games: dict[Key, int], top: int = CHART_TOP) -> list[Key]:
    """Who a ratings chart draws: the ``top`` best final ordinals among the
    players with at least :data:`CHART_MIN_GAMES` games, then (when fewer
    have) the best of the others. A newcomer's ordinal starts at 0, above a
    regular whose rating is surely below the start; one game is no line."""
    regular = sorted((k for k in ordinal if games.get(k, 0) >= CHART_MIN_GAMES), key=lambda k: -ordinal[k])
    rest = sorted((k for k in ordinal if games.get(k, 0) < CHART_MIN_GAMES), key=lambda k: -ordinal[k])
    return (regular + rest)[:top]


HISTORY_COLUMNS: Final = ("pool", "seq", "game_id", "date", "player", "place",
                           "mu_before", "sigma_before", "mu", "sigma", "ordinal")


HISTORY_CHUNK: Final = 4096
"""Rating steps turned into one Arrow table (and inserted) at a time
(20,000 before: a step is ~300 bytes of Python objects)."""


def _history_chunks(steps: Iterable[RatingStep], size: int = HISTORY_CHUNK) -> Iterator[Any]:
    """``rating_history`` rows as ``pyarrow.Table`` s of up to ``size`` steps
    (at least one table, empty when there is no step)."""
    import pyarrow as pa

    types = {"pool": pa.string(), "seq": pa.int32(), "game_id": pa.string(), "date": pa.date32(),
             "player": pa.string(), "place": pa.int32(), "mu_before": pa.float64(),
             "sigma_before": pa.float64(), "mu": pa.float64(), "sigma": pa.float64(),
             "ordinal": pa.float64()}

    def table(chunk: list[RatingStep]) -> Any:
        # the steps transposed by zip (in C), not a getattr per step and column:
        # 0.54 -> ~0.1 s of CPU for 40,000 steps
        transposed = zip(*chunk, strict=True) if chunk else ((),) * len(RatingStep._fields)
        columns: dict[str, Sequence[Any]] = dict(zip(RatingStep._fields, transposed, strict=True))
        columns["ordinal"] = [step.ordinal for step in chunk]
        return pa.table({name: pa.array(columns[name], type=types[name]) for name in HISTORY_COLUMNS})

    chunk: list[RatingStep] = []
    made = False
    for step in steps:
        chunk.append(step)
        if len(chunk) >= size:
            yield table(chunk)
            made = True
            chunk = []
    if chunk or not made:
        yield table(chunk)


def history_table(con: duckdb.DuckDBPyConnection) -> Any:
    """``rating_history`` as a ``pyarrow.Table``: every stored game, rated per
    rules family (what :func:`refresh_rating_tables` stores)."""
    import pyarrow as pa

    return pa.concat_tables(list(_history_chunks(rate_games(iter_rated_games(con, "rules")))))


def refresh_rating_tables(con: duckdb.DuckDBPyConnection) -> int:
    """Recompute ``rating_history`` and ``ratings`` (pool = rules family,
    every stored game) inside the caller's transaction; returns the number of
    history rows. The history is inserted :data:`HISTORY_CHUNK` steps at a
    time as the games are rated: memory holds the games' Arrow result and
    one chunk, not the history."""
    con.execute("DELETE FROM rating_history")
    rows = 0
    for chunk in _history_chunks(rate_games(iter_rated_games(con, "rules"))):
        if chunk.num_rows:
            insert_arrow(con, "rating_history", chunk, HISTORY_COLUMNS)
        rows += chunk.num_rows
    con.execute("DELETE FROM ratings")
    con.execute(RATINGS_SQL.format(history="rating_history"))
    return rows


RATINGS_SQL: Final = """
INSERT INTO ratings
SELECT pool, player, arg_max(mu, seq) AS mu, arg_max(sigma, seq) AS sigma,
       arg_max(ordinal, seq) AS ordinal, CAST(count(*) AS INTEGER) AS games,
       min(date) AS first_date, max(date) AS last_date
FROM {history}
GROUP BY pool, player
ORDER BY pool, player"""
