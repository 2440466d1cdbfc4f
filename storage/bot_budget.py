"""Telegram's bot-wide limit as one token bucket shared by every instance (migration
021, `bot_budget`; `bot.telegram.bot_budget` claims from it).

The bucket is one row (`OVERALL`): the `tokens` it held at `at` (unix seconds). Each
claim refills it for the time since `at` at `pace_rate` a second, never beyond `burst`,
grants what it can of what was asked, and stores the rest, in one transaction: the row
is read locked (`FOR UPDATE` on PostgreSQL; SQLite's writers never overlap), so claims of
several instances at once are applied one after the other and together never take more
than the bucket holds. A missing row is a full bucket.

The bucket is the bot's, no game's: a claim runs in a scope of its own (`acting_for()`),
so one made while an update is handled (the outgoing queue's workers are created in the
handler's context) never consumes that update nor checks its shard's fence.

`at` only moves forward: an instance whose clock lags behind the last writer's refills
nothing rather than counting the same seconds twice (the clocks should agree anyway:
NTP, as for the leases).
"""

from __future__ import annotations

import math

from storage.db import Database, Transaction, acting_for

OVERALL = "overall"  # the one bucket: Telegram's limit for the whole bot
# A token short by this much is there: unix seconds as floats are exact to about 2e-7 s,
# so the refill of a moment is off by up to a few millionths of a token.
ROUNDING = 1e-4


async def claim(
    db: Database, want: int, *, now: float, pace_rate: float, burst: int, name: str = OVERALL
) -> int:
    """Take up to `want` whole tokens from the bucket at unix time `now`: how many were
    granted (0 when the bucket holds less than one)."""

    async def body(tx: Transaction) -> int:
        tokens, at = await _refilled(tx, name, now=now, pace_rate=pace_rate, burst=burst)
        granted = min(max(0, want), math.floor(tokens + ROUNDING))
        await _store(tx, name, max(0.0, tokens - granted), max(at, now))
        return granted

    with acting_for():  # see the module's docstring
        return await db.atomic(body)


async def give_back(
    db: Database, tokens: int, *, now: float, pace_rate: float, burst: int, name: str = OVERALL
) -> None:
    """Return `tokens` claimed and not used, for another instance to use (never beyond
    `burst`: a bucket that refilled meanwhile lost nothing by their absence)."""

    async def body(tx: Transaction) -> None:
        held, at = await _refilled(tx, name, now=now, pace_rate=pace_rate, burst=burst)
        await _store(tx, name, min(float(burst), held + max(0, tokens)), max(at, now))

    with acting_for():  # see the module's docstring
        await db.atomic(body)


async def _refilled(
    tx: Transaction, name: str, *, now: float, pace_rate: float, burst: int
) -> tuple[float, float]:
    """The bucket's tokens refilled up to `now`, and its `at`, its row locked until COMMIT
    (made first, full, if missing)."""
    lock = " FOR UPDATE" if tx.locks_rows else ""  # see Transaction.locks_rows
    select = f"SELECT tokens, at FROM bot_budget WHERE name = ?{lock}"
    row = await tx.fetch_one(select, (name,))
    if row is None:
        # Two first claims at once: the second's insert waits for the first's COMMIT and
        # does nothing; its select then reads (and locks) the first's row.
        await tx.execute(
            "INSERT INTO bot_budget (name, tokens, at) VALUES (?, ?, ?)"
            " ON CONFLICT (name) DO NOTHING",
            (name, float(burst), float(now)),
        )
        row = await tx.fetch_one(select, (name,))
        assert row is not None  # inserted, or committed by another before our insert
    tokens, at = float(row["tokens"]), float(row["at"])
    passed = max(0.0, now - at)  # a clock behind the last writer's refills nothing
    return min(float(burst), tokens + passed * pace_rate), at


async def _store(tx: Transaction, name: str, tokens: float, at: float) -> None:
    await tx.execute(
        "UPDATE bot_budget SET tokens = ?, at = ? WHERE name = ?", (tokens, float(at), name)
    )


async def level(db: Database, name: str = OVERALL) -> tuple[float, float] | None:
    """The bucket as stored, (tokens, at), not refilled; None before the first claim."""
    row = await db.fetch_one("SELECT tokens, at FROM bot_budget WHERE name = ?", (name,))
    return None if row is None else (float(row["tokens"]), float(row["at"]))
