"""Leases (issue 18, migration 013): which instance of the bot may act now.

A lease is a row (name, holder, expires_at): its holder renews it before `expires_at`
passes; anyone may take it once it has passed. One statement does both, taking or
renewing, so two instances asking at once cannot both get it: the database applies
their upserts one after the other, and the second finds the first's unexpired row.
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


async def take(db: Database, name: str, holder: str, *, now: float, ttl: float) -> bool:
    """Take the lease `name` for `holder` until `now + ttl`, or renew it if `holder` holds
    it already. False (and nothing changed) while another holder's lease runs."""
    changed = await db.execute(
        """
        INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, ?)
        ON CONFLICT (name) DO UPDATE SET
            holder = excluded.holder, expires_at = excluded.expires_at
        WHERE leases.holder = excluded.holder OR leases.expires_at < ?
        """,
        (name, holder, now + ttl, now),
    )
    return changed == 1


async def current(db: Database, name: str) -> Lease | None:
    """The lease as stored (running or not), if it was ever taken."""
    row = await db.fetch_one("SELECT name, holder, expires_at FROM leases WHERE name = ?", (name,))
    return None if row is None else Lease(row["name"], row["holder"], float(row["expires_at"]))


async def release(db: Database, name: str, holder: str) -> bool:
    """End `holder`'s lease now, so another may take it at once; False if it was not
    theirs (any more)."""
    changed = await db.execute(
        "UPDATE leases SET expires_at = 0 WHERE name = ? AND holder = ?", (name, holder)
    )
    return changed == 1
