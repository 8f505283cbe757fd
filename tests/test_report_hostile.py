"""``raspis report`` on hostile records: a bidi override in a name reverses
nothing on the page, and a file of hundreds of games makes a bounded page
from one game's result at a time."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import raspis_cli.report.game as game_module
from raspis_cli.judge.results import GameResult
from raspis_cli.notation import write_games
from raspis_cli.notation.jsoncodec import games_to_json_text
from raspis_cli.rules import Rules
from raspis_cli.simulate.game import simulate_game
from tests.storekit import hand_games, run
from tests.test_report import browser  # noqa: F401  (the fixture)

OVERRIDES = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067"


def _hostile_game(tmp_path: Path) -> Path:
    """A hand game whose player Анна and Event end in RIGHT-TO-LEFT OVERRIDE,
    and a player with a Hebrew name."""
    text = games_to_json_text(hand_games()[:1])
    text = text.replace("Анна", "Анна\\u202e").replace("Hand game 1", "Клуб\\u202e")
    text = text.replace("Boris", "דני")
    path = tmp_path / "bidi.json"
    path.write_text(text, encoding="utf-8")
    return path


def test_no_bidi_control_reaches_the_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "bidi.html"
    code, _, err = run(capsys, "report", str(_hostile_game(tmp_path)), "-o", str(page))
    assert code == 0, err
    html = page.read_text(encoding="utf-8")
    assert not any(ch in html for ch in OVERRIDES)
    assert "Анна\\u202e" in html and "Клуб\\u202e" in html  # shown, as the terminal shows it
    assert "\u2068דני\u2069" in html  # a right-to-left name isolated (what <bdi> does)


@pytest.mark.slow
def test_the_date_reads_left_to_right_in_the_browser(browser: Any, tmp_path: Path,  # noqa: F811
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """In Chromium, the characters of the date after the Event (with its
    override) stand left to right, as written."""
    page = tmp_path / "bidi.html"
    assert run(capsys, "report", str(_hostile_game(tmp_path)), "-o", str(page))[0] == 0
    browser.get(page.resolve().as_uri())
    lefts = browser.execute_script("""
        const h2 = document.querySelector("section.game h2");
        const walker = document.createTreeWalker(h2, NodeFilter.SHOW_TEXT);
        let node; const out = [];
        while ((node = walker.nextNode())) {
            const at = node.data.indexOf("2026-01-10");
            if (at < 0) continue;
            for (let i = at; i < at + 10; i++) {
                const range = document.createRange();
                range.setStart(node, i); range.setEnd(node, i + 1);
                out.push(range.getBoundingClientRect().left);
            }
        }
        return out;""")
    assert len(lefts) == 10 and lefts == sorted(lefts), lefts


def _games(count: int) -> str:
    rules = Rules.preset("raspisnoy")
    return write_games([simulate_game(rules, 4, seed) for seed in range(count)])


@pytest.mark.slow
def test_a_long_file_makes_a_bounded_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """Replays fill at most REPLAY_BUDGET characters of the page; the games
    past it keep their sheet and chart, and say where their replay went."""
    record = tmp_path / "many.rsp"
    record.write_text(_games(6), encoding="utf-8")
    whole = tmp_path / "whole.html"
    assert run(capsys, "report", str(record), "-o", str(whole))[0] == 0
    monkeypatch.setattr(game_module, "REPLAY_BUDGET", len(whole.read_text(encoding="utf-8")) // 3)
    page = tmp_path / "bounded.html"
    code, _, err = run(capsys, "report", str(record), "-o", str(page))
    assert code == 0 and "left out of the page" in err and "from game" in err, err
    html = page.read_text(encoding="utf-8")
    assert len(html) < len(whole.read_text(encoding="utf-8")) * 2 // 3
    assert html.count('class="replay-data"') in range(1, 6)
    assert html.count("replay of this game is left out") == 6 - html.count('class="replay-data"')
    assert html.count('class="sheet"') == 6


@pytest.mark.slow
def test_the_page_holds_one_game_result_at_a_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Without --analyze, each game's result (its replay, the biggest thing
    the report holds) is let go before the next game is read."""
    record = tmp_path / "many.rsp"
    record.write_text(_games(4), encoding="utf-8")
    real = game_module.game_context
    alive: list[int] = []

    def live_results() -> int:
        gc.collect()  # GameResult has slots, no weak references: count the live ones
        return sum(isinstance(o, GameResult) for o in gc.get_objects())

    def watched(results: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        before = live_results()  # other tests' (a module's fixtures) may be alive

        def each() -> Iterator[GameResult]:
            for result in results:
                alive.append(live_results() - before)
                yield result
                del result

        return real(each(), *args, **kwargs)

    monkeypatch.setattr(game_module, "game_context", watched)
    code, _, err = run(capsys, "report", str(record), "-o", str(tmp_path / "page.html"))
    assert code == 0, err
    assert alive == [1, 2, 2, 2]  # the one just read, and the one just shown (its loop variable)
