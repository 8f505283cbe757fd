"""Make the README's screenshots of ``raspis report`` (docs/img/*.png).

A demo club (simulated: 8 players of different skill, tables of 3-5, a year
of dates) is loaded into a database; the club page and the game page of one
full-play game are written and photographed in headless Chromium (Selenium),
the terminal charts are rendered as text. Each PNG must stay under 300 KB.

    python scripts/report_screenshots.py [--games 150]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IMG = ROOT / "docs" / "img"
POOL = "Анна,Boris,Вера,Дмитрий,Ольга,Пётр,Света,Тимур"
SKILL = ["Анна=0.95", "Boris=0.9", "Вера=0.85", "Дмитрий=0.8", "Ольга=0.75", "Пётр=0.7", "Света=0.65",
         "Тимур=0.6"]


def raspis(*args: str) -> None:
    """Run the CLI of this checkout."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    subprocess.run([sys.executable, "-m", "raspis_cli", *args], check=True, env=env, cwd=ROOT)


def shoot(page: Path, out: Path, width: int, height: int, scroll_to: str | None = None,
          action: str | None = None) -> None:
    """A PNG of ``page`` at this window size (after scrolling to a CSS selector)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--hide-scrollbars",
                f"--window-size={width},{height}"):
        options.add_argument(arg)
    from selenium.common.exceptions import TimeoutException

    for attempt in range(1, 4):
        driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
        try:
            driver.get(page.resolve().as_uri())
            if scroll_to:
                driver.execute_script(f"document.querySelector({scroll_to!r}).scrollIntoView()")
            if action:
                driver.execute_script(action)
            driver.save_screenshot(str(out))
            break
        except TimeoutException:  # a busy machine: Chromium's renderer did not answer in time
            if attempt == 3:
                raise
            print(f"{out.name}: Chromium timed out, trying again ({attempt + 1} of 3)")
        finally:
            driver.quit()
    size = out.stat().st_size
    print(f"{out.relative_to(ROOT)}: {size // 1024} KB")
    if size >= 300 * 1024:
        raise SystemExit(f"{out} is {size // 1024} KB, over 300 KB")


def main() -> None:
    """Build the demo club, write the pages, take the pictures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=150)
    args = parser.parse_args()
    IMG.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        skill = [a for s in SKILL for a in ("--skill", s)]
        raspis("simulate", "-p", "4", "--players-pool", POOL, "--table-sizes", "3,4,5", "--date-range",
               "2026-01-01..2026-11-30", "-n", str(args.games), "--seed", "7", "--detail", "scores",
               "-o", str(folder / "club.rsp"), "-j", "2", *skill)
        raspis("simulate", "-p", "4", "-n", "1", "--seed", "11", "-o", str(folder / "game.rsp"))
        db = str(folder / "club.duckdb")
        raspis("load", str(folder / "club.rsp"), str(folder / "game.rsp"), "--db", db, "-q")
        raspis("report", "--db", str(folder / "club.duckdb"), "-o", str(folder / "club.html"), "--lang", "en")
        raspis("report", str(folder / "game.rsp"), "-o", str(folder / "game.html"), "--lang", "ru")
        shoot(folder / "club.html", IMG / "club-report.png", 1100, 1500)
        shoot(folder / "club.html", IMG / "club-report-bids.png", 1100, 1100, scroll_to="#bids")
        shoot(folder / "game.html", IMG / "game-report.png", 1100, 1300)
        step = ("var v=document.querySelector('.viewer');v.querySelector('.deal-select').value='8';"
                "v.querySelector('.deal-select').dispatchEvent(new Event('change'));"
                "for(var i=0;i<14;i++){v.querySelector('.next').click();}")
        shoot(folder / "game.html", IMG / "game-replay.png", 1100, 800, scroll_to=".viewer", action=step)


if __name__ == "__main__":
    main()
