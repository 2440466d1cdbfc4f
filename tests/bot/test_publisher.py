"""The publisher by value, without Telegram (bot/telegram/publisher.py,
bot/telegram/announcements.py): what it sends for a game, that an unchanged game sends
nothing, what Telegram refuses told to the inbox, the outbox's at-least-once marking
and the bounds of its caches.

A real database in a temporary folder; a fake `call` that answers like the Bot API and
records each call with the outbox rows still unsent at that moment.
"""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramServerError,
)
from aiogram.methods import EditMessageMedia, SendMessage, SendPhoto, TelegramMethod

from bot.app.group_settings import GroupSettings
from bot.app.inbox import ChatMigrated, Event, GroupLost, Inbox, PersonUnreachable
from bot.app.people import People
from bot.infra import workers
from bot.infra.lru import Lru
from bot.telegram import delivery, game_messages
from bot.telegram import publisher as publisher_module
from bot.telegram.outgoing import Limits, Outgoing
from bot.telegram.publisher import Publisher
from domino.match import Match
from domino.rules import KOZEL
from i18n import Lang, t
from storage import repo
from storage.connect import open_database
from storage.db import Database
from storage.records import ChatRecord, GameRecord, GameStatus, Role, SeatRecord, UserRecord
from tests.bot.app_setup import FakeTelegram

GROUP = ChatRecord(id=-1001, type="supergroup", title="Дворик")
MASHA = UserRecord(id=1, first_name="Маша", language="ru")
OLEG = UserRecord(id=2, first_name="Олег", language="ru")


class FakeApi(FakeTelegram):
    """Answers like the Bot API; `fail` makes the next calls raise what it holds, `refuse`
    every call to a chat."""

    def __init__(self, db: Database) -> None:
        super().__init__()
        self.db = db
        self.unsent_at_call: list[list[int]] = []  # outbox rows unsent when each call came
        self.fail: list[Exception] = []
        self.refuse: dict[int, Exception] = {}  # chat id -> what every call to it raises

    async def __call__(self, method: TelegramMethod[Any]) -> Any:
        self.unsent_at_call.append([item.id for item in await repo.pending_outbox(self.db)])
        if self.fail:
            raise self.fail.pop(0)
        chat_id = int(getattr(method, "chat_id", 0))
        if chat_id in self.refuse:
            raise self.refuse[chat_id]
        return await super().__call__(method)

    def sent(self, kind: type[TelegramMethod[Any]]) -> list[Any]:
        return [call for call in self.calls if isinstance(call, kind)]


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_database(tmp_path / "bot.sqlite3")
    async with database.transaction() as tx:
        await repo.upsert_chat(tx, GROUP)
        await repo.upsert_user(tx, MASHA, can_message=True)
        await repo.upsert_user(tx, OLEG, can_message=True)
    yield database
    await database.close()


class Setup:
    def __init__(self, db: Database) -> None:
        self.api = FakeApi(db)
        # No pause between the queue's retries: a test of failures takes no 15 s.
        self.out = Outgoing(self.api, dataclasses.replace(Limits.off(), backoff=0))
        self.inbox = Inbox()
        people = People(db)
        self.publisher = Publisher(
            db,
            self.out,
            render_table=lambda view, names, lang: b"table picture",
            render_scores=lambda *args: b"score sheet",
            people=people,
            settings=GroupSettings(db, people),
            inbox=self.inbox,
            table_interval=0,
        )

    async def settle(self) -> None:
        await self.publisher.idle()
        await self.out.drain()

    async def events(self) -> list[Event]:
        """What the publisher told the inbox so far."""
        return [await self.inbox.next() for _ in range(self.inbox.pending())]


@pytest.fixture
async def setup(db: Database) -> AsyncIterator[Setup]:
    made = Setup(db)
    yield made
    await made.out.close()
    made.publisher.close()


async def playing_game(db: Database, chat_id: int = GROUP.id) -> GameRecord:
    """Маша and Олег at a started game of Козёл in `chat_id`."""
    async with db.transaction() as tx:
        if chat_id != GROUP.id:
            await repo.upsert_chat(tx, dataclasses.replace(GROUP, id=chat_id))
        game = await repo.create_game(
            tx,
            chat_id=chat_id,
            creator_id=MASHA.id,
            ruleset=KOZEL,
            seats_wanted=2,
            seats=[
                SeatRecord(0, MASHA.id if chat_id == GROUP.id else None, "Маша"),
                SeatRecord(1, OLEG.id if chat_id == GROUP.id else None, "Олег"),
            ],
        )
        started = dataclasses.replace(
            game, status=GameStatus.PLAYING, match=Match.new(KOZEL, 2, seed=7)
        )
        return await repo.save_game(tx, started)


async def test_a_started_game_gets_its_table_and_one_hand_per_person(
    db: Database, setup: Setup
) -> None:
    game = await playing_game(db)
    setup.publisher.show(game)
    await setup.settle()
    (table,) = setup.api.sent(SendPhoto)
    assert table.chat_id == GROUP.id and "Козёл" in (table.caption or "")
    hands = setup.api.sent(SendMessage)
    assert sorted(hand.chat_id for hand in hands) == [MASHA.id, OLEG.id]
    assert all(GROUP.title in hand.text for hand in hands)  # says which group's game
    stored = await repo.game_messages(db, game.id)
    assert set(stored) == {(Role.TABLE, -1), (Role.HAND, 0), (Role.HAND, 1)}
    # The hands were edited (the table's link): their stored digests are not known until
    # the stop writes what memory holds (no write per edit).
    await setup.publisher.stop()
    stored = await repo.game_messages(db, game.id)
    assert all(record.digest for record in stored.values())


async def test_an_unchanged_game_sends_nothing_again(db: Database, setup: Setup) -> None:
    game = await playing_game(db)
    for _ in range(2):  # the second pass adds the table's link to the hands sent before it
        setup.publisher.show(game)
        await setup.settle()
    before = len(setup.api.calls)
    setup.publisher.show(game)
    setup.publisher.show_hand(game.id, 0)
    await setup.settle()
    assert len(setup.api.calls) == before  # every digest matched: a quiet restart


def forbidden(chat_id: int, text: str) -> TelegramForbiddenError:
    return TelegramForbiddenError(SendMessage(chat_id=chat_id, text=""), text)


async def test_a_person_who_blocked_the_bot_is_told_to_the_inbox(
    db: Database, setup: Setup
) -> None:
    setup.api.refuse[OLEG.id] = forbidden(OLEG.id, "Forbidden: bot was blocked by the user")
    game = await playing_game(db)
    setup.publisher.show(game)
    await setup.settle()
    assert await setup.events() == [PersonUnreachable(game.id, OLEG.id)]
    assert [hand.chat_id for hand in setup.api.sent(SendMessage)] == [MASHA.id]
    assert set(await repo.game_messages(db, game.id)) == {(Role.TABLE, -1), (Role.HAND, 0)}


@pytest.mark.parametrize(
    "refusal",
    [
        forbidden(GROUP.id, "Forbidden: bot was kicked from the supergroup chat"),
        TelegramBadRequest(SendPhoto(chat_id=GROUP.id, photo="f"), "Bad Request: chat not found"),
    ],
    ids=["forbidden", "chat not found"],
)
async def test_a_group_that_refuses_the_bot_is_told_to_the_inbox(
    db: Database, setup: Setup, refusal: Exception
) -> None:
    setup.api.refuse[GROUP.id] = refusal
    game = await playing_game(db)
    setup.publisher.show(game)
    await setup.settle()
    assert await setup.events() == [GroupLost(GROUP.id)]
    assert sorted(hand.chat_id for hand in setup.api.sent(SendMessage)) == [MASHA.id, OLEG.id]


async def test_a_group_that_became_a_supergroup_is_told_to_the_inbox_once(
    db: Database, setup: Setup
) -> None:
    """The table is not sent again at once: the move's use case reloads and shows the
    game in the supergroup."""
    supergroup = -1009
    moved = TelegramMigrateToChat(SendPhoto(chat_id=GROUP.id, photo="f"), "moved", supergroup)
    setup.api.refuse[GROUP.id] = moved
    game = await playing_game(db)
    setup.publisher.show(game)
    await setup.settle()
    assert await setup.events() == [ChatMigrated(GROUP.id, supergroup)]
    assert len(setup.api.unsent_at_call) == 3  # the table once, two hands
    assert setup.api.sent(SendPhoto) == []


async def test_an_announcement_to_a_moved_group_waits_for_the_move(
    db: Database, setup: Setup
) -> None:
    game = await playing_game(db)
    async with db.transaction() as tx:
        owed = await repo.enqueue(
            tx,
            game_id=game.id,
            chat_id=GROUP.id,
            kind="notice",
            payload={"key": "notice.left", "values": {"name": "Олег"}},
        )
    supergroup = -1009
    moved = TelegramMigrateToChat(SendMessage(chat_id=GROUP.id, text=""), "moved", supergroup)
    setup.api.refuse[GROUP.id] = moved
    setup.publisher.announce()
    await setup.settle()
    assert await setup.events() == [ChatMigrated(GROUP.id, supergroup)]
    assert [item.id for item in await repo.pending_outbox(db)] == [owed]
    assert len(setup.api.unsent_at_call) == 1  # not tried again before the move


async def test_an_announcement_is_marked_sent_before_anything_else_is_sent(
    db: Database, setup: Setup
) -> None:
    game = await playing_game(db)
    async with db.transaction() as tx:
        first = await repo.enqueue(
            tx,
            game_id=game.id,
            chat_id=GROUP.id,
            kind="notice",
            payload={"key": "notice.left", "values": {"name": "Олег"}},
        )
        second = await repo.enqueue(
            tx, game_id=None, chat_id=GROUP.id, kind="notice", payload={"text": "Всем привет"}
        )
    await setup.publisher.flush_outbox()
    texts = [call.text for call in setup.api.sent(SendMessage)]
    assert texts == [t("notice.left", Lang.RU, name="Олег"), "Всем привет"]
    # When the second announcement reached Telegram, the first was marked already.
    assert setup.api.unsent_at_call == [[first, second], [second]]
    assert await repo.pending_outbox(db) == []
    await setup.publisher.flush_outbox()
    assert len(setup.api.calls) == 2  # nothing is sent twice


async def test_a_failed_announcement_stays_owed_and_goes_out_on_the_next_flush(
    db: Database, setup: Setup
) -> None:
    async with db.transaction() as tx:
        owed = await repo.enqueue(
            tx, game_id=None, chat_id=GROUP.id, kind="notice", payload={"text": "Рыба!"}
        )
    failure = TelegramServerError(SendMessage(chat_id=GROUP.id, text=""), "Bad Gateway")
    setup.api.fail.extend([failure] * (setup.out.limits.retries + 1))
    await setup.publisher.flush_outbox()
    assert [item.id for item in await repo.pending_outbox(db)] == [owed]
    await setup.publisher.flush_outbox()
    assert [call.text for call in setup.api.sent(SendMessage)] == ["Рыба!"]
    assert await repo.pending_outbox(db) == []


async def test_an_announcement_to_a_group_that_refuses_the_bot_is_given_up(
    db: Database, setup: Setup
) -> None:
    async with db.transaction() as tx:
        await repo.enqueue(
            tx, game_id=None, chat_id=GROUP.id, kind="notice", payload={"text": "Козёл!"}
        )
    refusal = SendMessage(chat_id=GROUP.id, text="")
    setup.api.fail.append(TelegramForbiddenError(refusal, "Forbidden: bot was kicked"))
    await setup.publisher.flush_outbox()
    assert await repo.pending_outbox(db) == []
    assert await setup.events() == [GroupLost(GROUP.id)]


def test_an_lru_keeps_the_most_recently_used() -> None:
    cache: Lru[int, str] = Lru(2)
    cache[1] = "a"
    cache[2] = "b"
    assert cache.get(1) == "a"  # 1 is now the most recent
    cache[3] = "c"
    assert (cache.get(1), cache.get(2), cache.get(3), len(cache)) == ("a", None, "c", 2)
    assert 1 in cache and 2 not in cache
    cache.pop(1)
    cache.pop(1)  # popping what is not there is fine
    assert 1 not in cache and len(cache) == 1


async def test_the_caches_of_games_hold_at_most_their_bound(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(publisher_module, "CACHED_GAMES", 3)
    monkeypatch.setattr(publisher_module, "CACHED_TITLES", 3)
    setup = Setup(db)
    games = [await playing_game(db, chat_id=-2000 - k) for k in range(6)]
    for game in games:
        setup.publisher.show(game)
    await setup.settle()
    cached = setup.publisher
    sizes = (len(cached.records.games), len(cached.records.messages), len(cached.table.shown))
    assert max(sizes) <= 3 < len(games)
    # A game the caches forgot is read again: still nothing new to show, nothing sent.
    before = len(setup.api.calls)
    cached.show(games[0])
    await setup.settle()
    assert len(setup.api.calls) == before
    await setup.out.close()
    cached.close()


async def test_an_ended_game_is_forgotten_once_its_messages_are_up_to_date(
    db: Database, setup: Setup
) -> None:
    game = await playing_game(db)
    setup.publisher.show(game)
    await setup.settle()
    async with db.transaction() as tx:
        ended = await repo.save_game(tx, dataclasses.replace(game, status=GameStatus.CANCELLED))
    setup.publisher.show(ended)
    await setup.settle()
    assert setup.api.sent(EditMessageMedia)  # the table says it was cancelled ...
    cached = setup.publisher
    assert (len(cached.records.games), len(cached.records.messages), len(cached.table.shown)) == (
        0,
        0,
        0,
    )


async def test_a_record_the_locked_database_refuses_is_written_later_and_nothing_resent(
    db: Database,
    setup: Setup,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The table went out, then another process held the write lock: the
    publisher keeps the message in memory, waits, and writes its record; the group gets
    one table, not one per try."""
    put_message = repo.put_message
    refusals = [Role.TABLE, Role.HAND]  # the first write of each refused once

    async def locked_once(database: Database, record: Any) -> None:
        if record.role in refusals:
            refusals.remove(record.role)
            error = sqlite3.OperationalError("database is locked")
            error.sqlite_errorcode = 5  # SQLITE_BUSY
            raise error
        await put_message(database, record)

    monkeypatch.setattr(repo, "put_message", locked_once)
    monkeypatch.setattr(workers, "DATABASE_PAUSE", 0)
    game = await playing_game(db)
    setup.publisher.show(game)
    await setup.settle()
    assert refusals == []
    assert len(setup.api.sent(SendPhoto)) == 1
    assert sorted(hand.chat_id for hand in setup.api.sent(SendMessage)) == [MASHA.id, OLEG.id]
    stored = await repo.game_messages(db, game.id)
    assert set(stored) == {(Role.TABLE, -1), (Role.HAND, 0), (Role.HAND, 1)}
    assert "waits for the database: database is locked" in caplog.text
    assert "ERROR" not in caplog.text


async def test_a_message_telegram_keeps_failing_is_sent_after_a_pause(
    db: Database, setup: Setup, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Telegram failed even after the queue's retries: the message is not left behind the
    game (a hand that never shows a person's turn stops the game for good)."""
    monkeypatch.setattr(delivery, "TELEGRAM_PAUSE", 0)
    failure = TelegramServerError(SendMessage(chat_id=GROUP.id, text=""), "Bad Gateway")
    setup.api.fail.extend([failure] * (setup.out.limits.retries + 1))
    game = await playing_game(db)
    setup.publisher.show(game)
    await setup.settle()
    assert setup.api.fail == []
    assert len(setup.api.sent(SendPhoto)) == 1
    assert sorted(hand.chat_id for hand in setup.api.sent(SendMessage)) == [MASHA.id, OLEG.id]


async def test_a_failed_announcement_holds_its_chats_next_ones_and_is_tried_again(
    db: Database, setup: Setup, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(delivery, "TELEGRAM_PAUSE", 0)
    async with db.transaction() as tx:
        for text in ("Раунд 1", "Козёл!"):
            await repo.enqueue(
                tx, game_id=None, chat_id=GROUP.id, kind="notice", payload={"text": text}
            )
    failure = TelegramServerError(SendMessage(chat_id=GROUP.id, text=""), "Bad Gateway")
    setup.api.fail.extend([failure] * (setup.out.limits.retries + 1))
    setup.publisher.announce()
    await setup.settle()  # the first pass fails; the worker tries again after the pause
    assert setup.api.fail == []
    # The second waited for the first: the group reads them in order.
    assert [call.text for call in setup.api.sent(SendMessage)] == ["Раунд 1", "Козёл!"]
    assert await repo.pending_outbox(db) == []


@pytest.mark.parametrize(
    ("chat_id", "message_id", "link"),
    [
        (-1001234, 42, "https://t.me/c/1234/42"),
        (-1234, 42, None),  # a basic group's messages have no links
        (-1001234, None, None),  # no table yet
    ],
)
def test_a_hand_links_to_a_supergroups_table(
    chat_id: int, message_id: int | None, link: str | None
) -> None:
    assert game_messages.table_link(chat_id, message_id) == link


def test_a_hand_links_to_the_table_in_its_forum_topic() -> None:
    assert game_messages.table_link(-1001234, 42, 7) == "https://t.me/c/1234/7/42"
    assert game_messages.table_link(-1234, 42, 7) is None


async def test_a_hand_shows_its_tiles_and_the_link_to_the_table(db: Database) -> None:
    game = await playing_game(db)
    shown = game_messages.hand_message(
        game,
        0,
        Lang.RU,
        names=["Маша", "Олег"],
        chat_title="Дворик",
        clock=None,
        now=0.0,
        table_message_id=42,
    )
    assert shown is not None
    text, markup = shown
    assert "Дворик" in text and markup is not None
    assert markup.inline_keyboard[-1][0].url == "https://t.me/c/1/42"
    lobby = dataclasses.replace(game, match=None)
    assert (
        game_messages.hand_message(
            lobby, 0, Lang.RU, names=[], chat_title="", clock=None, now=0.0, table_message_id=None
        )
        is None
    )
