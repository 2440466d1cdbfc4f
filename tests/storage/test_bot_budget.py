"""The bot-wide budget's bucket in the database (storage/bot_budget.py): claims refill it
for the time passed, grant whole tokens only, never more than it holds, also when several
connections and instances claim at once; tokens given back serve the next claim."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import bot_budget, leases, update_queue
from storage.connect import open_database
from storage.db import Database, Deposed, Fence, acting_for

RATE = 25.0
BURST = 25
START = 1_700_000_000.0


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_database(tmp_path / "budget.sqlite3")
    yield database
    await database.close()


async def claim(db: Database, want: int, at: float, *, rate: float = RATE) -> int:
    return await bot_budget.claim(db, want, now=START + at, pace_rate=rate, burst=BURST)


async def test_a_new_bucket_is_full_and_grants_at_most_what_it_holds(db: Database) -> None:
    assert await bot_budget.level(db) is None
    assert await claim(db, 20, 0.0) == 20
    assert await claim(db, 10, 0.0) == 5
    assert await claim(db, 1, 0.0) == 0
    assert await bot_budget.level(db) == (0.0, START)


async def test_a_claim_refills_the_bucket_for_the_time_passed_up_to_the_burst(
    db: Database,
) -> None:
    assert await claim(db, BURST, 0.0) == BURST
    assert await claim(db, 10, 0.1) == 2  # 2.5 tokens refilled: whole ones only
    assert await claim(db, 10, 0.12) == 1  # the half left, and 0.5 more
    assert await claim(db, 100, 60.0) == BURST  # a minute refills the burst, no more
    assert await claim(db, 0, 60.0) == 0


async def test_a_clock_behind_the_last_claims_refills_nothing_and_keeps_its_moment(
    db: Database,
) -> None:
    assert await claim(db, BURST, 10.0) == BURST
    assert await claim(db, 5, 9.0) == 0  # another instance's clock, a second behind
    assert await bot_budget.level(db) == (0.0, START + 10.0)
    assert await claim(db, 5, 10.2) == 5  # the 0.2 s since the latest moment, counted once


async def test_tokens_given_back_serve_the_next_claim_but_never_beyond_the_burst(
    db: Database,
) -> None:
    assert await claim(db, 5, 0.0) == 5
    assert await claim(db, BURST, 0.0) == BURST - 5
    await bot_budget.give_back(db, 3, now=START, pace_rate=RATE, burst=BURST)
    assert await claim(db, 5, 0.0) == 3
    await bot_budget.give_back(db, 5, now=START + 0.96, pace_rate=RATE, burst=BURST)
    assert await bot_budget.level(db) == (BURST, START + 0.96)  # 24 refilled + 5: capped
    await bot_budget.give_back(db, 4, now=START + 2.0, pace_rate=RATE, burst=BURST)
    assert await claim(db, 100, 2.0) == BURST


async def test_buckets_of_other_names_are_apart(db: Database) -> None:
    assert await claim(db, BURST, 0.0) == BURST
    other = await bot_budget.claim(db, 3, now=START, pace_rate=1.0, burst=3, name="another")
    assert other == 3
    assert await claim(db, 1, 0.0) == 0


async def test_a_claim_made_while_an_update_is_handled_leaves_the_update_and_its_fence(
    db: Database,
) -> None:
    """The outgoing queue's workers run in the handler's context: a claim there must not
    consume the handler's update, nor be refused by a shard's fence it does not touch."""
    assert await update_queue.put(db, 41, 3, -100, "{}", now=START)
    term = await leases.take(db, "shard:3", "a", now=100.0, ttl=15)
    assert term == 1
    refusals: list[Deposed] = []
    assert await leases.take(db, "shard:3", "b", now=200.0, ttl=15) == 2  # taken over
    with acting_for(fence=Fence("shard:3", term, refusals.append), update_id=41) as scope:
        assert await claim(db, 2, 0.0) == 2
        await bot_budget.give_back(db, 1, now=START, pace_rate=RATE, burst=BURST)
    assert not scope.consumed and refusals == []
    row = await db.fetch_one("SELECT update_id FROM update_queue")
    assert row is not None and row["update_id"] == 41
    assert await bot_budget.level(db) == (BURST - 1, START)


async def test_claims_racing_on_several_connections_never_take_more_than_the_bucket(
    tmp_path: Path,
) -> None:
    """Three instances (on PostgreSQL each a pool of connections) claim at once, many
    claims each, at moments spread over a second: together they get exactly the burst
    and what refilled up to the latest moment, never more."""
    path = tmp_path / "race.sqlite3"
    instances = [await open_database(path) for _ in range(3)]
    try:
        rate = 10.0
        moments = [0.5 * k / 60 for k in range(60)]  # up to START + 0.49

        async def claims_of(db: Database, offset: int) -> list[int]:
            return list(
                await asyncio.gather(
                    *(
                        claim(db, 3, moments[(offset + k) % len(moments)], rate=rate)
                        for k in range(20)
                    )
                )
            )

        granted = await asyncio.gather(*(claims_of(db, 20 * i) for i, db in enumerate(instances)))
        total = sum(sum(grants) for grants in granted)
        stored = await bot_budget.level(instances[0])
        assert stored is not None
        tokens, at = stored
        # Every grant came out of the bucket: what is left and what was granted add up to
        # the burst and the refill until the latest moment a claim saw, and no more.
        assert at <= START + max(moments)
        assert total + tokens <= BURST + (at - START) * rate + 1e-6
        assert total >= BURST  # the first claims found the bucket full
    finally:
        for db in instances:
            await db.close()


async def test_claims_racing_at_one_moment_grant_exactly_the_burst(tmp_path: Path) -> None:
    path = tmp_path / "race.sqlite3"
    instances = [await open_database(path) for _ in range(3)]
    try:
        grants = await asyncio.gather(*(claim(db, 2, 0.0) for db in instances for _ in range(15)))
        # One after the other: twelve claims get two, the next the last one, the rest none.
        assert sorted(grants) == [0] * 32 + [1] + [2] * 12
    finally:
        for db in instances:
            await db.close()
