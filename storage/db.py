"""One SQLite database through one aiosqlite connection (STYLE 9).

WAL journal, `foreign_keys=ON`, and one way to change data: `async with
db.transaction() as tx:` runs `BEGIN IMMEDIATE` ... `COMMIT` (or `ROLLBACK` on any
exception), so a writer never waits half-way through and two writers never
interleave. Transactions are serialised by an asyncio lock as well: the connection
is shared by every task of the bot.

Migrations are numbered SQL files in `storage/migrations/` (`001_initial.sql`, ...).
Each runs in its own transaction together with `PRAGMA user_version = N`, so the
schema version and the schema can never disagree (mopidy-local does the same).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import aiosqlite

MIGRATION_NAME = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


def bundled_migrations() -> tuple[Migration, ...]:
    """The migrations shipped in `storage/migrations/`, in version order."""
    found = []
    for entry in resources.files("storage.migrations").iterdir():
        match = MIGRATION_NAME.match(entry.name)
        if match:
            found.append(Migration(int(match.group(1)), entry.name, entry.read_text("utf-8")))
    found.sort(key=lambda m: m.version)
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise RuntimeError(f"migration {migration.name} breaks the numbering at {expected}")
    return tuple(found)


class Transaction:
    """The handle inside `Database.transaction()`: execute statements, read rows."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Run one statement; return the number of rows it changed."""
        cursor = await self._conn.execute(sql, tuple(params))
        changed = cursor.rowcount
        await cursor.close()
        return changed

    async def execute_many(self, sql: str, rows: Iterable[Iterable[Any]]) -> None:
        """Run one statement for each row of parameters, in one call to SQLite."""
        cursor = await self._conn.executemany(sql, [tuple(row) for row in rows])
        await cursor.close()

    async def insert(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Run an INSERT; return the new row's id."""
        cursor = await self._conn.execute(sql, tuple(params))
        row_id = cursor.lastrowid
        await cursor.close()
        if row_id is None:
            raise RuntimeError("INSERT produced no row id")
        return row_id

    async def fetch_one(self, sql: str, params: Iterable[Any] = ()) -> aiosqlite.Row | None:
        cursor = await self._conn.execute(sql, tuple(params))
        row = await cursor.fetchone()
        await cursor.close()
        return row

    async def fetch_all(self, sql: str, params: Iterable[Any] = ()) -> list[aiosqlite.Row]:
        cursor = await self._conn.execute(sql, tuple(params))
        rows = await cursor.fetchall()
        await cursor.close()
        return list(rows)


class Database:
    """The bot's database. Open it with `await Database.open(path)`."""

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self._conn = conn
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[object] | None = None  # the task inside transaction()
        self.path = path

    @classmethod
    async def open(
        cls, path: str | Path, migrations: Iterable[Migration] | None = None
    ) -> Database:
        """Open (creating if needed) the database at `path` and migrate it to the newest schema."""
        location = str(path)
        if location != ":memory:":
            Path(location).parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: we issue BEGIN/COMMIT ourselves.
        conn = await aiosqlite.connect(location, isolation_level=None)
        conn.row_factory = aiosqlite.Row
        await conn.execute("PRAGMA journal_mode=WAL")
        await conn.execute("PRAGMA synchronous=NORMAL")
        await conn.execute("PRAGMA foreign_keys=ON")
        await conn.execute("PRAGMA busy_timeout=5000")
        db = cls(conn, location)
        try:
            await db.migrate(bundled_migrations() if migrations is None else tuple(migrations))
        except BaseException:
            await conn.close()  # a refused or failed migration leaves no connection behind
            raise
        return db

    async def close(self) -> None:
        async with self._lock:
            await self._conn.close()

    async def user_version(self) -> int:
        cursor = await self._conn.execute("PRAGMA user_version")
        row = await cursor.fetchone()
        await cursor.close()
        return int(row[0]) if row else 0

    async def migrate(self, migrations: tuple[Migration, ...]) -> None:
        """Apply every migration newer than the database, each in its own transaction."""
        current = await self.user_version()
        newest = migrations[-1].version if migrations else 0
        if current > newest:
            raise RuntimeError(
                f"the database {self.path} has schema {current}, newer than this code ({newest})"
            )
        for migration in migrations:
            if migration.version <= current:
                continue
            async with self.transaction() as tx:
                for statement in split_statements(migration.sql):
                    await tx.execute(statement)
                # PRAGMA takes no parameters; the version is an int from the file name.
                await tx.execute(f"PRAGMA user_version = {migration.version:d}")

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        """`BEGIN IMMEDIATE` ... `COMMIT`; `ROLLBACK` if the block raises."""
        self._refuse_reentry()
        async with self._lock:
            self._owner = asyncio.current_task()
            try:
                await self._conn.execute("BEGIN IMMEDIATE")
                try:
                    yield Transaction(self._conn)
                except BaseException:
                    await self._conn.execute("ROLLBACK")
                    raise
                else:
                    await self._conn.execute("COMMIT")
            finally:
                self._owner = None

    def _refuse_reentry(self) -> None:
        """Using the Database inside its own transaction would wait for itself forever."""
        if self._owner is not None and self._owner is asyncio.current_task():
            raise RuntimeError(
                "the database was used directly inside a transaction; use the transaction's handle"
            )

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> int:
        """One statement on its own, outside any transaction: SQLite makes a single
        statement atomic by itself, so this saves the BEGIN and COMMIT round trips."""
        self._refuse_reentry()
        async with self._lock:
            return await Transaction(self._conn).execute(sql, params)

    async def fetch_one(self, sql: str, params: Iterable[Any] = ()) -> aiosqlite.Row | None:
        """A read outside any transaction (sees the last committed state)."""
        self._refuse_reentry()
        async with self._lock:
            return await Transaction(self._conn).fetch_one(sql, params)

    async def fetch_all(self, sql: str, params: Iterable[Any] = ()) -> list[aiosqlite.Row]:
        self._refuse_reentry()
        async with self._lock:
            return await Transaction(self._conn).fetch_all(sql, params)


def split_statements(script: str) -> list[str]:
    """Split a migration script into complete statements (sqlite3.complete_statement)."""
    import sqlite3

    statements: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        if not buffer and (not line.strip() or line.lstrip().startswith("--")):
            continue
        buffer += line
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        raise RuntimeError(f"incomplete SQL statement at the end of a migration: {buffer!r}")
    return statements
