"""Where the system's Chromium and its driver are, and the loud skip when they are not.

The browser tests (``test_report.py``, ``test_serve.py``) drive the system Chromium through
Selenium; ``.ci/run`` installs it. Without it they skip, saying so where nobody can miss it.
"""

from __future__ import annotations

import shutil
import sys
import warnings
from pathlib import Path

import pytest

CHROMIUM = next((p for p in ("/usr/bin/chromium", "/usr/bin/chromium-browser") if Path(p).exists()), None)
DRIVER = shutil.which("chromedriver") or ("/usr/bin/chromedriver" if Path("/usr/bin/chromedriver").exists()
                                          else None)


def need_browser(what: str) -> None:
    """Skip (loudly: a warning and a banner on stderr) when Chromium or its driver is missing;
    ``what`` names the tests skipped (``raspis serve``)."""
    if CHROMIUM is None or DRIVER is None:
        message = (f"CHROMIUM NOT FOUND: the browser tests of {what} are SKIPPED "
                   "(apt-get install chromium chromium-driver; .ci/run installs them)")
        warnings.warn(message, stacklevel=2)
        sys.stderr.write("\n" + "!" * 80 + "\n" + message + "\n" + "!" * 80 + "\n")
        pytest.skip(message)
