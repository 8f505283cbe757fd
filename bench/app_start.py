"""The phone app's weight and speed: the bytes of a first visit, the time to the first usable
screen cold and warm, and the time from a tap to the redraw (headless Chromium).

The app is built (the runtime from ``$RASPIS_PYODIDE`` or raspis's cache) and served on
127.0.0.1. A new Chromium profile (a phone, 390×844, touch) opens it: **cold** is the time
from the navigation to the list of games the first time (the service worker keeps every file,
Python starts, raspis's layers are unpacked and imported); **warm** is the same after a reload
(every file from the phone's own cache) and **offline** after the server is stopped. Then a
game is started and N keys are tapped: the time from the click to the sheet redrawn (the check,
the save to the browser's storage, the page rendered by Python). Prints every figure with its
target, met or missed.

    python -m bench.app_start [--taps 30]
"""

from __future__ import annotations

import argparse
import gzip
import os
import statistics
import tempfile
import time
from pathlib import Path

from raspis_cli.app.bundle import build_app
from tests.appkit import Hosted, wait_screen
from tests.servekit import phone

TARGET_COLD_S = 20.0
"""A first visit on a phone over local Wi-Fi, 2 cores: within 20 s."""
TARGET_WARM_S = 6.0
"""Every later start (from the phone's cache): within 6 s."""
TARGET_TAP_MS = 150.0
"""A tap is shown within 150 ms (the median)."""

_TAP = """
var done = arguments[arguments.length - 1];
var main = document.getElementById('table'), before = main.getAttribute('data-version');
var key = main.querySelector('#keys button:not([disabled])');
var t = performance.now();
key.click();
(function wait() {
  if (main.getAttribute('data-version') !== before) { done(performance.now() - t); }
  else { setTimeout(wait, 1); }
})();
"""


PARTS: list[dict[str, float]] = []


_HAS_KEY = "return !!document.querySelector('#keys button:not([disabled])')"


def _ready(driver: object) -> float:
    wait_screen(driver, "games")
    PARTS.append(driver.execute_script("return window.raspisTimes"))  # type: ignore[attr-defined]
    return float(driver.execute_script("return window.raspisReady")) / 1000  # type: ignore[attr-defined]


def _met(value: float, target: float) -> str:
    return "met" if value <= target else "missed"


def main() -> None:
    """Build, open cold, warm and offline, tap; print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--taps", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        built = build_app(str(Path(folder) / "site"), os.environ.get("RASPIS_PYODIDE"))
        packed = sum(len(gzip.compress((built.folder / name).read_bytes(), 6)) for name in built.files)
        hosted = Hosted(built.folder)
        driver = phone()
        try:
            driver.set_script_timeout(60)
            driver.get(hosted.url)
            cold = _ready(driver)
            driver.refresh()
            warm = _ready(driver)
            hosted.stop()
            driver.refresh()
            offline = _ready(driver)
            driver.execute_script("""
                var form = document.getElementById("new-game");
                form.elements.players.value = "Анна, Борис, Вера, Дмитрий";
                form.querySelector("button.start").click();""")
            wait_screen(driver, "game", 30)
            taps = []
            for _ in range(args.taps):
                if not driver.execute_script(_HAS_KEY):
                    break
                taps.append(float(driver.execute_async_script(_TAP)))
                time.sleep(0.02)
        finally:
            driver.quit()
            hosted.stop()
    load = os.getloadavg()
    tap = statistics.median(taps)
    print(f"raspis app: {len(built.files)} files, first visit {built.total_bytes / 1e6:.1f} MB "
          f"({packed / 1e6:.1f} MB with gzip, as an https host sends them)")
    print(f"first usable screen: cold {cold:.1f} s (target {TARGET_COLD_S:.0f} s: "
          f"{_met(cold, TARGET_COLD_S)}), "
          f"warm {warm:.1f} s, offline {offline:.1f} s (target {TARGET_WARM_S:.0f} s: "
          f"{_met(max(warm, offline), TARGET_WARM_S)})")
    for name, t in zip(("cold", "warm", "offline"), PARTS, strict=True):
        s = {k: v / 1000 for k, v in t.items()}
        print(f"  {name}: page {s['start']:.1f} s, service worker +{s['worker'] - s['start']:.1f}, "
              f"Python started +{s['python'] - s['worker']:.1f}, raspis unpacked "
              f"+{s['unpacked'] - s['python']:.1f}, imported +{s['imported'] - s['unpacked']:.1f}")
    print(f"tap to redraw, {len(taps)} taps: median {tap:.0f} ms, max {max(taps):.0f} ms "
          f"(target {TARGET_TAP_MS:.0f} ms: {_met(tap, TARGET_TAP_MS)})")
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
