"""Rules fidelity (issue 10): verdicts checked against docs/RULES.md and the seeds.

Each group holds a worked example that the engine got wrong before, and where
the issue asks for it a property test against a second, straightforward
implementation written here (not the engine's code path).
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from raspis_cli.engine import JokerDecl, trick_winner
from raspis_cli.judge.replay import GameResult, replay_game
from raspis_cli.model.cards import Card, Suit, parse_card
from raspis_cli.model.record import NO_TRUMP, DealRecord, GameRecord
from raspis_cli.notation import read_text
from raspis_cli.rules import Rules
from raspis_cli.simulate.game import simulate_game
from tests.clikit import run_cli
from tests.enginekit import deal_of
from tests.faultkit import inject


def _replay(text: str) -> GameResult:
    read = read_text(text)
    assert not read.diagnostics, read.diagnostics
    assert len(read.games) == 1
    return replay_game(read.games[0], ordered_bids=True)


def _kinds(result: GameResult) -> list[tuple[str, int | None, int | None, str | None]]:
    return [(p.kind, p.deal, p.trick, p.player) for p in result.problems]


# --- 1. joker `take` + suit on follow under joker_take_beaten_by_trump ----------------------

_BEATEN_ON_FOLLOW = """\
[Rules "raspisnoy"]
[Option "schedule=free"]
[Option "joker_take_beaten_by_trump=true"]
[Players "A, B, C, D"]

1. 2 D 6♣ | 0/0 5 | 0/0 5 | 1/0 -10 | 0/2 2
  hand A: K♥ 8♦
  hand B: Q♥ 9♦
  hand C: 7♠ 10♦
  hand D: 9♣ J♦
  trick A: K♥ Q♥ 7♠(take ♦) 9♣
  trick D: J♦ 8♦ 9♦ 10♦
"""


def test_following_take_with_a_suit_is_beaten_by_a_later_trump() -> None:
    """The issue's first example: trump ♣; K♥, Q♥, the joker `take ♦`, 9♣:
    9♣ wins and its player leads next (no wrong-turn after it)."""
    result = _replay(_BEATEN_ON_FOLLOW)
    assert _kinds(result) == []
    deal = result.deals[0]
    assert deal.taken == {"A": 0, "B": 0, "C": 0, "D": 2}
    assert deal.deal is not None and [t.winner for t in deal.deal.history] == [3, 3]
    # without the option the joker takes the trick, as before
    off = _replay(_BEATEN_ON_FOLLOW.replace("=true", "=false"))
    assert off.deals[0].deal is not None and off.deals[0].deal.history[0].winner == 2


def test_a_trump_before_the_following_joker_no_longer_counts() -> None:
    """Trump ♠: A♠ led, 10♠, the joker `take ♥`, J♠: J♠ wins, not A♠."""
    rules = Rules.preset("raspisnoy").with_options({"joker_take_beaten_by_trump": True,
                                                    "joker": "6S"})
    deck = rules.deck_cards
    trick = [(0, parse_card("AS"), None), (1, parse_card("10S"), None),
             (2, parse_card("6S"), JokerDecl("take", Suit.H)), (3, parse_card("JS"), None)]
    assert trick_winner(trick, rules, deck.joker_mask, Suit.S) == 3
    # only a trump *before* the joker: the joker wins
    assert trick_winner([*trick[:3], (3, parse_card("JH"), None)], rules, deck.joker_mask,
                        Suit.S) == 2
    # the joker names the trump suit: never beaten
    named_trump = [*trick[:2], (2, parse_card("6S"), JokerDecl("take", Suit.S)), trick[3]]
    assert trick_winner(named_trump, rules, deck.joker_mask, Suit.S) == 2
    # no suit named: never beaten
    bare = [*trick[:2], (2, parse_card("6S"), JokerDecl("take")), trick[3]]
    assert trick_winner(bare, rules, deck.joker_mask, Suit.S) == 2
    # no trump in the deal: the option has nothing to beat it with
    assert trick_winner(trick, rules, deck.joker_mask, None) == 2


def _suit_of(card: int) -> int:
    return card // 13


_CIRCULAR_NEXT = {0: 1, 1: 2, 2: 3, 3: 0}
"""♠ → ♣ → ♦ → ♥ → ♠ (suits as card // 13: ♠ 0, ♣ 1, ♦ 2, ♥ 3)."""


def reference_winner(plays: Sequence[tuple[int, JokerDecl | None]], trump: int | None,
                     is_joker: set[int], opposite: bool, beaten_option: bool,
                     circular: bool = False) -> int:
    """The trick rule of docs/RULES.md §1 and §6, written out card by card: the
    card (or joker) holding the trick so far, and whether the next card takes
    it over. Covers the modes the ``raspisnoy``, ``classic`` and ``joker54``
    presets allow (lead: high, low, take, with or without a suit, `as` a
    card; follow: take, discard, `as`), circular trumps, ``two_jokers`` and
    ``joker_take_beaten_by_trump``."""
    # a joker declared `as` a card is that card
    plays = [(int(d.card), None) if c in is_joker and d is not None and d.mode == "as"
             and d.card is not None else (c, d) for c, d in plays]
    is_joker = is_joker - {c for c, d in plays if d is None}
    first_card, first_decl = plays[0]
    if first_card not in is_joker:
        led: int | None = _suit_of(first_card)
    elif first_decl is not None and first_decl.suit is not None:
        led = int(first_decl.suit)
    else:
        led = next((_suit_of(c) for c, _ in plays[1:] if c not in is_joker), None)
    if circular:
        trump = None if led is None else _CIRCULAR_NEXT[led]
    holder: int | None = None  # index of the play holding the trick
    holder_is_joker = False
    holder_beatable = False
    first_joker_wins: bool | None = None
    for index, (card, decl) in enumerate(plays):
        if card in is_joker:
            assert decl is not None
            declared_win = decl.mode in ("high", "lowest", "take") if index == 0 else (
                decl.mode == "take")
            wins = declared_win
            if first_joker_wins is None:
                first_joker_wins = declared_win
            elif opposite:
                wins = not first_joker_wins
            if wins:
                holder, holder_is_joker = index, True
                holder_beatable = (beaten_option and trump is not None and decl.mode == "take"
                                   and decl.suit is not None and int(decl.suit) != trump)
            continue
        suit = _suit_of(card)
        if holder is None:
            if suit in (led, trump):
                holder, holder_is_joker = index, False
            continue
        if holder_is_joker:
            if holder_beatable and suit == trump:
                holder, holder_is_joker = index, False
            continue
        held = plays[holder][0]
        held_suit = _suit_of(held)
        trumps_over = suit == trump and (held_suit != trump or card > held)
        heads_suit_led = suit == led and held_suit == led and card > held
        if trumps_over or heads_suit_led:
            holder = index
    if holder is None:
        # a `low` lead that nobody followed or trumped: the first real card's suit counts
        naturals = [(c, i) for i, (c, _) in enumerate(plays) if c not in is_joker]
        first_suit = _suit_of(naturals[0][0])
        holder = max((c, i) for c, i in naturals if _suit_of(c) == first_suit)[1]
    return holder


def _circular_trump(plays: Sequence[tuple[int, JokerDecl | None]], is_joker: set[int]) -> int | None:
    """Under circular trumps: the suit after the suit led (for counting only)."""
    card, decl = plays[0]
    if card not in is_joker:
        return _CIRCULAR_NEXT[_suit_of(card)]
    if decl is not None and decl.mode == "as" and decl.card is not None:
        return _CIRCULAR_NEXT[_suit_of(int(decl.card))]
    return None if decl is None or decl.suit is None else _CIRCULAR_NEXT[int(decl.suit)]


def _deal_trump(deal: DealRecord, rules: Rules) -> int | None:
    if deal.kind == "no-trump" or deal.trump is None or deal.trump is NO_TRUMP:
        return None
    if isinstance(deal.trump, Suit):
        return int(deal.trump)
    assert isinstance(deal.trump, Card)
    if rules.deck_cards.is_joker(deal.trump):
        return None
    return _suit_of(int(deal.trump))


def _check_against_reference(game: GameRecord, rules: Rules) -> tuple[int, int]:
    """Compare every trick's winner in a simulated record with the reference:
    the next trick's leader and the written taken. Returns (following
    take+suit jokers seen, tricks where such a joker was beaten)."""
    is_joker = {c for c in range(54) if rules.deck_cards.is_joker(Card.from_index(c))}
    follows = beaten = 0
    for deal in game.deals:
        assert deal.tricks is not None and deal.taken is not None
        trump = _deal_trump(deal, rules)
        counts = dict.fromkeys(game.players, 0)
        deal_trump = trump
        for number, trick in enumerate(deal.tricks):
            trump = deal_trump
            plays = [(int(p.card), p.joker) for p in trick]
            won = reference_winner(plays, trump, is_joker, rules.two_jokers == "opposite",
                                   rules.joker_take_beaten_by_trump, rules.circular_trumps)
            if rules.circular_trumps:
                trump = _circular_trump(plays, is_joker)
            winner = trick[won].player
            counts[winner] += 1
            if number + 1 < len(deal.tricks):
                assert deal.tricks[number + 1][0].player == winner, (deal.number, number + 1)
            for index, play in enumerate(trick):
                decl = play.joker
                if (index and play.card in is_joker and decl is not None and decl.mode == "take"
                        and decl.suit is not None and trump is not None
                        and int(decl.suit) != trump):
                    follows += 1
                    if won != index and won > index:
                        beaten += 1
        assert counts == deal.taken, deal.number
    return follows, beaten


_BEATEN_RULES = {
    "raspisnoy": Rules.preset("raspisnoy").with_options({"joker_take_beaten_by_trump": True}),
    "joker54": Rules.preset("joker54").with_options({"joker_take_beaten_by_trump": True}),
    "joker54-later": Rules.preset("joker54").with_options({"joker_take_beaten_by_trump": True,
                                                           "two_jokers": "later-wins"}),
    "classic": Rules.preset("classic").with_options({"joker_take_beaten_by_trump": True,
                                                     "joker_lead_modes": "high,low,take,as"}),
    "circular": Rules.preset("raspisnoy").with_options({"joker_take_beaten_by_trump": True,
                                                        "circular_trumps": True,
                                                        "joker_lead_modes": "high,low,take"}),
    "circular54": Rules.preset("joker54").with_options({"joker_take_beaten_by_trump": True,
                                                        "circular_trumps": True}),
}


@settings(max_examples=12, deadline=None)
@given(preset=st.sampled_from(sorted(_BEATEN_RULES)), players=st.integers(3, 5),
       seed=st.integers(0, 10**6))
def test_simulated_games_under_take_beaten_by_trump_match_the_reference(
        preset: str, players: int, seed: int) -> None:
    rules = _BEATEN_RULES[preset]
    game = simulate_game(rules, players, seed)
    assert replay_game(game).problems == []
    _check_against_reference(game, rules)


def test_the_simulator_declares_following_take_with_a_suit_and_it_gets_beaten() -> None:
    """The property above is not vacuous: simulated games do hold following
    jokers declared `take` + a non-trump suit, and some of them are beaten."""
    follows = beaten = 0
    for preset, rules in _BEATEN_RULES.items():
        for seed in range(4):
            game = simulate_game(rules, 4, seed)
            assert replay_game(game).problems == [], preset
            f, b = _check_against_reference(game, rules)
            follows += f
            beaten += b
    assert follows >= 20 and beaten >= 3, (follows, beaten)


# --- 4. classic's specials include forehead; 5. Georgian plays the joker as classic does ------


def test_classic_specials_include_forehead() -> None:
    """`000`, `002` list «5) Лобовая» among the special games of classic."""
    rules = Rules.preset("classic")
    assert "forehead" in rules.specials
    game = simulate_game(rules, 4, 3)
    assert "forehead" in {deal.kind for deal in game.deals}
    assert replay_game(game).problems == []


def test_georgian_plays_the_joker_as_classic_does() -> None:
    """`000`, `002`: the joker rules of Georgian poker «ничем не отличаются от
    обычного»: `as` on lead and follow, the discard's suit optional."""
    georgian, classic = Rules.preset("georgian"), Rules.preset("classic")
    for option in ("joker_lead_modes", "joker_follow_modes", "discard_suit"):
        assert georgian.value(option) == classic.value(option), option
    deal = deal_of(georgian, ["7S 9H", "8H 6D", "AH 6C", "KH 10C"], trump=Suit.D)
    assert deal.play(0, parse_card("7S"), JokerDecl("as", card=parse_card("QH"))) == []
    assert deal.play(1, parse_card("8H")) == []
    deal = deal_of(georgian, ["9H 6C", "7S 6D", "AH 8C", "KH 10C"], trump=Suit.D)
    assert deal.play(0, parse_card("9H")) == []
    assert deal.play(1, parse_card("7S"), JokerDecl("discard")) == []
    deal = deal_of(georgian, ["9H 6C", "7S 6D", "AH 8C", "KH 10C"], trump=Suit.D)
    deal.play(0, parse_card("9H"))
    assert deal.play(1, parse_card("7S"), JokerDecl("as", card=parse_card("AD"))) == []


# --- 6. score --format json prints the preset and the options in force ------------------------


@pytest.mark.slow
def test_score_json_prints_the_preset_and_the_options_in_force(tmp_path: Path) -> None:
    path = tmp_path / "beaten.rsp"
    path.write_text(_BEATEN_ON_FOLLOW, encoding="utf-8")
    done = run_cli("score", str(path), "--set", "void=must-trump", "--format", "json")
    assert done.returncode == 0, done.stderr
    [game] = json.loads(done.stdout)
    assert game["rules"] == {"preset": "raspisnoy",
                             "options": {"schedule": "free", "void": "must-trump",
                                         "joker_take_beaten_by_trump": True}}
    # the same form as a record's own `rules` (docs/RECORD-JSON.md): the name alone without options
    plain = run_cli("score", "samples/raspisnoy-sheet-dispute.rsp", "--format", "json")
    assert json.loads(plain.stdout)[0]["rules"] == "raspisnoy"
    table = run_cli("score", str(path), "--set", "void=must-trump")
    assert ("rules raspisnoy, schedule=free, void=must-trump, joker_take_beaten_by_trump=true"
            in table.stdout)
    # --rules replaces the record's rules: only what --set adds is in force
    replaced = run_cli("score", str(path), "--rules", "classic", "--set", "void=free",
                       "--format", "json")
    assert json.loads(replaced.stdout)[0]["rules"] == {"preset": "classic",
                                                       "options": {"void": "free"}}


# --- 7. one wrong dealer is one dealer-order --------------------------------------------------


def _sheet(dealers: str, replayed_after: int | None = None) -> str:
    lines = ['[Rules "raspisnoy"]', '[Option "schedule=free"]', '[Players "A, B, C"]', ""]
    number = 0
    for index, dealer in enumerate(dealers.split()):
        if replayed_after is None or index != replayed_after + 1:
            number += 1
        lines.append(f"{number}. 1 {dealer} 9♥ | 0/0 | 1/1 | 1/0")
        if index == replayed_after:
            lines.append("  replayed")
    return "\n".join(lines) + "\n"


def test_one_wrong_dealer_is_one_violation() -> None:
    """Deal 5 names the wrong dealer, deal 6 the right one: one `dealer-order`,
    at deal 5 (the rotation is the seating from deal 1)."""
    result = _replay(_sheet("A B C A A C A"))
    assert _kinds(result) == [("dealer-order", 5, None, "A")]
    assert "B was to deal" in result.problems[0].message.english()
    # a dealer who keeps the wrong turn afterwards is wrong at every deal they deal out of turn
    shifted = _replay(_sheet("A B C A C A B"))
    assert [(p.kind, p.deal) for p in shifted.problems] == [
        ("dealer-order", 5), ("dealer-order", 6), ("dealer-order", 7)]
    # a replayed deal keeps its dealer, and the rotation goes on after it
    replayed = _replay(_sheet("A B B C A", replayed_after=1))
    assert _kinds(replayed) == []
    assert [(p.kind, p.deal) for p in _replay(_sheet("A B C A B", replayed_after=1)).problems] == [
        ("dealer-order", 2), ("dealer-order", 3), ("dealer-order", 4)]


# --- 2. an abandoned, replayed deal (revoke_replay, joker54) ----------------------------------

_ABANDONED = """\
[Rules "joker54"]
[Option "schedule=free"]
[Players "P1, P2, P3"]

1. 2 P1 A♣ | 1 | 0 | 0
  hand P1: K♥ 5♠
  hand P2: 9♥ 4♦
  hand P3: 7♣ 8♣
  trick P1: K♥ 4♦
  replayed
1. 2 P1 A♣ | 1/1 10 10 | 0/0 5 -45 | 0/1 1 1
"""


def test_an_abandoned_replayed_deal_reports_the_revoke_and_scores_its_penalty() -> None:
    """The issue's example: P1 leads K♥, P2 holding 9♥ plays 4♦, the record
    stops. One follow-suit (no trick-count), P2's deal score −50 unwritten."""
    result = _replay(_ABANDONED)
    assert _kinds(result) == [("follow-suit", 1, 1, "P2")]
    abandoned, again = result.deals
    assert abandoned.replayed and abandoned.scores == {"P1": 0, "P2": -50, "P3": 0}
    assert abandoned.penalties == {"P1": 0, "P2": -50, "P3": 0}
    assert again.totals == {"P1": 10, "P2": -45, "P3": 1}
    # the penalty written as the rules prescribe is no problem; written otherwise, it is
    written = _ABANDONED.replace("  replayed\n", "  penalty P2 -50 revoke\n  replayed\n")
    assert _kinds(_replay(written)) == [("follow-suit", 1, 1, "P2")]
    wrong = _ABANDONED.replace("  replayed\n", "  penalty P2 -20 revoke\n  replayed\n")
    assert [p.kind for p in _replay(wrong).problems] == ["follow-suit", "penalty"]
    # the abandoned deal scores nothing but its penalties, also when scores are written
    scored = _ABANDONED.replace("1. 2 P1 A♣ | 1 | 0 | 0", "1. 2 P1 A♣ | 1 0 0 | 0 -50 -50 | 0 0 0")
    assert _kinds(_replay(scored)) == [("follow-suit", 1, 1, "P2")]


def test_every_card_of_an_abandoned_deal_is_checked() -> None:
    """After complete tricks, a short last trick: each of its cards is judged,
    and the deal is still no trick-count problem."""
    text = _ABANDONED.replace("hand P1: K♥ 5♠", "hand P1: K♥ 5♠ 2♣").replace(
        "hand P2: 9♥ 4♦", "hand P2: 9♥ 4♦ 3♠").replace(
        "hand P3: 7♣ 8♣", "hand P3: 7♣ 8♣ A♥").replace(
        "1. 2 P1 A♣ | 1 | 0 | 0", "1. 3 P1 A♣ | 1 | 0 | 0").replace(
        "  trick P1: K♥ 4♦\n", "  trick P1: K♥ 9♥ A♥\n  trick P3: 7♣ 5♠\n").replace(
        "| 1/1 10 10 | 0/0 5 -45 |", "| 1/1 10 -40 | 0/0 5 5 |")
    result = _replay(text)
    # A♥ took trick 1; P3 leads 7♣ and P1, holding 2♣, plays 5♠
    assert _kinds(result) == [("follow-suit", 1, 2, "P1")]
    assert result.deals[0].scores == {"P1": -50, "P2": 0, "P3": 0}
    # the short trick's cards are judged like any other: a card not held is reported
    stolen = _replay(text.replace("trick P3: 7♣ 5♠", "trick P3: 7♣ 4♦"))
    assert _kinds(stolen)[0] == ("not-in-hand", 1, 2, "P1")
    assert "trick-count" not in {p.kind for p in stolen.problems}


# --- 3. a paper sheet no trick counts can satisfy ---------------------------------------------


def test_a_sheet_no_trick_counts_satisfy_is_a_taken_sum() -> None:
    """The issue's example: 5 cards, bids 0/2/2, scores 5, 20, 20. The exact
    bids fix 2 + 2 tricks, the pass must then take 1, and that scores +1."""
    text = ('[Rules "raspisnoy"]\n[Option "schedule=free"]\n[Players "A, B, C"]\n\n'
            "1. 5 C 9♥ | 0 5 5 | 2 20 20 | 2 20 20\n")
    result = _replay(text)
    assert _kinds(result) == [("taken-sum", 1, None, None)]
    assert "A 0 or 5, B 2, C 2" in result.problems[0].message.english()
    # the same sheet with a score that fits: valid, and the sum decides the pass's count
    fits = _replay(text.replace("| 0 5 5 |", "| 0 1 1 |"))
    assert _kinds(fits) == [] and fits.deals[0].taken == {"A": 1, "B": 2, "C": 2}
    # a pass scored 5 and two bids of 2 made leave 1 trick: with 4 cards they fit (0+2+2)
    four = _replay(text.replace("1. 5 C", "1. 4 C").replace("| 2 20 20\n", "| 1 -10 -10\n"))
    assert [p.kind for p in four.problems] == ["taken-sum"]
    # a written taken and an inferred one that cannot add up
    mixed = _replay('[Rules "raspisnoy"]\n[Option "schedule=free"]\n[Players "A, B, C"]\n\n'
                    "1. 3 C 9♥ | 1/3 3 3 | 1 10 10 | 0 5 5\n")
    assert [p.kind for p in mixed.problems] == ["taken-sum"]


@settings(max_examples=10, deadline=None)
@given(players=st.integers(3, 5), seed=st.integers(0, 10**6), drop_written=st.booleans())
def test_a_random_revoke_cut_and_replayed_is_one_follow_suit_and_minus_50(
        players: int, seed: int, drop_written: bool) -> None:
    """A revoke injected into a joker54 game: the deal is cut where the revoke
    is seen (within its trick) and marked replayed, then dealt again. The
    replay reports exactly one follow-suit, and the revoker's deal score is
    −50 (plus any −10 joker-lead penalty the cut play holds), whether the
    penalty is written or not."""
    rules = Rules.preset("joker54")
    game = simulate_game(rules, players, seed)
    expected = inject(game, "revoke", random.Random(seed))
    assume(expected is not None)
    assert expected is not None
    abandoned = next(d for d in game.deals if d.replayed)
    assert abandoned.tricks is not None and abandoned.number == expected.deal
    assert len(abandoned.tricks) == expected.trick
    if drop_written:
        abandoned.penalties = None  # applied by the rules all the same
    result = replay_game(game)
    assert _kinds(result) == [("follow-suit", expected.deal, expected.trick, expected.player)]
    # the penalties the cut play prescribes, counted here: −50 for the revoke, −10 for
    # each joker led before a player's last card
    want = dict.fromkeys(game.players, 0)
    assert expected.player is not None
    want[expected.player] -= 50
    jokers = set(rules.deck_cards.jokers)
    for number, trick in enumerate(abandoned.tricks, start=1):
        if trick and trick[0].card in jokers and number < abandoned.cards:
            want[trick[0].player] -= 10
    [scored] = [d for d in result.deals if d.replayed]
    assert scored.scores == want


def test_the_abandoned_deal_of_docs_rules_with_one_hand_written() -> None:
    """docs/RULES.md §7's example writes only Boris's hand: the others' hands
    hold what they are seen to play, so Анна's K♥ is hers and Boris's 4♦ a revoke."""
    result = _replay('[Rules "joker54"]\n[Players "Анна, Boris, Вера"]\n'
                     "1. 2 Анна ♠ | - | - | -\n  hand Boris: 9♥ 4♦\n  trick Анна: K♥ 4♦\n"
                     "  replayed\nunfinished\n")
    assert _kinds(result) == [("follow-suit", 1, 1, "Boris")]
    assert result.deals[0].scores == {"Анна": 0, "Boris": -50, "Вера": 0}


def test_a_leading_take_with_a_suit_is_beaten_by_the_same_rule() -> None:
    """docs/RULES.md §6: trump ♣, the joker leads `take ♦`, 10♦, 6♣, A♦: 6♣;
    and K♥, 9♣, the joker `take ♦`, 10♥: the joker (9♣ came before it)."""
    rules = Rules.preset("raspisnoy").with_options({"joker_take_beaten_by_trump": True})
    mask = rules.deck_cards.joker_mask
    joker = parse_card("7S")
    led = [(0, joker, JokerDecl("take", Suit.D)), (1, parse_card("10D"), None),
           (2, parse_card("6C"), None), (3, parse_card("AD"), None)]
    assert trick_winner(led, rules, mask, Suit.C) == 2
    before = [(0, parse_card("KH"), None), (1, parse_card("9C"), None),
              (2, joker, JokerDecl("take", Suit.D)), (3, parse_card("10H"), None)]
    assert trick_winner(before, rules, mask, Suit.C) == 2
