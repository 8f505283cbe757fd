"""What `live` says about a game still being played: a leader, not a winner;
and a deal beyond the schedule is named as such, not as "not written yet"."""

from __future__ import annotations

from pathlib import Path

from tests.clikit import run_cli

# deal 1 of a 3-player sheet (1 card): trump, three bids, three counts taken
ONE_DEAL = ["♠", "1", "0", "1", "1", "0", "0"]


def _live(tmp_path: Path, typed: list[str], lang: str) -> str:
    done = run_cli("--lang", lang, "live", str(tmp_path / "g.rsp"), "--players", "Анна, Борис, Вера",
                   stdin="\n".join(typed) + "\n")
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_game_being_played_has_a_leader_not_a_winner(tmp_path: Path) -> None:
    (tmp_path / "en").mkdir()
    (tmp_path / "ru").mkdir()
    english = _live(tmp_path / "en", [*ONE_DEAL, "sheet", "quit"], "en")
    assert "leading: Борис" in english and "winner" not in english
    russian = _live(tmp_path / "ru", [*ONE_DEAL, "расписка", "выход"], "ru")
    assert "впереди: Борис" in russian and "победитель" not in russian


def test_a_deal_beyond_the_schedule_is_said_to_be_none(tmp_path: Path) -> None:
    (tmp_path / "en").mkdir()
    (tmp_path / "ru").mkdir()
    english = _live(tmp_path / "en", [*ONE_DEAL, "edit 30", "quit"], "en")
    assert "the game has 26 deals: there is no deal 30" in english
    russian = _live(tmp_path / "ru", [*ONE_DEAL, "исправить 30", "выход"], "ru")
    assert "в партии 26 раздач: раздачи 30 нет" in russian
