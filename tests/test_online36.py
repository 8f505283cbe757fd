"""The ``online36`` preset: the rules of the 36-card online table of
soufee/rasp-poker, as its own spec (``raspisnoy_poker_TZ.md``, Part I) writes
them, checked against this file's own reading of that spec.

Nothing here calls raspis's scoring, schedule or bidding rules to make the
expected answers: :func:`peer_score`, :func:`peer_schedule` and the bidding
of :func:`random_sheet` are written from the spec's sections (cited at each),
and raspis must agree with them with no allowance.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

import pytest

from raspis_cli.judge.replay import replay_game
from raspis_cli.notation.reader import read_text
from raspis_cli.rules import Rules
from raspis_cli.rules.schedule import schedule_for
from raspis_cli.rules.standings import final_places
from tests.storekit import run, run_json

NAMES = ["Анна", "Борис", "Вера", "Глеб", "Дина", "Егор"]
SUITS = "♠♣♦♥"
WORDS = {"regular": "", "blind": "dark", "percent": "percent", "no_trump": "no-trump", "golden": "golden",
         "misere": "miser"}
"""The spec's round types (§6.4) as the notation writes them."""


def peer_schedule(players: int, ladder: bool = True, miser: bool = True) -> list[tuple[str, int]]:
    """§6.4 ``generateRoundSchedule``: (round type, hand size), the control deal left out."""
    m = 36 // players
    top = m // players * players
    rounds = [("regular", h) for h in range(1, top + 1)] if ladder else []
    rounds += [("regular", m)] * players
    for kind in ("blind", "percent", "no_trump", "golden") + (("misere",) if miser else ()):
        rounds += [(kind, 4 if kind == "percent" else m)] * players
    return rounds


def peer_score(kind: str, bid: int | None, taken: int, hand: int) -> int:
    """§7: a player's points for a round."""
    if kind == "golden":
        return 10 * taken  # §7.2: +10 a trick, 0 for none, no penalties
    if kind == "misere":
        if taken == 0:
            return 50
        if taken == hand:
            return 100  # §7.2: the penalties for the tricks are cancelled
        return -10 * taken
    assert bid is not None
    if taken == bid:
        points = 5 if bid == 0 else 20 * bid if bid == hand and hand > 1 else 10 * bid  # §7.1
    elif taken > bid:
        points = taken  # §7.1: +1 for every trick taken
    else:
        points = -10 * bid  # §7.1: the bid itself is penalised
    return 3 * points if kind == "percent" else points  # §7.2: проценты ×3


def peer_places(totals: Sequence[int]) -> list[int]:
    """§8.1: a total of exactly 0 is second; first goes to the highest
    positive total (with none, docs/RULES.md decides: the highest other); the
    others follow by their points."""
    others = [t for t in totals if t != 0]
    if not others or len(others) == len(totals):
        standing = list(totals)
    else:
        top = max(others)
        ahead = max(totals) + 2  # above every total; the zeros just below first place
        standing = [ahead if t == top else ahead - 1 if t == 0 else t for t in totals]
    return [1 + sum(1 for other in standing if other > mine) for mine in standing]


def _bids(rng: random.Random, players: int, dealer: int, hand: int, streaks: list[int]) -> list[int]:
    """§3: bids from the left of the dealer, the dealer last; the dealer may
    not make them add up to the hand; nobody passes ``players`` times in a
    row, unless the dealer is left with nothing but 0 (the "Кроме" rule wins)."""
    bids = [0] * players
    total = 0
    for step in range(players):
        seat = (dealer + 1 + step) % players
        allowed = list(range(hand + 1))
        if seat == dealer and hand - total in allowed:
            allowed.remove(hand - total)
        if streaks[seat] >= players - 1 and 0 in allowed and len(allowed) > 1:
            allowed.remove(0)
        guess = hand / players + rng.choice((-1, 0, 0, 1))
        bids[seat] = rng.choice(allowed) if rng.random() < 0.2 else min(allowed, key=lambda b: abs(b - guess))
        total += bids[seat]
    return bids


def _taken(rng: random.Random, players: int, hand: int, bids: Sequence[int] | None) -> list[int]:
    """The tricks taken: each trick to a player still short of their bid,
    more often than not (any player at random otherwise)."""
    taken = [0] * players
    for _ in range(hand):
        short = [s for s in range(players) if bids is not None and taken[s] < bids[s]]
        taken[rng.choice(short) if short and rng.random() < 0.8 else rng.randrange(players)] += 1
    return taken


def random_sheet(rng: random.Random, players: int) -> tuple[str, list[int]]:
    """A whole game under the spec, as a sheet in the notation, and its final
    totals by this file's reading of the spec: the schedule, random legal
    bids and tricks, then control deals (§8: the last-placed player chooses
    a kind played and a dealer) while first place is shared."""
    names = NAMES[:players]
    rounds = peer_schedule(players)
    totals = [0] * players
    streaks = [0] * players
    lines = ['[Rules "online36"]', f'[Players "{", ".join(names)}"]', ""]
    first = rng.randrange(players)
    number = 0

    def play(kind: str, hand: int, dealer: int) -> None:
        nonlocal number
        number += 1
        has_bids = kind not in ("golden", "misere")
        bids = _bids(rng, players, dealer, hand, streaks) if has_bids else None
        taken = _taken(rng, players, hand, bids)
        cells = []
        for seat in range(players):
            bid = None if bids is None else bids[seat]
            score = peer_score(kind, bid, taken[seat], hand)
            totals[seat] += score
            cells.append(f"{'-' if bid is None else bid}/{taken[seat]} {score} {totals[seat]}")
            if bids is not None:
                streaks[seat] = streaks[seat] + 1 if bids[seat] == 0 else 0
        trump = "-" if kind == "no_trump" else rng.choice(SUITS)
        lines.append(f"{number}. {hand} {WORDS[kind]} {names[dealer]} {trump} | " + " | ".join(cells))

    for i, (kind, hand) in enumerate(rounds):
        play(kind, hand, (first + i) % players)
    played = sorted({kind for kind, _ in rounds})
    while True:  # §8: one control deal, then more while first place is shared
        kind = rng.choice(played)
        play(kind, 4 if kind == "percent" else 36 // players, rng.randrange(players))
        if sorted(totals)[-1] != sorted(totals)[-2]:
            break
    return "\n".join(lines) + "\n", totals


def _judge(text: str) -> tuple[list[tuple[str, str]], list[int], list[str]]:
    read = read_text(text)
    assert read.ok, read.diagnostics
    (game,) = read.games
    result = replay_game(game, 0, None, True)
    return ([(p.kind, p.message.english()) for p in result.problems],
            [result.totals[n] for n in game.players], result.winners)


@pytest.mark.parametrize("players", [3, 4, 6])
def test_the_schedule_is_the_specs(players: int) -> None:
    """§6.2's tables: 3 players 12 + 3 + 5 × 3 deals, 4 players 8 + 4 + 5 × 4,
    6 players 6 + 6 + 5 × 6; проценты at 4 cards; then the control deal."""
    rules = Rules.preset("online36")
    schedule = schedule_for(rules, players)
    kinds = {"": "regular", "dark": "blind", "percent": "percent", "no-trump": "no_trump",
             "golden": "golden", "miser": "misere"}
    got = [(kinds["" if d.kind == "normal" else d.kind], d.cards) for d in schedule.listing]
    assert got == peer_schedule(players)
    assert len(got) == {3: 30, 4: 32, 6: 42}[players]
    assert schedule.control
    no_ladder = schedule_for(rules.with_options({"ladder": False}), players).listing
    no_miser = schedule_for(rules.with_options({"specials": "dark,percent,no-trump,golden"}), players).listing
    assert [(kinds["" if d.kind == "normal" else d.kind], d.cards) for d in no_ladder] == peer_schedule(
        players, ladder=False)
    assert [(kinds["" if d.kind == "normal" else d.kind], d.cards) for d in no_miser] == peer_schedule(
        players, miser=False)


@pytest.mark.parametrize("players", [3, 4, 6])
@pytest.mark.parametrize("seed", range(8))
def test_games_written_from_the_spec_validate_and_score_as_it_says(players: int, seed: int) -> None:
    text, totals = random_sheet(random.Random(f"online36/{players}/{seed}"), players)
    problems, got, winners = _judge(text)
    assert problems == []
    assert got == totals
    places = peer_places(totals)
    assert winners == [NAMES[s] for s, place in enumerate(places) if place == 1]
    assert final_places(got, "second") == places


def test_a_wrong_cell_is_one_score_mismatch() -> None:
    text, _ = random_sheet(random.Random("online36/wrong"), 3)
    lines = text.split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("19. 4 percent"))
    head, cells = lines[at].split(" | ", 1)
    first = cells.split(" | ")
    bid_taken, score, total = first[0].split()
    first[0] = f"{bid_taken} {int(score) // 3} {total}"  # the score not tripled
    lines[at] = head + " | " + " | ".join(first)
    problems, _, _ = _judge("\n".join(lines))
    assert [kind for kind, _ in problems] == ["score-mismatch"]


def test_worked_examples_of_the_spec() -> None:
    rules = Rules.preset("online36")
    from raspis_cli.engine.scoring import bid_score
    from raspis_cli.rules.bidding import forbidden_bids, pass_limit

    assert bid_score(rules, "normal", 3, 4, 9) == 4  # §7.1: bid 3, took 4: +4
    assert bid_score(rules, "normal", 5, 4, 9) == -50  # §7.1: bid 5, took 4: −50
    assert bid_score(rules, "normal", 12, 12, 12) == 240  # §7.1: the whole hand, doubled
    assert bid_score(rules, "percent", 2, 2, 4) == 60  # §7.2: ×3
    assert bid_score(rules, "miser", None, 12, 12) == 100  # §7.2: all the tricks
    assert bid_score(rules, "miser", None, 0, 12) == 50
    assert bid_score(rules, "golden", None, 0, 12) == 0
    limit = pass_limit(rules.third_pass, 3)
    # §3: 12 cards, 4 and 4 bid: the dealer may not bid 4
    assert set(forbidden_bids(rules.dealer_restriction, limit, 12, True, 8, 0)) == {4}
    # §3: the third pass in a row for 3 players; the dealer's "Кроме" rule wins over it
    assert set(forbidden_bids(rules.dealer_restriction, limit, 5, False, 0, 2)) == {0}
    assert set(forbidden_bids(rules.dealer_restriction, limit, 1, True, 0, 2)) == {1}
    # §8.1: a total of 0 is second
    assert final_places([0, 50, -20], "second") == [2, 1, 3]
    assert final_places([120, 0, 0, -5], "second") == [1, 2, 2, 4]


def test_a_control_deal_is_due_until_first_place_is_not_shared() -> None:
    text, _ = random_sheet(random.Random("online36/control"), 3)
    lines = text.rstrip("\n").split("\n")
    deals = [line for line in lines if line[:1].isdigit()]
    # the game without its control deals: the first one is missing
    cut = "\n".join(lines[:3] + deals[:30]) + "\n"
    assert [kind for kind, _ in _judge(cut)[0]] == ["schedule"]
    # one more control deal after the game was decided
    extra = deals[-1].split(" ", 1)[1]
    more = text + f"{len(deals) + 1}. {extra}\n"
    problems = [kind for kind, _ in _judge(more)[0]]
    assert "schedule" in problems


ZERO_GAME = """[Rules "online36"]
[Players "Анна, Борис, Вера"]

1. 1 Анна ♠ | 1/0 -10 -10 | 1/1 10 10 | 0/0 5 5
2. 2 Борис ♥ | 1/1 10 0 | 0/0 5 15 | 0/1 1 6
unfinished
"""
"""Two deals of a game stopped early, Анна's total exactly 0 (§8.1)."""


def test_a_total_of_zero_is_second_in_the_result_and_the_club(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    problems, totals, winners = _judge(ZERO_GAME)
    assert problems == [] and totals == [0, 15, 6] and winners == ["Борис"]
    path = tmp_path / "zero.rsp"
    path.write_text(ZERO_GAME, encoding="utf-8")
    db = tmp_path / "club.duckdb"
    assert run(capsys, "load", str(path), "--db", str(db), "-q")[0] == 0
    rows = run_json(capsys, "query", "SELECT player, place FROM seats ORDER BY seat", "--db", str(db),
                    "--format", "json")
    assert rows == [{"player": "Анна", "place": 2}, {"player": "Борис", "place": 1},
                    {"player": "Вера", "place": 3}]
