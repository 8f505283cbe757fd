"""The advice of ``raspis analyze`` a player can use: every sample of a line
solved to its end, the bots' play-out beside it (and where the two disagree,
both said), and the progress bar's estimate from the positions visited."""

from __future__ import annotations

import json
import random

import pytest

from raspis_cli.analyze.bot_opinion import BotOpinion, bot_opinion
from raspis_cli.analyze.findings import PlayerDeal
from raspis_cli.analyze.post_mortem import analyze_game, expected_positions
from raspis_cli.analyze.words import advice_words, bots_words
from raspis_cli.cli.analyze_cmd import PositionsBar
from raspis_cli.engine.scoring import bid_score
from raspis_cli.judge.check import read_results
from raspis_cli.model.cards import Suit
from raspis_cli.solver import pimc
from raspis_cli.solver.pimc import BidAdvice, bid_advice
from raspis_cli.solver.randomdeal import random_position
from tests.clikit import run_cli
from tests.enginekit import deal_of, rules_of

SAMPLE = "samples/raspisnoy-full-3p.rsp"


@pytest.mark.slow
def test_a_line_solves_every_sample_it_starts() -> None:
    """Without a budget (the default with the compiled solver) the advice of every line of a deal is
    over all its samples, each solved, no position visited for nothing; the
    deal's positions are the play's and the advice's, counted as they come."""
    [(result, _)] = read_results(SAMPLE)
    told: list[int] = []
    from raspis_cli.analyze.post_mortem import analyze_deal

    [deal] = [d for d in result.deals if d.number == 7]
    analysis = analyze_deal(result, deal, samples=6, budget=None, on_positions=told.append)
    advised = [p.advice for p in analysis.players if p.advice is not None and not p.advice.forced]
    assert advised
    for advice in advised:
        assert advice.solved == advice.drawn == 6
        assert advice.unsolved_positions == 0 and not advice.budget_spent
    assert sum(told) == analysis.positions > sum(a.positions for a in advised) > 0


@pytest.mark.slow
def test_a_budget_caps_a_line_and_says_what_it_left() -> None:
    """``--budget`` caps each line's samples together: a tiny one leaves lines
    without an answer, and the note on standard error counts them."""
    done = run_cli("analyze", SAMPLE, "--deal", "7", "--samples", "6", "--budget", "1000")
    assert done.returncode == 0, done.stderr
    assert "no sample solved within the search budget" in done.stdout
    assert "got no answer within the search budget" in done.stderr
    free = run_cli("analyze", SAMPLE, "--deal", "7", "--samples", "6")
    assert "within the search budget" not in free.stdout + free.stderr


def test_the_bots_score_each_bid_by_the_play_out() -> None:
    """Seat 1 holds the trump ace of a 1-card deal, the jokers in no hand:
    played out, it takes the trick in every sample, so each bid's mean is
    that bid's score for one trick taken, exactly."""
    deal = deal_of(rules_of("raspisnoy"), ["9S", "AH", "8C"], dealer=0, trump=Suit.H)
    rules = deal.rules
    opinion = bot_opinion(deal, 1, 7, seed="t", legal=[0, 1], seen=deal.deck.joker_mask)
    assert opinion.samples == 7
    assert opinion.expected == {0: float(bid_score(rules, "normal", 0, 1, 1)),
                                1: float(bid_score(rules, "normal", 1, 1, 1))}
    assert opinion.best == 1


def test_the_bots_play_the_advice_samples_reproducibly() -> None:
    """The same seed gives the same opinion; the bidder's bot aiming at each
    bid changes the play: on a 5-card deal the means differ between bids
    and between seeds."""
    rng = random.Random("bots/5")
    deal = random_position(rng, rules_of("raspisnoy"), 3, 5, kind="normal", played=0)
    deal.bids = [1, 2, 1]
    first = bot_opinion(deal, 0, 20, seed=3, legal=[0, 1, 2, 3])
    again = bot_opinion(deal, 0, 20, seed=3, legal=[0, 1, 2, 3])
    other = bot_opinion(deal, 0, 20, seed=4, legal=[0, 1, 2, 3])
    assert first == again != other
    assert len(set(first.expected.values())) > 1


def _player(exact_best: int, bots_best: int) -> PlayerDeal:
    advice = BidAdvice({0: 2.0, 1: 1.0, 2: -5.0} if exact_best == 0 else {0: -1.0, 1: 3.0, 2: -5.0},
                       12, 12, drawn=12)
    bots = BotOpinion({0: 1.0, 1: 2.0, 2: 7.5} if bots_best == 2 else {0: 4.0, 1: 2.0, 2: 1.0}, 12)
    return PlayerDeal("Анна", 1, 1, None, advice=advice, bots=bots)


@pytest.mark.parametrize(("lang", "model"), [
    ("en", "the advice's 0 wins only because the others are taken to play together"),
    ("ru", "заказ 0 в совете лучший только потому, что остальные считаются играющими вместе"),
])
def test_both_best_bids_are_said_where_they_disagree(lang: str, model: str) -> None:
    """A best bid of 0 the bots do not share is said to come from the model;
    another disagreement names both best bids; an agreement says neither."""
    zero = bots_words(_player(0, 2), lang)
    assert zero is not None and model in zero
    assert ("best bid 2 (mean +7.5)" if lang == "en" else "лучший заказ 2 (в среднем +7,5)") in zero
    other = bots_words(_player(1, 2), lang)
    assert other is not None and model not in other
    assert ("the advice says 1, the bots 2" if lang == "en" else "по совету 1, по ботам 2") in other
    same = bots_words(_player(0, 0), lang)
    assert same is not None and "·" not in same
    brief = advice_words(_player(0, 2), lang, brief=True)
    said = "the bots' best bid 2" if lang == "en" else "у ботов лучший заказ 2"
    assert brief is not None and said in brief


def test_the_json_gives_the_bots_opinion_beside_the_advice() -> None:
    done = run_cli("analyze", SAMPLE, "--deal", "4", "--samples", "5", "--format", "json")
    assert done.returncode == 0, done.stderr
    [game] = json.loads(done.stdout)["games"]
    advised = [p for p in game["deals"][0]["players"] if not p["advice"]["forced"]]
    assert advised
    for player in advised:
        bots = player["advice"]["bots"]
        assert bots["samples"] == 5
        assert set(bots["expected"]) == set(player["advice"]["expected"])
        top = max(bots["expected"].values())
        assert bots["best"] == min(int(b) for b, v in bots["expected"].items() if v == top)


def test_the_words_read_in_both_languages_in_a_terminal() -> None:
    """The plain line on what the figures mean comes once, above the deals."""
    en = run_cli("analyze", SAMPLE, "--deal", "4", "--samples", "4")
    ru = run_cli("--lang", "ru", "analyze", SAMPLE, "--deal", "4", "--samples", "4")
    legend = "bots: the mean score when raspis's own bots play the same deals out"
    assert en.stdout.count(legend) == 1 and en.stdout.index(legend) < en.stdout.index("Deal 4")
    assert "bots (4 deals played out)" in en.stdout
    assert ru.stdout.count("боты: средний счёт") == 1 and "боты (доиграно 4 раздачи)" not in ru.stdout
    assert "боты (доиграны 4 раздачи)" in ru.stdout


def test_the_bar_expects_what_the_deals_done_say() -> None:
    """The bar's total: the positions visited, and the deals still to come
    at their prior scaled by how the deals done compared with theirs."""
    shown: list[tuple[int, int]] = []
    bar = PositionsBar([10, 100, 1000])
    bar.shown = True

    def set_bar(completed: int, total: int) -> None:
        shown.append((completed, total))

    bar._bar = set_bar  # the bar's drawing stood in for
    items = iter([20, 150, 2000])

    done = bar.track(items, lambda positions: positions)
    bar.done, bar.done_expected = 20, 10  # the first deal: twice its prior
    bar.visited(50)
    assert shown[-1] == (70, 20 + 2 * 1100)
    del done


def test_the_prior_grows_with_the_cards_in_play() -> None:
    assert expected_positions(3, 12, 12) > expected_positions(3, 11, 12) > expected_positions(3, 6, 12) > 0
    assert expected_positions(3, 12, 24) > expected_positions(3, 12, 12)


def test_the_bots_opinion_is_over_the_same_deals_as_the_advice(monkeypatch: pytest.MonkeyPatch) -> None:
    """The advice and the bots draw the same samples from one seed."""
    drawn: list[list[int]] = []
    real = pimc.sample_hands

    def recorded(*args: object, **kwargs: object) -> list[int]:
        hands = real(*args, **kwargs)  # type: ignore[arg-type]
        drawn.append(hands)
        return hands

    monkeypatch.setattr(pimc, "sample_hands", recorded)
    import raspis_cli.analyze.bot_opinion as opinion

    monkeypatch.setattr(opinion, "sample_hands", recorded)
    rng = random.Random("same/samples")
    deal = random_position(rng, rules_of("raspisnoy"), 3, 4, kind="normal", played=0)
    deal.bids = [1, 1, 1]
    bid_advice(deal.rules, deal, 2, 5, seed="s", legal=[0, 1, 2])
    advice_samples = list(drawn)
    drawn.clear()
    bot_opinion(deal, 2, 5, seed="s", legal=[0, 1, 2])
    assert drawn == advice_samples and len(drawn) == 5


def test_analyze_game_gives_every_line_its_opinion() -> None:
    [(result, _)] = read_results(SAMPLE)
    analysis = analyze_game(result, deal=5, samples=3)
    [deal] = analysis.deals
    for player in deal.players:
        assert player.advice is not None
        assert (player.bots is None) == player.advice.forced


def test_a_tie_at_0_is_not_said_to_be_the_models_doing() -> None:
    """The advice's 0 tied with the bots' best bid: both bids named, no word
    of the model (which did not make 0 win)."""
    player = PlayerDeal("Boris", 1, 1, None, advice=BidAdvice({0: 1.5, 1: 1.5}, 12, 12, drawn=12),
                        bots=BotOpinion({0: 1.0, 1: 2.5}, 12))
    said = bots_words(player, "en")
    assert said is not None and said.endswith("· the advice says 0, the bots 1")
