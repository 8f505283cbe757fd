"""``raspis serve`` killed and started again: the phones' page notices, says it is offline, and goes
on by itself on the same address (the access code kept beside the file, the open deal's answers
too); a reload after the restart needs no new link (the cookie); ``raspis live`` killed in the
middle of a deal goes on with it. In English and in Russian.

The server runs as a person starts it (``raspis serve FILE --lan``, with an access code, but bound
to 127.0.0.1 as every serve test is: the code is used because of ``--lan``, whatever the address),
killed with SIGKILL, and started again on the same port.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.browserkit import need_browser
from tests.livekit import PLAYERS, LiveDriver, planned_game
from tests.servekit import Served, free_port, phone

pytestmark = pytest.mark.slow  # a server killed and started again under phones in Chromium

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

WORDS = {
    "en": {"offline": "offline: the server does not answer",
           "not_sent": "not sent: the server does not answer", "online": "connected again",
           "restored": "deal 1: trump, 2 bids restored", "written": "deal 1 written"},
    "ru": {"offline": "нет связи: сервер не отвечает", "not_sent": "не отправлено: сервер не отвечает",
           "online": "связь восстановлена", "restored": "раздача 1: восстановлено: козырь, 2 заказа",
           "written": "раздача 1 записана"},
}


def _wait(driver: Any, condition: str, seconds: float = 20) -> Any:
    """Wait until the JavaScript ``condition`` is true."""
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, seconds, poll_frequency=0.05).until(
        lambda d: d.execute_script(f"return {condition};"))


def _tap(driver: Any, word: str) -> None:
    """Tap the key that says ``word`` and wait for the page to take the answer."""
    from selenium.webdriver.common.by import By

    driver.find_element(By.CSS_SELECTOR, f'#table button[data-say="{word}"]').click()
    _wait(driver, "!document.getElementById('table').classList.contains('busy')")


def _text(driver: Any, css: str) -> str:
    from selenium.webdriver.common.by import By

    return str(driver.find_element(By.CSS_SELECTOR, css).text)


def _step(driver: Any) -> str:
    return str(driver.execute_script(
        "var s = document.querySelector('#table [data-step]'); return s ? s.getAttribute('data-step') : '';"))


OFFLINE_SHOWN = "document.getElementById('offline') !== null && !document.getElementById('offline').hidden"


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_phone_goes_on_by_itself_after_the_server_is_killed_and_started_again(lang: str,
                                                                                tmp_path: Path) -> None:
    """Trump and two bids tapped; ``kill -9``; the same page (no reload) says
    it is offline, and a tap then says it was not sent; the server started again
    on the same port and file: the page clears the banner by itself, shows the
    open deal with its trump and bids, and the deal is finished from it. A load
    of the address without the code afterwards is let in by the cookie (kept
    for a month, not only the browser's session)."""
    need_browser("raspis serve")
    words = WORDS[lang]
    game = tmp_path / "evening.rsp"
    port = free_port()
    driver = phone(lang)
    first = Served(str(game), "--players", "Анна, Борис, Вера", "--lan", port=port, lang=lang)
    try:
        driver.get(first.url)
        _tap(driver, "♥")
        _tap(driver, "1")  # Борис
        _tap(driver, "0")  # Вера
        assert _step(driver) == "bid"
        driver.execute_script("window.sameDocument = 'not reloaded';")
        first.kill()
        _wait(driver, OFFLINE_SHOWN, 15)
        assert words["offline"] in _text(driver, "#offline")
        _tap(driver, "1")  # the dealer's bid, tapped while the server is away
        assert _text(driver, "#msg").startswith(words["not_sent"])
        with Served(str(game), "--lan", port=port, lang=lang) as again:
            assert again.url == first.url, "the same address and the same access code"
            assert words["restored"] in "".join(again.printed)
            _wait(driver, "document.getElementById('offline').hidden", 20)
            assert driver.execute_script("return window.sameDocument;") == "not reloaded"
            assert _text(driver, "#msg").startswith(words["online"])
            assert _step(driver) == "bid"
            assert "♥" in _text(driver, ".deal .facts")
            seats = _text(driver, ".order")
            assert re.search(r"Борис\s+1", seats) and re.search(r"Вера\s+0", seats), seats
            _tap(driver, "1")  # Анна, the dealer
            assert _step(driver) == "taken"
            for word in ("1", "0", "0"):
                _tap(driver, word)
            assert _text(driver, "#msg") == words["written"]
            # a reload without the code in the address: the cookie, kept across the restart
            cookie = driver.get_cookie(f"raspis_token_{port}")
            assert cookie is not None and cookie.get("expiry"), cookie  # not a session cookie
            driver.get(again.base)
            _wait(driver, "document.getElementById('table') !== null", 20)
            assert _step(driver) == "trump"
            code, out, _err = again.stop()
        assert code == 0
        stopped = out.strip().splitlines()[-1]
        assert stopped.endswith(f"{game} --lan --host 127.0.0.1 --port {port}"), stopped
        assert re.search(r"\b1\b", stopped.split(";")[0]), stopped
        assert "♥" in game.read_text(encoding="utf-8")
    finally:
        if first.process.poll() is None:
            first.kill()
        driver.quit()


def test_new_code_makes_the_old_link_stop_working(tmp_path: Path) -> None:
    """--new-code: a new code (said so); the address printed before is refused."""
    from tests.servekit import request

    game = tmp_path / "g.rsp"
    with Served(str(game), "--players", "Анна, Борис, Вера", "--lan") as served:
        old = served.token
        assert "the access code is kept in" in "".join(served.printed)
    with Served(str(game), "--lan") as served:
        assert served.token == old
    with Served(str(game), "--lan", "--new-code") as served:
        assert served.token != old
        assert "a new access code: the links and QR codes printed before no longer open the page" in "".join(
            served.printed)
        assert request(served, "api/view", token=old)[0] == 403
        assert request(served, "api/view")[0] == 200


def test_a_page_told_the_code_changed_after_a_restart_with_new_code(tmp_path: Path) -> None:
    """The server killed and started again with --new-code on the same port:
    the open page cannot go on with its old code, and says how to join again."""
    need_browser("raspis serve")
    game = tmp_path / "g.rsp"
    port = free_port()
    driver = phone("en")
    first = Served(str(game), "--players", "Анна, Борис, Вера", "--lan", port=port)
    try:
        driver.get(first.url)
        _wait(driver, "document.getElementById('table') !== null")
        first.kill()
        _wait(driver, OFFLINE_SHOWN, 15)
        with Served(str(game), "--lan", "--new-code", port=port) as again:
            assert again.token != first.token
            _wait(driver, "document.getElementById('offline').textContent.indexOf('new access code') >= 0",
                  20)
            assert not driver.execute_script("return document.getElementById('offline').hidden;")
    finally:
        if first.process.poll() is None:
            first.kill()
        driver.quit()


def test_a_disputed_value_is_said_at_the_start_as_live_says_it(tmp_path: Path) -> None:
    """A written score that differs from the recount: serve names it at the
    start, in the words live uses."""
    from tests.clikit import run_cli

    game = tmp_path / "g.rsp"
    assert run_cli("new", "-p", "Анна, Борис, Вера", "-o", str(game)).returncode == 0
    with Served(str(game), "--lan") as served:
        from tests.servekit import say

        for word in ("♣", "1", "0", "1", "1", "0", "0"):
            assert say(served, word)["ok"], word
    text = game.read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if x.startswith("1."))
    game.write_text(text.replace(line, line.replace("10", "12", 1)), encoding="utf-8")
    assert "12" in game.read_text(encoding="utf-8")
    with Served(str(game), "--lan") as served:
        printed = "".join(served.printed)
    live = run_cli("live", str(game), stdin="quit\n")
    said = [x.strip() for x in live.stdout.splitlines() if "written" in x and "recomputed" in x]
    assert said and all(x in printed for x in said), (said, printed)
    assert "written value differs from the recount" in printed


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_live_killed_in_the_middle_of_a_deal_goes_on_with_it(lang: str, tmp_path: Path) -> None:
    """``raspis live`` in a terminal: the trump and two bids of deal 1, then
    SIGKILL; started again, it says what it restored and asks the third bid."""
    _, deals = planned_game(seed=7)
    deal = deals[0]
    assert deal.trump is not None
    path = tmp_path / "friday.rsp"
    live = LiveDriver(path, "--players", ", ".join(PLAYERS), "--dealer", deal.dealer, lang=lang)
    live.expect(live.header(1))
    blank = path.read_bytes()
    live.answer(live.trump(), deal.trump)
    for name, bid in deal.bids[:2]:
        live.answer(live.bid(name), str(bid))
    live.expect(live.bid(deal.bids[2][0]))
    live.kill()
    assert path.read_bytes() == blank, "the open deal's answers are never written in the file"
    again = LiveDriver(path, lang=lang)
    restored = WORDS[lang]["restored"]
    again.expect(re.escape(restored))
    for name, bid in deal.bids[2:]:
        again.answer(again.bid(name), str(bid))
    again.type_taken(deal)
    again.answer(again.trump(), "quit")
    assert again.finish() == 0
    text = path.read_text(encoding="utf-8")
    assert re.search(r"^1\.", text, re.M)
    assert not (tmp_path / ".friday.rsp.open").exists()
