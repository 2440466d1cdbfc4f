"""`LagGate`: background passes bounded by what the event loop can take (past the bot's
capacity the presses go first; docs/developers.md "Past capacity")."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.infra.lag_gate import LagGate


async def hold(gate: LagGate, release: asyncio.Event, order: list[int], n: int) -> None:
    async with gate:
        order.append(n)
        await release.wait()


async def test_waiters_get_their_places_in_the_order_they_came() -> None:
    gate = LagGate(2, least=1, every=60)
    release = asyncio.Event()
    order: list[int] = []
    tasks = [asyncio.create_task(hold(gate, release, order, n)) for n in range(5)]
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert order == [0, 1] and gate.taken == 2 and gate.waiting == 3
    release.set()
    await asyncio.gather(*tasks)
    assert order == [0, 1, 2, 3, 4]
    assert gate.taken == 0 and gate.waiting == 0
    gate.close()


async def test_a_late_loop_narrows_the_gate_and_a_prompt_one_widens_it_again() -> None:
    """The gate's timer fires late while the loop is blocked: a quarter of the places go
    each late look (never below `least`); once the loop keeps up they come back."""
    gate = LagGate(100, least=8, target=0.04, every=0.01)
    await gate.acquire()  # in use: the gate looks at the loop
    for _ in range(3):
        time.sleep(0.1)  # the loop blocked: the gate's timer fires late
        await asyncio.sleep(0.02)
    assert gate.narrowed >= 1
    assert 8 <= gate.places < 100
    narrowest = gate.places
    for _ in range(1000):  # the loop keeps up again (one prompt look is enough)
        await asyncio.sleep(0.01)
        if gate.places > narrowest:
            break
    assert gate.places > narrowest
    gate.release()
    gate.close()


async def test_a_narrowed_gate_holds_newcomers_until_places_free_up() -> None:
    gate = LagGate(10, least=2, every=60)
    gate.places = 2  # as a late loop left it
    release = asyncio.Event()
    order: list[int] = []
    tasks = [asyncio.create_task(hold(gate, release, order, n)) for n in range(4)]
    await asyncio.sleep(0)
    assert order == [0, 1] and gate.waiting == 2
    release.set()
    await asyncio.gather(*tasks)
    assert order == [0, 1, 2, 3]
    gate.close()


async def test_a_cancelled_waiter_passes_its_place_on() -> None:
    """A waiter cancelled (a dropped worker: `Resync.drop`) leaves the queue; one handed
    a place in the instant of its cancel gives it to the next."""
    gate = LagGate(1, least=1, every=60)
    await gate.acquire()
    first = asyncio.create_task(gate.acquire())
    second = asyncio.create_task(gate.acquire())
    await asyncio.sleep(0)
    assert gate.waiting == 2
    first.cancel()
    with pytest.raises(asyncio.CancelledError):
        await first
    gate.release()  # the place goes to `second`, not to the cancelled one
    await second
    assert gate.taken == 1

    third = asyncio.create_task(gate.acquire())
    await asyncio.sleep(0)
    gate.release()  # handed to `third` ...
    third.cancel()  # ... which is cancelled before it runs: the place is given back
    with pytest.raises(asyncio.CancelledError):
        await third
    assert gate.taken == 0 and gate.waiting == 0
    gate.close()


async def test_an_unused_gate_stops_looking_at_the_loop() -> None:
    gate = LagGate(4, least=1, every=0.01)
    async with gate:
        await asyncio.sleep(0.03)
    await asyncio.sleep(0.05)
    assert gate._look is None  # nothing in use: no timer keeps the loop busy


def test_a_gate_needs_room() -> None:
    with pytest.raises(ValueError):
        LagGate(4, least=5)
