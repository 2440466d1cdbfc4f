"""The database held by another process, and a full disk, end to end.

The bot runs as `python -m bot` against tests/fakegram (see harness.py). While the
database refuses changes, every press and command gets a polite answer ("one moment,
nothing changed, try again"), nothing is stored half-way, and once the database takes
changes again the same press plays. The turn timer is stretched (TURN_TIME_SCALE=10:
ten minutes a turn) because these tests are about presses, not timeouts.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, closing
from pathlib import Path

import pytest

from domino.match import Match
from i18n import Lang, t
from tests.e2e.fault_tools import check_stored_games
from tests.e2e.harness import BotProcess, Person, open_game, running_bot
from tests.fakegram import CallbackAnswer, FakeTelegram
from tests.fakegram.world import FakeChat, StoredMessage
from tests.storage.disk import fill, small_disk, unfill, write_lock

pytestmark = pytest.mark.sqlite_only  # SQLite's file, pages and locks

PRESS_AGAIN = t("alert.db_unavailable", Lang.RU)
COMMAND_AGAIN = t("reply.db_unavailable", Lang.RU)
# storage.db.BUSY_WAIT is 5 s: a press waits that long for the lock, then is answered.
PRESS_TIMEOUT = 60.0


@asynccontextmanager
async def bot_on(fake: FakeTelegram, workdir: Path, database: Path) -> AsyncIterator[BotProcess]:
    """The bot (no pacing, long turns) on `database`; at the end SIGTERM, exit 0 within
    10 s and no error in its log."""
    async with running_bot(
        fake, workdir, PACING="false", TURN_TIME_SCALE="10", DATABASE_PATH=str(database)
    ) as process:
        process.database = database  # where the harness's readers look
        yield process


async def two_at_a_table(fake: FakeTelegram) -> tuple[FakeChat, list[Person], Person]:
    """Alice and Bob in a started game; the person whose turn it is."""
    alice = fake.add_user("Алиса", username="alice")
    bob = fake.add_user("Боб", username="bob")
    table = await open_game(fake, [alice, bob])
    await fake.wait_for(lambda: any(p.my_turn() for p in table.people), timeout=60)
    await fake.idle()
    mover = next(p for p in table.people if p.my_turn())
    return table.group, table.people, mover


def the_press(person: Person) -> tuple[StoredMessage, str]:
    hand = person.hand()
    assert hand is not None
    data = person.choice(hand)
    assert data is not None
    return hand, data


async def press(person: Person, hand: StoredMessage, data: str) -> tuple[CallbackAnswer, float]:
    began = time.monotonic()
    answer = await person.user.press(hand, data=data, timeout=PRESS_TIMEOUT)
    return answer, time.monotonic() - began


def asked_to_press_again(answer: CallbackAnswer) -> bool:
    return answer.answered and answer.show_alert and answer.text == PRESS_AGAIN


def moved(answer: CallbackAnswer) -> bool:
    return answer.answered and not answer.show_alert


def stored(bot: BotProcess) -> Match:
    return bot.stored_match()


async def test_presses_while_another_process_holds_the_database_are_answered_and_lose_nothing(
    fakegram: FakeTelegram, tmp_path: Path
) -> None:
    async with bot_on(fakegram, tmp_path, tmp_path / "domino.sqlite3") as bot:
        group, people, mover = await two_at_a_table(fakegram)
        other = next(p for p in people if p is not mover)
        hand, data = the_press(mover)
        before = stored(bot)

        with write_lock(bot.database):  # e.g. an admin's long write in the sqlite3 shell
            first, waited = await press(mover, hand, data)
            again, fast = await press(mover, hand, data)
            command = await other.user.command(group, "domino")
            reply = await group.wait_for_message(
                lambda m: m.reply_to is command, timeout=PRESS_TIMEOUT
            )
            assert stored(bot) == before  # nothing applied, nothing half-way
        print(
            f"\nlocked database: first press answered in {waited:.1f} s, the next in {fast:.1f} s"
        )
        assert asked_to_press_again(first), first
        assert asked_to_press_again(again), again
        assert fast < waited  # once the lock is known, nobody waits for it again
        assert reply.content == COMMAND_AGAIN

        # The lock is gone: the same press plays, exactly once.
        answer, _ = await press(mover, hand, data)
        assert moved(answer), answer
        await fakegram.wait_for(lambda: len(stored(bot).log) > len(before.log), timeout=60)
        after = stored(bot)
        assert after.log[: len(before.log)] == before.log
        assert {entry.seat for entry in after.log[len(before.log) :]} == {before.turn}
        await fakegram.idle()
        games = check_stored_games(bot.database)
        assert games.started == 1 and games.moves == len(after.log)

    log = bot.log()
    assert log.count("refuses changes (database is locked)") == 1  # one line for the burst
    assert log.count("takes changes again") == 1
    assert log.count("not saved, the database refused it (database is locked)") == 3


def truncate_wal(database: Path) -> None:
    """Checkpoint the WAL into the database file and truncate it, so that the next
    commit must grow the WAL file (after a checkpoint SQLite reuses the WAL from its
    start, which needs no new space)."""
    with closing(sqlite3.connect(database, timeout=30)) as db:
        for _ in range(100):
            busy, _, _ = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            if not busy:
                return
    raise AssertionError("the WAL could not be checkpointed")


async def test_a_full_disk_answers_presses_keeps_the_game_and_recovers_with_space(
    fakegram: FakeTelegram, tmp_path: Path
) -> None:
    # A real full disk: an 8 MiB tmpfs (root only; skipped where mounting is not allowed).
    with small_disk(tmp_path / "disk", kib=8192) as disk:
        async with bot_on(fakegram, tmp_path, disk / "domino.sqlite3") as bot:
            group, people, mover = await two_at_a_table(fakegram)
            other = next(p for p in people if p is not mover)
            hand, data = the_press(mover)
            before = stored(bot)

            truncate_wal(bot.database)
            filled = fill(disk)
            first, _ = await press(mover, hand, data)
            command = await other.user.command(group, "domino")
            reply = await group.wait_for_message(
                lambda m: m.reply_to is command, timeout=PRESS_TIMEOUT
            )
            assert stored(bot) == before
            assert asked_to_press_again(first), first
            assert reply.content == COMMAND_AGAIN
            unfill(disk)
            print(f"\nfull disk: {filled / 1024:.0f} KiB of filler made the tmpfs full")

            answer, _ = await press(mover, hand, data)
            assert moved(answer), answer
            await fakegram.wait_for(lambda: len(stored(bot).log) > len(before.log), timeout=60)
            after = stored(bot)
            assert after.log[: len(before.log)] == before.log
            await fakegram.idle()
            games = check_stored_games(bot.database)
            assert games.started == 1 and games.moves == len(after.log)

    log = bot.log()
    assert log.count("refuses changes (database or disk is full)") == 1
    assert log.count("takes changes again") == 1


async def test_a_computer_s_move_that_meets_the_lock_is_made_once_the_lock_is_gone(
    fakegram: FakeTelegram, tmp_path: Path
) -> None:
    # The computer waits 6 s before it moves: time for the messages about the person's
    # move to go out (their bookkeeping writes too) and for the test to take the lock.
    async with running_bot(
        fakegram, tmp_path, PACING="false", TURN_TIME_SCALE="10", COMPUTER_DELAY="6"
    ) as bot:
        alice = fakegram.add_user("Алиса", username="alice")
        table = await open_game(fakegram, [alice], computers=1)
        (person,) = table.people
        caught = False
        for _ in range(5):  # a loaded machine may let the computer move before the lock
            await fakegram.wait_for(person.my_turn, timeout=60)
            hand, data = the_press(person)
            answer, _ = await press(person, hand, data)
            assert moved(answer), answer
            await fakegram.idle(quiet=1.0, timeout=60)
            with write_lock(bot.database):
                after_press = stored(bot)
                if after_press.turn == 0 or after_press.over:
                    continue  # the computer moved already, or it is the person's turn again
                # Held past the computer's pause and SQLite's wait: its first try fails.
                await fakegram.wait_for(
                    lambda: "computer move: database is locked" in bot.log(), timeout=60
                )
                assert stored(bot) == after_press
            caught = True
            break
        assert caught, "the computer always moved before the lock was taken"
        # The lock is gone: the computer's move is made, once, and the person's turn is back.
        await fakegram.wait_for(lambda: len(stored(bot).log) > len(after_press.log), timeout=60)
        await fakegram.wait_for(person.my_turn, timeout=60)
        moves = stored(bot).log
        assert moves[: len(after_press.log)] == after_press.log
        assert {entry.seat for entry in moves[len(after_press.log) :]} == {1}
        await fakegram.idle()
        games = check_stored_games(bot.database)
        assert games.started == 1 and games.moves == len(moves)
    log = bot.log()
    assert log.count("computer move: database is locked; tried again") == 1
    assert "computer move: done at try" in log
