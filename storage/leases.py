"""Leases: which instance of the bot may act now (bot.server.leadership).

A lease is a row (name, holder, expires_at, term). Its holder renews it before
`expires_at` passes; anyone may take it once it has passed. Taking it (`take`) is one
statement, so two instances asking at once cannot both get it: the database applies
their upserts one after the other, and the second finds the first's unexpired row.

Each take gives the lease a new `term` (one more than the last), also when the same
holder takes it back after a restart; a renewal (`renew`) keeps it and succeeds only for
the term it names. The term is the fencing token: every change the holder writes checks
it inside its own transaction (`storage.db.Fence`), so a holder that was paused past its
lease while another took it writes nothing after it resumes.

Times are unix seconds of the instances' clocks (keep them in sync: NTP).
"""

from __future__ import annotations

from dataclasses import dataclass

from storage.db import Database


@dataclass(frozen=True, slots=True)
class Lease:
    name: str
    holder: str
    expires_at: float
    term: int


async def take(db: Database, name: str, holder: str, *, now: float, ttl: float) -> int | None:
    """Take the lease `name` for `holder` until `now + ttl` when it is free, has run out,
    or is `holder`'s own: the new term. None (and nothing changed) while another
    holder's lease runs."""
    async with db.transaction() as tx:
        row = await tx.fetch_one(
            """
            INSERT INTO leases (name, holder, expires_at, term) VALUES (?, ?, ?, 1)
            ON CONFLICT (name) DO UPDATE SET
                holder = excluded.holder, expires_at = excluded.expires_at,
                term = leases.term + 1
            WHERE leases.holder = excluded.holder OR leases.expires_at < ?
            RETURNING term
            """,
            (name, holder, now + ttl, now),
        )
    return None if row is None else int(row["term"])


async def renew(db: Database, name: str, holder: str, term: int, *, now: float, ttl: float) -> bool:
    """Hold the lease `name` until `now + ttl`, if `holder` still holds it in `term`
    (even run out: nobody took it meanwhile). False when another term has begun."""
    changed = await db.execute(
        "UPDATE leases SET expires_at = ? WHERE name = ? AND holder = ? AND term = ?",
        (now + ttl, name, holder, term),
    )
    return changed == 1


async def current(db: Database, name: str) -> Lease | None:
    """The lease as stored (running or not), if it was ever taken."""
    row = await db.fetch_one(
        "SELECT name, holder, expires_at, term FROM leases WHERE name = ?", (name,)
    )
    if row is None:
        return None
    return Lease(row["name"], row["holder"], float(row["expires_at"]), int(row["term"]))


async def release(db: Database, name: str, holder: str, term: int) -> bool:
    """End `holder`'s lease of `term` now, so another may take it at once; False if it
    was not theirs (any more)."""
    changed = await db.execute(
        "UPDATE leases SET expires_at = 0 WHERE name = ? AND holder = ? AND term = ?",
        (name, holder, term),
    )
    return changed == 1
