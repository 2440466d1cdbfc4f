"""The suite against PostgreSQL: with `DOMINO_TEST_POSTGRES` set to a server's
URL (`python3 tasks.py test` starts a throwaway one and sets it), every database a test
opens by a file path is a schema of its own on that server instead, and so is every
bot process's of `tests/e2e/harness.py`. One path is one schema: opening the same path
again (a restart) finds the same data.

Tests that are about SQLite itself (its file, its locks, its pages) are marked
`sqlite_only` and skipped there; the rest run unchanged on both databases.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import sqlite3
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

SERVER_VARIABLE = "DOMINO_TEST_POSTGRES"
# The server for the tests marked `postgres_only` alone (tasks.py test's first pass).
POSTGRES_ONLY_VARIABLE = "DOMINO_TEST_POSTGRES_ONLY"

# The paths whose schemas this process made, dropped at the end of its session.
MADE: set[Path] = set()


def test_server() -> str | None:
    """The PostgreSQL server the tests run against, or None for SQLite."""
    return os.environ.get(SERVER_VARIABLE) or None


def schema_for(path: str | Path) -> str:
    """The schema standing for the SQLite file `path` (a valid unquoted identifier)."""
    digest = hashlib.sha256(str(Path(path).resolve()).encode()).hexdigest()[:20]
    return f"t_{digest}"


async def url_for(path: str | Path) -> str:
    """The URL of the schema standing for `path` on the test server, created if new."""
    server = test_server()
    assert server is not None, f"{SERVER_VARIABLE} is not set"
    import asyncpg

    schema = schema_for(path)
    MADE.add(Path(path))
    conn = await asyncpg.connect(server)
    try:
        await conn.execute(f"CREATE SCHEMA IF NOT EXISTS {schema}")
    finally:
        await conn.close()
    separator = "&" if "?" in server else "?"
    return f"{server}{separator}search_path={schema}"


async def drop_schemas(server: str | None = None) -> None:
    """Drop the schemas this process made on `server` (default: the tests' server), at
    the end of a worker's session."""
    server = server or test_server()
    paths = sorted(MADE)
    if server is None or not paths:
        return
    import asyncpg

    conn = await asyncpg.connect(server)
    try:
        for path in paths:
            await conn.execute(f"DROP SCHEMA IF EXISTS {schema_for(path)} CASCADE")
    finally:
        await conn.close()


class StoredRow(tuple[Any, ...]):
    """A stored row: a tuple (equal to one), whose values are also found by column name."""

    names: dict[str, int]

    def __new__(cls, values: Sequence[Any], names: Sequence[str]) -> StoredRow:
        row = super().__new__(cls, values)
        row.names = {name: index for index, name in enumerate(names)}
        return row

    def __getitem__(self, key: Any) -> Any:  # type: ignore[override]
        if isinstance(key, str):
            return super().__getitem__(self.names[key])
        return super().__getitem__(key)

    def keys(self) -> list[str]:
        return list(self.names)


def stored_rows(path: str | Path, sql: str, *params: object) -> list[StoredRow]:
    """The rows of one query on the committed state of the bot's database at `path`
    (read-only), by column name or position: the SQLite file itself, or on PostgreSQL
    the schema standing for it. For the tests' synchronous checks."""
    if test_server() is None:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            cursor = db.execute(sql, params)
            names = [column[0] for column in cursor.description or ()]
            return [StoredRow(values, names) for values in cursor.fetchall()]
    with ThreadPoolExecutor(1) as thread:  # a loop of its own: callers may be in one
        return thread.submit(asyncio.run, _postgres_rows(path, sql, params)).result()


async def _postgres_rows(
    path: str | Path, sql: str, params: tuple[object, ...], *, change: bool = False
) -> list[Any]:
    import asyncpg

    from storage.postgres import to_postgres

    conn = await asyncpg.connect(await url_for(path))
    try:
        if change:
            await conn.execute(to_postgres(sql), *params)
            return []
        records = await conn.fetch(to_postgres(sql), *params)
        return [StoredRow(tuple(record.values()), list(record.keys())) for record in records]
    finally:
        await conn.close()


def stored_execute(path: str | Path, sql: str, *params: object) -> None:
    """Change the bot's database at `path` behind its back (a test's fault), committed."""
    if test_server() is None:
        with sqlite3.connect(path) as db:
            db.execute(sql, params)
        return
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, _postgres_rows(path, sql, params, change=True)).result()
