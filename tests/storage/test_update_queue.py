"""The update queue (`storage.update_queue`): put once per update, taken by shard with
each chat's oldest update only, in order, done by the change or by `done`."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import update_queue
from storage.connect import open_database
from storage.db import Database, Transaction, acting_for
from storage.update_queue import Queued

ALICE, BOB, CAROL = 101, 102, 103


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_database(tmp_path / "queue.sqlite3")
    yield database
    await database.close()


def ids(updates: list[Queued]) -> list[int]:
    return [update.update_id for update in updates]


async def fill(db: Database, *updates: tuple[int, int, int | None]) -> None:
    """Queue each (update_id, shard, chat_id), received at its update_id's second."""
    for update_id, shard, chat_id in updates:
        assert await update_queue.put(db, update_id, shard, chat_id, "{}", now=float(update_id))


async def test_an_update_is_queued_once_however_often_telegram_delivers_it(db: Database) -> None:
    body = '{"update_id": 5, "message": {"text": "/start"}}'
    assert await update_queue.put(db, 5, 2, ALICE, body, now=10.0)
    assert not await update_queue.put(db, 5, 2, ALICE, '{"again": true}', now=11.0)
    assert await update_queue.take(db, [2], limit=10) == [Queued(5, 2, ALICE, body, 10.0)]
    assert await update_queue.waiting(db) == {2: 1}


async def test_take_gives_each_chats_oldest_update_in_order_and_only_of_the_shards_asked(
    db: Database,
) -> None:
    await fill(
        db,
        (1, 0, ALICE),
        (2, 0, ALICE),
        (3, 1, BOB),
        (4, 0, CAROL),
        (5, 1, BOB),
        (6, 2, 200),  # another shard
        (7, 0, None),  # no chat: none waits for another
        (8, 0, None),
    )
    assert ids(await update_queue.take(db, [0, 1], limit=10)) == [1, 3, 4, 7, 8]
    assert ids(await update_queue.take(db, {1}, limit=10)) == [3]
    assert ids(await update_queue.take(db, [0, 1], limit=2)) == [1, 3]
    assert await update_queue.take(db, [], limit=10) == []
    assert await update_queue.take(db, [5], limit=10) == []


async def test_a_chats_next_update_comes_once_the_one_before_it_is_done(db: Database) -> None:
    await fill(db, (1, 0, ALICE), (2, 0, ALICE), (3, 0, BOB))
    first = await update_queue.take(db, [0], limit=10)
    assert ids(first) == [1, 3]
    # Still being handled: neither comes again, and Alice's next stays behind hers.
    assert await update_queue.take(db, [0], limit=10, handling=[1, 3]) == []
    assert ids(await update_queue.take(db, [0], limit=10, handling=[1])) == [3]

    async def move(tx: Transaction) -> None:
        await tx.execute("INSERT INTO bot_values (name, value) VALUES ('moved', '1')")

    with acting_for(update_id=1):
        await db.atomic(move)  # the change consumes its update
    assert await update_queue.done(db, 3)  # nothing changed: done by hand
    assert not await update_queue.done(db, 3)
    assert ids(await update_queue.take(db, [0], limit=10)) == [2]


async def test_waiting_counts_by_shard_and_the_oldest_age(db: Database) -> None:
    await fill(db, (1, 0, ALICE), (2, 0, ALICE), (3, 1, BOB), (40, 3, CAROL))
    assert await update_queue.waiting(db) == {0: 2, 1: 1, 3: 1}
    assert await update_queue.waiting(db, [0, 2]) == {0: 2, 2: 0}
    assert await update_queue.waiting(db, []) == {}
    assert await update_queue.oldest_age(db, 0, now=10.0) == 9.0
    assert await update_queue.oldest_age(db, 3, now=41.0) == 1.0
    assert await update_queue.oldest_age(db, 2, now=10.0) is None


async def test_an_update_whose_deletion_is_being_committed_is_skipped_with_its_chats_next(
    db: Database,
) -> None:
    """PostgreSQL, the moment of a takeover: the old owner's change is committing the
    deletion of Alice's update 1 while the new owner takes. Update 1 is not returned
    (its row is locked), nor Alice's 2 (1 is still there before it); Bob's is."""
    if db.dialect != "postgres":
        pytest.skip("SQLite serves one process: nothing to skip (the PostgreSQL pass)")
    await fill(db, (1, 0, ALICE), (2, 0, ALICE), (3, 0, BOB))
    deleted = asyncio.Event()
    finish = asyncio.Event()

    async def old_owners_change() -> None:
        async with db.transaction() as tx:
            await tx.execute("DELETE FROM update_queue WHERE update_id = 1")
            deleted.set()
            await finish.wait()

    change = asyncio.create_task(old_owners_change())
    try:
        await deleted.wait()
        assert ids(await update_queue.take(db, [0], limit=10)) == [3]
    finally:
        finish.set()
        await change
    assert ids(await update_queue.take(db, [0], limit=10)) == [2, 3]


async def test_an_owner_listening_is_woken_by_each_put_of_any_instance(
    db: Database, tmp_path: Path
) -> None:
    if db.dialect != "postgres":
        async with update_queue.listening(db, lambda shard: None) as notified:
            assert not notified  # SQLite: the process that puts knows
        return
    receiver = await open_database(tmp_path / "queue.sqlite3", side=True)  # another instance
    woken: asyncio.Queue[int] = asyncio.Queue()
    try:
        async with update_queue.listening(db, woken.put_nowait) as notified:
            assert notified
            await fill(receiver, (1, 4, ALICE), (2, 7, BOB))
            async with asyncio.timeout(10):
                assert [await woken.get(), await woken.get()] == [4, 7]
    finally:
        await receiver.close()
