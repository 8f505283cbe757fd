"""`raspis live` end to end: a full game typed through a real pseudo-terminal (pexpect),
with a refused forbidden bid, an undo, a comment, a kill mid-game and a resume; and the
same conversation over a pipe for the smaller cases."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from raspis_cli.judge.replay import replay_game
from raspis_cli.notation import read_text
from tests.clikit import run_cli
from tests.livekit import PLAYERS, LiveDriver, planned_game


def _read_game(path: Path) -> object:
    result = read_text(path.read_text(encoding="utf-8"))
    assert not result.diagnostics
    assert len(result.games) == 1
    return result.games[0]


@pytest.mark.slow
def test_a_full_game_typed_in_with_a_refusal_an_undo_a_kill_and_a_resume(tmp_path: Path) -> None:
    simulated, deals = planned_game(seed=7)
    path = tmp_path / "friday.rsp"
    first_dealer = deals[0].dealer
    live = LiveDriver(path, "--players", ", ".join(PLAYERS), "--dealer", first_dealer)
    live.expect("28 deals")
    kill_after = 11
    for deal in deals[:kill_after]:
        if deal.number == 3:
            # the dealer's forbidden bid is named in the prompt and refused
            *others, (dealer, bid) = deal.bids
            forbidden = deal.bids and 3 - sum(b for _, b in others)
            live.expect(r"── deal 3\b")
            live.answer("trump:", str(deal.trump))
            for name, value in others:
                live.answer(rf"{name} bids \([^)]*\):", str(value))
            seen = live.answer(rf"{dealer} \(dealer\) bids \(0-3, not {forbidden}\):", str(forbidden))
            assert "dealer" in seen
            refusal = live.expect(rf"the dealer {dealer} bid {forbidden}, making the bids add up "
                                  r"to 3, the number of cards")
            assert "✗" in refusal
            live.answer(rf"{dealer} \(dealer\) bids", str(bid))
            for name, taken in deal.taken[:-1]:
                live.answer(rf"{name} took[^:]*:", str(taken))
            live.answer(rf"{deal.taken[-1][0]} took[^:]*:", "")
            live.expect("deal 3 · ")
            continue
        if deal.number == 5:
            # a comment typed at a prompt is kept on the deal's line
            live.expect(r"── deal 5\b")
            # Tab completes a player's name (prompt_toolkit, a real terminal)
            live.expect("trump:")
            live.child.send("; Бо\t")
            live.expect("рис")
            live.child.sendline(" опоздал на 5 минут")
            live.expect("comment kept for deal 5")
            live.answer("trump:", str(deal.trump))
            for name, bid in deal.bids:
                live.answer(rf"{name}( \(dealer\))? bids \([^)]*\):", str(bid))
            for name, taken in deal.taken[:-1]:
                live.answer(rf"{name} took[^:]*:", str(taken))
            live.answer(rf"{deal.taken[-1][0]} took[^:]*:", "")
            live.expect("deal 5 · ")
            # undo at the next deal's first prompt: deal 5 is taken back, its last count asked again
            live.answer("trump:", "undo")
            live.expect("deal 5 reopened: its last question is asked again")
            live.answer(rf"{deal.taken[-1][0]} took[^:]*:", "")
            live.expect("deal 5 · ")
            continue
        live.type_deal(deal)
    # killed at the prompt of the next deal, in the middle of its bids
    nxt = deals[kill_after]
    live.expect(rf"── deal {nxt.number}\b")
    live.answer("trump:", str(nxt.trump))
    live.answer(rf"{nxt.bids[0][0]} bids", str(nxt.bids[0][1]))
    live.expect(rf"{nxt.bids[1][0]} bids")
    live.kill()
    # every deal typed before the kill is in the file, which validates; nothing half-written
    game = _read_game(path)
    assert game.unfinished  # type: ignore[attr-defined]
    played = [d for d in game.deals if d.bids or d.taken]  # type: ignore[attr-defined]
    assert [d.number for d in played] == list(range(1, kill_after + 1))
    # (the lock file a kill leaves holds no lock: the next live takes it, and removes it when done;
    # the open deal's answers are kept beside the file, not in it)
    assert [p for p in os.listdir(tmp_path)
            if p not in ("friday.rsp", ".friday.rsp.lock", ".friday.rsp.open")] == []
    check = run_cli("validate", str(path))
    assert check.returncode == 0, check.stdout
    # resume: the deal in progress goes on at its second bid, its trump and first bid restored
    live = LiveDriver(path)
    live.expect(f"{kill_after} deals written; going on")
    live.expect(f"deal {nxt.number}: trump, 1 bid restored")
    for name, bid in nxt.bids[1:]:
        live.answer(live.bid(name), str(bid))
    live.type_taken(nxt)
    for deal in deals[kill_after + 1:]:
        live.type_deal(deal)
    final = live.expect("the game is over: [^\n]*")
    assert live.finish() == 0
    # the sheet is complete, canonical, valid, and scores what the engine scores
    game = _read_game(path)
    assert not game.unfinished  # type: ignore[attr-defined]
    expected = replay_game(simulated).totals
    assert game.totals == expected  # type: ignore[attr-defined]
    assert max(expected.values()) == int(final.split(" with ")[1].split()[0])
    text = path.read_text(encoding="utf-8")
    line5 = next(line for line in text.splitlines() if line.startswith("5. "))
    assert line5.endswith("; Борис опоздал на 5 минут")  # kept through the undo
    assert run_cli("fmt", "--check", str(path)).returncode == 0
    check = run_cli("validate", str(path))
    assert check.returncode == 0, check.stdout
    assert "1 game, 28 deals, 1 valid, 0 violations" in check.stdout
    assert run_cli("live", str(path)).returncode == 2  # finished: nothing to add


def _pipe(path: Path, answers: list[str], *args: str) -> tuple[int, str, str]:
    result = run_cli("live", str(path), *args, stdin="\n".join(answers) + "\n")
    return result.returncode, result.stdout, result.stderr


def test_third_pass_is_refused_where_the_rules_forbid_it(tmp_path: Path) -> None:
    path = tmp_path / "g.rsp"
    # Борис passes in deals 1 and 2, Вера too: in deal 3 neither may pass again
    answers = ["9♥", "0", "0", "0", "1", "0", "",               # deal 1 (Анна deals)
               "Kт", "0", "1", "0", "0", "1", "",               # deal 2 (Борис deals)
               "7♦", "1", "0", "1", "0", "2", "1", "1", "",     # deal 3 (Вера deals)
               "quit"]
    code, out, err = _pipe(path, answers, "-p", "Анна, Борис, Вера", "-r", "classic",
                           "--set", "third_pass=true")
    assert code == 0, err
    assert "Борис bids (0-3, not 0): 0\n  ✗ Борис passed in a third consecutive deal" in out
    # the dealer: no third pass, and not the bid that makes the sum 3
    assert "Вера (dealer) bids (0-3, not 0, 1): 0\n  ✗ Вера passed in a third consecutive deal" in out
    assert "stopped: 3 deals saved" in out
    game = _read_game(path)
    assert game.deals[2].bids == {"Анна": 1, "Борис": 1, "Вера": 2}  # type: ignore[attr-defined]


def test_taken_must_add_up_and_a_quit_keeps_what_was_entered(tmp_path: Path) -> None:
    path = tmp_path / "g.rsp"
    answers = ["9♥", "0", "0", "0", "0",           # bids, Борис first, the dealer Анна last
               "1", "1", "0", "0", "",              # taken: a second 1 would make 2 of 1 card
               "пас", "; Дима вышел", "quit"]
    code, out, _ = _pipe(path, answers, "-p", "Анна, Борис, Вера, Дима")
    assert code == 0
    assert "the taken would add up to 2, more than the 1 card dealt" in out
    assert "Анна took (bid 0) [0]" in out
    assert "is not a card, a suit or '-'" in out  # пас at the trump prompt
    game = _read_game(path)
    assert game.deals[0].scores == {"Анна": 5, "Борис": 1, "Вера": 5, "Дима": 5}  # type: ignore[attr-defined]
    assert game.deals[1].comments == ["; Дима вышел"]  # type: ignore[attr-defined]
    assert run_cli("validate", str(path)).returncode == 0


@pytest.mark.parametrize(("setup", "args", "message"), [
    ("finished", [], "the game is finished"),
    ("broken", [], "has syntax errors"),
    ("other", ["-p", "Анна, Борис, Вера"], "is the game of Анна, Борис, Вера, Дима"),
    ("other", ["-r", "classic"], "its own rules apply"),
    ("missing", [], "give the players with --players"),
])
def test_live_refuses_what_it_cannot_keep(tmp_path: Path, setup: str, args: list[str],
                                          message: str) -> None:
    path = tmp_path / "g.rsp"
    if setup == "finished":
        path.write_text((Path(__file__).parent.parent / "samples" / "raspisnoy-sheet-dispute.rsp")
                        .read_text(encoding="utf-8"), encoding="utf-8")
    elif setup == "broken":
        path.write_text('[Players "Анна, Борис, Вера"]\n1. 1 Анна | 0/1 | x | 0/0\nunfinished\n',
                        encoding="utf-8")
    elif setup == "other":
        assert run_cli("new", "-p", "Анна, Борис, Вера, Дима", "-o", str(path)).returncode == 0
    before = path.read_bytes() if path.exists() else None
    code, _, err = _pipe(path, [], *args)
    assert code == 2
    assert message in err
    assert "Traceback" not in err
    assert (path.read_bytes() if path.exists() else None) == before


@pytest.mark.slow
def test_a_kill_at_any_moment_leaves_a_valid_sheet(tmp_path: Path) -> None:
    """SIGKILL while a script types a whole game through a pipe as fast as it can,
    at several moments after the first save: the file always reads, validates,
    and holds the deals typed so far; a resume cleans up a temporary file left behind."""
    import signal
    import subprocess
    import sys
    import time

    from tests.clikit import ROOT
    from tests.livekit import cli_env

    _, deals = planned_game(seed=11)
    answers = []
    for deal in deals:
        answers += [deal.trump] if deal.trump is not None else []
        answers += [str(b) for _, b in deal.bids] + [str(t) for _, t in deal.taken[:-1]] + [""]
    stdin = ("\n".join(answers) + "\n").encode("utf-8")
    template = tmp_path / "template.rsp"
    assert run_cli("new", "-p", ", ".join(PLAYERS), "--dealer", deals[0].dealer,
                   "-o", str(template)).returncode == 0
    blank = template.read_bytes()
    stopped_early = []
    for k, delay in enumerate((0.0, 0.05, 0.2)):
        path = tmp_path / f"g{k}.rsp"
        path.write_bytes(blank)
        proc = subprocess.Popen([sys.executable, "-m", "raspis_cli", "live", str(path)], cwd=ROOT,
                                env=cli_env(), stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        assert proc.stdin is not None
        proc.stdin.write(stdin)
        proc.stdin.close()
        deadline = time.monotonic() + 60
        while path.read_bytes() == blank and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        game = _read_game(path)
        played = [d.number for d in game.deals if d.bids or d.taken]  # type: ignore[attr-defined]
        assert played == list(range(1, len(played) + 1)) and played
        assert replay_game(game).valid  # type: ignore[arg-type]
        stopped_early.append(game.unfinished)  # type: ignore[attr-defined]
    assert any(stopped_early)  # at least one kill came in the middle of the game
    # a temporary file a kill left behind is removed when the sheet is opened again
    stale = tmp_path / ".g0.rsp.abc123.tmp"
    stale.write_text("half", encoding="utf-8")
    assert run_cli("live", str(tmp_path / "g0.rsp"), stdin="quit\n").returncode == 0
    assert not stale.exists()


def test_write_atomic_leaves_the_old_file_when_the_rename_fails(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from raspis_cli.files import atomic

    path = tmp_path / "sheet.rsp"
    path.write_bytes(b"old")

    def broken_replace(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError):
        atomic.write_atomic(str(path), b"new text")
    assert path.read_bytes() == b"old"
    assert os.listdir(tmp_path) == ["sheet.rsp"]  # the temporary file is removed


def _classic_after_the_fixed_deals(path: Path) -> None:
    """A 4-player classic sheet with its 20 fixed deals played (a simulated
    game's bids and taken): the special deals, whose kinds the table chooses
    (docs/RULES.md §4), come next."""
    from raspis_cli.notation.writer import write_games
    from raspis_cli.rules import Rules
    from raspis_cli.sheet.blank import blank_game, write_results
    from raspis_cli.simulate.game import simulate_game

    rules = Rules.preset("classic")
    played = simulate_game(rules, 4, 3, PLAYERS, "sheet")
    game = blank_game(rules, PLAYERS, "classic", {}, {}, played.deals[0].dealer)
    for deal, sim in zip(game.deals[:20], played.deals[:20], strict=True):
        deal.trump, deal.bids, deal.taken = sim.trump, sim.bids, sim.taken
    game, _ = write_results(game)
    path.write_text(write_games([game]), encoding="utf-8")


def test_the_table_chooses_a_special_deal_and_a_deal_is_replayed(tmp_path: Path) -> None:
    path = tmp_path / "classic.rsp"
    _classic_after_the_fixed_deals(path)
    live = LiveDriver(path)
    live.expect("20 deals written")
    live.answer(r"kind \(no-trump, dark, miser, golden, forehead\) \[no-trump\]:", "обычная")
    live.expect(r"'обычная' is not one of the special deals")  # a kind, but not a special one
    live.answer(r"kind \([^)]*\) \[no-trump\]:", "мизер")
    live.answer("trump:", "♠")
    for name, taken in (("Вера", "0"), ("Дима", "1"), ("Анна", "2"), ("Борис", "")):
        live.answer(rf"{name} took[^:]*:", taken)
    live.expect(r"deal 21 · 9 cards · miser")
    live.answer(r"── deal 22 of 40.*\n.*kind[^:]*:", "пересдача")  # abandoned: dealt again
    live.expect("deal 22 is replayed")
    live.answer(r"── deal 22 of 40.*\n.*kind[^:]*:", "quit")
    assert live.finish() == 0
    game = _read_game(path)
    deals = game.deals  # type: ignore[attr-defined]
    assert (deals[20].kind, deals[20].taken) == ("miser", {"Вера": 0, "Дима": 1, "Анна": 2, "Борис": 6})
    assert deals[21].number == deals[22].number == 22 and deals[21].replayed
    assert deals[22].bids is None and deals[22].dealer == deals[21].dealer
    done = run_cli("validate", str(path))
    assert done.returncode == 0, done.stdout


def test_a_replayed_deal_writes_the_revoke_penalty(tmp_path: Path) -> None:
    path = tmp_path / "joker54.rsp"
    answers = ["♠", "1", "пересдача", "Boris",              # deal 1 abandoned: Boris revoked
               "♥", "1", "0", "0", "1", "0", "", "undo",   # deal 1 dealt again; undo reopens it
               *["undo"] * 6,                               # its six answers taken back
               "undo", "quit"]                              # and the replayed deal too
    code, out, err = _pipe(path, answers, "-p", "Анна, Boris, Вера", "-r", "joker54")
    assert code == 0, err
    assert "deal 1 is replayed (пересдача): it is dealt again by Анна · penalties Boris -50" in out
    assert "deal 1 reopened" in out
    game = _read_game(path)
    assert [d.number for d in game.deals][:2] == [1, 2]  # type: ignore[attr-defined]
    assert not any(d.replayed for d in game.deals)  # type: ignore[attr-defined]
    replayed = tmp_path / "kept.rsp"
    code, out, err = _pipe(replayed, [*answers[:4], "quit"], "-p", "Анна, Boris, Вера", "-r", "joker54")
    first = _read_game(replayed).deals[0]  # type: ignore[attr-defined]
    assert first.replayed and [(p.player, p.points) for p in first.penalties] == [("Boris", -50)]
    assert run_cli("validate", str(replayed)).returncode == 0


def test_a_deal_taken_back_stays_in_the_file_as_written_until_it_is_entered_again(tmp_path: Path) -> None:
    """undo at the next deal's first question reopens the deal before; quitting
    (or a crash) before it is entered again leaves it in the file as it was
    written, and live says so; taking back every one of its answers blanks it."""
    deal1 = ["♥", "1", "0", "0", "1", "0", ""]  # deal 1 of joker54 (the last count by default)
    path = tmp_path / "kept.rsp"
    code, out, err = _pipe(path, [*deal1, "undo", "quit"], "-p", "Анна, Борис, Вера", "-r", "joker54")
    assert code == 0, err
    assert "deal 1 reopened: its last question is asked again" in out
    assert "deal 1 was taken back and not entered again: the sheet keeps it as it was written" in out
    assert "stopped: 1 deal saved in" in out
    first = _read_game(path).deals[0]  # type: ignore[attr-defined]
    assert str(first.trump) == "♥" and sorted(first.bids.values()) == [0, 0, 1]
    assert sorted(first.taken.values()) == [0, 1, 1]
    written = path.read_text(encoding="utf-8")
    code, out, err = _pipe(path, ["quit"])  # resumed: deal 1 is there, and nothing changes
    assert code == 0 and "1 deal written; going on" in out
    assert path.read_text(encoding="utf-8") == written
    blank = tmp_path / "blank.rsp"
    code, out, err = _pipe(blank, [*deal1, "undo", *["undo"] * 6, "quit"], "-p", "Анна, Борис, Вера",
                           "-r", "joker54")
    assert code == 0, err
    assert "not entered again" not in out and "stopped: 0 deals saved in" in out
    assert _read_game(blank).deals[0].bids is None  # type: ignore[attr-defined]


@pytest.mark.parametrize(("lang", "typed", "offered"), [("en", "edit 1", "trump [K♣]: "),
                                                          ("ru", "исправить 1", "козырь [К♣]: ")])
def test_an_edit_offers_the_trump_card_in_the_readers_notation(tmp_path: Path, lang: str, typed: str,
                                                               offered: str) -> None:
    """Deal 1's trump, the king of clubs, typed as ``K♣``: an edit offers it in
    the brackets as the notation in the reader's language writes it (a Russian
    К, not a Latin K), and Enter keeps it."""
    path = tmp_path / "g.rsp"
    answers = ["K♣", "0", "0", "0", "0", "0", "1", typed, "", "", "", "", "", "", "", "quit"]
    result = run_cli("live", str(path), "-p", "Анна, Борис, Вера", stdin="\n".join(answers) + "\n",
                     env_extra={"LANG": "ru_RU.UTF-8" if lang == "ru" else "en_US.UTF-8"})
    assert result.returncode == 0, result.stderr
    assert offered in result.stdout, result.stdout
    # Enter kept it: deal 1's line still has the king the scorekeeper typed
    assert re.search(r"^1\.\s+1\s+Анна\s+K♣\s+\|", path.read_text(encoding="utf-8"), re.M)
