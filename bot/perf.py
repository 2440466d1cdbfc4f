"""Counters of what the bot's work costs (issue 16): statements, transactions, hops to
the database thread, pictures rendered and sent, Bot API calls.

Each is a plain integer bumped where the work happens (`count`), cheap enough to stay
on in production. `python -m bot` logs them all as one line on SIGUSR1 and when it
stops (`log_counters`), so bench/e2e.py can take two snapshots around its window and
print the cost per move; tests read `snapshot()` in-process. Nothing here names a
chat, a person or a tile.
"""

from __future__ import annotations

import json
import logging
from collections import Counter

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
    nothing of this module) as "db.statements", "db.transactions", "db.hops"."""
    counts = dict(_counts)
    counts.update({f"db.{name}": value for name, value in db.WORK.items()})
    return counts


def since(before: dict[str, int]) -> dict[str, int]:
    """How much each counter grew since `before` (a `snapshot()`); zeros left out."""
    grown = {name: value - before.get(name, 0) for name, value in snapshot().items()}
    return {name: value for name, value in grown.items() if value}


def log_counters() -> None:
    """One INFO line with every counter, in a form a script can read back."""
    log.info("%s%s", LINE_PREFIX, json.dumps(dict(sorted(snapshot().items()))))
