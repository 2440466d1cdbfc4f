"""Telegram's updates on their way to the instance that owns their chat's shard
(migration 021, `update_queue`; docs/instances.md).

One instance receives the updates (polling, or the webhook) and `put`s each here with
its shard; the owner of a shard (the lease "shard:<n>") `take`s that shard's updates
and handles them. An update that changes something is done by its change: the handling
runs in `storage.db.acting_for(fence=<the shard's fence>, update_id=...)`, and the first
change committed there deletes the row in its own transaction, after the fence's check.
An update that changes nothing (a /help) is `done` afterwards.

Why a table in our own database rather than a queue library:

- PgQueuer hands a job to whichever worker of its entrypoint picks it first (`FOR UPDATE
  SKIP LOCKED`, woken by LISTEN/NOTIFY) and records the job's end itself. procrastinate
  runs the jobs that share a `lock` one after another, which would keep a chat's order,
  but its jobs too go to any worker of their queue, and the worker records the end after
  the task returns. Here an update must reach the current owner of its shard, which
  changes at run time as leases move, and its done mark must commit in the very
  transaction of the move, on our connection, after the shard's fence check.
- PGMQ is a PostgreSQL extension (or its SQL objects installed into a schema of their
  own): not something we may assume on an admin's server, and its delivery is exactly
  once only within a visibility timeout.
- All three are PostgreSQL only; SQLite, the default, runs the same code here.

What is guaranteed, and how:

- Each update's change is kept at most once: the row's deletion commits with it, and a
  second handling finds the row gone (`storage.db.AlreadyHandled`), its change rolled
  back. A deposed owner's change is refused by the shard's fence (`storage.db.Deposed`)
  before that. Until its change (or `done`) commits, an update stays queued: an owner
  that dies mid-way leaves it to the next owner, so each update is handled at least
  once while instances come back.
- A chat's updates are handled in `update_id` order: `take` returns only each chat's
  oldest waiting update, so the next one of that chat is returned only once the one
  before it is gone. Within one process the consumer passes the updates it is still
  handling as `handling`; they are not returned again, and their chats' later updates
  stay behind them.
- Across processes a shard has one owner at a time (a lease), so there is one consumer
  per shard except in the moment of a takeover. On PostgreSQL `take` locks the rows it
  returns `FOR UPDATE SKIP LOCKED` for its own statement only (no lock is held while an
  update is handled: the handling runs on other connections of the pool); what that
  buys is that a row whose deletion is being committed by the old owner's change is
  skipped, not returned to the new owner, and its chat's later updates wait behind it.
  Should both owners still handle the same update, the fence and the deletion above let
  only one change in. SQLite serves one process: there is nothing to lock.

On PostgreSQL `put` notifies `CHANNEL` (the shard's number as the payload), so an owner
`listening` is woken by the update instead of polling for it; SQLite sends nothing, its
one process knows when it puts.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Collection
from contextlib import asynccontextmanager
from dataclasses import dataclass

from storage.db import AlreadyHandled, Database, Row, Transaction, current_scope

# The notification channel of new updates on PostgreSQL (payload: the shard's number).
CHANNEL = "domino_update_queue"

_COLUMNS = "update_id, shard, chat_id, body, received_at"


@dataclass(frozen=True, slots=True)
class Queued:
    """An update waiting: Telegram's `update_id`, the `shard` of its chat (`chat_id`,
    None for an update without one), its JSON `body` as received, and when
    (`received_at`, unix seconds)."""

    update_id: int
    shard: int
    chat_id: int | None
    body: str
    received_at: float

    @classmethod
    def from_row(cls, row: Row) -> Queued:
        chat_id = row["chat_id"]
        return cls(
            int(row["update_id"]),
            int(row["shard"]),
            None if chat_id is None else int(chat_id),
            str(row["body"]),
            float(row["received_at"]),
        )


async def put(
    db: Database, update_id: int, shard: int, chat_id: int | None, body: str, *, now: float
) -> bool:
    """Queue the update for the owner of `shard`; False (and nothing changed) when it was
    queued already: Telegram delivering it again after a timeout or a restart."""

    async def body_of_put(tx: Transaction) -> bool:
        added = await tx.execute(
            f"INSERT INTO update_queue ({_COLUMNS}) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (update_id) DO NOTHING",
            (update_id, shard, chat_id, body, now),
        )
        if added and db.dialect == "postgres":  # delivered at COMMIT, to its listeners
            await tx.fetch_one("SELECT pg_notify(?, ?)", (CHANNEL, str(shard)))
        return added == 1

    return await db.atomic(body_of_put)


async def take(
    db: Database, shards: Collection[int], *, limit: int, handling: Collection[int] = ()
) -> list[Queued]:
    """At most `limit` of the oldest updates of `shards`, in `update_id` order: of each
    chat only its oldest waiting one, and none of `handling` (the update ids this
    consumer is handling still), whose chats' later updates stay behind them. On
    PostgreSQL, an update whose row another transaction holds (its deletion being
    committed) is skipped, and so are its chat's later ones (see the module's
    docstring). Taking changes nothing: an update leaves only by its change or `done`."""
    if not shards or limit <= 0:
        return []
    shard_list = sorted(set(shards))
    params: list[object] = [*shard_list]
    skipped = ""
    if handling:
        handled = sorted(set(handling))
        skipped = f" AND q.update_id NOT IN ({', '.join('?' * len(handled))})"
        params.extend(handled)
    params.append(limit)
    locking = " FOR UPDATE OF q SKIP LOCKED" if db.dialect == "postgres" else ""
    rows = await db.fetch_all(
        f"SELECT {', '.join('q.' + c for c in _COLUMNS.split(', '))}"
        " FROM update_queue AS q"
        f" WHERE q.shard IN ({', '.join('?' * len(shard_list))}){skipped}"
        " AND NOT EXISTS (SELECT 1 FROM update_queue AS e WHERE e.shard = q.shard"
        " AND e.chat_id = q.chat_id AND e.update_id < q.update_id)"
        f" ORDER BY q.update_id LIMIT ?{locking}",
        params,
    )
    return [Queued.from_row(row) for row in rows]


async def done(db: Database, update_id: int) -> bool:
    """The update was handled without changing anything (a /help): its row goes. False
    when it was gone already. In the scope of that very update (`acting_for`) this is
    the scope's consumption, checked by its fence like any change: a deposed owner's is
    refused (`Deposed`)."""
    scope = current_scope()
    if scope is not None and scope.update_id == update_id:
        if scope.consumed:
            return False

        async def nothing_else(tx: Transaction) -> None:
            """The consumption alone, done before the COMMIT by the database."""

        try:
            await db.atomic(nothing_else)
        except AlreadyHandled:
            return False
        return True
    changed = await db.execute("DELETE FROM update_queue WHERE update_id = ?", (update_id,))
    return changed == 1


@asynccontextmanager
async def listening(db: Database, on_put: Callable[[int], None]) -> AsyncIterator[bool]:
    """While the block runs, `on_put(shard)` as any instance `put`s an update of `shard`
    (PostgreSQL: LISTEN on `CHANNEL`, one connection of the pool held meanwhile); yields
    whether such notices come at all. SQLite sends none: its one process knows when it
    puts. A lost connection loses notices without a word, so an owner still takes now
    and then."""
    if db.dialect != "postgres":
        yield False
        return
    from storage.postgres import PostgresDatabase  # asyncpg only when it is used

    assert isinstance(db, PostgresDatabase), db

    def told(payload: str) -> None:
        if payload.lstrip("-").isdigit():
            on_put(int(payload))

    async with db.listening(CHANNEL, told):
        yield True


async def waiting(db: Database, shards: Collection[int] | None = None) -> dict[int, int]:
    """How many updates wait, by shard (for /metrics): every shard asked for, 0 when
    empty; or, with `shards` None, the shards that have any."""
    if shards is None:
        rows = await db.fetch_all("SELECT shard, COUNT(*) AS n FROM update_queue GROUP BY shard")
        return {int(row["shard"]): int(row["n"]) for row in rows}
    shard_list = sorted(set(shards))
    counts = dict.fromkeys(shard_list, 0)
    if not shard_list:
        return counts
    rows = await db.fetch_all(
        "SELECT shard, COUNT(*) AS n FROM update_queue"
        f" WHERE shard IN ({', '.join('?' * len(shard_list))}) GROUP BY shard",
        shard_list,
    )
    counts.update({int(row["shard"]): int(row["n"]) for row in rows})
    return counts


async def oldest_age(db: Database, shard: int, *, now: float) -> float | None:
    """How long the oldest update of `shard` has waited at `now` (seconds); None when
    none waits. A shard whose age keeps growing has no live owner."""
    row = await db.fetch_one(
        "SELECT MIN(received_at) AS oldest FROM update_queue WHERE shard = ?", (shard,)
    )
    if row is None or row["oldest"] is None:
        return None
    return max(0.0, now - float(row["oldest"]))
