"""The groups' flood budgets (migration 013): each group's token bucket of the outgoing
queue as last written, the `tokens` it held at `at` (unix seconds), so that an instance
taking over, or a bot started again, goes on from there (`bot.telegram.flood_budgets`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from storage.db import Database, Transaction


class Budget(NamedTuple):
    """A group's bucket held `tokens` at `at` (unix seconds)."""

    tokens: float
    at: float


async def save_budgets(db: Database, rows: Iterable[tuple[int, float, float]]) -> None:
    """Store each (chat_id, tokens, at), replacing the chat's earlier one; one transaction."""
    params = [(int(chat_id), float(tokens), float(at)) for chat_id, tokens, at in rows]
    if not params:
        return

    async def body(tx: Transaction) -> None:
        await tx.execute_many(
            "INSERT INTO flood_budgets (chat_id, tokens, at) VALUES (?, ?, ?)"
            " ON CONFLICT (chat_id) DO UPDATE SET tokens = excluded.tokens, at = excluded.at",
            params,
        )

    await db.atomic(body)


async def recent_budgets(db: Database, since: float) -> dict[int, Budget]:
    """The budgets written at `since` or later, by chat."""
    rows = await db.fetch_all(
        "SELECT chat_id, tokens, at FROM flood_budgets WHERE at >= ?", (float(since),)
    )
    return {int(row["chat_id"]): Budget(float(row["tokens"]), float(row["at"])) for row in rows}


async def forget_budgets_before(db: Database, moment: float) -> int:
    """Delete the budgets written before `moment` (their buckets are full again); how many."""
    return await db.execute("DELETE FROM flood_budgets WHERE at < ?", (float(moment),))
