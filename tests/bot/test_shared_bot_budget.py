"""The bot-wide budget shared by several instances (bot/telegram/bot_budget.py): together
they send no more than one bucket allows, in batches of claims; tokens a sender left
unused are given back; the database failing leaves each instance its share of the rate.

Time is a fake (`FakeTime`: a sender's sleep moves it; the wall clock runs with it from
`START`); the keeper's rest before giving tokens back waits until the test lets it go.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest

from bot.telegram.bot_budget import SharedBotBudget
from bot.telegram.outgoing import Limits, Outgoing
from bot.telegram.pacing import Pace
from storage import bot_budget
from storage.connect import open_database
from storage.db import Database, DatabaseBusy, Transaction
from tests.bot.test_outgoing import FakeApi, FakeTime, send

START = 1_700_000_000.0
PACE = Pace(rate=25.0, burst=25)


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_database(tmp_path / "budget.sqlite3")
    yield database
    await database.close()


class Rest:
    """The keeper's rest: lasts until `let_go`."""

    def __init__(self) -> None:
        self.seconds: list[float] = []
        self.resting = asyncio.Event()
        self._go = asyncio.Event()

    async def __call__(self, seconds: float) -> None:
        self.seconds.append(seconds)
        self.resting.set()
        await self._go.wait()
        self._go.clear()
        self.resting.clear()

    def let_go(self) -> None:
        self._go.set()


def shared(
    db: Database,
    time: FakeTime,
    *,
    pace: Pace = PACE,
    instances: int = 2,
    rest: Rest | None = None,
    sleep: Callable[[float], Coroutine[Any, Any, None]] | None = None,
    claim_timeout: float = 30.0,  # a loaded machine's SQLite is no failure
    hold: float = 1.0,
) -> SharedBotBudget:
    return SharedBotBudget(
        db,
        pace,
        instances=lambda: instances,
        clock=time.clock,
        wall=lambda: START + time.now,
        sleep=sleep or time.sleep,
        rest=rest or Rest(),
        claim_timeout=claim_timeout,
        hold=hold,
    )


def assert_within_the_bucket(times: list[float], pace: Pace, slack: int = 0) -> None:
    """From the start, and over any stretch beginning at a send, no more than the burst
    and the refill of that time (and `slack`) went out."""
    times = sorted(times)
    for k, moment in enumerate(times):
        assert k + 1 <= pace.burst + pace.rate * moment + 1e-6, (k, moment)
    for start in times:
        for length in (0.0, 0.1, 0.5, 1.0, 3.0):
            inside = sum(1 for t in times if start <= t <= start + length)
            assert inside <= pace.burst + pace.rate * length + slack + 1e-6, (start, length)


async def test_two_instances_together_send_what_one_bucket_allows(db: Database) -> None:
    """Forty senders each on two instances, at once, a hundred calls each: together they
    keep to the bucket over every stretch, both get their turns, and the database sees a
    claim for several calls, not one a call."""
    time = FakeTime()
    budgets = [shared(db, time), shared(db, time)]
    sent: list[list[float]] = [[], []]

    async def sender(which: int) -> None:
        for _ in range(5):
            await budgets[which].acquire()
            sent[which].append(time.now)

    await asyncio.gather(*(sender(which) for which in (0, 1) for _ in range(20)))
    every = sent[0] + sent[1]
    assert len(every) == 200
    assert_within_the_bucket(every, PACE)
    # The calls after the burst went out at about the whole rate, not slower.
    assert max(every) <= (200 - PACE.burst) / PACE.rate * 1.5
    assert min(len(sent[0]), len(sent[1])) == 100
    claims = budgets[0].claims + budgets[1].claims
    assert claims <= 200 / 2, claims
    for budget in budgets:
        await budget.close()


async def test_a_quiet_instance_claims_one_token_a_call_and_holds_none(db: Database) -> None:
    time = FakeTime()
    budget = shared(db, time)
    for _ in range(3):
        await budget.acquire()
        time.now += 1.0
    assert budget.claims == 3
    assert await bot_budget.level(db) == (PACE.burst - 1, START + 2.0)
    await budget.close()


async def holding_one_unused(db: Database, time: FakeTime, rest: Rest) -> SharedBotBudget:
    """A budget holding one token a sender left: three senders wait while the bucket is
    empty; when it refills, one claim takes a token for each, but one of them is gone
    meanwhile (its chat's queue closed). Then the bucket in the database is emptied."""
    gate = asyncio.Event()
    sleeps: list[float] = []

    async def gated_sleep(seconds: float) -> None:
        sleeps.append(seconds)
        await gate.wait()

    budget = shared(db, time, rest=rest, sleep=gated_sleep, hold=0.1)
    assert await bot_budget.claim(db, PACE.burst, now=START, pace_rate=25.0, burst=25) == 25
    senders = [asyncio.create_task(budget.acquire()) for _ in range(3)]
    while not sleeps:  # the first claim got nothing: it waits 1 / rate
        await asyncio.sleep(0)
    assert sleeps == [1 / PACE.rate]
    time.now = 1.0  # the bucket is full again
    gate.set()
    senders[2].cancel()  # after the first sender resumed: the claim is for three
    await asyncio.gather(*senders[:2])
    with pytest.raises(asyncio.CancelledError):
        await senders[2]
    assert budget.claims == 2
    assert await bot_budget.level(db) == (PACE.burst - 3, START + 1.0)
    assert await bot_budget.claim(db, 100, now=START + 1.0, pace_rate=25.0, burst=25) == 22
    return budget


async def test_tokens_a_sender_left_unused_are_given_back_after_the_hold(db: Database) -> None:
    time, rest = FakeTime(), Rest()
    budget = await holding_one_unused(db, time, rest)
    await rest.resting.wait()
    assert rest.seconds == [pytest.approx(0.1)]
    time.now = 1.1
    keeper = budget._keeper
    assert keeper is not None
    rest.let_go()
    await keeper  # it ends with nothing held
    # The refill of 0.1 s and the token given back.
    assert await bot_budget.level(db) == pytest.approx((3.5, START + 1.1), abs=1e-5)
    await budget.close()


async def test_close_gives_back_at_once_what_is_held(db: Database) -> None:
    time, rest = FakeTime(), Rest()
    budget = await holding_one_unused(db, time, rest)
    await budget.close()
    assert await bot_budget.level(db) == (1.0, START + 1.0)


def failing(db: Database, monkeypatch: pytest.MonkeyPatch) -> Callable[[bool], None]:
    """Make the database's transactions fail (True) or work again (False)."""
    works = db.atomic
    state = {"failing": True}

    async def atomic(body: Callable[[Transaction], Coroutine[Any, Any, Any]]) -> Any:
        if state["failing"]:
            raise DatabaseBusy("the server is restarting")
        return await works(body)

    monkeypatch.setattr(db, "atomic", atomic)
    return lambda fails: state.update(failing=fails)


async def test_a_failing_database_leaves_each_instance_its_share_until_it_answers(
    db: Database, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    time = FakeTime()
    budget = shared(db, time, instances=2)
    fail = failing(db, monkeypatch)
    times = []
    with caplog.at_level(logging.INFO, logger="bot.telegram.bot_budget"):
        for _ in range(13):
            await budget.acquire()
            times.append(time.now)
        assert budget.falling_back
        # Half the rate, from an empty bucket: one call each 1 / 12.5 s.
        assert times == pytest.approx([0.08 * k for k in range(1, 14)])
        fail(False)
        time.now = budget.retry_after + 0.1
        await budget.acquire()  # asks the database again: its bucket is full
        assert budget.claims == 1 and time.now == budget.retry_after + 0.1
    assert [r.levelname for r in caplog.records] == ["WARNING", "INFO"]
    assert "12.5 messages a second" in caplog.records[0].getMessage()
    await budget.close()


async def test_a_claim_with_no_answer_in_time_counts_as_a_failure(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def hangs(body: object) -> None:
        await asyncio.Event().wait()

    monkeypatch.setattr(db, "atomic", hangs)
    time = FakeTime()
    budget = shared(db, time, claim_timeout=0.01, instances=1)
    await budget.acquire()
    assert budget.falling_back
    assert time.now == pytest.approx(1 / PACE.rate)
    await budget.close()


async def test_outgoing_with_the_shared_budget_paces_two_instances_together(
    db: Database,
) -> None:
    """Two instances' queues, each with calls to twenty private chats at once: the
    overall bucket (five a second here, burst five) holds both together."""
    pace = Pace(rate=5.0, burst=5)
    limits = Limits(private=None, group=None, overall=pace)
    time = FakeTime()
    apis = [FakeApi(time), FakeApi(time)]
    budgets = [shared(db, time, pace=pace), shared(db, time, pace=pace)]
    outs = [
        Outgoing(api, limits, clock=time.clock, sleep=time.sleep, overall=budget)
        for api, budget in zip(apis, budgets, strict=True)
    ]
    calls = [
        out.call(chat, send(chat, f"{k}:{chat}"))
        for k, out in enumerate(outs)
        for chat in range(1, 21)
    ]
    await asyncio.gather(*calls)
    times = [moment for api in apis for moment, _ in api.calls]
    assert len(times) == 40
    assert_within_the_bucket(times, pace)
    assert max(times) <= (40 - pace.burst) / pace.rate * 1.5  # paced, not held back
    assert all(api.calls for api in apis)
    for out, budget in zip(outs, budgets, strict=True):
        await out.close()
        await budget.close()
