"""Use cases return what must happen after their commit as a value (`Done`), and one
dispatcher carries it out, in one order (bot/app/effects.py, bot/app/alarms.py,
bot/app/reactor.py)."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.app.effects import ClosedHand, EffectDispatcher, Effects, PendingChoice
from bot.app.inbox import ComputersDue, Event, Inbox, VoteExpired
from domino.match import Match
from domino.rules import KOZEL
from domino.tiles import Tile
from i18n import Lang
from storage import repo
from storage.connect import open_database
from storage.records import GameRecord, GameStatus, SeatRecord
from storage.votes import Vote, VoteState
from tests.bot.app_setup import (
    ALICE,
    CHAT,
    FakeTime,
    Setup,
    eventually,
    make,
    no_admin,
    seed_where_seat_0_opens,
)


class Recorder:
    """Every part the dispatcher drives, writing down what it was asked, in order."""

    def __init__(self) -> None:
        self.asked: list[tuple[object, ...]] = []

    # the front end
    def show(self, game: GameRecord, *, group: bool = True) -> None:
        self.asked.append(("show", game.id, group))

    def show_vote(self, vote_id: int) -> None:
        self.asked.append(("vote", vote_id))

    def show_hand(self, game_id: int, seat: int) -> None:
        self.asked.append(("hand", game_id, seat))

    def redraw_hand(self, game_id: int, seat: int) -> None:
        self.asked.append(("redraw hand", game_id, seat))

    def reload(self, game_id: int) -> None:
        self.asked.append(("reload", game_id))

    def announce(self) -> None:
        self.asked.append(("announce",))

    def topic_reopened(self, chat_id: int, thread_id: int | None) -> None:
        self.asked.append(("reopened", chat_id, thread_id))

    async def close_hand(self, closed: ClosedHand) -> None:
        self.asked.append(("close hand", closed.game.id, closed.seat, closed.key))

    async def show_choice(self, pending: PendingChoice) -> None:
        self.asked.append(("end choice", pending.game.id, pending.seat, str(pending.choice)))

    # the turn timers
    def follow(self, game: GameRecord) -> None:
        self.asked.append(("follow", game.id))

    def forget(self, game_id: int) -> None:
        self.asked.append(("forget", game_id))

    # the alarms
    def set(self, key: object, delay: float, event: ComputersDue | VoteExpired) -> None:
        self.asked.append(("alarm", key, delay, event))

    # the group settings
    def chat_moved(self, old_id: int, new_id: int) -> None:
        self.asked.append(("chat moved", old_id, new_id))


def playing(game_id: int, *, computer_to_move: bool) -> GameRecord:
    match = Match.new(KOZEL, 2, seed=seed_where_seat_0_opens())  # seat 0 opens
    first = SeatRecord(0, None if computer_to_move else ALICE.id, "Алиса")
    return GameRecord(
        game_id,
        CHAT.id,
        GameStatus.PLAYING,
        ALICE.id,
        KOZEL,
        2,
        seats=(first, SeatRecord(1, None, "🤖")),
        match=match,
    )


async def test_the_dispatcher_closes_hands_first_and_announces_last() -> None:
    parts = Recorder()
    dispatch = EffectDispatcher((parts,), parts, parts, parts, computer_delay=1.5)
    person, computer = playing(1, computer_to_move=False), playing(2, computer_to_move=True)
    vote = Vote(
        id=9,
        game_id=1,
        chat_id=CHAT.id,
        started_by=ALICE.id,
        opened_at=datetime.now(UTC),
        expires_at=datetime.now(UTC) + timedelta(minutes=5),
        state=VoteState.OPEN,
    )
    effects = Effects(announcements=True, votes=(9,), vote_clocks=(vote,)) + Effects(
        games=(person, computer),
        hands=((1, 0),),
        closed_hands=(ClosedHand(person, 0, ALICE.id, "hand.you_left", Lang.RU),),
        choice=PendingChoice(person, 0, Tile.parse("2-5")),
        reloaded=(3,),
        moved_chat=(-1, -2),
        reopened_topics=((-2, 7),),
    )
    await dispatch.carry_out(effects)
    kinds = [asked[0] for asked in parts.asked]
    assert kinds == [
        "close hand",
        "chat moved",
        "reload",
        "forget",  # the clocks take the next record of game 3 as it comes
        "reopened",  # before the games: their messages may go to the topic again
        "show",
        "follow",
        "show",
        "follow",
        "alarm",  # the computer to move in game 2, after its pause
        "hand",
        "end choice",
        "vote",
        "alarm",  # the vote's expiry
        "announce",
    ]
    assert ("reopened", -2, 7) in parts.asked
    computer_alarm = parts.asked[9]
    assert computer_alarm[1:] == (("computers", 2), 1.5, ComputersDue(2))
    vote_alarm = parts.asked[13]
    assert vote_alarm[1] == ("vote", 9) and vote_alarm[3] == VoteExpired(9)
    assert 299 < float(vote_alarm[2]) <= 300  # type: ignore[arg-type]


async def test_nothing_is_carried_out_for_no_effects() -> None:
    parts = Recorder()
    await EffectDispatcher((parts,), parts, parts, parts, computer_delay=0).carry_out(Effects())
    assert parts.asked == []


@pytest.fixture
async def setup(tmp_path: Path) -> AsyncIterator[Setup]:
    db = await open_database(tmp_path / "effects.sqlite3")
    made = make(db, FakeTime(), seed_where_seat_0_opens())
    await made.app.resume()
    try:
        yield made
    finally:
        await made.close()
        await db.close()


async def test_a_use_case_changes_the_database_and_returns_its_effects_untold(
    setup: Setup,
) -> None:
    """Until the effects are carried out, nothing is shown: the use case only committed."""
    await setup.app.people.remember(ALICE, can_message=True)
    done = await setup.app.lobby.open(CHAT, ALICE)
    assert done.value is None
    (lobby,) = done.effects.games
    assert lobby.status is GameStatus.LOBBY and lobby.seats[0].user_id == ALICE.id
    assert done.effects == Effects(games=(lobby,))
    assert await setup.game(lobby.id) == lobby
    await setup.app.publisher.idle()
    assert setup.telegram.calls == []  # nothing sent before the dispatcher says so

    await setup.app.dispatch.carry_out(done.effects)
    await setup.app.publisher.idle()
    await setup.out.drain()
    assert [getattr(call, "chat_id", None) for call in setup.telegram.calls] == [
        CHAT.id
    ]  # the lobby message


async def test_a_refused_press_changes_nothing_and_owes_nothing(setup: Setup) -> None:
    await setup.app.people.remember(ALICE, can_message=True)
    await setup.run(setup.app.lobby.open(CHAT, ALICE))
    before = await setup.game()
    done = await setup.app.lobby.start_game(before.id, CHAT.id - 1, ALICE, no_admin)
    assert done.value.alert and done.effects == Effects()
    assert await setup.game() == before


async def test_the_reactor_lets_the_computers_move_when_their_alarm_rings(
    setup: Setup,
) -> None:
    """A started game whose first move is a computer's: the dispatcher sets the alarm,
    the alarm emits `ComputersDue`, the reactor has the computer move."""
    await setup.app.people.remember(ALICE, can_message=True)
    async with setup.db.transaction() as tx:
        await repo.upsert_chat(tx, CHAT)
        game = await repo.create_game(
            tx,
            chat_id=CHAT.id,
            creator_id=ALICE.id,
            ruleset=KOZEL,
            seats_wanted=2,
            seats=[SeatRecord(0, None, "🤖 1"), SeatRecord(1, None, "🤖 2")],
            join_token="t0ken",
        )
        started = dataclasses.replace(
            game,
            status=GameStatus.PLAYING,
            match=Match.new(KOZEL, 2, seed=seed_where_seat_0_opens()),
        )
        started = await repo.save_game(tx, started)
    emitted: list[Event] = []
    inbox: Inbox = setup.app.inbox
    emit = inbox.emit

    def noting(event: Event) -> None:
        emitted.append(event)
        emit(event)

    inbox.emit = noting  # type: ignore[method-assign]
    await setup.app.dispatch.carry_out(Effects(games=(started,)))

    async def moved() -> bool:
        game = await setup.game(started.id)
        return game.match is not None and len(game.match.log) > 0

    await eventually(moved)
    assert ComputersDue(started.id) in emitted


async def test_committed_announcements_are_asked_for_even_when_a_step_fails() -> None:
    """A hand Telegram would not close fails the dispatch, and still the announcer is told
    of the announcements the commit owes (else nobody asks until the next one)."""

    class Failing(Recorder):
        async def close_hand(self, closed: ClosedHand) -> None:
            raise ConnectionError("Telegram went away")

    parts = Failing()
    dispatch = EffectDispatcher((parts,), parts, parts, parts, computer_delay=1.5)
    person = playing(1, computer_to_move=False)
    effects = Effects(
        announcements=True,
        games=(person,),
        closed_hands=(ClosedHand(person, 0, ALICE.id, "hand.you_left", Lang.RU),),
    )
    with pytest.raises(ConnectionError):
        await dispatch.carry_out(effects)
    assert parts.asked == [("announce",)]
