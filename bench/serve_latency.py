"""Milliseconds from an entry tapped on one phone to its appearance on another (raspis serve).

``raspis serve`` runs on 127.0.0.1 (any free port); two headless Chromium
phones (390×844, touch) open the printed address. Phone A taps the key of the
question (a trump, a bid, a count taken) N times; for each tap the time from
the tap (``Date.now()`` in A just before the click) to the moment phone B's
page holds the new version (a MutationObserver in B notes ``Date.now()``) is
measured: the server's check and save, the event to B, B's fetch of the
sheet and its redraw. Both browsers run on this machine, so their clocks are
the same clock. Prints every figure, the median and the target.

    python -m bench.serve_latency [--entries 20]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from tests.servekit import Served, phone

TARGET_MS = 1000.0
"""Every phone sees an entry within a second."""

_WATCH = """
window.seen = {};
new MutationObserver(function () {
  var v = document.getElementById('table').getAttribute('data-version');
  if (!(v in window.seen)) { window.seen[v] = Date.now(); }
}).observe(document.getElementById('table'), {attributes: true});
"""

_SETTLED = """
var table = document.getElementById('table');
return parseInt(table.getAttribute('data-version'), 10) > arguments[0] && !table.classList.contains('busy');
"""

_TAP = """
var key = document.querySelector('#keys button:not([disabled])');
var t = Date.now();
key.click();
return t;
"""


def main() -> None:
    """Start the server and the phones, tap, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        game = Path(folder) / "bench.rsp"
        with Served(str(game), "--players", "Анна, Борис, Вера, Дмитрий", "--lan") as served:
            first, second = phone(), phone()
            try:
                for driver in (first, second):
                    driver.get(served.url)
                second.execute_script(_WATCH)
                delays = []
                for _ in range(args.entries):
                    version = int(first.execute_script(
                        "return document.getElementById('table').getAttribute('data-version')"))
                    tapped = float(first.execute_script(_TAP))
                    wanted = str(version + 1)
                    deadline = time.monotonic() + 10
                    seen = None
                    while seen is None and time.monotonic() < deadline:
                        seen = second.execute_script(f"return window.seen['{wanted}'] || null")
                        if seen is None:
                            time.sleep(0.01)
                    if seen is None:
                        raise SystemExit(f"phone B never showed version {wanted}")
                    delays.append(float(seen) - tapped)
                    # the next tap on a page that has taken this answer
                    while not first.execute_script(_SETTLED, version):
                        time.sleep(0.01)
            finally:
                first.quit()
                second.quit()
    median = statistics.median(delays)
    load = os.getloadavg()
    print(f"raspis serve: entry on phone A → shown on phone B, {len(delays)} entries, localhost")
    print("each (ms): " + " ".join(f"{d:.0f}" for d in delays))
    print(f"median {median:.0f} ms, max {max(delays):.0f} ms · target {TARGET_MS:.0f} ms: "
          + ("met" if median <= TARGET_MS else "missed"))
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
