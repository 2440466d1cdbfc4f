"""Where every asyncio task of the bot waits now, for finding a stall: `python -m bot` logs
it on SIGUSR2 (`log_tasks`), and the end-to-end tests ask for it when the bot stops
moving. A thread dump (py-spy, faulthandler) shows only the event loop idle in its
selector; this follows each task's chain of awaits instead (`cr_await`), innermost last.

Only places in the code are named (file, line, function), never a value: no hand, no
bazaar, no seed reaches the log through it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from types import CoroutineType, FrameType, GeneratorType
from typing import Any

log = logging.getLogger(__name__)

# The line `log_tasks` begins with (the tests look for it).
LINE_PREFIX = "asyncio tasks now: "

# Awaits followed into one task at most (a chain longer than this is cut).
DEPTH = 40


def awaits(task: asyncio.Task[Any]) -> Iterator[str]:
    """The frames `task` waits in, outermost first, each as "function (file:line)"; last,
    what the innermost awaits when it is no coroutine (a future, a sleep)."""
    awaited: Any = task.get_coro()
    for _ in range(DEPTH):
        frame: FrameType | None
        if isinstance(awaited, CoroutineType):
            frame, inner = awaited.cr_frame, awaited.cr_await
        elif isinstance(awaited, GeneratorType):
            frame, inner = awaited.gi_frame, awaited.gi_yieldfrom
        elif hasattr(awaited, "cr_frame"):  # a coroutine of a C-accelerated or wrapped kind
            frame, inner = awaited.cr_frame, getattr(awaited, "cr_await", None)
        else:
            if awaited is not None:
                yield f"<{type(awaited).__name__}>"
            return
        if frame is None:  # finished
            return
        code = frame.f_code
        yield f"{code.co_name} ({_short(code.co_filename)}:{frame.f_lineno})"
        awaited = inner


def log_tasks() -> None:
    """One WARNING line per task alive now, with the chain it waits in; the first line
    counts them."""
    tasks = sorted(asyncio.all_tasks(), key=lambda task: task.get_name())
    log.warning("%s%d", LINE_PREFIX, len(tasks))
    for task in tasks:
        log.warning("task %s: %s", task.get_name(), " -> ".join(awaits(task)) or "(not started)")


def _short(path: str) -> str:
    """A source path from the project's or the library's root: ".../bot/telegram/x.py"."""
    for root in ("/site-packages/", "/lib/python"):
        if root in path:
            return path.split(root, 1)[1]
    parts = path.rsplit("/", 3)
    return "/".join(parts[-3:])
