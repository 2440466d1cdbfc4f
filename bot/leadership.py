"""One active instance at a time (issue 18): the lease "leader" in the database.

An instance started with `INSTANCE_NAME` works only while it holds the lease: it polls
Telegram (or takes the webhook's posts), runs the turn clocks, the computers and the
announcements. Until then it is a standby: it holds its database connection, answers
`/healthz`, and in webhook mode answers Telegram's posts 503 so that the proxy passes
them to the leader; it asks for the lease every `ttl / 3` seconds and, once the
leader's has run out, takes it and picks up every running game as a restart does.

The leader renews its lease every `ttl / 3` seconds. If another holds it (the leader
was cut off for longer than `ttl` and a standby took over), or the database cannot
renew it before it runs out, the leader has no right to act any more: `on_lost` stops
the process at once (exit code 75), without finishing what it was doing, so that two
instances never act together; its supervisor starts it again as a standby. A stop
asked for (SIGTERM) releases the lease, so a standby takes over at once.

A restarted instance of the same name takes its own lease back at once: its name
holds it. So each instance needs a name of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Awaitable, Callable

from storage import leases
from storage.db import DATABASE_ERRORS, Database

log = logging.getLogger(__name__)

LEADER = "leader"  # the lease's name
DEFAULT_TTL = 15.0  # LEASE_SECONDS
LOST_EXIT_CODE = 75  # EX_TEMPFAIL: start me again (as a standby)
# A renewal refused, or not answered in time.
RENEWAL_FAILURES: tuple[type[Exception], ...] = (*DATABASE_ERRORS, TimeoutError)


def stop_now() -> None:
    """The lease is lost: leave at once (see the module's docstring)."""
    logging.shutdown()
    os._exit(LOST_EXIT_CODE)


class Leadership:
    """The lease "leader" of one named instance: wait for it, keep it, give it back."""

    def __init__(
        self,
        db: Database,
        name: str,
        *,
        ttl: float = DEFAULT_TTL,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        on_lost: Callable[[], None] = stop_now,
    ) -> None:
        self.db = db
        self.name = name
        self.ttl = ttl
        self._clock = clock
        self._sleep = sleep
        self._on_lost = on_lost
        self._expires: float | None = None  # our lease's end, while we hold it
        self._renewing: asyncio.Task[None] | None = None

    @property
    def leading(self) -> bool:
        return self._expires is not None

    @property
    def role(self) -> str:
        """The role, as /healthz shows it: "leader" or "standby"."""
        return "leader" if self.leading else "standby"

    async def acquire(self) -> None:
        """Return once this instance holds the lease (at once when it is free, run out,
        or this name's already), and keep renewing it from then on."""
        told = False
        while not await self._try():
            if not told:
                held = await self._current()
                log.info(
                    "standby as %r: the lease is held by %r; waiting to take over",
                    self.name,
                    held.holder if held else "?",
                )
                told = True
            await self._sleep(self.ttl / 3)
        log.info(
            "leader as %r (the lease runs %.0f s, renewed every %.0f s)",
            self.name,
            self.ttl,
            self.ttl / 3,
        )
        self._renewing = asyncio.get_running_loop().create_task(self._renew())

    async def release(self) -> None:
        """At a stop asked for: no more renewing, and the lease given back."""
        task, self._renewing = self._renewing, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        if self._expires is None:
            return
        self._expires = None
        try:
            await leases.release(self.db, LEADER, self.name)
        except DATABASE_ERRORS as exc:
            log.warning("the lease is not given back (%s): it runs out by itself", exc)
        else:
            log.info("the lease is given back")

    async def _try(self) -> bool:
        now = self._clock()
        try:
            taken = await leases.take(self.db, LEADER, self.name, now=now, ttl=self.ttl)
        except DATABASE_ERRORS as exc:
            log.warning("the lease cannot be asked for now: %s", exc)
            return False
        if taken:
            self._expires = now + self.ttl
        return taken

    async def _current(self) -> leases.Lease | None:
        with contextlib.suppress(*DATABASE_ERRORS):
            return await leases.current(self.db, LEADER)
        return None

    async def _renew(self) -> None:
        while True:
            await self._sleep(self.ttl / 3)
            began = self._clock()
            expires = self._expires or began
            # A renewal still on its way when only `ttl / 6` of the lease is left counts
            # as failed: waiting longer for it could let this instance act on after the
            # lease ran out and a standby took over. (One begun that late, after a stall,
            # has `ttl / 6` still: it is kept, or finds the lease taken, either way.)
            room = max(expires - began - self.ttl / 6, self.ttl / 6)
            try:
                # Not `wait_for`: Python 3.11's may swallow `release`'s cancellation.
                async with asyncio.timeout(room):
                    kept = await leases.take(self.db, LEADER, self.name, now=began, ttl=self.ttl)
            except RENEWAL_FAILURES as exc:
                reason = str(exc) or "no answer in time"
                left = expires - self._clock()
                if left > self.ttl / 3:
                    log.warning("the lease is not renewed now (%s); tried again", reason)
                    continue
                log.critical(
                    "the lease runs out in %.1f s and cannot be renewed (%s): stopping, "
                    "so that a standby can take over",
                    left,
                    reason,
                )
                self._lost()
                return
            if not kept:
                held = await self._current()
                log.critical(
                    "the lease was taken over by %r: stopping at once, so that two "
                    "instances never act together",
                    held.holder if held else "?",
                )
                self._lost()
                return
            self._expires = began + self.ttl

    def _lost(self) -> None:
        self._expires = None
        self._on_lost()
