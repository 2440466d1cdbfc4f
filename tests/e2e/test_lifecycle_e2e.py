"""A group upgraded to a supergroup mid-game, and SIGTERM with updates in flight.

Each test runs the bot as `python -m bot` against tests/fakegram (see harness.py).
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.e2e.fault_tools import GOAT_MARK, Game, Player, assert_game_private
from tests.e2e.harness import (
    EXIT_SECONDS,
    BotProcess,
    is_hand_button,
    open_game,
    play_until,
    running_bot,
    settle,
)
from tests.fakegram import FakeTelegram
from tests.fakegram.junk import Junk


async def test_a_group_upgraded_mid_game_takes_its_game_along(
    fakegram: FakeTelegram, bot: BotProcess
) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    table = await open_game(fakegram, [alice, bob], computers=2)
    old = table.group
    players = [Player(fakegram, alice), Player(fakegram, bob)]
    await play_until(fakegram, players, lambda: sum(p.presses for p in players) >= 3)
    await settle(fakegram)
    upgraded_at = fakegram.transcript.position

    new = await fakegram.upgrade_to_supergroup(old)
    # The people play on at once: the bot may hear of the upgrade from a refused edit
    # before the service message reaches it.
    await play_until(
        fakegram, players, lambda: any(GOAT_MARK in m.content for m in new.bot_messages)
    )
    await settle(fakegram)

    after = fakegram.transcript.calls()[upgraded_at:]
    to_old = [c for c in after if c.params.get("chat_id") == old.id and c.ok]
    assert to_old == [], "the old group got something after the upgrade"
    tables = [m for m in new.bot_messages if m.photo is not None and "раунд" in m.content]
    assert tables, "no table in the supergroup"

    # The supergroup numbers its messages from 1: the old table's id names another message
    # there, which the bot must not edit (a round's end picture turned into the table).
    def a_table(text: str | None) -> bool:
        return " · раунд " in (text or "").split("\n")[0]

    for message in new.bot_messages:
        if message.history:
            first = message.history[0]
            assert a_table(first.caption or first.text) == a_table(message.content), (
                f"message {message.message_id} was edited into something else"
            )
    games = [tuple(row) for row in bot.stored("SELECT chat_id, status FROM games")]
    chats = {row[0] for row in bot.stored("SELECT id FROM chats WHERE id < 0")}
    owed = bot.stored("SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL")[0][0]
    assert games == [(new.id, "finished")] and chats == {new.id} and owed == 0
    # The hands' "table" button leads to the table in the supergroup.
    links = [b.url for p in players for m in p.chat.bot_messages for b in m.buttons if b.url]
    assert links and all(link.startswith(f"https://t.me/c/{str(new.id)[4:]}/") for link in links)
    moves = bot.stored_match()
    assert moves.over
    game = Game(table, players)
    game.table.group = new
    assert assert_game_private(fakegram, game, moves) > 0


@pytest.fixture
async def paced_bot(fakegram: FakeTelegram, tmp_path: Path) -> AsyncIterator[BotProcess]:
    """The bot with its pacing on, as in production: its queues hold work at SIGTERM."""
    async with running_bot(fakegram, tmp_path, PACING="true") as process:
        yield process


async def test_sigterm_lets_updates_in_flight_finish_and_exits_within_ten_seconds(
    fakegram: FakeTelegram, paced_bot: BotProcess
) -> None:
    bot = paced_bot
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    table = await open_game(fakegram, [alice, bob], computers=2)
    players = [Player(fakegram, alice), Player(fakegram, bob)]
    await play_until(fakegram, players, lambda: sum(p.presses for p in players) >= 2)
    mover = None
    while mover is None:
        # A hand may show its turn still while its paced edit is on the way: the turn
        # is taken as shown once the chats are quiet.
        await fakegram.wait_for(lambda: any(p.my_turn() for p in players), timeout=60)
        await settle(fakegram)
        mover = next((p for p in players if p.my_turn()), None)
    hand = mover.hand()
    assert hand is not None
    data = mover.choice(hand)
    assert data is not None and is_hand_button(data)
    moves_before = len(bot.stored_match().log)
    shown_before = hand.content
    assert table.table is not None
    table_before = len(table.table.history)

    # Updates in flight: the press, and two commands from each of 30 people, all of them
    # taken by the bot just before SIGTERM.
    people = [fakegram.add_user(f"Гость{k}", username=f"g{k}", started=True) for k in range(30)]
    junk = Junk(fakegram)
    press = junk.press(mover.user, data, message=hand)
    for person in people:
        junk.message(person.private_chat, "/rules", person)
        junk.message(person.private_chat, "/help", person)
    await fakegram.wait_for(lambda: fakegram.pending_updates == 0, timeout=60)
    in_flight = 1 + 2 * len(people)
    replied = sum(len(p.private_chat.bot_messages) for p in people)
    began = time.monotonic()
    code = await bot.stop(timeout=EXIT_SECONDS)
    exited = time.monotonic() - began
    log = bot.log()
    # The bot bounds its work after SIGTERM (6 s, each step logged), which keeps it within
    # a supervisor's 10 s while the machine has a core to spare. With more runnable
    # processes than cores the wall clock measures the machine, not the bot. What the
    # budget cut short is left as the log says (a restart re-checks every message); when
    # nothing was cut, every command was answered.
    overloaded = os.getloadavg()[0] > (os.cpu_count() or 1)
    in_budget = "not done in time" not in log
    print(
        f"\nsigterm: exit code {code} in {exited:.2f}s; {in_flight} updates taken, "
        f"{2 * len(people) - replied} replies still owed at SIGTERM; "
        f"load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; "
        f"{'all done' if in_budget else 'some work left to the restart'} within the budget"
    )
    assert code == 0
    assert exited < 10 or overloaded, log[-2000:]

    answer = await asyncio.wait_for(press, timeout=1)
    assert answer.answered and not answer.show_alert
    if in_budget:
        for person in people:  # every command was answered before the bot went
            assert len(person.private_chat.bot_messages) == 2, person.first_name
    stored = bot.stored_match()
    assert len(stored.log) > moves_before  # the press was applied and kept ...
    shown = mover.hand()
    assert shown is not None and shown.content != shown_before  # ... and shown
    if in_budget:  # the group's table too (paced, it may be left to the restart)
        assert len(table.table.history) > table_before
    assert "stopping: updates done" in log and log.rstrip().endswith("stopped"), log[-2000:]
