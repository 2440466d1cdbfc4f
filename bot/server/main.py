"""The composition root: `python -m bot` (`bot/__main__.py`) runs `main()`.

Reads the settings once, sets up logging, then starts the bot (`bot.server.start`) and
serves until SIGINT/SIGTERM (`bot.server.serving`): long polling, or with `WEBHOOK_URL`
set Telegram's webhook. A start that cannot succeed ends the process with one line on
stderr (`bot.server.start_failures`) and the exit code: 2 for the configuration, 1 for
the rest. Everything opened until then is closed, so no thread keeps the process up.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
import sys
from collections.abc import Callable

from pydantic import ValidationError

from bot.infra import perf, task_dump
from bot.server.config import Settings, explain
from bot.server.logs import formatter
from bot.server.start import StoppedAsStandby, start
from bot.server.start_failures import StartFailed, why_start_failed

log = logging.getLogger("bot")

# Libraries whose DEBUG lines carry data: aiosqlite logs every statement's parameters,
# which hold whole matches (hands, the bazaar, the seed). They log at INFO at most,
# whatever LOG_LEVEL says.
QUIET_LOGGERS = ("aiosqlite",)


async def run(settings: Settings) -> None:
    """Start, serve until a signal, stop; raises StartFailed when the start fails.
    SIGUSR1 logs the work counters (`bot.infra.perf`), as does the stop; SIGUSR2 logs where
    every asyncio task waits (`bot.infra.task_dump`). Once started, what
    the start made is frozen out of the garbage collector's way (`perf.tune_gc`)."""
    asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, perf.log_counters)
    asyncio.get_running_loop().add_signal_handler(signal.SIGUSR2, task_dump.log_tasks)
    perf.watch_gc()
    async with contextlib.AsyncExitStack() as resources:
        try:
            app = await start(settings, resources)
        except StoppedAsStandby:
            log.info("stopped as a standby")
            return
        except Exception as exc:
            reason = why_start_failed(exc, settings)
            if reason is None:
                raise
            raise StartFailed(reason) from exc
        perf.tune_gc()
        await app.serve()
    perf.log_counters()
    log.info("stopped")


def configure_logging(level: str, kind: str = "text") -> None:
    """The root logger at `level`, each line in the `LOG_FORMAT` `kind` (`bot.server.logs`)."""
    handler = logging.StreamHandler()
    handler.setFormatter(formatter(kind))
    logging.basicConfig(level=level, handlers=[handler])
    for name in QUIET_LOGGERS:
        logger = logging.getLogger(name)
        logger.setLevel(max(logging.INFO, logging.getLevelName(level)))


def profiled(path: str | None, work: Callable[[], None]) -> None:
    """Run `work`; with `PROFILE_TO` set, under cProfile, its statistics written to that
    file when the bot stops (for `bench/e2e.py --profile`; read with `python -m pstats`)."""
    if not path:
        work()
        return
    import cProfile

    profile = cProfile.Profile()
    try:
        profile.runcall(work)
    finally:
        profile.dump_stats(path)
        log.info("profile written to %s", path)


def main() -> int:
    # What the imports made (with the collector off: `bot/__main__.py`) lives as long as
    # the process: frozen now, no collection walks it again, and `perf.tune_gc` collects
    # only what the start made. The little garbage the imports left stays with them.
    gc.freeze()
    gc.enable()
    try:
        settings = Settings()  # type: ignore[call-arg]  # filled from the environment
    except ValidationError as exc:
        print(explain(exc), file=sys.stderr)
        return 2
    configure_logging(settings.log_level, settings.log_format)
    try:
        profiled(settings.profile_to, lambda: asyncio.run(run(settings)))
    except StartFailed as failed:
        log.critical("cannot start: %s", failed)
        return 1
    return 0
