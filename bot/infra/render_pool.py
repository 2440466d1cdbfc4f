"""Pictures drawn in a process of their own, off the event loop's GIL.

Drawing and PNG-encoding a table takes milliseconds of CPU; on a thread of the bot's
process it would compete with the event loop for the GIL.
`RenderPool.draw(renderer, *args)` sends the picture's inputs (a `MatchView`, names, a
language: plain frozen dataclasses that pickle) to a small process pool and awaits the
PNG bytes, so the loop only ever awaits a future. The pool follows `bot.app.thinker`'s:
a 'forkserver' context by default (the bot's process, with its threads, is never
forked), each worker ends with the bot even when the bot is killed
(`bot.infra.worker_pool`) and runs at a lower priority (`NICENESS`). It is made at the
first picture, so the start-up does not pay for it, and shut down by `close` with the
bot.

A renderer goes to the pool by name, so it must be a module-level function a worker can
import (`table_picture`, `round_end_picture` below). Any other (a test's lambda, a
function of the `__main__` module) is drawn on one thread of the bot's own.
At most `workers` pictures are in the pool at once (the others wait their turn on the
loop), so the time a picture is given is its own drawing's, never a queue's. If the pool
breaks (a worker killed, out of memory) or draws nothing for `DRAW_SECONDS` (a worker
hung) it is made anew and the picture drawn again; after `ATTEMPTS` such pools
in a row the picture is drawn on the thread: a picture is never lost, and never holds up
what waits behind it for ever.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any

from bot.infra import worker_pool

if TYPE_CHECKING:
    from domino.round import Round
    from domino.views import MatchView, RoundResult

log = logging.getLogger(__name__)

# Pictures drawn at once. A table is milliseconds of CPU, and Telegram takes at most 20 of
# a group's pictures a minute, so one worker keeps up; on a machine of two cores a second
# would only compete with the event loop.
DEFAULT_WORKERS = 1
# The worker's `nice`: when the machine's cores are all busy, the event loop (answers to
# presses, hand edits) runs first and the picture waits. A table picture is paced to one
# every few seconds per group anyway, and the edits that wait for it are merged, so a
# late picture costs nothing; a late answer is a spinner on the person's button.
NICENESS = 10
ATTEMPTS = 3  # broken pools in a row before a picture is drawn on the thread instead
# A picture is milliseconds of CPU; one the pool has not drawn in this long (a worker
# hung, or lost without the pool noticing) is drawn again by a new pool, so a picture
# never holds up the announcements behind it for ever.
DRAW_SECONDS = 60.0


def table_picture(view: MatchView, names: Sequence[str], lang: str) -> bytes:
    """`render.render_table`, imported at the first picture (in the worker): Pillow and
    the fonts are not needed to start polling."""
    from render import render_table

    return render_table(view, names, lang)


def round_end_picture(
    view: MatchView,
    names: Sequence[str],
    result: RoundResult | None = None,
    lang: str = "ru",
    ended: Round | None = None,
) -> bytes:
    """The round's end as `bot.telegram.announcements` shows it: `render.render_round_end` (the
    round `ended` laid open over the score sheet), or the bare `render.render_scores`
    without a round; imported at the first one (see `table_picture`)."""
    if ended is not None:
        from render import render_round_end

        return render_round_end(view, names, ended, result, lang)
    from render import render_scores

    return render_scores(view, names, result, lang)


def by_name(renderer: Callable[..., bytes]) -> bool:
    """Whether a worker process can find `renderer` by its module and name."""
    module = getattr(renderer, "__module__", None)
    qualname = getattr(renderer, "__qualname__", "")
    return bool(module) and module != "__main__" and "<" not in qualname and "." not in qualname


class RenderPool:
    """Draws pictures in `workers` processes, made at the first picture (see the module)."""

    def __init__(self, *, workers: int = DEFAULT_WORKERS, method: str = "forkserver") -> None:
        if workers < 1:
            raise ValueError("the render pool needs at least one worker")
        self.workers = workers
        self.method = method
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._making: asyncio.Lock | None = None  # one pool made at a time
        self._slots: asyncio.Semaphore | None = None  # pictures in the pool at once
        self._thread: ThreadPoolExecutor | None = None  # for renderers not found by name
        self._closed = False

    def processes(self) -> list[multiprocessing.process.BaseProcess]:
        """The pool's worker processes now (for the tests)."""
        return worker_pool.processes(self._pool)

    async def draw(self, renderer: Callable[..., bytes], *args: Any) -> bytes:
        """The PNG bytes `renderer(*args)` makes, drawn in the pool when it can be."""
        if not by_name(renderer) or self._closed:
            return await self._on_thread(renderer, *args)
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.workers)
        for _ in range(ATTEMPTS):
            async with self._slots:  # a worker free for it: its time is its own drawing's
                pool = await self._ready()
                try:
                    async with asyncio.timeout(DRAW_SECONDS):
                        return await asyncio.wrap_future(pool.submit(renderer, *args))
                except BrokenProcessPool:
                    # A worker died (killed, out of memory): a new pool draws it again.
                    log.warning("render pool: a worker died; the picture is drawn again")
                    self._discard(pool)
                except TimeoutError:
                    log.warning(
                        "render pool: no picture after %.0f s; a new pool draws it again",
                        DRAW_SECONDS,
                    )
                    self._discard(pool, kill=True)
        log.warning("render pool: broken %d times; the picture is drawn on a thread", ATTEMPTS)
        return await self._on_thread(renderer, *args)

    async def _ready(self) -> concurrent.futures.ProcessPoolExecutor:
        """The pool, its worker started (off the loop: starting a process blocks)."""
        if self._making is None:
            self._making = asyncio.Lock()
        async with self._making:
            if self._pool is None:
                self._pool = await asyncio.to_thread(self._new_pool)
            return self._pool

    def _new_pool(self) -> concurrent.futures.ProcessPoolExecutor:
        pool = worker_pool.new_pool(self.workers, self.method, niceness=NICENESS)
        # Processes start at the first task: started here, on this thread, not on the loop.
        concurrent.futures.wait([pool.submit(os.getpid) for _ in range(self.workers)])
        log.info("render pool: %d %s worker(s) up", self.workers, self.method)
        return pool

    def _discard(self, pool: concurrent.futures.ProcessPoolExecutor, *, kill: bool = False) -> None:
        """Stop using `pool`; with `kill`, its workers are killed too (a hung one would
        never take the shutdown)."""
        if self._pool is pool:
            self._pool = None
        workers = worker_pool.processes(pool) if kill else []
        pool.shutdown(wait=False, cancel_futures=True)
        for process in workers:
            process.kill()

    async def _on_thread(self, renderer: Callable[..., bytes], *args: Any) -> bytes:
        if self._thread is None:
            self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="render")
        return await asyncio.get_running_loop().run_in_executor(self._thread, renderer, *args)

    async def close(self) -> None:
        """Shut the pool down (with the bot); pictures asked for later are drawn on a thread."""
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is not None:
            await worker_pool.shut_down(pool)
        self.close_thread()

    def close_thread(self) -> None:
        """Release the drawing thread (sync: what a non-async shutdown can call)."""
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.shutdown(wait=False, cancel_futures=True)
