"""Turn timers with an injected clock (bot/app/timers.py and the timeout use case),
chat settings and stored deadlines (storage, migration 004), against a fresh database file.

`FakeTime` stands in for the clock and the sleeping: a timer task sleeps until the test
moves the time on, so nothing here waits for a turn to run out for real.
"""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import json
import sqlite3
import warnings
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.app.group_settings import GroupSettings, group_lang
from bot.app.inbox import Event, TurnWarned
from bot.app.people import People
from bot.app.timers import STRIKES_TO_TAKE_OVER, TurnClock, turn_seconds
from bot.telegram.callbacks import (
    BackCb,
    DefaultGameCb,
    GroupLangCb,
    HandsCb,
    HintsCb,
    LobbyOption,
    LobbyTimeCb,
    SettingsSection,
    TimerCb,
)
from bot.telegram.presenter import hand_timer_lines, settings_keyboard, table_timer_line
from bot.telegram.presenter.lobby import PLAYABLE
from bot.telegram.presenter.replies import reply_text
from bot.telegram.presenter.settings import SECTIONS, section_keyboard
from domino.actions import Play
from domino.match import Match
from domino.players import GreedyPlayer
from domino.rules import KOZEL
from domino.timing import TurnTimer, sport_seconds
from domino.variants import find_variant
from i18n import Lang, t
from storage import repo
from storage.connect import open_database
from storage.db import Database
from storage.records import (
    LOBBY_TIMEOUTS,
    ChatSettings,
    Ending,
    GameRecord,
    GameStatus,
    HandsPlace,
    SeatRecord,
    TurnDeadline,
)
from tests.bot.app_setup import (
    ALICE,
    CHAT,
    START,
    FakeTime,
    Setup,
    eventually,
    make,
    no_admin,
    seed_where_seat_0_opens,
    settle,
)


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_database(tmp_path / "timers.sqlite3")
    try:
        yield database
    finally:
        await database.close()


async def start_game(setup: Setup) -> GameRecord:
    """Алиса (seat 0, to move first) against one computer player."""
    lobby = setup.app.lobby
    await setup.app.people.remember(ALICE, can_message=True)
    assert await setup.run(lobby.open(CHAT, ALICE)) is None
    await setup.run(lobby.set_option(1, CHAT.id, ALICE, LobbyOption.SEATS, no_admin))  # 4 -> 2
    await setup.run(lobby.add_computer(1, CHAT.id, ALICE, no_admin))
    await setup.run(lobby.start_game(1, CHAT.id, ALICE, no_admin))
    await settle()
    game = await setup.game()
    assert game.status is GameStatus.PLAYING and game.match is not None
    assert game.match.turn == 0
    return game


@pytest.fixture
async def setup(db: Database) -> AsyncIterator[Setup]:
    made = make(db, FakeTime(), seed_where_seat_0_opens())
    await made.app.resume()
    try:
        yield made
    finally:
        await made.close()


# --- settings -------------------------------------------------------------------------


@pytest.mark.parametrize("group_lang", [None, "ru", "en"])
@pytest.mark.parametrize("timer", list(TurnTimer))
def test_chat_settings_round_trip(timer: TurnTimer, group_lang: str | None) -> None:
    settings = ChatSettings(turn_timer=timer, group_lang=group_lang)
    assert ChatSettings.from_dict(json.loads(json.dumps(settings.to_dict()))) == settings


def test_chat_settings_defaults_for_missing_and_unknown_values() -> None:
    assert ChatSettings.from_dict({}) == ChatSettings() == ChatSettings(TurnTimer.S60)
    assert ChatSettings.from_dict({"turn_timer": "7"}).turn_timer is TurnTimer.S60
    # A language code is kept whatever catalogues this version has (a group's choice
    # survives a downgrade); anything else is no choice.
    assert ChatSettings.from_dict({"group_lang": "de"}).group_lang == "de"
    assert group_lang(ChatSettings.from_dict({"group_lang": "de"})) is None
    assert group_lang(ChatSettings.from_dict({"group_lang": "en"})) is Lang.EN
    for junk in ("DE", "deutsch", 5, "", None):
        assert ChatSettings.from_dict({"group_lang": junk}).group_lang is None
    assert ChatSettings.from_dict({"turn_timer": "sport", "later": 1}).turn_timer is (
        TurnTimer.SPORT
    )


async def test_settings_are_stored_per_chat_and_read_back_at_start(db: Database) -> None:
    settings = GroupSettings(db, People(db))
    await settings.change(CHAT, ChatSettings(TurnTimer.S120))
    assert await repo.get_chat_settings(db, CHAT.id) == ChatSettings(TurnTimer.S120)
    assert await repo.get_chat_settings(db, -1) == ChatSettings()
    again = GroupSettings(db, People(db))
    await again.load()
    assert again.of(CHAT.id).turn_timer is TurnTimer.S120
    assert again.of(-1) == ChatSettings()


def test_settings_keyboard_marks_the_current_choice_and_packs_small() -> None:
    settings = ChatSettings(TurnTimer.SPORT, "en")
    sections = [
        [b.callback_data for b in row]
        for row in settings_keyboard(settings, Lang.RU).inline_keyboard
    ]
    assert sections == [["se1:g", "se1:t"], ["se1:l", "se1:w"], ["se1:h", "se1:p"]]
    opened = {
        section: [
            b for row in section_keyboard(section, settings, Lang.RU).inline_keyboard for b in row
        ]
        for section in SECTIONS
    }
    assert [b.callback_data for b in opened[SettingsSection.TIMER]][:-1] == [
        TimerCb(timer=x.value).pack() for x in TurnTimer
    ]
    assert [b.callback_data for b in opened[SettingsSection.LANG]][:-1] == [
        GroupLangCb(lang=code).pack() for code in ("ru", "en")
    ]
    assert [b.callback_data for b in opened[SettingsSection.LOBBY]][:-1] == [
        LobbyTimeCb(minutes=n).pack() for n in LOBBY_TIMEOUTS
    ]
    assert [b.callback_data for b in opened[SettingsSection.GAME]][:-1] == [
        DefaultGameCb(game=key).pack() for key in PLAYABLE
    ]
    assert [b.callback_data for b in opened[SettingsSection.HINTS]][:-1] == [
        HintsCb(on=True).pack(),
        HintsCb(on=False).pack(),
    ]
    assert [b.callback_data for b in opened[SettingsSection.HANDS]][:-1] == [
        HandsCb(place=place.value).pack() for place in HandsPlace
    ]
    assert {buttons[-1].callback_data for buttons in opened.values()} == {"se1:m"}
    marked = [b.text for buttons in opened.values() for b in buttons if b.text.startswith("✅")]
    assert marked == [
        "✅ Козёл",
        "✅ спортивный (5 / 20 / 60 с)",
        "✅ 🇬🇧 English",
        "✅ 10 мин",
        "✅ вкл",
        "✅ Там и там",
    ]
    assert TimerCb.unpack(TimerCb(timer="sport").pack()).timer == "sport"
    assert BackCb.unpack(BackCb(game=12).pack()).game == 12


# --- one game's clock -----------------------------------------------------------------


async def test_a_turn_gets_a_stored_deadline_a_warning_then_a_move_once(
    setup: Setup, monkeypatch: pytest.MonkeyPatch
) -> None:
    warned: list[int] = []
    emit = setup.app.inbox.emit

    def noting_warnings(event: Event) -> None:
        if isinstance(event, TurnWarned):
            warned.append(event.game.id)
        emit(event)

    monkeypatch.setattr(setup.app.inbox, "emit", noting_warnings)
    game = await start_game(setup)
    clock = setup.app.timers.clock_of(game.id)
    assert clock is not None and clock.move == 0 and clock.seat == 0
    assert clock.deadline == START + 60 and clock.warn_at == START + 45  # 15 s before
    await settle()
    stored = await repo.turn_deadlines(setup.db)
    assert stored == {
        game.id: TurnDeadline(game.id, 0, datetime.fromtimestamp(START + 60, UTC), 60)
    }

    await setup.time.advance(44)
    assert warned == [] and not setup.app.timers.clock_of(game.id).warned  # type: ignore[union-attr]
    await setup.time.advance(2)
    assert warned == [game.id]
    assert setup.app.timers.clock_of(game.id).warned  # type: ignore[union-attr]

    await setup.time.advance(15)
    await eventually(lambda: has_strikes(setup, 1))
    after = await setup.game()
    assert after.match is not None
    assert after.match.log[0].seat == 0  # the computer's choice for her ...
    assert after.seats[0].strikes == 1 and not after.seats[0].away  # ... and her strike
    # Firing again for the same move changes nothing (the move number moved on).
    assert await setup.app.playing.time_out(game.id, 0) is None
    assert (await setup.game()).version == after.version


async def test_the_first_turn_has_its_deadline_in_the_record_the_start_shows(
    setup: Setup, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The deal is stored with the first turn's deadline, as every move is with the next
    turn's: the record the start hands the front ends already counts down."""
    shown: list[GameRecord] = []
    front = setup.app.dispatch.front_ends[0]
    show = front.show

    def noting(game: GameRecord, *, group: bool = True) -> None:
        shown.append(game)
        show(game, group=group)

    monkeypatch.setattr(front, "show", noting)
    game = await start_game(setup)
    first = next(g for g in shown if g.status is GameStatus.PLAYING)
    assert first.turn_deadline == TurnDeadline(
        game.id, 0, datetime.fromtimestamp(START + 60, UTC), 60
    )
    assert game.turn_deadline == first.turn_deadline  # stored with the deal


async def test_a_deadline_the_locked_database_refuses_still_times_out(
    setup: Setup, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A turn whose deadline came without its move (a game dealt by an older version of
    the bot, a picked-up game) gets it from the timer's own write; when another process
    holds the write lock then, the deadline lives in memory and the turn times out on
    time all the same."""

    async def locked(*args: object) -> None:
        error = sqlite3.OperationalError("database is locked")
        error.sqlite_errorcode = 5  # SQLITE_BUSY
        raise error

    monkeypatch.setattr(repo, "set_turn_deadline", locked)
    lobby = setup.app.lobby
    monkeypatch.setattr(
        lobby, "context", dataclasses.replace(lobby.context, turn_deadline=lambda game: None)
    )
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
    answer = await setup.run(setup.app.playing.play(game.id, ALICE, 0, action))
    assert not answer.alert, answer
    await setup.time.advance(0.2)  # the old deadline passes
    await settle()
    after = await setup.game()
    assert after.match is not None and str(after.match.log[0].action) == str(action)
    assert after.seats[0].strikes == 0  # her own move, not the timer's
    # Her next turn (after the computer's) has a deadline of its own, a full minute.
    await eventually(lambda: person_to_move(setup))
    clock = setup.app.timers.clock_of(game.id)
    assert clock is not None and clock.move > 1
    assert clock.deadline == pytest.approx(START + 59.9 + 60)


async def test_three_strikes_hand_the_seat_to_a_computer_once_and_i_am_back(
    setup: Setup,
) -> None:
    game = await start_game(setup)
    for strike in range(1, STRIKES_TO_TAKE_OVER + 1):
        await eventually(lambda: person_to_move(setup))
        if strike == STRIKES_TO_TAKE_OVER:
            setup.app.dispatch.computer_delay = 30  # (real seconds) the match stays put
        await setup.time.advance(61)
        await eventually(lambda strike=strike: has_strikes(setup, strike))
    taken = await setup.game()
    assert taken.seats[0].away and taken.seats[0].by_computer
    assert taken.abandonment is not None
    assert taken.abandonment.seat == 0 and taken.abandonment.reason is Ending.TIMEOUT
    await setup.app.publisher.idle()
    # The match's first abandonment: the notice says how it counts from now (K-11).
    points = taken.abandonment.points[0]
    taken_over = t("notice.taken_over_counted", Lang.RU, name="Алиса", goat="Алиса", points=points)
    assert setup.telegram.sent_to(CHAT.id).count(taken_over) == 1
    assert setup.app.timers.clock_of(game.id) is None  # nobody's turn is timed now

    back = await setup.run(setup.app.playing.come_back(game.id, ALICE))
    assert not back.alert, back
    returned = await setup.game()
    assert not returned.seats[0].away and returned.seats[0].strikes == 0
    assert returned.abandonment is None
    again = await setup.run(setup.app.playing.come_back(game.id, ALICE))
    assert reply_text(again, Lang.RU) and not again.alert  # "you are playing yourself already"
    await setup.app.publisher.idle()
    assert setup.telegram.sent_to(CHAT.id).count(t("notice.back", Lang.RU, name="Алиса")) == 1


async def person_to_move(setup: Setup) -> bool:
    game = await repo.load_game(setup.db, 1)
    clock = setup.app.timers.clock_of(1)
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
    await first.app.resume()
    game = await start_game(first)
    await settle()
    await first.time.advance(30)
    await first.close()  # the bot stops half-way through her turn

    later = FakeTime(START + 40)  # it is back 10 s later: 20 s of her turn are left
    second = make(db, later, seed)
    assert await second.app.resume() == 1
    clock = second.app.timers.clock_of(game.id)
    assert clock is not None and clock.deadline == START + 60 and clock.move == 0
    await later.advance(19)
    assert not await has_strikes(second, 1)
    await later.advance(2)
    await eventually(lambda: has_strikes(second, 1))
    await second.close()

    gone = FakeTime(START + 10_000)  # a deadline long past fires at once after a restart
    third = make(db, gone, seed)
    await third.app.resume()
    await eventually(lambda: person_to_move(third))
    moved = await third.game()
    assert moved.match is not None
    clock = third.app.timers.clock_of(game.id)
    assert clock is not None and clock.deadline == START + 10_060  # a fresh turn, fresh time
    await third.close()


async def test_a_press_is_refused_while_a_computer_plays_for_the_person(setup: Setup) -> None:
    game = await start_game(setup)
    async with setup.db.transaction() as tx:
        seats = (dataclasses.replace(game.seats[0], away=True), game.seats[1])
        away = await repo.save_game(tx, dataclasses.replace(game, seats=seats))
    assert away.match is not None and away.match.turn == 0
    action = away.match.legal_actions()[0]
    assert isinstance(action, Play)
    refused = await setup.run(setup.app.playing.play(game.id, ALICE, 0, action))
    assert refused.alert and "компьютер" in reply_text(refused, Lang.RU)
    assert (await setup.game()).version == away.version


async def test_turns_are_not_timed_when_the_timer_is_off(setup: Setup) -> None:
    await setup.app.settings.change(CHAT, ChatSettings(TurnTimer.OFF))
    game = await start_game(setup)
    assert setup.app.timers.clock_of(game.id) is None
    await setup.time.advance(3600)
    assert (await setup.game()).seats[0].strikes == 0


async def test_sport_timing_gives_the_forced_opening_5_s(setup: Setup) -> None:
    await setup.app.settings.change(CHAT, ChatSettings(TurnTimer.SPORT))
    game = await start_game(setup)
    clock = setup.app.timers.clock_of(game.id)
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
    assert "вышло 2 раза из 3" in lines and "⏱ На ход: до 1 минуты" in lines
    assert table_timer_line(game, clock, START, ["Алиса", "🤖"], Lang.RU) == ""
    warned = TurnClock(1, 0, 0, START + 60, 60, START + 45, warned=True)
    assert "Осталось не больше 10 секунд" in hand_timer_lines(game, 0, warned, START + 50, Lang.RU)
    assert table_timer_line(game, warned, START + 50, ["Алиса", "🤖"], Lang.RU) == (
        "\n⏳ Алиса: на ход — не больше 10 секунд"
    )
    stale = TurnClock(1, 5, 0, START + 60, 60, START + 45, warned=True)
    assert table_timer_line(game, stale, START + 50, ["Алиса", "🤖"], Lang.RU) == ""
    assert hand_timer_lines(game, 1, clock, START, Lang.RU) == ""


async def test_settings_follow_a_group_that_became_a_supergroup(setup: Setup) -> None:
    await setup.app.settings.change(CHAT, ChatSettings(TurnTimer.S30))
    await setup.run(setup.app.chats.chat_migrated(CHAT.id, -1009999))
    assert setup.app.settings.of(-1009999).turn_timer is TurnTimer.S30
    assert setup.app.settings.of(CHAT.id) == ChatSettings()
    assert await repo.get_chat_settings(setup.db, -1009999) == ChatSettings(TurnTimer.S30)


# --- a game with turn times of its own (S-7) -------------------------------------------


@pytest.mark.parametrize("timer", [TurnTimer.S30, TurnTimer.S60, TurnTimer.S300, TurnTimer.SPORT])
def test_sport_is_timed_by_k12_whatever_limit_the_group_picked(timer: TurnTimer) -> None:
    match = Match.new(find_variant("sport").ruleset, 4, seed=3)
    assert turn_seconds(timer, match) == sport_seconds(match.round)
    assert turn_seconds(TurnTimer.OFF, match) is None  # switched off: no clock at all


def test_a_game_without_turn_times_of_its_own_keeps_the_groups_limit() -> None:
    for key in ("kozel", "classic", "sea_kozel", "osel"):
        match = Match.new(find_variant(key).ruleset, 2, seed=3)
        assert turn_seconds(TurnTimer.S60, match) == 60.0
        assert turn_seconds(TurnTimer.OFF, match) is None


async def start_sport(setup: Setup) -> GameRecord:
    """Алиса and three computers at Спортивное, up to Алиса's first turn."""
    lobby = setup.app.lobby
    await setup.app.people.remember(ALICE, can_message=True)
    assert await setup.run(lobby.open(CHAT, ALICE, find_variant("sport"))) is None
    for _ in range(3):
        await setup.run(lobby.add_computer(1, CHAT.id, ALICE, no_admin))
    await setup.run(lobby.start_game(1, CHAT.id, ALICE, no_admin))
    await eventually(lambda: person_to_move(setup))
    return await setup.game()


async def test_a_sport_turn_gets_k12s_time_by_default_and_none_when_switched_off(
    setup: Setup,
) -> None:
    game = await start_sport(setup)
    assert game.match is not None and game.ruleset.variant.value == "sport"
    clock = setup.app.timers.clock_of(game.id)
    limit = sport_seconds(game.match.round)
    assert limit in (5.0, 20.0, 60.0)
    assert clock is not None and clock.limit == limit  # the group's 60 s do not apply
    assert clock.deadline == pytest.approx(setup.time.now + limit)
    await setup.time.advance(limit + 0.1)  # the time runs out: a move is made for her
    await eventually(lambda: has_strikes(setup, 1))

    # Switched off: the turn in progress keeps its deadline, her next one has none.
    await setup.app.settings.change(CHAT, ChatSettings(TurnTimer.OFF))
    await eventually(lambda: person_to_move(setup))
    now = await setup.game()
    assert now.match is not None
    move = len(now.match.log)
    action = GreedyPlayer().choose(now.match.view(0))
    answer = await setup.run(setup.app.playing.play(game.id, ALICE, move, action))
    assert not answer.alert, answer

    async def her_turn_again() -> bool:
        later = await setup.game()
        return later.match is not None and (
            later.match.over or (later.match.turn == 0 and len(later.match.log) > move)
        )

    await eventually(her_turn_again)
    await settle()
    assert setup.app.timers.clock_of(game.id) is None


async def test_a_stop_right_after_a_turn_began_leaves_no_coroutine_unawaited(
    setup: Setup,
) -> None:
    """The stop cancels a turn's clock before its first step: nothing is reported as never
    awaited (Python's RuntimeWarning at the exit, after the bot's last log line)."""
    game = await start_game(setup)
    timers = setup.app.timers
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        timers.forget(game.id)
        timers._stop(game.id)  # a clock's task, then at once a fresh one the stop cancels
        timers.follow(game)
        await timers.close()
        for _ in range(3):  # the loop lets go of the cancelled task; then it is collected
            await asyncio.sleep(0)
        gc.collect()
    unawaited = [w for w in caught if "was never awaited" in str(w.message)]
    assert not unawaited, unawaited
