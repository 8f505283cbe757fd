"""The compact record of play against a plain card-by-card replay.

The notation reader keeps a plain trick line as one compact trick (the cards
as ints, no object per card), and the replay checks such a trick whole with
bit masks, going card by card only where a joker is or the masks find a
problem. Whatever the record, the report must be exactly the one a
straightforward replay gives that plays every card one by one from the plays
as objects (``replay_game(..., compact=False)``): the same violations with
the same messages, kinds, deals, tricks, players and positions; the same
taken, scores, totals and winner of every trick. Checked on simulated games
of every preset, correct and broken: by the fault injector (revokes, joker
demands, dropped tricks, ...) and by edits of the text's trick lines (cards
swapped, replaced, dropped, the leader changed).
"""

from __future__ import annotations

import random
import re
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from raspis_cli.bots.heuristic import EngineDisagreementError
from raspis_cli.judge.replay import GameResult, replay_game
from raspis_cli.model.cards import Card
from raspis_cli.notation import ReadResult, read_text
from raspis_cli.notation.writer import write_game
from raspis_cli.rules import OPTIONS, PRESETS, Rules, RulesError
from raspis_cli.rules.values import DealKind
from raspis_cli.simulate.game import simulate_game
from tests.faultkit import FAULTS, with_fault

_TRICK_LINE = re.compile(r"^(  trick )(\S+)(: )(.*)$", re.MULTILINE)
_DECLARED = re.compile(r"(\S+)\((\w+)(?: ([^)]+))?\)")
"""A joker as written in a trick line: the card, its mode, its suit or card."""
_MODES = ("high", "lowest", "low", "take", "discard", "as")
_SUITS = ("♠", "♣", "♦", "♥")


@cache
def _game_text(preset: str, seed: int, fault: str) -> str:
    """A simulated game of ``preset`` (its fewest players from 3), with
    ``fault`` injected (``"none"``: correct), as notation."""
    rules = Rules.preset(preset)
    players = max(rules.players[0], 3)
    game = simulate_game(rules, players, 500 + seed)
    if fault != "none":
        game, _expected = with_fault(game, fault, random.Random(seed))
    return write_game(game)


def _edit(text: str, rnd: random.Random) -> str:
    """One edit of a trick line, as a careless scorekeeper makes it."""
    lines = list(_TRICK_LINE.finditer(text))
    if not lines:
        return text
    m = rnd.choice(lines)
    name, cards = m.group(2), m.group(4).split(" ")
    how = rnd.randrange(6)
    if how == 0 and len(cards) > 1:  # two cards of the trick swapped
        i, j = rnd.sample(range(len(cards)), 2)
        cards[i], cards[j] = cards[j], cards[i]
    elif how == 1:  # a card replaced by another (maybe one played elsewhere)
        cards[rnd.randrange(len(cards))] = str(Card.from_index(rnd.randrange(52)))
    elif how == 2 and len(cards) > 1:  # a card left out
        del cards[rnd.randrange(len(cards))]
    elif how == 3:  # another leader
        other = rnd.choice([n.group(2) for n in lines])
        name = other if other != name else name + "x"
    elif how == 4:  # a card played twice
        cards.append(cards[0])
    else:  # a card swapped with one of another trick line
        other_m = rnd.choice(lines)
        if other_m.start() != m.start():
            theirs = other_m.group(4).split(" ")
            i, j = rnd.randrange(len(cards)), rnd.randrange(len(theirs))
            cards[i], theirs[j] = theirs[j], cards[i]
            new_other = f"{other_m.group(1)}{other_m.group(2)}{other_m.group(3)}{' '.join(theirs)}"
            text = text[:other_m.start()] + new_other + text[other_m.end():]
            return _edit_at(text, m.group(0), f"{m.group(1)}{name}{m.group(3)}{' '.join(cards)}")
    return text[:m.start()] + f"{m.group(1)}{name}{m.group(3)}{' '.join(cards)}" + text[m.end():]


def _edit_joker(text: str, rnd: random.Random) -> str:
    """One edit of a joker's trick line: the declaration changed (another
    mode, another suit, none, 'as' a card, the mode alone), the joker moved
    to another place in the trick, or a natural card of the trick swapped
    with another of its player's (:func:`_swap_in_joker_trick`)."""
    found = list(_DECLARED.finditer(text))
    if not found:
        return text
    m = rnd.choice(found)
    card, mode, what = m.group(1), m.group(2), m.group(3)
    how = rnd.randrange(6)
    if how == 5:
        return _swap_in_joker_trick(text, rnd)
    if how == 0:
        mode = rnd.choice(_MODES)
    elif how == 1:
        what = rnd.choice(_SUITS)
    elif how == 2:
        what = None
    elif how == 3:
        mode, what = "as", str(Card.from_index(rnd.randrange(52)))
    else:  # the joker swapped with another card of its line
        start = text.rfind("\n", 0, m.start()) + 1
        end = text.find("\n", m.end())
        line = text[start:end]
        tokens = _tokens(line)
        places = [i for i, t in enumerate(tokens) if i >= 3 and "(" not in t]
        joker = next((i for i, t in enumerate(tokens) if t.startswith(card + "(")), None)
        if not places or joker is None:
            return text
        other = rnd.choice(places)
        tokens[joker], tokens[other] = tokens[other], tokens[joker]
        return text[:start] + " ".join(tokens) + text[end:]
    written = f"{card}({mode} {what})" if what else f"{card}({mode})"
    return text[:m.start()] + written + text[m.end():]


def _tokens(line: str) -> list[str]:
    """A trick line's words, a joker with its declaration as one."""
    return [t.replace("\x00", " ") for t in
            _DECLARED.sub(lambda j: j.group(0).replace(" ", "\x00"), line).split(" ")]


def _swap_in_joker_trick(text: str, rnd: random.Random) -> str:
    """A natural card of a joker's trick swapped with another card the same
    player plays in the same deal: the player still holds both, so the
    trick is judged by the follow rules (a revoke, a broken demand, or a
    legal play that changes who wins), not as a card never held."""
    players_tag = re.search(r'^\[Players "([^"]*)"\]', text, re.MULTILINE)
    jokers = [m for m in _TRICK_LINE.finditer(text) if "(" in m.group(4)]
    if players_tag is None or not jokers:
        return text
    players = [p.strip() for p in players_tag.group(1).split(",")]
    m = rnd.choice(jokers)
    start = text.rfind("\n\n", 0, m.start())
    end = text.find("\n\n", m.end())
    end = len(text) if end < 0 else end

    def seat_cards(trick: re.Match[str]) -> list[tuple[str, int]]:
        if trick.group(2) not in players:
            return []
        first = players.index(trick.group(2))
        return [(players[(first + i) % len(players)], i)
                for i, t in enumerate(_tokens(trick.group(4))) if "(" not in t]

    mine = seat_cards(m)
    if not mine:
        return text
    player, at = rnd.choice(mine)
    others = [(o, i) for o in _TRICK_LINE.finditer(text, start + 1, end) if o.start() != m.start()
              for who, i in seat_cards(o) if who == player]
    if not others:
        return text
    other, there = rnd.choice(others)
    here_tokens, there_tokens = _tokens(m.group(4)), _tokens(other.group(4))
    here_tokens[at], there_tokens[there] = there_tokens[there], here_tokens[at]
    edits = sorted([(m, here_tokens), (other, there_tokens)], key=lambda e: -e[0].start())
    for trick, tokens in edits:
        line = f"{trick.group(1)}{trick.group(2)}{trick.group(3)}{' '.join(tokens)}"
        text = text[:trick.start()] + line + text[trick.end():]
    return text


def _edit_at(text: str, old: str, new: str) -> str:
    return text.replace(old, new, 1)


def _report(result: GameResult) -> dict[str, Any]:
    """Everything a replay reports, the winner of every trick included."""
    return {
        "game": result.to_json(),
        "problems": [(p.kind, p.message, p.deal, p.trick, p.player, str(p.pos)) for p in result.problems],
        "deals": [(d.number, d.taken, d.taken_source, d.scores, d.totals, d.penalties,
                   None if d.deal is None else
                   [(t.number, t.leader, t.winner, t.entries, t.led_suit, t.trump)
                    for t in d.deal.history],
                   None if d.deal is None else
                   (d.deal.bids, d.deal.bid_count, d.deal.phase, d.deal.pass_streaks, d.deal.trump,
                    d.deal.dealer, d.deal.cards, d.deal.kind, d.deal.taken, d.deal.penalties,
                    d.deal.hands))
                  for d in result.deals],
    }


def _both(text: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The reports of the compact path and of the card-by-card replay, each
    on its own reading of ``text``."""
    compact = read_text(text)
    plain = read_text(text)
    assert compact.diagnostics == plain.diagnostics
    fast = [_report(replay_game(g, i, ordered_bids=True)) for i, g in enumerate(compact.games)]
    slow = [_report(replay_game(g, i, ordered_bids=True, compact=False))
            for i, g in enumerate(plain.games)]
    return fast, slow


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(PRESETS), seed=st.integers(0, 2),
       fault=st.sampled_from(("none", *FAULTS)), edits=st.integers(0, 3),
       joker_edits=st.integers(0, 2), edit_seed=st.integers(0, 2**32 - 1))
def test_compact_path_reports_what_card_by_card_replay_reports(
        preset: str, seed: int, fault: str, edits: int, joker_edits: int, edit_seed: int) -> None:
    text = _game_text(preset, seed, fault)
    rnd = random.Random(edit_seed)
    for _ in range(edits):
        text = _edit(text, rnd)
    for _ in range(joker_edits):
        text = _edit_joker(text, rnd)
    fast, slow = _both(text)
    assert fast == slow


def _assert_as_the_long_way(texts: list[str], fast: list[ReadResult], monkeypatch: Any) -> None:
    """The texts read again with the reader's fast paths off give the same
    diagnostics, positions and games as ``fast`` (read with them on)."""
    from raspis_cli.notation import reader

    monkeypatch.setattr(reader._Reader, "fast_paths", False)
    slow = [read_text(t) for t in texts]
    for f, s in zip(fast, slow, strict=True):
        assert f.diagnostics == s.diagnostics
        assert [d.positions for g in f.games for d in g.deals] == [
            d.positions for g in s.games for d in g.deals]
        assert f.games == s.games


def test_the_compact_path_is_taken_and_objects_come_on_demand() -> None:
    """A plain trick line is kept compactly; asking for the tricks gives the
    plays as objects with their positions, and from then on the objects
    are the record."""
    text = _game_text("raspisnoy", 0, "none")
    game = read_text(text).games[0]
    deal = next(d for d in game.deals if d.cards >= 3)
    play = deal.compact_play()
    assert play is not None and any(isinstance(e, tuple) for e in play)
    line = next(e for e in play if isinstance(e, tuple))[2]
    assert deal.where("trick:1") is not None
    tricks = deal.tricks
    assert tricks is not None and deal.compact_play() is None
    first = tricks[0][0]
    assert first.pos is not None and first.pos.line >= 1
    assert any(p.pos is not None and p.pos.line == line for t in tricks for p in t)
    # every preset's correct games replay clean along the compact path
    for preset in PRESETS:
        for g in read_text(_game_text(preset, 0, "none")).games:
            assert replay_game(g, ordered_bids=True).problems == []


def test_the_fast_reader_reads_what_the_long_way_reads(monkeypatch: Any) -> None:
    """The reader's fast paths (a plain trick line kept compactly, a deal
    line with plain cells read by one match, positions worked out on demand)
    make the same records, positions included, as the long way."""

    texts = []
    for preset in PRESETS:
        rules = Rules.preset(preset)
        for detail in ("full", "sheet", "scores"):
            game = simulate_game(rules, max(rules.players[0], 3), 7, detail=detail)
            texts.append(write_game(game))
    # numbers out of range in a plain sheet line: reported, and dropped, as the long way does
    written = len(texts)
    sheet = next(t for t in texts if "hand " not in t and re.search(r"\| \d+/\d+ ", t))
    texts.append(re.sub(r"\| (\d+)/", r"| 1000/", sheet, count=1))
    texts.append(re.sub(r"\| (\d+)/(\d+) ", r"| \1/\2 99999999999 ", sheet, count=1))
    final = next(t for t in texts[:written] if re.search(r"^final .*\| +-?\d+ ", t, re.MULTILINE))
    texts.append(re.sub(r"^(final .*?\| +)-?\d+ ", r"\g<1>99999999999 ", final, count=1, flags=re.MULTILINE))
    fast = [read_text(t) for t in texts]
    assert [[d.code for d in r.diagnostics] for r in fast[written:]] == [["E215"]] * 3
    # a joker's trick line (only the leader named) is kept as one DeclaredTrick
    # tuple too, and written back as it was read
    declared = [e for r in fast for g in r.games for d in g.deals for e in d.compact_play() or ()
                if isinstance(e, tuple) and len(e) == 6]
    assert any(decl is not None for e in declared for decl in e[4])
    for text, read in zip(texts[:written], fast, strict=False):
        assert "".join(write_game(g) for g in read.games) == text
    _assert_as_the_long_way(texts, fast, monkeypatch)


_DEAL_LINE = re.compile(r"^(?:\d+\.|  penalty )[^\n]*$", re.MULTILINE)
"""A sheet's deal line, or a penalty line under it."""
_NUMBER = re.compile(r"-?\d+")


@cache
def _sheet_text(preset: str, seed: int, detail: str, fault: str) -> str | None:
    """A simulated sheet game (``detail`` sheet or scores) of ``preset``, with
    ``fault`` injected (``"none"``: correct), as notation; ``None`` when the
    record offers no place for the fault."""
    rules = Rules.preset(preset)
    players = min(max(rules.players[0], 3) + seed % 2, rules.players[1])
    game = simulate_game(rules, players, 900 + seed, detail=detail)
    if fault != "none":
        game, expected = with_fault(game, fault, random.Random(seed))
        if expected is None:
            return None
    return write_game(game)


def _edit_sheet(text: str, rnd: random.Random) -> str:
    """One edit of a sheet line, as a careless scorekeeper makes it: a
    number changed (the deal's number or cards, a bid, a taken, a score, a
    total, a penalty's points), a bid left out (or written on a miser), the
    dealer (or the penalised player) changed, or the line left out."""
    lines = list(_DEAL_LINE.finditer(text))
    players = re.search(r'^\[Players "([^"]*)"\]', text, re.MULTILINE)
    if not lines or players is None:
        return text
    m = rnd.choice(lines)
    line = m.group(0)
    how = rnd.randrange(6)
    if how == 0:
        line = ""
    elif how == 5 and rnd.random() < 0.5:  # no bid written, or bids on a miser
        line = re.sub(r"\| *(-|\d+)/", lambda c: f"| {'1' if c.group(1) == '-' else '-'}/", line)
    elif how == 5:  # one bid not written, or one bid on a miser
        cells = list(re.finditer(r"(-|\d+)/", line))
        if cells:
            c = rnd.choice(cells)
            line = line[:c.start()] + ("-" if c.group(1) != "-" else "1") + line[c.end() - 1:]
    elif how == 1:
        names = [p.strip() for p in players.group(1).split(",")]
        now = next((n for n in names if f" {n} " in line), None)
        if now is not None:
            line = line.replace(f" {now} ", f" {rnd.choice(names)} ", 1)
    else:
        numbers = list(_NUMBER.finditer(line))
        n = rnd.choice(numbers)
        value = int(n.group(0))
        new = rnd.choice((value - 1, value + 1, 0, rnd.randrange(13), value + 10))
        line = line[:n.start()] + str(new) + line[n.end():]
    return text[:m.start()] + line + text[m.end():]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(PRESETS), seed=st.integers(0, 3), detail=st.sampled_from(("sheet", "scores")),
       fault=st.sampled_from(("none", "score", "total", "dealer-sum", "skip-dealer")),
       edits=st.integers(0, 3), edit_seed=st.integers(0, 2**32 - 1))
def test_sheet_arithmetic_reports_what_the_long_way_reports(
        preset: str, seed: int, detail: str, fault: str, edits: int, edit_seed: int) -> None:
    """A sheet deal checked with arithmetic (``Game.sheet_deal`` and the
    replay's sum, score and total checks) gives exactly the report of the
    long way (``compact=False``: the deal opened, bid by bid, results), on
    correct sheets, sheets with a fault injected and sheets edited."""
    text = _sheet_text(preset, seed, detail, fault)
    if text is None:
        return
    rnd = random.Random(edit_seed)
    for _ in range(edits):
        text = _edit_sheet(text, rnd)
    fast, slow = _both(text)
    assert fast == slow


def test_a_correct_sheet_takes_the_arithmetic_path(monkeypatch: Any) -> None:
    """Every deal of a correct sheet (bids and taken, or with scores and
    totals) of every preset is checked with arithmetic: the long way's
    ``Game.start_deal`` is never called, and the report is clean."""
    from raspis_cli.engine import Game

    texts = [t for preset in PRESETS for detail in ("sheet", "scores")
             if (t := _sheet_text(preset, 0, detail, "none")) is not None]

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a correct sheet deal went the long way")

    monkeypatch.setattr(Game, "start_deal", refuse)
    for text in texts:
        for i, game in enumerate(read_text(text).games):
            assert replay_game(game, i, ordered_bids=True).problems == []


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(sorted(PRESETS)), players=st.integers(2, 7), cards=st.integers(1, 12),
       dealer=st.integers(0, 6), streaks=st.lists(st.integers(0, 3), min_size=7, max_size=7),
       bids=st.lists(st.integers(-1, 13), min_size=7, max_size=7), kind=st.sampled_from(
           ["normal", "dark", "no-trump", "miser", "golden"]),
       third_pass=st.sampled_from([False, True, "players"]),
       restriction=st.sampled_from(OPTIONS["dealer_restriction"].choices))
def test_bids_made_at_once_are_those_made_one_by_one(preset: str, players: int, cards: int, dealer: int,
                                                    streaks: list[int], bids: list[int], kind: DealKind,
                                                    third_pass: object, restriction: str) -> None:
    """``Deal.bid_all`` (every bid at once, the replay's fast path) accepts
    only bids that ``Deal.bid`` takes seat by seat without a violation, and
    leaves the same state; refused, it changes nothing."""
    from raspis_cli.engine.deal import Deal
    from raspis_cli.rules.seats import bidding_order

    rules = Rules.preset(preset).with_options({"third_pass": third_pass,
                                               "dealer_restriction": restriction})
    dealer %= players
    made = bids[:players]
    fast = Deal(rules, players, dealer, cards, kind, None, None, streaks[:players])
    slow = Deal(rules, players, dealer, cards, kind, None, None, streaks[:players])
    before = (list(fast.bids), fast.bid_count, fast.phase)
    if fast.bid_all(made):
        found = [v for seat, bid in zip(bidding_order(slow.first_bidder, players), made, strict=True)
                 for v in slow.bid(seat, bid)]
        assert found == []
        assert (fast.bids, fast.bid_count, fast.phase) == (slow.bids, slow.bid_count, slow.phase)
    else:
        assert (fast.bids, fast.bid_count, fast.phase) == before


def test_hostile_lines_read_by_the_fast_paths_as_the_long_way(monkeypatch: Any) -> None:
    """Lines that look like the fast paths' own but are not: each read, with
    the same diagnostics and records, as the long way reads it, and none
    raises (a hand line without a name after the deal's first hand; deal
    numbers too long for ``int``)."""

    head = '[Players "Анна, Boris, Vera"]\n'
    deal = "1. 3 Vera K♣ | 1/1 | 0/0 | 1/2\n  hand Анна: A♥ 9♦ 6♦\n"
    texts = [
        head + deal + "  hand : 10♦ K♥ 8♣\n  hand Vera: J♦ 6♥ A♣\n",
        head + "1" * 5000 + ". 3 Vera K♣ | 1/1 | 0/0 | 1/2\n",
        head + "1. " + "3" * 5000 + " Vera K♣ | 1/1 | 0/0 | 1/2\n",
        head + deal + "2" * 5000 + ". 3 Boris K♣ | 1/1 | 0/0 | 1/2\n",
    ]
    fast = [read_text(t) for t in texts]
    assert [[d.code for d in r.diagnostics] for r in fast] == [["E302"], ["E214"], ["E214"], ["E214"]]
    _assert_as_the_long_way(texts, fast, monkeypatch)


_OPTION_VALUES = sorted({(name, value) for name, spec in OPTIONS.items()
                         for value in spec.choices if name not in ("deck", "joker", "schedule", "specials")})
"""Every value of every option that is a switch (the option table's choices)."""


@cache
def _option_text(name: str, value: str, preset: str, detail: str) -> str | None:
    """A simulated game under ``preset`` with one option set to ``value``, as
    notation (``None`` where the preset cannot take the value); ``detail``
    ``sheet`` leaves out hands and play."""
    try:
        rules = Rules.preset(preset).with_options({name: value})
        game = simulate_game(rules, max(rules.players[0], 3), 700 + len(name) + len(value))
    except (RulesError, EngineDisagreementError):  # a combination the preset (or the bots) refuse: no game
        return None
    if detail == "sheet":
        for deal in game.deals:
            deal.hands = None
            deal.tricks = None
    return write_game(game)


@pytest.mark.slow
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(option=st.sampled_from(_OPTION_VALUES), preset=st.sampled_from(("raspisnoy", "joker54", "classic")),
       detail=st.sampled_from(("full", "sheet")), edits=st.integers(0, 3),
       edit_seed=st.integers(0, 2**32 - 1))
def test_every_option_value_judged_compactly_as_card_by_card(
        option: tuple[str, str], preset: str, detail: str, edits: int, edit_seed: int) -> None:
    """Under every value of every option of the option table, the compact path
    (tricks a deal at a time on bit masks, results kept by seat, a sheet line's
    deal made on demand) reports what the card-by-card replay reports, on a
    correct game and on edited ones; the integers it keeps give the same
    winners (``Deal.trick_winners``) and values by seat as the objects; and the
    reader's fast paths (plain lines without an object, joker trick lines
    kept compactly) read the records, positions and diagnostics of the long
    way."""
    text = _option_text(*option, preset, detail)
    if text is None:
        return
    rnd = random.Random(edit_seed)
    for _ in range(edits):
        text = (_edit(text, rnd) if detail == "full" and rnd.random() < 0.7
                else _edit_joker(text, rnd) if detail == "full" else _edit_sheet(text, rnd))
    fast, slow = _both(text)
    assert fast == slow
    read = read_text(text)
    with pytest.MonkeyPatch.context() as patch:
        _assert_as_the_long_way([text], [read], patch)
    for i, game in enumerate(read.games):
        result = replay_game(game, i, ordered_bids=True)
        for deal in result.deals:
            by_seat = deal.seat_values()
            if by_seat is not None:
                bids, taken, scores, totals = by_seat
                names = list(deal.taken)
                assert deal.seat_values() is None  # a dict asked for: the dicts are the result
                assert taken == [deal.taken[n] for n in names]
                assert scores == [deal.scores[n] for n in names]
                assert totals == [deal.totals[n] for n in names]
                assert bids is None or bids == [deal.bids[n] for n in names]
            engine = deal.deal
            if engine is not None:
                winners = engine.trick_winners()
                assert winners == [(t.number, t.winner, t.led_suit, t.trump) for t in engine.history]


def test_joker_trick_lines_read_by_the_fast_path_as_the_long_way(monkeypatch: Any) -> None:
    """A single-spaced trick line with joker declarations (only the leader
    named) is kept as one DeclaredTrick by the reader's fast path; every
    declaration it does not take (the trump's suit named, an unreadable one,
    the joker declared as the joker, detached, doubled spaces, a second
    name, a card the deck lacks) goes the long way, and either way the
    records, positions and diagnostics are the long way's."""
    head = '[Rules "raspisnoy"]\n[Players "Анна, Boris, Vera"]\n'
    deal = "1. 3 Vera K♣ | 1/1 | 0/0 | 1/2\n"
    tricks = [
        "  trick Анна: 7♠(take ♦) 9♦ 6♦",
        "  trick Анна: 7♠(high ♠) 9♦ 6♦",
        "  trick Анна: 7♠(take) 9♦ 6♦",
        "  trick Анна: 9♦ 7♠(discard ♥) 6♦",
        "  trick Анна: 9♦ 7♠(take ♦) 6♦(low)",
        "  trick Анна: 7♠(по старшим пикам) 9♦ 6♦",
        "  trick Анна: 7♠(забрать) 9♦ 6♦",
        "  trick Анна: 7♠(по старшим козырям) 9♦ 6♦",
        "  trick Анна: 7♠(as A♦) 9♦ 6♦",
        "  trick Анна: 7♠(as joker) 9♦ 6♦",
        "  trick Анна: 7♠(fly away) 9♦ 6♦",
        "  trick Анна: 7♠ (take ♦) 9♦ 6♦",
        "  trick Анна: 7♠(take ♦)  9♦ 6♦",
        "  trick Анна: 7♠(take ♦) 9♦ 6♦ ",
        "  trick Анна: 7♠(take ♦) Boris 9♦ 6♦",
        "  trick Анна: 7♠(take ♦) 9♦ 6♦ 8♦",
        "  trick Анна: joker(take ♦) 9♦ 6♦",
        "  trick Анна: 7♠(take ♦) 9♦ X♦",
        "  trick Анна: 7♠(take ♦)x 9♦ 6♦",
        "  trick Nobody: 7♠(take ♦) 9♦ 6♦",
        "  trick A♥: 7♠(take ♦) 9♦ 6♦",
        "  trick Анна: 7♠(take (♦)) 9♦ 6♦",
    ]
    texts = [head + deal + line + "\n" for line in tricks]
    texts.append(head + deal + "\n".join(tricks[:5]) + "\n")
    texts.append(head + deal + "  trick Анна: 9♦ 6♦ 8♦\n" + tricks[0] + "\n")
    fast = [read_text(t) for t in texts]
    declared = [e for r in fast for g in r.games for d in g.deals for e in d.compact_play() or ()
                if isinstance(e, tuple) and len(e) == 6]
    assert len(declared) >= 10
    _assert_as_the_long_way(texts, fast, monkeypatch)
