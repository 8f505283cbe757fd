"""The phone app in a real headless Chromium at 390×844 with touch, against a local static
server: the first visit; the server stopped and the page reloaded, and the app still works; a
28-deal game entered offline, with a reload in the middle of a deal; the file shared gives
the same `raspis validate` report as the same game typed through `raspis live`."""

from __future__ import annotations

import datetime
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.appkit import Hosted, enter, message, wait_screen, wait_worker
from tests.browserkit import need_browser
from tests.clikit import run_cli
from tests.livekit import PLAYERS, LiveDriver, planned_game
from tests.servekit import desktop, phone

pytestmark = pytest.mark.slow

SEED = 1
"""A planned game whose first dealer is the first player (as the app's new game deals)."""


@pytest.fixture
def hosted(app_site: tuple[Path, str]) -> Iterator[Hosted]:
    need_browser("raspis app")
    served = Hosted(app_site[0])
    yield served
    served.stop()


def _words(deal: Any) -> list[str]:
    return ([deal.trump] if deal.trump is not None else []) + [str(b) for _, b in deal.bids] + [
        str(t) for _, t in deal.taken]


def _start_game(driver: Any, lang: str, day: str) -> None:
    driver.execute_script("""
        var form = document.getElementById("new-game");
        form.elements.players.value = arguments[0];
        form.elements.preset.value = "raspisnoy";
        form.elements.date.value = arguments[1];
        form.querySelector("button.start").click();""", ", ".join(PLAYERS), day)
    wait_screen(driver, "game", 30)


def _download(driver: Any, folder: Path) -> Path:
    """Tap Share with no Web Share for files (as on a desktop): the file is downloaded."""
    driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(folder)})
    driver.execute_script("Object.defineProperty(navigator, 'canShare', {value: undefined});"
                          "document.querySelector('[data-app=share]').click();")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        done = [p for p in folder.iterdir() if p.suffix == ".rsp"]
        if done:
            time.sleep(0.3)
            return done[0]
        time.sleep(0.2)
    raise AssertionError("nothing was downloaded")


def test_a_game_entered_offline_is_the_game_typed_through_live(hosted: Hosted, tmp_path: Path) -> None:
    _, deals = planned_game(seed=SEED)
    assert deals[0].dealer == PLAYERS[0]
    day = datetime.date.today().isoformat()
    driver = phone("en")
    try:
        driver.set_script_timeout(120)
        driver.get(hosted.url)
        wait_screen(driver, "games")
        assert "No games yet" in driver.find_element("id", "app").text
        wait_worker(driver)
        _start_game(driver, "en", day)
        # the server gone: the app comes back from the phone's own copy and goes on
        hosted.stop()
        driver.refresh()
        wait_screen(driver, "game")
        for deal in deals:
            words = _words(deal)
            if deal.number == 10:  # a reload in the middle of the deal keeps every entry
                enter(driver, words[:3])
                driver.refresh()
                wait_screen(driver, "game")
                assert message(driver) == "deal 10: trump, 2 bids restored"
                words = words[3:]
            enter(driver, words)
            assert message(driver) == f"deal {deal.number} written"
        downloads = tmp_path / "downloads"
        downloads.mkdir()
        shared = _download(driver, downloads)
        assert shared.name == f"{day} {' '.join(PLAYERS)}.rsp"
        width = driver.execute_script("return document.documentElement.scrollWidth")
        assert width <= 390, f"the page is {width} px wide on a 390 px phone"
    finally:
        driver.quit()
    typed = tmp_path / "typed.rsp"
    live = LiveDriver(typed, "--players", ", ".join(PLAYERS))
    for deal in deals:
        live.type_deal(deal)
    assert live.finish() == 0
    assert shared.read_bytes() == typed.read_bytes()
    reports = [run_cli("validate", str(path)) for path in (shared, typed)]
    assert [r.returncode for r in reports] == [0, 0]
    assert reports[0].stdout.replace(str(shared), "FILE") == reports[1].stdout.replace(str(typed), "FILE")


def test_the_app_speaks_russian_and_opens_a_shared_file_on_a_desktop_screen(hosted: Hosted) -> None:
    driver = desktop("ru")
    try:
        driver.set_script_timeout(120)
        driver.get(hosted.url)
        wait_screen(driver, "games")
        text = driver.find_element("id", "app").text
        assert "Партии на этом телефоне" in text and "Новая партия" in text and "Открыть файл .rsp" in text
        sample = Path(__file__).resolve().parent.parent / "samples" / "raspisnoy-sheet-dispute.rsp"
        driver.find_element("id", "import").send_keys(str(sample))
        wait_screen(driver, "game", 30)
        table = driver.find_element("id", "table").text
        assert "✎" in table  # the written values that differ from the recount, as serve shows them
        driver.find_element("css selector", "[data-app=games]").click()
        wait_screen(driver, "games", 10)
        listed = driver.find_element("css selector", "button.game").text
        assert listed.startswith("Анна, Boris, Вера, Дмитрий\n2026-11-20 · записано ")
        body = driver.find_element("tag name", "body").rect
        assert body["width"] <= 760 and body["x"] > 0  # a column in the middle of a wide screen
        # a new game in a second tab too: an entry there is shown here, never overwritten from here
        _start_game(driver, "ru", "2026-12-07")
        first_tab, game_url = driver.current_window_handle, driver.current_url
        driver.switch_to.new_window("tab")
        driver.get(game_url)
        wait_screen(driver, "game")
        enter(driver, ["♥"])
        there = driver.find_element("id", "table").text
        driver.close()
        driver.switch_to.window(first_tab)
        deadline = time.monotonic() + 10
        while driver.find_element("id", "table").text != there:
            assert time.monotonic() < deadline, "the entry made in the other tab is not shown"
            time.sleep(0.1)
        assert "козырь ♥" in there and "Заказ: Борис" in there
    finally:
        driver.quit()
