"""Counters of what the bot's work costs: statements, transactions, hops to
the database thread and the time waited for them, pictures rendered and sent, Bot API
calls, moves saved ("moves"), and the garbage collector's passes and pauses (`watch_gc`:
"gc.<generation>", "gc.us"); and the collector's settings for a long-running bot (`tune_gc`).

Each is a plain integer bumped where the work happens (`count`), cheap enough to stay
on in production. `python -m bot` logs them all as one line on SIGUSR1 and when it
stops (`log_counters`), so bench/e2e.py can take two snapshots around its window and
print the cost per move; tests read `snapshot()` in-process; `bot.server.metrics` serves them
at /metrics. Nothing here names a chat, a person or a tile.
"""

from __future__ import annotations

import gc
import json
import logging
import time
import tracemalloc
from collections import Counter
from typing import Any

from storage import db

log = logging.getLogger(__name__)

_counts: Counter[str] = Counter()

# The line `log_counters` writes, which bench/e2e.py parses: "perf counters: {json}".
LINE_PREFIX = "perf counters: "


def count(name: str, n: int = 1) -> None:
    """Add `n` to the counter `name` (e.g. "db.statements", "render.table")."""
    _counts[name] += n


def snapshot() -> dict[str, int]:
    """Every counter as it stands now, the database's (`storage.db.WORK`, which knows
    nothing of this module) as "db.statements", "db.transactions", "db.hops", "db.hop_us"."""
    counts = dict(_counts)
    counts.update({f"db.{name}": value for name, value in db.WORK.items()})
    counts.update({f"db.{name}": value for name, value in db.TIMING.items()})
    return counts


def since(before: dict[str, int]) -> dict[str, int]:
    """How much each counter grew since `before` (a `snapshot()`); zeros left out."""
    grown = {name: value - before.get(name, 0) for name, value in snapshot().items()}
    return {name: value for name, value in grown.items() if value}


def log_counters() -> None:
    """One INFO line with every counter, in a form a script can read back; and where the
    memory is, when the bot runs under tracemalloc (`log_memory`)."""
    log.info("%s%s", LINE_PREFIX, json.dumps(dict(sorted(snapshot().items()))))
    log_memory()


MEMORY_PREFIX = "perf memory: "
MEMORY_TOP = 25


def log_memory(top: int = MEMORY_TOP) -> None:
    """With `PYTHONTRACEMALLOC=1` (or `-X tracemalloc`) set for the bot: one INFO line,
    the Python memory traced now and the `top` source lines holding the most of it (file,
    line, KiB, blocks), for finding what grows with the games. Only places in
    the code are named, never what the memory holds. Without tracing it does nothing."""
    if not tracemalloc.is_tracing():
        return
    current, peak = tracemalloc.get_traced_memory()
    stats = tracemalloc.take_snapshot().statistics("lineno")[:top]
    lines = [
        [stat.traceback[0].filename, stat.traceback[0].lineno, stat.size >> 10, stat.count]
        for stat in stats
    ]
    summary = {"traced_kib": current >> 10, "peak_kib": peak >> 10, "top": lines}
    log.info("%s%s", MEMORY_PREFIX, json.dumps(summary))


_gc_started = 0.0


def _on_gc(phase: str, info: dict[str, Any]) -> None:
    global _gc_started
    if phase == "start":
        _gc_started = time.perf_counter()
        return
    took = round((time.perf_counter() - _gc_started) * 1e6)
    _counts[f"gc.{info['generation']}"] += 1
    _counts["gc.us"] += took


def watch_gc() -> None:
    """Count the collector's passes per generation, "gc.0", "gc.1", "gc.2", and their
    pauses added up in µs, "gc.us" (the loop stands still meanwhile)."""
    if _on_gc not in gc.callbacks:
        gc.callbacks.append(_on_gc)


GC_YOUNG = 20_000
"""Allocations (net of frees) between two collections of the youngest generation; the
interpreter's default is 700. See `tune_gc`."""


def tune_gc() -> None:
    """Set the garbage collector for the bot once it has started.

    What the start made (modules, aiogram's and pydantic's types and schemas, the
    texts, the fonts) lives as long as the process: it is collected once, then frozen
    (`gc.freeze`), so no later pass walks it. And the youngest generation is collected
    every `GC_YOUNG` allocations instead of 700: a move allocates thousands of short-lived
    objects (pydantic models of the calls and answers, texts, keyboards), and at 700 the
    collector would run every other move, each pass stopping the loop (`watch_gc`'s
    counters show the passes and their pauses)."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(GC_YOUNG, middle, old)
