"""Votes to cancel a match: who votes, majority, failure, expiry, the group message that
shows a vote (bot/app/votes.py, bot/telegram/vote_board.py), and the stored votes
(storage/votes.py, migration 005) against a fresh database file."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from aiogram.filters.callback_data import CallbackData
from aiogram.methods import EditMessageText, SendMessage, TelegramMethod
from aiogram.types import Chat, Message

from bot.app.group_settings import GroupSettings
from bot.app.people import People
from bot.app.votes import VOTE_TIME, Tally, decide, electorate, tally
from bot.telegram.callbacks import SurrenderCb, VoteCb
from bot.telegram.outgoing import Limits, Outgoing
from bot.telegram.vote_board import VoteBoard, vote_keyboard, vote_text
from domino.rules import KOZEL
from i18n import Lang
from storage import repo
from storage import votes as store
from storage.connect import open_database
from storage.db import Database, Transaction
from storage.records import ChatRecord, GameRecord, GameStatus, SeatRecord, UserRecord
from storage.votes import Vote, VoteBusy, VoteState

OPENED = datetime(2026, 1, 1, 18, 0, tzinfo=UTC)
CHAT = -100500


def game_with(*seats: SeatRecord) -> GameRecord:
    return GameRecord(
        id=7,
        chat_id=CHAT,
        status=GameStatus.PLAYING,
        creator_id=1,
        ruleset=KOZEL,
        seats_wanted=len(seats),
        seats=seats,
    )


def vote(*ballots: tuple[int, bool]) -> Vote:
    opened = Vote(1, 7, CHAT, 2, OPENED, OPENED + VOTE_TIME)
    for user, in_favour in ballots:
        opened = opened.with_ballot(user, in_favour)
    return opened


THREE_PEOPLE = game_with(
    SeatRecord(0, 1, "Алиса"),
    SeatRecord(1, 2, "Боб"),
    SeatRecord(2, 3, "Вера"),
    SeatRecord(3, None, "🤖 Компьютер 1"),
)


def test_the_people_vote_not_computers_nor_those_who_left() -> None:
    game = game_with(
        SeatRecord(0, 1, "Алиса"),
        SeatRecord(1, 2, "Боб", away=True),
        SeatRecord(2, 3, "Вера", left=True),
        SeatRecord(3, None, "🤖 Компьютер 1"),
    )
    assert electorate(game) == frozenset({1, 2})


@pytest.mark.parametrize(
    ("voters", "needed"), [(1, 1), (2, 2), (3, 2), (4, 3), (5, 3)], ids=lambda v: str(v)
)
def test_more_than_half_is_needed(voters: int, needed: int) -> None:
    assert Tally(0, 0, voters).needed == needed


@pytest.mark.parametrize(
    ("ballots", "state"),
    [
        ((), VoteState.OPEN),
        (((2, True),), VoteState.OPEN),  # 1 of 3: not yet
        (((2, True), (1, True)), VoteState.PASSED),  # 2 of 3
        (((2, True), (1, False)), VoteState.OPEN),  # Вера may still make it 2
        (((2, True), (1, False), (3, False)), VoteState.FAILED),
        (((1, False), (3, False)), VoteState.FAILED),  # 2 against: 2 for is out of reach
        (((2, True), (9, True)), VoteState.OPEN),  # 9 is not at the table
    ],
)
def test_a_vote_is_decided_as_soon_as_its_outcome_is_certain(
    ballots: tuple[tuple[int, bool], ...], state: VoteState
) -> None:
    assert decide(vote(*ballots), electorate(THREE_PEOPLE), OPENED) is state


def test_a_changed_ballot_replaces_the_old_one() -> None:
    changed = vote((2, True), (1, False)).with_ballot(1, True)
    assert changed.ballots == ((1, True), (2, True))
    assert tally(changed, electorate(THREE_PEOPLE)) == Tally(2, 0, 3)
    assert decide(changed, electorate(THREE_PEOPLE), OPENED) is VoteState.PASSED


def test_an_undecided_vote_expires_after_five_minutes() -> None:
    voters = electorate(THREE_PEOPLE)
    pending = vote((2, True))
    assert decide(pending, voters, OPENED + VOTE_TIME - timedelta(seconds=1)) is VoteState.OPEN
    assert decide(pending, voters, OPENED + VOTE_TIME) is VoteState.EXPIRED
    # A majority reached in time is not undone by the clock.
    assert decide(vote((2, True), (3, True)), voters, OPENED + VOTE_TIME) is VoteState.PASSED


def test_a_decided_vote_stays_decided() -> None:
    closed = Vote(1, 7, CHAT, 2, OPENED, OPENED + VOTE_TIME, state=VoteState.CLOSED)
    assert decide(closed.with_ballot(1, True).with_ballot(3, True), frozenset({1, 3}), OPENED) is (
        VoteState.CLOSED
    )


def test_ballots_of_people_who_left_no_longer_count() -> None:
    left = game_with(
        SeatRecord(0, 1, "Алиса"), SeatRecord(1, 2, "Боб"), SeatRecord(2, 3, "Вера", left=True)
    )
    # Вера voted against and left: of the two left, Боб's ballot is not yet a majority.
    assert tally(vote((2, True), (3, False)), electorate(left)) == Tally(1, 0, 2)
    assert decide(vote((2, True), (3, False), (1, True)), electorate(left), OPENED) is (
        VoteState.PASSED
    )


def test_the_group_sees_who_voted_and_the_buttons_only_while_open() -> None:
    open_vote = vote((2, True), (3, False))
    text = vote_text(THREE_PEOPLE, open_vote, Lang.RU)
    assert "Боб предлагает отменить игру" in text
    assert "За: 1 · против: 1" in text and "2 из 3" in text
    assert "✅ Боб" in text and "❌ Вера" in text
    keyboard = vote_keyboard(THREE_PEOPLE, open_vote, Lang.RU)
    assert keyboard is not None
    labels = [b.text for b in keyboard.inline_keyboard[0]]
    assert labels == ["✅ За (1)", "❌ Против (1)"]
    datas = [b.callback_data for b in keyboard.inline_keyboard[0]]
    assert [VoteCb.unpack(d or "") for d in datas] == [
        VoteCb(vote=1, in_favour=True),
        VoteCb(vote=1, in_favour=False),
    ]
    expired = Vote(1, 7, CHAT, 2, OPENED, OPENED + VOTE_TIME, state=VoteState.EXPIRED)
    assert vote_keyboard(THREE_PEOPLE, expired, Lang.EN) is None
    assert "ran out of time" in vote_text(THREE_PEOPLE, expired, Lang.EN)


@pytest.mark.parametrize(
    "data",
    [
        VoteCb(vote=2**40, in_favour=False),
        SurrenderCb(game=2**40, first=4, user=2**52, confirm=True),
    ],
)
def test_payloads_round_trip_within_telegram_limits(data: CallbackData) -> None:
    packed = data.pack()
    assert len(packed.encode()) <= 64
    assert type(data).unpack(packed) == data


# --- storage ------------------------------------------------------------------------------


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_database(tmp_path / "votes.sqlite3")
    async with database.transaction() as tx:
        await repo.upsert_chat(tx, ChatRecord(CHAT, "supergroup", "Двор"))
        for user_id, name in ((1, "Алиса"), (2, "Боб")):
            await repo.upsert_user(tx, UserRecord(user_id, name))
        await repo.create_game(
            tx, chat_id=CHAT, creator_id=1, ruleset=KOZEL, seats_wanted=2, seats=()
        )
    yield database
    await database.close()


async def open_vote(tx: Transaction, game_id: int, *, started_by: int) -> Vote:
    """A vote opened at `OPENED` in the game of `CHAT`."""
    return await store.open_vote(
        tx,
        game_id=game_id,
        chat_id=CHAT,
        started_by=started_by,
        opened_at=OPENED,
        expires_at=OPENED + VOTE_TIME,
    )


async def test_votes_are_stored_one_open_per_game_and_ballots_change(db: Database) -> None:
    async with db.transaction() as tx:
        game = await repo.active_game_in_chat(tx, CHAT)
        assert game is not None
        opened = await open_vote(tx, game.id, started_by=2)
        await store.cast_ballot(tx, opened.id, 2, True, OPENED)
        await store.cast_ballot(tx, opened.id, 1, True, OPENED)
        await store.cast_ballot(tx, opened.id, 1, False, OPENED)  # changed her mind
    with pytest.raises(VoteBusy):
        async with db.transaction() as tx:
            await open_vote(tx, game.id, started_by=1)
    loaded = await store.load_vote(db, opened.id)
    assert loaded == Vote(
        opened.id, game.id, CHAT, 2, OPENED, OPENED + VOTE_TIME, ballots=((1, False), (2, True))
    )
    assert await store.open_votes(db) == [loaded]
    assert await store.open_vote_of_game(db, game.id) == loaded

    await store.set_vote_message(db, opened.id, 42, "digest")
    async with db.transaction() as tx:
        assert await store.close_votes_of_game(tx, game.id, OPENED) == [opened.id]
        assert not await store.close_vote(tx, opened.id, VoteState.EXPIRED, OPENED)
    closed = await store.load_vote(db, opened.id)
    assert closed is not None
    assert (closed.state, closed.message_id, closed.digest) == (VoteState.CLOSED, 42, "digest")
    assert await store.open_votes(db) == []
    # The game may hold a new vote now that the old one is closed.
    async with db.transaction() as tx:
        again = await open_vote(tx, game.id, started_by=1)
    assert again.id != opened.id


# --- the group message --------------------------------------------------------------------


class FakeApi:
    """Answers like the Bot API and records each call."""

    def __init__(self) -> None:
        self.calls: list[TelegramMethod[Any]] = []
        self._ids = itertools.count(100)

    async def __call__(self, method: TelegramMethod[Any]) -> Any:
        self.calls.append(method)
        message_id = getattr(method, "message_id", None) or next(self._ids)
        chat = Chat(id=CHAT, type="supergroup")
        return Message(message_id=message_id, date=datetime.now(UTC), chat=chat)


async def test_the_board_sends_a_votes_message_once_then_edits_it(db: Database) -> None:
    api = FakeApi()
    out = Outgoing(api, Limits.off())
    board = VoteBoard(db, out, GroupSettings(db, People(db)))

    async def shown() -> list[TelegramMethod[Any]]:
        await board.idle()
        await out.drain()
        return api.calls

    async with db.transaction() as tx:
        game = await repo.active_game_in_chat(tx, CHAT)
        assert game is not None
        await repo.save_game(tx, game.with_seat(1, "Алиса").with_seat(2, "Боб"))
        opened = await open_vote(tx, game.id, started_by=2)
        await store.cast_ballot(tx, opened.id, 2, True, OPENED)
    board.show(opened.id)
    board.show(opened.id)
    (sent,) = await shown()
    assert isinstance(sent, SendMessage) and sent.chat_id == CHAT
    assert "Боб предлагает отменить игру" in sent.text and "За: 1 · против: 0" in sent.text

    board.show(opened.id)  # nothing changed: the digest matches, nothing is sent
    assert len(await shown()) == 1

    async with db.transaction() as tx:
        await store.cast_ballot(tx, opened.id, 1, False, OPENED)
    board.show(opened.id)
    (edited,) = (await shown())[1:]
    assert isinstance(edited, EditMessageText) and edited.message_id == 100
    assert "За: 1 · против: 1" in (edited.text or "")
    stored = await store.load_vote(db, opened.id)
    assert stored is not None and stored.message_id == 100
    await out.close()
