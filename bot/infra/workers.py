"""One worker per key that brings what the key names up to date with the database: a
game's message (the publisher), a vote's message (the vote board), the outbox (the
announcer).

`mark(key)` says "what `key` shows changed: resync it soon". A key has at most one
worker; it runs the sync again for as long as new marks came in meanwhile, so a burst
of marks becomes one or two passes, each reading the newest committed state. Work the
database refused for the moment (locked by another process, a full disk) is tried again
after `DATABASE_PAUSE`; the sync asks for a retry of its own with `again(key, after=...)`
(Telegram still failing after the queue's retries, say). The worker and the key's marks
go when it is done, so memory holds only the keys with a change not yet shown.

A worker outlives whatever marked it first (a handler, in the scope of its Telegram
update: `storage.db.acting_for`), so it runs in a neutral scope of its own: a sync that
changes something for a chat sets that chat's scope itself (`bot.app.ownership`).
`drop(matches)` stops the workers of keys another instance now brings up to date.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Hashable
from typing import Generic, TypeVar

from storage.db import acting_for, is_transient

log = logging.getLogger(__name__)

# Seconds before work the database refused for the moment (locked, full) is tried again.
DATABASE_PAUSE = 1.0

K = TypeVar("K", bound=Hashable)

_NO_GATE: contextlib.AbstractAsyncContextManager[object] = contextlib.nullcontext()


class Resync(Generic[K]):
    """Keyed workers around `sync(key)`.

    `describe(key)` names what the key shows in the log ("game 3: the table message");
    `pace(key)`, when given, is awaited before each pass and before the marks the pass
    covers are taken (the marks that come while it waits need no pass of their own);
    `settled(key)` is called when the key's worker ends.

    `gate`, when given, bounds the passes running at once (shared by several `Resync`s) of
    the keys `gated(key)` picks (all by default): a pass waits for a place before it
    takes its key's marks, so while the bot is overloaded every key's marks of that time
    become one pass, and the loop is left to the presses instead of to thousands of
    passes over states already left behind. Gate only keys whose pass is quick once it
    runs: a pass that waits minutes (a group's flood budget) would hold its place."""

    def __init__(
        self,
        sync: Callable[[K], Awaitable[None]],
        *,
        describe: Callable[[K], str],
        pace: Callable[[K], Awaitable[None]] | None = None,
        settled: Callable[[K], None] | None = None,
        gate: asyncio.Semaphore | None = None,
        gated: Callable[[K], bool] | None = None,
    ) -> None:
        self._sync = sync
        self._gate = gate
        self._gated = gated
        self._describe = describe
        self._pace = pace
        self._settled = settled
        self._dirty: set[K] = set()
        self._pauses: dict[K, float] = {}  # retries asked for: seconds to wait first
        self._workers: dict[K, asyncio.Task[None]] = {}
        self._passing: set[K] = set()  # keys whose sync runs now
        self._stopping: set[K] = set()  # keys dropped: their worker ends after its pass
        self._idle = asyncio.Event()
        self._idle.set()

    def mark(self, key: K) -> None:
        """What `key` shows changed (committed): bring it up to date soon."""
        self._dirty.add(key)
        worker = self._workers.get(key)
        if worker is None or worker.done():
            self._idle.clear()
            self._workers[key] = asyncio.create_task(self._work(key))

    def again(self, key: K, *, after: float) -> None:
        """From within `sync(key)`: run it again once `after` seconds have passed."""
        self._pauses[key] = after
        self._dirty.add(key)

    def busy(self, key: K) -> bool:
        """Whether `key` has a worker still running."""
        return key in self._workers

    async def idle(self) -> None:
        """Wait until every key is up to date (tests, shutdown)."""
        while not self._idle.is_set():
            await self._idle.wait()
            await asyncio.sleep(0)

    async def drop(self, matches: Callable[[K], bool]) -> None:
        """Stop bringing the keys `matches` picks up to date (another instance does it
        now): their marks are dropped, a worker waiting (its pace, a pause) stops at once,
        one in a pass ends after it; returns when none of them runs. A key marked later
        gets a worker again."""
        dropped = {key: worker for key, worker in self._workers.items() if matches(key)}
        for key, worker in dropped.items():
            self._stopping.add(key)
            self._dirty.discard(key)
            self._pauses.pop(key, None)
            if key not in self._passing:
                worker.cancel()
        if not dropped:
            return
        await asyncio.wait(dropped.values())
        for key, worker in dropped.items():
            # A worker cancelled before its first step never ran its `finally`.
            if self._workers.get(key) is worker:
                self._ended(key)

    async def _work(self, key: K) -> None:
        with acting_for():  # not the scope of whatever marked the key first
            try:
                while key in self._dirty and key not in self._stopping:
                    if self._pace is not None:
                        await self._pace(key)
                    async with self._gate_of(key):
                        if key in self._stopping:
                            break
                        await self._pass(key)
                    pause = self._pauses.pop(key, None)
                    if pause is not None and key not in self._stopping:
                        await asyncio.sleep(pause)
            finally:
                self._ended(key)

    def _gate_of(self, key: K) -> contextlib.AbstractAsyncContextManager[object]:
        gate = self._gate
        if gate is None or (self._gated is not None and not self._gated(key)):
            return _NO_GATE
        return gate

    async def _pass(self, key: K) -> None:
        self._dirty.discard(key)
        self._passing.add(key)
        try:
            await self._sync(key)
        except Exception as exc:
            if is_transient(exc):
                log.warning("%s waits for the database: %s", self._describe(key), exc)
                self.again(key, after=DATABASE_PAUSE)
            else:
                log.exception("%s could not be brought up to date", self._describe(key))
        finally:
            self._passing.discard(key)

    def _ended(self, key: K) -> None:
        self._workers.pop(key, None)
        self._dirty.discard(key)
        self._pauses.pop(key, None)
        self._stopping.discard(key)
        if self._settled is not None:
            self._settled(key)
        if not self._workers:
            self._idle.set()
