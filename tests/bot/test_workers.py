"""The keyed workers of the publisher, the announcer and the vote board (bot/infra/workers.py):
marks coalesce, a key is synced by one worker at a time, the database's refusals and the
sync's own retries are tried again after a pause."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from bot.infra import workers
from bot.infra.workers import Resync


class Recorder:
    """A sync that records each key it is called with and waits for `gate` meanwhile."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.gate = asyncio.Event()
        self.gate.set()
        self.failures: list[Exception] = []

    async def __call__(self, key: str) -> None:
        self.calls.append(key)
        await self.gate.wait()
        if self.failures:
            raise self.failures.pop(0)


def locked() -> sqlite3.OperationalError:
    error = sqlite3.OperationalError("database is locked")
    error.sqlite_errorcode = 5  # SQLITE_BUSY
    return error


async def test_marks_that_come_while_a_pass_runs_make_one_more_pass() -> None:
    sync = Recorder()
    sync.gate.clear()
    resync: Resync[str] = Resync(sync, describe=str)
    resync.mark("a")
    resync.mark("b")
    await asyncio.sleep(0)  # both passes started and wait at the gate
    for _ in range(5):
        resync.mark("a")
    assert resync.busy("a") and resync.busy("b")
    sync.gate.set()
    await resync.idle()
    assert sorted(sync.calls) == ["a", "a", "b"]
    assert not resync.busy("a") and not resync.busy("b")


async def test_marks_that_come_while_it_paces_need_no_pass_of_their_own() -> None:
    sync = Recorder()
    go = asyncio.Event()

    async def pace(key: str) -> None:
        await go.wait()

    resync: Resync[str] = Resync(sync, describe=str, pace=pace)
    resync.mark("table")
    await asyncio.sleep(0)
    resync.mark("table")
    go.set()
    await resync.idle()
    assert sync.calls == ["table"]


async def test_a_locked_database_is_waited_for_and_the_pass_tried_again(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(workers, "DATABASE_PAUSE", 0)
    sync = Recorder()
    sync.failures.append(locked())
    settled: list[str] = []
    resync: Resync[str] = Resync(
        sync, describe="vote {}: its message".format, settled=settled.append
    )
    resync.mark("7")
    await resync.idle()
    assert sync.calls == ["7", "7"]
    assert settled == ["7"]
    assert "vote 7: its message waits for the database: database is locked" in caplog.text


async def test_a_failure_that_is_not_the_databases_is_logged_and_not_retried(
    caplog: pytest.LogCaptureFixture,
) -> None:
    sync = Recorder()
    sync.failures.append(ValueError("no such tile"))
    resync: Resync[str] = Resync(sync, describe=lambda _: "the outbox")
    resync.mark("outbox")
    await resync.idle()
    assert sync.calls == ["outbox"]
    assert "the outbox could not be brought up to date" in caplog.text


async def test_the_sync_may_ask_to_be_run_again_after_a_pause() -> None:
    calls: list[str] = []
    slept: list[float] = []
    resync: Resync[str]

    async def sync(key: str) -> None:
        calls.append(key)
        if len(calls) == 1:
            resync.again(key, after=0.01)
            slept.append(asyncio.get_running_loop().time())

    resync = Resync(sync, describe=str)
    resync.mark("hand")
    await resync.idle()
    assert calls == ["hand", "hand"]
    assert asyncio.get_running_loop().time() - slept[0] >= 0.01


async def test_a_gate_bounds_the_passes_at_once_and_marks_waiting_for_it_make_one_pass() -> None:
    sync = Recorder()
    sync.gate.clear()
    gate = asyncio.Semaphore(2)
    hands: Resync[str] = Resync(sync, describe=str, gate=gate)
    tables: Resync[str] = Resync(sync, describe=str, gate=gate)  # the gate is shared
    for key in ("a", "b", "c"):
        hands.mark(key)
    tables.mark("t")
    for _ in range(20):
        await asyncio.sleep(0)
    assert sorted(sync.calls) == ["a", "b"]  # two places: c and t wait for one
    for _ in range(5):  # an overloaded bot: the hand of c changes again and again
        hands.mark("c")
    sync.gate.set()
    await asyncio.gather(hands.idle(), tables.idle())
    assert sorted(sync.calls) == ["a", "b", "c", "t"]  # c's six marks: one pass


async def test_a_key_dropped_while_it_waits_for_the_gate_makes_no_pass() -> None:
    sync = Recorder()
    sync.gate.clear()
    gate = asyncio.Semaphore(1)
    resync: Resync[str] = Resync(sync, describe=str, gate=gate)
    resync.mark("a")
    resync.mark("b")
    for _ in range(5):
        await asyncio.sleep(0)
    dropping = asyncio.create_task(resync.drop(lambda key: key == "b"))
    await asyncio.sleep(0)
    sync.gate.set()
    await dropping
    await resync.idle()
    assert sync.calls == ["a"]


async def test_keys_the_gate_does_not_pick_pass_at_once() -> None:
    sync = Recorder()
    sync.gate.clear()
    gate = asyncio.Semaphore(1)
    resync: Resync[str] = Resync(
        sync, describe=str, gate=gate, gated=lambda key: key.startswith("hand")
    )
    for key in ("hand 1", "hand 2", "table"):
        resync.mark(key)
    for _ in range(20):
        await asyncio.sleep(0)
    assert sorted(sync.calls) == ["hand 1", "table"]  # the table's group pacing holds no place
    sync.gate.set()
    await resync.idle()
    assert sorted(sync.calls) == ["hand 1", "hand 2", "table"]
