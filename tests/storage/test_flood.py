"""The groups' flood budgets (`storage.flood`, migration 013)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import flood
from storage.connect import open_database
from storage.db import Database
from storage.flood import Budget

BIG_GROUP = -1001234567890123  # Telegram's supergroup ids need 64 bits


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    db = await open_database(tmp_path / "flood.sqlite3")
    try:
        yield db
    finally:
        await db.close()


async def test_budgets_round_trip_and_a_later_one_replaces_the_earlier(db: Database) -> None:
    await flood.save_budgets(db, [(-5, 0.25, 1000.5), (BIG_GROUP, 2.0, 1001.0)])
    assert await flood.recent_budgets(db, 0.0) == {
        -5: Budget(0.25, 1000.5),
        BIG_GROUP: Budget(2.0, 1001.0),
    }
    await flood.save_budgets(db, [(-5, 1.5, 1010.0)])
    assert await flood.recent_budgets(db, 0.0) == {
        -5: Budget(1.5, 1010.0),
        BIG_GROUP: Budget(2.0, 1001.0),
    }


async def test_only_recent_budgets_are_read(db: Database) -> None:
    await flood.save_budgets(db, [(-1, 0.0, 900.0), (-2, 1.0, 1000.0), (-3, 2.0, 1050.0)])
    assert await flood.recent_budgets(db, 1000.0) == {
        -2: Budget(1.0, 1000.0),
        -3: Budget(2.0, 1050.0),
    }


async def test_old_budgets_are_forgotten(db: Database) -> None:
    await flood.save_budgets(db, [(-1, 0.0, 900.0), (-2, 1.0, 1000.0), (-3, 2.0, 1050.0)])
    assert await flood.forget_budgets_before(db, 1000.0) == 1
    assert set(await flood.recent_budgets(db, 0.0)) == {-2, -3}
    assert await flood.forget_budgets_before(db, 1000.0) == 0


async def test_saving_nothing_writes_nothing(db: Database) -> None:
    await flood.save_budgets(db, [])
    assert await flood.recent_budgets(db, 0.0) == {}
