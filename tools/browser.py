"""Opening a report page in a real browser: Debian's Chromium, driven by Playwright.

Nothing is downloaded: Playwright for Python (the ``test`` extra) drives the
Chromium the system has (``/usr/bin/chromium``, Debian's ``chromium``
package; ``ITCP_CHROMIUM`` names another), never a browser of its own
(``playwright install`` is not needed).  Chromium starts headless with a fresh
profile and without its background network traffic, so it runs on a machine
with no network.  The browser test (``tests/test_report_browser.py``) and the
README's screenshot (``python -m tools.screenshot``) both start it here.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from pathlib import Path

#: Chromium's flags: headless, no sandbox (CI runs as root), no GPU, and none of
#: the background connections a closed network refuses.
CHROMIUM_ARGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync")


def chromium_path() -> str | None:
    """The Chromium to drive: ``$ITCP_CHROMIUM``, else /usr/bin/chromium, else
    ``chromium`` on the PATH; None if there is none."""
    for cand in (os.environ.get("ITCP_CHROMIUM"), "/usr/bin/chromium",
                 shutil.which("chromium")):
        if cand and Path(cand).is_file() and os.access(cand, os.X_OK):
            return cand
    return None


def missing() -> str | None:
    """Why a browser cannot be driven here (None: it can)."""
    try:  # lazy: playwright is optional (the 'test' extra)
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return ("Playwright for Python is not installed (pip install -e '.[test]' installs "
                "it)")
    if chromium_path() is None:
        return ("no Chromium at /usr/bin/chromium (install Debian's package: apt-get install "
                "chromium; or set ITCP_CHROMIUM)")
    return None


@contextlib.contextmanager
def page(width: int = 1280, height: int = 900):
    """A fresh headless Chromium page (a new, empty profile each time)."""
    from playwright.sync_api import sync_playwright  # lazy: playwright is optional
    exe = chromium_path()
    if exe is None:
        raise RuntimeError(missing())
    profile = tempfile.mkdtemp(prefix="itcp-chromium-")
    try:
        with sync_playwright() as pw:
            ctx = pw.chromium.launch_persistent_context(
                profile, executable_path=exe, headless=True, args=list(CHROMIUM_ARGS),
                viewport={"width": width, "height": height})
            try:
                yield ctx.pages[0] if ctx.pages else ctx.new_page()
            finally:
                ctx.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)


__all__ = ["page", "chromium_path", "missing", "CHROMIUM_ARGS"]
