"""The scope of a unit of work (`storage.db.acting_for`): the fence a change checks, given
for a context (a shard's) instead of the process, inherited by the tasks created in it;
and the queued update that the first change committed in it consumes, in the change's
own transaction, exactly once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest

from storage import leases, update_queue
from storage.connect import open_database
from storage.db import (
    DATABASE_ERRORS,
    INTEGRITY_ERRORS,
    Acting,
    AlreadyHandled,
    Database,
    Deposed,
    Fence,
    Transaction,
    acting_for,
    current_scope,
)

SHARD = "shard:3"
INSERT = "INSERT INTO bot_values (name, value) VALUES (?, ?)"


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_database(tmp_path / "scope.sqlite3")
    yield database
    await database.close()


def inserting(name: str) -> Callable[[Transaction], Coroutine[Any, Any, None]]:
    async def body(tx: Transaction) -> None:
        await tx.execute(INSERT, (name, "1"))

    return body


# The ways of changing data, each checked by the fence and consuming the update.
WAYS = ["atomic", "transaction", "execute"]


async def change(db: Database, way: str, name: str) -> None:
    """Insert the value `name` by `way`."""
    if way == "atomic":
        await db.atomic(inserting(name))
    elif way == "transaction":
        async with db.transaction() as tx:
            await tx.execute(INSERT, (name, "1"))
    else:
        await db.execute(INSERT, (name, "1"))


def consumed(scope: Acting) -> bool:
    """Whether the scope's update was consumed (read anew after each change)."""
    return scope.consumed


async def names(db: Database) -> list[str]:
    rows = await db.fetch_all("SELECT name FROM bot_values ORDER BY name")
    return [str(row["name"]) for row in rows]


async def queued(db: Database) -> list[int]:
    rows = await db.fetch_all("SELECT update_id FROM update_queue ORDER BY update_id")
    return [int(row["update_id"]) for row in rows]


async def shard_fence(db: Database, refusals: list[Deposed]) -> Fence:
    term = await leases.take(db, SHARD, "a", now=100.0, ttl=15)
    assert term == 1
    return Fence(SHARD, term, refusals.append)


async def take_over(db: Database) -> None:
    """Another instance takes the shard past "a"'s lease: a new term."""
    assert await leases.take(db, SHARD, "b", now=200.0, ttl=15) == 2


async def test_the_scopes_fence_refuses_a_change_after_a_takeover_and_outside_it_db_fence_rules(
    db: Database,
) -> None:
    """Every way of changing data checks the scope's fence: `atomic`, `transaction()`,
    `execute`; the refusal is told to that fence's `deposed`. A change outside the scope
    checks `Database.fence`, here none, and is kept."""
    refusals: list[Deposed] = []
    fence = await shard_fence(db, refusals)
    with acting_for(fence=fence):
        await db.atomic(inserting("kept"))
    await take_over(db)
    with acting_for(fence=fence) as scope:
        assert current_scope() is scope
        for way in WAYS:
            with pytest.raises(Deposed):
                await change(db, way, way)
        assert await db.fetch_one("SELECT 1 AS one")  # reads are not fenced
    assert current_scope() is None
    assert [(r.lease, r.term, r.current) for r in refusals] == [(SHARD, 1, 2)] * 3
    await db.execute(INSERT, ("outside", "1"))
    assert await names(db) == ["kept", "outside"]


async def test_the_scopes_fence_stands_in_for_the_processes_and_a_scope_without_one_keeps_it(
    db: Database,
) -> None:
    leader = await leases.take(db, "leader", "a", now=100.0, ttl=15)
    assert leader == 1
    leader_refusals: list[Deposed] = []
    db.fence = Fence("leader", leader, leader_refusals.append)
    shard_refusals: list[Deposed] = []
    fence = await shard_fence(db, shard_refusals)
    await take_over(db)
    await db.atomic(inserting("under the leader"))  # the leader's term still runs
    with acting_for(update_id=None):  # no fence of its own: the process's
        await db.atomic(inserting("scope without a fence"))
    with acting_for(fence=fence), pytest.raises(Deposed):
        await db.atomic(inserting("under the shard"))
    assert leader_refusals == [] and len(shard_refusals) == 1
    assert await names(db) == ["scope without a fence", "under the leader"]


async def test_a_task_created_inside_the_scope_keeps_its_fence_after_the_block_ends(
    db: Database,
) -> None:
    refusals: list[Deposed] = []
    fence = await shard_fence(db, refusals)
    go = asyncio.Event()

    async def later_change() -> None:
        await go.wait()
        await db.atomic(inserting("from the task"))

    with acting_for(fence=fence):
        task = asyncio.create_task(later_change())
    await take_over(db)
    go.set()
    with pytest.raises(Deposed):
        await task
    await db.atomic(inserting("from outside"))  # this context never had the scope
    assert await names(db) == ["from outside"] and len(refusals) == 1


async def test_the_first_change_consumes_the_update_in_its_own_transaction(db: Database) -> None:
    assert await update_queue.put(db, 7, 3, -100, "{}", now=1.0)
    assert await update_queue.put(db, 8, 3, -100, "{}", now=1.0)
    with acting_for(update_id=7) as scope:
        assert await db.fetch_all("SELECT name FROM bot_values") == []  # reads never consume
        assert await queued(db) == [7, 8] and not consumed(scope)
        await db.atomic(inserting("move"))
        assert consumed(scope) and await queued(db) == [8]
        # Later changes of the same handling do not try again.
        async with db.transaction() as tx:
            await tx.execute(INSERT, ("second", "1"))
        await db.execute(INSERT, ("third", "1"))
    assert await names(db) == ["move", "second", "third"]


@pytest.mark.parametrize("way", WAYS)
async def test_a_failing_change_leaves_the_update_queued_for_the_next_change(
    db: Database, way: str
) -> None:
    """The deletion is rolled back with the change that failed; the scope gives the
    update back, so its next change consumes it."""
    await db.execute(INSERT, ("taken", "0"))
    assert await update_queue.put(db, 7, 3, -100, "{}", now=1.0)
    with acting_for(update_id=7) as scope:
        with pytest.raises(INTEGRITY_ERRORS):
            await change(db, way, "taken")
        assert await queued(db) == [7] and not consumed(scope)
        await db.atomic(inserting("retried"))
        assert await queued(db) == [] and consumed(scope)
    assert await names(db) == ["retried", "taken"]


async def test_an_update_refused_by_the_fence_stays_queued(db: Database) -> None:
    refusals: list[Deposed] = []
    fence = await shard_fence(db, refusals)
    assert await update_queue.put(db, 7, 3, -100, "{}", now=1.0)
    await take_over(db)
    with acting_for(fence=fence, update_id=7) as scope, pytest.raises(Deposed):
        await db.atomic(inserting("move"))
    assert not consumed(scope) and await queued(db) == [7] and await names(db) == []


@pytest.mark.parametrize("way", WAYS)
async def test_a_second_handling_of_an_update_changes_nothing(db: Database, way: str) -> None:
    assert await update_queue.put(db, 7, 3, -100, "{}", now=1.0)
    with acting_for(update_id=7):
        await db.atomic(inserting("first"))
    with acting_for(update_id=7) as again:
        with pytest.raises(AlreadyHandled) as refused:
            await change(db, way, "second")
        assert refused.value.update_id == 7 and not consumed(again)
        assert not isinstance(refused.value, DATABASE_ERRORS)  # `retrying` never repeats it
    assert await names(db) == ["first"]


async def test_of_two_handlings_at_once_only_one_change_is_kept(
    db: Database, tmp_path: Path
) -> None:
    """Two consumers (the old owner of the shard and the new one, each its connection)
    handle the same update together: one change commits, the other is refused."""
    other = await open_database(tmp_path / "scope.sqlite3", side=True)
    try:
        assert await update_queue.put(db, 7, 3, -100, "{}", now=1.0)

        async def handle(database: Database, name: str) -> str:
            with acting_for(update_id=7):
                try:
                    await database.atomic(inserting(name))
                except AlreadyHandled:
                    return "refused"
            return "kept"

        outcomes = await asyncio.gather(handle(db, "a"), handle(other, "b"))
        assert sorted(outcomes) == ["kept", "refused"]
        assert len(await names(db)) == 1 and await queued(db) == []
    finally:
        await other.close()


async def test_done_in_the_scope_of_its_update_is_its_consumption(db: Database) -> None:
    refusals: list[Deposed] = []
    fence = await shard_fence(db, refusals)
    for update_id in (7, 8):
        assert await update_queue.put(db, update_id, 3, -100, "{}", now=1.0)
    with acting_for(fence=fence, update_id=7) as scope:
        assert await update_queue.done(db, 7)
        assert consumed(scope) and not await update_queue.done(db, 7)
    await take_over(db)
    with acting_for(fence=fence, update_id=8), pytest.raises(Deposed):
        await update_queue.done(db, 8)  # a deposed owner's "done" is refused too
    assert await queued(db) == [8]
