"""A gate for background work whose places follow the event loop's lag.

Past the bot's capacity everything waits in one queue: the event loop's. A press's
answer is a few steps on the loop, and each step waits behind every callback that is
ready before it: thousands of hand edits, their answers, their renders. A fixed bound
on the background passes (a semaphore) does not help once the loop is the bottleneck:
200 passes at once are as many ready callbacks ahead of a press at 2,000 games as at
20.

`LagGate` bounds them by what the loop can take. While it is in use it looks at the
loop every `every` seconds: how late its own timer fired is the loop's lag, the wait of
anything that became ready. Above `target` it takes a quarter of its places away (not
below `least`); below it, it gives some back (up to `most`). So when the loop is late,
background passes wait at the gate, each one's marks piling up into one pass
(`bot.infra.workers.Resync`), and the presses go through; when the loop keeps up, the
gate is as wide as before. Additive increase, multiplicative decrease: TCP's way of
sharing what it cannot see.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from types import TracebackType

from bot.infra import perf

TARGET_LAG = 0.05  # seconds late the loop may run before the gate narrows
LOOK_EVERY = 0.1  # seconds between two looks at the loop, while the gate is in use
NARROWING = 0.75  # places kept when the loop is late


class LagGate:
    """An async context manager (like `asyncio.Semaphore`) with `places` places, between
    `least` and `most`, narrowed while the loop is late (see the module's docs). Waiters
    get a place in the order they came."""

    def __init__(
        self,
        most: int,
        *,
        least: int = 8,
        target: float = TARGET_LAG,
        every: float = LOOK_EVERY,
        name: str | None = None,
    ) -> None:
        if not 1 <= least <= most:
            raise ValueError(f"a gate needs 1 <= least <= most, not {least} and {most}")
        self.most = most
        self.least = least
        self.target = target
        self.every = every
        self.places = most  # places now
        self.taken = 0  # places held now
        self.lag = 0.0  # the loop's lag at the last look (seconds)
        self.narrowed = 0  # looks that found the loop late (tests)
        # `bot.infra.perf`'s counter of the late looks (/metrics, bench/e2e.py per move).
        self._counter = None if name is None else f"gate.{name}.late"
        self._waiters: deque[asyncio.Future[None]] = deque()
        self._look: asyncio.TimerHandle | None = None
        self._due = 0.0

    @property
    def waiting(self) -> int:
        """Waiters not given a place yet (a cancelled one leaves the queue at once)."""
        return len(self._waiters)

    async def __aenter__(self) -> None:
        await self.acquire()

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()

    async def acquire(self) -> None:
        """Take a place: at once if one is free and nobody waits before, else in turn."""
        loop = asyncio.get_running_loop()
        self._watch(loop)
        if self.taken < self.places and not self.waiting:
            self.taken += 1
            return
        waiter: asyncio.Future[None] = loop.create_future()
        self._waiters.append(waiter)
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self.release()  # handed a place in the instant of the cancel: passed on
            else:
                with contextlib.suppress(ValueError):
                    self._waiters.remove(waiter)
            raise

    def release(self) -> None:
        """Give a place back (the next waiter takes it, if the gate is not narrower)."""
        self.taken -= 1
        self._hand_over()

    def _hand_over(self) -> None:
        while self._waiters and self.taken < self.places:
            waiter = self._waiters.popleft()
            if waiter.done():
                continue  # cancelled, its task not run yet to leave the queue
            self.taken += 1
            waiter.set_result(None)

    def _watch(self, loop: asyncio.AbstractEventLoop) -> None:
        """Look at the loop from now on, if nobody does."""
        if self._look is None:
            self._due = loop.time() + self.every
            self._look = loop.call_at(self._due, self._measure, loop)

    def _measure(self, loop: asyncio.AbstractEventLoop) -> None:
        """The timer fired: how late is the loop's lag; narrow or widen the gate, and look
        again while the gate is in use."""
        self.lag = max(0.0, loop.time() - self._due)
        if self.lag > self.target:
            self.narrowed += 1
            if self._counter is not None:
                perf.count(self._counter)
            self.places = max(self.least, int(self.places * NARROWING))
        else:
            self.places = min(self.most, self.places + max(1, self.most // 25))
        self._hand_over()
        self._look = None
        if self.taken or self.waiting:
            self._watch(loop)

    def close(self) -> None:
        """Stop looking at the loop (the bot's stop)."""
        if self._look is not None:
            self._look.cancel()
            self._look = None
