"""The turn notices' storage (migration 011): a person's choice, the notices sent."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import repo
from storage import turn_notices as store
from storage.connect import open_database
from storage.db import Database
from storage.records import UserRecord

MASHA = UserRecord(id=1, first_name="Маша", language="ru")
OLEG = UserRecord(id=2, first_name="Олег", username="oleg", language="en")


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_database(tmp_path / "bot.sqlite3")
    async with database.transaction() as tx:
        await repo.upsert_user(tx, MASHA, can_message=True)
    yield database
    await database.close()


async def test_notices_are_wanted_until_muted_and_again_when_switched_on(db: Database) -> None:
    assert await store.notices_wanted(db, MASHA.id)
    assert await store.notices_wanted(db, OLEG.id)  # not stored: the default
    async with db.transaction() as tx:
        await store.set_notices_wanted(tx, MASHA, False)
    assert not await store.notices_wanted(db, MASHA.id)
    user = await repo.get_user(db, MASHA.id)
    assert user is not None and user.can_message  # the rest of the person stays
    async with db.transaction() as tx:
        await store.set_notices_wanted(tx, MASHA, True)
    assert await store.notices_wanted(db, MASHA.id)


async def test_muting_stores_a_person_not_stored_yet(db: Database) -> None:
    async with db.transaction() as tx:
        await store.set_notices_wanted(tx, OLEG, False)
    assert not await store.notices_wanted(db, OLEG.id)
    assert await repo.get_user(db, OLEG.id) is not None


async def test_sent_notices_are_kept_until_forgotten(db: Database) -> None:
    first = store.StoredNotice(chat_id=1, message_id=10, game_id=5)
    second = store.StoredNotice(chat_id=2, message_id=11, game_id=5)
    await store.remember_notice(db, first)
    await store.remember_notice(db, second)
    await store.remember_notice(db, first)  # stored twice: still one
    assert await store.stored_notices(db) == [first, second]
    await store.forget_notice(db, 1, 10)
    await store.forget_notice(db, 1, 10)  # gone already: nothing happens
    assert await store.stored_notices(db) == [second]
