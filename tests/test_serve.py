"""``raspis serve``: the table's page on phones, as the players meet it.

Each test starts the server as a person does (``raspis serve FILE --lan``, on
127.0.0.1 only, any free port), joins by the address it prints, and stops it
with Ctrl-C (or ``kill -9``). The phones are headless Chromium at 390×844 with
touch emulation (Selenium, as the report tests drive it); without Chromium the
browser tests skip, loudly. Screenshots go to ``tests/output/``.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browserkit import need_browser
from tests.clikit import ROOT, run_cli
from tests.servekit import PHONE, Served, desktop, phone, play_deal, request, say, view

pytestmark = pytest.mark.slow  # phones in headless Chromium against a running server

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

HOSTILE = "<script>alert(1)</script>"
PLAYERS = f"Анна, Борис, {HOSTILE}"
OUTPUT = Path(os.environ.get("RASPIS_TEST_OUTPUT") or ROOT / "tests" / "output")




@pytest.fixture(scope="module")
def phones() -> Iterator[list[Any]]:
    """Two phones (one for each of two players), for the whole module."""
    need_browser("raspis serve")
    first = phone("en")
    try:
        second = phone("en")
        try:
            yield [first, second]
        finally:
            second.quit()
    finally:
        first.quit()


def _fresh(driver: Any) -> Any:
    """The phone on a blank page, the console of its last page forgotten."""
    driver.get("about:blank")
    driver.get_log("browser")
    return driver


def _errors(driver: Any) -> list[Any]:
    return [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]


def _wait(driver: Any, condition: str, seconds: float = 20) -> Any:
    """Wait until the JavaScript ``condition`` is true (the page updated)."""
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, seconds, poll_frequency=0.05).until(
        lambda d: d.execute_script(f"return {condition};"))


def _version(driver: Any) -> int:
    return int(driver.execute_script("return document.getElementById('table').getAttribute('data-version')"))


def _tap(driver: Any, word: str) -> int:
    """Tap the key that says ``word`` and wait for the page to take the answer."""
    from selenium.webdriver.common.by import By

    key = driver.find_element(By.CSS_SELECTOR, f'#table button[data-say="{word}"]')
    key.click()
    # the click marks the table busy at once, and the page clears the mark only after it has
    # shown the server's answer (a message left from the tap before is no sign of this one's)
    _wait(driver, "!document.getElementById('table').classList.contains('busy')")
    return _version(driver)


def _ask(driver: Any) -> str:
    from selenium.webdriver.common.by import By

    return str(driver.find_element(By.ID, "ask").text)


def _keys(driver: Any) -> dict[str, bool]:
    """The keys of the question: word -> whether it can be tapped."""
    from selenium.webdriver.common.by import By

    return {b.get_attribute("data-say"): b.is_enabled()
            for b in driver.find_elements(By.CSS_SELECTOR, "#keys button")}


def _no_sideways_scroll(driver: Any) -> None:
    width = driver.execute_script("return document.documentElement.scrollWidth")
    assert width <= PHONE[0], f"the page is {width} px wide at {PHONE[0]} px: it scrolls sideways"


def _shot(driver: Any, name: str) -> Path:
    OUTPUT.mkdir(parents=True, exist_ok=True)
    path = OUTPUT / name
    driver.save_screenshot(str(path))
    return path


def test_a_phone_joins_by_the_printed_address_and_enters_a_whole_deal(phones: list[Any],
                                                                      tmp_path: Path) -> None:
    """The address printed (with its access code) opens the page; the trump,
    the three bids in bidding order (the dealer's forbidden bid struck out
    before it is chosen), the sum against the cards, the three counts taken:
    the deal is written to the file with the engine's scores, and validates."""
    from selenium.common.exceptions import NoAlertPresentException

    game = tmp_path / "evening.rsp"
    driver = _fresh(phones[0])
    with Served(str(game), "--players", PLAYERS, "--lan") as served:
        printed = "".join(served.printed)
        assert "▀" in printed or "█" in printed, "the QR code of the address is printed"
        driver.get(served.url)
        assert _errors(driver) == []
        _no_sideways_scroll(driver)
        # a hostile name is text, and ran nothing
        assert HOSTILE in driver.find_element("css selector", ".sheet thead").text
        with pytest.raises(NoAlertPresentException):
            driver.switch_to.alert  # noqa: B018
        _shot(driver, "serve-deal-1.png")
        assert _ask(driver) == "Trump"
        _tap(driver, "♥")
        facts = driver.find_element("css selector", ".deal .facts").text
        assert "dealer Анна" in facts and "trump ♥" in facts
        # deal 1 has one card: Борис bids first, the dealer Анна last
        assert _ask(driver) == "Борис bids"
        _tap(driver, "1")
        assert _ask(driver) == f"{HOSTILE} bids"
        _tap(driver, "0")
        assert _ask(driver) == "Анна bids (dealer)"
        keys = _keys(driver)
        assert keys == {"0": False, "1": True}, keys  # 1 + 0 + 0 = 1 card: the dealer may not bid 0
        struck = driver.find_element("css selector", '#keys button[data-say="0"]')
        assert "line-through" in struck.value_of_css_property("text-decoration")
        _tap(driver, "1")
        assert driver.find_element("id", "bid-sum").text == "bids 2 of 1 card: overbid by 1"
        assert _ask(driver) == "Tricks taken by Борис"
        _tap(driver, "1")
        assert _ask(driver) == f"Tricks taken by {HOSTILE}"
        assert _keys(driver) == {"0": True, "1": False}  # one trick in all, Борис took it
        _tap(driver, "0")
        _tap(driver, "0")
        assert driver.find_element("id", "msg").text == "deal 1 written"
        assert driver.find_element("css selector", ".deal b").text.lower() == "deal 2 of 26"
        row = [c.text for c in driver.find_elements("css selector", ".sheet tr.deal-row")[0].find_elements(
            "css selector", "td")]
        assert row == ["1 1 ♥", "1/0 -10", "1/1 10", "0/0 5"], row  # the deal and its cards, Анна, Борис, …
        totals = driver.find_element("css selector", ".sheet thead tr.totals").text
        assert totals.split() == ["Σ", "-10", "★10", "5"], totals  # the leader starred
        _no_sideways_scroll(driver)
        assert _errors(driver) == []
        code, out, _err = served.stop()
    assert code == 0 and "stopped: 1 deal saved" in out, out
    text = game.read_text(encoding="utf-8")
    assert re.search(r"^1\.\s+1\s+Анна\s+♥", text, re.M), text
    done = run_cli("validate", str(game))
    assert done.returncode == 0 and "0 violations" in done.stdout, done.stdout


def test_two_phones_at_once_the_second_entry_is_refused_as_stale(phones: list[Any], tmp_path: Path) -> None:
    """Two phones show the same question; the first taps a bid; the second,
    whose page has not seen it yet (its updates held back, as on a slow
    network), taps too: it is told the sheet changed and shown the sheet as
    it is now, and nothing of its entry is written."""
    game = tmp_path / "two.rsp"
    first, second = (_fresh(p) for p in phones)
    with Served(str(game), "--players", "Анна, Борис, Вера", "--lan") as served:
        for driver in phones:
            driver.get(served.url)
        _tap(first, "♠")
        _wait(second, "document.getElementById('ask').textContent == 'Борис bids'")  # seen within a second
        second.execute_cdp_cmd("Network.enable", {})
        second.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*api/events*", "*api/view*"]})
        try:
            _tap(first, "1")
            assert _ask(first) == "Вера bids"
            assert _ask(second) == "Борис bids"  # this phone has not seen it
            _tap(second, "0")
        finally:
            second.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
        message = second.find_element("id", "msg").text
        assert message.startswith("the sheet changed on another phone"), message
        assert _ask(second) == "Вера bids"  # the sheet as it is now
        assert "msg bad" in second.find_element("id", "msg").get_attribute("class")
        seats = second.find_element("css selector", ".order").text
        assert re.search(r"Борис\s+1", seats), seats  # the first phone's bid, not the second's
        _shot(second, "serve-stale.png")
        assert view(served)["version"] == _version(first) == _version(second)


def test_a_request_without_the_access_code_is_refused(tmp_path: Path) -> None:
    """With --lan every request needs the printed code: none or a wrong one is
    refused (403) with a message saying how to join; a wrong Host, a body too
    large and a body that is not an entry are refused too."""
    with Served(str(tmp_path / "g.rsp"), "--players", "Анна, Борис, Вера", "--lan") as served:
        assert served.token and len(served.token) >= 16
        first = view(served)["version"]
        for path in ("", "api/view", "api/events", "table.js"):
            status, body = request(served, path, token="")
            assert status == 403, (path, status)
            assert b"needs the link raspis serve printed" in body
        status, _body = request(served, "api/say", {"version": 1, "text": "♠"}, token="")
        assert status == 403
        # a code one character off (the last one changed, never to itself)
        last = served.token[-1]
        wrong = served.token[:-1] + ("y" if last == "x" else "x")
        status, _body = request(served, "api/view", token=wrong)
        assert status == 403
        assert request(served, "")[0] == 200
        status, body = request(served, "", headers={"Host": "evil.example:80"})
        assert status == 400 and b"only at its own address" in body
        status, body = request(served, "api/say", b"{" + b" " * 10_000 + b"}")
        assert status == 413
        status, body = request(served, "api/say", b"[1, 2]")
        assert status == 400 and b"not a JSON object" in body
        status, body = request(served, "api/say", {"version": "1", "text": "♠"})
        assert status == 400
        for path in ("../g.rsp", "static/../../g.rsp", "templates/table.html.j2", "club"):
            assert request(served, path)[0] == 404, path
        assert view(served)["version"] == first  # nothing was entered


def test_killed_with_kill_9_mid_game_and_started_again(tmp_path: Path) -> None:
    """Two deals entered and a third begun, then ``kill -9``: started again on
    the same file, the two deals are there (the file validates with both),
    the third goes on from where it was (its trump and first bid kept beside
    the file, not in it), and the game goes on."""
    game = tmp_path / "killed.rsp"
    served = Served(str(game), "--players", "Анна, Борис, Вера", "--lan")
    try:
        for word in ("♣", "1", "0", "1", "1", "0", "0",        # deal 1: one card
                     "♦", "0", "1", "0", "0", "1", "1"):         # deal 2: two cards, the dealer Борис
            answer = say(served, word)
            assert answer["ok"], (word, answer["message"])
        assert say(served, "♥")["ok"] and say(served, "2")["ok"]  # deal 3 begun
    finally:
        served.kill()
    done = run_cli("validate", str(game))
    assert done.returncode == 0 and "0 violations" in done.stdout, done.stdout
    text = game.read_text(encoding="utf-8")
    assert re.search(r"^1\.\s+1\s+Анна\s+♣", text, re.M) and re.search(r"^2\.\s+2\s+Борис\s+♦", text, re.M)
    assert "♥" not in text  # the open deal's trump is kept beside the file, never in it
    with Served(str(game), "--lan") as again:
        assert "deal 3: trump, 1 bid restored" in "".join(again.printed)
        html = view(again)["html"]
        assert "deal 3 of 26" in html and 'data-step="bid"' in html
        assert say(again, "0")["ok"] and say(again, "0")["ok"]  # Борис, then Вера (the dealer: not 1)
        code, out, _err = again.stop()
    assert code == 0 and "stopped: 2 deals saved" in out


def test_the_page_speaks_the_browsers_language(tmp_path: Path) -> None:
    """A Russian phone gets the page in Russian (Accept-Language); ?lang=en
    switches it, and the choice is kept."""
    need_browser("raspis serve")
    driver = phone("ru")
    try:
        with Served(str(tmp_path / "ru.rsp"), "--players", "Анна, Борис, Вера", "--lan") as served:
            driver.get(served.url)
            assert _ask(driver) == "Козырь"
            assert driver.find_element("css selector", "h2").text == "Расписка"
            _shot(driver, "serve-deal-ru.png")
            driver.find_element("css selector", "header nav a").click()
            _wait(driver, "document.getElementById('ask').textContent == 'Trump'")
            driver.get(served.base)
            assert _ask(driver) == "Trump"
            _tap(driver, "-")
            assert _ask(driver) == "Борис bids"
            assert _errors(driver) == []
    finally:
        driver.quit()


def test_the_club_pages_on_a_phone(phones: list[Any], tmp_path: Path) -> None:
    """serve --db: the club page and a game's page from the database, read-only,
    laid out for a phone: no sideways scrolling of the page, head-to-head
    cells on one line, the rating chart's labels readable."""
    db = tmp_path / "club.duckdb"
    assert run_cli("load", str(ROOT / "samples"), "--db", str(db), "-q").returncode == 0
    before = db.stat().st_mtime_ns
    driver = _fresh(phones[0])
    with Served(str(tmp_path / "g.rsp"), "--players", "Анна, Борис, Вера", "--db", str(db)) as served:
        driver.get(served.url)
        driver.find_element("link text", "Club").click()
        _wait(driver, "(document.querySelector('h1') || {textContent: ''}).textContent.startsWith('Club')")
        _no_sideways_scroll(driver)
        assert _errors(driver) == []
        cells = driver.find_elements("css selector", ".h2h td span")
        assert cells
        heights = {c.size["height"] for c in cells}
        assert max(heights) < 24, heights  # one line each
        chart = driver.find_element("css selector", "svg.chart-phone")
        assert chart.is_displayed() and not driver.find_element("css selector", "svg.chart").is_displayed()
        label = chart.find_element("css selector", ".ticks text")
        assert label.size["height"] >= 10, label.size  # not the ~5 px of the wide chart shrunk
        driver.find_element("link text", "Every game").click()
        _wait(driver, "document.querySelectorAll('table.games a').length > 0")
        driver.find_elements("css selector", "table.games a")[0].click()
        _wait(driver, "document.querySelector('table.sheet') !== null")
        _no_sideways_scroll(driver)
        assert driver.find_elements("css selector", ".sheet th.player")
        assert _errors(driver) == []
        assert request(served, "club/game/" + "0" * 20)[0] == 404
        assert request(served, "club/game/../../etc")[0] == 404
    assert db.stat().st_mtime_ns == before  # read-only


def test_serve_needs_a_new_files_players_and_refuses_a_finished_game(tmp_path: Path) -> None:
    done = run_cli("serve", str(tmp_path / "new.rsp"), "--port", "0")
    assert done.returncode == 2 and "--players" in done.stderr
    assert not (tmp_path / "new.rsp").exists()


def test_entries_in_json_and_the_state_version(tmp_path: Path) -> None:
    """Without a token (127.0.0.1) the API answers; each accepted entry moves
    the version on by one, a refused one leaves it; an old version is refused
    with 409 and the current sheet."""
    with Served(str(tmp_path / "g.rsp"), "--players", "Анна, Борис, Вера") as served:
        assert served.token == ""
        first = view(served)
        answer = say(served, "x", first["version"])
        assert not answer["ok"] and answer["version"] == first["version"]
        assert "'x' is not a card, a suit or '-'" in answer["message"]
        answer = say(served, "♠", first["version"])
        assert answer["ok"] and answer["version"] == first["version"] + 1
        stale = say(served, "1", first["version"])
        assert stale["status"] == 409 and stale["stale"] and stale["html"] == view(served)["html"]
        assert json.loads(json.dumps(stale))["version"] == first["version"] + 1


def test_back_undo_and_edit_from_a_phone(phones: list[Any], tmp_path: Path) -> None:
    """Back and Undo step back inside the open deal; a tap on a written
    deal's number reopens it with its values offered; one count changed, the
    scores and totals the server wrote itself are recomputed (and it says
    so). After a restart the values in the file are the person's: the same
    correction undone asks keep or rewrite, and rewrite rewrites them."""
    game = tmp_path / "edit.rsp"
    driver = _fresh(phones[0])
    with Served(str(game), "--players", "Анна, Борис, Вера", "--lan") as served:
        driver.get(served.url)
        for word in ("♣", "1", "0", "1", "1", "0", "0"):  # deal 1: Борис bids and takes the one trick
            _tap(driver, word)
        _tap(driver, "♦")
        _tap(driver, "2")
        assert _ask(driver) == "Анна bids"  # Борис deals deal 2: Вера bids first
        _tap(driver, "back")
        assert _ask(driver) == "Вера bids"  # the bid asked again, its value offered
        assert "offered" in driver.find_element("css selector", '#keys button[data-say="2"]').get_attribute(
            "class")
        _tap(driver, "undo")
        assert _ask(driver) == "Trump"
        driver.find_element("css selector", ".sheet tr.deal-row").click()  # the deal's line opens
        _tap(driver, "edit 1")
        assert driver.find_element("id", "msg").text.startswith("deal 1 reopened")
        assert "editing" in driver.find_element("css selector", ".deal").get_attribute("class")
        assert "offered" in driver.find_element("css selector", '#keys button[data-say="♣"]').get_attribute(
            "class")
        for word in ("♣", "1", "0", "1", "0", "1", "0"):  # the same bids; now Вера took the trick
            _tap(driver, word)
        # the scores and totals were the server's own: recomputed, not asked about
        said = driver.find_element("id", "msg").text
        assert said == "deal 1 corrected; 4 scores and totals raspis had computed itself are recomputed", said
        assert _ask(driver) == "Trump"
    with Served(str(game), "--lan") as served:  # the next session: the file's values are the person's
        driver.get(served.url)
        driver.find_element("css selector", ".sheet tr.deal-row").click()
        _tap(driver, "edit 1")
        for word in ("♣", "1", "0", "1", "1", "0", "0"):  # Борис took the trick after all
            _tap(driver, word)
        # the deal's written scores and totals would change: asked, keeping them offered
        assert _ask(driver).startswith("This correction changes values written on the sheet")
        changes = driver.find_element("css selector", ".changes").text
        assert "deal 1, Борис: score written -10, recounted 10" in changes, changes
        keep = driver.find_element("css selector", '#keys button[data-say="keep"]')
        assert "offered" in keep.get_attribute("class")  # an empty answer keeps them
        _shot(driver, "serve-rewrite.png")
        _tap(driver, "rewrite")
        assert driver.find_element("id", "msg").text.startswith("deal 1 corrected"), \
            driver.find_element("id", "msg").text
        assert _ask(driver) == "Trump"  # deal 2 again, from its start
        assert driver.find_element("css selector", ".deal b").text.lower() == "deal 2 of 26"
        _shot(driver, "serve-edit.png")
        _no_sideways_scroll(driver)
    text = game.read_text(encoding="utf-8")
    first = next(line for line in text.splitlines() if line.startswith("1."))
    cells = [c.split()[0] for c in first.split("|")[1:4]]
    assert cells == ["1/0", "1/1", "0/0"], first  # Анна, Борис, Вера
    done = run_cli("validate", str(game))
    assert done.returncode == 0, done.stdout


def test_a_disputed_sheet_served_keeps_what_was_written(tmp_path: Path) -> None:
    """A paper sheet with a disputed score (deal 17), resumed by serve at deal
    21: the cell is shown as disputed; a deal entered leaves every written
    line as it was, and validate finds the same violation as before."""
    lines = (ROOT / "samples" / "raspisnoy-sheet-dispute.rsp").read_text(encoding="utf-8").splitlines()
    cut = next(i for i, line in enumerate(lines) if line.startswith("21."))
    game = tmp_path / "dispute.rsp"
    game.write_text("\n".join([*lines[:cut], "unfinished", ""]), encoding="utf-8")
    before = run_cli("validate", str(game))
    assert "score-mismatch 1" in before.stdout
    written = [line for line in game.read_text(encoding="utf-8").splitlines() if re.match(r"\d+\.", line)]
    with Served(str(game), "--lan") as served:
        html = view(served)["html"]
        assert html.count('class=" disputed"') + html.count('class="made disputed"') >= 1
        play_deal(served)
        code, out, _err = served.stop()
    assert code == 0 and "stopped: 21 deals saved" in out
    after_lines = game.read_text(encoding="utf-8").splitlines()
    kept = [line for line in after_lines if re.match(r"\d+\.", line)]
    assert [k.split(";")[0].split() for k in kept[:20]] == [w.split(";")[0].split() for w in written]
    after = run_cli("validate", str(game))
    assert "score-mismatch 1" in after.stdout and "21 deals" in after.stdout, after.stdout


def test_a_second_keeper_of_the_same_file_is_refused(tmp_path: Path) -> None:
    """The sheet is locked while served: a second serve (or live) of the same
    file is refused with who keeps it."""
    game = tmp_path / "busy.rsp"
    with Served(str(game), "--players", "Анна, Борис, Вера"):
        done = run_cli("serve", str(game), "--port", "0")
        assert done.returncode != 0 and "raspis serve" in done.stderr, done.stderr


STORED_WORDS = {
    "ru": ["не записан заказ игрока Boris", "5♥ в руке игрока Анна — не карта этой колоды из 36 карт",
           "заказ игрока Анна — 5, а карт 4 (можно от 0 до 4)"],
    "en": ["no bid is written for Boris", "5♥ in Анна's hand is not a card of this 36-card deck",
           "Анна bid 5 with 4 cards (0 to 4)"],
}
"""Violations of samples/errors-friday.rsp as ``raspis validate`` shows them, in each language."""


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_stored_games_violations_in_the_pages_language(lang: str, size: str, tmp_path: Path) -> None:
    """serve --db: a stored game's page shows its violations in the page's
    language (the database keeps them in English), on a phone and on a
    desktop screen, as validate shows them."""
    need_browser("raspis serve")
    db = tmp_path / "club.duckdb"
    assert run_cli("load", str(ROOT / "samples" / "errors-friday.rsp"), "--db", str(db), "-q").returncode == 0
    driver = phone(lang) if size == "phone" else desktop(lang)
    try:
        with Served(str(tmp_path / "g.rsp"), "--players", "Анна, Борис, Вера", "--db", str(db)) as served:
            driver.get(served.base + "club/games")
            _wait(driver, "document.querySelectorAll('table.games a').length > 0")
            driver.find_elements("css selector", "table.games a")[0].click()
            _wait(driver, "document.querySelector('ul.problems') !== null")
            shown = driver.find_element("css selector", "ul.problems").text
            for words in STORED_WORDS[lang]:
                assert words in shown, shown
            assert not any(words in shown for words in STORED_WORDS["en" if lang == "ru" else "ru"]), shown
            if size == "phone":
                _no_sideways_scroll(driver)
            driver.execute_script("document.querySelector('ul.problems').scrollIntoView()")
            _shot(driver, f"serve-stored-violations-{lang}-{size}.png")
            assert _errors(driver) == []
    finally:
        driver.quit()
