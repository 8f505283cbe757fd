"""Make the screenshots of ``raspis serve`` at a phone's size (docs/img/serve-*.png).

A server on 127.0.0.1 keeps a four-player game with six deals entered and the
seventh at the dealer's bid (the forbidden bid struck out); a demo club
(simulated) is served from its database; a 28-deal paper sheet with a disputed
score (samples/raspisnoy-sheet-dispute.rsp, its last deal open) is served
too. A headless Chromium phone (390×844, touch) photographs, in English and in
Russian: the open deal, the running sheet, the club page, and the 28-deal
sheet with the disputed cell tapped (its written value, the recount and why).
Each PNG must stay under 300 KB.

    python -m scripts.serve_screenshots
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.servekit import Served, phone, say
from tests.test_serve_phone import disputed_sheet

ROOT = Path(__file__).resolve().parent.parent
IMG = ROOT / "docs" / "img"


PLAYERS = "Анна, Борис, Вера, Дмитрий"
DEALS = (  # six deals of one to six cards: trump, the bids in bidding order, the counts taken
    ("♥", "1", "0", "0", "1", "1", "0", "0", "0"),
    ("9♠", "1", "0", "0", "0", "1", "0", "1", "0"),
    ("♦", "1", "1", "0", "0", "1", "1", "1", "0"),
    ("К♣", "2", "1", "0", "0", "2", "1", "0", "1"),
    ("-", "1", "2", "1", "0", "1", "2", "1", "1"),
    ("10♥", "2", "1", "2", "0", "2", "2", "2", "0"),
)


def raspis(*args: str) -> None:
    """Run the CLI of this checkout."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    subprocess.run([sys.executable, "-m", "raspis_cli", *args], check=True, env=env, cwd=ROOT)


def shoot(driver: object, out: Path, scroll_to: str | None = None) -> None:
    """A PNG of the phone's screen (after scrolling to a CSS selector)."""
    if scroll_to:
        script = f"document.querySelector({scroll_to!r}).scrollIntoView()"
        driver.execute_script(script)  # type: ignore[attr-defined]
    time.sleep(0.3)
    driver.save_screenshot(str(out))  # type: ignore[attr-defined]
    size = out.stat().st_size
    print(f"{out.relative_to(ROOT)}: {size // 1024} KB")
    if size >= 300 * 1024:
        raise SystemExit(f"{out} is {size // 1024} KB, over 300 KB")


def shoot_dispute(folder: Path) -> None:
    """The 28-deal disputed sheet on a phone, its disputed cell tapped, in each language."""
    with Served(str(disputed_sheet(folder)), "--lan") as served:
        for lang in ("en", "ru"):
            driver = phone(lang)
            try:
                driver.get(served.url)
                driver.execute_script("document.querySelector('.sheet td.disputed').click();"
                                      "document.querySelector('.sheet tr.more:not([hidden])')"
                                      ".scrollIntoView({block: 'end'});")
                shoot(driver, IMG / f"serve-phone-sheet-{lang}.png")
            finally:
                driver.quit()


def main() -> None:
    """Enter the game, build the club, take the pictures."""
    IMG.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        raspis("simulate", "-p", "4", "--players-pool", "Анна,Boris,Вера,Дмитрий,Ольга,Пётр",
               "--table-sizes", "3,4", "--date-range", "2026-01-01..2026-11-30", "-n", "40", "--seed", "7",
               "--detail", "scores", "-o", str(folder / "club.rsp"))
        db = folder / "club.duckdb"
        raspis("load", str(folder / "club.rsp"), "--db", str(db), "-q")
        game = folder / "friday.rsp"
        with Served(str(game), "--players", PLAYERS, "--db", str(db), "--lan") as served:
            for deal in DEALS:
                for word in deal:
                    answer = say(served, word)
                    if not answer["ok"]:
                        raise SystemExit(f"{word}: {answer['message']}")
            for word in ("♣", "2", "3", "1"):  # deal 7: the dealer's bid is asked
                say(served, word)
            for lang in ("en", "ru"):
                driver = phone(lang)
                try:
                    driver.get(served.url)
                    shoot(driver, IMG / f"serve-deal-{lang}.png")
                    shoot(driver, IMG / f"serve-sheet-{lang}.png", scroll_to=".sheet")
                    driver.get(served.base + "club")
                    shoot(driver, IMG / f"serve-club-{lang}.png")
                finally:
                    driver.quit()
        shoot_dispute(folder)


if __name__ == "__main__":
    main()
