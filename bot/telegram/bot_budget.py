"""Telegram's bot-wide limit (about thirty messages a second, TELEGRAM.md: limits) shared
by several instances that all send (`Outgoing(overall=SharedBotBudget(...))`): the
bucket is one row in the database (`storage.bot_budget`) that every instance claims
from, so N instances together never send more than one would. A single instance keeps
the bucket in memory (`limits.overall`), as it always did.

- Claims come in small batches: one claim takes a token for each sender waiting now, up
  to `batch` (five at twenty-five a second: a fifth of a second of the whole rate; fewer
  when the rate is lower), and hands them out here. A bot sending at its full rate makes
  a handful of claims a second, not one a message; a quiet one claims one token a
  message, and holds none it does not need.
- A claim that gets nothing waits until the bucket has refilled what it asked
  (`want / rate`: about `1 / rate` for a single sender, and the batch's time for a queue
  of them, which would wait that long anyway at the bot's rate), then asks again.
- Tokens claimed and not used within `hold` (a sender cancelled meanwhile) are given
  back to the database, not hoarded: another instance may need them. Only tokens taken
  out of the bucket are ever sent, so any stretch of time holds at most the burst and
  the rate's refill, and what was claimed just before it and given out in it (at most
  a batch per instance).
- The database failing never stops sending: each instance falls back to its share of
  the rate, `rate / instances()` (the instances live now, as the caller counts them),
  in a bucket of its own that starts empty, and asks the database again every
  `retry_after`. Its share rather than the whole rate: the database is the same for
  all, so they all fall back together, and their shares add up to the bot's rate; the
  empty start because the shared bucket may have been spent just before. One WARNING a
  burst of failures, one INFO when the database answers again (as
  `bot.telegram.flood_budgets` does). A claim that takes longer than `claim_timeout`
  counts as a failure: a hung database must not hold every message back.

Times: `clock` (monotonic) for what stays here, `wall` (unix seconds) for the database,
whose moments every instance compares (NTP, as for the leases); `sleep` for the waits of
a sender, `rest` for the wait before unused tokens are given back. All injected for the
tests.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from bot.telegram.pacing import Pace, TokenBucket
from storage import bot_budget
from storage.db import DATABASE_ERRORS, Database

log = logging.getLogger(__name__)
T = TypeVar("T")

MAX_BATCH = 5  # tokens one claim takes at most
BATCH_SECONDS = 0.2  # ... and at most this long of the whole rate
HOLD = 1.0  # seconds a claimed token is kept unused before it is given back
RETRY_AFTER = 5.0  # seconds on the local share before the database is asked again
CLAIM_TIMEOUT = 0.5  # seconds a claim may take before it counts as failed

# What makes a claim count as failed: the database's errors, and no answer in time.
FAILURES: tuple[type[Exception], ...] = (TimeoutError, *DATABASE_ERRORS)


class SharedBotBudget:
    """The bot-wide bucket in the database, as `Outgoing`'s `OverallBudget`."""

    def __init__(
        self,
        db: Database,
        pace: Pace,
        *,
        instances: Callable[[], int],
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
        rest: Callable[[float], Awaitable[object]] | None = None,
        hold: float = HOLD,
        retry_after: float = RETRY_AFTER,
        claim_timeout: float = CLAIM_TIMEOUT,
    ) -> None:
        """`pace`: the bot's whole limit (`Limits.overall`); `instances()`: how many
        instances send now, for the share each takes while the database fails."""
        self.db = db
        self.pace = pace
        self.batch = max(1, min(MAX_BATCH, pace.burst, int(pace.rate * BATCH_SECONDS)))
        self._instances = instances
        self._clock = clock
        self._wall = wall
        self._sleep = sleep
        self._rest = rest or sleep
        self.hold = hold
        self.retry_after = retry_after
        self.claim_timeout = claim_timeout
        self._lock = asyncio.Lock()  # one sender at a time takes or claims, in turn
        self._wanting = 0  # senders inside `acquire`, the one taking included
        self._held = 0  # tokens claimed and not given out yet
        self._claimed_at = 0.0  # `clock` when they were claimed
        self._keeper: asyncio.Task[None] | None = None  # gives them back after `hold`
        self._local: TokenBucket | None = None  # this instance's share while the db fails
        self._retry_at = 0.0  # `clock` when the failing database is asked again
        self.claims = 0  # claims the database answered, for tests and metrics

    @property
    def falling_back(self) -> bool:
        """Whether the instance sends on its own share now (the database failing)."""
        return self._local is not None

    async def acquire(self) -> None:
        """Return once this instance may send one more call: a token of the shared
        bucket, or of its own share while the database fails."""
        self._wanting += 1
        try:
            async with self._lock:
                await self._take_one()
        finally:
            self._wanting -= 1

    async def close(self) -> None:
        """Stop the keeper and give back the tokens not used."""
        if self._keeper is not None:
            self._keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._keeper
            self._keeper = None
        async with self._lock:
            await self._give_back()

    async def _take_one(self) -> None:
        while True:
            if self._held and self._clock() - self._claimed_at >= self.hold:
                await self._give_back()
            if self._held:
                self._held -= 1
                return
            if self._local is not None and self._clock() < self._retry_at:
                while (delay := self._local.wait_time()) > 0:
                    await self._sleep(delay)
                self._local.take()
                return
            want = min(self.batch, self._wanting)
            granted = await self._claim(want)
            if granted == 0:
                await self._sleep(want / self.pace.rate)

    async def _claim(self, want: int) -> int | None:
        """Claim `want` tokens into `_held`: how many came (None: the database failed,
        and the local share serves until `_retry_at`)."""
        granted = await self._ask(bot_budget.claim, want)
        if granted is None:
            return None
        self.claims += 1
        self._recovered()
        if granted:
            self._held = granted
            self._claimed_at = self._clock()
            if self._keeper is None or self._keeper.done():
                self._keeper = asyncio.get_running_loop().create_task(self._give_back_unused())
        return granted

    async def _give_back(self) -> None:
        """Return the tokens held to the database; lost if it fails (fewer sent, never
        more)."""
        tokens, self._held = self._held, 0
        if not tokens:
            return
        await self._ask(bot_budget.give_back, tokens)

    async def _give_back_unused(self) -> None:
        """While tokens are held, wait until they are `hold` old, then give them back
        (unless they were given out, or newer ones claimed, meanwhile)."""
        while self._held:
            left = self._claimed_at + self.hold - self._clock()
            if left > 0:
                await self._rest(left)
                continue
            async with self._lock:
                if self._held and self._clock() - self._claimed_at >= self.hold:
                    await self._give_back()

    async def _ask(self, call: Callable[..., Awaitable[T]], tokens: int) -> T | None:
        """`call` (`bot_budget.claim` or `give_back`) on the shared bucket with `tokens`,
        bounded by `claim_timeout`: its answer, or None when it failed (then the local
        share serves until `_retry_at`)."""
        try:
            return await asyncio.wait_for(
                call(
                    self.db,
                    tokens,
                    now=self._wall(),
                    pace_rate=self.pace.rate,
                    burst=self.pace.burst,
                ),
                self.claim_timeout,
            )
        except FAILURES as exc:
            self._fall_back(exc)
            return None

    def _fall_back(self, exc: Exception) -> None:
        self._retry_at = self._clock() + self.retry_after
        if self._local is not None:
            return
        instances = max(1, self._instances())
        share = Pace(self.pace.rate / instances, max(1, self.pace.burst // instances))
        self._local = TokenBucket(share, self._clock, tokens=0.0)
        log.warning(
            "bot-wide budget: the database fails (%s): this instance sends at most "
            "%.1f messages a second on its own until it answers",
            str(exc) or type(exc).__name__,
            share.rate,
        )

    def _recovered(self) -> None:
        if self._local is not None:
            self._local = None
            log.info("bot-wide budget: the database answers again, its bucket is shared again")
