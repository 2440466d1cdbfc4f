"""Turn timers with an injected clock (bot/timers.py and GameService's timeout use case),
chat settings and stored deadlines (storage, migration 004), against a fresh database file.

`FakeTime` stands in for the clock and the sleeping: a timer task sleeps until the test
moves the time on, so nothing here waits for a turn to run out for real.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.callbacks import (
    BackCb,
    GroupLangCb,
    LobbyAction,
    LobbyOption,
    LobbyTimeCb,
    MoveKind,
    TimerCb,
)
from bot.i18n import Lang
from bot.presenter import hand_timer_lines, settings_keyboard, table_timer_line
from bot.service import GameService, Person
from bot.timers import STRIKES_TO_TAKE_OVER, TurnClock, TurnTimers
from domino.actions import Play
from domino.match import Match
from domino.rules import KOZEL
from domino.timing import TurnTimer
from storage import repo
from storage.db import Database
from storage.records import (
    LOBBY_TIMEOUTS,
    ChatRecord,
    ChatSettings,
    Ending,
    GameRecord,
    GameStatus,
    SeatRecord,
    TurnDeadline,
)

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
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await check():
        assert loop.time() < deadline, "the condition never held"
        await asyncio.sleep(0.01)


@dataclass
class StubPublisher:
    """What the service asks of the publisher, recorded instead of sent."""

    touched: list[GameRecord] = field(default_factory=list)
    out: Any = None

    def touch(self, game: GameRecord, *, group: bool = True) -> None:
        self.touched.append(game)

    def touch_hand(self, game_id: int, seat: int) -> None:
        pass

    def kick_outbox(self) -> None:
        pass

    async def close_hand(self, game: GameRecord, seat: int, user_id: int, text: str) -> None:
        pass

    async def language_of(self, user_id: int) -> Lang:
        return Lang.RU

    async def group_lang(self, game: GameRecord) -> Lang:
        return Lang.RU


async def no_admin(chat_id: int) -> bool:
    """Nobody here is a chat admin (Алиса controls her lobby as its creator)."""
    return False


def seed_where_seat_0_opens() -> int:
    return next(seed for seed in range(100) if Match.new(KOZEL, 2, seed=seed).turn == 0)


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(tmp_path / "timers.sqlite3")
    try:
        yield database
    finally:
        await database.close()


@dataclass
class Setup:
    db: Database
    time: FakeTime
    timers: TurnTimers
    service: GameService
    publisher: StubPublisher

    async def game(self, game_id: int = 1) -> GameRecord:
        game = await repo.load_game(self.db, game_id)
        assert game is not None
        return game


def make(db: Database, time: FakeTime, seed: int) -> Setup:
    timers = TurnTimers(db, clock=time.clock, sleep=time.sleep)
    publisher = StubPublisher()
    service = GameService(
        db,
        publisher,  # type: ignore[arg-type]
        bot_username="domino_test_bot",
        computer_delay=0,
        new_seed=lambda: seed,
        timers=timers,
    )
    return Setup(db, time, timers, service, publisher)


async def start_game(setup: Setup) -> GameRecord:
    """Алиса (seat 0, to move first) against one computer player."""
    service = setup.service
    await service.remember(ALICE, can_message=True)
    assert await service.open_lobby(CHAT, ALICE) is None
    for action, option in [
        (LobbyAction.OPTION, LobbyOption.SEATS),  # 4 -> 2 seats
        (LobbyAction.ADD_COMPUTER, LobbyOption.NONE),
        (LobbyAction.START, LobbyOption.NONE),
    ]:
        await service.lobby_press(1, CHAT.id, ALICE, action, option, no_admin)
    await settle()
    game = await setup.game()
    assert game.status is GameStatus.PLAYING and game.match is not None
    assert game.match.turn == 0
    return game


@pytest.fixture
async def setup(db: Database) -> AsyncIterator[Setup]:
    made = make(db, FakeTime(), seed_where_seat_0_opens())
    await made.service.resume()
    try:
        yield made
    finally:
        await made.service.close()


# --- settings -------------------------------------------------------------------------


@pytest.mark.parametrize("group_lang", [None, "ru", "en"])
@pytest.mark.parametrize("timer", list(TurnTimer))
def test_chat_settings_round_trip(timer: TurnTimer, group_lang: str | None) -> None:
    settings = ChatSettings(turn_timer=timer, group_lang=group_lang)
    assert ChatSettings.from_dict(json.loads(json.dumps(settings.to_dict()))) == settings


def test_chat_settings_defaults_for_missing_and_unknown_values() -> None:
    assert ChatSettings.from_dict({}) == ChatSettings() == ChatSettings(TurnTimer.S60)
    assert ChatSettings.from_dict({"turn_timer": "7"}).turn_timer is TurnTimer.S60
    assert ChatSettings.from_dict({"group_lang": "de"}).group_lang is None
    assert ChatSettings.from_dict({"turn_timer": "sport", "later": 1}).turn_timer is (
        TurnTimer.SPORT
    )


async def test_settings_are_stored_per_chat_and_read_back_at_start(db: Database) -> None:
    timers = TurnTimers(db)
    await timers.change_settings(CHAT, ChatSettings(TurnTimer.S120))
    assert await repo.get_chat_settings(db, CHAT.id) == ChatSettings(TurnTimer.S120)
    assert await repo.get_chat_settings(db, -1) == ChatSettings()
    again = TurnTimers(db)
    await again.load()
    assert again.settings_of(CHAT.id).turn_timer is TurnTimer.S120
    assert again.settings_of(-1) == ChatSettings()


def test_settings_keyboard_marks_the_current_choice_and_packs_small() -> None:
    keyboard = settings_keyboard(ChatSettings(TurnTimer.SPORT, "en"), Lang.RU)
    buttons = [b for row in keyboard.inline_keyboard for b in row]
    assert [b.callback_data for b in buttons] == [
        *(TimerCb(timer=x.value).pack() for x in TurnTimer),
        *(GroupLangCb(lang=code).pack() for code in ("auto", "ru", "en")),
        *(LobbyTimeCb(minutes=n).pack() for n in LOBBY_TIMEOUTS),
    ]
    assert [b.text for b in buttons][-7:-4] == [
        "🌐 Как у создателя",
        "🇷🇺 Русский",
        "✅ 🇬🇧 English",
    ]
    assert [b.text for b in buttons][-4:] == ["⌛ никогда", "⌛ 5 мин", "✅ ⌛ 10 мин", "⌛ 30 мин"]
    marked = [b.text for b in buttons if b.text.startswith("✅")]
    assert marked == ["✅ спортивный (5 / 20 / 60 с)", "✅ 🇬🇧 English", "✅ ⌛ 10 мин"]
    assert TimerCb.unpack(TimerCb(timer="sport").pack()).timer == "sport"
    assert BackCb.unpack(BackCb(game=12).pack()).game == 12


# --- one game's clock -----------------------------------------------------------------


async def test_a_turn_gets_a_stored_deadline_a_warning_then_a_move_once(setup: Setup) -> None:
    warned: list[int] = []
    setup.timers.on_warning = lambda game: warned.append(game.id)
    game = await start_game(setup)
    clock = setup.timers.clock_of(game.id)
    assert clock is not None and clock.move == 0 and clock.seat == 0
    assert clock.deadline == START + 60 and clock.warn_at == START + 45  # 15 s before
    await settle()
    stored = await repo.turn_deadlines(setup.db)
    assert stored == {
        game.id: TurnDeadline(game.id, 0, datetime.fromtimestamp(START + 60, UTC), 60)
    }

    await setup.time.advance(44)
    assert warned == [] and not setup.timers.clock_of(game.id).warned  # type: ignore[union-attr]
    await setup.time.advance(2)
    assert warned == [game.id]
    assert setup.timers.clock_of(game.id).warned  # type: ignore[union-attr]

    await setup.time.advance(15)
    await eventually(lambda: has_strikes(setup, 1))
    after = await setup.game()
    assert after.match is not None
    logged = await repo.game_actions(setup.db, game.id)
    assert logged[0].seat == 0 and logged[0].actor_id is None  # the computer's choice for her
    assert after.seats[0].strikes == 1 and not after.seats[0].away
    # Firing again for the same move changes nothing (the move number moved on).
    await setup.service.turn_timed_out(game.id, 0)
    assert (await setup.game()).version == after.version


async def test_a_deadline_the_locked_database_refuses_still_times_out(
    setup: Setup, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Another process holds the write lock when the turn starts (issue 11): the deadline
    lives in memory and the turn times out on time all the same."""

    async def locked(*args: object) -> None:
        error = sqlite3.OperationalError("database is locked")
        error.sqlite_errorcode = 5  # SQLITE_BUSY
        raise error

    monkeypatch.setattr(repo, "set_turn_deadline", locked)
    game = await start_game(setup)
    await settle()
    assert await repo.turn_deadlines(setup.db) == {}
    assert "kept in memory only: database is locked" in caplog.text
    await setup.time.advance(61)
    await eventually(lambda: has_strikes(setup, 1))
    assert (await setup.game()).version > game.version


async def has_strikes(setup: Setup, n: int) -> bool:
    game = await repo.load_game(setup.db, 1)
    return game is not None and game.seats[0].strikes == n


async def test_a_press_just_before_the_deadline_wins(setup: Setup) -> None:
    game = await start_game(setup)
    await setup.time.advance(59.9)
    assert game.match is not None
    action = game.match.legal_actions()[0]
    assert isinstance(action, Play)
    answer = await setup.service.move_press(
        game.id, ALICE, 0, MoveKind.PLAY, action.tile.index, action.end.value if action.end else ""
    )
    assert not answer.alert, answer
    await setup.time.advance(0.2)  # the old deadline passes
    await settle()
    after = await setup.game()
    logged = await repo.game_actions(setup.db, game.id)
    assert logged[0].actor_id == ALICE.id and str(logged[0].action) == str(action)
    assert after.seats[0].strikes == 0
    # Her next turn (after the computer's) has a deadline of its own, a full minute.
    await eventually(lambda: person_to_move(setup))
    clock = setup.timers.clock_of(game.id)
    assert clock is not None and clock.move > 1
    assert clock.deadline == pytest.approx(START + 59.9 + 60)


async def test_three_strikes_hand_the_seat_to_a_computer_once_and_i_am_back(
    setup: Setup,
) -> None:
    game = await start_game(setup)
    for strike in range(1, STRIKES_TO_TAKE_OVER + 1):
        await eventually(lambda: person_to_move(setup))
        if strike == STRIKES_TO_TAKE_OVER:
            setup.service.computer_delay = 30  # (real seconds) the match stays put meanwhile
        await setup.time.advance(61)
        await eventually(lambda strike=strike: has_strikes(setup, strike))
    taken = await setup.game()
    assert taken.seats[0].away and taken.seats[0].by_computer
    assert taken.abandonment is not None
    assert taken.abandonment.seat == 0 and taken.abandonment.reason is Ending.TIMEOUT
    notices = [
        item.payload["key"] for item in await repo.pending_outbox(setup.db) if item.kind == "notice"
    ]
    assert notices.count("notice.taken_over") == 1
    assert setup.timers.clock_of(game.id) is None  # nobody's turn is timed now

    back = await setup.service.come_back(game.id, ALICE)
    assert not back.alert, back
    returned = await setup.game()
    assert not returned.seats[0].away and returned.seats[0].strikes == 0
    assert returned.abandonment is None
    again = await setup.service.come_back(game.id, ALICE)
    assert again.text and not again.alert  # "you are playing yourself already"
    notices = [i.payload["key"] for i in await repo.pending_outbox(setup.db) if i.kind == "notice"]
    assert notices.count("notice.back") == 1


async def person_to_move(setup: Setup) -> bool:
    game = await repo.load_game(setup.db, 1)
    clock = setup.timers.clock_of(1)
    return (
        game is not None
        and game.match is not None
        and game.match.turn == 0
        and clock is not None
        and clock.move == len(game.match.log)
    )


async def test_a_restart_schedules_the_stored_deadline_again(db: Database) -> None:
    seed = seed_where_seat_0_opens()
    first = make(db, FakeTime(), seed)
    await first.service.resume()
    game = await start_game(first)
    await settle()
    await first.time.advance(30)
    await first.service.close()  # the bot stops half-way through her turn

    later = FakeTime(START + 40)  # it is back 10 s later: 20 s of her turn are left
    second = make(db, later, seed)
    assert await second.service.resume() == 1
    clock = second.timers.clock_of(game.id)
    assert clock is not None and clock.deadline == START + 60 and clock.move == 0
    await later.advance(19)
    assert not await has_strikes(second, 1)
    await later.advance(2)
    await eventually(lambda: has_strikes(second, 1))
    await second.service.close()

    gone = FakeTime(START + 10_000)  # a deadline long past fires at once after a restart
    third = make(db, gone, seed)
    await third.service.resume()
    await eventually(lambda: person_to_move(third))
    moved = await third.game()
    assert moved.match is not None
    clock = third.timers.clock_of(game.id)
    assert clock is not None and clock.deadline == START + 10_060  # a fresh turn, fresh time
    await third.service.close()


async def test_a_press_is_refused_while_a_computer_plays_for_the_person(setup: Setup) -> None:
    game = await start_game(setup)
    async with setup.db.transaction() as tx:
        seats = (dataclasses.replace(game.seats[0], away=True), game.seats[1])
        away = await repo.save_game(tx, dataclasses.replace(game, seats=seats))
    assert away.match is not None and away.match.turn == 0
    action = away.match.legal_actions()[0]
    assert isinstance(action, Play)
    refused = await setup.service.move_press(
        game.id, ALICE, 0, MoveKind.PLAY, action.tile.index, action.end.value if action.end else ""
    )
    assert refused.alert and "компьютер" in refused.text
    assert (await setup.game()).version == away.version


async def test_turns_are_not_timed_when_the_timer_is_off(setup: Setup) -> None:
    await setup.timers.change_settings(CHAT, ChatSettings(TurnTimer.OFF))
    game = await start_game(setup)
    assert setup.timers.clock_of(game.id) is None
    await setup.time.advance(3600)
    assert (await setup.game()).seats[0].strikes == 0


async def test_sport_timing_gives_the_forced_opening_5_s(setup: Setup) -> None:
    await setup.timers.change_settings(CHAT, ChatSettings(TurnTimer.SPORT))
    game = await start_game(setup)
    clock = setup.timers.clock_of(game.id)
    assert clock is not None and clock.limit == 5 and clock.warn_at == START + 5 - 1.25


def test_the_timer_lines_of_a_hand_and_the_table() -> None:
    match = Match.new(KOZEL, 2, seed=seed_where_seat_0_opens())
    game = GameRecord(
        1,
        CHAT.id,
        GameStatus.PLAYING,
        ALICE.id,
        KOZEL,
        2,
        seats=(SeatRecord(0, ALICE.id, "Алиса", strikes=2), SeatRecord(1, None, "🤖")),
        match=match,
    )
    clock = TurnClock(1, 0, 0, START + 60, 60, START + 45)
    lines = hand_timer_lines(game, 0, clock, START + 0.5, Lang.RU)
    assert "вышло 2 раз из 3" in lines and "⏱ На ход: 60 с" in lines
    assert table_timer_line(game, clock, START, ["Алиса", "🤖"], Lang.RU) == ""
    warned = TurnClock(1, 0, 0, START + 60, 60, START + 45, warned=True)
    assert "Осталось 10 с" in hand_timer_lines(game, 0, warned, START + 50, Lang.RU)
    assert table_timer_line(game, warned, START + 50, ["Алиса", "🤖"], Lang.RU) == (
        "\n⏳ Алиса: 10 с"
    )
    stale = TurnClock(1, 5, 0, START + 60, 60, START + 45, warned=True)
    assert table_timer_line(game, stale, START + 50, ["Алиса", "🤖"], Lang.RU) == ""
    assert hand_timer_lines(game, 1, clock, START, Lang.RU) == ""


async def test_settings_follow_a_group_that_became_a_supergroup(setup: Setup) -> None:
    await setup.timers.change_settings(CHAT, ChatSettings(TurnTimer.S30))
    await setup.service.chat_migrated(CHAT.id, -1009999)
    assert setup.timers.settings_of(-1009999).turn_timer is TurnTimer.S30
    assert setup.timers.settings_of(CHAT.id) == ChatSettings()
    assert await repo.get_chat_settings(setup.db, -1009999) == ChatSettings(TurnTimer.S30)
