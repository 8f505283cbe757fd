"""What `raspis live` must hold against: a second keeper of the same sheet, a change made
on disk behind its back, a sheet that is a symbolic link, odd digits and encodings at its
questions, a dealer who is not a player, comments that would not read back."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from raspis_cli.notation import read_text
from tests.clikit import ROOT, run_cli
from tests.livekit import LiveDriver, cli_env

PLAYERS = "Анна, Борис, Вера"
# deal 1 of a 3-player raspisnoy sheet (Анна deals, Борис bids first): trump, bids, counts
DEAL_1 = ["9♥", "0", "0", "0", "1", "0", ""]


def _new(path: Path) -> None:
    assert run_cli("new", "-p", PLAYERS, "-o", str(path)).returncode == 0


def _pipe(path: Path, answers: list[str], *args: str,
          env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    environment = cli_env()
    environment.update(env or {})
    return subprocess.run([sys.executable, "-m", "raspis_cli", "live", str(path), *args], cwd=ROOT,
                          env=environment, input=("\n".join(answers) + "\n").encode("utf-8"),
                          capture_output=True, timeout=120)


@pytest.mark.slow
def test_a_second_live_on_the_same_sheet_is_refused_naming_the_first(tmp_path: Path) -> None:
    path = tmp_path / "g.rsp"
    _new(path)
    first = LiveDriver(path)
    first.expect("trump:")
    before = path.read_bytes()
    second = _pipe(path, DEAL_1)
    err = second.stderr.decode("utf-8")
    assert second.returncode == 2
    assert "is being kept in another session (raspis live, process " + str(first.child.pid) in err
    assert "Traceback" not in err and path.read_bytes() == before
    # the first goes on and saves; once it has stopped, the sheet is free again
    for text in DEAL_1:
        first.child.sendline(text)
    first.expect("deal 1 · ")
    first.answer("trump:", "quit")
    assert first.finish() == 0
    again = _pipe(path, ["quit"])
    assert again.returncode == 0, again.stderr


def test_a_change_on_disk_is_never_saved_over(tmp_path: Path) -> None:
    path = tmp_path / "g.rsp"
    _new(path)
    live = LiveDriver(path)
    live.expect("trump:")
    changed = path.read_text(encoding="utf-8").replace('[Players', '; written by hand meanwhile\n[Players')
    path.write_text(changed, encoding="utf-8")
    for text in DEAL_1:
        live.child.sendline(text)
    live.expect("was changed on disk by something else since it was read; it is not saved over")
    assert live.finish() == 2
    assert path.read_text(encoding="utf-8") == changed
    copies = [p for p in tmp_path.iterdir() if p.name.endswith(".unsaved.rsp")]
    assert len(copies) == 1  # what live had is kept beside it
    kept = read_text(copies[0].read_text(encoding="utf-8"))
    assert kept.games[0].deals[0].bids == {"Борис": 0, "Вера": 0, "Анна": 0}


def test_a_symlinked_sheet_is_written_through_the_link(tmp_path: Path) -> None:
    real = tmp_path / "club" / "evening.rsp"
    real.parent.mkdir()
    _new(real)
    link = tmp_path / "today.rsp"
    link.symlink_to(real)
    done = _pipe(link, [*DEAL_1, "quit"])
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and os.readlink(link) == str(real)
    game = read_text(real.read_text(encoding="utf-8")).games[0]
    assert game.deals[0].bids == {"Борис": 0, "Вера": 0, "Анна": 0}
    assert sorted(p.name for p in real.parent.iterdir()) == ["evening.rsp"]


@pytest.mark.slow
@pytest.mark.parametrize("digit", ["²", "①", "٣", "３"])
def test_odd_digits_at_a_number_question_are_refused_with_a_message(tmp_path: Path, digit: str) -> None:
    path = tmp_path / "g.rsp"
    done = _pipe(path, ["9♥", digit, *DEAL_1[1:], "quit"], "-p", PLAYERS)
    out = done.stdout.decode("utf-8")
    assert done.returncode == 0, done.stderr
    assert f"'{digit}' is not written with the digits 0-9" in out
    assert "internal error" not in out + done.stderr.decode("utf-8")
    assert run_cli("validate", str(path)).returncode == 0


def test_cyrillic_answers_on_an_ascii_standard_input(tmp_path: Path) -> None:
    path = tmp_path / "g.rsp"
    done = _pipe(path, ["9ч", "пас", "пас", "0", "1", "0", "", "; Дима опоздал", "выход"], "-p", PLAYERS,
                 env={"PYTHONIOENCODING": "ascii", "LC_ALL": "C"})
    err = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 0, err
    assert "Traceback" not in err and "internal error" not in err
    game = read_text(path.read_text(encoding="utf-8")).games[0]
    assert game.deals[0].bids == {"Борис": 0, "Вера": 0, "Анна": 0}
    assert game.deals[1].comments == ["; Дима опоздал"]


def test_a_sheet_whose_dealer_is_not_a_player_is_refused_at_start(tmp_path: Path) -> None:
    path = tmp_path / "g.rsp"
    _new(path)
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    number = next(i for i, line in enumerate(lines) if line.startswith("2. "))
    lines[number] = lines[number].replace("Борис", "Петя")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    before = path.read_bytes()
    done = _pipe(path, DEAL_1)
    err = done.stderr.decode("utf-8")
    assert done.returncode == 2
    assert (f"line {number + 1}: the dealer of deal 2, 'Петя', is not one of the players "
            "(Анна, Борис, Вера)") in err
    assert "internal error" not in err and path.read_bytes() == before


@pytest.mark.parametrize(("comment", "message"), [
    ("; " + "д" * 40_000, "the comment is too long"),
    ("; one\rtwo", "a comment cannot hold a line break, a carriage return or another control character"),
    ("; bell\x07", "a comment cannot hold a line break, a carriage return or another control character"),
])
def test_a_comment_that_would_not_read_back_is_refused(tmp_path: Path, comment: str, message: str) -> None:
    path = tmp_path / "g.rsp"
    done = _pipe(path, ["9♥", comment, *DEAL_1[1:], "; short", "quit"], "-p", PLAYERS)
    out = done.stdout.decode("utf-8")
    assert done.returncode == 0, done.stderr
    assert message in out
    check = run_cli("validate", str(path))
    assert check.returncode == 0, check.stdout
    game = read_text(path.read_text(encoding="utf-8")).games[0]
    assert game.deals[0].comments == [] and game.deals[1].comments == ["; short"]
    assert _pipe(path, ["quit"]).returncode == 0  # and live takes it up again
