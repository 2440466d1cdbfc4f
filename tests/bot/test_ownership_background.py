"""The background work of an instance that plays some chats only (issue 35,
bot/app/ownership.py, `Application(ownership=...)`): clocks, events and message workers
act only for the chats it plays, inside their chat's scope; `pick_up(owned)` and
`let_go(owned)` move the games of some chats in and out, as a restart would."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from aiogram.methods import EditMessageText

from bot.app.inbox import ComputersDue, TurnExpired
from bot.app.people import Person
from bot.app.usecases.lobby_options import LobbyOption
from bot.server.application import Application
from bot.telegram.outgoing import Limits, Outgoing
from storage.connect import open_database
from storage.db import Database, Deposed, Fence, acting_for
from storage.records import ChatRecord, GameRecord, GameStatus
from tests.bot.app_setup import (
    ALICE,
    CHAT,
    FakeTelegram,
    FakeTime,
    Setup,
    eventually,
    no_admin,
    seed_where_seat_0_opens,
    settle,
)

OTHER = ChatRecord(-100888, "supergroup", "Другой стол")
BOB = Person(502, "Боря", language_code="ru")


class SomeChats:
    """An ownership that plays the chats in `played`; the scope of a chat in `refused`
    has a fence no change passes (its lease was taken by another instance)."""

    def __init__(self, *played: int) -> None:
        self.played = set(played)
        self.refused: set[int] = set()
        self.scopes: list[int] = []  # the chats work was done for, in order
        self.deposed: list[Deposed] = []

    def owns(self, chat_id: int) -> bool:
        return chat_id in self.played

    @contextlib.contextmanager
    def acting(self, chat_id: int) -> Iterator[object]:
        self.scopes.append(chat_id)
        fence = None
        if chat_id in self.refused:
            fence = Fence("shard:7", 1, self.deposed.append)  # no such lease: refused
        with acting_for(fence=fence) as scope:
            yield scope


def build(db: Database, time: FakeTime, ownership: SomeChats) -> Setup:
    """The application without Telegram (as `tests.bot.app_setup.make`) with `ownership`."""
    telegram = FakeTelegram()
    out = Outgoing(telegram, Limits.off())
    app = Application(
        db,
        out,
        bot_username="domino_test_bot",
        render_table=lambda view, names, lang: b"table picture",
        render_scores=lambda *args: b"score sheet",
        table_interval=0,
        computer_delay=0,
        new_seed=seed_where_seat_0_opens,
        turn_clock=time.clock,
        turn_sleep=time.sleep,
        ownership=ownership,
    )
    return Setup(db, time, telegram, out, app)


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_database(tmp_path / "ownership.sqlite3")
    try:
        yield database
    finally:
        await database.close()


async def start_game(setup: Setup, chat: ChatRecord, person: Person, game_id: int) -> GameRecord:
    """`person` (seat 0, to move first) against one computer player in `chat`."""
    lobby = setup.app.lobby
    await setup.app.people.remember(person, can_message=True)
    assert await setup.run(lobby.open(chat, person)) is None
    await setup.run(lobby.set_option(game_id, chat.id, person, LobbyOption.SEATS, no_admin))
    await setup.run(lobby.add_computer(game_id, chat.id, person, no_admin))
    await setup.run(lobby.start_game(game_id, chat.id, person, no_admin))
    await settle()
    game = await setup.game(game_id)
    assert game.status is GameStatus.PLAYING and game.match is not None
    assert game.match.turn == 0
    return game


async def two_games(setup: Setup) -> tuple[GameRecord, GameRecord]:
    """Алиса's game in CHAT (game 1) and Боря's in OTHER (game 2), both waiting for them."""
    await setup.app.resume()
    return await start_game(setup, CHAT, ALICE, 1), await start_game(setup, OTHER, BOB, 2)


async def timed_out(setup: Setup, game_id: int) -> bool:
    return (await setup.game(game_id)).seats[0].strikes > 0


async def closed(setup: Setup) -> None:
    await setup.app.close()
    await setup.app.publisher.idle()
    await setup.out.close()
    setup.app.publisher.close()


@pytest.fixture
def both() -> SomeChats:
    return SomeChats(CHAT.id, OTHER.id)


async def test_a_clock_of_a_chat_another_instance_plays_changes_nothing(
    db: Database, both: SomeChats
) -> None:
    setup = build(db, FakeTime(), both)
    _, other = await two_games(setup)
    both.played = {CHAT.id}  # another instance took OTHER's shard
    await setup.time.advance(61)
    await eventually(lambda: timed_out(setup, 1))
    await settle()
    assert (await setup.game(2)).version == other.version
    assert not await timed_out(setup, 2)
    await closed(setup)


async def test_the_reactor_leaves_the_events_of_a_chat_not_played(
    db: Database, both: SomeChats
) -> None:
    setup = build(db, FakeTime(), both)
    mine, other = await two_games(setup)
    both.played = {CHAT.id}
    setup.app.inbox.emit(TurnExpired(other.id, 0))
    setup.app.inbox.emit(ComputersDue(other.id))
    setup.app.inbox.emit(TurnExpired(mine.id, 0))
    await eventually(lambda: timed_out(setup, 1))
    await settle()
    assert (await setup.game(2)).version == other.version
    assert OTHER.id not in both.scopes[-3:]
    await closed(setup)


async def test_a_message_of_a_chat_not_played_is_not_touched(db: Database, both: SomeChats) -> None:
    setup = build(db, FakeTime(), both)
    mine, other = await two_games(setup)
    await setup.app.publisher.idle()

    def edits_to(user_id: int) -> int:
        calls = setup.telegram.calls
        return sum(isinstance(c, EditMessageText) and c.chat_id == user_id for c in calls)

    both.played = {CHAT.id}
    before = edits_to(BOB.id), edits_to(ALICE.id)
    setup.app.publisher.redraw_hand(other.id, 0)  # edited whatever its digest, if played
    setup.app.publisher.redraw_hand(mine.id, 0)
    await setup.app.publisher.idle()
    assert edits_to(BOB.id) == before[0]
    assert edits_to(ALICE.id) == before[1] + 1
    await closed(setup)


async def test_background_changes_check_the_chats_fence(db: Database, both: SomeChats) -> None:
    setup = build(db, FakeTime(), both)
    _, other = await two_games(setup)
    assert OTHER.id in both.scopes  # the turn's deadline was stored in its chat's scope
    both.refused.add(OTHER.id)  # still held here, but another term began meanwhile
    await setup.time.advance(61)
    await eventually(lambda: timed_out(setup, 1))
    await eventually(lambda: _true(bool(both.deposed)))
    assert all(refusal.lease == "shard:7" for refusal in both.deposed)
    assert (await setup.game(2)).version == other.version  # the timeout was not kept
    await closed(setup)


async def _true(value: bool) -> bool:
    return value


async def test_pick_up_picks_up_the_games_of_the_chats_given(db: Database) -> None:
    first = build(db, FakeTime(), SomeChats(CHAT.id, OTHER.id))
    await two_games(first)
    await first.time.advance(20)
    await closed(first)  # the instance stops

    later = FakeTime(first.time.now + 10)
    taking = SomeChats(CHAT.id, OTHER.id)
    second = build(db, later, taking)
    await second.app.prepare()
    assert second.app.timers.clock_of(1) is None
    assert await second.app.pick_up(lambda chat_id: chat_id == OTHER.id) == 1
    assert second.app.timers.clock_of(1) is None
    clock = second.app.timers.clock_of(2)
    assert clock is not None and clock.move == 0
    assert clock.deadline == first.time.now - 20 + 60  # as stored, not a fresh limit
    assert await second.app.pick_up(lambda chat_id: chat_id == CHAT.id) == 1
    assert second.app.timers.clock_of(1) is not None
    await closed(second)


async def test_let_go_stops_the_chats_clocks_and_a_pick_up_resumes_them(
    db: Database, both: SomeChats
) -> None:
    setup = build(db, FakeTime(), both)
    _, other = await two_games(setup)
    app = setup.app
    await app.publisher.idle()
    assert app.timers.clock_of(2) is not None
    assert app.publisher.records.games.get(2) is not None

    await app.let_go(lambda chat_id: chat_id == OTHER.id)
    assert app.timers.clock_of(2) is None
    assert app.publisher.records.games.get(2) is None  # its caches forgotten
    assert app.publisher.records.games.get(1) is not None
    assert app.timers.clock_of(1) is not None
    assert not app.ownership.owns(OTHER.id) and app.ownership.owns(CHAT.id)
    await setup.time.advance(61)
    await eventually(lambda: timed_out(setup, 1))
    await settle()
    assert (await setup.game(2)).version == other.version  # nobody here times it

    # Taken again: picked up as a restart does, its stored deadline long past.
    assert await app.pick_up(lambda chat_id: chat_id == OTHER.id) == 1
    assert app.ownership.owns(OTHER.id)
    await eventually(lambda: timed_out(setup, 2))
    await closed(setup)


async def test_let_go_with_nothing_under_way_returns_at_once(db: Database) -> None:
    setup = build(db, FakeTime(), SomeChats(CHAT.id))
    await setup.app.resume()
    await setup.app.let_go(lambda chat_id: True)
    assert not setup.app.ownership.owns(CHAT.id)
    await closed(setup)
