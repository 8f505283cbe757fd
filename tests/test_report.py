"""``raspis report``: the HTML pages, read as files and used in a real browser.

The browser tests drive the system Chromium (``/usr/bin/chromium`` with
``chromedriver``) through Selenium: the page loads with no console error, the
replay steps through every trick of a deal with the arrow keys, a chart has
one line per player. Screenshots are kept in ``tests/output/`` (or
``$RASPIS_TEST_OUTPUT``). Without Chromium the browser tests skip, loudly.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browserkit import CHROMIUM, DRIVER, need_browser
from tests.clikit import ROOT
from tests.storekit import hand_games, run, write_json

SAMPLES = ROOT / "samples"
OUTPUT = Path(os.environ.get("RASPIS_TEST_OUTPUT") or ROOT / "tests" / "output")


def _report(capsys: pytest.CaptureFixture[str], *args: str) -> None:
    code, out, err = run(capsys, "report", *args, "--force")
    assert (code, err) == (0, ""), err
    russian = "--lang" in args and args[args.index("--lang") + 1:][:1] == ("ru",)
    assert out.startswith("записан " if russian else "wrote "), out  # --lang ru: the interface's too


@pytest.fixture(scope="module")
def full_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 28-deal four-player raspisnoy game with every card, with a hostile name."""
    folder = tmp_path_factory.mktemp("full")
    path = folder / "full.json"
    subprocess.run([sys.executable, "-m", "raspis_cli", "simulate", "-p", "4", "-n", "1", "--seed", "3",
                    "-f", "json", "-o", str(path)], cwd=ROOT, check=True, timeout=120)
    text = path.read_text(encoding="utf-8").replace("Анна", "<script>alert(1)</script>")
    path.write_text(text, encoding="utf-8")
    return path


HOSTILE = "<script>alert(1)</script>"


@pytest.fixture(scope="module")
def analysed_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The first three deals of the 3-player sample (small enough for the
    solver as plain Python), as JSON, Вера renamed to a hostile name."""
    folder = tmp_path_factory.mktemp("analysed")
    lines = (SAMPLES / "raspisnoy-full-3p.rsp").read_text(encoding="utf-8").splitlines(keepends=True)
    short = folder / "short.rsp"
    short.write_text("".join(lines[:next(i for i, line in enumerate(lines) if line.startswith("4."))]),
                     encoding="utf-8")
    path = folder / "short.json"
    subprocess.run([sys.executable, "-m", "raspis_cli", "convert", "--to", "json", str(short),
                    "-o", str(path)], cwd=ROOT, check=True, timeout=120)
    path.write_text(path.read_text(encoding="utf-8").replace("Вера", HOSTILE), encoding="utf-8")
    return path


def _replay_data(html: str) -> list[dict[str, Any]]:
    found = re.findall(r'<script type="application/json" class="replay-data">(.*?)</script>', html, re.S)
    return [json.loads(text) for text in found]


def test_analysis_on_the_page_is_what_analyze_finds(analysed_game: Path, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """report --analyze puts raspis analyze's findings on the replay: the same
    mistakes (trick, player, kind) per deal, a line per player, the table per
    player; record text stays text."""
    out = tmp_path / "analysed.html"
    _report(capsys, str(analysed_game), "--analyze", "--budget", "20000", "-o", str(out), "--lang", "en")
    html = out.read_text(encoding="utf-8")
    assert HOSTILE not in html and "Analysis per player" in html
    code, text, err = run(capsys, "analyze", str(analysed_game), "--samples", "0", "--budget", "20000",
                          "-f", "json")
    assert code == 0, err
    expected = {d["deal"]: sorted((m["trick"], m["player"], m["kind"]) for m in d["mistakes"])
                for d in json.loads(text)["games"][0]["deals"]}
    [replay] = _replay_data(html)
    shown = {d["number"]: sorted((m["t"], m["p"], m["k"]) for m in d["an"]["marks"]) for d in replay["deals"]}
    assert shown == expected and any(shown.values())
    assert all(len(d["an"]["players"]) == 3 for d in replay["deals"])
    marked = [d["number"] for d in replay["deals"] if d["an"]["marks"]]
    assert html.count(" · ✗</option>") == len(marked)
    lost = next(m for d in replay["deals"] for m in d["an"]["marks"] if m["k"] == "lost-bid")
    assert re.fullmatch(r"after \S+, .+ could no longer make the bid of \d+(; .+ would have kept it)?",
                        lost["text"])
    # without --analyze: no analysis; --analyze is for a game file only
    _report(capsys, str(analysed_game), "-o", str(out), "--lang", "en")
    assert "Analysis per player" not in out.read_text(encoding="utf-8")
    code, _, err = run(capsys, "report", "--db", str(tmp_path / "none.duckdb"), "--analyze")
    assert code == 2 and "--analyze is for a game file" in err


def test_game_page_is_one_small_self_contained_file(full_game: Path, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "game.html"
    _report(capsys, str(full_game), "-o", str(out), "--lang", "en")
    html = out.read_text(encoding="utf-8")
    assert len(html.encode("utf-8")) < 500 * 1024
    # nothing from the network: no external script, style, image or font
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)
    assert "<script>alert(1)</script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert html.count('class="series"') == 4  # one line per player in the chart
    assert "Trick-by-trick replay" in html and html.count('<tr class="">') == 28
    assert "No violations" in html


def test_sheet_highlights_written_values_that_differ(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "dispute.html"
    _report(capsys, str(SAMPLES / "raspisnoy-sheet-dispute.rsp"), "-o", str(out), "--lang", "ru")
    html = out.read_text(encoding="utf-8")
    assert "Расписка" in html and "Нарушения" in html
    assert re.search(r'<span class="diff">\(записано [+-]?\d+\)</span>', html)
    assert "Розыгрыш по взяткам" not in html  # a paper sheet has no tricks to replay


def test_club_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "club.duckdb"
    games = hand_games()
    games[0].players[0] = "<b>Ан</b>"
    for deal in games[0].deals:
        for attr in ("bids", "taken", "scores", "totals"):
            values = getattr(deal, attr)
            if values and "Анна" in values:
                values["<b>Ан</b>"] = values.pop("Анна")
        if deal.dealer == "Анна":
            deal.dealer = "<b>Ан</b>"
        for trick in deal.tricks or []:
            for play in trick:
                if play.player == "Анна":
                    play.player = "<b>Ан</b>"
    if games[0].totals:
        games[0].totals["<b>Ан</b>"] = games[0].totals.pop("Анна")
    assert run(capsys, "load", str(write_json(tmp_path / "h.json", games)), "--db", str(db), "-q")[0] == 0
    out = tmp_path / "club.html"
    _report(capsys, "--db", str(db), "-o", str(out), "--lang", "en")
    html = out.read_text(encoding="utf-8")
    for heading in ("Ratings", "Leaderboards by rules and table size",
                    "Bid accuracy by cards dealt and by seat", "Head to head", "The most dramatic games"):
        assert heading in html
    assert "<b>Ан</b>" not in html and "&lt;b&gt;Ан&lt;/b&gt;" in html
    assert 'class="heatmap"' in html and 'class="chart"' in html
    code, _, err = run(capsys, "report", "-o", str(out))
    assert code == 2 and "--db" in err
    code, _, err = run(capsys, "report", "--db", str(tmp_path / "none.duckdb"), "-o", str(out), "--force")
    assert code == 2 and "no database" in err


# --- in a real browser ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    need_browser("raspis report")
    assert CHROMIUM is not None and DRIVER is not None
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1280,1000", "--lang=en-US"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(DRIVER))
    try:
        yield driver
    finally:
        driver.quit()


def _open(driver: Any, page: Path) -> None:
    driver.get(page.resolve().as_uri())
    errors = [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
    assert errors == [], errors


def _shot(driver: Any, name: str, full: bool = True) -> Path:
    OUTPUT.mkdir(parents=True, exist_ok=True)
    path = OUTPUT / name
    if full:
        height = driver.execute_script("return document.body.scrollHeight")
        driver.set_window_size(1280, min(int(height) + 40, 6000))
    driver.save_screenshot(str(path))
    driver.set_window_size(1280, 1000)
    return path


@pytest.mark.slow
def test_replay_in_the_browser(browser: Any, full_game: Path, tmp_path: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    page = tmp_path / "game.html"
    _report(capsys, str(full_game), "-o", str(page), "--lang", "en")
    _open(browser, page)
    # the chart: one line per player
    lines = browser.find_elements(By.CSS_SELECTOR, "svg.chart polyline.series")
    assert len(lines) == 4
    # a hostile name is shown as text, and ran nothing
    assert "<script>alert(1)</script>" in browser.find_element(By.CSS_SELECTOR, ".sheet thead").text
    viewer = browser.find_element(By.CSS_SELECTOR, ".viewer")
    select = viewer.find_element(By.CSS_SELECTOR, ".deal-select")
    options = select.find_elements(By.TAG_NAME, "option")
    assert len(options) == 28
    # a deal of several tricks: step through every card with the arrow key
    for option in options:
        if option.text.split(" · ")[2] == "4 cards":
            option.click()
            break
    status = viewer.find_element(By.CSS_SELECTOR, ".status")
    steps = int(status.get_attribute("data-steps"))
    assert steps == 16
    body = browser.find_element(By.TAG_NAME, "body")
    body.click()
    seen_tricks = set()
    for _ in range(steps):
        body.send_keys(Keys.ARROW_RIGHT)
        seen_tricks.add(int(status.get_attribute("data-trick")))
    assert seen_tricks == {1, 2, 3, 4}
    assert int(status.get_attribute("data-step")) == steps
    assert "wins the trick" in viewer.find_element(By.CSS_SELECTOR, ".trick").text
    body.send_keys(Keys.ARROW_RIGHT)  # past the end: stays at the end
    assert int(status.get_attribute("data-step")) == steps
    # every card of the deal left the hands
    assert not [c for c in viewer.find_elements(By.CSS_SELECTOR, ".hands .card") if "gone" not in
                (c.get_attribute("class") or "")]
    body.send_keys(Keys.ARROW_LEFT)
    assert int(status.get_attribute("data-step")) == steps - 1
    viewer.find_element(By.CSS_SELECTOR, ".first").click()
    assert status.get_attribute("data-step") == "0"
    for _ in range(6):
        viewer.find_element(By.CSS_SELECTOR, ".next").click()
    assert status.get_attribute("data-trick") == "2"
    viewer.location_once_scrolled_into_view  # noqa: B018
    _shot(browser, "game-replay.png", full=False)
    _shot(browser, "game-report.png")
    errors = [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
    assert errors == []


@pytest.mark.slow
def test_joker_declarations_in_words_in_the_browser(browser: Any, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    from selenium.webdriver.common.by import By

    page = tmp_path / "ru.html"
    _report(capsys, str(SAMPLES / "raspisnoy-full-3p.rsp"), "-o", str(page), "--lang", "ru")
    _open(browser, page)
    viewer = browser.find_element(By.CSS_SELECTOR, ".viewer")
    status = viewer.find_element(By.CSS_SELECTOR, ".status")
    declared: list[str] = []
    for option in viewer.find_elements(By.CSS_SELECTOR, ".deal-select option"):
        option.click()
        viewer.find_element(By.CSS_SELECTOR, ".last").click()
        assert status.get_attribute("data-step") == status.get_attribute("data-steps")
        for _ in range(int(status.get_attribute("data-steps"))):
            decl = viewer.find_elements(By.CSS_SELECTOR, ".trick .decl")
            declared += [d.text for d in decl]
            viewer.find_element(By.CSS_SELECTOR, ".prev").click()
        if declared:
            break
    assert declared and any(w in " ".join(declared) for w in ("по старшим", "по младшим", "забрать",
                                                                 "скинуть", "младшая"))
    assert "Взятка" in status.text or status.get_attribute("data-step") == "0"


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_analysis_marks_on_the_replay_in_the_browser(browser: Any, analysed_game: Path, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str], lang: str) -> None:
    """A deal with a mistake: stepping through its first trick marks the card
    that lost or handed a bid, in either language, and says why under the
    trick in that language only."""
    from selenium.webdriver.common.by import By

    page = tmp_path / f"analysed-{lang}.html"
    _report(capsys, str(analysed_game), "--analyze", "--budget", "20000", "--samples", "4",
            "-o", str(page), "--lang", lang)
    _open(browser, page)
    viewer = browser.find_element(By.CSS_SELECTOR, ".viewer")
    option = next(o for o in viewer.find_elements(By.CSS_SELECTOR, ".deal-select option") if "✗" in o.text)
    option.click()
    lines = viewer.find_elements(By.CSS_SELECTOR, ".analysis .an-player")
    shown = " ".join(line.text for line in lines)
    assert len(lines) == 3 and HOSTILE in shown
    first = int(viewer.find_element(By.CSS_SELECTOR, ".analysis .mark").get_attribute("data-trick"))
    status = viewer.find_element(By.CSS_SELECTOR, ".status")
    while int(status.get_attribute("data-trick")) < first or viewer.find_elements(
            By.CSS_SELECTOR, ".trick .mark-line") == []:
        viewer.find_element(By.CSS_SELECTOR, ".next").click()
    assert viewer.find_elements(By.CSS_SELECTOR, ".trick .play.mistake .card")
    said = viewer.find_element(By.CSS_SELECTOR, ".trick .mark-line").text
    words = {"ru": ("уже не выполнить", "подарок"), "en": ("could no longer make", "handed")}[lang]
    assert said.startswith("✗ ") and any(w in said for w in words), said
    body = browser.find_element(By.TAG_NAME, "body").text
    assert {"ru": "Анализ по игрокам", "en": "Analysis per player"}[lang] in body
    # with bid advice, the one line on what "sure of" means and what the bots' figure is
    assert {"ru": "если остальные играют вместе против заказавшего и видят все карты; боты: средний счёт",
            "en": "if the other players play together against the bidder, every card seen; bots: "
                  "the mean score"}[lang] in body
    if lang == "en":  # English words only, but for the players' names
        assert not re.search("[а-яё]", shown.replace("Анна", ""), re.I), shown
    else:
        assert "could" not in shown and "bid" not in shown, shown
    viewer.location_once_scrolled_into_view  # noqa: B018
    _shot(browser, f"game-analysis-{lang}.png", full=False)
    errors = [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
    assert errors == []


@pytest.mark.slow
def test_club_page_in_the_browser(browser: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from selenium.webdriver.common.by import By

    db = tmp_path / "samples.duckdb"
    assert run(capsys, "load", str(SAMPLES), "--db", str(db), "-q")[0] == 0
    page = tmp_path / "club.html"
    _report(capsys, "--db", str(db), "-o", str(page), "--lang", "en")
    _open(browser, page)
    charts = browser.find_elements(By.CSS_SELECTOR, "svg.chart")
    assert charts
    for chart in charts:  # one line per rated player of the pool (up to eight)
        pool = chart.get_attribute("aria-label").rsplit(" · ", 1)[1]
        players = [r for r in browser.find_elements(By.CSS_SELECTOR, "table.ratings tbody tr")
                   if r.find_elements(By.TAG_NAME, "td")[0].text == pool]
        assert len(chart.find_elements(By.CSS_SELECTOR, "polyline.series")) == min(len(players), 8)
    assert browser.find_elements(By.CSS_SELECTOR, "svg.heatmap rect.cell")
    _shot(browser, "club-report.png")


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_report_analyze_says_last_how_many_deals_the_budget_left_unanswered(tmp_path: Path,
                                                                            lang: str) -> None:
    """report --analyze ends as analyze does: after the line that says the
    page was written, once, the players' deals the budget left without an
    answer (the same count as analyze's), in the interface's language. (With
    every deal answered nothing is said: the other --analyze tests.)"""
    from tests.clikit import run_cli

    lines = (SAMPLES / "raspisnoy-full-3p.rsp").read_text(encoding="utf-8").splitlines(keepends=True)
    ten = tmp_path / "ten.rsp"
    ten.write_text("".join(lines[:next(i for i, line in enumerate(lines) if line.startswith("11."))]),
                   encoding="utf-8")
    env = {"LANG": "ru_RU.UTF-8"} if lang == "ru" else None
    page = tmp_path / "page.html"
    tight = run_cli("report", str(ten), "--analyze", "--budget", "2000", "-o", str(page), env_extra=env,
                    merge_stderr=True)
    analysed = run_cli("analyze", str(ten), "--samples", "0", "--budget", "2000", env_extra=env)
    assert tight.returncode == 0 and analysed.returncode == 0, tight.stdout + analysed.stderr
    written, note = tight.stdout.splitlines()
    assert written.startswith("записан " if lang == "ru" else "wrote ")
    assert note == analysed.stderr.strip() and note.startswith("примечание: в " if lang == "ru" else "note: ")
