"""The whole application without Telegram, for the use cases' unit tests: a real
database file, a fake Bot API that answers every call, and `FakeTime` for the turn
timers, so nothing waits for a turn to run out for real."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

from aiogram.methods import EditMessageMedia, SendMessage, SendPhoto, TelegramMethod
from aiogram.types import Chat, Message, PhotoSize

from bot.app.effects import Done
from bot.app.people import Person
from bot.app.usecases.lobby_options import LobbyOption
from bot.server.application import Application
from bot.telegram.outgoing import Limits, Outgoing
from domino.match import Match
from domino.rules import KOZEL
from domino.variants import find_variant
from storage import repo
from storage.db import Database
from storage.records import ChatRecord, GameRecord
from tests.fakegram.waiting import Deadline

T = TypeVar("T")

START = 1_800_000_000.0
CHAT = ChatRecord(-100777, "supergroup", "Таймеры")
ALICE = Person(501, "Алиса", language_code="ru")


class FakeTime:
    """A clock that moves only when the test says so, and sleepers it wakes in order."""

    def __init__(self, now: float = START) -> None:
        self.now = now
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._sleepers.append((self.now + seconds, future))
        await future

    @property
    def sleeping(self) -> int:
        return sum(1 for _, future in self._sleepers if not future.done())

    async def advance(self, seconds: float) -> None:
        """Move the time on, waking every sleeper that falls due, in order."""
        target = self.now + seconds
        while True:
            await settle()
            due = sorted(
                ((when, f) for when, f in self._sleepers if when <= target and not f.done()),
                key=lambda item: item[0],
            )
            if not due:
                break
            when, future = due[0]
            self.now = max(self.now, when)
            future.set_result(None)
        self._sleepers = [(w, f) for w, f in self._sleepers if not f.done()]
        self.now = target
        await settle()


async def settle() -> None:
    """Let the tasks started so far run to their next real wait (the database's thread)."""
    for _ in range(30):
        await asyncio.sleep(0.002)


async def eventually(check: Callable[[], Awaitable[bool]], timeout: float = 5.0) -> None:
    """Until `check()` holds; it fails after `timeout` seconds of looking, stretched by the
    machine's pace (`Deadline`): the application runs in this process, so a busy machine
    makes it slower, not wrong."""
    deadline = Deadline(timeout)
    while not await check():
        assert not deadline.passed(), f"the condition never held in {deadline}"
        await asyncio.sleep(0.01)


class FakeTelegram:
    """Answers every call like the Bot API and keeps it."""

    def __init__(self) -> None:
        self.calls: list[TelegramMethod[Any]] = []
        self._ids = itertools.count(100)

    async def __call__(self, method: TelegramMethod[Any]) -> Any:
        self.calls.append(method)
        chat_id = int(getattr(method, "chat_id", 0))
        chat = Chat(id=chat_id, type="private" if chat_id > 0 else "supergroup")
        photo = None
        if isinstance(method, SendPhoto | EditMessageMedia):
            photo = [PhotoSize(file_id="f", file_unique_id="u", width=1, height=1)]
        message_id = getattr(method, "message_id", None) or next(self._ids)
        return Message(message_id=message_id, date=datetime.now(UTC), chat=chat, photo=photo)

    def sent_to(self, chat_id: int) -> list[str]:
        """The texts of the messages sent to a chat, in order."""
        return [
            call.text
            for call in self.calls
            if isinstance(call, SendMessage) and call.chat_id == chat_id
        ]


async def no_admin(chat_id: int) -> bool:
    """Nobody here is a chat admin (Алиса controls her lobby as its creator)."""
    return False


async def two_seated(setup: Setup, variant: str, bob: Person) -> GameRecord:
    """Алиса (seat 0) and `bob` at a started two-seat game of `variant` in CHAT, both
    able to get private messages: the stored game (the first one: id 1)."""
    for person in (ALICE, bob):
        await setup.app.people.remember(person, can_message=True)
    assert await setup.run(setup.app.lobby.open(CHAT, ALICE, find_variant(variant))) is None
    lobby = setup.app.lobby
    await setup.run(lobby.set_option(1, CHAT.id, ALICE, LobbyOption.SEATS, no_admin))
    await setup.run(lobby.join(1, CHAT.id, bob))
    await setup.run(lobby.start_game(1, CHAT.id, ALICE, no_admin))
    game = await setup.game(1)
    assert [s.user_id for s in game.seats] == [ALICE.id, bob.id]
    return game


def seed_where_seat_0_opens() -> int:
    return next(seed for seed in range(100) if Match.new(KOZEL, 2, seed=seed).turn == 0)


@dataclass
class Setup:
    db: Database
    time: FakeTime
    telegram: FakeTelegram
    out: Outgoing
    app: Application

    async def game(self, game_id: int = 1) -> GameRecord:
        game = await repo.load_game(self.db, game_id)
        assert game is not None
        return game

    async def run(self, work: Awaitable[Done[T]]) -> T:
        """A use case as a handler runs it: its value, once its effects are carried out."""
        return await self.app.dispatch(work)

    async def close(self) -> None:
        await self.app.close()
        await self.app.publisher.idle()
        await self.out.close()
        self.app.publisher.close()


def make(db: Database, time: FakeTime, seed: int, telegram: FakeTelegram | None = None) -> Setup:
    """The application over `db`, every game dealt from `seed`, talking to `telegram`
    (default: a `FakeTelegram` that answers every call)."""
    telegram = telegram or FakeTelegram()
    out = Outgoing(telegram, Limits.off())
    app = Application(
        db,
        out,
        bot_username="domino_test_bot",
        render_table=lambda view, names, lang: b"table picture",
        render_scores=lambda *args: b"score sheet",
        table_interval=0,
        computer_delay=0,
        new_seed=lambda: seed,
        turn_clock=time.clock,
        turn_sleep=time.sleep,
    )
    return Setup(db, time, telegram, out, app)
