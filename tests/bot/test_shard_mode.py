"""Shard mode at run time (bot.server.shard_mode): the settings that turn it on, an
update routed to the shard of the chat it acts on, the receiver storing it, and the
consumers handling each shard's updates in order per chat, exactly once."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from aiogram import Bot, Dispatcher
from aiogram.exceptions import TelegramConflictError
from aiogram.methods import AnswerCallbackQuery, GetUpdates, SendMessage, TelegramMethod
from aiogram.types import Message, Update
from aiohttp import ClientSession
from pydantic import ValidationError

from bot.app.inbox import TurnExpired
from bot.server import shard_mode
from bot.server.application import Application
from bot.server.config import Address, Settings, explain
from bot.server.metrics import Health, Metrics
from bot.server.serving import App
from bot.server.shard_mode import (
    InstanceGuard,
    Poller,
    Receiver,
    ShardConsumers,
    ShardOwnership,
    ShardRuntime,
    ShardService,
    UpdateRouter,
    parse_body,
    update_body,
)
from bot.server.shards import ShardKeeper
from bot.server.web import WebServer, webhook_app
from bot.telegram.callbacks import (
    BackCb,
    CancelCb,
    GroupHandCb,
    HandCb,
    HandKind,
    LobbyAction,
    LobbyCb,
    MoveCb,
    RematchCb,
    RemoveCb,
    SettingsCb,
    SettingsSection,
    SurrenderCb,
    TournamentAction,
    TournamentCb,
    VoteCb,
)
from bot.telegram.flood_budgets import SharedBudgets
from bot.telegram.outgoing import Limits, Outgoing
from handlers.in_flight import InFlight
from storage import shards, update_queue
from storage.connect import open_database
from storage.db import Database, DatabaseBusy, Deposed, Fence, Transaction, acting_for
from storage.update_queue import Queued
from tests.bot.app_setup import (
    CHAT,
    FakeTelegram,
    FakeTime,
    Setup,
    eventually,
    seed_where_seat_0_opens,
)
from tests.bot.test_ownership_background import OTHER, closed, timed_out, two_games
from tests.e2e.harness import free_port

COUNT = 16
GROUP = -1001234567890  # its game is game 1, its vote 1, its tournament 1
OTHER_GROUP = -1009876543211
ALICE = 5001
TOKEN = "123456:ABC-DEF"

# Settings.


def settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, **env: str) -> Settings:
    monkeypatch.chdir(tmp_path)  # no .env of the developer's
    monkeypatch.setenv("BOT_TOKEN", TOKEN)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return Settings()  # type: ignore[call-arg]


def test_shards_with_a_name_on_postgresql_turn_shard_mode_on(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    on = settings(
        monkeypatch,
        tmp_path,
        SHARDS="16",
        INSTANCE_NAME="a",
        DATABASE_URL="postgresql://bot@db/domino",
    )
    assert on.shard_mode and on.shards == 16
    assert not settings(monkeypatch, tmp_path, SHARDS="", INSTANCE_NAME="a").shard_mode


@pytest.mark.parametrize(
    "env",
    [
        {"SHARDS": "16"},  # SQLite, no name
        {"SHARDS": "16", "INSTANCE_NAME": "a"},  # SQLite
        {"SHARDS": "16", "DATABASE_URL": "postgresql://bot@db/domino"},  # no name
    ],
)
def test_shards_without_a_name_or_postgresql_are_refused_in_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, env: dict[str, str]
) -> None:
    with pytest.raises(ValidationError) as refused:
        settings(monkeypatch, tmp_path, **env)
    line = explain(refused.value)
    assert "\n" not in line and "SHARDS needs INSTANCE_NAME and a PostgreSQL DATABASE_URL" in line


@pytest.mark.parametrize("count", ["0", "-1", "many"])
def test_a_wrong_shard_count_is_named(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, count: str
) -> None:
    with pytest.raises(ValidationError) as refused:
        settings(
            monkeypatch,
            tmp_path,
            SHARDS=count,
            INSTANCE_NAME="a",
            DATABASE_URL="postgresql://bot@db/domino",
        )
    assert explain(refused.value).startswith("configuration error: SHARDS: ")


# Routing.


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_database(tmp_path / "shard_mode.sqlite3")
    async with database.transaction() as tx:
        await seed(tx)
    yield database
    await database.close()


async def seed(tx: Transaction) -> None:
    """GROUP with game 1, its vote 1 and tournament 1; ALICE plays there."""
    await tx.execute(
        "INSERT INTO chats (id, type, updated_at) VALUES (?, 'supergroup', 'now')", (GROUP,)
    )
    await tx.execute(
        "INSERT INTO users (id, first_name, updated_at) VALUES (?, 'Alice', 'now')", (ALICE,)
    )
    await tx.execute(
        "INSERT INTO games (id, chat_id, status, creator_id, ruleset, seats_wanted, created_at)"
        " VALUES (1, ?, 'playing', ?, '{}', 2, 'now')",
        (GROUP, ALICE),
    )
    await tx.execute(
        "INSERT INTO cancel_votes (id, game_id, chat_id, started_by, opened_at, expires_at)"
        " VALUES (1, 1, ?, ?, 'now', 'later')",
        (GROUP, ALICE),
    )
    await tx.execute(
        "INSERT INTO tournaments (id, chat_id, creator_id, options, created_at)"
        " VALUES (1, ?, ?, '{}', 'now')",
        (GROUP, ALICE),
    )


@pytest.fixture
def bot() -> Bot:
    return Bot(TOKEN)


def person(user_id: int = ALICE) -> dict[str, Any]:
    return {"id": user_id, "is_bot": False, "first_name": "Alice"}


def chat(chat_id: int) -> dict[str, Any]:
    kind = "private" if chat_id > 0 else "supergroup"
    return {"id": chat_id, "type": kind, **({"title": "G"} if chat_id < 0 else {})}


def message(chat_id: int, text: str = "/domino", **more: Any) -> dict[str, Any]:
    return {
        "message_id": 7,
        "date": 1_700_000_000,
        "chat": chat(chat_id),
        "from": person(),
        "text": text,
        **more,
    }


def press(data: str, chat_id: int | None, update_id: int = 1) -> Update:
    query: dict[str, Any] = {"id": "q1", "from": person(), "chat_instance": "ci", "data": data}
    if chat_id is None:
        query["inline_message_id"] = "inline-1"
    else:
        query["message"] = message(chat_id, "the hand")
    return Update.model_validate({"update_id": update_id, "callback_query": query})


GAME_PRESSES = [
    LobbyCb(game=1, action=LobbyAction.JOIN).pack(),
    MoveCb(game=1, move=3, action="3-4L").pack(),
    HandCb(game=1, move=3, kind=HandKind.INFO).pack(),
    GroupHandCb(game=1).pack(),
    CancelCb(game=1, confirm=True).pack(),
    SurrenderCb(game=1, first=0, user=ALICE, confirm=True).pack(),
    BackCb(game=1).pack(),
    RematchCb(game=1).pack(),
    RemoveCb(game=1, seat=1, user=ALICE).pack(),
    VoteCb(vote=1, in_favour=True).pack(),
    TournamentCb(tournament=1, action=TournamentAction.JOIN).pack(),
]


@pytest.mark.parametrize("data", GAME_PRESSES)
async def test_a_press_in_private_goes_to_the_shard_of_the_chat_its_data_names(
    db: Database, data: str
) -> None:
    router = UpdateRouter(db, COUNT)
    route = await router.route(press(data, ALICE))
    assert route.chat_id == GROUP and route.shard == shards.shard_of(GROUP, COUNT)
    inline = await router.route(press(data, None))
    assert inline.chat_id == GROUP


async def test_a_press_in_a_group_goes_to_that_group_whatever_its_data_names(
    db: Database,
) -> None:
    router = UpdateRouter(db, COUNT)
    route = await router.route(press(MoveCb(game=1, move=3, action="3-4L").pack(), OTHER_GROUP))
    assert route.chat_id == OTHER_GROUP and route.shard == shards.shard_of(OTHER_GROUP, COUNT)


@pytest.mark.parametrize(
    "data",
    [
        SettingsCb(section=SettingsSection.MAIN).pack(),  # names no game
        LobbyCb(game=99, action=LobbyAction.JOIN).pack(),  # a game that is not
        "l1:junk:j",
        "l1:٣:j",  # not an ASCII digit
        "l1:" + "9" * 40 + ":j",
        "",
    ],
)
async def test_a_private_press_naming_no_known_chat_goes_to_the_person(
    db: Database, data: str
) -> None:
    route = await UpdateRouter(db, COUNT).route(press(data, ALICE))
    assert route.chat_id == ALICE and route.shard == shards.shard_of(ALICE, COUNT)


async def test_messages_go_to_their_chat_and_what_has_no_chat_to_the_person(
    db: Database,
) -> None:
    router = UpdateRouter(db, COUNT)
    group = Update.model_validate({"update_id": 1, "message": message(GROUP)})
    private = Update.model_validate({"update_id": 2, "message": message(ALICE, "/stats")})
    inline = Update.model_validate(
        {
            "update_id": 3,
            "inline_query": {"id": "i", "from": person(), "query": "", "offset": ""},
        }
    )
    member = Update.model_validate(
        {
            "update_id": 4,
            "my_chat_member": {
                "chat": chat(OTHER_GROUP),
                "from": person(),
                "date": 1_700_000_000,
                "old_chat_member": {"status": "left", "user": person(42)},
                "new_chat_member": {"status": "member", "user": person(42)},
            },
        }
    )
    assert (await router.route(group)).chat_id == GROUP
    assert (await router.route(private)).chat_id == ALICE
    assert (await router.route(inline)).chat_id == ALICE
    assert (await router.route(member)).chat_id == OTHER_GROUP


async def test_a_game_s_chat_is_read_once_then_remembered(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    router = UpdateRouter(db, COUNT)
    reads: list[tuple[str, int]] = []
    read = shards.chat_named

    async def counted(database: Database, kind: str, number: int) -> int | None:
        reads.append((kind, number))
        return await read(database, kind, number)

    monkeypatch.setattr(shards, "chat_named", counted)
    data = MoveCb(game=1, move=3, action="3-4L").pack()
    for update_id in range(3):
        await router.route(press(data, ALICE, update_id))
    assert reads == [("game", 1)]


async def test_an_update_round_trips_through_its_stored_body(bot: Bot) -> None:
    update = press(MoveCb(game=1, move=3, action="3-4L").pack(), ALICE, 77)
    body = update_body(update)
    assert '"from"' in body and "from_user" not in body
    again = parse_body(body, bot)
    assert again.update_id == 77 and again.callback_query is not None
    assert again.callback_query.from_user.id == ALICE
    assert again.callback_query.data == update.callback_query.data  # type: ignore[union-attr]


async def test_the_receiver_queues_an_update_once_with_its_shard_and_wakes_its_consumer(
    db: Database,
) -> None:
    woken: list[int] = []
    receiver = Receiver(db, UpdateRouter(db, COUNT), woken=woken.append, clock=lambda: 500.0)
    update = Update.model_validate({"update_id": 9, "message": message(GROUP)})
    body = json.dumps({"update_id": 9, "message": message(GROUP)})
    await receiver.store_webhook_post(update, body.encode())
    await receiver.store(update)  # Telegram delivered it again
    shard = shards.shard_of(GROUP, COUNT)
    assert woken == [shard, shard] and receiver.received == 1
    assert await update_queue.take(db, [shard], limit=5) == [Queued(9, shard, GROUP, body, 500.0)]


# Consuming.


class FakeKeeper:
    """A keeper holding `held` (shard → term) with its fences as the real one's."""

    def __init__(self, held: dict[int, int]) -> None:
        self.held = held
        self.count = COUNT
        self.refused: list[int] = []
        self.share: int | None = len(held)
        self.given_back: list[int] = []

    def owned(self) -> dict[int, int]:
        return dict(self.held)

    def valid(self, shard: int) -> bool:
        return shard in self.held

    def fence_for(self, shard: int) -> Fence | None:
        term = self.held.get(shard)
        if term is None:
            return None

        def deposed(refusal: Deposed) -> None:
            self.refused.append(shard)
            self.held.pop(shard, None)

        return Fence(shards.lease_name(shard), term, deposed)

    async def give_back(self, shard: int) -> bool:
        self.given_back.append(shard)
        return self.held.pop(shard, None) is not None


async def hold(db: Database, *shard_numbers: int) -> FakeKeeper:
    """The leases of these shards taken by "me" (term 1), and a keeper holding them."""
    for shard in shard_numbers:
        assert await shards.take_shard(db, shard, "me", now=0.0, ttl=1e9) == 1
    return FakeKeeper(dict.fromkeys(shard_numbers, 1))


class Handling:
    """A feed that records the updates it is given, writes a change for those whose
    body says so, and lets the test hold a chat's handling until released."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.fed: list[int] = []
        self.held: dict[int, asyncio.Event] = {}
        self.running: set[int] = set()
        self.most_at_once = 0

    async def __call__(self, queued: Queued) -> None:
        self.fed.append(queued.update_id)
        self.running.add(queued.update_id)
        self.most_at_once = max(self.most_at_once, len(self.running))
        try:
            gate = self.held.get(queued.update_id)
            if gate is not None:
                await gate.wait()
            body = json.loads(queued.body)
            if body.get("writes"):
                await self.db.execute(
                    "INSERT INTO bot_values (name, value) VALUES (?, 'x')",
                    (f"u{queued.update_id}",),
                )
            if body.get("fails"):
                raise RuntimeError("a handler's bug")
        finally:
            self.running.discard(queued.update_id)


@dataclass
class Consuming:
    """GROUP's shard held by a fake keeper, and its consumers (not started yet) feeding
    its updates to `handling`."""

    shard: int
    keeper: FakeKeeper
    handling: Handling
    consumers: ShardConsumers


@pytest.fixture
async def consuming(db: Database) -> AsyncIterator[Consuming]:
    shard = shards.shard_of(GROUP, COUNT)
    keeper = await hold(db, shard)
    handling = Handling(db)
    consumers = ShardConsumers(db, keeper, handling, check_seconds=0.05)  # type: ignore[arg-type]
    yield Consuming(shard, keeper, handling, consumers)
    for gate in handling.held.values():
        gate.set()  # a test that failed holding a chat's handling
    await consumers.close()


async def queue(db: Database, update_id: int, chat_id: int, **body: bool) -> None:
    shard = shards.shard_of(chat_id, COUNT)
    assert await update_queue.put(db, update_id, shard, chat_id, json.dumps(body), now=1.0)


async def until(done: Callable[[], bool]) -> None:
    async with asyncio.timeout(5):
        while not done():
            await asyncio.sleep(0.005)


async def test_each_chat_in_order_several_chats_at_once_each_update_once(
    db: Database, consuming: Consuming
) -> None:
    group_b = GROUP + COUNT  # the same shard as GROUP
    shard, handling, consumers = consuming.shard, consuming.handling, consuming.consumers
    handling.held[1] = asyncio.Event()
    await queue(db, 1, GROUP, writes=True)
    await queue(db, 2, group_b)
    await queue(db, 3, GROUP, writes=True)
    await queue(db, 4, group_b, writes=True)
    consumers.start(shard)
    await until(lambda: handling.fed == [1, 2, 4])  # GROUP's 3 waits behind its 1
    assert handling.most_at_once == 2
    handling.held[1].set()
    await until(lambda: consumers.handled == 4)
    assert handling.fed == [1, 2, 4, 3]
    assert await update_queue.waiting(db) == {}
    written = await db.fetch_all("SELECT name FROM bot_values WHERE name LIKE 'u%'")
    assert sorted(row["name"] for row in written) == ["u1", "u3", "u4"]
    await consumers.close()
    assert handling.fed == [1, 2, 4, 3]  # none handled twice


async def test_a_failed_handling_is_dropped_and_an_update_handled_elsewhere_is_not_redone(
    db: Database, consuming: Consuming, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.server.shard_mode")
    shard, handling, consumers = consuming.shard, consuming.handling, consuming.consumers
    await queue(db, 1, GROUP, fails=True)
    await queue(db, 2, OTHER_GROUP + 0, writes=True)  # another shard: not this consumer's
    await queue(db, 3, GROUP + COUNT, writes=True)
    handling.held[3] = asyncio.Event()
    consumers.start(shard)
    await until(lambda: handling.fed == [1, 3])
    # Meanwhile the update is handled by another (the shard's previous owner, say).
    assert await update_queue.done(db, 3)
    handling.held[3].set()
    await until(lambda: consumers.handled == 2)
    assert "the update 3 was handled already" in caplog.text
    assert "the update 1 failed" in caplog.text
    assert await db.fetch_one("SELECT 1 FROM bot_values WHERE name = 'u3'") is None
    assert await update_queue.waiting(db) == {shards.shard_of(OTHER_GROUP, COUNT): 1}


async def test_a_refused_fence_stops_the_shard_s_consuming(
    db: Database, consuming: Consuming
) -> None:
    shard, handling, consumers = consuming.shard, consuming.handling, consuming.consumers
    # Another instance takes the shard (its lease ran out): a new term.
    assert await shards.take_shard(db, shard, "other", now=2e9, ttl=15.0) == 2
    await queue(db, 1, GROUP, writes=True)
    await queue(db, 2, GROUP, writes=True)
    consumers.start(shard)
    await until(lambda: consumers.handled == 1)
    assert consuming.keeper.refused == [shard] and handling.fed == [1]
    await asyncio.sleep(0.2)
    assert handling.fed == [1]  # the shard is not ours: nothing more is taken
    assert await update_queue.waiting(db, [shard]) == {shard: 2}  # left to its owner
    assert await db.fetch_one("SELECT 1 FROM bot_values WHERE name = 'u1'") is None


async def test_stopping_a_shard_finishes_its_updates_in_hand_and_takes_no_more(
    db: Database, consuming: Consuming
) -> None:
    shard, handling, consumers = consuming.shard, consuming.handling, consuming.consumers
    handling.held[1] = asyncio.Event()
    await queue(db, 1, GROUP, writes=True)
    consumers.start(shard)
    await until(lambda: handling.fed == [1])
    stopping = asyncio.create_task(consumers.stop(shard))
    await asyncio.sleep(0.05)
    assert not stopping.done()  # the update in hand is waited for
    await queue(db, 2, GROUP + COUNT)
    handling.held[1].set()
    await stopping
    assert handling.fed == [1] and consumers.consuming() == set()
    assert await update_queue.waiting(db, [shard]) == {shard: 1}


# Ownership and the runtime.


async def test_ownership_plays_the_chats_of_the_shards_held_under_their_fence(
    db: Database,
) -> None:
    shard = shards.shard_of(GROUP, COUNT)
    keeper = await hold(db, shard)
    ownership = ShardOwnership(keeper)  # type: ignore[arg-type]
    assert ownership.owns(GROUP) and not ownership.owns(OTHER_GROUP)
    with ownership.acting(GROUP):
        await db.execute("INSERT INTO bot_values (name, value) VALUES ('mine', '1')")
    with ownership.acting(OTHER_GROUP), pytest.raises(Deposed):
        await db.execute("INSERT INTO bot_values (name, value) VALUES ('not mine', '1')")
    with acting_for(), pytest.raises(Deposed), ownership.acting(OTHER_GROUP):  # nor nested
        await db.execute("INSERT INTO bot_values (name, value) VALUES ('no', '1')")


class Monotonic:
    """A monotonic clock the test moves."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def application_over(database: Database, ownership: ShardOwnership) -> Setup:
    """The application without Telegram (as `tests.bot.app_setup.make`) in shard mode."""
    turn_time = FakeTime()
    telegram = FakeTelegram()
    out = Outgoing(telegram, Limits.off())
    application = Application(
        database,
        out,
        bot_username="domino_test_bot",
        render_table=lambda view, names, lang: b"table picture",
        render_scores=lambda *args: b"score sheet",
        table_interval=0,
        computer_delay=0,
        new_seed=seed_where_seat_0_opens,
        turn_clock=turn_time.clock,
        turn_sleep=turn_time.sleep,
        ownership=ownership,
    )
    return Setup(database, turn_time, telegram, out, application)


async def test_a_held_shard_s_background_work_goes_on_while_its_renewal_is_late(
    tmp_path: Path,
) -> None:
    """A renewal late for a moment (the lease no longer surely runs, `valid` is False)
    does not make a held shard's games stop: a turn's timeout is still handled, in its
    shard's scope. A change in a shard another instance took meanwhile is refused by
    that fence, and the shard is lost."""
    path = tmp_path / "late.sqlite3"
    database = await open_database(path)
    monotonic = Monotonic()
    lost: list[int] = []
    never = asyncio.Event()

    async def no_more_rounds(seconds: float) -> None:
        await never.wait()  # the keeper's renewals are late from its first round on

    keeper = ShardKeeper(
        "me",
        open_keeper_db=lambda: open_database(path, side=True),
        on_gained=lambda shard, term: None,
        on_lost=lost.append,
        on_release_asked=lambda shard: None,
        count=COUNT,
        thread=False,
        clock=lambda: 1000.0,
        monotonic=monotonic,
        sleep=no_more_rounds,
    )
    await keeper.start()
    database.fence = keeper.instance_fence()
    await until(lambda: len(keeper.owned()) == COUNT)  # one instance: every shard
    setup = application_over(database, ShardOwnership(keeper))
    application = setup.app
    try:
        mine, other = await two_games(setup)
        mine_shard, other_shard = (shards.shard_of(c.id, COUNT) for c in (CHAT, OTHER))
        assert mine_shard != other_shard
        monotonic.now += 3600  # no renewal for an hour: neither lease surely runs
        assert not keeper.valid(mine_shard) and not keeper.instance_valid()
        assert application.ownership.owns(CHAT.id)  # still held: still played here

        application.inbox.emit(TurnExpired(mine.id, 0))
        await eventually(lambda: timed_out(setup, mine.id))
        assert lost == []

        # Another instance took OTHER's shard meanwhile: its fence refuses the timeout.
        assert await shards.take_shard(database, other_shard, "other", now=2e9, ttl=15) == 2
        application.inbox.emit(TurnExpired(other.id, 0))
        await until(lambda: lost == [other_shard])
        assert (await setup.game(other.id)).version == other.version
        assert not application.ownership.owns(OTHER.id)
    finally:
        await closed(setup)
        await keeper.close()
        await database.close()


async def test_a_stop_in_shard_mode_lets_every_chat_go_before_the_shards_go_back(
    tmp_path: Path,
) -> None:
    """At SIGTERM: the updates in hand finished, then every chat let go (its clocks
    stopped, its messages' records and digests written in its shard's scope, its caches
    forgotten), so that nothing writes for a chat once the keeper (closed after the
    stop) has given its shard back: the digests written at the very end (`publisher.stop`)
    hold none of these games'."""
    database = await open_database(tmp_path / "stop.sqlite3")
    keeper = await hold(database, *range(COUNT))
    setup = application_over(database, ShardOwnership(keeper))  # type: ignore[arg-type]
    application = setup.app
    order: list[str] = []

    class Service:
        async def finish(self) -> None:
            order.append("updates finished")

    let_go, stop_publisher = application.let_go, application.publisher.stop

    async def letting_go(owned: Callable[[int], bool]) -> None:
        assert owned(CHAT.id) and owned(OTHER.id)
        order.append("let go")
        await let_go(owned)

    async def last_digests() -> None:
        owed = [application.publisher.records.unsaved_digests(game) for game in (1, 2)]
        order.append(f"last digests, {sum(map(len, owed))} of these games")
        await stop_publisher()

    application.let_go = letting_go  # type: ignore[method-assign]
    application.publisher.stop = last_digests  # type: ignore[method-assign]
    try:
        await two_games(setup)
        assert application.timers.clock_of(1) is not None
        app = App(
            None,  # type: ignore[arg-type]  # neither Telegram nor the dispatcher is asked
            None,  # type: ignore[arg-type]
            setup.out,
            application,
            InFlight(),
            shards=Service(),  # type: ignore[arg-type]
            served=True,
        )
        await app.stop()
        assert order == ["updates finished", "let go", "last digests, 0 of these games"]
        assert not application.ownership.owns(CHAT.id)
        assert not application.ownership.owns(OTHER.id)
        assert application.timers.clock_of(1) is None and application.timers.clock_of(2) is None
        assert application.publisher.records.games.get(1) is None
    finally:
        await closed(setup)
        await database.close()


class FakeApplication:
    def __init__(self) -> None:
        self.picked: list[list[int]] = []
        self.let_go_of: list[list[int]] = []

    async def pick_up(self, owned: Callable[[int], bool] | None = None) -> int:
        assert owned is not None
        chats = [c for c in (GROUP, OTHER_GROUP, ALICE) if owned(c)]
        self.picked.append(chats)
        return len(chats)

    async def let_go(self, owned: Callable[[int], bool]) -> None:
        self.let_go_of.append([c for c in (GROUP, OTHER_GROUP, ALICE) if owned(c)])


async def test_a_shard_gained_is_picked_up_then_consumed_and_one_asked_back_given_back(
    db: Database,
) -> None:
    shard = shards.shard_of(GROUP, COUNT)
    keeper = await hold(db, shard)
    application = FakeApplication()
    stopped: list[str] = []
    runtime = ShardRuntime(COUNT, stop_now=lambda: stopped.append("x"))
    handling = Handling(db)
    consumers = ShardConsumers(db, keeper, handling, check_seconds=0.05)  # type: ignore[arg-type]
    runtime.attach(keeper, consumers, application)  # type: ignore[arg-type]
    runtime.gained(shard, 1)
    await asyncio.sleep(0.02)
    assert application.picked == []  # not before the application is ready
    runtime.started.set()
    await until(lambda: consumers.consuming() == {shard})
    assert application.picked == [[GROUP]]
    await queue(db, 1, GROUP)
    await until(lambda: handling.fed == [1])
    runtime.release_asked(shard)
    await until(lambda: keeper.given_back == [shard])
    assert application.let_go_of == [[GROUP]] and consumers.consuming() == set()
    assert runtime.health() == {"shards": [], "fair_share": 1, "shard_count": COUNT}
    runtime.lost(3)
    runtime.evicted()
    assert stopped == ["x", "x"]
    await runtime.close()


def test_the_runtime_is_built_over_a_real_keeper(tmp_path: Path) -> None:
    """The keeper's callbacks are the runtime's (a type check as much as a test)."""
    runtime = ShardRuntime(COUNT, stop_now=lambda: None)
    keeper = ShardKeeper(
        "a",
        open_keeper_db=lambda: open_database(tmp_path / "k.sqlite3", side=True),
        on_gained=runtime.gained,
        on_lost=runtime.lost,
        on_release_asked=runtime.release_asked,
        on_evicted=runtime.evicted,
        count=COUNT,
    )
    assert keeper.count == runtime.count and runtime.health()["shards"] == []


# The webhook in shard mode.


async def post(address: Address, body: bytes) -> int:
    async with (
        ClientSession() as http,
        http.post(
            f"http://{address}/hook",
            data=body,
            headers={"X-Telegram-Bot-Api-Secret-Token": "s3cret"},
        ) as response,
    ):
        await response.read()
        return response.status


async def test_the_webhook_stores_each_post_answers_200_and_handles_nothing_itself(
    db: Database, bot: Bot
) -> None:
    """Every instance takes posts: a post is answered once its update is queued for its
    shard's owner (nothing is fed to this instance's dispatcher); one that cannot be
    stored is answered 503, so that Telegram sends it again."""
    dp = Dispatcher()
    fed: list[Message] = []

    @dp.message()
    async def record(message: Message) -> None:
        fed.append(message)

    receiver = Receiver(db, UpdateRouter(db, COUNT), clock=lambda: 700.0)
    failing = False

    async def store(update: Update, body: bytes) -> None:
        if failing:
            raise DatabaseBusy("the server is restarting")
        await receiver.store_webhook_post(update, body)

    app, handler = webhook_app(dp, bot, path="/hook", secret="s3cret", store=store)
    address = Address("127.0.0.1", free_port())
    server = WebServer(app, address)
    await server.start()
    try:
        body = json.dumps({"update_id": 21, "message": message(GROUP)}).encode()
        assert await post(address, body) == 200
        shard = shards.shard_of(GROUP, COUNT)
        (queued,) = await update_queue.take(db, [shard], limit=5)
        assert (queued.update_id, queued.chat_id, queued.body) == (21, GROUP, body.decode())
        failing = True
        later = json.dumps({"update_id": 22, "message": message(GROUP)}).encode()
        assert await post(address, later) == 503
        assert await update_queue.waiting(db, [shard]) == {shard: 1}
    finally:
        await server.stop()
        await handler.idle()
        await bot.session.close()
    assert fed == []


# What a monitor sees.


async def test_metrics_show_each_shard_held_its_queue_and_its_oldest_update(
    db: Database,
) -> None:
    async def never(method: object) -> object:
        raise AssertionError("nothing is sent")

    out = Outgoing(never, Limits.off())
    metrics = Metrics(db, out, shard_count=4, held_shards=lambda: {1, 3})
    assert await update_queue.put(db, 1, 2, GROUP, "{}", now=time.time() - 30)
    assert await update_queue.put(db, 2, 2, OTHER_GROUP, "{}", now=time.time())
    text = (await metrics.exposition()).decode()
    assert 'domino_shard_held{shard="1"} 1.0' in text
    assert 'domino_shard_held{shard="2"} 0.0' in text
    assert 'domino_shard_queued_updates{shard="2"} 2.0' in text
    assert 'domino_shard_queued_updates{shard="0"} 0.0' in text
    (age,) = [
        float(line.split()[-1])
        for line in text.splitlines()
        if line.startswith('domino_shard_oldest_update_seconds{shard="2"}')
    ]
    assert 29 <= age < 60
    plain = (await Metrics(db, out).exposition()).decode()
    assert 'domino_shard_held{shard="' not in plain


async def test_healthz_says_the_role_the_shards_held_and_the_fair_share(db: Database) -> None:
    keeper = await hold(db, 2, 5)
    runtime = ShardRuntime(COUNT, stop_now=lambda: None)
    consumers = ShardConsumers(db, keeper, Handling(db))  # type: ignore[arg-type]
    runtime.attach(keeper, consumers, FakeApplication())  # type: ignore[arg-type]
    health = Health(db, role=lambda: "shards", details=runtime.health)
    healthy, found = await health.check()
    assert healthy and found["role"] == "shards"
    assert found["shards"] == [2, 5] and found["fair_share"] == 2
    assert found["shard_count"] == COUNT


async def test_the_flood_budgets_flusher_acts_for_no_update_whoever_noted_first(
    db: Database,
) -> None:
    """A handling's first call notes its group's bucket; the flusher it starts writes in
    a context of its own, so it neither consumes that update nor checks its shard."""
    shard = shards.shard_of(GROUP, COUNT)
    keeper = await hold(db, shard)
    await queue(db, 1, GROUP)
    budgets = SharedBudgets(db, interval=0.01)
    with acting_for(fence=keeper.fence_for(shard), update_id=1) as scope:
        budgets.note(GROUP, 3.0)
        await until(lambda: not budgets._noted)  # written by the flusher
        assert not scope.consumed
    await budgets.close()
    assert await update_queue.waiting(db, [shard]) == {shard: 1}
    assert await db.fetch_one("SELECT 1 FROM flood_budgets WHERE chat_id = ?", (GROUP,))


# Polling by the holder of shard 0.


class PollingBot:
    """`get_updates` as Telegram answers it: the updates after the offset confirmed,
    one poll ended by another instance's (409) when asked."""

    def __init__(self, updates: list[Update]) -> None:
        self.updates = updates
        self.offsets: list[int | None] = []
        self.conflict_next = False

    async def get_updates(self, *, offset: int | None, **kwargs: object) -> list[Update]:
        self.offsets.append(offset)
        if self.conflict_next:
            self.conflict_next = False
            raise TelegramConflictError(GetUpdates(), "terminated by other getUpdates request")
        await asyncio.sleep(0)
        return [u for u in self.updates if offset is None or u.update_id >= offset][:2]


async def test_the_poller_stores_each_update_before_it_confirms_it(db: Database) -> None:
    updates = [
        Update.model_validate({"update_id": n, "message": message(GROUP if n % 2 else ALICE)})
        for n in range(10, 15)
    ]
    telegram = PollingBot(updates)
    receiver = Receiver(db, UpdateRouter(db, COUNT), clock=lambda: 1.0)
    poller = Poller(telegram, receiver, may_poll=lambda: True)  # type: ignore[arg-type]
    assert await poller.poll_once() == 2
    assert await poller.poll_once() == 2
    assert await poller.poll_once() == 1
    assert telegram.offsets == [None, 12, 14]  # each offset past what was stored
    waiting = await update_queue.waiting(db)
    assert sum(waiting.values()) == 5 and receiver.received == 5


async def test_the_poller_polls_only_while_shard_0_is_sure_and_lives_through_a_409(
    db: Database, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(shard_mode, "CONFLICT_PAUSE", 0.01)
    telegram = PollingBot([Update.model_validate({"update_id": 1, "message": message(GROUP)})])
    telegram.conflict_next = True
    sure = False
    receiver = Receiver(db, UpdateRouter(db, COUNT))
    poller = Poller(telegram, receiver, may_poll=lambda: sure, pause=0.01)  # type: ignore[arg-type]
    polling = asyncio.create_task(poller.run())
    try:
        await asyncio.sleep(0.05)
        assert telegram.offsets == []  # shard 0 not surely held: no poll
        sure = True
        await until(lambda: receiver.received == 1)
        assert "ended by another instance's" in caplog.text  # the 409: a warning, no more
    finally:
        polling.cancel()
        await asyncio.gather(polling, return_exceptions=True)


async def test_telegram_is_called_only_while_the_instance_is_sure_of_its_lease() -> None:
    """A call waits while the instance's own lease may have run out (a pause, a database
    cut off); an answer to a press goes at once."""

    class Unsure:
        sure = False

        def instance_valid(self) -> bool:
            return self.sure

    keeper = Unsure()
    guard = InstanceGuard(keeper, pause=0.005)  # type: ignore[arg-type]
    sent: list[str] = []

    async def make_request(bot: object, method: TelegramMethod[Any]) -> bool:
        sent.append(type(method).__name__)
        return True

    answer = AnswerCallbackQuery(callback_query_id="q")
    assert await guard(make_request, None, answer)  # type: ignore[arg-type]
    sending = asyncio.create_task(
        guard(make_request, None, SendMessage(chat_id=1, text="x"))  # type: ignore[arg-type]
    )
    await asyncio.sleep(0.05)
    assert sent == ["AnswerCallbackQuery"] and not sending.done()
    keeper.sure = True
    assert await sending
    assert sent == ["AnswerCallbackQuery", "SendMessage"]


async def test_the_service_receives_until_stopped_then_finishes_the_updates_in_hand(
    db: Database,
) -> None:
    shard = shards.shard_of(GROUP, COUNT)
    keeper = await hold(db, shard)
    runtime = ShardRuntime(COUNT, stop_now=lambda: None)
    handling = Handling(db)
    handling.held[1] = asyncio.Event()
    consumers = ShardConsumers(db, keeper, handling, check_seconds=0.05)  # type: ignore[arg-type]
    runtime.attach(keeper, consumers, FakeApplication())  # type: ignore[arg-type]
    telegram = PollingBot([Update.model_validate({"update_id": 1, "message": message(GROUP)})])
    receiver = Receiver(db, UpdateRouter(db, COUNT), woken=runtime.wake)
    poller = Poller(telegram, receiver, may_poll=lambda: True, pause=0.01)  # type: ignore[arg-type]
    service = ShardService(db, runtime, receiver, poller)
    runtime.started.set()
    runtime.gained(shard, 1)
    service.start()
    await until(lambda: handling.fed == [1])
    await service.stop_receiving()
    polls = len(telegram.offsets)
    finishing = asyncio.create_task(service.finish())
    await asyncio.sleep(0.05)
    assert not finishing.done()  # the update in hand is waited for
    handling.held[1].set()
    await finishing
    assert consumers.handled == 1 and consumers.consuming() == set()
    assert len(telegram.offsets) == polls  # no poll after the stop
    assert await update_queue.waiting(db) == {}
