"""Leases: taken once, renewed by the holder in its term, taken over only after they run
out, each take a new term; and the fence: a change is kept only in the current term."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest

from storage import leases
from storage.connect import open_database
from storage.db import Database, DatabaseBusy, Deposed, Fence, Transaction


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_database(tmp_path / "leases.sqlite3")
    yield database
    await database.close()


async def test_a_lease_is_held_until_it_runs_out_then_another_takes_it(db: Database) -> None:
    assert await leases.take(db, "leader", "a", now=100.0, ttl=15) == 1
    assert await leases.take(db, "leader", "b", now=110.0, ttl=15) is None
    assert await leases.current(db, "leader") == leases.Lease("leader", "a", 115.0, 1)
    assert await leases.renew(db, "leader", "a", 1, now=112.0, ttl=15)
    assert await leases.take(db, "leader", "b", now=126.0, ttl=15) is None
    assert await leases.take(db, "leader", "b", now=127.5, ttl=15) == 2  # ran out at 127
    assert await leases.current(db, "leader") == leases.Lease("leader", "b", 142.5, 2)
    assert await leases.take(db, "leader", "a", now=128.0, ttl=15) is None
    assert not await leases.renew(db, "leader", "a", 1, now=128.0, ttl=15)  # term 1 is over


async def test_a_renewal_after_the_lease_ran_out_keeps_it_while_nobody_took_it(
    db: Database,
) -> None:
    assert await leases.take(db, "leader", "a", now=100.0, ttl=15) == 1
    assert await leases.renew(db, "leader", "a", 1, now=200.0, ttl=15)  # late, not taken
    assert await leases.current(db, "leader") == leases.Lease("leader", "a", 215.0, 1)


async def test_the_same_name_taking_its_lease_back_begins_a_new_term(db: Database) -> None:
    assert await leases.take(db, "leader", "a", now=100.0, ttl=15) == 1
    assert await leases.take(db, "leader", "a", now=101.0, ttl=15) == 2  # a restart
    assert not await leases.renew(db, "leader", "a", 1, now=102.0, ttl=15)  # the old process
    assert await leases.renew(db, "leader", "a", 2, now=102.0, ttl=15)


async def test_a_released_lease_is_taken_at_once_and_only_its_holder_releases_it(
    db: Database,
) -> None:
    assert await leases.take(db, "leader", "a", now=100.0, ttl=15) == 1
    assert not await leases.release(db, "leader", "b", 1)
    assert await leases.take(db, "leader", "b", now=101.0, ttl=15) is None
    assert await leases.release(db, "leader", "a", 1)
    assert await leases.take(db, "leader", "b", now=101.0, ttl=15) == 2


async def test_leases_of_other_names_are_apart(db: Database) -> None:
    assert await leases.take(db, "leader", "a", now=100.0, ttl=15) == 1
    assert await leases.take(db, "other", "b", now=100.0, ttl=15) == 1
    assert await leases.current(db, "missing") is None


async def _count(db: Database) -> int:
    row = await db.fetch_one("SELECT COUNT(*) AS n FROM bot_values")
    assert row is not None
    return int(row["n"])


async def test_the_fence_keeps_changes_in_the_current_term_and_refuses_them_after_a_takeover(
    db: Database, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Every way of changing data is checked: `atomic`, `transaction()`, `execute`. A
    refused change is rolled back whole, told to `deposed`, and its after-commit hooks
    never run; reads are not fenced."""
    other = await open_database(tmp_path / "leases.sqlite3", side=True)  # the standby's
    try:
        term = await leases.take(db, "leader", "a", now=100.0, ttl=15)
        assert term == 1
        refusals: list[Deposed] = []
        db.fence = Fence("leader", term, refusals.append)
        insert = "INSERT INTO bot_values (name, value) VALUES (?, ?)"
        hooks: list[str] = []

        def inserting(name: str) -> Callable[[Transaction], Coroutine[Any, Any, None]]:
            async def body(tx: Transaction) -> None:
                await tx.execute(insert, (name, "1"))
                tx.after_commit(lambda: hooks.append(name))

            return body

        await db.atomic(inserting("one"))
        async with db.transaction() as tx:
            await tx.execute(insert, ("two", "2"))
        assert await db.execute(insert, ("three", "3")) == 1
        assert await _count(db) == 3 and hooks == ["one"] and refusals == []

        # "a" is cut off past its lease; "b" takes over on its own connection.
        assert await leases.take(other, "leader", "b", now=200.0, ttl=15) == 2
        with caplog.at_level(logging.INFO):
            with pytest.raises(Deposed):
                await db.atomic(inserting("four"))
            with pytest.raises(Deposed):
                async with db.transaction() as tx:
                    await tx.execute(insert, ("five", "5"))
            with pytest.raises(Deposed):
                await db.execute(insert, ("six", "6"))
        assert await _count(other) == 3 and hooks == ["one"]
        assert [(r.term, r.current) for r in refusals] == [(1, 2)] * 3
        assert await db.fetch_one("SELECT value FROM bot_values WHERE name = 'two'")
    finally:
        await other.close()


async def test_a_process_paused_between_its_check_and_its_commit_does_not_hold_the_lease(
    db: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PostgreSQL: the fence's check locks the lease's row until COMMIT, so a leader
    stopped in that moment (SIGSTOP, a VM pause) would keep the standby from taking over
    until it resumed. `Fence.hold` bounds it: the server ends that session once it sits
    idle longer, the takeover goes through, and the paused change is not kept."""
    if db.dialect != "postgres":
        pytest.skip("SQLite serves one instance: no takeover to hold up (the PostgreSQL pass)")
    from storage.postgres import PgTransaction

    other = await open_database(tmp_path / "leases.sqlite3", side=True)  # the standby's
    checked = asyncio.Event()
    resume = asyncio.Event()
    original = PgTransaction.check_fence

    async def check_then_pause(self: PgTransaction, fence: Fence | None) -> None:
        await original(self, fence)
        if fence is not None:  # the leader's change, not the standby's take
            checked.set()
            await resume.wait()  # the process stopped between its check and its COMMIT

    try:
        term = await leases.take(db, "leader", "a", now=100.0, ttl=15)
        assert term == 1
        db.fence = Fence("leader", term, lambda refusal: None, hold=0.5)
        monkeypatch.setattr(PgTransaction, "check_fence", check_then_pause)

        async def paused_change() -> None:
            async with db.transaction() as tx:
                await tx.execute("INSERT INTO bot_values (name, value) VALUES ('late', '1')")

        change = asyncio.create_task(paused_change())
        await checked.wait()
        # Past the lease, "b" takes over while "a" still sits in its transaction.
        async with asyncio.timeout(30):  # without the hold: until "a" resumes, never
            assert await leases.take(other, "leader", "b", now=200.0, ttl=15) == 2
        resume.set()
        # The server ended the session: the change fails as a connection does (closed,
        # or found mid-way by the COMMIT), and is not kept.
        with pytest.raises(DatabaseBusy):
            await change
        assert await _count(other) == 0
    finally:
        resume.set()
        await other.close()
