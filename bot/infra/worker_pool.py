"""Process pools of the bot's own (`bot.app.thinker` for the strong computers,
`bot.infra.render_pool` for the pictures): what both do alike.

Each pool starts its workers from a 'forkserver' by default (the bot's process, with its
threads, is never forked), and each worker ends as soon as the bot's process is gone,
even killed (`die_with_bot`). A pool is shut down from a thread, since waiting for its
workers blocks (`shut_down`).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor


def die_with_bot(bot_pid: int) -> None:
    """In a worker: end as soon as the bot's process is gone, even killed (SIGKILL, a
    crash), so no worker outlives it. A worker's parent is the fork server, not the
    bot, and it holds the pool's pipes itself, so nothing else would tell it: a daemon
    thread waits on the bot's process (a Linux pidfd; elsewhere it looks once a
    second)."""
    import select
    import threading

    def watch() -> None:
        try:
            handle = os.pidfd_open(bot_pid)
        except (AttributeError, OSError):
            while True:
                try:
                    os.kill(bot_pid, 0)
                except ProcessLookupError:
                    break
                except PermissionError:
                    pass
                time.sleep(1.0)
        else:
            select.select([handle], [], [])
        os._exit(0)

    threading.Thread(target=watch, name="bot-watch", daemon=True).start()


def start_worker(bot_pid: int, niceness: int) -> None:
    """A worker's first step: end with the bot (`die_with_bot`), and yield the CPU to
    the bot's event loop by `niceness` (Linux `nice`; 0 leaves the priority as is)."""
    die_with_bot(bot_pid)
    if niceness:
        with contextlib.suppress(AttributeError, OSError):  # no nice here: run as is
            os.nice(niceness)


def new_pool(workers: int, method: str, *, niceness: int = 0) -> ProcessPoolExecutor:
    """A pool of `workers` processes started by `method`, each ending with the bot and
    running `niceness` below the bot's priority. The processes start at the first task
    (`submit`), not here."""
    return concurrent.futures.ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context(method),
        initializer=start_worker,
        initargs=(os.getpid(), niceness),
    )


def processes(pool: ProcessPoolExecutor | None) -> list[multiprocessing.process.BaseProcess]:
    """The pool's worker processes now (none once it is shut down; for the tests: they
    end with the pool)."""
    found = None if pool is None else pool._processes  # no public accessor
    return [] if found is None else list(found.values())


async def shut_down(pool: ProcessPoolExecutor) -> None:
    """Shut `pool` down, its work in progress finished and the rest cancelled, waiting
    for its workers on a thread."""
    try:
        await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
    except RuntimeError:  # no thread left to wait in (the loop is closing)
        pool.shutdown(wait=False, cancel_futures=True)
