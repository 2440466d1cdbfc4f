"""Picking up the running games after a restart while updates already come
(`Application.resume(after=...)`, what polling does): a game changed before the pickup
reaches it, or while the pickup holds it as it was read, is followed as it is now."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from domino.actions import Play
from storage import votes as vote_store
from storage.connect import open_database
from storage.db import Database
from storage.records import GameRecord, GameStatus
from storage.votes import Vote
from tests.bot.app_setup import ALICE, FakeTime, make, seed_where_seat_0_opens, settle
from tests.bot.test_play import last_hand, moves_of
from tests.bot.test_timers import start_game


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_database(tmp_path / "pickup.sqlite3")
    try:
        yield database
    finally:
        await database.close()


async def stopped_mid_turn(db: Database) -> GameRecord:
    """Алиса against a computer, her turn timed; then the bot stops."""
    first = make(db, FakeTime(), seed_where_seat_0_opens())
    await first.app.resume()
    game = await start_game(first)
    assert first.app.timers.clock_of(game.id) is not None
    await first.close()
    return game


async def test_nothing_is_picked_up_before_the_first_poll_and_a_press_meanwhile_counts(
    db: Database,
) -> None:
    game = await stopped_mid_turn(db)
    again = make(db, FakeTime(), seed_where_seat_0_opens())
    polled = asyncio.Event()
    assert await again.app.resume(after=polled.wait()) == 1
    await settle()
    assert again.app.timers.clock_of(game.id) is None  # not picked up yet
    assert not again.telegram.calls  # no message re-checked either

    # Алиса's press comes in the first poll's answer, before the pickup reads her game.
    assert game.match is not None
    play = next(a for a in game.match.legal_actions() if isinstance(a, Play))
    answer = await again.run(again.app.playing.play(game.id, ALICE, 0, play))
    assert not answer.alert
    polled.set()
    await again.app.until_picked_up()
    await settle()
    now = await again.game()
    assert now.match is not None and len(now.match.log) > len(game.match.log)
    if now.match.turn == 0:  # her turn again (the computer moved): timed from its start
        clock = again.app.timers.clock_of(game.id)
        assert clock is not None and clock.move == len(now.match.log)
    await again.close()


async def test_a_game_ended_while_the_pickup_holds_it_as_read_is_not_timed_again(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await stopped_mid_turn(db)
    again = make(db, FakeTime(), seed_where_seat_0_opens())
    read, go = asyncio.Event(), asyncio.Event()
    open_votes = vote_store.open_votes

    async def held(reader: Database) -> list[Vote]:
        votes = await open_votes(reader)  # the pickup's last read: the games are read
        read.set()
        await go.wait()  # and not carried out until the test says so
        return votes

    monkeypatch.setattr(vote_store, "open_votes", held)
    polled = asyncio.Event()
    await again.app.resume(after=polled.wait())
    polled.set()
    await read.wait()
    # Алиса gives up meanwhile: the game ends, its clock stops.
    game_id, first, _ = await again.app.endings.surrender_allowed(None, ALICE)
    await again.run(again.app.endings.surrender(game_id, ALICE.id, ALICE, first))
    assert (await again.game()).status is GameStatus.FINISHED
    go.set()
    await again.app.until_picked_up()
    await settle()
    # The record read before the end (her turn, running) was left out, not followed.
    assert again.app.timers.clock_of(game.id) is None
    assert not again.app.dispatch.newer_shown(game)  # the pickup is over: nothing kept
    await again.close()


async def test_a_game_the_database_holds_older_than_shown_goes_on_as_stored(
    db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    """A server that acknowledged Алиса's move and lost it in a crash (no wait for the
    disk, a failover to a replica behind): the pickup after the outage finds the game
    older than what was shown. It is shown as stored, its clock timed for the turn it
    stands at, and a warning says what happened; her move is hers to make again."""
    setup = make(db, FakeTime(), seed_where_seat_0_opens())
    await setup.app.resume()
    try:
        before = await start_game(setup)
        assert before.match is not None
        play = next(a for a in before.match.legal_actions() if isinstance(a, Play))
        pressed = setup.app.playing.play(before.id, ALICE, 0, play)
        assert not (await setup.run(pressed)).alert
        await settle()
        await setup.app.publisher.idle()
        assert moves_of(last_hand(setup)) != {0}  # her hand shows the move made
        # The crash takes the move with it: the row as it was before.
        await db.execute(
            "UPDATE games SET match = ?, version = ? WHERE id = ?",
            (before.match.to_json(), before.version, before.id),
        )
        with caplog.at_level(logging.WARNING, logger="bot.server.application"):
            assert await setup.app.pick_up() == 1
        await settle()
        await setup.app.publisher.idle()
        assert any("older than the" in r.getMessage() for r in caplog.records)
        assert moves_of(last_hand(setup)) == {0}  # her turn again, drawn as stored
        clock = setup.app.timers.clock_of(before.id)
        assert clock is not None and clock.move == 0 and clock.seat == 0
    finally:
        await setup.close()
