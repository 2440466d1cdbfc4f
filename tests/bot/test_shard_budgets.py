"""A group's flood budget across a shard's move (bot/server/shard_mode.py `ShardRuntime`,
`Outgoing.hand_over` and `take_over`): Telegram counts a group's calls of the last
minute whoever made them, so the instance that takes a shard goes on from the bucket the
giver left once its last call was answered, not from one read when it started.

Two instances share one fake clock (each one's sleeps move it) and one model of
Telegram's counting (the local Telegram's `FloodControl`), so the test sees every 429
the instances together would earn, and nothing waits for real.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from aiogram.methods import TelegramMethod

from bot.server.shard_mode import ShardConsumers, ShardRuntime
from bot.telegram.flood_budgets import SharedBudgets
from bot.telegram.outgoing import Limits, Outgoing
from storage import flood, shards
from storage.connect import open_database
from storage.db import Database
from tests.bot.test_flood_budgets import GROUP_PACE, Rests
from tests.bot.test_outgoing import FakeTime, send
from tests.bot.test_shard_mode import COUNT, GROUP, FakeKeeper, Handling, hold, until
from tests.fakegram.errors import ApiError
from tests.fakegram.limits import FloodControl

START = 1_700_000_000.0  # unix time at the fake clock's 0
RATE = GROUP_PACE.rate  # the bot's own pace for a group


def in_group(chat_id: int) -> bool:
    return chat_id == GROUP


class Telegram:
    """Telegram's counting of every instance's calls on the shared clock: what it would
    refuse is noted (and answered all the same, so the bot's pacing alone is seen)."""

    def __init__(self, time: FakeTime) -> None:
        self.time = time
        self.limits = FloodControl(time.clock)
        self.limits.enable()
        self.sent: list[tuple[float, str]] = []
        self.refused: list[tuple[float, str]] = []
        self.held: dict[str, asyncio.Event] = {}  # text → released when set

    def api(self, who: str) -> Callable[[TelegramMethod[Any]], Any]:
        async def call(method: TelegramMethod[Any]) -> str:
            await asyncio.sleep(0)
            text = str(getattr(method, "text", ""))
            chat_id = int(getattr(method, "chat_id", 0))
            try:
                self.limits.check(chat_id, is_group=chat_id < 0)
            except ApiError:
                self.refused.append((self.time.now, who))
            self.sent.append((self.time.now, who))
            if (gate := self.held.get(text)) is not None:
                await gate.wait()
            return f"ok:{text}"

        return call


@dataclass
class Instance:
    out: Outgoing
    budgets: SharedBudgets

    async def stop(self) -> None:
        await self.out.close()
        await self.budgets.close()


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    db = await open_database(tmp_path / "handover.sqlite3")
    try:
        yield db
    finally:
        await db.close()


async def start(db: Database, telegram: Telegram, who: str) -> Instance:
    """An instance started now, its budgets loaded (the flusher's rests never end: only
    `hand_over` and `close` write)."""
    time = telegram.time
    budgets = SharedBudgets(db, wall=lambda: START + time.now, sleep=Rests().sleep)
    await budgets.load()
    out = Outgoing(telegram.api(who), Limits(), clock=time.clock, sleep=time.sleep, budgets=budgets)
    return Instance(out, budgets)


async def play(instance: Instance, calls: int) -> None:
    await asyncio.gather(*(instance.out.call(GROUP, send(GROUP, str(i))) for i in range(calls)))


@pytest.mark.parametrize("handed_over", [True, False])
async def test_the_taker_goes_on_from_the_group_s_budget_the_giver_left(
    db: Database, handed_over: bool
) -> None:
    """Both started before the group played; "a" plays it for half a minute, then its
    shard moves to "b", which plays on. Handed over, Telegram refuses nothing; with the
    buckets read at the start, "b" sends a burst on top of "a"'s last calls."""
    telegram = Telegram(FakeTime())
    a, b = await start(db, telegram, "a"), await start(db, telegram, "b")
    await play(a, 10)  # its burst of three, then one every 1/RATE s
    last = 7 / RATE
    assert telegram.sent[-1] == (pytest.approx(last), "a")
    if handed_over:
        await a.out.hand_over(in_group)
        await b.out.take_over(in_group)
    await play(b, 12)  # half a minute more: the group's minute is full of both
    first = next(at for at, who in telegram.sent if who == "b")
    assert telegram.refused == ([] if handed_over else [(pytest.approx(last), "b")])
    assert first == pytest.approx(last + 1 / RATE if handed_over else last)
    await a.stop()
    await b.stop()


async def test_the_giver_writes_its_budget_once_its_last_call_is_answered(db: Database) -> None:
    telegram = Telegram(FakeTime())
    a = await start(db, telegram, "a")
    await play(a, 1)
    telegram.held["on its way"] = answered = asyncio.Event()
    on_its_way = a.out.call(GROUP, send(GROUP, "on its way"))
    handing = asyncio.create_task(a.out.hand_over(in_group))
    await until(lambda: len(telegram.sent) == 2)
    for _ in range(20):
        await asyncio.sleep(0)
    assert not handing.done()  # the shard is not given back under a call on its way
    answered.set()
    await handing
    assert on_its_way.done()
    written = await flood.recent_budgets(db, 0.0)
    assert written[GROUP].tokens == pytest.approx(1.0)  # both calls counted
    await a.stop()


async def test_a_bucket_left_from_an_earlier_holding_goes_on_from_the_database(
    db: Database,
) -> None:
    """Instance "b" played the group, gave it to "a" (its bucket still in memory,
    refilling as if nobody spoke), and takes it back after "a" spent it."""
    telegram = Telegram(FakeTime())
    a, b = await start(db, telegram, "a"), await start(db, telegram, "b")
    await play(b, 1)
    await b.out.hand_over(in_group)
    await a.out.take_over(in_group)
    await play(a, 2)
    await a.out.hand_over(in_group)
    await b.out.take_over(in_group)
    sent = len(telegram.sent)
    await play(b, 1)
    assert telegram.sent[sent] == (pytest.approx(1 / RATE), "b")  # a's burst was the last
    assert telegram.refused == []
    await a.stop()
    await b.stop()


class Ending:
    """An application whose pickup sends what a game that ended on the way owes its
    group (the final table and its text), as `Application.pick_up` brings the messages
    up to date."""

    def __init__(self, out: Outgoing) -> None:
        self.out = out

    async def pick_up(self, owned: Callable[[int], bool] | None = None) -> int:
        assert owned is not None and owned(GROUP)
        owed = [send(GROUP, "the final table"), send(GROUP, "its text")]
        await asyncio.gather(*(self.out.call(GROUP, method) for method in owed))
        return 1

    async def let_go(self, owned: Callable[[int], bool]) -> None:
        pass


async def test_a_shard_given_back_as_its_match_ends_earns_no_429(db: Database) -> None:
    """Instance "a" sends a match's last messages, and gives the shard back while the
    last is on its way; "b" takes the shard, and its pickup sends the final table and
    its text. They wait for the group's budget "a" left, not a burst of their own."""
    telegram = Telegram(FakeTime())
    shard = shards.shard_of(GROUP, COUNT)
    runtimes = []
    for who, keeper in (("a", await hold(db, shard)), ("b", FakeKeeper({shard: 2}))):
        instance = await start(db, telegram, who)
        runtime = ShardRuntime(COUNT, stop_now=lambda: None)
        consumers = ShardConsumers(db, keeper, Handling(db), check_seconds=0.05)  # type: ignore[arg-type]
        runtime.attach(keeper, consumers, Ending(instance.out), instance.out)  # type: ignore[arg-type]
        runtime.started.set()
        runtimes.append((instance, runtime, keeper))
    (a, giver, a_keeper), (_, taker, _) = runtimes
    giver.consumers.start(shard)  # type: ignore[union-attr]
    telegram.held["the match is over"] = answered = asyncio.Event()
    ending = [
        a.out.call(GROUP, send(GROUP, text)) for text in ("table", "scores", "the match is over")
    ]
    await until(lambda: len(telegram.sent) == 3)
    giver.release_asked(shard)
    for _ in range(20):
        await asyncio.sleep(0)
    answered.set()
    await asyncio.gather(*ending)
    await until(lambda: a_keeper.given_back == [shard])
    taker.gained(shard, 2)
    await until(lambda: len(telegram.sent) == 5)
    assert [who for _, who in telegram.sent] == ["a", "a", "a", "b", "b"]
    assert telegram.refused == []
    assert [at for at, _ in telegram.sent[3:]] == [pytest.approx(1 / RATE), pytest.approx(2 / RATE)]
    for instance, runtime, _ in runtimes:
        await runtime.close()
        await instance.stop()


class Steps:
    """The application, the outgoing queue and the keeper of one instance, noting what
    the runtime asks of them, in order."""

    def __init__(self, keeper: FakeKeeper) -> None:
        self.keeper = keeper
        self.done: list[str] = []
        give_back = keeper.give_back

        async def noted_give_back(shard: int) -> bool:
            self.done.append("give_back")
            return await give_back(shard)

        keeper.give_back = noted_give_back  # type: ignore[method-assign]

    async def pick_up(self, owned: Callable[[int], bool] | None = None) -> int:
        self.done.append("pick_up")
        return 0

    async def let_go(self, owned: Callable[[int], bool]) -> None:
        self.done.append("let_go")

    async def take_over(self, chats: Callable[[int], bool]) -> None:
        assert chats(GROUP)
        self.done.append("take_over")

    async def hand_over(self, chats: Callable[[int], bool]) -> None:
        assert chats(GROUP)
        self.done.append("hand_over")


async def test_the_runtime_hands_the_budgets_over_between_let_go_and_give_back(
    db: Database,
) -> None:
    shard = shards.shard_of(GROUP, COUNT)
    keeper = await hold(db, shard)
    steps = Steps(keeper)
    runtime = ShardRuntime(COUNT, stop_now=lambda: None)
    consumers = ShardConsumers(db, keeper, Handling(db), check_seconds=0.05)  # type: ignore[arg-type]
    runtime.attach(keeper, consumers, steps, steps)  # type: ignore[arg-type]
    runtime.started.set()
    runtime.gained(shard, 1)
    await until(lambda: consumers.consuming() == {shard})
    runtime.release_asked(shard)
    await until(lambda: "give_back" in steps.done)
    assert steps.done == ["take_over", "pick_up", "let_go", "hand_over", "give_back"]
    await runtime.close()
