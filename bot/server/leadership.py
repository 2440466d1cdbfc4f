"""One active instance at a time: the lease "leader" in the database, and its fence.

An instance started with `INSTANCE_NAME` works only while it holds the lease: it polls
Telegram (or takes the webhook's posts), runs the turn clocks, the computers and the
announcements. Until then it is a standby: it holds its database connection, answers
`/healthz`, and in webhook mode answers Telegram's posts 503 so that the proxy passes
them to the leader; it asks for the lease every `ttl / 3` seconds and, once the
leader's has run out, takes it and picks up every running game as a restart does.

Three things keep two instances from ever acting together:

- **The fence.** Each take of the lease begins a new term (`storage.leases`). The leader
  sets `Database.fence` to its term, so every change it writes checks the term inside
  its own transaction and is refused once another term has begun (`storage.db`,
  "Fencing"). A leader paused past its lease (SIGSTOP, a VM pause, a swap stall) that
  resumes after a takeover commits nothing: the first change it tries stops it.
- **The keeper.** The lease is renewed on a thread of its own, with its own event loop
  and its own database connection (`bot.server.keeper_thread`), every `ttl / 3`
  seconds: however long the bot's own loop is busy (picking up a hundred games on a
  loaded machine), the renewal does not wait behind it. The leader steps down only
  when the lease is found taken by another term, never for a renewal that is slow or
  fails: a database that is down for a while delays the renewal, and once it answers
  the leader renews (nobody could take the lease meanwhile either) or finds it taken.
- **The guard.** Telegram is called (polled, sent to) only while the lease is known to
  run: for `ttl - ttl / 6` seconds (the clocks' slack) after the start of the last
  renewal that succeeded (`assured`). A leader cut off from the database, or just
  resumed from a pause, stops polling until a renewal tells it where it stands, so it
  never takes updates it could not store. Answers to presses are not held back (they
  change nothing); the webhook answers 503 meanwhile (`valid`). A long poll already on
  its way when the leader was paused is still open when it resumes, and the new
  leader's first poll ends it: Telegram answers it "Conflict: terminated by other
  getUpdates request". That is a takeover, not a fault: the guard logs it as a WARNING
  and hands aiogram no updates, after a pause (`CONFLICT_PAUSE`), instead of the
  ERROR aiogram would log; the keeper then finds the lease taken and stops the process.

When the lease is found taken, or a change is refused by the fence, `on_lost` stops the
process at once (exit code 75) without finishing anything; its supervisor starts it
again as a standby. A stop asked for (SIGTERM) releases the lease, so a standby takes
over at once.

A restarted instance of the same name takes its own lease back at once, in a new term:
its name holds it. So each instance needs a name of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram.client.session.middlewares.base import (
    BaseRequestMiddleware,
    NextRequestMiddlewareType,
)
from aiogram.exceptions import TelegramConflictError
from aiogram.methods import AnswerCallbackQuery, GetUpdates, TelegramMethod

from bot.server.keeper_thread import (
    DEFAULT_TTL,
    RELEASE_SECONDS,
    RENEWAL_FAILURES,
    KeeperThread,
)
from storage import leases
from storage.db import Database, Deposed, Fence

log = logging.getLogger(__name__)

# Seconds a poll that another instance's poll ended waits before polling again (the
# guard: a takeover's first seconds).
CONFLICT_PAUSE = 1.0

LEADER = "leader"  # the lease's name
LOST_EXIT_CODE = 75  # EX_TEMPFAIL: start me again (as a standby)


def stop_now() -> None:
    """The lease is lost: leave at once (see the module's docstring). No
    `logging.shutdown()`: it takes every handler's lock, which a thread stopped in the
    middle of a line could hold; each line is flushed as it is written anyway."""
    os._exit(LOST_EXIT_CODE)


class Leadership:
    """The lease "leader" of one named instance: wait for it, keep it (on the keeper's
    thread), fence the instance's changes with its term, give it back.

    `open_keeper_db` opens the keeper's own connection, in the keeper's loop. With
    `thread=False` the keeper runs as a task on the caller's loop instead (the tests,
    with an injected `clock`, `monotonic` and `sleep`). A keeper that fails stops the
    process (`on_lost`): nobody would renew the lease."""

    def __init__(
        self,
        db: Database,
        name: str,
        *,
        open_keeper_db: Callable[[], Awaitable[Database]],
        ttl: float = DEFAULT_TTL,
        thread: bool = True,
        clock: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        on_lost: Callable[[], None] = stop_now,
    ) -> None:
        self.db = db
        self.name = name
        self.ttl = ttl
        self._clock = clock
        self._monotonic = monotonic
        self._sleep = sleep
        self._on_lost = on_lost
        # Written by the keeper, read by the bot's loop (single assignments).
        self.term: int | None = None  # the term we hold, while we hold it
        self._valid_until: float | None = None  # monotonic: the lease surely runs until
        self._confirmed = asyncio.Event()  # on the bot's loop: a renewal succeeded
        self._lost_it = False  # found taken, or a change refused: never given back
        self._keeper = KeeperThread(
            f"lease-{name}",
            owner="the lease's",
            open_db=open_keeper_db,
            begin=self._take,
            keep=self._keep,
            on_failure=self._lose,
            thread=thread,
            sleep=sleep,
        )

    @property
    def leading(self) -> bool:
        return self.term is not None

    @property
    def role(self) -> str:
        """The role, as /healthz shows it: "leader" or "standby"."""
        return "leader" if self.leading else "standby"

    def valid(self) -> bool:
        """Whether the lease surely still runs (see "The guard" in the module's docs)."""
        until = self._valid_until
        return self.leading and until is not None and self._monotonic() < until

    async def assured(self) -> None:
        """Return once the lease surely runs: at once while it does; after a pause or a
        failing database, once the keeper has renewed it (or stopped the process)."""
        while not self.valid():
            self._confirmed.clear()
            if self.valid():
                return
            await self._confirmed.wait()

    async def acquire(self) -> None:
        """Return once this instance holds the lease (at once when it is free, run out,
        or this name's already), its term fencing the database's changes; the keeper
        goes on renewing it. Raises when the database does not answer the start
        (`bot.server.keeper_thread`: the start fails)."""
        await self._keeper.start()

    async def release(self) -> None:
        """At a stop asked for: no more renewing, and the lease given back (by the keeper,
        on its connection, before it closes it). The fence stays: a change written after
        this still passes only while nobody else has taken the lease."""
        await self._keeper.stop(RELEASE_SECONDS)

    # The keeper: on its own thread (or, in tests, a task of the bot's loop).

    async def _keep(self, db: Database) -> None:
        """Renew the lease until cancelled (then give it back) or found taken (then stop
        the process)."""
        try:
            await self._renew(db)
        finally:
            term, self.term, self._valid_until = self.term, None, None
            if term is not None and not self._lost_it:
                await self._give_back(db, term)

    async def _take(self, db: Database) -> None:
        """Take the lease once it is free, run out or this name's: the first ask with the
        start's patience (a database that does not answer fails the start), then every
        `ttl / 3` while another instance holds it."""
        began_m, term = await self._keeper.at_start(
            "asking for the lease", lambda: self._ask_for(db), RENEWAL_FAILURES
        )
        told = failing = False
        while term is None:
            if not told and not failing:
                held = await self._current(db)
                log.info(
                    "standby as %r: the lease is held by %r; waiting to take over",
                    self.name,
                    held.holder if held else "?",
                )
                told = True
            await self._sleep(self.ttl / 6 if failing else self.ttl / 3)
            try:
                began_m, term = await self._ask_for(db)
            except RENEWAL_FAILURES as exc:
                if not failing:  # once a burst
                    log.warning("the lease cannot be asked for now: %s", str(exc) or "no answer")
                    failing = True
                continue
            failing = False
        self.term = term
        self.db.fence = Fence(LEADER, term, self._deposed, hold=self.ttl / 3)
        self._confirm(began_m)
        log.info(
            "leader as %r in term %d (the lease runs %.0f s, renewed every %.0f s)",
            self.name,
            term,
            self.ttl,
            self.ttl / 3,
        )

    async def _ask_for(self, db: Database) -> tuple[float, int | None]:
        """One take of the lease: when it began (monotonic), and the term taken (None:
        another instance holds it)."""
        began, began_m = self._clock(), self._monotonic()
        async with asyncio.timeout(self.ttl / 3):
            return began_m, await leases.take(db, LEADER, self.name, now=began, ttl=self.ttl)

    async def _renew(self, db: Database) -> None:
        failing_since: float | None = None
        while True:
            await self._sleep(self.ttl / 3 if failing_since is None else self.ttl / 6)
            term = self.term
            assert term is not None
            began, began_m = self._clock(), self._monotonic()
            try:
                async with asyncio.timeout(self.ttl / 3):
                    kept = await leases.renew(db, LEADER, self.name, term, now=began, ttl=self.ttl)
            except RENEWAL_FAILURES as exc:
                if failing_since is None:
                    failing_since = began_m
                    log.warning(
                        "the lease is not renewed now (%s); tried again (the leader's "
                        "changes stay fenced, Telegram waits once it may have run out)",
                        str(exc) or "no answer in time",
                    )
                continue
            if not kept:
                held = await self._current(db)
                log.critical(
                    "the lease was taken over by %r (term %s): stopping at once, so that "
                    "two instances never act together",
                    held.holder if held else "?",
                    held.term if held else "?",
                )
                self._lose()
                return
            if failing_since is not None:
                log.info("the lease is renewed again after %.1f s", began_m - failing_since)
                failing_since = None
            self._confirm(began_m)

    def _confirm(self, began_m: float) -> None:
        """A take or renewal begun at `began_m` (monotonic) succeeded."""
        self._valid_until = began_m + self.ttl - self.ttl / 6
        self._keeper.tell(self._confirmed.set)

    async def _give_back(self, db: Database, term: int) -> None:
        try:
            async with asyncio.timeout(RELEASE_SECONDS):
                given = await leases.release(db, LEADER, self.name, term)
        except RENEWAL_FAILURES as exc:
            log.warning("the lease is not given back (%s): it runs out by itself", exc)
        else:
            if given:
                log.info("the lease is given back")

    async def _current(self, db: Database) -> leases.Lease | None:
        with contextlib.suppress(*RENEWAL_FAILURES):
            async with asyncio.timeout(self.ttl / 3):
                return await leases.current(db, LEADER)
        return None

    def _deposed(self, refusal: Deposed) -> None:
        """The fence refused a change of the bot's (on the bot's loop or the database's
        thread): another instance leads now."""
        log.critical("%s: another instance leads now; stopping at once", refusal)
        self._lose()

    def _lose(self) -> None:
        """Stop (once: the keeper and a refused change may both find the lease taken)."""
        if self._lost_it:
            return
        self._lost_it = True
        self.term = None
        self._valid_until = None
        self._on_lost()


class LeaseGuard(BaseRequestMiddleware):
    """The innermost middleware of the Bot API session: a call goes out only while the
    lease surely runs ("The guard" above), so a leader just resumed from a pause, or cut
    off from the database, neither polls nor sends until its keeper has renewed the
    lease (or found it taken, and stopped the process). An answer to a press goes out
    at once: it changes nothing, and Telegram takes one answer a press."""

    def __init__(self, leadership: Leadership) -> None:
        self.leadership = leadership

    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[Any],
        bot: Any,
        method: TelegramMethod[Any],
    ) -> Any:
        if not isinstance(method, AnswerCallbackQuery):
            await self.leadership.assured()
        try:
            return await make_request(bot, method)
        except TelegramConflictError as exc:
            if not isinstance(method, GetUpdates):
                raise
            log.warning(
                "a long poll was ended by another instance's (a takeover?): %s", exc.message
            )
            await asyncio.sleep(CONFLICT_PAUSE)
            return []
