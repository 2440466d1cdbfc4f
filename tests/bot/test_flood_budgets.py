"""The groups' flood budgets shared through the database (bot/telegram/flood_budgets.py):
an instance that takes over goes on from the buckets the last one left, so a group that
just had its burst is not sent another at once.

Each instance has a fake monotonic clock of its own (`FakeTime`: its sleeps move it) and
a wall clock that runs with it from a given unix moment; the flusher's rests wait until
the test lets them go (`Rests`), so nothing waits for real.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.telegram.flood_budgets import MEMORY, SharedBudgets
from bot.telegram.outgoing import Limits, Outgoing
from bot.telegram.pacing import Pace
from storage import flood
from storage.connect import open_database
from storage.db import WORK, Database, DatabaseBusy
from storage.flood import Budget
from tests.bot.test_outgoing import FakeApi, FakeTime, send

GROUP = -100
PRIVATE = 7
GROUP_PACE = Pace(rate=16 / 60, burst=3)  # as `Limits()` has it
LIMITS = Limits(group=GROUP_PACE)
START = 1_700_000_000.0  # unix time when the first instance starts


class Rests:
    """The flusher's rests between two writes: each lasts until `let_go`."""

    def __init__(self) -> None:
        self.seconds: list[float] = []
        self.resting = asyncio.Event()
        self._go = asyncio.Event()

    async def sleep(self, seconds: float) -> None:
        self.seconds.append(seconds)
        self.resting.set()
        await self._go.wait()
        self._go.clear()

    async def let_go(self) -> None:
        """End the rest, and wait until the flusher has written and rests again."""
        self.resting.clear()
        self._go.set()
        await self.resting.wait()


@dataclass
class Instance:
    out: Outgoing
    api: FakeApi
    time: FakeTime
    budgets: SharedBudgets | None
    rests: Rests

    async def stop(self) -> None:
        await self.out.drain()
        await self.out.close()
        if self.budgets is not None:
            await self.budgets.close()


async def start(db: Database, *, at: float, shared: bool = True) -> Instance:
    """A bot instance started at unix time `at`, its budgets loaded."""
    time = FakeTime()
    rests = Rests()
    budgets = None
    if shared:
        budgets = SharedBudgets(db, wall=lambda: at + time.now, sleep=rests.sleep)
        await budgets.load()
    api = FakeApi(time)
    out = Outgoing(api, LIMITS, clock=time.clock, sleep=time.sleep, budgets=budgets)
    return Instance(out, api, time, budgets, rests)


async def stored(db: Database) -> dict[int, tuple[float, float]]:
    """The budgets in the database: (tokens, at) by chat, the tokens rounded."""
    budgets = await flood.recent_budgets(db, 0.0)
    return {chat: (round(b.tokens, 9), b.at) for chat, b in budgets.items()}


def sent_at(instance: Instance, chat: int) -> list[float]:
    return [t for t, method in instance.api.calls if getattr(method, "chat_id", None) == chat]


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    db = await open_database(tmp_path / "budgets.sqlite3")
    try:
        yield db
    finally:
        await db.close()


@pytest.fixture
def transactions() -> Iterator[Callable[[], int]]:
    """Transactions committed or tried since the test began."""
    before = WORK["transactions"]
    yield lambda: WORK["transactions"] - before


@pytest.mark.parametrize("shared", [True, False])
async def test_a_new_instance_goes_on_from_the_groups_budget(db: Database, shared: bool) -> None:
    first = await start(db, at=START)
    await asyncio.gather(*(first.out.call(GROUP, send(GROUP, f"g{i}")) for i in range(3)))
    await asyncio.gather(*(first.out.call(PRIVATE, send(PRIVATE, f"p{i}")) for i in range(3)))
    assert sent_at(first, GROUP) == [0.0, 0.0, 0.0]  # the group's whole burst
    await first.stop()

    # A second later another instance takes over (or the bot is started again).
    second = await start(db, at=START + 1.0, shared=shared)
    await second.out.call(PRIVATE, send(PRIVATE, "p"))
    await second.out.call(GROUP, send(GROUP, "g"))
    assert sent_at(second, PRIVATE) == [0.0]  # a private chat's bucket is not shared
    # Shared: one second refilled 16/60 of a token; the rest of one comes 2.75 s later.
    wait = (1 - 1.0 * GROUP_PACE.rate) / GROUP_PACE.rate if shared else 0.0
    assert sent_at(second, GROUP) == [pytest.approx(wait)]
    await second.stop()
    assert set(await flood.recent_budgets(db, 0.0)) == {GROUP}


async def test_a_budget_refills_for_the_time_passed_but_not_beyond_the_burst(
    db: Database,
) -> None:
    first = await start(db, at=START)
    await asyncio.gather(*(first.out.call(GROUP, send(GROUP, f"g{i}")) for i in range(3)))
    await first.stop()

    second = await start(db, at=START + 30.0)  # 8 tokens' worth of time: full again
    await asyncio.gather(*(second.out.call(GROUP, send(GROUP, f"g{i}")) for i in range(4)))
    assert sent_at(second, GROUP) == [0.0, 0.0, 0.0, pytest.approx(1 / GROUP_PACE.rate)]
    await second.stop()


async def test_budgets_older_than_a_minute_are_not_read_and_are_forgotten(db: Database) -> None:
    await flood.save_budgets(db, [(GROUP, 0.0, START - MEMORY - 1), (-200, 0.0, START - 10)])
    budgets = SharedBudgets(db, wall=lambda: START)
    await budgets.load()
    assert budgets.tokens_for(GROUP, GROUP_PACE) is None  # a full bucket
    assert budgets.tokens_for(-200, GROUP_PACE) == pytest.approx(10 * GROUP_PACE.rate)
    assert budgets.tokens_for(-200, GROUP_PACE) is None  # used once: the bucket goes on
    assert await flood.recent_budgets(db, 0.0) == {-200: Budget(0.0, START - 10)}


async def test_the_flusher_writes_the_notes_of_a_second_in_one_transaction(
    db: Database, transactions: Callable[[], int]
) -> None:
    bot = await start(db, at=START)
    assert bot.budgets is not None
    await bot.out.call(-1, send(-1, "first"))
    await bot.rests.resting.wait()  # written at once, then a rest
    assert transactions() == 1
    assert await stored(db) == {-1: (2.0, START)}

    calls = [bot.out.call(chat, send(chat, "x")) for chat in (-1, -2, -3) for _ in range(2)]
    await asyncio.gather(*calls)
    assert transactions() == 1  # noted, not written: the flusher rests

    await bot.rests.let_go()
    assert transactions() == 2  # three groups, six calls: one transaction
    assert bot.rests.seconds == [1.0, 1.0]
    assert await stored(db) == {-1: (0.0, START), -2: (1.0, START), -3: (1.0, START)}
    await bot.stop()
    assert transactions() == 2  # nothing left to write at the end


async def test_the_last_notes_are_written_at_close(
    db: Database, transactions: Callable[[], int]
) -> None:
    bot = await start(db, at=START)
    await bot.out.call(-1, send(-1, "first"))
    await bot.rests.resting.wait()
    await bot.out.call(-2, send(-2, "while the flusher rests"))
    await bot.stop()
    assert transactions() == 2
    assert set(await flood.recent_budgets(db, 0.0)) == {-1, -2}


async def test_a_failing_database_is_logged_once_and_holds_no_message_back(
    db: Database, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    save = flood.save_budgets
    down = True

    async def save_unless_down(database: Database, rows: list[tuple[int, float, float]]) -> None:
        if down:
            raise DatabaseBusy("the server is restarting")
        await save(database, rows)

    monkeypatch.setattr(flood, "save_budgets", save_unless_down)
    caplog.set_level(logging.INFO, logger="bot.telegram.flood_budgets")
    bot = await start(db, at=START)
    await bot.out.call(GROUP, send(GROUP, "one"))
    await bot.rests.resting.wait()
    await bot.out.call(GROUP, send(GROUP, "two"))
    await bot.rests.let_go()  # tried again: fails again
    assert [t for t, _ in bot.api.calls] == [0.0, 0.0]  # sent all the same
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1
    assert "the server is restarting" in warnings[0].getMessage()

    down = False
    await bot.rests.let_go()
    assert await stored(db) == {GROUP: (1.0, START)}
    assert "takes them again" in caplog.records[-1].getMessage()
    await bot.stop()


async def test_a_failed_load_leaves_the_buckets_full(
    db: Database, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    await flood.save_budgets(db, [(GROUP, 0.0, START)])

    async def unreadable(database: Database, since: float) -> dict[int, Budget]:
        raise DatabaseBusy("connection lost")

    monkeypatch.setattr(flood, "recent_budgets", unreadable)
    budgets = SharedBudgets(db, wall=lambda: START)
    await budgets.load()
    assert budgets.tokens_for(GROUP, Pace(rate=1.0, burst=3)) is None
    assert "connection lost" in caplog.text
