"""Values the bot keeps for itself across restarts, by name (`bot_values`, migration 012):
the webhook's generated secret token. Not the players' data: nothing here is shown."""

from __future__ import annotations

from collections.abc import Callable

from storage.db import Database


async def value(db: Database, name: str) -> str | None:
    """The value stored under `name`, if any."""
    row = await db.fetch_one("SELECT value FROM bot_values WHERE name = ?", (name,))
    return None if row is None else str(row["value"])


async def kept_value(db: Database, name: str, make: Callable[[], str]) -> str:
    """The value stored under `name`; if there is none yet, `make()` stored first. A value
    once stored stays: of two starts racing, both get the first one's."""
    async with db.transaction() as tx:
        await tx.execute(
            "INSERT INTO bot_values (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
            (name, make()),
        )
        row = await tx.fetch_one("SELECT value FROM bot_values WHERE name = ?", (name,))
    assert row is not None, "inserted or already there"
    return str(row["value"])
