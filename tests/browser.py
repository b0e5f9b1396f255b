"""Headless Debian Chromium for the browser tests and the viewer benchmark: its path and flags in one place.

Never a downloaded browser: Debian's ``/usr/bin/chromium`` (packages chromium and chromium-driver, installed
by scripts/setup-system), driven by Playwright for Python. The flags keep it off this machine's closed
network (background networking, component updates, sync) and let it run as root.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
)


def launch(playwright: Any) -> Any:
    """A headless Chromium browser from a started ``sync_playwright()``."""
    return playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=list(CHROMIUM_ARGS))
