"""Helpers of the shard mode's proof (tests/e2e/test_shards_e2e.py): instances in shard
mode, who holds which shard, and the audit of every committed row's writer.

`ShardInstance` is a `BotProcess` in shard mode: up once its heartbeat is in `instances`
(only the holder of shard 0 long-polls, so a long poll cannot say that every instance is
up). `install_shard_audit` puts a deferred trigger on each table a game's change writes,
which records at COMMIT the writer (the connection's `application_name`, "domino-bot
<INSTANCE_NAME>", storage/connect.py) beside the holder of the row's shard lease at that
moment; `wrong_writers` lists the rows committed by anyone else.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import asyncpg

from tests.databases import url_for
from tests.e2e.harness import START_SECONDS, BotProcess
from tests.e2e.zygote import ZygoteProcess
from tests.fakegram import FakeTelegram
from tests.fakegram.waiting import Deadline, Watch

WRITER_PREFIX = "domino-bot "  # the bot's application_name before its instance's name
# A start that keeps busy (its keeper's thread uses CPU) but never writes a heartbeat is
# not in shard mode: it fails after this many windows of `START_SECONDS`, not at the net.
START_CAP_WINDOWS = 5
Instance = TypeVar("Instance", bound="ShardInstance")


class ShardInstance(BotProcess):
    """`python -m bot` with `SHARDS` and `INSTANCE_NAME`: `start` returns once the new
    process has written its heartbeat (`storage.shards.heartbeat`), whether or not it
    holds shard 0 and polls; the keeper takes its fair share from then on."""

    @property
    def name(self) -> str:
        return self.env["INSTANCE_NAME"]

    async def start(self, *, standby: bool = False) -> None:
        """Start the process and wait for its heartbeat; `standby` is accepted for the
        callers of `BotProcess.start` (a supervisor's restart) and means nothing here:
        in shard mode every instance plays."""
        launched = time.time()
        process, _ = await self.launch()
        url = self.env["DATABASE_URL"]
        await self.wait_started(
            process,
            f"{self.name} did not start (no heartbeat in `instances`)",
            lambda: seen_since(url, self.name, launched),
        )

    async def wait_started(
        self,
        process: asyncio.subprocess.Process | ZygoteProcess,
        what: str,
        started: Callable[[], Awaitable[bool]],
    ) -> None:
        """Wait until `started()` or the process exits (a failure), for as long as it
        shows signs of life (a start that keeps busy but never starts fails after
        `START_CAP_WINDOWS`)."""
        watch = Watch(
            self.signs_of_life,
            window=START_SECONDS,
            what=what,
            last=lambda: self.log()[-1500:],
            cap=START_CAP_WINDOWS,
        )
        try:
            while process.returncode is None and not await started():
                watch.check()
                await asyncio.sleep(0.2)
        finally:
            self._down(False)
        assert process.returncode is None, f"{self.name} exited at start:\n{self.log()}"


def shard_instance(
    kind: type[Instance], fake: FakeTelegram, folder: Path, name: str, database: Path, **env: str
) -> Instance:
    """A `kind` of instance named `name` of the bot on `database`, its files in
    `folder`/`name`; `env` says the rest (`SHARDS`, `LEASE_SECONDS`, ...)."""
    (folder / name).mkdir(exist_ok=True)
    return kind(fake, folder / name, DATABASE_PATH=str(database), INSTANCE_NAME=name, **env)


async def seen_since(url: str, name: str, since: float) -> bool:
    """Whether the instance `name` wrote a heartbeat at or after `since` (unix seconds);
    False while the table is not there yet (the first start migrates)."""
    conn = await asyncpg.connect(url)
    try:
        seen = await conn.fetchval("SELECT seen_at FROM instances WHERE name = $1", name)
    except asyncpg.UndefinedTableError:
        return False
    finally:
        await conn.close()
    return seen is not None and float(seen) >= since - 1.0


@dataclass(frozen=True)
class ShardLease:
    """A shard's lease as stored: its holder, its term, and whether it runs now."""

    holder: str
    term: int
    running: bool


async def shard_leases(url: str, count: int) -> dict[int, ShardLease]:
    """Each shard's lease "shard:<n>" (0..count-1) that was ever taken."""
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch(
            "SELECT name, holder, term, expires_at FROM leases WHERE name LIKE 'shard:%'"
        )
    finally:
        await conn.close()
    now = time.time()
    found = {}
    for row in rows:
        shard = int(row["name"].split(":", 1)[1])
        if shard < count:
            found[shard] = ShardLease(row["holder"], int(row["term"]), row["expires_at"] > now)
    return found


def held_by(leases: dict[int, ShardLease]) -> Counter[str]:
    """How many running shard leases each instance holds."""
    return Counter(lease.holder for lease in leases.values() if lease.running)


def fairly_shared(leases: dict[int, ShardLease], live: list[str], count: int) -> bool:
    """Whether every shard runs, held by one of `live`, each of them holding its fair
    share (`storage.shards.fair_share`: by sorted names, the first `count % len` one
    more)."""
    names = sorted(live)
    wanted = {
        name: count // len(names) + (1 if place < count % len(names) else 0)
        for place, name in enumerate(names)
    }
    held = held_by(leases)
    return (
        len(leases) == count
        and all(lease.running for lease in leases.values())
        and (dict(held) == wanted)
    )


async def wait_shared(
    fake: FakeTelegram, url: str, live: list[str], count: int, *, seconds: float
) -> None:
    """Wait until the `live` instances hold the shards fairly, `seconds` at most,
    stretched by the machine's pace (a deadline: taking and giving back are on the
    keepers' clocks, a few lease times)."""
    deadline = Deadline(seconds)
    leases = await shard_leases(url, count)
    while not fairly_shared(leases, live, count):
        if deadline.passed():
            raise AssertionError(
                f"the shards are not shared fairly by {live} in {deadline}: "
                f"{dict(held_by(leases))}; {leases}"
            )
        await asyncio.sleep(0.25)
        leases = await shard_leases(url, count)


async def install_shard_audit(database: Path, count: int) -> str:
    """A deferred trigger on `games` and every table with a `game_id` column that
    records, at each COMMIT of a row, the row's chat and shard (`count` shards), the
    writer and the shard lease's holder and term at that moment. The schema's URL.

    At COMMIT, after the shard fence's check (which holds the lease's row until then):
    so the holder recorded is the one the change committed under."""
    url = await url_for(database)
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(
            f"""
            CREATE TABLE audit_writes (
                id BIGSERIAL PRIMARY KEY, tbl TEXT, chat_id BIGINT, shard INTEGER,
                writer TEXT, holder TEXT, term BIGINT, at DOUBLE PRECISION);
            CREATE FUNCTION audit_write() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE
                written JSONB;
                chat BIGINT;
                part INTEGER;
            BEGIN
                IF TG_OP = 'DELETE' THEN written := to_jsonb(OLD);
                ELSE written := to_jsonb(NEW);
                END IF;
                -- A hand's message row names the private chat: its game names the group.
                IF TG_TABLE_NAME <> 'games' AND written ->> 'game_id' IS NOT NULL THEN
                    SELECT g.chat_id INTO chat FROM games g
                    WHERE g.id = (written ->> 'game_id')::BIGINT;
                END IF;
                IF chat IS NULL THEN
                    chat := (written ->> 'chat_id')::BIGINT;
                END IF;
                IF chat IS NULL THEN
                    RETURN NULL;
                END IF;
                part := ((chat % {count}) + {count}) % {count};
                INSERT INTO audit_writes (tbl, chat_id, shard, writer, holder, term, at)
                SELECT TG_TABLE_NAME, chat, part, current_setting('application_name'),
                       l.holder, l.term, extract(epoch FROM clock_timestamp())
                FROM (SELECT 1) AS one
                LEFT JOIN leases l ON l.name = 'shard:' || part;
                RETURN NULL;
            END $$;
            """
        )
        tables = await conn.fetch(
            "SELECT DISTINCT table_name FROM information_schema.columns"
            " WHERE table_schema = current_schema()"
            " AND (column_name = 'game_id' OR table_name = 'games')"
        )
        for row in tables:
            await conn.execute(
                f"CREATE CONSTRAINT TRIGGER audit_{row['table_name']}"
                f" AFTER INSERT OR UPDATE OR DELETE ON {row['table_name']}"
                " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION audit_write()"
            )
    finally:
        await conn.close()
    return url


@dataclass(frozen=True)
class WriteAudit:
    """What the audit recorded: rows committed by an instance that did not hold the
    row's shard at COMMIT (`wrong`), and the rows committed by each writer."""

    wrong: list[dict[str, object]]
    by_writer: dict[str, int]


async def audited_writes(url: str) -> WriteAudit:
    conn = await asyncpg.connect(url)
    try:
        wrong = await conn.fetch(
            "SELECT tbl, chat_id, shard, writer, holder, term, at FROM audit_writes"
            f" WHERE writer IS DISTINCT FROM '{WRITER_PREFIX}' || holder ORDER BY id"
        )
        counted = await conn.fetch(
            "SELECT writer, COUNT(*) AS n FROM audit_writes GROUP BY writer ORDER BY writer"
        )
    finally:
        await conn.close()
    return WriteAudit(
        [dict(row) for row in wrong], {row["writer"]: int(row["n"]) for row in counted}
    )
