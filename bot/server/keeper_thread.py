"""The thread a lease keeper works on (`bot.server.leadership`, `bot.server.shards`).

A keeper renews leases every `ttl / 3` seconds however long the bot's own loop is busy
(picking up a hundred games on a loaded machine): it runs on a thread of its own, with
its own event loop and its own database connection (`open_database(..., side=True)`).
`KeeperThread` is that scaffolding, shared by both keepers; each gives it its two
steps: `begin(db)`, which ends once the keeper holds what the bot waits for at its start
(the lease "leader", the instance's own lease), and `keep(db)`, the rounds until the
stop cancels them.

**The start.** `start()` returns once `begin` has ended. The database is asked with the
patience of the bot's own start (`bot.server.start_failures`: `START_TRIES` tries, each
bounded by `START_TIMEOUT`, `START_PAUSES` between): opening the keeper's connection and
each of `begin`'s first questions (`at_start`). When it does not answer, `start()`
raises what the last try failed with (no answer in time: `DatabaseBusy`), and the
bot's start fails with one line for the admin (`why_start_failed`), as when its own
connection cannot be opened. After the start the keeper is patient for ever: a
database down for a while only delays a renewal.

**The news.** What the keeper finds out (a lease taken, lost, asked back) reaches the
bot on the bot's loop (`tell`): posted there from the keeper's thread, and a callback
that fails is logged, never the keeper's end.

With `thread=False` the keeper runs as a task on the bot's loop instead (the tests,
with an injected `sleep`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

from bot.server.start_failures import START_PAUSES, START_TIMEOUT, START_TRIES
from storage.db import DATABASE_ERRORS, Database, DatabaseBusy

log = logging.getLogger(__name__)
T = TypeVar("T")

DEFAULT_TTL = 15.0  # LEASE_SECONDS
# A renewal refused, or not answered in time.
RENEWAL_FAILURES: tuple[type[Exception], ...] = (*DATABASE_ERRORS, TimeoutError)
# What opening the keeper's connection may fail with (then tried again).
OPEN_FAILURES: tuple[type[Exception], ...] = (*DATABASE_ERRORS, OSError, RuntimeError)
# Seconds a keeper waits for its thread's loop, and for a lease given back at a stop.
RELEASE_SECONDS = 5.0


class KeeperThread:
    """One keeper's thread (or, in tests, task), its loop and its connection.

    `open_db` opens the keeper's connection, in the keeper's loop; `owner` names the
    keeper in log lines ("the lease's", "the shards'"). An exception that escapes
    `keep` is logged CRITICAL, the connection is closed, and `on_failure()` is told (on
    the keeper's loop): nobody renews the keeper's leases any more."""

    def __init__(
        self,
        name: str,
        *,
        owner: str,
        open_db: Callable[[], Awaitable[Database]],
        begin: Callable[[Database], Awaitable[None]],
        keep: Callable[[Database], Awaitable[None]],
        on_failure: Callable[[], None] = lambda: None,
        thread: bool = True,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.name = name
        self.owner = owner
        self._open_db = open_db
        self._begin = begin
        self._keep = keep
        self._on_failure = on_failure
        self._thread_mode = thread
        self._sleep = sleep
        self._main_loop: asyncio.AbstractEventLoop | None = None
        self._begun: asyncio.Future[None] | None = None  # on the bot's loop
        self._keeper_loop: asyncio.AbstractEventLoop | None = None
        self._keeper_task: asyncio.Task[None] | None = None
        self._thread: threading.Thread | None = None
        self._started = threading.Event()  # the keeper's loop and task exist

    async def start(self) -> None:
        """Start the keeper; return once `begin` has ended, or raise why the keeper could
        not begin (the database did not answer: see the module's docs)."""
        self._main_loop = asyncio.get_running_loop()
        self._begun = self._main_loop.create_future()
        if self._thread_mode:
            self._thread = threading.Thread(
                target=lambda: asyncio.run(self._main()), name=self.name, daemon=True
            )
            self._thread.start()
            await asyncio.to_thread(self._started.wait, RELEASE_SECONDS)
        else:
            self._keeper_task = self._main_loop.create_task(self._main())
        await asyncio.shield(self._begun)

    async def stop(self, seconds: float) -> None:
        """Cancel the keeper (its `keep` then gives its leases back) and wait up to
        `seconds` for it to end."""
        if self._thread_mode:
            thread = self._thread
            if thread is None:
                return
            await asyncio.to_thread(self._started.wait, RELEASE_SECONDS)
            if self._keeper_loop is not None and self._keeper_task is not None:
                with contextlib.suppress(RuntimeError):  # its loop is over: nothing to stop
                    self._keeper_loop.call_soon_threadsafe(self._keeper_task.cancel)
            await asyncio.to_thread(thread.join, seconds)
            self._thread = None
        elif self._keeper_task is not None:
            self._keeper_task.cancel()
            await asyncio.gather(self._keeper_task, return_exceptions=True)
            self._keeper_task = None
        begun = self._begun
        if begun is not None and begun.done() and not begun.cancelled():
            begun.exception()  # a start that failed after its waiter was cancelled: seen

    async def on_keeper_loop(self, work: Coroutine[Any, Any, T], otherwise: T) -> T:
        """Run `work` on the keeper's loop (from the bot's) and return what it returns;
        `otherwise` when the keeper has not started, is over, or stops first."""
        loop = self._keeper_loop
        if loop is None:
            work.close()
            return otherwise
        if loop is asyncio.get_running_loop():
            return await work
        try:
            done = asyncio.run_coroutine_threadsafe(work, loop)
        except RuntimeError:  # the keeper's loop is over: stopping
            work.close()
            return otherwise
        try:
            return await asyncio.wrap_future(done)
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise  # the bot's own task is cancelled
            return otherwise  # the keeper stopped first

    async def at_start(
        self, what: str, ask: Callable[[], Awaitable[T]], failures: tuple[type[Exception], ...]
    ) -> T:
        """`ask()` with the start's patience (the module's docs): its answer, or the last
        try's failure raised (one of `failures`, or no answer in time). `what` says what
        is asked, for the log."""
        for pause in (*START_PAUSES[: START_TRIES - 1], None):
            try:
                async with asyncio.timeout(START_TIMEOUT):
                    return await ask()
            except TimeoutError as exc:
                if pause is None:
                    raise DatabaseBusy(
                        f"{what}: no answer in {START_TIMEOUT} s ({START_TRIES} tries)"
                    ) from exc
                failure: Exception = exc
            except failures as exc:
                if pause is None:
                    raise
                failure = exc
            log.warning("%s failed (%s): tried again", what, str(failure) or "no answer")
            await self._sleep(pause)
        raise AssertionError("unreachable")

    def tell(self, callback: Callable[..., None], *args: object) -> None:
        """Run `callback(*args)` on the bot's loop, from wherever we are (the keeper's
        thread, the bot's loop, a database's thread); a callback that fails is logged,
        never the keeper's end."""

        def guarded() -> None:
            try:
                callback(*args)
            except Exception:
                log.exception("the bot's answer to news of %s keeper failed", self.owner)

        loop = self._main_loop
        try:
            here = asyncio.get_running_loop()
        except RuntimeError:
            here = None
        if loop is None or loop is here:
            guarded()
        else:
            with contextlib.suppress(RuntimeError):  # the bot's loop is closed: stopping
                loop.call_soon_threadsafe(guarded)

    async def _main(self) -> None:
        self._keeper_loop = asyncio.get_running_loop()
        self._keeper_task = asyncio.current_task()
        self._started.set()
        try:
            db = await self.at_start(
                f"opening {self.owner} connection", self._open_db, OPEN_FAILURES
            )
        except asyncio.CancelledError:
            return  # a stop asked for before the keeper began
        except Exception as exc:
            self.tell(self._not_begun, exc)  # the start fails
            return
        failed = False
        try:
            try:
                await self._begin(db)
            except Exception as exc:
                self.tell(self._not_begun, exc)  # the start fails
                return
            self.tell(self._has_begun)
            await self._keep(db)
        except asyncio.CancelledError:
            pass  # a stop asked for
        except Exception:
            # A keeper that died would leave leases nobody renews.
            log.critical("%s keeper failed", self.owner, exc_info=True)
            failed = True
        finally:
            with contextlib.suppress(*DATABASE_ERRORS):
                await db.close()
        if failed:
            self._on_failure()

    def _has_begun(self) -> None:
        if self._begun is not None and not self._begun.done():
            self._begun.set_result(None)

    def _not_begun(self, exc: Exception) -> None:
        if self._begun is not None and not self._begun.done():
            self._begun.set_exception(exc)
