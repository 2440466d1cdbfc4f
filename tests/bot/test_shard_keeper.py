"""The shard keeper (bot.server.shards): each live instance holds its fair share of the
shards, a newcomer gets its share by give-backs, the shards of an instance that stops
go to the others once their leases run out, a keeper paused past its leases finds them
taken, a fenced change for a lost shard is refused, and a stop gives everything back."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.server.shards import ShardKeeper
from storage import leases, shards
from storage.connect import open_database
from storage.db import Database, DatabaseBusy, Deposed

TTL = 15.0
COUNT = shards.DEFAULT_SHARD_COUNT


@dataclass
class Sleeper:
    name: str
    until: float
    woken: asyncio.Future[None]


class Clock:
    """Wall and monotonic time that the test moves: a keeper's sleep ends once the clock
    has reached its end, and not while its keeper is paused (a SIGSTOP, a VM pause)."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.sleepers: list[Sleeper] = []
        self.paused: set[str] = set()

    def __call__(self) -> float:
        return self.now

    def sleep_of(self, name: str) -> Callable[[float], Awaitable[None]]:
        async def sleep(seconds: float) -> None:
            sleeper = Sleeper(name, self.now + seconds, asyncio.get_running_loop().create_future())
            self.sleepers.append(sleeper)
            try:
                await sleeper.woken
            finally:
                self.sleepers.remove(sleeper)

        return sleep

    def wake_next(self) -> None:
        """Move to the end of the earliest sleep of a keeper not paused, and end every
        such sleep due by then."""
        due = [s for s in self.sleepers if s.name not in self.paused and not s.woken.done()]
        assert due, "every keeper is paused: nothing would ever happen"
        self.now = max(self.now, min(s.until for s in due))
        for sleeper in due:
            if sleeper.until <= self.now:
                sleeper.woken.set_result(None)


@dataclass
class Instance:
    keeper: ShardKeeper
    gained: list[tuple[int, int]] = field(default_factory=list)
    lost: list[int] = field(default_factory=list)
    asked: list[int] = field(default_factory=list)
    evicted: int = 0


class World:
    """Instances of the bot on one database, each a keeper on the test's loop; the bot's
    part is played by the callbacks (a shard asked back is given back at once)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.clock = Clock()
        self.instances: dict[str, Instance] = {}
        self.giving_back: set[asyncio.Task[bool]] = set()

    async def join(self, name: str) -> Instance:
        instance = Instance(
            ShardKeeper(
                name,
                open_keeper_db=lambda: open_database(self.path, side=True),
                on_gained=lambda shard, term: instance.gained.append((shard, term)),
                on_lost=lambda shard: instance.lost.append(shard),
                on_release_asked=lambda shard: self._give_back(instance, shard),
                on_evicted=lambda: self._evicted(instance),
                count=COUNT,
                ttl=TTL,
                thread=False,
                clock=self.clock,
                monotonic=self.clock,
                sleep=self.clock.sleep_of(name),
            )
        )
        self.instances[name] = instance
        await instance.keeper.start()
        await self.settle()
        return instance

    @staticmethod
    def _evicted(instance: Instance) -> None:
        instance.evicted += 1

    def _give_back(self, instance: Instance, shard: int) -> None:
        instance.asked.append(shard)
        self.giving_back.add(asyncio.create_task(instance.keeper.give_back(shard)))

    async def settle(self) -> None:
        """Wait (in real time) until every keeper sleeps and every give-back is done."""
        for _ in range(20_000):
            asleep = {s.name for s in self.clock.sleepers if not s.woken.done()}
            if asleep == set(self.instances) and all(t.done() for t in self.giving_back):
                for task in self.giving_back:
                    assert task.result() is True
                self.giving_back.clear()
                return
            await asyncio.sleep(0.001)
        raise AssertionError(f"the keepers never settled (the clock at {self.clock.now})")

    async def run_until(self, done: Callable[[], bool], *, rounds: int = 200) -> None:
        """Move the clock from one wake-up to the next until `done()`."""
        for _ in range(rounds):
            await self.settle()
            if done():
                return
            self.clock.wake_next()
        raise AssertionError(f"never happened: {self.counts()} at {self.clock.now}")

    async def run_for(self, seconds: float) -> None:
        end = self.clock.now + seconds
        await self.run_until(lambda: self.clock.now >= end)

    def counts(self) -> dict[str, int]:
        return {name: len(i.keeper.owned()) for name, i in self.instances.items()}

    def assert_apart(self, *names: str) -> None:
        """The shards held by these instances (not paused) overlap nowhere."""
        held = [shard for name in names for shard in self.instances[name].keeper.owned()]
        assert len(held) == len(set(held))

    async def close(self, name: str) -> None:
        await self.instances.pop(name).keeper.close()
        await self.settle()

    async def close_all(self) -> None:
        self.clock.paused.clear()
        for name in list(self.instances):
            await self.instances.pop(name).keeper.close()


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "shards.sqlite3"


@pytest.fixture
async def db(path: Path) -> AsyncIterator[Database]:
    """The database as created at the start (migrated); a look at it for the tests."""
    database = await open_database(path)
    yield database
    await database.close()


@pytest.fixture
async def world(path: Path, db: Database) -> AsyncIterator[World]:
    created = World(path)
    yield created
    await created.close_all()


async def test_one_instance_takes_every_shard_and_keeps_them(world: World, db: Database) -> None:
    a = await world.join("a")
    assert a.keeper.owned() == {shard: 1 for shard in range(COUNT)}
    assert a.gained == [(shard, 1) for shard in range(COUNT)]
    assert all(a.keeper.valid(shard) for shard in range(COUNT))
    fence = a.keeper.fence_for(3)
    assert fence is not None and (fence.lease, fence.term, fence.hold) == ("shard:3", 1, TTL / 3)
    assert a.keeper.fence_for(COUNT) is None and not a.keeper.valid(COUNT)
    assert a.keeper.share == COUNT
    assert not await a.keeper.give_back(COUNT)  # not a shard it holds: nothing done
    await world.run_for(4 * TTL)  # renewed all along
    held = await shards.holders(db, COUNT)
    assert {lease.holder for lease in held.values()} == {"a"}
    assert all(lease.expires_at > world.clock.now for lease in held.values())
    assert a.keeper.owned() == {shard: 1 for shard in range(COUNT)} and a.lost == []
    assert await shards.live_instances(db, now=world.clock.now, ttl=TTL) == ["a"]


async def test_a_newcomer_gets_its_share_as_the_first_gives_shards_back(
    world: World, db: Database
) -> None:
    a = await world.join("a")
    b = await world.join("b")
    assert world.counts() == {"a": 16, "b": 0}  # nothing free: b waits for give-backs

    def halves() -> bool:
        world.assert_apart("a", "b")
        return world.counts() == {"a": 8, "b": 8}

    await world.run_until(halves)
    assert a.asked == [15, 14, 13, 12, 11, 10, 9, 8]  # the highest, one at a time
    assert sorted(a.keeper.owned()) == list(range(8))
    assert b.keeper.owned() == {shard: 2 for shard in range(8, 16)}  # each a new term
    assert a.lost == b.lost == [] and b.asked == [] and a.keeper.share == b.keeper.share == 8
    await world.run_for(4 * TTL)  # and it stays so
    assert world.counts() == {"a": 8, "b": 8} and a.asked == [15, 14, 13, 12, 11, 10, 9, 8]
    held = await shards.holders(db, COUNT)
    assert {shard for shard, lease in held.items() if lease.holder == "b"} == set(range(8, 16))


async def test_three_instances_share_sixteen_shards_six_five_five(world: World) -> None:
    await world.join("a")
    await world.join("b")
    await world.run_until(lambda: world.counts() == {"a": 8, "b": 8})
    await world.join("c")

    def fair() -> bool:
        world.assert_apart("a", "b", "c")
        return world.counts() == {"a": 6, "b": 5, "c": 5}

    await world.run_until(fair)
    await world.run_for(4 * TTL)
    assert world.counts() == {"a": 6, "b": 5, "c": 5}
    assert all(i.lost == [] for i in world.instances.values())


async def test_an_instance_that_stops_loses_its_shards_once_their_leases_run_out(
    world: World, db: Database
) -> None:
    a = await world.join("a")
    b = await world.join("b")
    await world.run_until(lambda: world.counts() == {"a": 8, "b": 8})
    b_shards = set(b.keeper.owned())
    ran_out = max(lease.expires_at for lease in (await shards.holders(db, COUNT)).values())
    world.clock.paused.add("b")  # no more heartbeats, no more renewals
    taken_before = len(a.gained)
    await world.run_until(lambda: len(a.keeper.owned()) == COUNT)
    assert world.clock.now > ran_out  # none of b's taken while its lease ran
    assert {shard for shard, term in a.gained[taken_before:]} == b_shards
    assert all(term == 3 for shard, term in a.gained[taken_before:])
    assert a.lost == [] and b.lost == []  # b, stopped, has not run since
    assert not any(b.keeper.valid(shard) for shard in b_shards)  # it could not be sure


async def test_a_keeper_paused_past_its_leases_is_evicted_and_loses_each(
    world: World, db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    """b stalls past its leases: a takes its shards and ends b's instance term; b resumes,
    its first renewal finds its own lease ended: every shard lost, `on_evicted` told
    once, and it takes nothing more (its process stops, a restart takes a share anew)."""
    a = await world.join("a")
    b = await world.join("b")
    await world.run_until(lambda: world.counts() == {"a": 8, "b": 8})
    b_shards = sorted(b.keeper.owned())
    b_term = b.keeper.instance_term
    world.clock.paused.add("b")
    await world.run_until(lambda: len(a.keeper.owned()) == COUNT)
    evicted = await leases.current(db, shards.instance_lease_name("b"))
    assert evicted is not None and b_term is not None and evicted.term == b_term + 1
    with caplog.at_level(logging.INFO, logger="bot.server.shards"):
        world.clock.paused.discard("b")  # b resumes: its first renewal finds it evicted
        await world.run_until(lambda: bool(b.lost))
    assert sorted(b.lost) == b_shards and b.keeper.owned() == {} and b.evicted == 1
    assert all(b.keeper.fence_for(shard) is None for shard in b_shards)
    stopping = [r for r in caplog.records if r.levelno == logging.CRITICAL]
    assert len(stopping) == 1 and "instance 'b'" in stopping[0].getMessage()
    await world.run_for(4 * TTL)
    assert b.keeper.owned() == {} and b.evicted == 1 and len(a.keeper.owned()) == COUNT
    assert a.lost == []


async def test_the_instance_lease_fences_changes_outside_the_shards(
    world: World, path: Path
) -> None:
    """The instance's own fence (its `Database.fence`): kept while it renews, refused once
    another instance evicted it, and the refusal stops it (`on_evicted`)."""
    a = await world.join("a")
    fence = a.keeper.instance_fence()
    assert fence is not None and (fence.lease, fence.term) == ("instance:a", 1)
    assert a.keeper.instance_valid()
    bot_db = await open_database(path, side=True)
    try:
        bot_db.fence = fence
        await world.run_for(4 * TTL)
        await bot_db.execute("INSERT INTO bot_values (name, value) VALUES ('x', '1')")
        world.clock.paused.add("a")
        b = await world.join("b")
        await world.run_until(lambda: len(b.keeper.owned()) == COUNT)
        assert not a.keeper.instance_valid()  # paused past its lease: unsure of it
        with pytest.raises(Deposed):
            await bot_db.execute("INSERT INTO bot_values (name, value) VALUES ('y', '2')")
        await world.settle()
        assert a.evicted == 1 and sorted(a.lost) == list(range(COUNT))
        world.clock.paused.discard("a")
        await world.run_for(TTL)
        assert not a.keeper.instance_valid()  # evicted: never sure again
    finally:
        await bot_db.close()


async def test_a_restart_of_the_same_name_takes_its_lease_in_a_new_term(world: World) -> None:
    a = await world.join("a")
    assert a.keeper.instance_term == 1
    await world.close("a")
    again = await world.join("a")
    assert again.keeper.instance_term == 2 and len(again.keeper.owned()) == COUNT


async def test_a_change_for_a_lost_shard_is_refused_by_its_fence_and_told_once(
    world: World, path: Path
) -> None:
    a = await world.join("a")
    bot_db = await open_database(path, side=True)  # a's bot, writing a game of shard 3
    try:
        bot_db.fence = a.keeper.fence_for(3)
        await bot_db.execute("INSERT INTO bot_values (name, value) VALUES ('x', '1')")
        world.clock.paused.add("a")
        b = await world.join("b")
        await world.run_until(lambda: len(b.keeper.owned()) == COUNT)
        with pytest.raises(Deposed):
            await bot_db.execute("INSERT INTO bot_values (name, value) VALUES ('y', '2')")
        assert a.lost == [3] and 3 not in a.keeper.owned()
        world.clock.paused.discard("a")
        await world.run_until(lambda: len(a.lost) == COUNT)
        assert sorted(a.lost) == list(range(COUNT)) and a.lost.count(3) == 1
    finally:
        await bot_db.close()


async def test_renewals_that_fail_never_drop_a_shard(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The database refuses every renewal for three leases' time: the keeper keeps its
    shards (nobody could take them either), is not sure of them once they may have run
    out (`valid`), and is sure again at the first renewal that succeeds."""
    a = await world.join("a")
    renew = shards.renew_held
    refusing = True

    async def refused(*args: object, **kwargs: object) -> tuple[set[int], bool]:
        if refusing:
            raise DatabaseBusy("the server is restarting")
        return await renew(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(shards, "renew_held", refused)
    with caplog.at_level(logging.INFO, logger="bot.server.shards"):
        await world.run_for(3 * TTL)
        assert not a.keeper.valid(0) and len(a.keeper.owned()) == COUNT and a.lost == []
        refusing = False
        await world.run_until(lambda: a.keeper.valid(0))
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1  # one a burst
    assert a.keeper.owned() == {shard: 1 for shard in range(COUNT)} and a.lost == []


async def test_a_stop_gives_every_shard_back_and_the_others_take_them_at_once(
    world: World, db: Database
) -> None:
    a = await world.join("a")
    await world.join("b")
    await world.run_until(lambda: world.counts() == {"a": 8, "b": 8})
    await world.close("a")
    assert a.keeper.owned() == {}
    held = await shards.holders(db, COUNT)
    assert all(held[shard].expires_at == 0 for shard in range(8))
    assert await shards.live_instances(db, now=world.clock.now, ttl=TTL) == ["b"]
    began = world.clock.now
    await world.run_until(lambda: world.counts() == {"b": 16})
    assert world.clock.now - began <= TTL / 3  # at b's next round, not a lease later


async def test_the_keeper_renews_on_its_own_thread_while_the_bots_loop_is_blocked(
    path: Path, db: Database
) -> None:
    """The real clock, leases of 0.6 s: the bot's loop is stuck for five leases, the
    keeper's thread renews all the same; its news reaches the bot's loop; at the stop
    every shard is given back."""
    gained: list[int] = []
    keeper = ShardKeeper(
        "a",
        open_keeper_db=lambda: open_database(path, side=True),
        on_gained=lambda shard, term: gained.append(shard),
        on_lost=lambda shard: pytest.fail(f"shard {shard} lost"),
        on_release_asked=lambda shard: pytest.fail(f"shard {shard} asked back"),
        count=4,
        ttl=0.6,
    )
    await keeper.start()
    try:
        async with asyncio.timeout(10):
            while len(gained) < 4:
                await asyncio.sleep(0.01)
        first = await leases.current(db, shards.lease_name(0))
        assert first is not None
        began = time.monotonic()
        while time.monotonic() - began < 3.0:  # blocks the loop: no await
            time.sleep(0.05)
        held = await shards.holders(db, 4)
        assert {(lease.holder, lease.term) for lease in held.values()} == {("a", 1)}
        assert held[0].expires_at > first.expires_at + 1.0
        assert keeper.owned() == {0: 1, 1: 1, 2: 1, 3: 1} and keeper.valid(0)
        # Given back from the bot's loop (the keeper's thread releases it); still within
        # the share, so the keeper takes it again at its next round, in a new term.
        assert await keeper.give_back(3)
        assert 3 not in keeper.owned() and keeper.fence_for(3) is None
        async with asyncio.timeout(10):
            while len(gained) < 5:
                await asyncio.sleep(0.01)
        assert gained[-1] == 3 and keeper.owned()[3] == 2
    finally:
        await keeper.close()
    assert all(lease.expires_at == 0 for lease in (await shards.holders(db, 4)).values())
    assert await shards.live_instances(db, now=time.time(), ttl=60) == []
