"""``raspis analyze``: the post-mortem of recorded deals, checked against brute
force; -j, --player, --annotate; PIMC advice reproducible."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from raspis_cli.analyze.post_mortem import analyze_game
from raspis_cli.engine import Deal
from raspis_cli.files.sources import load_source
from raspis_cli.judge.replay import replay_game
from raspis_cli.model.cards import Card
from raspis_cli.rules import Rules
from raspis_cli.solver.pimc import bid_advice
from raspis_cli.solver.randomdeal import random_position
from raspis_cli.solver.search import brute_force, play_copy
from tests.clikit import check_golden, run_cli

SAMPLE = "samples/raspisnoy-full-3p.rsp"


def _small_deals() -> list[int]:
    source = load_source(SAMPLE)
    return [d.number for d in source.games[0].deals if d.cards <= 3]


def test_every_finding_on_small_deals_is_what_brute_force_says() -> None:
    """Deals of up to 3 cards of the sample: each player's forceable counts,
    and each mistake (before the card the bid could be forced, after it not;
    a handed bid the reverse), recomputed by brute force."""
    source = load_source(SAMPLE)
    result = replay_game(source.games[0], 0)
    checked_mistakes = 0
    for number in _small_deals():
        analysis = analyze_game(result, deal=number, samples=0)
        (deal_analysis,) = analysis.deals
        assert deal_analysis.skipped is None
        deal_result = next(d for d in result.deals if d.number == number)
        assert deal_result.deal is not None
        from raspis_cli.analyze.post_mortem import start_of_play

        start, plays = start_of_play(deal_result.deal)
        names = result.record.players
        for p in deal_analysis.players:
            seat = names.index(p.player)
            assert p.outcome == brute_force(start, seat)
            assert p.taken == deal_result.deal.taken[seat]
        states = [play_copy(start)]
        for seat, card, decl in plays:
            nxt = play_copy(states[-1])
            nxt.apply_legal(seat, card, decl)
            states.append(nxt)
        for m in deal_analysis.mistakes:
            bidder = names.index(m.bidder)
            index = next(i for i, (s, c, _) in enumerate(plays)
                         if names[s] == m.player and str(Card.from_index(c)) == m.card)
            before = m.bid in brute_force(states[index], bidder).exact
            after = m.bid in brute_force(states[index + 1], bidder).exact
            if m.kind == "lost-bid":
                assert (before, after) == (True, False), m
                keeps = set()
                for play in states[index].legal_plays():
                    child = play_copy(states[index])
                    child.apply_legal(plays[index][0], play.card, play.joker)
                    if m.bid in brute_force(child, bidder).exact:
                        keeps.add(play)
                plain = states[index].plain_declaration
                said = {p for p in states[index].legal_plays() for kept in m.keeping
                        if str(p.card) == kept.card and (
                            kept.any_declaration or p.joker is None or plain(p.joker) in kept.declarations
                            or p.joker.mode in kept.any_modes)}
                assert said == keeps, m
            else:
                assert (before, after) == (False, True), m
            checked_mistakes += 1
    assert checked_mistakes >= 3


def test_text_post_mortem_of_one_deal() -> None:
    done = run_cli("analyze", SAMPLE, "--deal", "3", "--samples", "10")
    assert done.returncode == 0, done.stderr
    check_golden("analyze-deal3.txt", done.stdout)


def test_text_post_mortem_in_russian() -> None:
    """Under a Russian locale every word of the text output is Russian (the
    same findings: the numbers, cards and marks of the English golden file)."""
    done = run_cli("analyze", SAMPLE, "--deal", "3", "--samples", "10",
                   env_extra={"LANG": "ru_RU.UTF-8"})
    assert done.returncode == 0, done.stderr
    check_golden("analyze-deal3.ru.txt", done.stdout)
    for english in ("bid", "took", "could", "trick", "handed", "advice", "summary",
                    "the bid could not be forced"):
        assert english not in done.stdout, english


def _summary_cells(text: str) -> list[list[str]]:
    """The summary table's rows of cells (the header row first), from the
    summary's title to the end of the output."""
    title = max(text.rfind("Game 1 summary"), text.rfind("Партия 1: итоги"))
    assert title >= 0, text
    return [[cell.strip() for cell in line.strip()[1:-1].split(line.strip()[0])]
            for line in text[title:].splitlines() if line.strip()[:1] in ("┃", "│")]


def _run_in_terminal(args: list[str], columns: int, lang: str) -> str:
    """What a person sees running ``raspis ARGS`` in a terminal COLUMNS wide
    (a pseudo-terminal; colours and styles left out)."""
    import os
    import re
    import sys

    import pexpect

    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "FORCE_COLOR")}
    env.update(NO_COLOR="1", TERM="xterm-256color", PYTHONIOENCODING="utf-8")
    root = str(Path(__file__).resolve().parent.parent)
    env["PYTHONPATH"] = root
    child = pexpect.spawn(sys.executable, ["-m", "raspis_cli", "--lang", lang, *args], cwd=root,
                          env=env, encoding="utf-8", timeout=120, dimensions=(200, columns))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", str(child.before)).replace("\r\n", "\n")


@pytest.mark.slow
@pytest.mark.parametrize("terminal", [False, True], ids=["piped", "terminal"])
@pytest.mark.parametrize("columns", [80, 60])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_summary_is_whole_on_a_narrow_terminal(lang: str, columns: int, terminal: bool) -> None:
    """At 80 and 60 columns, piped (COLUMNS) or in a terminal, in either
    language, the summary shows every header in full (none cut with an
    ellipsis) and every figure of the JSON summary, within the width."""
    from rich.cells import cell_len

    from raspis_cli.cli.analyze_cmd import SUMMARY_COLUMNS
    from raspis_cli.text.catalogue import catalogue_path, po_entries

    args = ["analyze", SAMPLE, "--deal", "3", "--samples", "10"]
    if terminal:
        text = _run_in_terminal(args, columns, lang)
    else:
        done = run_cli("--lang", lang, *args, env_extra={"COLUMNS": str(columns)})
        assert done.returncode == 0, done.stderr
        text = done.stdout
    catalogue = po_entries(catalogue_path("ru").read_text(encoding="utf-8"))
    labels = {key: key if lang == "en" else catalogue[key][0] for key in SUMMARY_COLUMNS}
    assert len(set(labels.values())) == len(labels)
    cells = _summary_cells(text)
    assert not any("…" in cell for row in cells for cell in row), text
    summary = text[max(text.rfind("Game 1 summary"), text.rfind("Партия 1: итоги")):]
    assert all(cell_len(line) <= columns for line in summary.splitlines()), summary
    [game] = json.loads(run_cli(*args, "--format", "json").stdout)["games"]
    shown = {  # every figure as the table writes it, by player and column
        (s["player"], key): (f"{s[key]:.1f}".replace(".", "," if lang == "ru" else ".")
                             if key == "regret" else "-" if s[key] is None
                             else f"{s[key]:.0%}" if key == "accuracy" else str(s[key]))
        for s in game["summary"] for key in SUMMARY_COLUMNS[1:]}
    header, *rows = cells
    if header[1] == labels["bids"]:  # a row per player
        assert header == list(labels.values())
        table = {(row[0], key): row[k] for row in rows for k, key in enumerate(SUMMARY_COLUMNS) if k}
    else:  # a row per figure, a column per player
        assert header[0] == labels["player"]
        assert [row[0] for row in rows] == [labels[key] for key in SUMMARY_COLUMNS[1:]]
        table = {(name, key): row[k] for row, key in zip(rows, SUMMARY_COLUMNS[1:], strict=True)
                 for k, name in enumerate(header) if k}
    assert table == shown


def _first_deals(tmp_path: Path, count: int) -> Path:
    """The sample cut after its first ``count`` deals (a smaller file to analyse)."""
    text = (Path(__file__).resolve().parent.parent / SAMPLE).read_text(encoding="utf-8")
    cut = tmp_path / "first.rsp"
    cut.write_text(text[:text.index(f"\n{count + 1}. ")] + "\n", encoding="utf-8")
    return cut


@pytest.mark.slow
def test_json_is_the_same_with_two_processes(tmp_path: Path) -> None:
    path = str(_first_deals(tmp_path, 5))
    args = ["analyze", path, "--format", "json", "--samples", "3"]
    serial = run_cli(*args)
    parallel = run_cli(*args, "-j", "2")
    assert serial.returncode == 0, serial.stderr
    assert parallel.stdout == serial.stdout
    data = json.loads(serial.stdout)
    (game,) = data["games"]
    assert [d["deal"] for d in game["deals"]] == [1, 2, 3, 4, 5]
    summary = {s["player"]: s for s in game["summary"]}
    assert set(summary) == {"Анна", "Boris", "Вера"}
    for name, s in summary.items():
        players = [p for d in game["deals"] for p in d["players"] if p["player"] == name]
        assert s["bids"] == 5 and s["made"] == sum(p["made"] for p in players)
        assert s["makeable"] == sum(bool(p["makeable"]) for p in players)
        assert s["mistakes"] == sum(p["mistakes"] for p in players) <= s["decisions"]
        regrets = [p["advice"]["regret"] for p in players if p["advice"]["regret"] is not None]
        assert abs(s["regret"] - sum(regrets)) < 0.05
        if s["decisions"]:
            assert s["accuracy"] == round((s["decisions"] - s["mistakes"]) / s["decisions"], 4)


def test_player_filter_and_bad_options(tmp_path: Path) -> None:
    done = run_cli("analyze", SAMPLE, "--deal", "3", "--samples", "0", "--player", "Вера",
                   "--format", "json")
    assert done.returncode == 0, done.stderr
    deal = json.loads(done.stdout)["games"][0]["deals"][0]
    assert [p["player"] for p in deal["players"]] == ["Вера"]
    assert all(m["player"] == "Вера" for m in deal["mistakes"])
    assert run_cli("analyze", SAMPLE, "--annotate").returncode == 2
    assert run_cli("analyze", SAMPLE, "-o", str(tmp_path / "x.rsp")).returncode == 2


@pytest.mark.slow
def test_annotations_survive_fmt_convert_and_validate(tmp_path: Path) -> None:
    out = tmp_path / "annotated.rsp"
    done = run_cli("analyze", SAMPLE, "--deal", "3", "--samples", "5", "--annotate", "-o", str(out))
    assert done.returncode == 0, done.stderr
    text = out.read_text(encoding="utf-8")
    assert ("; analyze: trick 2: after 6♥, Вера could no longer make the bid of 1; 8♣ would have "
            "kept it") in text
    assert run_cli("validate", str(out)).returncode == 0
    assert run_cli("fmt", "--check", str(out)).returncode == 0
    as_json = run_cli("convert", str(out), "--to", "json")
    assert "could no longer make the bid of 1" in as_json.stdout
    # notation -> JSON -> notation keeps the comments where they were
    back = load_source(str(out))
    from raspis_cli.notation import write_games
    from raspis_cli.notation.jsoncodec import game_from_json

    assert write_games([game_from_json(json.loads(as_json.stdout))]) == text
    assert back.games[0].deals[2].comments


def test_annotating_twice_replaces_and_json_has_the_field() -> None:
    from raspis_cli.analyze.post_mortem import annotate_game
    from raspis_cli.notation.jsoncodec import game_to_json

    source = load_source(SAMPLE)
    result = replay_game(source.games[0], 0)
    analysis = analyze_game(result, deal=3, samples=3)
    annotate_game(source.games[0].deals, analysis)
    annotate_game(source.games[0].deals, analysis)
    deal = game_to_json(source.games[0])["deals"][2]
    assert deal["analysis"]["deal"] == 3
    assert sum("could no longer make the bid of 1" in c["text"] for c in deal["comments"]) == 1


def test_pimc_is_seeded() -> None:
    rules = Rules.preset("raspisnoy")
    deal = random_position(random.Random(4), rules, 3, 3, played=0)
    first = bid_advice(rules, deal, 0, 12, seed=5)
    again = bid_advice(rules, deal, 0, 12, seed=5)
    assert first == again and first.solved == first.drawn == 12
    assert set(first.expected) == {0, 1, 2, 3}
    other = bid_advice(rules, deal, 0, 12, seed=6)
    assert other.expected != first.expected or other == first


def test_samples_keep_what_the_bidder_saw() -> None:
    from raspis_cli.solver.pimc import sample_hands

    rules = Rules.preset("raspisnoy")
    deal: Deal = random_position(random.Random(9), rules, 4, 5, played=0)
    assert deal.hands is not None
    rng = random.Random(1)
    shown_card = deal.hands[2] & -deal.hands[2]
    for _ in range(50):
        hands = sample_hands(rng, deal, 1, seen=0, shown={2: shown_card})
        assert hands[1] == deal.hands[1]
        assert hands[2] & shown_card
        assert all(bin(h).count("1") == 5 for h in hands)
        union = 0
        for h in hands:
            assert not union & h
            union |= h


def test_pimc_bot_bids_and_plays_legally() -> None:
    from raspis_cli.bots.pimc import PimcBot
    from raspis_cli.engine import Game
    from raspis_cli.simulate.simulator import Simulator

    rules = Rules.preset("raspisnoy")
    names = ["A", "B", "C"]
    sim = Simulator(rules, names, random.Random(3), "full")
    sim.use_bots(["pimc", "heuristic", "pimc"], 6)
    assert set(sim.pimc) == {0, 2}
    game = Game(rules, 3, names)
    for number, cards in enumerate((1, 2, 3, 4), start=1):
        record = sim.play_deal(game, number, "normal", cards, (number - 1) % 3)
        assert record.taken is not None and sum(record.taken.values()) == cards
    deal = random_position(random.Random(8), rules, 3, 3, played=0)
    deal.phase = "bidding"
    bot = PimcBot(random.Random(1), samples=6)
    bid = bot.bid(deal, deal.next_bidder or 0, None)
    assert bid in deal.legal_bids()


def test_simulate_refuses_an_unknown_bot() -> None:
    done = run_cli("simulate", "-p", "3", "--bot", "alphazero")
    assert done.returncode == 2 and "--bot" in done.stderr


def test_progress_bar_on_a_terminal_only(tmp_path: Path) -> None:
    """On a terminal (a pseudo-terminal here) analyze shows a progress bar on
    standard error; piped (every other test) it does not."""
    import os
    import sys

    import pexpect

    path = str(_first_deals(tmp_path, 4))
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS")}
    env["PYTHONIOENCODING"] = "utf-8"
    root = str(Path(__file__).resolve().parent.parent)
    env["PYTHONPATH"] = root
    child = pexpect.spawn(sys.executable, ["-m", "raspis_cli", "analyze", path, "--samples", "2"],
                          cwd=root, env=env, encoding="utf-8", timeout=300,
                          dimensions=(40, 160))
    child.expect("analysing deals")
    child.expect("Game 1 summary")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    piped = run_cli("analyze", path, "--samples", "2")
    assert "analysing deals" not in piped.stdout + piped.stderr


def test_forehead_and_dark_samples_hide_the_right_hands() -> None:
    from raspis_cli.solver.pimc import sample_hands

    rules = Rules.preset("raspisnoy")
    rng = random.Random(2)
    for kind in ("forehead", "dark"):
        deal = random_position(random.Random(5), rules, 3, 4, kind=kind, played=0)
        deal.kind = kind
        assert deal.hands is not None
        kept = [0, 0, 0]
        for _ in range(40):
            hands = sample_hands(rng, deal, 0, own_known=kind != "dark")
            for seat in range(3):
                kept[seat] += hands[seat] == deal.hands[seat]
        if kind == "forehead":
            assert kept[1] == kept[2] == 40 and kept[0] < 40
        else:
            assert max(kept) < 40


def test_an_annotation_names_the_bots_best_bid_where_it_differs() -> None:
    """The comment ``--annotate`` writes after a deal says the bots' best bid
    beside the advice's where the two differ, and nothing more where they agree."""
    from raspis_cli.analyze.bot_opinion import BotOpinion
    from raspis_cli.analyze.findings import DealAnalysis, PlayerDeal
    from raspis_cli.analyze.post_mortem import deal_comment
    from raspis_cli.solver.pimc import BidAdvice
    from raspis_cli.solver.search import Outcome

    def line(bots: dict[int, float]) -> str:
        advice = BidAdvice({0: 5.0, 1: 8.0}, samples=12, solved=12, drawn=12)
        player = PlayerDeal("Вера", 0, 0, Outcome((0, 1), 0, 1), advice=advice,
                            bots=BotOpinion(bots, 12))
        [(anchor, text)] = deal_comment(DealAnalysis(3, 2, 3, "normal", players=[player]))
        assert anchor == "after:deal"
        return text

    assert line({0: 6.0, 1: 2.0}) == ("; analyze: Вера bid 0 forceable 0/1 best bid 1 regret 3.0 "
                                      "bots' best bid 0")
    assert line({0: 1.0, 1: 2.0}) == "; analyze: Вера bid 0 forceable 0/1 best bid 1 regret 3.0"
