"""«🔔 Ваш ход» (bot.telegram.turn_notices): which turn a game is at, and when a notice is sent
and deleted, against a fake Bot API and a fake clock."""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import warnings
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiogram.methods import DeleteMessage, SendMessage

from bot.app.people import People, Person
from bot.telegram.outgoing import Limits, Outgoing
from bot.telegram.turn_notices import TurnNotices, turn_of
from domino.actions import Draw
from domino.match import Match
from domino.rules import KOZEL
from storage import repo
from storage import turn_notices as store
from storage.connect import open_database
from storage.db import Database
from storage.records import ChatRecord, GameRecord, GameStatus, SeatRecord
from tests.bot.app_setup import FakeTelegram, FakeTime, eventually, settle

GROUP = ChatRecord(-100555, "supergroup", "Дворик")
ALICE = Person(501, "Алиса", language_code="ru")
BOB = Person(502, "Bob", language_code="en")
GRACE = 4.0


def game_of(match: Match, *, version: int = 1, computer_seat: int | None = None) -> GameRecord:
    seats = tuple(
        SeatRecord(seat, None, "🤖") if seat == computer_seat else SeatRecord(seat, p.id, p.name)
        for seat, p in enumerate((ALICE, BOB))
    )
    return GameRecord(
        id=7,
        chat_id=GROUP.id,
        status=GameStatus.PLAYING,
        creator_id=ALICE.id,
        ruleset=KOZEL,
        seats_wanted=2,
        seats=seats,
        match=match,
        version=version,
    )


def match_with_a_draw() -> tuple[Match, Match]:
    """A match just before a seat draws, and the same match after the draw."""
    for seed in range(200):
        match = Match.new(KOZEL, 2, seed=seed)
        for _ in range(60):
            actions = match.legal_actions()
            if not actions:
                break
            if isinstance(actions[0], Draw):
                before = Match.from_json(match.to_json())
                match.apply(actions[0])
                return before, match
            match.apply(actions[0])
    raise AssertionError("no seed draws")


def test_a_turn_is_its_seat_and_round_and_drawing_keeps_it() -> None:
    before, after = match_with_a_draw()
    turn = turn_of(game_of(before))
    assert turn is not None and turn.seat == before.turn
    assert turn_of(game_of(after)) == turn  # drew: the same turn
    moved = Match.from_json(after.to_json())
    while moved.turn == before.turn and moved.round_no == before.round_no:
        moved.apply(moved.legal_actions()[0])
    assert turn_of(game_of(moved)) != turn


def test_nobody_is_notified_for_a_computer_or_a_game_not_in_play() -> None:
    match = Match.new(KOZEL, 2, seed=1)
    assert turn_of(game_of(match)) is not None
    assert turn_of(game_of(match, computer_seat=match.turn)) is None
    ended = dataclasses.replace(game_of(match), status=GameStatus.FINISHED)
    assert turn_of(ended) is None
    away = dataclasses.replace(
        game_of(match),
        seats=tuple(dataclasses.replace(s, away=True) for s in game_of(match).seats),
    )
    assert turn_of(away) is None


@dataclasses.dataclass
class Setup:
    db: Database
    api: FakeTelegram
    time: FakeTime
    notices: TurnNotices


@pytest.fixture
async def setup(tmp_path: Path) -> AsyncIterator[Setup]:
    db = await open_database(tmp_path / "bot.sqlite3")
    async with db.transaction() as tx:
        await repo.upsert_chat(tx, GROUP)
        await repo.upsert_user(tx, ALICE.record(), can_message=True)
        await repo.upsert_user(tx, BOB.record(), can_message=True)
    api = FakeTelegram()
    out = Outgoing(api, Limits.off())
    time = FakeTime()
    notices = TurnNotices(db, out, People(db), after=GRACE, sleep=time.sleep)
    yield Setup(db, api, time, notices)
    await notices.close()
    await out.close()
    await db.close()


async def stored(setup: Setup, count: int) -> bool:
    return len(await store.stored_notices(setup.db)) == count


def user_to_move(match: Match) -> int:
    return ALICE.id if match.turn == 0 else BOB.id


def sent(setup: Setup) -> list[SendMessage]:
    return [call for call in setup.api.calls if isinstance(call, SendMessage)]


def deleted(setup: Setup) -> list[DeleteMessage]:
    return [call for call in setup.api.calls if isinstance(call, DeleteMessage)]


async def test_a_turn_still_open_after_the_grace_gets_a_notice_deleted_when_it_ends(
    setup: Setup,
) -> None:
    before, after = match_with_a_draw()
    to_move = ALICE if before.turn == 0 else BOB
    setup.notices.follow(game_of(before, version=1))
    await setup.time.advance(GRACE - 1)
    assert sent(setup) == []
    await setup.time.advance(1)
    await eventually(lambda: stored(setup, 1))
    [notice] = sent(setup)
    assert notice.chat_id == to_move.id
    assert notice.text == ("🔔 Ваш ход — Дворик" if to_move is ALICE else "🔔 Your turn — Дворик")
    assert notice.reply_markup is None
    [kept] = await store.stored_notices(setup.db)
    assert (kept.chat_id, kept.game_id) == (to_move.id, 7)

    setup.notices.follow(game_of(after, version=2))  # drew: the same turn
    await setup.time.advance(GRACE)
    assert len(sent(setup)) == 1 and deleted(setup) == []

    moved = Match.from_json(after.to_json())
    while moved.turn == before.turn:
        moved.apply(moved.legal_actions()[0])
    setup.notices.follow(game_of(moved, version=3))
    await eventually(lambda: stored(setup, 0))
    [gone] = deleted(setup)
    assert (gone.chat_id, gone.message_id) == (to_move.id, kept.message_id)


async def test_a_turn_over_within_the_grace_gets_no_notice(setup: Setup) -> None:
    match = Match.new(KOZEL, 2, seed=3)
    setup.notices.follow(game_of(match, version=1))
    await setup.time.advance(GRACE / 2)
    match.apply(match.legal_actions()[0])
    setup.notices.follow(game_of(match, version=2))
    await setup.time.advance(GRACE / 2 + 0.1)
    assert sent(setup) == []  # the first turn ended within its grace
    await setup.time.advance(GRACE)
    await eventually(lambda: stored(setup, 1))
    assert [call.chat_id for call in sent(setup)] == [user_to_move(match)]


async def test_a_muted_person_gets_no_notice(setup: Setup) -> None:
    match = Match.new(KOZEL, 2, seed=3)
    person = ALICE if match.turn == 0 else BOB
    await setup.notices.set_wanted(person, False)
    setup.notices.follow(game_of(match))
    await setup.time.advance(GRACE * 2)
    await settle()
    assert sent(setup) == []
    assert not await store.notices_wanted(setup.db, person.id)


async def test_an_older_record_arriving_late_changes_nothing(setup: Setup) -> None:
    match = Match.new(KOZEL, 2, seed=3)
    older = Match.from_json(match.to_json())
    match.apply(match.legal_actions()[0])
    setup.notices.follow(game_of(match, version=2))
    setup.notices.follow(game_of(older, version=1))
    await setup.time.advance(GRACE)
    await eventually(lambda: stored(setup, 1))
    assert [call.chat_id for call in sent(setup)] == [user_to_move(match)]


async def test_the_start_deletes_the_notices_the_last_run_left(setup: Setup) -> None:
    await store.remember_notice(setup.db, store.StoredNotice(ALICE.id, 42, 7))
    await setup.notices.load()
    await eventually(lambda: stored(setup, 0))
    [gone] = deleted(setup)
    assert (gone.chat_id, gone.message_id) == (ALICE.id, 42)
    assert await store.stored_notices(setup.db) == []


async def test_a_turn_ending_while_the_bot_stops_leaves_its_notice_to_the_next_start(
    setup: Setup,
) -> None:
    match = Match.new(KOZEL, 2, seed=3)
    setup.notices.follow(game_of(match, version=1))
    await setup.time.advance(GRACE)
    await eventually(lambda: stored(setup, 1))
    await setup.notices.close()
    match.apply(match.legal_actions()[0])
    setup.notices.follow(game_of(match, version=2))
    await setup.time.advance(GRACE)
    await settle()
    assert deleted(setup) == [] and len(sent(setup)) == 1
    assert len(await store.stored_notices(setup.db)) == 1


async def test_a_stop_right_after_a_turn_began_leaves_no_coroutine_unawaited(
    setup: Setup,
) -> None:
    """The stop cancels a notice's task before its first step: nothing is reported as
    never awaited (Python's RuntimeWarning at the exit, after the bot's last line)."""
    match = Match.new(KOZEL, 2, seed=3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        setup.notices.follow(game_of(match, version=1))
        await setup.notices.close()  # at once: the task has not started
        for _ in range(3):  # the loop lets go of the cancelled task; then it is collected
            await asyncio.sleep(0)
        gc.collect()
    unawaited = [w for w in caught if "was never awaited" in str(w.message)]
    assert not unawaited, unawaited
    assert sent(setup) == []
