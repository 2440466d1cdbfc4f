"""The computers' decisions, made where they do not hold up the bot.

`Thinker.decide(view, level)` gives the `Decision` of a computer of `level` for the
seat whose `MatchView` it is handed: the engine's `domino.ai.computer`, which sees that
one seat's view only, never the match. Easy and medium are heuristics of about a
millisecond and run inline. Hard searches over the hands it cannot see, so it runs in a
process pool (a 'forkserver' context by default: the bot's process, with its threads,
is never forked) with a deadline: `budget` seconds from the request, handed to the
search as an absolute `time.monotonic()` (one system-wide clock on Linux, so the worker
reads the same time); when several searches are asked for at once, each gets its share
of the budget (shorter searches under load rather than most of them too late). If the
pool's answer is not back by the deadline plus `margin`, medium decides inline instead
(a fallback, logged at debug level without any tile), so the event loop only ever
awaits a future and no game waits on a slow search; a search
that failed, or answered with an action not among the legal ones, falls back the same
way (logged as a warning, again without any tile).

Every decision gets a fresh random seed, never one derived from the match's seed (the
deal is secret). The time from each request to its decision is kept per level
(`times`, `summary`), and the summary is logged when the thinker stops: what
bench/e2e.py reads back for p50/p95 (ms) per level and the fallbacks.

`start` warms the pool (each worker imports the search and decides once), so the first
real decision is not slow; it does so off the event loop (starting the processes blocks
for a while), and `start_soon` does it in the background, so the bot serves at once:
until the pool is ready the hard level's decisions are medium's
(logged at debug level). `stop` shuts the pool down with the application, started or
still starting.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
import os
import secrets
import time
from collections import deque
from collections.abc import Callable, Mapping
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from bot.infra import worker_pool
from domino.actions import Action
from domino.ai import Computer, Decision, Level, computer
from domino.ladder import percentile
from domino.match import Match
from domino.variants import VARIANTS
from domino.views import MatchView

log = logging.getLogger(__name__)

DEFAULT_BUDGET = 0.25  # seconds a hard decision may take, from its request
DEFAULT_MARGIN = 0.03  # seconds after the deadline before medium decides instead
# Hard searches at once. One worker keeps up with an idle machine; two keep the fallbacks
# to medium rare on a loaded one, where a search waits for the CPU (bench/e2e.py measures
# the fallbacks and the decision times).
DEFAULT_WORKERS = 2
KEPT_TIMES = 100_000  # decision times kept per level (the oldest are forgotten)

# A view crosses to the worker pickled, and the decision comes back so: the engine's
# `Ruleset` pickles as its stored form and a `Tile` unpickles as the interned tile.

# What a worker sends back: the action, the reason and its numbers (a `Decision`'s
# read-only `args` mapping does not pickle); None when its deadline had already passed.
Searched = tuple[Action, str, dict[str, int]] | None


def _search(view: MatchView, seed: int, deadline: float, share: float | None = None) -> Searched:
    """In a worker: the hard level's decision, searching until `deadline` (monotonic),
    and for at most `share` seconds from its start when given (others wait their turn)."""
    began = time.monotonic()
    if began >= deadline:
        return None  # waited in the queue too long: the bot has decided without it
    if share is not None:
        deadline = min(deadline, began + share)
    decision = computer(Level.HARD, seed=seed, deadline=deadline).decide(view)
    return decision.action, decision.reason, dict(decision.args)


def _warm_up(view: MatchView, seed: int, deadline: float) -> int:
    """In a worker: import the search and decide once, so the first real decision pays
    for neither. Returns the worker's process id."""
    _search(view, seed, deadline)
    return os.getpid()


def sample_view() -> MatchView:
    """A view of the first seat to move in a fresh four-player match of the first game:
    what the warm-up decides on."""
    match = Match.new(VARIANTS[0].ruleset, 4, seed=0)
    return match.view(match.turn)


@dataclass(frozen=True, slots=True)
class Times:
    """How long one level's decisions took, from request to decision, in seconds."""

    level: Level
    count: int
    p50: float
    p95: float
    max: float

    def line(self) -> str:
        return (
            f"{self.level.value} {self.count} decisions p50 {self.p50 * 1000:.1f} ms "
            f"p95 {self.p95 * 1000:.1f} ms max {self.max * 1000:.1f} ms"
        )


class Thinker:
    """Decides for computer seats: easy and medium inline, hard in a process pool with a
    deadline and medium as its fallback."""

    def __init__(
        self,
        *,
        workers: int = DEFAULT_WORKERS,
        budget: float = DEFAULT_BUDGET,
        margin: float = DEFAULT_MARGIN,
        method: str = "forkserver",
        new_seed: Callable[[], int] = lambda: secrets.randbits(64),
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if workers < 1:
            raise ValueError("the thinker needs at least one worker")
        self.workers = workers
        self.budget = budget
        self.margin = margin
        self.method = method
        self.new_seed = new_seed
        self.clock = clock
        self.fallbacks = 0  # hard decisions medium made instead (late, failed, broken pool)
        self._times: dict[Level, deque[float]] = {
            level: deque(maxlen=KEPT_TIMES) for level in Level
        }
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None  # once ready
        self._starting: asyncio.Task[None] | None = None  # the start, until `stop`
        self._stopped = False  # after `stop`, no pool starts again: medium decides
        self._asked = 0  # hard decisions asked of the pool and not answered yet

    @property
    def running(self) -> bool:
        """The pool is started and warmed up: hard decisions go to it."""
        return self._pool is not None

    def processes(self) -> list[multiprocessing.process.BaseProcess]:
        """The pool's worker processes now (for the tests: they end with `stop`)."""
        return worker_pool.processes(self._pool)

    def _new_pool(self) -> concurrent.futures.ProcessPoolExecutor:
        return worker_pool.new_pool(self.workers, self.method)

    def _spawn(self) -> tuple[concurrent.futures.ProcessPoolExecutor, list[BaseException]]:
        """In a thread (starting processes blocks): a new pool, every worker warmed up
        (the search imported, one decision made); the warm-ups that failed."""
        pool = self._new_pool()
        view = sample_view()
        deadline = time.monotonic() + self.budget
        warming = [
            pool.submit(_warm_up, view, self.new_seed(), deadline) for _ in range(self.workers)
        ]
        concurrent.futures.wait(warming)
        failed: list[BaseException] = []
        for future in warming:
            if future.cancelled():
                failed.append(concurrent.futures.CancelledError())
            elif (exc := future.exception()) is not None:
                failed.append(exc)
        return pool, failed

    def start_soon(self) -> None:
        """Start the pool in the background (see `start`): the caller goes on at once, and
        until the pool is ready medium answers for the hard level."""
        if self._pool is None and self._starting is None:
            self._stopped = False
            self._starting = asyncio.create_task(self._start(), name="thinker-start")

    async def start(self) -> None:
        """Start the pool and warm every worker up, off the event loop; returns once it is
        ready (at once if it is; a start in progress is waited for)."""
        self.start_soon()
        if self._starting is not None:
            await asyncio.shield(self._starting)

    async def _start(self) -> None:
        began = self.clock()
        try:
            pool, failed = await asyncio.to_thread(self._spawn)
        except Exception as exc:  # no pool: every hard decision is medium's
            log.warning("thinker: the pool did not start: %s", type(exc).__name__)
            return
        self._pool = pool  # shut down by `stop`, even when it came while starting
        if failed:  # the pool still answers later; every failed decision falls back
            log.warning("thinker: warming up failed: %s", type(failed[0]).__name__)
        log.info(
            "thinker: %d %s worker(s) up in %.0f ms, hard budget %.0f ms",
            self.workers,
            self.method,
            (self.clock() - began) * 1000,
            self.budget * 1000,
        )

    async def stop(self) -> None:
        """Shut the pool down (a search in progress ends by its deadline), after its start
        if that is still going on, and log the decision times."""
        self._stopped = True
        starting, self._starting = self._starting, None
        if starting is not None and not starting.done():
            # A thread cannot be interrupted: its start (a second or so) is waited for,
            # so that the pool it makes is shut down here rather than left behind.
            await asyncio.wait([starting])
        pool, self._pool = self._pool, None
        if pool is not None:
            await worker_pool.shut_down(pool)
        log.info("thinker: %s", self.summary())

    def inline(self, level: Level) -> Computer:
        """A computer of a heuristic level (easy, medium) with a fresh seed, to call
        inline: what a person's timed-out turn is played by, inside its transaction."""
        if level is Level.HARD:
            raise ValueError("the hard level searches: ask `decide`, not inline")
        return computer(level, seed=self.new_seed())

    async def decide(self, view: MatchView, level: Level) -> Decision:
        """The decision of a computer of `level` for the seat whose view this is. Never
        takes much longer than the budget: a hard search not back in time is replaced by
        medium's decision."""
        began = self.clock()
        if level is Level.HARD:
            decision = await self._hard(view, began)
        else:
            decision = computer(level, seed=self.new_seed()).decide(view)
        self._times[level].append(self.clock() - began)
        return decision

    async def _hard(self, view: MatchView, began: float) -> Decision:
        pool = self._pool
        if pool is None and not self._stopped and self._starting is None:
            pool = self._pool = self._new_pool()  # never started (tests): started when needed
        if pool is None:
            why = "asked after the thinker stopped" if self._stopped else "asked before ready"
            answer = None
        else:
            answer, why = await self._ask(pool, view)
        if answer is not None:
            sent, reason, args = answer
            # The engine's own action object, equal to the one that came back.
            action = next((legal for legal in view.round.legal if legal == sent), None)
            if action is not None:
                return Decision(action, reason, args)
            # Never expected (every level answers from `legal`); the action is not logged.
            why = "not among the legal actions"
            log.warning("thinker: a hard decision was not among the legal actions")
        self.fallbacks += 1
        log.debug(
            "thinker: hard decision %s after %.0f ms: medium decides",
            why,
            (self.clock() - began) * 1000,
        )
        return computer(Level.MEDIUM, seed=self.new_seed()).decide(view)

    async def _ask(
        self, pool: concurrent.futures.ProcessPoolExecutor, view: MatchView
    ) -> tuple[Searched, str]:
        """The pool's answer, or None and why there is none.

        When other searches are asked for already, this one gets its share of the budget
        (the budget over the searches a worker has to make), so that under load every
        search is shorter rather than most of them too late."""
        deadline = time.monotonic() + self.budget
        share = self.budget * self.workers / (self._asked + self.workers)
        self._asked += 1
        try:
            future = asyncio.get_running_loop().run_in_executor(
                pool, _search, view, self.new_seed(), deadline, share
            )
            return await asyncio.wait_for(future, self.budget + self.margin), "late"
        except TimeoutError:
            return None, "late"  # cancelled if still queued; a running search ends soon
        except BrokenProcessPool:
            # A worker died (killed, out of memory): the next hard decision gets a new pool.
            if self._pool is pool:
                self._pool = None
                pool.shutdown(wait=False, cancel_futures=True)
                if self._starting is not None:
                    self._starting = None
                    self.start_soon()  # started again in the background
            return None, "lost: the pool broke"
        except Exception as exc:  # a fault of the search: the game goes on at medium
            log.warning("thinker: a hard decision failed: %s", type(exc).__name__)
            return None, f"failed ({type(exc).__name__})"
        finally:
            self._asked -= 1

    def times(self) -> Mapping[Level, Times]:
        """Each level's decision times so far (levels with none are left out)."""
        return {
            level: Times(
                level,
                len(kept),
                percentile(kept, 0.5),
                percentile(kept, 0.95),
                max(kept),
            )
            for level, kept in self._times.items()
            if kept
        }

    def summary(self) -> str:
        """One line: every level's decision times and the fallbacks (bench/e2e.py reads it)."""
        levels = "; ".join(times.line() for times in self.times().values()) or "no decisions"
        return f"{levels}; {self.fallbacks} fallbacks to medium"
