"""Debian's Chromium for the browser tests, driven through Playwright by its
`executable_path` (no browser is downloaded). `.ci/run` installs Chromium where apt-get
can; where it is missing, the test asking for it is skipped and says what to install."""

from __future__ import annotations

import os
import shutil

import pytest


def chromium(elsewhere: str = "") -> str:
    """The Chromium to drive (`CHROMIUM`, else the one on the PATH), or skip the test;
    `elsewhere` names what still tests the same without a browser."""
    found = (
        os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    )
    if not found:
        reason = "Chromium is not installed: `apt-get install chromium` installs it"
        pytest.skip(f"{reason} ({elsewhere})" if elsewhere else reason)
    return found
