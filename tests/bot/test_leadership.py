"""The lease "leader" (bot.server.leadership): one instance acts at a time, a standby takes over
once the leader's lease has run out, a leader steps down only when it finds the lease
taken, its changes are fenced by its term, and the keeper renews on a thread of its own."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from aiogram.exceptions import TelegramConflictError
from aiogram.methods import GetUpdates, SendMessage, TelegramMethod

from bot.server import leadership
from bot.server.leadership import LEADER, Leadership, LeaseGuard
from storage import leases
from storage.connect import open_database
from storage.db import Database, DatabaseBusy, Deposed


class Clock:
    """Wall and monotonic time that move only when a sleeper sleeps."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds
        await asyncio.sleep(0)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "lead.sqlite3"


@pytest.fixture
async def db(path: Path) -> AsyncIterator[Database]:
    database = await open_database(path)
    yield database
    await database.close()


@pytest.fixture
async def other(path: Path) -> AsyncIterator[Database]:
    """Another instance's connection (unfenced): a standby's takeover, a look."""
    database = await open_database(path, side=True)
    yield database
    await database.close()


def opener(path: Path) -> Callable[[], Awaitable[Database]]:
    return lambda: open_database(path, side=True)


def instance(
    db: Database, path: Path, name: str, clock: Clock, lost: list[str], ttl: float = 15
) -> Leadership:
    return Leadership(
        db,
        name,
        ttl=ttl,
        open_keeper_db=opener(path),
        thread=False,
        clock=clock,
        monotonic=clock,
        sleep=clock.sleep,
        on_lost=lambda: lost.append(name),
    )


async def until(done: Callable[[], bool], clock: Clock) -> None:
    """Wait (in real time, the clock left to the keepers' sleeps) until `done()`."""
    for _ in range(20_000):
        if done():
            return
        await asyncio.sleep(0.001)
    raise AssertionError(f"never happened (the clock at {clock.now})")


async def test_the_first_leads_the_second_waits_and_takes_over_when_the_lease_runs_out(
    db: Database, other: Database, path: Path
) -> None:
    clock, lost = Clock(), []
    first, second = instance(db, path, "a", clock, lost), instance(db, path, "b", clock, lost)
    await first.acquire()
    assert first.role == "leader" and first.term == 1 and first.valid()
    assert db.fence is not None and db.fence.term == 1
    await first.release()
    assert (await leases.current(other, LEADER)).expires_at == 0  # given back
    await leases.take(other, LEADER, "a", now=clock.now, ttl=15)  # "a" again, then died
    began = clock.now
    await second.acquire()
    assert second.leading and clock.now - began >= 15  # only once the lease ran out
    held = await leases.current(other, LEADER)
    assert held is not None and (held.holder, held.term) == ("b", 3)
    assert lost == []
    await second.release()


async def test_a_leader_renews_and_a_restart_of_the_same_name_takes_its_lease_back(
    db: Database, path: Path
) -> None:
    clock, lost = Clock(), []
    first = instance(db, path, "a", clock, lost)
    await first.acquire()
    await until(lambda: clock.now >= 1050, clock)  # 10 renewals, far past one lease
    assert first.leading and first.valid() and lost == []
    own = Clock()  # the same instance started again, with a clock only it moves
    own.now = began = clock.now
    again = instance(db, path, "a", own, lost)
    await again.acquire()
    # At once (no standby's wait for the lease to run out), in a new term.
    assert again.leading and own.now - began < 15 and again.term == 2
    await until(lambda: bool(lost), clock)  # the old process finds its term over
    assert lost == ["a"] and not first.leading
    await first.release()
    await again.release()


async def test_a_leader_whose_lease_was_taken_stops_and_does_not_give_it_back(
    db: Database, other: Database, path: Path
) -> None:
    clock, lost = Clock(), []
    first = instance(db, path, "a", clock, lost)
    await first.acquire()
    # Cut off for longer than the lease: another took it meanwhile (on the clock of the
    # moment, which a's keeper moves on as it renews).
    while await leases.take(other, LEADER, "b", now=clock.now + 20, ttl=15) is None:
        pass
    await until(lambda: bool(lost), clock)
    assert lost == ["a"] and not first.leading and not first.valid()
    await first.release()
    assert (await leases.current(other, LEADER)).holder == "b"


async def test_failing_renewals_hold_telegram_back_but_never_stop_the_leader(
    db: Database, path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database refuses every renewal for three leases' time: the leader goes on (its
    changes are fenced), is not sure of the lease once it may have run out (`valid`,
    `assured` wait), and is sure again at the first renewal that succeeds."""
    clock, lost = Clock(), []
    first = instance(db, path, "a", clock, lost)
    await first.acquire()
    renew = leases.renew
    refusing = True

    async def refused(*args: object, **kwargs: object) -> bool:
        if refusing:
            raise DatabaseBusy("the server is restarting")
        return await renew(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(leases, "renew", refused)
    await until(lambda: not first.valid(), clock)
    assured = asyncio.create_task(first.assured())
    await until(lambda: clock.now > 1045, clock)
    assert not assured.done() and first.leading and lost == []
    refusing = False
    await until(assured.done, clock)
    assert first.valid() and lost == [] and first.term == 1
    await first.release()


async def test_a_renewal_that_hangs_is_given_up_and_tried_again(
    db: Database, path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database that takes a renewal and never answers (the real clock, a lease of
    0.6 s): the keeper does not wait for it, tries again, and keeps the lease."""
    lost: list[str] = []
    leader = Leadership(
        db,
        "a",
        ttl=0.6,
        open_keeper_db=opener(path),
        thread=False,
        on_lost=lambda: lost.append("a"),
    )
    await leader.acquire()
    renew = leases.renew
    hangs_once = asyncio.Event()
    renewed_after = asyncio.Event()

    async def hanging(*args: object, **kwargs: object) -> bool:
        if not hangs_once.is_set():
            hangs_once.set()
            await asyncio.Event().wait()
        kept = await renew(*args, **kwargs)  # type: ignore[arg-type]
        renewed_after.set()
        return kept

    monkeypatch.setattr(leases, "renew", hanging)
    await renewed_after.wait()
    assert lost == [] and leader.leading
    await leader.release()


async def test_a_change_after_a_takeover_is_refused_and_stops_the_deposed_leader(
    db: Database, other: Database, path: Path
) -> None:
    clock, lost = Clock(), []
    first = instance(db, path, "a", clock, lost)
    await first.acquire()
    await db.execute("INSERT INTO bot_values (name, value) VALUES ('x', '1')")
    while await leases.take(other, LEADER, "b", now=clock.now + 20, ttl=15) is None:
        pass  # "a" was paused past its lease, "b" took over
    with pytest.raises(Deposed):
        await db.execute("INSERT INTO bot_values (name, value) VALUES ('y', '2')")
    assert lost == ["a"]
    assert [r["name"] for r in await db.fetch_all("SELECT name FROM bot_values")] == ["x"]
    await first.release()


async def test_the_keeper_renews_on_its_own_thread_while_the_bots_loop_is_blocked(
    db: Database, other: Database, path: Path
) -> None:
    """The bot's event loop is stuck for five leases (a long pickup on a busy machine):
    the keeper's thread renews all the same, so the lease never runs out; at the stop
    it is given back."""
    lost: list[str] = []
    leader = Leadership(
        db, "a", ttl=0.6, open_keeper_db=opener(path), on_lost=lambda: lost.append("a")
    )
    await leader.acquire()
    first = await leases.current(other, LEADER)
    assert first is not None
    began = time.monotonic()
    while time.monotonic() - began < 3.0:  # blocks the loop: no await
        time.sleep(0.05)
    held = await leases.current(other, LEADER)
    # Renewed during the block (several times on an idle machine; at least once on any).
    assert held is not None and (held.holder, held.term) == ("a", 1)
    assert held.expires_at > first.expires_at + 1.0
    assert lost == []
    await leader.release()
    assert (await leases.current(other, LEADER)).expires_at == 0


async def test_the_guard_takes_a_poll_ended_by_another_instances_as_a_takeover(
    db: Database, path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A long poll open across a pause is ended by the new leader's poll (409 Conflict):
    no updates and a WARNING, not aiogram's ERROR; any other call's conflict is raised."""
    clock, lost = Clock(), []
    first = instance(db, path, "a", clock, lost)
    await first.acquire()
    monkeypatch.setattr(leadership, "CONFLICT_PAUSE", 0.0)
    guard = LeaseGuard(first)
    poll = GetUpdates(timeout=30)
    conflict = TelegramConflictError(poll, "Conflict: terminated by other getUpdates request")

    async def ended(bot: object, method: TelegramMethod[Any]) -> Any:
        raise conflict

    with caplog.at_level(logging.WARNING, logger=leadership.__name__):
        assert await guard(ended, None, poll) == []
    assert "ended by another instance" in caplog.text
    send = SendMessage(chat_id=1, text="x")
    with pytest.raises(TelegramConflictError):
        await guard(ended, None, send)
    await first.release()
