"""Make the screenshots of the phone app (docs/img/app-*.png).

The app is built (the runtime from ``$RASPIS_PYODIDE`` or raspis's cache) and
served on 127.0.0.1; a headless Chromium phone (390×844, touch) starts a
four-player game in each language, enters six deals and the seventh up to the
dealer's bid (the forbidden bid struck out), and photographs the list of
games, the open deal and the running sheet. Each PNG must stay under 300 KB.

    python -m scripts.app_screenshots
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from scripts.serve_screenshots import DEALS, IMG, PLAYERS, shoot
from tests.appkit import Hosted, built_app, enter, wait_screen
from tests.servekit import phone


def main() -> None:
    """Build the app, play the deals in each language, take the pictures."""
    IMG.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        hosted = Hosted(built_app(Path(tmp) / "site"))
        try:
            for lang in ("en", "ru"):
                driver = phone(lang)
                try:
                    driver.set_script_timeout(120)
                    driver.get(hosted.url)
                    wait_screen(driver, "games")
                    driver.execute_script("""
                        var form = document.getElementById("new-game");
                        form.elements.players.value = arguments[0];
                        form.elements.date.value = "2026-12-04";
                        form.querySelector("button.start").click();""", PLAYERS)
                    wait_screen(driver, "game", 30)
                    for deal in DEALS:
                        enter(driver, list(deal))
                    enter(driver, ["♣", "2", "3", "1"])  # deal 7: the dealer's bid is asked
                    shoot(driver, IMG / f"app-deal-{lang}.png")
                    shoot(driver, IMG / f"app-sheet-{lang}.png", scroll_to=".sheet")
                    driver.execute_script("document.querySelector('[data-app=games]').click()")
                    wait_screen(driver, "games", 10)
                    shoot(driver, IMG / f"app-games-{lang}.png")
                finally:
                    driver.quit()
        finally:
            hosted.stop()


if __name__ == "__main__":
    main()
