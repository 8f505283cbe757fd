"""Simulated games: complete, legal game records played by simple bots.

Pure library code: no I/O, no printing. The engine is the oracle for what
is legal and how it scores. The heuristic bots play each deal as one loop on
integers (:meth:`Simulator.play_compact`) with the engine's rule tables
(:mod:`raspis_cli.engine.trick`), its joker plays
(:meth:`Deal.legal_joker_plays`), its :func:`trick_winner` for a trick with
a joker and its :func:`~raspis_cli.engine.scoring.bid_score`; the PIMC bots
(and ``Simulator.fast_play`` off) play through the engine itself
(:class:`~raspis_cli.engine.Game`, :class:`~raspis_cli.engine.Deal`: every
bid among :meth:`Deal.legal_bids`, every card among :meth:`Deal.legal_plays`,
each applied there). ``tests/test_sim_fast.py`` holds the two to the same
games, and ``tests/test_simulate.py`` replays simulated games of every preset
through the engine and the validator: they come out clean.

>>> from raspis_cli.rules import Rules
>>> game = simulate_game(Rules.preset("raspisnoy"), 4, seed=7)
>>> len(game.deals)
28

Randomness comes only from a :class:`random.Random` made from the seed, so
a seed always gives the same game. :func:`simulate_games` gives game
``i`` the seed :func:`game_seed` ``(seed, i)``, so any slice of a long run
can be made again (or made in parallel) on its own: :func:`simulated_texts`
renders a run as text in several processes, the same text for any number.
"""

from __future__ import annotations

import datetime
import multiprocessing
import operator
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from math import cos as _cos
from math import log as _log
from math import pi as _pi
from math import sin as _sin
from math import sqrt as _sqrt
from typing import Any, Final, TypeVar, cast

from raspis_cli.bots.pimc import BOTS, PimcBot
from raspis_cli.engine import Deal, Game, JokerDecl, Play, Violation, trick_winner
from raspis_cli.engine.deal import DONE, PLAY
from raspis_cli.engine.scoring import KINDS_WITHOUT_BIDS, bid_score
from raspis_cli.engine.trick import ORDER, Entry, follow_mask, led_suit, trick_trump, void_mask
from raspis_cli.model.cards import NO_SUIT, RANK_INDEX, SUIT_INDEX, Card, Suit
from raspis_cli.model.record import (  # the card tables are the record's: one of each
    _CARD_OF,
    _SUIT_RUNS,
    NO_TRUMP,
    CompactDeal,
    CompactTrickInts,
    DealRecord,
    GameRecord,
    TrumpValue,
)
from raspis_cli.rules import Rules
from raspis_cli.rules.schedule import ScheduledDeal, schedule_for

__all__ = [
    "DEFAULT_NAMES",
    "ClubPlan",
    "misjudged",
    "misplays",
    "parse_date_range",
    "parse_skill",
    "DETAILS",
    "TEXT_FORMATS",
    "EngineDisagreementError",
    "Simulator",
    "deal_plan",
    "default_names",
    "game_seed",
    "render_game",
    "rules_options_of",
    "simulate_game",
    "simulate_games",
    "simulated_texts",
]

DETAILS: Final = ("full", "scores", "sheet")
"""How much a simulated record keeps, as the notation's three levels:
``full`` (hands, trump, bids, tricks, taken, penalties, scores, totals),
``scores`` (bids, taken, penalties, scores, totals: no hands, trump or
tricks) and ``sheet`` (bids and taken only)."""

TEXT_FORMATS: Final = ("notation", "json", "jsonl")
"""What :func:`simulated_texts` renders a game as: the canonical notation, or
one line of docs/RECORD-JSON.md (for a JSON array or a JSONL file)."""

DEFAULT_NAMES: Final = (
    "Анна", "Boris", "Вера", "Dmitri", "Елена", "Frank", "Галина", "Helen", "Игорь", "Jack",
)
"""Player names used when none are given: the first ``players`` of these."""

_T = TypeVar("_T")

_EVENT: Final = "Simulated game"
_SITE: Final = "raspis simulate"
_FIRST_DATE: Final = datetime.date(2024, 1, 1).toordinal()
_DATE_SPAN: Final = 3 * 365

# how often a bot ignores its plan and plays (or bids) at random
_RANDOM_PLAY: Final = 0.07
_BID_NOISE: Final = 0.55
_TWOPI: Final = 2.0 * _pi
"""random.gauss's constant."""
_PLAIN_RANDOM: Final = random.Random
"""The generator whose draws the simulator writes out (not a subclass's)."""


class EngineDisagreementError(RuntimeError):
    """The engine reported a violation for an action it listed as legal, or
    listed no legal action at all (``violations`` empty).

    Either is an engine bug (or a set of options that leaves a player no
    move): ``violations`` are what it said, ``action`` what was done and
    ``where`` the deal (number, cards, kind, dealer seat).
    """

    def __init__(self, action: str, where: str, violations: Sequence[Violation]) -> None:
        self.action = action
        self.where = where
        self.violations = list(violations)
        if violations:
            said = "; ".join(f"{v.kind}: {v.message}" for v in violations)
            text = f"the engine rejected {action} in {where}, which it listed as legal: {said}"
        else:
            text = f"the engine lists no legal action for {action} in {where}"
        super().__init__(text)


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` (0-based) of a :func:`simulate_games` run."""
    return random.Random(f"raspis-simulate/{seed}/{index}").getrandbits(63)


def default_names(players: int) -> list[str]:
    """The default names for this many players."""
    names = list(DEFAULT_NAMES[:players])
    names += [f"Player {i + 1}" for i in range(len(names), players)]
    return names


def deal_plan(rules: Rules, players: int) -> tuple[ScheduledDeal, ...]:
    """The deals a simulated game plays: the schedule of the rules, its
    special tail included (each special ``players`` times); for
    ``schedule=free``, the ``raspisnoy`` sequence with the rules' specials
    and ``ladder_down``."""
    if rules.schedule == "free":
        return schedule_for(rules.with_options({"schedule": "raspisnoy"}), players).listing
    return schedule_for(rules, players).listing


_ONCE: dict[tuple[str, object], object] = {}
"""What :func:`_made_once` made, by what it is and what it is made from."""
_ONCE_MAX: Final = 256


def _made_once(key: tuple[str, object], make: Callable[[], _T]) -> _T:
    """``make()``, made once per ``key`` (the same rules' deal plan, a deck's
    tables): a run of games makes them once, not once a game."""
    try:
        return cast(_T, _ONCE[key])
    except KeyError:
        pass
    if len(_ONCE) >= _ONCE_MAX:
        _ONCE.clear()
    made = _ONCE[key] = make()
    return made


def _plan_of(rules: Rules, players: int) -> tuple[ScheduledDeal, ...]:
    """:func:`deal_plan`, made once per rules and player count."""
    return _made_once(("plan", (rules, players)), lambda: deal_plan(rules, players))


def rules_options_of(rules: Rules) -> dict[str, object]:
    """The options of ``rules`` that differ from its preset, as JSON values
    (what :attr:`GameRecord.rules_options` holds)."""
    return rules.overrides()


def simulate_game(
    rules: Rules,
    players: int,
    seed: int | random.Random,
    names: Sequence[str] | None = None,
    detail: str = "full",
    *,
    tags: dict[str, str] | None = None,
    bots: Sequence[str] | None = None,
    bot_samples: int | None = None,
    skill: Mapping[str, float] | None = None,
) -> GameRecord:
    """Play one complete legal game with bots and return its record.

    ``seed`` is an int or a :class:`random.Random` (which is advanced);
    ``names`` default to :func:`default_names`; ``detail`` is one of
    :data:`DETAILS`. ``bots`` names each seat's bot (``heuristic``, the
    default, or ``pimc``: :mod:`raspis_cli.bots.pimc` with ``bot_samples``).
    ``tags`` replace the default Event/Site/Date tags.
    ``skill`` maps names to the chance of judging a bid and a card right (see
    :func:`misjudged`; a name not there, or 1.0, is a bot at its best).
    Raises :class:`ValueError` for a player count outside the rules, bad
    names or an unknown detail, and :class:`EngineDisagreementError` when the
    engine rejects an action it listed as legal (an engine bug).
    """
    head, deals = _play_game(rules, players, seed, names, detail, tags, bots, bot_samples, skill)
    head.deals = [deal.to_record(head.players) for deal in deals]
    return head


def _play_game(rules: Rules, players: int, seed: int | random.Random, names: Sequence[str] | None,
               detail: str, tags: dict[str, str] | None, bots: Sequence[str] | None,
               bot_samples: int | None, skill: Mapping[str, float] | None,
               ) -> tuple[GameRecord, list[CompactDeal]]:
    """:func:`simulate_game`'s game as its record without deals (tags,
    rules, players, final totals) and its deals as integers."""
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    low, high = rules.players
    if not low <= players <= high:
        raise ValueError(f"the rules allow {low} to {high} players, not {players}")
    if detail not in DETAILS:
        raise ValueError(f"detail is one of {', '.join(DETAILS)}, not {detail!r}")
    seats = list(names) if names is not None else default_names(players)
    if len(seats) != players or len(set(seats)) != players:
        raise ValueError(f"expected {players} different names, got {seats!r}")
    if tags is None:
        day = datetime.date.fromordinal(_FIRST_DATE + rng.randrange(_DATE_SPAN))
        tags = {"Event": _EVENT, "Site": _SITE, "Date": day.isoformat()}
    sim = Simulator(rules, seats, rng, detail,
                     [skill.get(n, 1.0) for n in seats] if skill else None)
    if bots is not None:
        sim.use_bots(bots, bot_samples)
    dealer = rng.randrange(players)
    deals: list[CompactDeal] = []
    if sim.fast:
        play = sim.play_compact
        for planned in _plan_of(rules, players):
            deals.append(play(planned.number, planned.kind, planned.cards, dealer))
            dealer = (dealer + 1) % players
        final = sim.totals
    else:
        game = Game(rules, players, seats)
        for planned in _plan_of(rules, players):
            deals.append(sim.play_engine_deal(game, planned.number, planned.kind, planned.cards,
                                              dealer))
            dealer = (dealer + 1) % players
        final = game.totals
    totals = dict(zip(seats, final, strict=True)) if detail != "sheet" else None
    head = GameRecord(
        players=seats,
        deals=[],
        tags=dict(tags),
        rules_preset=rules.preset_name,
        rules_options={name: list(value) if isinstance(value, list) else value
                       for name, value in _made_once(("options", rules),
                                                     lambda: rules_options_of(rules)).items()},
        totals=totals,
    )
    return head, deals


def simulate_games(
    rules: Rules,
    players: int,
    count: int,
    seed: int,
    *,
    names: Sequence[str] | None = None,
    detail: str = "full",
    start: int = 0,
    bots: Sequence[str] | None = None,
    bot_samples: int | None = None,
    skill: Mapping[str, float] | None = None,
) -> Iterator[GameRecord]:
    """Games ``start`` … ``start + count - 1`` of the run with this seed.

    Game ``i`` is ``simulate_game(rules, players, game_seed(seed, i), ...)``
    with the Event tag ``"Simulated game i+1"``, so splitting a run into
    slices (``start``) gives the same games.
    """
    for index in range(start, start + count):
        game = simulate_game(rules, players, game_seed(seed, index), names, detail, bots=bots,
                             bot_samples=bot_samples, skill=skill)
        game.tags["Event"] = f"{_EVENT} {index + 1}"
        yield game


def render_game(game: GameRecord, fmt: str) -> str:
    """One game as text: the canonical notation (``notation``), or docs/RECORD-JSON.md
    on one line (``json``, ``jsonl``)."""
    if fmt == "notation":
        from raspis_cli.notation.writer import write_game

        return write_game(game)
    import json

    from raspis_cli.notation.jsoncodec import game_to_json

    return json.dumps(game_to_json(game), ensure_ascii=False)


_CHUNK_MAX: Final = 50
"""At most this many games per task of a run in several processes."""


_Task = tuple[Rules, int, int, int, int, str, str, tuple[str, ...] | None, int | None,
              "ClubPlan | None", tuple[tuple[str, float], ...]]


def _render_slice(task: _Task) -> list[str]:
    """A worker's task: games ``start`` … ``start + count - 1``, rendered."""
    rules, players, count, seed, start, detail, fmt, bots, bot_samples, club, skill = task
    return [_render(head, deals, fmt)
            for head, deals in _games(rules, players, count, seed, detail, start, bots,
                                      bot_samples, club, dict(skill))]


def _render(head: GameRecord, deals: list[CompactDeal], fmt: str) -> str:
    """:func:`render_game` of a game made as its head and deals as integers:
    the notation written from the integers, JSON from the records."""
    if fmt == "notation":
        from raspis_cli.notation.writer import write_compact_game

        return write_compact_game(head, deals)
    head.deals = [deal.to_record(head.players) for deal in deals]
    return render_game(head, fmt)


def _games(rules: Rules, players: int, count: int, seed: int, detail: str, start: int,
           bots: Sequence[str] | None, bot_samples: int | None, club: ClubPlan | None,
           skill: Mapping[str, float]) -> Iterator[tuple[GameRecord, list[CompactDeal]]]:
    """A slice of a run, each game as its head and its deals as integers
    (:func:`_play_game`): a club history's games, or those of one fixed
    table (:func:`simulate_games`)."""
    if club is not None:
        bot = bots[0] if bots else None
        for index in range(start, start + count):
            yield club.game_parts(rules, seed, index, detail, bot, bot_samples)
        return
    for index in range(start, start + count):
        head, deals = _play_game(rules, players, game_seed(seed, index), None, detail, None, bots,
                                 bot_samples, skill)
        head.tags["Event"] = f"{_EVENT} {index + 1}"
        yield head, deals


def simulated_texts(rules: Rules, players: int, count: int, seed: int, *, detail: str = "full",
                    fmt: str = "notation", jobs: int = 1, bots: Sequence[str] | None = None,
                    bot_samples: int | None = None, club: ClubPlan | None = None,
                    skill: Mapping[str, float] | None = None) -> Iterator[str]:
    """The games of :func:`simulate_games` ``(rules, players, count, seed)``
    rendered by :func:`render_game`, in game order, made in ``jobs`` processes.

    The processes make small slices of the run (``start``), so the texts are
    the same, in the same order, for any ``jobs``. ``club`` makes a club
    history instead (:class:`ClubPlan`); ``skill`` sets the bots' skill by name.
    """
    if fmt not in TEXT_FORMATS:
        raise ValueError(f"fmt is one of {', '.join(TEXT_FORMATS)}, not {fmt!r}")
    skill_items = tuple(sorted((skill or {}).items()))
    if jobs <= 1 or count <= 1:
        for head, deals in _games(rules, players, count, seed, detail, 0, bots, bot_samples, club,
                                  dict(skill_items)):
            yield _render(head, deals, fmt)
        return
    # small slices keep every process busy to the end; imap keeps their order
    chunk = max(1, min(_CHUNK_MAX, count // (jobs * 4)))
    plan = tuple(bots) if bots is not None else None
    tasks: list[_Task] = [(rules, players, min(chunk, count - start), seed, start, detail, fmt,
                           plan, bot_samples, club, skill_items)
             for start in range(0, count, chunk)]
    # spawn: a worker imports only this module (and the notation writer)
    with multiprocessing.get_context("spawn").Pool(min(jobs, len(tasks))) as pool:
        for texts in pool.imap(_render_slice, tasks):
            yield from texts


# --- skill and club histories ---------------------------------------------------
#
# Kept apart from the bots and the run machinery above: a bot of skill s judges
# its bid as well as it can with probability s, and otherwise misjudges it by one
# to two tricks; it plays each card as it means to with probability s, and
# otherwise plays any legal card; a club history draws each game's table from a pool of names and
# spreads the games over a date range, in order.


def misjudged(estimate: float, skill: float, rng: random.Random) -> float:
    """A bid estimate as a bot of ``skill`` (0..1) makes it: unchanged with
    probability ``skill``, else off by 1 to 2 tricks either way."""
    if rng.random() < skill:
        return estimate
    return estimate + rng.choice((-2.0, -1.5, -1.0, 1.0, 1.5, 2.0))


def misplays(skill: float, rng: random.Random) -> bool:
    """Whether a bot of ``skill`` (0..1) plays this card carelessly (any legal
    card) instead of as it means to: with probability ``1 - skill``."""
    return rng.random() >= skill


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
        tags = {"Event": f"Club game {index + 1}", "Site": _SITE, "Date": day.isoformat()}
        along = index / (self.total - 1) if self.total > 1 else 0.0
        skill = {name: a + (b - a) * along for name, (a, b) in self.skill}
        return _play_game(rules, size, rng, names, detail, tags, [bot] * size if bot else None,
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


# --- the bots ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Dealt:
    """The cards of one deal: hands per seat, the trump as recorded and as
    the engine takes it."""

    hands: list[list[Card]]
    trump_record: TrumpValue
    trump_card: Card | None


def _where(number: int, cards: int, kind: str, dealer: int) -> str:
    """A deal as :class:`EngineDisagreementError` names it."""
    return f"deal {number} ({cards} cards, {kind}, dealer seat {dealer})"


class Simulator:
    """Bots for one game: deals the cards, bids, plays, writes the record."""

    fast_play = True
    """Whether the heuristic bots play a whole deal as one loop on integers
    (:meth:`play_compact`) rather than card by card on the engine's objects
    (:meth:`play_engine_deal`, the engine listing and applying each play):
    the same games, faster. The tests turn it off to compare the two."""

    split_by_suit = True
    """Whether the bots find which natural cards would win a trick with a
    joker in it suit by suit (a suit's cards win from some rank up) rather
    than by asking :func:`trick_winner` of every card: the same choice, fewer
    questions. The tests turn it off on the card-by-card path."""

    def __init__(self, rules: Rules, names: Sequence[str], rng: random.Random, detail: str,
                 skill: Sequence[float] | None = None) -> None:
        self.rules = rules
        # per seat, the chance of judging a bid right (None: every bot judges as well as it can)
        self.skill = list(skill) if skill is not None and any(s < 1.0 for s in skill) else None
        self.names = list(names)
        self.players = len(names)
        self.rng = rng
        self.detail = detail
        deck = rules.deck_cards
        self.deck_cards = list(deck.cards)
        # the deck as card indices, its shuffle's draws, what each card adds to
        # a hand's strength: made once per deck
        self._deck_ints, self._shuffle_steps, self._card_values = _made_once(
            ("deck", (deck.size, deck.joker_mask)), lambda: _deck_tables(deck.cards, deck.joker_mask))
        self.joker_mask = deck.joker_mask
        self.avoid_joker_lead = rules.joker_lead_penalty < 0
        self.suit_masks = deck.suit_masks
        self.void = rules.void
        self.circular = rules.circular_trumps
        self.pimc: dict[int, PimcBot] = {}
        self.totals = [0] * self.players
        """The running totals of the deals :meth:`play_compact` played."""
        self.pass_streaks = [0] * self.players
        """Per seat, the deals with bids in a row passed, as :class:`Game`
        counts them, for :meth:`play_compact` (kept under ``third_pass``,
        the one rule that reads them)."""
        # bid_score by kind, bid and tricks taken, and the joker plays by what
        # decides them: shared by the games of a run
        self._scores, self._joker_plays = _made_once(("rules", rules), _run_tables)
        self._scratch: Deal | None = None

    def use_bots(self, bots: Sequence[str], samples: int | None) -> None:
        """Give the seats named ``pimc`` in ``bots`` a :class:`PimcBot`."""
        for seat, bot in enumerate(bots):
            if bot not in BOTS:
                raise ValueError(f"the bots are {', '.join(BOTS)}, not {bot!r}")
            if bot == "pimc":
                rng = random.Random(self.rng.getrandbits(64))
                self.pimc[seat] = (PimcBot(rng) if samples is None else PimcBot(rng, samples))

    @property
    def fast(self) -> bool:
        """Whether this game's deals are played by :meth:`play_compact`
        (:attr:`fast_play`, and no seat has a PIMC bot)."""
        return self.fast_play and not self.pimc

    # --- dealing ---------------------------------------------------------------

    def _shuffle(self, dealer: int, cards: int, kind: str) -> tuple[list[list[int]], int | None]:
        """Shuffle and deal one card at a time from the player left of the
        dealer: the hands per seat as card indices, and the trump card turned
        up or shown (``None``: no trump)."""
        rng = self.rng
        players = self.players
        deck = list(self._deck_ints)
        _shuffle(rng, deck, self._shuffle_steps)
        dealt = cards * players
        hands: list[list[int]] = [[]] * players
        for offset in range(players):
            hands[(dealer + 1 + offset) % players] = deck[offset:dealt:players]
        rules = self.rules
        card: int | None
        if kind == "no-trump" or self.circular:
            card = None
        elif dealt == rules.deck:
            mode = rules.full_deal_trump
            if mode == "dealer-shows":
                card = rng.choice(hands[dealer])
            elif mode == "last-card":
                card = deck[dealt - 1]
            elif mode == "random-card":
                card = rng.choice(deck)
            else:
                card = None
        else:
            card = deck[dealt]
        return hands, card

    def deal_cards(self, dealer: int, cards: int, kind: str) -> _Dealt:
        """Shuffle and deal one card at a time from the player left of the
        dealer; turn up or show the trump."""
        hands, card = self._shuffle(dealer, cards, kind)
        trump = None if card is None else _CARD_OF[card]
        return _Dealt([[_CARD_OF[c] for c in hand] for hand in hands],
                      NO_TRUMP if trump is None else trump, trump)

    # --- one deal through the engine ---------------------------------------------

    def play_deal(self, game: Game, number: int, kind: str, cards: int, dealer: int,
                  allow: Sequence[str] = ()) -> DealRecord:
        """Deal, bid and play one deal on ``game`` (:meth:`play_engine_deal`);
        finish it there and return its record at this simulator's detail."""
        return self.play_engine_deal(game, number, kind, cards, dealer, allow).to_record(self.names)

    def play_engine_deal(self, game: Game, number: int, kind: str, cards: int, dealer: int,
                         allow: Sequence[str] = ()) -> CompactDeal:
        """Deal, bid and play one deal on ``game``, the engine checking the
        deal as dealt, every bid and listing every legal play; finish it there
        and return it at this simulator's detail. ``allow`` are kinds of
        violation the deal's start may have (the fault injector's)."""
        dealt = self.deal_cards(dealer, cards, kind)
        where = _where(number, cards, kind, dealer)
        deal, problems = game.start_deal(number, kind, dealer, cards, dealt.trump_card, True,
                                         dealt.hands)
        problems = [v for v in problems if v.kind not in allow]
        if problems:
            raise EngineDisagreementError("the deal as dealt", where, problems)
        self._bid(deal, dealt, where)
        self._play_by_objects(deal, dealt, where)
        scores = deal.scores()
        game.finish_deal(deal, scores)
        masks = [sum(_BIT[c] for c in hand) for hand in dealt.hands]
        tricks: list[CompactTrickInts] = []
        for trick in deal.history:
            entries = trick.entries
            played = [c for _, c, _ in entries]
            joker = any(self.joker_mask >> c & 1 for c in played)
            tricks.append((trick.leader, played, [d for _, _, d in entries] if joker else None))
        card = dealt.trump_card
        return self._compact(number, kind, cards, dealer, list(deal.taken),
                             list(deal.bids) if deal.has_bids else None, scores, game.totals,
                             list(deal.penalty_notes), -1 if card is None else int(card), masks,
                             tricks)

    def _compact(self, number: int, kind: str, cards: int, dealer: int, taken: list[int],
                 bids: list[int | None] | None, scores: list[int], totals: list[int],
                 penalties: list[tuple[int, int, str]], trump: int, hands: list[int],
                 tricks: list[CompactTrickInts]) -> CompactDeal:
        """A played deal at this simulator's detail: ``sheet`` bids and taken,
        ``scores`` with penalties, scores and totals, ``full`` everything."""
        detail = self.detail
        if detail == "sheet":
            return CompactDeal(number, kind, cards, dealer, taken, bids)
        if detail == "scores":
            return CompactDeal(number, kind, cards, dealer, taken, bids, scores, list(totals),
                               penalties)
        return CompactDeal(number, kind, cards, dealer, taken, bids, scores, list(totals),
                           penalties, trump, hands, tricks)

    def _play_by_objects(self, deal: Deal, dealt: _Dealt, where: str) -> None:
        """Play the deal out card by card: each card chosen by
        :meth:`_choose_play` on the engine's state (the seats with a PIMC bot
        asking it first) and applied by the engine."""
        # the bots choose only among the engine's legal plays, so the play is
        # applied unchecked (Deal.apply_legal): checking it again would cost
        # as much as choosing it
        choose = self._choose_play
        apply = deal.apply_legal
        pimc = self.pimc
        while deal.phase != DONE:
            seat = deal.to_play
            assert seat is not None
            bot = pimc.get(seat) if pimc else None
            planned = bot.play(deal, seat, dealt.trump_card) if bot is not None else None
            choice = planned if planned is not None else choose(deal, seat, where)
            if isinstance(choice, Play):
                apply(seat, choice.card, choice.joker)
            else:
                apply(seat, choice)

    def _bid(self, deal: Deal, dealt: _Dealt, where: str) -> None:
        """The bids of a deal through the engine: each chosen among its
        :meth:`Deal.legal_bids` (or by a seat's PIMC bot) and made there."""
        while (seat := deal.next_bidder) is not None:
            legal = deal.legal_bids()
            bot = self.pimc.get(seat)
            chosen = bot.bid(deal, seat, dealt.trump_card) if bot is not None else None
            if chosen is not None:
                problems = deal.bid(seat, chosen)
                if problems:
                    raise EngineDisagreementError(f"{self.names[seat]} bidding {chosen}", where,
                                                  problems)
                continue
            if not legal:  # pragma: no cover - the engine always leaves a bid
                raise EngineDisagreementError(f"{self.names[seat]} bidding", where, [])
            bid = self._heuristic_bid(seat, legal, deal.kind, dealt.hands,
                                      [sum(_BIT[c] for c in hand) for hand in dealt.hands],
                                      NO_SUIT if deal.trump is None else int(deal.trump), deal.cards)
            problems = deal.bid(seat, bid)
            if problems:
                raise EngineDisagreementError(f"{self.names[seat]} bidding {bid}", where, problems)

    # --- one deal as integers ----------------------------------------------------

    def play_compact(self, number: int, kind: str, cards: int, dealer: int) -> CompactDeal:
        """Deal, bid and play one deal with the heuristic bots as one loop on
        integers, and return it at this simulator's detail; :attr:`totals`
        and :attr:`pass_streaks` go on from it.

        The same game as :meth:`play_engine_deal` (the same random numbers,
        bids and plays: ``tests/test_sim_fast.py``), without the engine's
        objects: the legal bids and follow masks are worked out here with the
        engine's rule tables (:mod:`raspis_cli.engine.trick`), a trick
        without a joker is won on bit masks, a joker's trick by the engine's
        :func:`trick_winner`, the joker plays are the engine's
        (:meth:`Deal.legal_joker_plays`) and the scores its
        :func:`~raspis_cli.engine.scoring.bid_score`. Nothing is checked
        again: the tests replay simulated games of every preset and option
        set through the engine and the validator, and they come out clean."""
        rng = self.rng
        n = self.players
        where = _where(number, cards, kind, dealer)
        lists, trump_card = self._shuffle(dealer, cards, kind)
        joker_mask = self.joker_mask
        circular = self.circular
        if trump_card is None or kind == "no-trump" or circular or joker_mask >> trump_card & 1:
            deal_trump = NO_SUIT
        else:
            deal_trump = SUIT_INDEX[trump_card]
        trump_suit = None if deal_trump == NO_SUIT else _SUITS[deal_trump]
        bit = _BIT.__getitem__
        masks = [sum(map(bit, hand)) for hand in lists]
        has_bids = kind not in KINDS_WITHOUT_BIDS
        random = rng.random
        getrandbits = rng.getrandbits
        # a plain random.Random's draws are written out (the same numbers)
        plain_rng = type(rng) is _PLAIN_RANDOM
        skill = self.skill
        suit_masks = self.suit_masks
        bids: list[int | None] = [None] * n
        streaks = self.pass_streaks
        if has_bids:
            total = 0
            # _heuristic_bid written out for an ordinary deal and a plain
            # random.Random (tests/test_sim_fast.py holds it to the method)
            written_out = kind != "dark" and kind != "forehead" and plain_rng
            state = cast(Any, rng)  # for the state random.gauss keeps
            values = self._card_values[deal_trump]
            side_ace = 0.85 if deal_trump == NO_SUIT else max(0.45, 0.85 - 0.04 * cards)
            every = range(cards + 1)
            third_pass = self.rules.third_pass
            for i in range(n):
                seat = (dealer + 1 + i) % n
                if seat != dealer and not (third_pass and streaks[seat] >= 2):
                    legal: Sequence[int] = every
                else:
                    legal = self._legal_bids(seat, dealer, cards, total, streaks[seat])
                    if not legal:  # pragma: no cover - the rules always leave a bid
                        raise EngineDisagreementError(f"{self.names[seat]} bidding", where, [])
                if not written_out:
                    made = self._heuristic_bid(seat, legal, kind, lists, masks, deal_trump, cards)
                else:
                    # _strength
                    mask = masks[seat]
                    lengths = ((mask & suit_masks[0]).bit_count(), (mask & suit_masks[1]).bit_count(),
                               (mask & suit_masks[2]).bit_count(), (mask & suit_masks[3]).bit_count())
                    value = 0.0
                    for held_card in lists[seat]:
                        entry = values[held_card]
                        if entry is not None:
                            suit, need, short, long = entry
                            if suit < 0:
                                value += side_ace
                            else:
                                value += long if lengths[suit] >= need else short
                    estimate = min(value, float(cards))
                    # rng.gauss(0, _BID_NOISE)
                    z = state.gauss_next
                    state.gauss_next = None
                    if z is None:
                        x2pi = random() * _TWOPI
                        g2rad = _sqrt(-2.0 * _log(1.0 - random()))
                        z = _cos(x2pi) * g2rad
                        state.gauss_next = _sin(x2pi) * g2rad
                    estimate += 0 + z * _BID_NOISE
                    if skill is not None:
                        estimate = misjudged(estimate, skill[seat], rng)
                    if random() < _RANDOM_PLAY / 2:
                        made = rng.choice(legal)
                    else:
                        made = min(max(round(estimate), 0), cards)
                        if legal is every or made in legal:  # the nearest: made itself
                            while getrandbits(1):  # rng.choice((made,))
                                pass
                        else:
                            distances = [abs(b - made) for b in legal]
                            nearest = min(distances)
                            made = rng.choice([b for b, d in zip(legal, distances, strict=True)
                                               if d == nearest])
                bids[seat] = made
                total += made

        # the play: the bots' bit-mask choice (as _choose_play makes it) while
        # neither the hand nor the trick holds a joker, _choose otherwise
        void = self.void
        must_trump = void == "must-trump"
        hands = list(masks)
        taken = [0] * n
        penalties = [0] * n
        notes: list[tuple[int, int, str]] = []
        tricks: list[CompactTrickInts] = []
        lead_penalty = self.rules.joker_lead_penalty
        last = n - 1
        # whether a seat wants the trick: never (miser), always (golden), or
        # while it has taken fewer than it bid
        fixed_want = False if kind == "miser" else True if kind == "golden" else None
        lead_strength = _STRENGTH[deal_trump]
        lead_trumps = suit_masks[deal_trump] if deal_trump != NO_SUIT else 0
        rules = self.rules
        choose = self._choose
        leader = dealer if rules.first_leader == "dealer" else (dealer + 1) % n
        card: int
        strongest, weakest, nth_bit = _strongest, _weakest, _nth_bit
        following = range(1, n)
        # per seat, whether it wants the next trick
        wants = ([fixed_want] * n if fixed_want is not None
                 else [b is not None and b > 0 for b in bids])
        random_play = _RANDOM_PLAY
        holder_play = self._holder_play
        trick: list[Entry]  # the trick as the engine has it, once a joker is in it
        for trick_number in range(1, cards + 1):
            played: list[int] = []
            decls: list[JokerDecl | None] | None = None  # once a joker is in the trick
            seat = leader
            hand = hands[seat]
            # the lead
            if hand & joker_mask:
                held = hand & joker_mask
                choice = holder_play(seat, hand ^ held, held, 0, trick_number, leader, played, wants[seat],
                                     0, 0, lead_trumps, NO_SUIT, NO_SUIT, trump_suit, where)
                if isinstance(choice, Play):
                    card = choice.card
                    decls = [choice.joker]
                    if lead_penalty and hand != 1 << card:
                        penalties[seat] += lead_penalty
                        notes.append((seat, lead_penalty, "joker-lead"))
                    trick = [(seat, card, choice.joker)]
                else:
                    card = choice
            elif not hand & (hand - 1):
                if not hand:
                    raise EngineDisagreementError(
                        f"{self.names[seat]} to play in trick {trick_number}", where, [])
                card = hand.bit_length() - 1
            elif random() < random_play or (skill is not None and misplays(skill[seat], rng)):
                card = nth_bit(hand, _random_below(rng, hand.bit_count()))
            elif wants[seat]:
                # _lead_masks without jokers: the strongest card, or (not wanting the
                # trick) the weakest give or take half a rank
                card = strongest(hand, lead_trumps)
            else:
                card = -1
                lowest = 0.0
                mask = hand
                while mask:
                    low = mask & -mask
                    c = low.bit_length() - 1
                    key = lead_strength[c] + random() * 0.5
                    if card < 0 or key < lowest:
                        card, lowest = c, key
                    mask ^= low
            hands[seat] = hand ^ (1 << card)
            played.append(card)
            best_at = 0
            if decls is None:
                led = SUIT_INDEX[card]
                trump = (led + 1) % 4 if circular else deal_trump
                led_mask = suit_masks[led]
                trumps = suit_masks[trump] if trump != NO_SUIT else 0
                trump_mask = trumps if must_trump else 0
                keys = ORDER[led][trump]
                best = keys[card]  # the best key in the trick so far (no joker in it), and its position
                # the cards that would beat it
                beats = (trumps & -(2 << card) if trumps >> card & 1
                         else led_mask & -(2 << card) | trumps)
            # the rest of the trick
            for position in following:
                seat += 1
                if seat == n:
                    seat = 0
                hand = hands[seat]
                if decls is not None:
                    # a joker in the trick: _choose on the trick as the engine has it
                    held = hand & joker_mask
                    if not held:
                        card = self._after_joker(seat, hand, trick, position, wants[seat], deal_trump,
                                                 trump_suit, trick_number, where)
                        decls.append(None)
                        trick.append((seat, card, None))
                        hands[seat] = hand ^ (1 << card)
                        played.append(card)
                        continue
                    choice = choose(seat, self._allowed(hand, trick, deal_trump),
                                    self._joker_choices_on(seat, held, trick, trick_number),
                                    trick, trump_suit, kind, bids, taken, trick_number, where)
                    if isinstance(choice, Play):
                        card = choice.card
                        decls.append(choice.joker)
                        trick.append((seat, card, choice.joker))
                    else:
                        card = choice
                        decls.append(None)
                        trick.append((seat, card, None))
                    hands[seat] = hand ^ (1 << card)
                    played.append(card)
                    continue
                if hand & joker_mask:
                    # a joker's holder, no joker in the trick yet
                    held = hand & joker_mask
                    natural = hand ^ held
                    allowed = natural & led_mask or natural & trump_mask or natural
                    choice = holder_play(seat, allowed, held, position, trick_number, leader, played,
                                         wants[seat], beats, trumps, lead_trumps, trump, led,
                                         trump_suit, where)
                    if isinstance(choice, Play):
                        card = choice.card
                        decls = [None] * position
                        decls.append(choice.joker)
                        trick = [((leader + k) % n, c, None) for k, c in enumerate(played)]
                        trick.append((seat, card, choice.joker))
                        hands[seat] = hand ^ (1 << card)
                        played.append(card)
                        continue
                    card = choice
                else:
                    # _choose made on bit masks: no joker in the hand or the trick
                    allowed = hand & led_mask or hand & trump_mask or hand
                    if not allowed & (allowed - 1):
                        if not allowed:
                            raise EngineDisagreementError(
                                f"{self.names[seat]} to play in trick {trick_number}", where, [])
                        card = allowed.bit_length() - 1
                    elif random() < random_play or (skill is not None and misplays(skill[seat], rng)):
                        card = nth_bit(allowed, _random_below(rng, allowed.bit_count()))
                    else:
                        # _split: the cards that beat the trick so far, and the rest
                        want = wants[seat]
                        winners = allowed & beats
                        if not allowed & ~led_mask:
                            # of the suit led only: by rank alone
                            if want:
                                if not winners:
                                    card = (allowed & -allowed).bit_length() - 1
                                elif position == last:
                                    card = (winners & -winners).bit_length() - 1
                                else:
                                    card = winners.bit_length() - 1
                            elif allowed ^ winners:
                                card = (allowed ^ winners).bit_length() - 1
                            else:
                                card = (allowed & -allowed).bit_length() - 1
                        elif want:
                            if not winners:
                                card = weakest(allowed, trumps)
                            elif position == last:
                                card = weakest(winners, trumps)
                            else:
                                card = strongest(winners, trumps)
                        elif allowed ^ winners:
                            card = strongest(allowed ^ winners, trumps)
                        else:
                            card = weakest(allowed, trumps)
                hands[seat] = hand ^ (1 << card)
                played.append(card)
                key = keys[card]
                if key > best:
                    best = key
                    best_at = position
                    beats = (trumps & -(2 << card) if trumps >> card & 1
                             else led_mask & -(2 << card) | trumps)
            if decls is None:
                winner = leader + best_at
                if winner >= n:
                    winner -= n
            else:
                winner = trick[trick_winner(trick, rules, joker_mask, trump_suit)][0]
            taken[winner] += 1
            if fixed_want is None:
                bid = bids[winner]
                wants[winner] = bid is not None and taken[winner] < bid
            tricks.append((leader, played, decls))
            leader = winner

        scored = self._scores
        scores = []
        for seat in range(n):
            bid = bids[seat]
            got = taken[seat]
            score = scored.get((kind, bid, got))
            if score is None:
                score = scored[(kind, bid, got)] = bid_score(rules, kind, bid, got)
            scores.append(score + penalties[seat])
        totals = self.totals
        for seat in range(n):
            totals[seat] += scores[seat]
        if has_bids and self.rules.third_pass:
            self.pass_streaks = [s + 1 if b == 0 else 0 for s, b in zip(streaks, bids, strict=True)]
        return self._compact(number, kind, cards, dealer, taken, bids if has_bids else None, scores,
                             totals, notes, -1 if trump_card is None else trump_card, masks, tricks)

    def _legal_bids(self, seat: int, dealer: int, cards: int, total: int, streak: int) -> Sequence[int]:
        """:meth:`Deal.legal_bids` of ``seat`` with ``total`` bid before it
        and ``streak`` deals passed in a row: only the dealer's bid is
        restricted (``dealer_restriction``), a pass only by ``third_pass``
        (unless the restriction leaves nothing else)."""
        rules = self.rules
        third = rules.third_pass and streak >= 2
        if seat != dealer and not third:
            return range(cards + 1)
        rule = rules.dealer_restriction if seat == dealer else "off"
        forbidden = (cards - total if rule == "sum" else cards if rule == "no-full-bid" else -1)
        out = [b for b in range(cards + 1) if b != forbidden]
        if third and 0 in out and any(b != forbidden for b in range(1, cards + 1)):
            out.remove(0)
        return out

    # --- bidding ---------------------------------------------------------------

    def _heuristic_bid(self, seat: int, legal: Sequence[int], kind: str, hands: Sequence[Sequence[int]],
                       masks: Sequence[int], trump: int, cards: int) -> int:
        """The heuristic bot's bid among ``legal``: the tricks its hand may
        take (or in a dark deal its share, in a forehead deal what the others'
        hands leave), with noise, misjudged by its skill, now and then any.
        ``hands`` per seat as dealt, ``masks`` the same as hand masks, ``trump``
        the deal's trump index."""
        rng = self.rng
        fair = cards / self.players
        if kind == "dark":
            estimate = fair + rng.gauss(0, 0.8)
        elif kind == "forehead":
            others = sum(self._strength(hands[s], masks[s], trump, cards)
                         for s in range(self.players) if s != seat)
            estimate = 0.5 * max(0.0, cards - others) + 0.5 * fair + rng.gauss(0, 0.6)
        else:
            estimate = self._strength(hands[seat], masks[seat], trump, cards)
            estimate += rng.gauss(0, _BID_NOISE)
        if self.skill is not None:
            estimate = misjudged(estimate, self.skill[seat], rng)
        if rng.random() < _RANDOM_PLAY / 2:
            return rng.choice(legal)
        target = min(max(round(estimate), 0), cards)
        if len(legal) == cards + 1:
            return _choice_of_one(rng, target)  # every bid is legal: the target is the nearest
        distances = [abs(b - target) for b in legal]
        best = min(distances)
        return rng.choice([b for b, d in zip(legal, distances, strict=True) if d == best])

    def _strength(self, hand: Sequence[int], mask: int, trump: int, cards: int) -> float:
        """Tricks a hand may take: high cards, trumps and the joker. ``hand``
        in the order dealt (the values are added in that order), ``mask``
        the same cards, ``trump`` the deal's trump index."""
        suit_masks = self.suit_masks
        lengths = ((mask & suit_masks[0]).bit_count(), (mask & suit_masks[1]).bit_count(),
                   (mask & suit_masks[2]).bit_count(), (mask & suit_masks[3]).bit_count())
        # with many cards per player side suits run out and get trumped
        side_ace = 0.85 if trump == NO_SUIT else max(0.45, 0.85 - 0.04 * cards)
        values = self._card_values[trump]
        value = 0.0
        for card in hand:
            entry = values[card]
            if entry is not None:
                suit, need, short, long = entry
                if suit < 0:
                    value += side_ace
                else:
                    value += long if lengths[suit] >= need else short
        return min(value, float(cards))

    # --- play --------------------------------------------------------------------

    def _holder_play(self, seat: int, allowed: int, held: int, position: int, trick_number: int,
                     leader: int, played: Sequence[int], want: bool, beats: int, trumps: int,
                     lead_trumps: int, trump: int, led: int, deal_trump: Suit | None,
                     where: str) -> int | Play:
        """:meth:`_choose` for a joker's holder while no joker is in the trick,
        on bit masks: ``allowed`` the natural cards it may play, ``held`` its
        jokers, ``played`` the trick so far from ``leader``, ``want`` whether
        it wants the trick, ``beats`` the cards that would beat the trick so
        far, ``trumps`` the trick's trump suit (a mask), ``lead_trumps`` the
        deal's, ``trump`` and ``led`` the trick's trump and suit led (indexes),
        ``deal_trump`` the deal's trump suit."""
        jokers: Sequence[Play] = (self._joker_plays.get((not position, trick_number > 1, held))
                                  or self._joker_choices(seat, held, position, trick_number,
                                                         leader, played))
        count = allowed.bit_count() + len(jokers)
        if count <= 1:
            if allowed:
                return allowed.bit_length() - 1
            if not jokers:
                raise EngineDisagreementError(f"{self.names[seat]} to play in trick {trick_number}",
                                              where, [])
            return jokers[0]
        rng = self.rng
        if rng.random() < _RANDOM_PLAY or (self.skill is not None and misplays(self.skill[seat], rng)):
            index = rng.randrange(count)  # as rng.choice(legal plays)
            naturals = count - len(jokers)
            return _nth_bit(allowed, index) if index < naturals else jokers[index - naturals]
        if not position:
            return self._lead_masks(allowed, jokers, want, deal_trump, lead_trumps)
        winners = allowed & beats
        if want and winners:
            return _weakest(winners, trumps) if position == self.players - 1 else _strongest(winners, trumps)
        losers = allowed ^ winners
        if not want and losers:
            return _strongest(losers, trumps)
        joker = self._pick_joker(jokers, want, False, None if trump == NO_SUIT else _SUITS[trump], led)
        if joker is not None:
            return joker
        return _weakest(allowed, trumps) if allowed else jokers[0]

    def _after_joker(self, seat: int, hand: int, trick: Sequence[Entry], position: int, want: bool,
                     deal_trump: int, trump_suit: Suit | None, trick_number: int, where: str) -> int:
        """:meth:`_choose` for a seat without a joker in a trick with one, on
        bit masks: ``hand`` its cards, ``want`` whether it wants the trick,
        ``deal_trump`` the deal's trump index (``trump_suit`` as a suit)."""
        allowed = self._allowed(hand, trick, deal_trump)
        if not allowed & (allowed - 1):
            if not allowed:
                raise EngineDisagreementError(f"{self.names[seat]} to play in trick {trick_number}",
                                              where, [])
            return allowed.bit_length() - 1
        rng = self.rng
        if rng.random() < _RANDOM_PLAY or (self.skill is not None and misplays(self.skill[seat], rng)):
            return _nth_bit(allowed, rng.randrange(allowed.bit_count()))
        if self.circular:
            led, _ = led_suit(trick, self.joker_mask)
            trump = NO_SUIT if led is None else (int(led) + 1) % 4
        else:
            trump = deal_trump
        trumps = self.suit_masks[trump] if trump != NO_SUIT else 0
        # _split: the cards that would win the trick, suit by suit (a suit's
        # cards win from some rank up), trick_winner deciding
        rules = self.rules
        joker_mask = self.joker_mask
        winners = 0
        for run in _SUIT_RUNS:
            group = allowed & run
            if not group:
                continue
            top = group.bit_length() - 1
            if trick_winner([*trick, (seat, top, None)], rules, joker_mask, trump_suit) != position:
                continue
            low = (group & -group).bit_length() - 1
            if low == top or trick_winner([*trick, (seat, low, None)], rules, joker_mask,
                                          trump_suit) == position:
                winners |= group
                continue
            cards = _bits(group)  # cards[0] loses, cards[-1] wins
            first, last = 0, len(cards) - 1
            while last - first > 1:
                middle = (first + last) // 2
                if trick_winner([*trick, (seat, cards[middle], None)], rules, joker_mask,
                                trump_suit) == position:
                    last = middle
                else:
                    first = middle
            winners |= group & -(1 << cards[last])
        if want:
            if not winners:
                return _weakest(allowed, trumps)
            if position == self.players - 1:
                return _weakest(winners, trumps)
            return _strongest(winners, trumps)
        losers = allowed ^ winners
        return _strongest(losers, trumps) if losers else _weakest(allowed, trumps)

    def _allowed(self, hand: int, trick: Sequence[Entry], deal_trump: int) -> int:
        """The natural cards of ``hand`` that may be played on ``trick``
        (:meth:`Deal.legal_naturals`: the suit led, a leading joker's demand,
        ``void``), ``deal_trump`` the deal's trump index."""
        joker_mask = self.joker_mask
        natural = hand & ~joker_mask
        if not trick:
            return natural
        led, decl = led_suit(trick, joker_mask)
        trump = (NO_SUIT if led is None else (int(led) + 1) % 4) if self.circular else deal_trump
        if decl is not None and decl.mode in ("high", "lowest") and decl.suit is not None:
            cards = natural & self.suit_masks[decl.suit]
            if cards:
                return 1 << (cards.bit_length() - 1) if decl.mode == "high" else cards & -cards
            return void_mask(natural, trump, self.void, self.suit_masks)[0]
        if led is None:
            return natural
        return follow_mask(natural, int(led), trump, self.void, self.suit_masks)[0]

    def _joker_choices(self, seat: int, jokers: int, position: int, trick_number: int, leader: int,
                       played: Sequence[int]) -> _JokerPlays:
        """The engine's legal joker plays of ``seat`` holding ``jokers`` in
        trick ``trick_number`` with no joker played in it yet (``played``
        from ``leader``: natural cards): :meth:`_joker_choices_on`, kept by
        what decides them (leading or not, past the first trick, the jokers)."""
        key = (not position, trick_number > 1, jokers)
        known = self._joker_plays.get(key)
        if known is None:
            n = self.players
            trick: list[Entry] = [((leader + k) % n, c, None) for k, c in enumerate(played)]
            known = self._joker_plays[key] = _JokerPlays(
                self._joker_choices_on(seat, jokers, trick, trick_number))
        return known

    def _joker_choices_on(self, seat: int, jokers: int, trick: list[Entry],
                          trick_number: int) -> list[Play]:
        """The engine's legal joker plays (:meth:`Deal.legal_joker_plays`) of
        ``seat`` holding ``jokers`` on ``trick``: asked of a deal put in that
        state."""
        scratch = self._scratch
        if scratch is None:
            scratch = self._scratch = Deal(self.rules, self.players, 0, 1)
        hands = [0] * self.players
        hands[seat] = jokers
        scratch.hands = hands
        scratch.phase = PLAY
        scratch.trick = list(trick)
        scratch.leader = (seat - len(trick)) % self.players
        scratch.trick_number = trick_number
        return scratch.legal_joker_plays()

    def _choose_play(self, deal: Deal, seat: int, where: str) -> int | Play:
        """A legal play on the engine's state: a natural card as its index, a
        joker as a :class:`Play` with its declaration (:meth:`_choose` among
        :meth:`Deal.legal_naturals` and :meth:`Deal.legal_joker_plays`)."""
        allowed = deal.legal_naturals()
        hands = deal.hands
        assert hands is not None
        jokers = deal.legal_joker_plays() if hands[seat] & self.joker_mask else []
        return self._choose(seat, allowed, jokers, deal.trick, deal.trump, deal.kind, deal.bids,
                            deal.taken, deal.trick_number, where)

    def _choose(self, seat: int, allowed: int, jokers: Sequence[Play], trick: Sequence[Entry],
                deal_trump: Suit | None, kind: str, bids: Sequence[int | None],
                taken: Sequence[int], trick_number: int, where: str) -> int | Play:
        """The heuristic bot's play among the natural cards ``allowed`` (a
        mask) and the joker plays ``jokers``, on ``trick`` so far: a natural
        card as its index, a joker as a :class:`Play`. The legal plays are
        counted as :meth:`Deal.legal_plays` lists them (natural cards first,
        lowest index first, then the joker plays)."""
        naturals = _bits(allowed)
        count = len(naturals) + len(jokers)
        if count == 1:
            return naturals[0] if naturals else jokers[0]
        rng = self.rng
        if not count:
            raise EngineDisagreementError(f"{self.names[seat]} to play in trick {trick_number}",
                                          where, [])
        if rng.random() < _RANDOM_PLAY or (self.skill is not None and misplays(self.skill[seat], rng)):
            index = rng.randrange(count)  # as rng.choice(legal plays)
            return naturals[index] if index < len(naturals) else jokers[index - len(naturals)]
        if kind == "miser":
            want = False
        elif kind == "golden":
            want = True
        else:
            bid = bids[seat]
            want = bid is not None and taken[seat] < bid
        trump = deal_trump
        if not trick:
            return self._lead_masks(allowed, jokers, want, trump,
                                    0 if trump is None else self.suit_masks[trump])
        led_as_suit, _ = led_suit(trick, self.joker_mask)
        led = None if led_as_suit is None else int(led_as_suit)
        if self.rules.circular_trumps:
            circular = trick_trump(NO_SUIT if led is None else led, NO_SUIT, True)
            trump = None if circular == NO_SUIT else _SUITS[circular]
        rank = _STRENGTH[4 if trump is None else trump].__getitem__
        winners, losers = self._split(trick, deal_trump, seat, led, trump, naturals)
        if want:
            if winners:
                last = len(trick) == self.players - 1
                if last:
                    return min(winners, key=rank)
                return max(winners, key=rank)
            joker = self._pick_joker(jokers, True, False, trump, led)
            if joker is not None:
                return joker
            return min(naturals, key=rank) if naturals else jokers[0]
        if losers:
            return max(losers, key=rank)
        joker = self._pick_joker(jokers, False, False, trump, led)
        if joker is not None:
            return joker
        return min(naturals, key=rank) if naturals else jokers[0]

    def _lead_masks(self, allowed: int, jokers: Sequence[Play], want: bool, trump: Suit | None,
                    trumps: int) -> int | Play:
        """The heuristic bot's lead among the natural cards ``allowed`` (a mask;
        ``trumps`` the trump suit's cards) and the joker plays ``jokers``:
        wanting the trick, the strongest card (or, unless it is a sure winner,
        a joker three times in four); not wanting it, the weakest card give or
        take half a rank, else a joker that loses."""
        rng = self.rng
        shy = self.avoid_joker_lead and allowed != 0
        if want:
            if allowed:
                best = _strongest(allowed, trumps)
                sure = RANK_INDEX[best] == 12 and (trump is None or SUIT_INDEX[best] == trump)
                if jokers and not sure and not (shy and rng.random() < 0.8):
                    joker = self._pick_joker(jokers, True, True, trump, None)
                    if joker is not None and rng.random() < 0.75:
                        return joker
                return best
            joker = self._pick_joker(jokers, True, True, trump, None)
            return joker if joker is not None else rng.choice(jokers)
        if allowed:
            strength = _STRENGTH[4 if trump is None else trump]
            random = rng.random
            card = -1
            lowest = 0.0
            while allowed:
                low = allowed & -allowed
                c = low.bit_length() - 1
                key = strength[c] + random() * 0.5
                if card < 0 or key < lowest:
                    card, lowest = c, key
                allowed ^= low
            return card
        joker = self._pick_joker(jokers, False, True, trump, None)
        return joker if joker is not None else rng.choice(jokers)

    def _split(self, trick: Sequence[Entry], deal_trump: Suit | None, seat: int, led: int | None,
               trump: Suit | None, naturals: Sequence[int]) -> tuple[list[int], list[int]]:
        """The natural cards that would now win the trick so far, and the rest."""
        joker_mask = self.joker_mask
        winners: list[int] = []
        losers: list[int] = []
        plain = led is not None
        best = 0  # the best key of the trick so far, when it has no joker
        if led is not None:
            keys = ORDER[led][NO_SUIT if trump is None else trump]
            for _, card, _ in trick:
                if joker_mask >> card & 1:
                    plain = False
                    break
                key = keys[card]
                if key > best:
                    best = key
        if not plain:
            rules = self.rules
            position = len(trick)

            def wins(card: int) -> bool:
                entries = [*trick, (seat, card, None)]
                return trick_winner(entries, rules, joker_mask, deal_trump) == position

            if not self.split_by_suit:
                for card in naturals:
                    (winners if wins(card) else losers).append(card)
                return winners, losers
            # the cards of one suit win from some rank up (what decides the
            # trick besides their rank is their suit), so a suit's highest card
            # losing, or its lowest winning, settles the suit
            start = 0
            while start < len(naturals):
                suit = SUIT_INDEX[naturals[start]]
                end = start + 1
                while end < len(naturals) and SUIT_INDEX[naturals[end]] == suit:
                    end += 1
                group = naturals[start:end]
                if not wins(group[-1]):
                    losers += group
                elif len(group) == 1 or wins(group[0]):
                    winners += group
                else:
                    low, high = 0, len(group) - 1  # group[low] loses, group[high] wins
                    while high - low > 1:
                        middle = (low + high) // 2
                        if wins(group[middle]):
                            high = middle
                        else:
                            low = middle
                    losers += group[:high]
                    winners += group[high:]
                start = end
            return winners, losers
        for card in naturals:
            (winners if keys[card] > best else losers).append(card)
        return winners, losers

    def _pick_joker(self, jokers: Sequence[Play], win: bool, leading: bool, trump: Suit | None,
                    led: int | None) -> Play | None:
        """The joker play that best wins (or best loses), ``None`` if none does."""
        if not jokers:
            return None
        rng = self.rng
        if win and not leading and self.rules.joker_take_beaten_by_trump and rng.random() < 0.5:
            # under joker_take_beaten_by_trump the suit a following `take` names
            # matters: name any (a non-trump one may be beaten), so that
            # simulated games exercise the rule
            takes = [p for p in jokers if p.joker is not None and p.joker.mode == "take"]
            if takes:
                return rng.choice(takes)
        if isinstance(jokers, _JokerPlays):
            # what each play means, worked out once for the plays, the lead, trump and suit led
            intents = jokers.intents.get((leading, trump, led))
            if intents is None:
                intents = jokers.intents[(leading, trump, led)] = [
                    _joker_intent(p.joker, leading, trump, led) for p in jokers.declared]
            random = rng.random
            scored = [(intent + random() * 0.01, p)
                      for intent, p in zip(intents, jokers.declared, strict=True)]
        else:
            scored = [(_joker_intent(p.joker, leading, trump, led) + rng.random() * 0.01, p)
                      for p in jokers if p.joker is not None]
        if win:
            value, play = max(scored, key=_first)
            return play if value > 0 else None
        value, play = min(scored, key=_first)
        return play if value < 0 else None


class _JokerPlays(tuple[Play, ...]):
    """A seat's legal joker plays in one situation (:meth:`Simulator._joker_choices`),
    with the plays that declare something and, per lead, trump and suit led, what
    each of those means to win or lose (:func:`_joker_intent`), worked out once."""

    declared: tuple[Play, ...]
    intents: dict[tuple[bool, Suit | None, int | None], list[float]]

    def __new__(cls, plays: Sequence[Play]) -> _JokerPlays:
        made = super().__new__(cls, plays)
        made.declared = tuple(p for p in plays if p.joker is not None)
        made.intents = {}
        return made


_first: Final = operator.itemgetter(0)


_BIT: Final = tuple(1 << i for i in range(54))
"""Each card index's bit in a hand mask."""

_SUITS: Final = tuple(Suit)
"""Suit members by index."""


def _run_tables() -> tuple[dict[tuple[str, int | None, int], int],
                           dict[tuple[bool, bool, int], _JokerPlays]]:
    """What the games of a run under one set of rules share, empty: the
    scores by kind, bid and tricks taken, and the joker plays by what decides
    them."""
    return {}, {}


def _deck_tables(cards: Sequence[Card], joker_mask: int) -> tuple[
        tuple[int, ...], tuple[tuple[int, int], ...], tuple[tuple[_CardValue, ...], ...]]:
    """A deck's cards as indices, its shuffle's steps (:func:`_shuffle_steps`)
    and per trump index what each card adds to a hand (:func:`_card_values`)."""
    return (tuple(int(c) for c in cards), _shuffle_steps(len(cards)),
            tuple(_card_values(joker_mask, trump) for trump in range(NO_SUIT + 1)))


def _shuffle_steps(size: int) -> tuple[tuple[int, int], ...]:
    """What :func:`_shuffle` draws for a list of ``size``: each position
    from the last down to the second, and the bits of a draw below it plus one."""
    return tuple((i, (i + 1).bit_length()) for i in reversed(range(1, size)))


def _shuffle(rng: random.Random, deck: list[int], steps: Sequence[tuple[int, int]]) -> None:
    """``rng.shuffle(deck)``, the same draws and swaps: for a plain
    :class:`random.Random`, its shuffle with the position loop and its
    ``_randbelow`` (``getrandbits`` until below the bound) written out, which
    saves a Python call per card (``tests/test_sim_fast.py`` holds it to
    ``rng.shuffle``); anything else is asked to shuffle."""
    if type(rng) is not random.Random:
        rng.shuffle(deck)
        return
    getrandbits = rng.getrandbits
    for i, bits in steps:
        j = getrandbits(bits)
        while j > i:
            j = getrandbits(bits)
        deck[i], deck[j] = deck[j], deck[i]


def _random_below(rng: random.Random, count: int) -> int:
    """``rng.randrange(count)``, the same draws: for a plain :class:`random.Random`
    its ``_randbelow`` written out (``getrandbits`` until below ``count``)."""
    if type(rng) is not random.Random:
        return rng.randrange(count)
    getrandbits = rng.getrandbits
    bits = count.bit_length()
    index = getrandbits(bits)
    while index >= count:
        index = getrandbits(bits)
    return index


def _choice_of_one(rng: random.Random, value: int) -> int:
    """``rng.choice((value,))``: the same draw (one bit until it is 0), without the call."""
    if type(rng) is not random.Random:
        return rng.choice((value,))
    getrandbits = rng.getrandbits
    while getrandbits(1):
        pass
    return value


def _nth_bit(mask: int, index: int) -> int:
    """The card of the ``index``-th set bit of a mask, lowest first (what
    ``_bits(mask)[index]`` is)."""
    for _ in range(index):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def _strongest(mask: int, trumps: int) -> int:
    """``max(_bits(mask), key=_STRENGTH[trump].__getitem__)`` of natural
    cards, ``trumps`` the trump suit's cards (``0``: no trump): the highest
    trump, else the highest rank, the lowest suit of that rank."""
    found = mask & trumps
    if found:
        return found.bit_length() - 1
    top = mask.bit_length() - 1
    if not mask & ~_SUIT_RUNS[SUIT_INDEX[top]]:
        return top  # one suit
    for ranks in _RANKS_DOWN:
        found = mask & ranks
        if found:
            return (found & -found).bit_length() - 1
    return -1  # pragma: no cover - mask holds a card


def _weakest(mask: int, trumps: int) -> int:
    """``min(_bits(mask), key=_STRENGTH[trump].__getitem__)`` of natural
    cards, ``trumps`` the trump suit's cards: the lowest rank not a trump,
    the lowest suit of that rank; else the lowest trump."""
    rest = mask & ~trumps
    if not rest:
        return (mask & -mask).bit_length() - 1
    low = (rest & -rest).bit_length() - 1
    if not rest & ~_SUIT_RUNS[SUIT_INDEX[low]]:
        return low  # one suit
    for ranks in _RANKS_UP:
        found = rest & ranks
        if found:
            return (found & -found).bit_length() - 1
    return -1  # pragma: no cover - rest holds a card



_RANKS_UP: Final = tuple(sum(1 << (13 * s + r) for s in range(4)) for r in range(13))
"""Each rank's cards, the two upwards."""

_RANKS_DOWN: Final = _RANKS_UP[::-1]
"""Each rank's cards, the ace downwards."""


def _bits(mask: int) -> list[int]:
    """The set bits of a mask, lowest first (a hand mask's card indices)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


_TRUMP_VALUE: Final = {14: 1.0, 13: 0.85, 12: 0.7, 11: 0.55, 10: 0.45}

_CardValue = tuple[int, int, float, float] | None


def _card_values(joker_mask: int, trump: int) -> tuple[_CardValue, ...]:
    """What each card adds to :meth:`Simulator._strength` with this trump
    index: ``None`` nothing, else ``(suit, length, short, long)``: ``long``
    when the hand holds at least ``length`` cards of ``suit``, else
    ``short`` (suit ``-1``: a side ace, whose value depends on the deal).
    The values are the very floats the rules of thumb add: a joker 0.95; a
    trump by rank (0.3 below a ten) and 0.1 more with three trumps; a side
    king 0.45 with another card of its suit, else 0.2; a side queen 0.2 with
    two more."""
    out: list[_CardValue] = []
    for card in range(54):
        suit, rank = SUIT_INDEX[card], RANK_INDEX[card] + 2
        entry: _CardValue = None
        if joker_mask >> card & 1:
            entry = (0, 0, 0.95, 0.95)
        elif suit == trump:
            entry = (suit, 3, _TRUMP_VALUE.get(rank, 0.3) + 0.0, _TRUMP_VALUE.get(rank, 0.3) + 0.1)
        elif rank == 14:
            entry = (-1, 0, 0.0, 0.0)
        elif rank == 13:
            entry = (suit, 2, 0.2, 0.45)
        elif rank == 12:
            entry = (suit, 3, 0.0, 0.2)
        out.append(entry)
    return tuple(out)


_STRENGTH: Final = tuple(
    tuple(RANK_INDEX[c] + (13 if SUIT_INDEX[c] == trump else 0) for c in range(54))
    for trump in range(NO_SUIT + 1)
)
"""How strong a natural card is, per trump suit (index 4: no trump)."""


def _joker_intent(decl: JokerDecl | None, leading: bool, trump: Suit | None, led: int | None) -> float:
    """How much a joker declaration means to win (> 0) or to lose (< 0)."""
    if decl is None:  # pragma: no cover - jokers always carry one
        return 0.0
    mode = decl.mode
    if mode in ("high", "lowest", "take"):
        bonus = 0.1 if decl.suit is not None and decl.suit == trump else 0.0
        return 1.0 + bonus + (0.05 if mode == "high" else 0.0)
    if mode in ("low", "discard"):
        return -1.0 - (0.1 if led is not None and decl.suit == led else 0.0)
    card = decl.card
    if mode == "as" and card is not None:
        rank = RANK_INDEX[card]
        suit = SUIT_INDEX[card]
        if trump is not None and suit == trump:
            return 0.5 + rank / 26 if rank >= 11 else -0.2 + rank / 100
        if leading or suit == led:
            return 0.3 + rank / 26 if rank == 12 else -0.5 - (12 - rank) / 26
        return -1.0 - (12 - rank) / 26
    return 0.0
