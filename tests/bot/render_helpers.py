"""Renderers for tests/bot/test_render_pool.py that a worker process imports by name
(`bot.infra.render_pool.by_name`): each answers with the process that drew it."""

from __future__ import annotations

import os
import time


def drawn_by(*args: object) -> bytes:
    """The drawing process's id as the picture's bytes (the arguments ignored)."""
    return str(os.getpid()).encode()


def niceness(*args: object) -> bytes:
    """The drawing process's `nice` value as the picture's bytes."""
    return str(os.nice(0)).encode()


def hangs_once(marker: str) -> bytes:
    """Hangs (a worker stuck for good) the first time, in whichever process first sees no
    `marker` file; draws the process's id every time after."""
    if not os.path.exists(marker):
        with open(marker, "w"):
            pass
        time.sleep(3600)
    return str(os.getpid()).encode()
