"""Waiting on progress, not on the clock: the fake's waits and the end-to-end harness's.

No wait gives the bot a fixed number of seconds: on a machine busy with other work (CI
beside other jobs, two pytest workers a core) the bot is slower, not wrong. A wait ends as
soon as what it waits for happens; it fails when nothing at all has moved for its window
(`Watch`): no call of the bot's but an empty long poll, no update, no CPU used by a watched
process (`FakeTelegram.progress_sources`). The window is stretched by the machine's pace
(`pace()`, the load average per core). As a net for a bot that keeps busy without ever doing
what is awaited, a wait also ends after `CAP_WINDOWS` windows, and says so. Where the end
of a wait is itself modelled (a client that stops waiting for a press's answer), it is a
`Deadline`: a number of seconds stretched by the pace, which progress elsewhere does not
move.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import os
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

# A wait that sees something move all along still ends after this many windows (150 s for
# the usual 5 s one on an idle machine): a bot busy in a loop that never does what is
# awaited fails the test with a reason, well before pytest-timeout's net.
CAP_WINDOWS = 30
# The longest gap between two looks that counts as quiet: a waiter that could not run
# (its process starved of CPU, its event loop blocked by other work) saw nothing, which is
# no sign that nothing moved.
LOOK_GAP = 2.0

T = TypeVar("T")


def cores() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def pace() -> float:
    """How many times slower than an idle machine this one runs now, at least 1: the
    runnable processes per core, as the load average of the last one or five minutes has
    it (whichever is higher: a burst of load shows in the five-minute one last)."""
    try:
        load = max(os.getloadavg()[:2])
    except (AttributeError, OSError):  # no load average here
        return 1.0
    return max(1.0, load / cores())


def describe(predicate: Callable[..., object]) -> str:
    """The source of a predicate (a lambda's line), for a failure's message."""
    try:
        source = inspect.getsource(predicate).strip()
    except (OSError, TypeError):
        return repr(predicate)
    return " ".join(source.split())[:200]


class Watch:
    """A deadline that moves while something moves.

    `check()` raises `TimeoutError` once `progress()` has returned the same value for
    `window` × `pace()` seconds on end (every check while `paused()` holds starts the window
    again), or once the whole wait has lasted `cap` windows although things moved. Pair it
    with short waits: `while not done(): watch.check(); await fake.poll(done, 1.0)`. The
    message names `what` was awaited, how long nothing moved, and `last()`: what happened
    last (optional).
    """

    def __init__(
        self,
        progress: Callable[[], object],
        *,
        window: float,
        what: str,
        paused: Callable[[], bool] | None = None,
        last: Callable[[], str] | None = None,
        cap: float | None = CAP_WINDOWS,
    ) -> None:
        self.progress = progress
        self.window = window
        self.what = what
        self.paused = paused
        self.last = last
        self.cap = cap
        self.mark = progress()
        self.began = self.since = self.looked = time.monotonic()
        self.quiet = 0.0  # seconds seen with no change, gaps between looks capped

    def check(self) -> None:
        now = time.monotonic()
        gap, self.looked = min(now - self.looked, LOOK_GAP), now
        mark = self.progress()
        if mark != self.mark or (self.paused is not None and self.paused()):
            self.mark, self.since, self.quiet = mark, now, 0.0
        else:
            self.quiet += gap
        speed = pace()
        window = self.window * speed
        waited = now - self.began
        if self.quiet > window:
            raise TimeoutError(
                f"{self.what}: nothing moved for {now - self.since:.0f} s (the window: "
                f"{self.window:g} s at the machine's pace {speed:.1f}), {waited:.0f} s in all"
                f"{self._last()}"
            )
        if self.cap is not None and waited > self.cap * window:
            raise TimeoutError(
                f"{self.what}: not in {waited:.0f} s, though something kept moving (the net: "
                f"{self.cap:g} windows of {window:.0f} s){self._last()}"
            )

    def _last(self) -> str:
        if self.last is None:
            return ""
        return f"; last: {self.last()}"


class Deadline:
    """`seconds` stretched by the machine's pace, for a wait whose end is part of what is
    modelled: a client gives up on a press after a while however busy the bot is with
    other chats. Only the time the waiter could look counts (gaps between two looks at
    most `LOOK_GAP`), as in `Watch`."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.looked = time.monotonic()
        self.seen = 0.0
        self.speed = pace()

    def passed(self) -> bool:
        now = time.monotonic()
        self.seen += min(now - self.looked, LOOK_GAP)
        self.looked = now
        self.speed = pace()
        return self.seen > self.seconds * self.speed

    def left(self) -> float:
        """Seconds left, at the pace of the last look."""
        return max(0.0, self.seconds * self.speed - self.seen)

    def __str__(self) -> str:
        return f"{self.seen:.1f} s ({self.seconds:g} s at the machine's pace {self.speed:.1f})"


async def within(work: Awaitable[T], seconds: float, what: str) -> T:
    """`work`'s result, awaited for at most `seconds` of looking stretched by the
    machine's pace (`Deadline`, re-measured as it goes): for a wait on something in this
    process or a child of it (an event, a line of output) that a busy machine delays.
    `TimeoutError` names `what` was awaited."""
    task = asyncio.ensure_future(work)
    deadline = Deadline(seconds)
    try:
        while True:
            done, _ = await asyncio.wait(
                {task}, timeout=min(LOOK_GAP / 2, max(0.05, deadline.left()))
            )
            if done:
                return task.result()
            if deadline.passed():
                raise TimeoutError(f"{what}: not within {deadline}")
    finally:
        if not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
