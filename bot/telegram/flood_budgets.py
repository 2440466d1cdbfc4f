"""The groups' flood budgets, shared through the database (migration 013).

Telegram counts a group's messages of the last minute whoever sent them, but the
outgoing queue's token bucket for a group (`bot.telegram.outgoing`) lives in memory: an instance
that takes over from another, or a bot started again, would start every group's bucket
full and could earn a 429. So, for groups only (a private chat's bucket refills in
seconds, not worth a write):

- `load()`, once at the start or at taking over, reads the buckets written in the last
  `MEMORY` seconds (an older one is full again by now) and deletes the older rows; in
  shard mode `reload(chats)` reads a shard's groups again when the shard is taken;
- a group's new bucket starts from that (`tokens_for`): the tokens stored, refilled for
  the wall-clock time passed since, never more than the burst;
- `note` keeps a group's tokens after each call; a flusher writes what was noted in one
  transaction at most once every `FLUSH_INTERVAL` (a group is paced to about sixteen
  calls a minute, so however busy the bot, this is one small write a second), and
  `close` writes the rest;
- the database failing never holds a message back: the notes wait for the next flush
  (dropped if the failure is not transient), a failed `load` leaves the buckets full as
  before; each burst of failures is logged once.

Times are unix seconds (`wall`, injected for the tests): the instances' clocks must agree
(NTP), as for the lease.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import time
from collections.abc import Awaitable, Callable

from bot.telegram.pacing import Pace
from storage import flood
from storage.db import DATABASE_ERRORS, Database, is_transient
from storage.flood import Budget

log = logging.getLogger(__name__)

MEMORY = 60.0  # seconds: a budget older than this is not read (its bucket is full)
FLUSH_INTERVAL = 1.0  # seconds between two writes at least


class SharedBudgets:
    """The groups' buckets as the database knows them, for `Outgoing(budgets=...)`."""

    def __init__(
        self,
        db: Database,
        *,
        wall: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
        interval: float = FLUSH_INTERVAL,
    ) -> None:
        self.db = db
        self._wall = wall
        self._sleep = sleep
        self.interval = interval
        self._loaded: dict[int, Budget] = {}  # read by `load`, each used once
        self._noted: dict[int, Budget] = {}  # not written yet
        self._some_noted = asyncio.Event()  # set while `_noted` holds something
        self._flusher: asyncio.Task[None] | None = None
        self._closed = False
        self._failing = False  # within a burst of database failures (logged once)

    async def load(self) -> None:
        """Read the budgets of the last `MEMORY` seconds, for the groups' new buckets, and
        forget the older ones. Once, before the first call to a group."""
        moment = self._wall()
        try:
            self._loaded = await flood.recent_budgets(self.db, moment - MEMORY)
            await flood.forget_budgets_before(self.db, moment - MEMORY)
        except DATABASE_ERRORS as exc:
            self._failed(exc, "not read (the groups' buckets start full)")
        else:
            self._recovered()

    async def reload(self, chats: Callable[[int], bool]) -> None:
        """Read again the budgets of the groups `chats` picks (a shard just taken, in shard
        mode): another instance spent them since `load`, and wrote what it left before it
        gave the shard back (`bot.server.shard_mode.ShardRuntime`). A failed read leaves
        what was loaded."""
        moment = self._wall()
        try:
            recent = await flood.recent_budgets(self.db, moment - MEMORY)
        except DATABASE_ERRORS as exc:
            self._failed(exc, "not read again (the groups' buckets go on as they are)")
            return
        self._recovered()
        for chat_id, budget in recent.items():
            if chats(chat_id):
                self._loaded[chat_id] = budget

    def tokens_for(self, chat_id: int, pace: Pace) -> float | None:
        """The tokens a new bucket of `chat_id` starts with: the loaded budget refilled for
        the time since (at most `pace.burst`); None when none was loaded (a full bucket).
        A loaded budget serves once: the bucket goes on from it."""
        budget = self._loaded.pop(chat_id, None)
        if budget is None:
            return None
        passed = max(0.0, self._wall() - budget.at)  # a clock set back refills nothing
        return min(float(pace.burst), budget.tokens + passed * pace.rate)

    def note(self, chat_id: int, tokens: float) -> None:
        """`chat_id`'s bucket holds `tokens` now: written by the next flush."""
        self._noted[chat_id] = Budget(tokens, self._wall())
        self._some_noted.set()
        if self._flusher is None and not self._closed:
            # In a context of its own: the first note may come from a handling's scope
            # (`storage.db.acting_for`), whose update and shard the flushes are not for.
            self._flusher = asyncio.get_running_loop().create_task(
                self._flush_now_and_then(), context=contextvars.Context()
            )

    async def flush(self) -> None:
        """Write what was noted, in one transaction. A note made meanwhile stays for the
        next flush, and so does everything after a transient failure."""
        written = dict(self._noted)
        if not written:
            return
        try:
            await flood.save_budgets(
                self.db, [(chat_id, b.tokens, b.at) for chat_id, b in written.items()]
            )
        except DATABASE_ERRORS as exc:
            if is_transient(exc):
                self._failed(exc, "not written yet (tried again)")
                return
            self._failed(exc, "not written (dropped)")
        else:
            self._recovered()
        for chat_id, budget in written.items():
            if self._noted.get(chat_id) is budget:
                del self._noted[chat_id]
        if not self._noted:
            self._some_noted.clear()

    async def close(self) -> None:
        """Stop the flusher and write what is left (a note after this is not written)."""
        self._closed = True
        if self._flusher is not None:
            self._flusher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._flusher
            self._flusher = None
        await self.flush()

    async def _flush_now_and_then(self) -> None:
        """Write the notes as they come, then rest `interval`: the notes of that time are
        written together."""
        while True:
            await self._some_noted.wait()
            await self.flush()
            await self._sleep(self.interval)

    def _failed(self, exc: Exception, what: str) -> None:
        if not self._failing:
            self._failing = True
            log.warning("groups' flood budgets %s: %s", what, exc)

    def _recovered(self) -> None:
        if self._failing:
            self._failing = False
            log.info("groups' flood budgets: the database takes them again")
