"""`Database.atomic`: a whole transaction in one hop to the database's thread,
and how it meets the block transactions (`Database.transaction`)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import db as storage_db
from storage.connect import open_database
from storage.db import INTEGRITY_ERRORS, Database, Migration, Transaction

TABLE = Migration(1, "001_t.sql", "CREATE TABLE t (x INTEGER PRIMARY KEY);")


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_database(tmp_path / "atomic.sqlite3", [TABLE])
    try:
        yield database
    finally:
        await database.close()


async def xs(db: Database) -> list[int]:
    return [row["x"] for row in await db.fetch_all("SELECT x FROM t ORDER BY x")]


async def test_a_body_is_committed_in_one_hop_and_its_value_returned(db: Database) -> None:
    async def body(tx: Transaction) -> int:
        await tx.execute("INSERT INTO t (x) VALUES (1)")
        await tx.execute_many("INSERT INTO t (x) VALUES (?)", [(2,), (3,)])
        row = await tx.fetch_one("SELECT count(*) AS n FROM t")
        assert row is not None
        return int(row["n"])

    before = storage_db.WORK.copy()
    assert await db.atomic(body) == 3
    grown = storage_db.WORK - before
    assert grown == {"transactions": 1, "hops": 1, "statements": 3}
    assert await xs(db) == [1, 2, 3]


async def test_a_body_that_raises_changes_nothing_and_its_error_comes_out(db: Database) -> None:
    class Refused(Exception):
        pass

    async def body(tx: Transaction) -> None:
        await tx.execute("INSERT INTO t (x) VALUES (1)")
        raise Refused

    with pytest.raises(Refused):
        await db.atomic(body)
    assert await xs(db) == []

    # The connection is usable again at once.
    async def insert(tx: Transaction) -> None:
        await tx.execute("INSERT INTO t (x) VALUES (5)")

    await db.atomic(insert)
    assert await xs(db) == [5]


@pytest.mark.sqlite_only  # SQLite runs the body on its thread; PostgreSQL awaits it
async def test_a_body_that_awaits_anything_else_is_refused_and_rolled_back(db: Database) -> None:
    async def body(tx: Transaction) -> None:
        await tx.execute("INSERT INTO t (x) VALUES (1)")
        await asyncio.sleep(0)  # would leave the transaction open across the loop

    with pytest.raises(RuntimeError, match="awaited something other"):
        await db.atomic(body)
    assert await xs(db) == []


async def test_a_failing_statement_rolls_the_whole_body_back(db: Database) -> None:
    async def body(tx: Transaction) -> None:
        await tx.execute("INSERT INTO t (x) VALUES (1)")
        await tx.execute("INSERT INTO t (x) VALUES (1)")  # the same primary key

    with pytest.raises(INTEGRITY_ERRORS, match=r"UNIQUE|already exists"):
        await db.atomic(body)
    assert await xs(db) == []


@pytest.mark.sqlite_only  # one connection there; PostgreSQL runs the two side by side on its pool
async def test_atomic_waits_for_an_open_block_and_sees_what_it_committed(db: Database) -> None:
    block_open = asyncio.Event()
    release = asyncio.Event()

    async def block() -> None:
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO t (x) VALUES (1)")
            block_open.set()
            await release.wait()
            await tx.execute("INSERT INTO t (x) VALUES (2)")

    async def body(tx: Transaction) -> list[int]:
        await tx.execute("INSERT INTO t (x) VALUES (3)")
        return [row["x"] for row in await tx.fetch_all("SELECT x FROM t ORDER BY x")]

    holder = asyncio.create_task(block())
    await block_open.wait()
    waiting = asyncio.create_task(db.atomic(body))
    await asyncio.sleep(0)
    assert not waiting.done()  # the block is still open: not interleaved with it
    release.set()
    assert await waiting == [1, 2, 3]
    await holder


async def test_transactions_in_different_tasks_do_not_hold_each_other(db: Database) -> None:
    """Many atomic transactions at once: each is one hop, none waits on a lock."""

    def insert(x: int):  # type: ignore[no-untyped-def]
        async def body(tx: Transaction) -> None:
            await tx.execute("INSERT INTO t (x) VALUES (?)", (x,))

        return body

    before = storage_db.WORK.copy()
    await asyncio.gather(*(db.atomic(insert(x)) for x in range(50)))
    grown = storage_db.WORK - before
    assert grown == {"transactions": 50, "hops": 50, "statements": 50}
    assert await xs(db) == list(range(50))


async def test_a_read_does_not_wait_for_an_open_block_and_sees_only_what_was_committed(
    db: Database,
) -> None:
    """Reads do not queue behind writes: SQLite's reader connection, PostgreSQL's pool."""
    await db.execute("INSERT INTO t (x) VALUES (9)")
    block_open = asyncio.Event()
    release = asyncio.Event()

    async def block() -> None:
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO t (x) VALUES (1)")
            block_open.set()
            await release.wait()

    async def both(tx: Transaction) -> list[int]:
        return [row["x"] for row in await tx.fetch_all("SELECT x FROM t ORDER BY x")]

    holder = asyncio.create_task(block())
    await block_open.wait()
    try:
        # Answered while the block is still open (it waits for `release`, set below).
        assert await xs(db) == [9]
        assert await db.read(both) == [9]
    finally:
        release.set()
        await holder
    assert await xs(db) == [1, 9]
    assert await db.read(both) == [1, 9]
