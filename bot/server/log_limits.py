"""Warnings that a stranger can trigger, at most one line per cause a minute.

Anyone who reaches a server of the bot can send it junk as fast as they like; a line per
request would let them fill the disk and bury what matters. `Throttled` writes the first
warning of each cause and counts the rest for a minute; the next line of that cause says
how many were left out, so nothing is hidden, only summed up.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

WINDOW = 60.0  # seconds between two lines of one cause


@dataclass
class _Cause:
    quiet_until: float  # no line of this cause before this moment
    left_out: int = 0  # warnings of this cause not written since its last line


class Throttled:
    """One WARNING per cause a `window`, then a count of those left out.

    A cause is a short fixed text chosen by the code (never one a stranger wrote), so
    the causes are few and their table stays small."""

    def __init__(
        self,
        logger: logging.Logger,
        *,
        window: float = WINDOW,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.logger = logger
        self.window = window
        self.clock = clock
        self._causes: dict[str, _Cause] = {}

    def warning(self, cause: str, message: str, *args: object) -> bool:
        """Log `cause: message % args` unless this cause was logged within the window;
        True if a line was written."""
        now = self.clock()
        known = self._causes.get(cause)
        if known is not None and now < known.quiet_until:
            known.left_out += 1
            return False
        left_out = known.left_out if known is not None else 0
        self._causes[cause] = _Cause(quiet_until=now + self.window)
        text = f"{cause.replace('%', '%%')}: {message}"
        if left_out:
            text += f" (and {left_out} more like it since the last such line)"
        self.logger.warning(text, *args)
        return True
