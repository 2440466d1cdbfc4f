"""Renderers for tests/bot/test_render_pool.py that a worker process imports by name
(`bot.infra.render_pool.by_name`): each answers with the process that drew it."""

from __future__ import annotations

import os


def drawn_by(*args: object) -> bytes:
    """The drawing process's id as the picture's bytes (the arguments ignored)."""
    return str(os.getpid()).encode()


def niceness(*args: object) -> bytes:
    """The drawing process's `nice` value as the picture's bytes."""
    return str(os.nice(0)).encode()
