"""Shards: every instance of the bot plays the games of its own share of the chats.

A game belongs to the shard of its chat, `shard_of(chat_id, count)`: the chat's id
modulo the shard count (Python's `%`, so 0..count-1 for negative group ids too; in SQL
`shard_sql`). Each shard is a lease named "shard:<n>" in `leases`, with the semantics of
`storage.leases`: taken when free, run out or the holder's own, each take a new term,
renewed only in its term; the term fences the changes written for that shard's games.

Who is alive is the table `instances`: each instance writes its `heartbeat` every few
seconds; one not seen for a lease's time is gone (`live_instances`). The live instances
share the shards by `fair_share`, a function of their sorted names alone, so each of
them computes the same split without asking the others.

Besides its shards, each instance holds a lease of its own, "instance:<name>"
(`instance_lease_name`): its term fences every change the instance writes outside a
shard's scope (the instance's `Database.fence`). It is renewed with the shards in the
same statement (`renew_held`). An instance that takes a shard whose holder's lease ran
out also ends that holder's instance term if its lease ran out too (`evict_instance`),
so a holder that stalled and resumes is refused its very next change of any kind.

The keeper that holds an instance's share is `bot.server.shards.ShardKeeper`; this
module is its SQL, a few round trips a renewal whatever the number of shards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from storage import leases
from storage.db import Database, DatabaseUnusable, Transaction

DEFAULT_SHARD_COUNT = 16
LEASE_PREFIX = "shard:"
INSTANCE_PREFIX = "instance:"


def shard_of(chat_id: int, count: int) -> int:
    """The shard of the chat `chat_id` among `count`: always in 0..count-1 (Python's
    `%` takes the divisor's sign)."""
    return chat_id % count


def shard_sql(column: str, count: int) -> str:
    """The SQL expression of `shard_of` for the chat id in `column`: SQLite's and
    PostgreSQL's `%` take the dividend's sign, hence the second modulo. `count` is
    written into the text (an int, checked), so that an index or trigger can use it."""
    if not isinstance(count, int) or count < 1:
        raise ValueError(f"a shard count is a positive int, not {count!r}")
    return f"((({column}) % {count}) + {count}) % {count}"


def lease_name(shard: int) -> str:
    """The name of the shard's lease in `leases`."""
    return f"{LEASE_PREFIX}{shard}"


def instance_lease_name(instance: str) -> str:
    """The name of the instance's own lease in `leases` (its fence outside the shards)."""
    return f"{INSTANCE_PREFIX}{instance}"


def shard_of_lease(name: str) -> int | None:
    """The shard a lease's name stands for, None for any other lease ("leader")."""
    if not name.startswith(LEASE_PREFIX):
        return None
    number = name[len(LEASE_PREFIX) :]
    return int(number) if number.isdigit() else None


# The instance registry.


async def heartbeat(db: Database, name: str, *, now: float) -> None:
    """Note that the instance `name` is alive at `now`; its `started_at` is that of its
    first heartbeat since it last left."""
    await db.execute(
        """
        INSERT INTO instances (name, started_at, seen_at) VALUES (?, ?, ?)
        ON CONFLICT (name) DO UPDATE SET seen_at = excluded.seen_at
        """,
        (name, now, now),
    )


async def live_instances(db: Database, *, now: float, ttl: float) -> list[str]:
    """The instances seen within the last `ttl` seconds, sorted by name (in Python, not
    by the database's collation: every instance must sort them alike)."""
    rows = await db.fetch_all("SELECT name FROM instances WHERE seen_at >= ?", (now - ttl,))
    return sorted(str(row["name"]) for row in rows)


async def leave(db: Database, name: str) -> None:
    """At a clean stop: the instance is gone at once, not a lease's time later."""
    await db.execute("DELETE FROM instances WHERE name = ?", (name,))


def fair_share(live: Sequence[str], me: str, count: int) -> int:
    """How many of `count` shards the instance `me` should hold among the `live` ones:
    by their sorted names, the first `count % L` get one more than `count // L`. 0 when
    `me` is not live."""
    names = sorted(set(live))
    if me not in names:
        return 0
    place = names.index(me)
    return count // len(names) + (1 if place < count % len(names) else 0)


# The shards' leases.


async def holders(db: Database, count: int) -> dict[int, leases.Lease]:
    """Every shard's lease as stored (running or not), of shards 0..count-1; a shard
    never taken has none."""
    rows = await db.fetch_all(
        "SELECT name, holder, expires_at, term FROM leases WHERE name LIKE ?",
        (f"{LEASE_PREFIX}%",),
    )
    found: dict[int, leases.Lease] = {}
    for row in rows:
        shard = shard_of_lease(str(row["name"]))
        if shard is not None and shard < count:
            found[shard] = leases.Lease(
                str(row["name"]), str(row["holder"]), float(row["expires_at"]), int(row["term"])
            )
    return found


def released(lease: leases.Lease) -> bool:
    """Whether the lease was given back by its holder (`storage.leases.release` ends it
    at 0), rather than left to run out."""
    return lease.expires_at <= 0


async def take_shard(
    db: Database, shard: int, holder: str, *, now: float, ttl: float
) -> int | None:
    """Take the shard's lease (free, run out, or `holder`'s own): its new term; None
    while another holder's runs (`storage.leases.take`)."""
    return await leases.take(db, lease_name(shard), holder, now=now, ttl=ttl)


def _pairs_sql(terms: Mapping[int, int]) -> tuple[str, list[object]]:
    """A condition matching the leases of `terms` (shard → term), with its parameters."""
    condition = " OR ".join(["(name = ? AND term = ?)"] * len(terms))
    params: list[object] = []
    for shard, term in sorted(terms.items()):
        params += [lease_name(shard), term]
    return condition, params


async def renew_shards(
    db: Database, holder: str, terms: Mapping[int, int], *, now: float, ttl: float
) -> set[int]:
    """Hold each shard of `terms` (shard → term) until `now + ttl`, in one statement: the
    shards `holder` still holds in their terms (even run out: nobody took them). A shard
    missing from the answer was taken by another term."""
    kept, _ = await renew_held(db, holder, terms, None, now=now, ttl=ttl)
    return kept


async def renew_held(
    db: Database,
    holder: str,
    terms: Mapping[int, int],
    instance_term: int | None,
    *,
    now: float,
    ttl: float,
) -> tuple[set[int], bool]:
    """`renew_shards` and, in the same statement, the holder's own lease
    "instance:<holder>" in `instance_term` (None: not renewed): the shards kept, and
    whether the instance's lease was (False also when it was not asked for)."""
    if not terms and instance_term is None:
        return set(), False
    condition, params = _pairs_sql(terms) if terms else ("", [])
    if instance_term is not None:
        mine = "(name = ? AND term = ?)"
        condition = f"{condition} OR {mine}" if condition else mine
        params = [*params, instance_lease_name(holder), instance_term]

    async def body(tx: Transaction) -> tuple[set[int], bool]:
        rows = await tx.fetch_all(
            f"UPDATE leases SET expires_at = ? WHERE holder = ? AND ({condition}) RETURNING name",
            [now + ttl, holder, *params],
        )
        names = {str(row["name"]) for row in rows}
        kept = {shard for name in names if (shard := shard_of_lease(name)) is not None}
        return kept, instance_lease_name(holder) in names

    return await db.atomic(body)


async def take_instance(db: Database, name: str, *, now: float, ttl: float) -> int:
    """Take the instance's own lease at its start, in a new term (its name holds it: a
    restart of the same name takes it back at once). Its term is the instance's fence."""
    term = await leases.take(db, instance_lease_name(name), name, now=now, ttl=ttl)
    assert term is not None, "a name's own lease is always its to take"
    return term


async def evict_instance(db: Database, name: str, *, now: float) -> bool:
    """End the instance `name`'s term when its own lease ran out (a new term, nobody's
    running): the instance, should it resume, is refused its next change of any kind
    (its fence). Its lease is ended too (as if released), so it is evicted once. False
    when its lease still runs, was released or evicted already, or never was."""
    changed = await db.execute(
        "UPDATE leases SET term = term + 1, expires_at = 0"
        " WHERE name = ? AND expires_at < ? AND expires_at > 0",
        (instance_lease_name(name), now),
    )
    return changed == 1


async def release_shard(db: Database, shard: int, holder: str, term: int) -> bool:
    """End `holder`'s lease of the shard in `term` now, so another instance takes it at
    once; False if it was not theirs (any more)."""
    return await leases.release(db, lease_name(shard), holder, term)


async def release_shards(
    db: Database, holder: str, terms: Mapping[int, int], instance_term: int | None = None
) -> set[int]:
    """`release_shard` for each shard of `terms` (shard → term), in one statement (a
    clean stop), with the holder's own lease in `instance_term` if given: the shards
    given back."""
    if not terms and instance_term is None:
        return set()
    condition, params = _pairs_sql(terms) if terms else ("", [])
    if instance_term is not None:
        mine = "(name = ? AND term = ?)"
        condition = f"{condition} OR {mine}" if condition else mine
        params = [*params, instance_lease_name(holder), instance_term]

    async def body(tx: Transaction) -> set[int]:
        rows = await tx.fetch_all(
            f"UPDATE leases SET expires_at = 0 WHERE holder = ? AND ({condition}) RETURNING name",
            [holder, *params],
        )
        return {shard for row in rows if (shard := shard_of_lease(str(row["name"]))) is not None}

    return await db.atomic(body)


# Routing an update to the shard of the chat it acts on.

_CHAT_OF = {
    "game": "SELECT chat_id FROM games WHERE id = ?",
    "vote": "SELECT chat_id FROM cancel_votes WHERE id = ?",
    "tournament": "SELECT chat_id FROM tournaments WHERE id = ?",
}


async def chat_named(db: Database, kind: str, number: int) -> int | None:
    """The chat of the game, vote or tournament (`kind`) numbered `number`: a press in a
    private chat acts on it, so it goes to its chat's shard. None when there is none."""
    row = await db.fetch_one(_CHAT_OF[kind], (number,))
    return None if row is None else int(row["chat_id"])


async def queue_by_shard(db: Database, *, now: float) -> dict[int, tuple[int, float]]:
    """The updates waiting by shard, with how long the oldest has waited at `now`
    (seconds), in one statement (for /metrics); shards with none are absent."""
    rows = await db.fetch_all(
        "SELECT shard, COUNT(*) AS n, MIN(received_at) AS oldest FROM update_queue GROUP BY shard"
    )
    return {
        int(row["shard"]): (int(row["n"]), max(0.0, now - float(row["oldest"]))) for row in rows
    }


# The deployment's number of shards, as the instances running agreed on it (`bot_values`).
COUNT_KEY = "shard_count"


class CountDisagrees(DatabaseUnusable):
    """This instance's `SHARDS` is not the number the instances running use."""


async def agree_on_count(db: Database, count: int, name: str, *, now: float, ttl: float) -> int:
    """Store `count` as the deployment's number of shards, or check it against the number
    stored: an instance with another number would take shards of its own numbering beside
    the others' (two instances could then play one group, and shards would be left
    unplayed). The number may change only while no other instance is live and no shard's
    lease runs (every instance stopped, as docs/instances.md says). Raises
    `CountDisagrees` (one line for the admin); returns the number stored before, if any
    other (0 when this is the first)."""
    async with db.transaction() as tx:
        lock = " FOR UPDATE" if db.dialect == "postgres" else ""
        row = await tx.fetch_one(f"SELECT value FROM bot_values WHERE name = ?{lock}", (COUNT_KEY,))
        stored = None if row is None else int(row["value"])
        if stored == count:
            return count
        if stored is not None:
            others = await tx.fetch_one(
                "SELECT count(*) AS n FROM instances WHERE seen_at >= ? AND name <> ?",
                (now - ttl, name),
            )
            held = await tx.fetch_one(
                "SELECT count(*) AS n FROM leases WHERE name LIKE 'shard:%' AND expires_at >= ?",
                (now,),
            )
            if int(others["n"] if others else 0) or int(held["n"] if held else 0):
                raise CountDisagrees(
                    f"SHARDS={count}, but the instances running on this database use "
                    f"SHARDS={stored}: every instance needs the same number (to change it, "
                    "stop them all first)"
                )
        await tx.execute(
            "INSERT INTO bot_values (name, value) VALUES (?, ?)"
            " ON CONFLICT (name) DO UPDATE SET value = excluded.value",
            (COUNT_KEY, str(count)),
        )
    return stored or 0
