"""Shards (storage.shards): a chat's shard in Python and in SQL, the instance registry,
the fair share, and the shards' leases taken, renewed and released in few round trips."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import leases, shards
from storage.connect import open_database
from storage.db import Database

TTL = 15.0
NOW = 1_800_000_000.0


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_database(tmp_path / "shards.sqlite3")
    yield database
    await database.close()


@pytest.fixture
async def other(tmp_path: Path, db: Database) -> AsyncIterator[Database]:
    """Another instance's connection to the same database."""
    database = await open_database(tmp_path / "shards.sqlite3", side=True)
    yield database
    await database.close()


CHATS = [0, 1, 15, 16, 17, 5_000_000_007, -1, -16, -17, -1001234567890, -1009876543211]


@pytest.mark.parametrize("count", [1, 3, 16])
def test_a_chat_s_shard_is_always_in_range(count: int) -> None:
    for chat_id in CHATS:
        assert 0 <= shards.shard_of(chat_id, count) < count
    assert shards.shard_of(-1, 16) == 15 and shards.shard_of(17, 16) == 1


async def test_the_sql_expression_gives_the_same_shard_as_python(db: Database) -> None:
    async with db.transaction() as tx:
        await tx.execute_many(
            "INSERT INTO update_queue (update_id, shard, chat_id, body, received_at) "
            "VALUES (?, 0, ?, '{}', 0)",
            [(n, chat_id) for n, chat_id in enumerate(CHATS)],
        )
    rows = await db.fetch_all(
        f"SELECT chat_id, {shards.shard_sql('chat_id', 16)} AS shard FROM update_queue"
    )
    assert {int(r["chat_id"]): int(r["shard"]) for r in rows} == {
        chat_id: shards.shard_of(chat_id, 16) for chat_id in CHATS
    }


def test_the_sql_expression_takes_only_a_positive_count() -> None:
    with pytest.raises(ValueError):
        shards.shard_sql("chat_id", 0)


def test_lease_names_round_trip() -> None:
    assert shards.lease_name(7) == "shard:7"
    assert shards.shard_of_lease("shard:7") == 7
    assert shards.shard_of_lease("leader") is None
    assert shards.shard_of_lease("shard:x") is None


@pytest.mark.parametrize(
    ("live", "count", "expected"),
    [
        (["a"], 16, {"a": 16}),
        (["b", "a"], 16, {"a": 8, "b": 8}),
        (["c", "a", "b"], 16, {"a": 6, "b": 5, "c": 5}),
        (["a", "b", "c", "d", "e"], 3, {"a": 1, "b": 1, "c": 1, "d": 0, "e": 0}),
    ],
)
def test_the_fair_share_splits_every_shard_by_sorted_names(
    live: list[str], count: int, expected: dict[str, int]
) -> None:
    got = {me: shards.fair_share(live, me, count) for me in live}
    assert got == expected and sum(got.values()) == count


def test_an_instance_not_live_has_no_share() -> None:
    assert shards.fair_share(["a", "b"], "z", 16) == 0
    assert shards.fair_share([], "a", 16) == 0


async def _instances(db: Database) -> dict[str, tuple[float, float]]:
    rows = await db.fetch_all("SELECT name, started_at, seen_at FROM instances")
    return {r["name"]: (float(r["started_at"]), float(r["seen_at"])) for r in rows}


async def test_heartbeats_keep_an_instance_live_until_it_stops_or_leaves(db: Database) -> None:
    await shards.heartbeat(db, "b", now=100.0)
    await shards.heartbeat(db, "a", now=101.0)
    await shards.heartbeat(db, "b", now=110.0)
    assert await _instances(db) == {"a": (101.0, 101.0), "b": (100.0, 110.0)}
    assert await shards.live_instances(db, now=112.0, ttl=TTL) == ["a", "b"]
    assert await shards.live_instances(db, now=117.0, ttl=TTL) == ["b"]  # a not seen since 101
    await shards.leave(db, "b")
    assert await shards.live_instances(db, now=117.0, ttl=TTL) == []
    assert await _instances(db) == {"a": (101.0, 101.0)}


async def test_shards_are_taken_renewed_and_listed(db: Database) -> None:
    assert await shards.take_shard(db, 0, "a", now=100.0, ttl=TTL) == 1
    assert await shards.take_shard(db, 3, "a", now=100.0, ttl=TTL) == 1
    assert await shards.take_shard(db, 3, "b", now=101.0, ttl=TTL) is None  # a's runs
    await leases.take(db, "leader", "c", now=100.0, ttl=TTL)  # not a shard
    await leases.take(db, "shard:20", "c", now=100.0, ttl=TTL)  # not among 16
    assert await shards.renew_shards(db, "a", {0: 1, 3: 1}, now=110.0, ttl=TTL) == {0, 3}
    assert await shards.holders(db, 16) == {
        0: leases.Lease("shard:0", "a", 125.0, 1),
        3: leases.Lease("shard:3", "a", 125.0, 1),
    }
    assert await shards.renew_shards(db, "a", {}, now=110.0, ttl=TTL) == set()


async def test_a_renewal_after_a_takeover_returns_the_shard_as_lost(
    db: Database, other: Database
) -> None:
    assert await shards.take_shard(db, 1, "a", now=100.0, ttl=TTL) == 1
    assert await shards.take_shard(db, 2, "a", now=100.0, ttl=TTL) == 1
    # "a" paused past its leases: "b" takes shard 2 (now run out) on its own connection.
    assert await shards.take_shard(other, 2, "b", now=116.0, ttl=TTL) == 2
    # Shard 1 is kept though run out (nobody took it); shard 2 is lost.
    assert await shards.renew_shards(db, "a", {1: 1, 2: 1}, now=120.0, ttl=TTL) == {1}
    held = await shards.holders(other, 16)
    assert held[1] == leases.Lease("shard:1", "a", 135.0, 1)
    assert held[2] == leases.Lease("shard:2", "b", 131.0, 2)  # b's renewal untouched


async def test_two_holders_racing_for_a_shard_only_one_gets_it(
    db: Database, other: Database
) -> None:
    for shard in range(8):
        got = await asyncio.gather(
            shards.take_shard(db, shard, "a", now=100.0, ttl=TTL),
            shards.take_shard(other, shard, "b", now=100.0, ttl=TTL),
        )
        assert sorted(got, key=lambda term: term is None) == [1, None]
    held = await shards.holders(db, 16)
    assert sorted(held) == list(range(8)) and {lease.term for lease in held.values()} == {1}


async def test_a_released_shard_is_taken_at_once_and_only_by_its_holder_s_term(
    db: Database, other: Database
) -> None:
    assert await shards.take_shard(db, 5, "a", now=100.0, ttl=TTL) == 1
    assert not await shards.release_shard(db, 5, "b", 1)
    assert not await shards.release_shard(db, 5, "a", 2)
    assert await shards.release_shard(db, 5, "a", 1)
    assert await shards.take_shard(other, 5, "b", now=101.0, ttl=TTL) == 2
    assert not await shards.release_shard(db, 5, "a", 1)  # b's now


async def test_a_clean_stop_releases_its_shards_in_one_go(db: Database, other: Database) -> None:
    for shard in (1, 2, 3):
        assert await shards.take_shard(db, shard, "a", now=100.0, ttl=TTL) == 1
    assert await shards.take_shard(other, 3, "b", now=116.0, ttl=TTL) == 2  # taken meanwhile
    assert await shards.release_shards(db, "a", {1: 1, 2: 1, 3: 1}) == {1, 2}
    assert await shards.release_shards(db, "a", {}) == set()
    held = await shards.holders(other, 16)
    assert held[1].expires_at == 0 and held[2].expires_at == 0
    assert held[3] == leases.Lease("shard:3", "b", 131.0, 2)


async def test_the_instance_lease_is_renewed_with_the_shards_and_evicted_once_run_out(
    db: Database, other: Database
) -> None:
    """An instance's own lease: taken in a new term at each start, renewed in the shards'
    statement, ended by another instance only once it ran out (and only once), and given
    back at a stop with the shards."""
    term = await shards.take_instance(db, "a", now=100.0, ttl=TTL)
    assert term == 1 and await shards.take_instance(db, "a", now=101.0, ttl=TTL) == 2
    shard_term = await shards.take_shard(db, 3, "a", now=101.0, ttl=TTL)
    assert shard_term is not None
    kept, mine = await shards.renew_held(db, "a", {3: shard_term}, 2, now=110.0, ttl=TTL)
    assert kept == {3} and mine
    assert await shards.renew_held(db, "a", {}, 2, now=111.0, ttl=TTL) == (set(), True)
    assert not await shards.evict_instance(other, "a", now=120.0)  # it runs till 126
    assert await shards.evict_instance(other, "a", now=130.0)
    assert not await shards.evict_instance(other, "a", now=131.0)  # once
    lease = await leases.current(db, shards.instance_lease_name("a"))
    assert lease is not None and lease.term == 3
    kept, mine = await shards.renew_held(db, "a", {3: shard_term}, 2, now=132.0, ttl=TTL)
    assert kept == {3} and not mine  # the shard nobody took is still its own
    assert not await shards.evict_instance(other, "nobody", now=130.0)


async def test_a_stop_releases_the_instance_lease_with_the_shards(db: Database) -> None:
    term = await shards.take_instance(db, "a", now=100.0, ttl=TTL)
    shard_term = await shards.take_shard(db, 0, "a", now=100.0, ttl=TTL)
    assert shard_term is not None
    assert await shards.release_shards(db, "a", {0: shard_term}, term) == {0}
    lease = await leases.current(db, shards.instance_lease_name("a"))
    assert lease is not None and lease.expires_at == 0
    assert not await shards.evict_instance(db, "a", now=200.0)  # given back: not evicted


async def test_a_press_s_chat_is_read_from_its_game_vote_or_tournament(db: Database) -> None:
    group, alice = -1001234567890, 5001
    async with db.transaction() as tx:
        await tx.execute(
            "INSERT INTO chats (id, type, updated_at) VALUES (?, 'supergroup', 'now')", (group,)
        )
        await tx.execute(
            "INSERT INTO users (id, first_name, updated_at) VALUES (?, 'A', 'now')", (alice,)
        )
        await tx.execute(
            "INSERT INTO games (id, chat_id, status, creator_id, ruleset, seats_wanted,"
            " created_at) VALUES (7, ?, 'playing', ?, '{}', 2, 'now')",
            (group, alice),
        )
        await tx.execute(
            "INSERT INTO cancel_votes (id, game_id, chat_id, started_by, opened_at, expires_at)"
            " VALUES (8, 7, ?, ?, 'now', 'later')",
            (group, alice),
        )
        await tx.execute(
            "INSERT INTO tournaments (id, chat_id, creator_id, options, created_at)"
            " VALUES (9, ?, ?, '{}', 'now')",
            (group, alice),
        )
    assert await shards.chat_named(db, "game", 7) == group
    assert await shards.chat_named(db, "vote", 8) == group
    assert await shards.chat_named(db, "tournament", 9) == group
    assert await shards.chat_named(db, "game", 8) is None


async def test_the_queue_by_shard_counts_and_ages_in_one_read(db: Database) -> None:
    assert await shards.queue_by_shard(db, now=100.0) == {}
    for update_id, shard, received in ((1, 2, 40.0), (2, 2, 70.0), (3, 5, 95.0)):
        await db.execute(
            "INSERT INTO update_queue (update_id, shard, chat_id, body, received_at)"
            " VALUES (?, ?, NULL, '{}', ?)",
            (update_id, shard, received),
        )
    assert await shards.queue_by_shard(db, now=100.0) == {2: (2, 60.0), 5: (1, 5.0)}


async def test_every_instance_must_split_the_groups_alike(db: Database) -> None:
    """SHARDS is stored by the first instance; another number is refused while another
    instance is live or a shard's lease runs, and taken once every instance stopped."""
    assert await shards.agree_on_count(db, 8, "a", now=NOW, ttl=TTL) == 0
    assert await shards.agree_on_count(db, 8, "b", now=NOW, ttl=TTL) == 8
    await shards.heartbeat(db, "a", now=NOW)
    with pytest.raises(shards.CountDisagrees, match=r"SHARDS=16.*SHARDS=8"):
        await shards.agree_on_count(db, 16, "z", now=NOW + 1, ttl=TTL)
    await shards.leave(db, "a")
    assert await shards.take_shard(db, 3, "a", now=NOW, ttl=TTL) is not None
    with pytest.raises(shards.CountDisagrees):  # a's lease on shard 3 still runs
        await shards.agree_on_count(db, 16, "z", now=NOW + 1, ttl=TTL)
    # Every instance stopped and every lease run out: the new number is taken.
    assert await shards.agree_on_count(db, 16, "z", now=NOW + 2 * TTL, ttl=TTL) == 8
    assert await shards.agree_on_count(db, 16, "y", now=NOW + 2 * TTL, ttl=TTL) == 16
