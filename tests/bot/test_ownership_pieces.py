"""The pieces of background work one by one with an instance that plays some chats only
(issue 35): the workers' `drop`, the announcer, the turn notices left behind, the
groups' settings taken over from another instance."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiogram.methods import DeleteMessage

from bot.app.group_settings import GroupSettings
from bot.app.people import People
from bot.infra.workers import Resync
from domino.timing import TurnTimer
from storage import repo
from storage import turn_notices as notice_store
from storage.connect import open_database
from storage.db import Database, acting_for, current_scope
from storage.records import ChatSettings
from tests.bot.app_setup import CHAT, FakeTime, Setup, eventually, settle
from tests.bot.test_ownership_background import (
    OTHER,
    SomeChats,
    build,
    closed,
    two_games,
)


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_database(tmp_path / "pieces.sqlite3")
    try:
        yield database
    finally:
        await database.close()


async def test_drop_stops_a_waiting_worker_at_once_and_a_busy_one_after_its_pass() -> None:
    synced: list[str] = []
    in_pass = asyncio.Event()
    let_finish = asyncio.Event()
    never = asyncio.Event()

    async def sync(key: str) -> None:
        synced.append(key)
        if key == "busy":
            in_pass.set()
            await let_finish.wait()

    async def pace(key: str) -> None:
        if key == "waiting":
            await never.wait()  # a table's pace, say

    workers: Resync[str] = Resync(sync, describe=str, pace=pace)
    workers.mark("busy")
    workers.mark("waiting")
    workers.mark("kept")
    await in_pass.wait()
    workers.mark("busy")  # a mark during the pass: dropped with the key
    dropping = asyncio.create_task(workers.drop(lambda key: key != "kept"))
    await settle()
    assert not dropping.done() and not workers.busy("waiting")
    let_finish.set()
    await dropping
    assert not workers.busy("busy")
    await workers.idle()
    assert sorted(synced) == ["busy", "kept"]


async def test_a_worker_marked_in_a_handlers_scope_does_not_act_for_its_update() -> None:
    """A worker outlives the handling that marked it: its change must not consume (or
    be refused for) that handling's queued update."""
    seen: list[int | None] = []

    async def sync(key: str) -> None:
        scope = current_scope()
        seen.append(None if scope is None else scope.update_id)

    workers: Resync[str] = Resync(sync, describe=str)
    with acting_for(update_id=77):
        workers.mark("table")
    await workers.idle()
    assert seen == [None]


async def owed(db: Database) -> list[int]:
    return [item.chat_id for item in await repo.pending_outbox(db)]


async def enqueue_text(db: Database, chat_id: int, text: str) -> None:
    async with db.transaction() as tx:
        await repo.enqueue(tx, game_id=None, chat_id=chat_id, kind="notice", payload={"text": text})


async def pass_over_outbox(setup: Setup) -> None:
    """What a commit that owes announcements asks for: a pass, in the background."""
    await setup.app.publisher.idle()
    setup.app.publisher.announce()
    await setup.app.publisher.idle()


async def test_the_announcer_sends_only_for_the_chats_played(db: Database) -> None:
    played = SomeChats(CHAT.id)
    setup = build(db, FakeTime(), played)
    await setup.app.resume()
    await enqueue_text(db, OTHER.id, "не здесь")
    await enqueue_text(db, CHAT.id, "здесь")
    await pass_over_outbox(setup)
    assert setup.telegram.sent_to(CHAT.id) == ["здесь"]
    assert setup.telegram.sent_to(OTHER.id) == []
    assert await owed(db) == [OTHER.id]  # left to the instance that plays it
    assert CHAT.id in played.scopes and OTHER.id not in played.scopes
    await closed(setup)


async def test_an_announcement_marked_under_a_fence_that_refuses_stays_owed(
    db: Database,
) -> None:
    played = SomeChats(CHAT.id)
    played.refused.add(CHAT.id)
    setup = build(db, FakeTime(), played)
    await setup.app.resume()
    await enqueue_text(db, CHAT.id, "здесь")
    await pass_over_outbox(setup)
    assert setup.telegram.sent_to(CHAT.id)[0] == "здесь"  # sent, then its mark refused
    assert played.deposed
    assert await owed(db) == [CHAT.id]  # the mark was refused: nothing written
    await closed(setup)


async def test_a_pick_up_deletes_the_notices_left_for_its_chats_only(db: Database) -> None:
    played = SomeChats(CHAT.id, OTHER.id)
    setup = build(db, FakeTime(), played)
    await two_games(setup)
    await store_left_notice(setup, game_id=1, message_id=41)
    await store_left_notice(setup, game_id=2, message_id=42)

    await setup.app.pick_up(lambda chat_id: chat_id == OTHER.id)
    await eventually(lambda: _left(setup, 1))
    await settle()
    [left] = await notice_store.stored_notices(db)
    assert left.message_id == 41  # the game in CHAT is not this pickup's
    deleted = [c.message_id for c in setup.telegram.calls if isinstance(c, DeleteMessage)]
    assert deleted == [42]
    await closed(setup)


async def store_left_notice(setup: Setup, *, game_id: int, message_id: int) -> None:
    game = await setup.game(game_id)
    user_id = game.seats[0].user_id
    assert user_id is not None
    await notice_store.remember_notice(
        setup.db, notice_store.StoredNotice(user_id, message_id, game_id)
    )


async def _left(setup: Setup, count: int) -> bool:
    return len(await notice_store.stored_notices(setup.db)) == count


async def test_settings_changed_by_another_instance_are_read_again_for_the_chats_taken(
    db: Database,
) -> None:
    here = GroupSettings(db, People(db))
    await here.load()
    there = GroupSettings(db, People(db))  # the instance that played both chats so far
    await there.change(CHAT, ChatSettings(TurnTimer.S120))
    await there.change(OTHER, ChatSettings(TurnTimer.S30))
    await here.reload(lambda chat_id: chat_id == CHAT.id)
    assert here.of(CHAT.id).turn_timer is TurnTimer.S120
    assert here.of(OTHER.id).turn_timer is ChatSettings().turn_timer  # not taken
