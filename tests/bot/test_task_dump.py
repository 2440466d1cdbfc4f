"""Where the bot's tasks wait (bot/infra/task_dump.py): the chain of awaits, not a value."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.infra import task_dump


async def _inner(gate: asyncio.Event, secret: str) -> None:
    await gate.wait()


async def _outer(gate: asyncio.Event) -> None:
    await _inner(gate, secret="6:6 5:5")


async def test_a_waiting_task_shows_its_whole_chain_of_awaits() -> None:
    gate = asyncio.Event()
    task = asyncio.create_task(_outer(gate), name="waiter")
    await asyncio.sleep(0)
    chain = list(task_dump.awaits(task))
    names = [frame.split(" ")[0] for frame in chain]
    assert names[:3] == ["_outer", "_inner", "wait"]
    assert chain[-1].startswith("<Future")  # a future (its C iterator)
    assert "test_task_dump.py:" in chain[0]
    gate.set()
    await task
    assert list(task_dump.awaits(task)) == []  # finished: nowhere


async def test_the_log_names_every_task_and_no_value(caplog: pytest.LogCaptureFixture) -> None:
    gate = asyncio.Event()
    task = asyncio.create_task(_outer(gate), name="waiter")
    await asyncio.sleep(0)
    with caplog.at_level(logging.WARNING, logger=task_dump.__name__):
        task_dump.log_tasks()
    gate.set()
    await task
    lines = [record.getMessage() for record in caplog.records]
    count = int(lines[0].removeprefix(task_dump.LINE_PREFIX))
    assert count == len(lines) - 1 >= 2  # this test's own task and the waiter
    assert any(line.startswith("task waiter: _outer (") for line in lines)
    assert not any("6:6" in line for line in lines)
