"""The lease "leader" (bot.leadership): one instance acts at a time, a standby takes over
once the leader's lease has run out, a leader that loses it stops."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.leadership import LEADER, Leadership
from storage import leases
from storage.db import Database, DatabaseBusy


class Clock:
    """Wall time that moves only when a sleeper sleeps (each sleep moves it on)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds
        await asyncio.sleep(0)


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(tmp_path / "lead.sqlite3")
    yield database
    await database.close()


def instance(db: Database, name: str, clock: Clock, lost: list[str]) -> Leadership:
    return Leadership(
        db, name, ttl=15, clock=clock, sleep=clock.sleep, on_lost=lambda: lost.append(name)
    )


async def test_the_first_leads_the_second_waits_and_takes_over_when_the_lease_runs_out(
    db: Database,
) -> None:
    clock, lost = Clock(), []
    first, second = instance(db, "a", clock, lost), instance(db, "b", clock, lost)
    await first.acquire()
    assert first.role == "leader"
    await first.release()  # gone without a word would be the same, 15 s later
    await leases.take(db, LEADER, "a", now=clock.now, ttl=15)  # ... as here: "a" died
    began = clock.now
    await second.acquire()
    assert second.leading and clock.now - began >= 15  # only once the lease ran out
    assert (await leases.current(db, LEADER)).holder == "b"
    assert lost == []
    await second.release()


async def test_a_leader_renews_and_a_restart_of_the_same_name_takes_its_lease_back(
    db: Database,
) -> None:
    clock, lost = Clock(), []
    first = instance(db, "a", clock, lost)
    await first.acquire()
    for _ in range(10):  # 10 renewals: 50 s, far past one lease
        await asyncio.sleep(0)
        await clock.sleep(5)
    assert first.leading and lost == []
    own = Clock()  # the same instance started again, with a clock only it moves
    own.now = began = clock.now
    again = instance(db, "a", own, lost)
    await again.acquire()
    assert again.leading and own.now == began  # taken back at once: no standby's wait
    await first.release()
    await again.release()


async def test_a_leader_whose_lease_was_taken_stops(db: Database) -> None:
    clock, lost = Clock(), []
    first = instance(db, "a", clock, lost)
    await first.acquire()
    # Cut off for longer than the lease: another took it meanwhile.
    await leases.take(db, LEADER, "b", now=clock.now + 20, ttl=15)
    while not lost:
        await clock.sleep(1)
    assert lost == ["a"] and not first.leading
    await first.release()
    assert (await leases.current(db, LEADER)).holder == "b"  # not given back by "a"


async def test_a_leader_that_cannot_renew_stops_before_its_lease_runs_out(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock, lost = Clock(), []
    first = instance(db, "a", clock, lost)
    await first.acquire()
    expires = clock.now + 15

    async def refused(*args: object, **kwargs: object) -> bool:
        raise DatabaseBusy("the server is restarting")

    monkeypatch.setattr(leases, "take", refused)
    while not lost:
        await clock.sleep(1)
    assert lost == ["a"] and clock.now < expires


async def test_a_leader_whose_renewal_hangs_stops_without_waiting_for_it(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database that takes the renewal and never answers: the leader does not wait past
    its lease for it (the real clock here, a lease of 0.3 s)."""
    lost: list[str] = []
    leader = Leadership(db, "a", ttl=0.3, on_lost=lambda: lost.append("a"))
    await leader.acquire()
    hanging = asyncio.Event()
    cancelled = asyncio.Event()

    async def hangs(*args: object, **kwargs: object) -> bool:
        hanging.set()
        try:
            await asyncio.Event().wait()
        finally:
            cancelled.set()
        return True

    monkeypatch.setattr(leases, "take", hangs)
    await hanging.wait()
    await cancelled.wait()  # given up on, not waited for
    while not lost:
        await asyncio.sleep(0.05)
    assert lost == ["a"] and not leader.leading
    await leader.release()
