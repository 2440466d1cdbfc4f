"""What a move costs the database: one transaction, in one hop to the database's thread,
of at most four statements, for a person's press and for a computer's move alike (which
reads the game to think it over first, in one more hop), through the whole application."""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app.effects import Done
from bot.app.reply import Reply
from storage import db as storage_db
from storage.connect import open_database
from storage.records import GameRecord, GameStatus
from tests.bot.app_setup import FakeTime, Setup, make, settle
from tests.bot.test_play import greedy_press, quiet, start_against_a_computer

MOST_STATEMENTS = 4  # the bound: load the game and its seats, save, one more
PRESSES = 12


@pytest.fixture
async def against_a_computer(tmp_path: Path) -> AsyncIterator[Setup]:
    database = await open_database(tmp_path / "cost.sqlite3")
    setup = make(database, FakeTime(), seed=3)
    await setup.app.resume()
    try:
        await start_against_a_computer(setup)
        await settle()
        yield setup
    finally:
        await setup.close()
        await database.close()


async def alices_turn(setup: Setup) -> GameRecord | None:
    """The game once all is quiet at Алиса's turn; None once it is over."""
    await quiet(setup)
    game = await setup.game()
    return game if game.status is GameStatus.PLAYING else None


async def test_a_press_is_one_transaction_in_one_hop(against_a_computer: Setup) -> None:
    setup = against_a_computer
    costs: list[Counter[str]] = []
    for _ in range(PRESSES):
        game = await alices_turn(setup)
        if game is None:
            break
        before = storage_db.WORK.copy()
        done: Done[Reply] = await setup.app.playing.play(*greedy_press(game))
        costs.append(storage_db.WORK - before)
        assert not done.value.alert, done.value
        await setup.app.dispatch.carry_out(done.effects)
    assert len(costs) >= PRESSES // 2
    for cost in costs:
        assert cost["transactions"] == 1 and cost["hops"] == 1, costs
        assert cost["statements"] <= MOST_STATEMENTS, costs


async def test_a_computers_move_is_one_transaction_in_one_hop(against_a_computer: Setup) -> None:
    setup = against_a_computer
    measured = 0
    for _ in range(PRESSES):
        game = await alices_turn(setup)
        if game is None:
            break
        done = await setup.app.playing.play(*greedy_press(game))
        moved = await setup.game()
        assert moved.match is not None
        if moved.status is not GameStatus.PLAYING or moved.match.turn == 0:
            await setup.app.dispatch.carry_out(done.effects)
            continue  # Алиса moves again (a round's end, or the computer knocked)
        before = storage_db.WORK.copy()
        computed = await setup.app.playing.computers(moved.id)
        cost = storage_db.WORK - before
        assert computed is not None
        # The game read to think over (one hop, no transaction), then the move.
        assert cost["transactions"] == 1 and cost["hops"] == 2, cost
        assert cost["statements"] <= MOST_STATEMENTS + 2, cost
        measured += 1
        await setup.app.dispatch.carry_out(done.effects)
        await setup.app.dispatch.carry_out(computed.effects)
    assert measured >= 3
