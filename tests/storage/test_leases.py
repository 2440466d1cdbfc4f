"""Leases: taken once, renewed by the holder, taken over only after they run out."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import leases
from storage.db import Database


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(tmp_path / "leases.sqlite3")
    yield database
    await database.close()


async def test_a_lease_is_held_until_it_runs_out_then_another_takes_it(db: Database) -> None:
    assert await leases.take(db, "leader", "a", now=100.0, ttl=15)
    assert not await leases.take(db, "leader", "b", now=110.0, ttl=15)
    assert await leases.current(db, "leader") == leases.Lease("leader", "a", 115.0)
    assert await leases.take(db, "leader", "a", now=112.0, ttl=15)  # renewed
    assert not await leases.take(db, "leader", "b", now=126.0, ttl=15)
    assert await leases.take(db, "leader", "b", now=127.5, ttl=15)  # ran out at 127
    assert await leases.current(db, "leader") == leases.Lease("leader", "b", 142.5)
    assert not await leases.take(db, "leader", "a", now=128.0, ttl=15)


async def test_a_released_lease_is_taken_at_once_and_only_its_holder_releases_it(
    db: Database,
) -> None:
    assert await leases.take(db, "leader", "a", now=100.0, ttl=15)
    assert not await leases.release(db, "leader", "b")
    assert not await leases.take(db, "leader", "b", now=101.0, ttl=15)
    assert await leases.release(db, "leader", "a")
    assert await leases.take(db, "leader", "b", now=101.0, ttl=15)


async def test_leases_of_other_names_are_apart(db: Database) -> None:
    assert await leases.take(db, "leader", "a", now=100.0, ttl=15)
    assert await leases.take(db, "other", "b", now=100.0, ttl=15)
    assert await leases.current(db, "missing") is None
