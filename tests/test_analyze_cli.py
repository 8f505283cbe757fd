"""``raspis analyze`` as a player meets it: several games (``--game N``,
``-j``), a file without hands, ``--samples 0``, a forced bid, the joker's
declarations said together, one language per output."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from raspis_cli.analyze.findings import KeptPlay
from raspis_cli.analyze.post_mortem import kept_plays
from raspis_cli.engine import JokerDecl, Play
from raspis_cli.model.cards import Card, Suit
from tests.clikit import run_cli

pytestmark = pytest.mark.slow  # the analysis of whole deals by the plain-Python solver, in child processes

SAMPLE = "samples/raspisnoy-full-3p.rsp"


@pytest.fixture(scope="module")
def many_games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """45 simulated 3-player games: three pieces of a file for the workers of -j."""
    path = tmp_path_factory.mktemp("games") / "games.rsp"
    done = run_cli("simulate", "-p", "3", "-n", "45", "--seed", "3", "-o", str(path))
    assert done.returncode == 0, done.stderr
    return path


def _json(*args: str) -> Any:
    done = run_cli("analyze", *args, "--format", "json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_game_n_of_a_file_of_several(many_games: Path) -> None:
    whole = _json(str(many_games), "--deal", "2", "--samples", "2")
    for n in (2, 45):
        one = _json(str(many_games), "--deal", "2", "--samples", "2", "--game", str(n))
        assert one["games"] == [whole["games"][n - 1]]
    beyond = run_cli("analyze", str(many_games), "--game", "46")
    assert beyond.returncode != 0 and "has 45 games; there is no game 46" in beyond.stderr


def test_jobs_read_each_piece_once_and_agree(many_games: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """-j cuts the file as validate -j does; each worker's piece is read once,
    and the output is byte for byte that of one process."""
    from raspis_cli.cli import analyze_cmd
    from raspis_cli.files.pieces import split_file
    from raspis_cli.judge.check import read_results
    from raspis_cli.judge.results import RulesChoice

    pieces = split_file(str(many_games), analyze_cmd.PIECE_GAMES, counted=True)
    assert len(pieces) == 3
    reads: list[object] = []

    def counted(*args: Any, **kwargs: Any) -> Any:
        reads.append(kwargs.get("piece"))
        return read_results(*args, **kwargs)

    monkeypatch.setattr("raspis_cli.judge.check.read_results", counted)  # analyze_cmd imports it where used
    settings: analyze_cmd.Settings = (RulesChoice(), None, 2, None, 0, 0, None)
    games = [g for piece in pieces for g in analyze_cmd._analyze_piece((str(many_games), piece, settings))[0]]
    assert reads == pieces
    serial = _json(str(many_games), "--deal", "2", "--samples", "0")
    assert [g.to_json() for g in games] == serial["games"]
    parallel = run_cli("analyze", str(many_games), "--deal", "2", "--samples", "0", "-f", "json",
                       "-j", "2")
    assert json.loads(parallel.stdout) == serial


def test_player_is_matched_the_same_with_workers(many_games: Path) -> None:
    """--player takes a name in any case with -j 2 as in one process (the workers
    matched it before: 'no player named' for a name -j 1 took)."""
    players = run_cli("analyze", str(many_games), "--deal", "2", "--samples", "0", "-f", "json")
    name = json.loads(players.stdout)["games"][0]["summary"][1]["player"]
    typed = name.upper() if name != name.upper() else name.lower()
    serial = _json(str(many_games), "--deal", "2", "--samples", "0", "--player", typed)
    parallel = run_cli("analyze", str(many_games), "--deal", "2", "--samples", "0", "-f", "json",
                       "--player", typed, "-j", "2")
    assert parallel.returncode == 0, parallel.stderr
    assert json.loads(parallel.stdout) == serial
    assert {s["player"] for g in serial["games"] for s in g["summary"]} == {name}
    unknown = run_cli("analyze", str(many_games), "--deal", "2", "--samples", "0", "--player", "Nobody",
                      "-j", "2")
    assert unknown.returncode == 2 and "no player named 'Nobody'" in unknown.stderr
    # a name mistyped gets the suggestion with workers as in one process
    typo = name[:-1] + ("x" if name[-1] != "x" else "y")
    hints = [run_cli("analyze", str(many_games), "--deal", "2", "--samples", "0", "--player", typo,
                     *jobs).stderr for jobs in ([], ["-j", "2"])]
    assert "did you mean" in hints[0] and name in hints[0]
    assert hints[1] == hints[0]


def test_a_file_without_hands_is_one_line() -> None:
    done = run_cli("analyze", "samples/classic.rsp")
    assert done.returncode == 0, done.stderr
    assert done.stdout == ("samples/classic.rsp: no deal has its hands and its play recorded: "
                           "nothing to analyse\n")


def test_without_samples_the_regret_is_not_computed() -> None:
    done = run_cli("analyze", SAMPLE, "--deal", "3", "--samples", "0")
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("not computed") == 3 and "advice" not in done.stdout
    data = _json(SAMPLE, "--deal", "3", "--samples", "0")
    [game] = data["games"]
    assert all(s["regret"] is None for s in game["summary"])


def test_a_forced_bid_is_said() -> None:
    """Deal 1 (one card): the dealer Вера could only bid 0 after the others' 0 and 0."""
    done = run_cli("analyze", SAMPLE, "--deal", "1", "--samples", "5")
    assert "bid 0 was the only bid allowed: nothing to advise" in done.stdout
    ru = run_cli("--lang", "ru", "analyze", SAMPLE, "--deal", "1", "--samples", "5")
    assert "заказ 0 был единственным допустимым: советовать нечего" in ru.stdout
    [game] = _json(SAMPLE, "--deal", "1", "--samples", "5")["games"]
    vera = game["deals"][0]["players"][2]
    assert vera["advice"]["forced"] is True and vera["advice"]["regret"] is None


def test_joker_declarations_are_said_together() -> None:
    joker = Card.from_index(5)  # any card: only the grouping is asked
    every = [Play(joker, JokerDecl("take")), Play(joker, JokerDecl("discard"))] + [
        Play(joker, JokerDecl("high", Suit(s))) for s in range(4)]
    eight = Play(Card.from_index(20))
    assert kept_plays([eight, *every], [eight, *every]) == [
        KeptPlay(str(eight.card)), KeptPlay(str(joker), any_declaration=True)]
    [some] = kept_plays(every[1:], [eight, *every])
    assert some == KeptPlay(str(joker), (JokerDecl("discard"),), ("high",))
    assert some.words("en") == f"{joker} (high, any suit / discard)"
    assert some.words("ru") == f"{joker} (по старшим, любая масть / скинуть)"
    [one] = kept_plays(every[2:3], every)
    assert one.to_json() == {"card": str(joker), "declarations": [{"mode": "high", "suit": "S"}],
                             "words": f"{joker} (high {Suit(0)})"}


def test_declarations_that_are_the_same_play_are_said_once() -> None:
    """``take`` and ``take ♦`` when the suit cannot matter (the plain form the
    engine gives) are one keeping play, in the words and in the JSON."""
    joker = Card.from_index(5)
    takes = [Play(joker, JokerDecl("take"))] + [Play(joker, JokerDecl("take", Suit(s))) for s in range(4)]
    def plain(decl: JokerDecl) -> JokerDecl:
        return JokerDecl("take") if decl.suit in (None, Suit(2)) else decl  # ♦ the trump
    [kept] = kept_plays(takes[:1] + takes[3:4], takes, plain)
    assert kept.to_json() == {"card": str(joker), "declarations": [{"mode": "take"}],
                              "words": f"{joker} (take)"}
    [every] = kept_plays(takes, takes, plain)
    assert every.any_declaration


def test_json_is_english_whatever_the_interface() -> None:
    """Keys and values of the JSON in English, in a Russian interface too
    (deal 9: a mistake with a joker's declaration, and the cards that kept the bid)."""
    args = ("analyze", SAMPLE, "--deal", "9", "--samples", "0", "--format", "json")
    en = run_cli(*args)
    ru = run_cli("--lang", "ru", *args)
    assert en.returncode == 0, en.stderr
    assert ru.stdout == en.stdout
    mistakes = [m for d in json.loads(en.stdout)["games"][0]["deals"] for m in d["mistakes"]]
    assert any("declared" in m and m["keeping"] for m in mistakes), mistakes
    assert not any("\u0400" <= ch <= "\u04ff" for ch in json.dumps(
        mistakes, ensure_ascii=False).replace("Анна", "").replace("Вера", ""))


@pytest.mark.parametrize(("lang", "note"), [
    ("en", "note: 3 of the players' deals got no answer within the search budget; a larger --budget "
           "answers more, taking longer\n"),
    ("ru", "примечание: в 3 случаях (игрок в раздаче) ответа в пределах лимита поиска нет; с большим "
           "--budget ответов будет больше, но дольше\n"),
])
def test_deals_left_unanswered_by_the_budget_are_counted_once(lang: str, note: str) -> None:
    env = {"LANG": "ru_RU.UTF-8"} if lang == "ru" else None
    tight = run_cli("analyze", SAMPLE, "--deal", "10", "--budget", "2000", "--samples", "10", env_extra=env)
    assert tight.returncode == 0, tight.stderr
    assert tight.stderr.endswith(note) and tight.stderr.count("\n") == 1
    assert tight.stdout.count("\n") > 3  # the deal is still shown
    # the note comes after the analysis, where it is read (standard error into the same pipe)
    merged = run_cli("analyze", SAMPLE, "--deal", "10", "--budget", "2000", "--samples", "10",
                     env_extra=env, merge_stderr=True)
    assert merged.stdout == tight.stdout + tight.stderr
    roomy = run_cli("analyze", SAMPLE, "--deal", "3", env_extra=env)
    assert roomy.returncode == 0 and roomy.stderr == ""
