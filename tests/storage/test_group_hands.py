"""Hands in the group, stored (migration 015): a person's choice, each seat's ephemeral hand."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from domino.rules import KOZEL
from storage import group_hands as store
from storage import repo
from storage.connect import open_database
from storage.db import Database
from storage.records import ChatRecord, HandsPlace, UserRecord

MASHA = UserRecord(id=1, first_name="Маша", language="ru")
GROUP = ChatRecord(id=-100, type="supergroup", title="Двор")


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_database(tmp_path / "bot.sqlite3")
    yield database
    await database.close()


async def test_a_choice_is_none_until_made_and_can_go_back_to_the_default(db: Database) -> None:
    assert await store.hands_and_reach(db, MASHA.id) == (None, False)  # not even stored
    async with db.transaction() as tx:
        await store.choose_hands(tx, MASHA, HandsPlace.GROUP)
    assert await store.hands_and_reach(db, MASHA.id) == (HandsPlace.GROUP, False)
    async with db.transaction() as tx:
        await store.choose_hands(tx, MASHA, None)
    assert await store.hands_and_reach(db, MASHA.id) == (None, False)
    async with db.transaction() as tx:
        await repo.upsert_user(tx, MASHA, can_message=True)
    assert await store.hands_and_reach(db, MASHA.id) == (None, True)


async def test_a_group_hand_is_kept_replaced_and_forgotten_with_its_game(db: Database) -> None:
    async with db.transaction() as tx:
        await repo.upsert_chat(tx, GROUP)
        await repo.upsert_user(tx, MASHA)
        game = await repo.create_game(
            tx, chat_id=GROUP.id, creator_id=MASHA.id, ruleset=KOZEL, seats_wanted=2
        )
    hand = store.GroupHand(game.id, 0, GROUP.id, MASHA.id, ephemeral_id=3)
    await store.remember_group_hand(db, hand)
    assert await store.group_hands_of(db, game.id) == {0: hand}
    again = store.GroupHand(game.id, 0, GROUP.id, MASHA.id, ephemeral_id=5, digest="d")
    await store.remember_group_hand(db, again)
    assert await store.group_hands_of(db, game.id) == {0: again}
    await store.forget_group_hand(db, game.id, 0)
    assert await store.group_hands_of(db, game.id) == {}
