"""The database layer: migrations, user_version, transactions (STYLE 9)."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage.connect import open_database
from storage.db import Migration, bundled_migrations, split_statements

pytestmark = pytest.mark.sqlite_only  # SQLite's file, pages and locks


async def test_fresh_database_is_migrated_to_the_newest_schema(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "bot.sqlite3")
    try:
        newest = bundled_migrations()[-1].version
        assert await db.user_version() == newest
        tables = {
            row["name"]
            for row in await db.fetch_all("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        assert {"users", "chats", "games", "seats", "messages", "outbox"} <= tables
        assert "actions" not in tables  # migration 007: the match keeps its own log
        journal = await db.fetch_one("PRAGMA journal_mode")
        assert journal is not None and journal[0] == "wal"
        fks = await db.fetch_one("PRAGMA foreign_keys")
        assert fks is not None and fks[0] == 1
    finally:
        await db.close()


async def test_reopening_runs_only_new_migrations(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    first = Migration(1, "001_a.sql", "CREATE TABLE a (x INTEGER);")
    second = Migration(2, "002_b.sql", "CREATE TABLE b (y INTEGER);\nINSERT INTO a VALUES (7);")
    db = await open_database(path, [first])
    assert await db.user_version() == 1
    await db.close()

    db = await open_database(path, [first, second])
    try:
        assert await db.user_version() == 2
        rows = await db.fetch_all("SELECT x FROM a")
        assert [r["x"] for r in rows] == [7]
    finally:
        await db.close()


async def test_migration_7_drops_the_actions_table_with_its_rows(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    before = [m for m in bundled_migrations() if m.version < 7]
    db = await open_database(path, before)
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO chats (id, type, updated_at) VALUES (-1, 'group', 'now')")
        await tx.execute("INSERT INTO users (id, first_name, updated_at) VALUES (1, 'A', 'now')")
        game = await tx.insert(
            "INSERT INTO games (chat_id, status, creator_id, ruleset, seats_wanted, created_at)"
            " VALUES (-1, 'playing', 1, '{}', 2, 'now')"
        )
        await tx.execute(
            "INSERT INTO actions (game_id, seq, round_no, seat, action, created_at)"
            " VALUES (?, 1, 1, 0, 'p1-1', 'now')",
            (game,),
        )
    await db.close()
    db = await open_database(path)
    try:
        assert await db.user_version() == bundled_migrations()[-1].version
        tables = [r["name"] for r in await db.fetch_all("SELECT name FROM sqlite_master")]
        assert "actions" not in tables
        row = await db.fetch_one("SELECT status FROM games WHERE id = ?", (game,))
        assert row is not None and row["status"] == "playing"  # the game itself stays
    finally:
        await db.close()


async def test_a_failing_migration_leaves_the_old_schema_and_version(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    good = Migration(1, "001_a.sql", "CREATE TABLE a (x INTEGER);")
    bad = Migration(2, "002_b.sql", "CREATE TABLE b (y INTEGER);\nINSERT INTO nowhere VALUES (1);")
    db = await open_database(path, [good])
    await db.close()
    with pytest.raises(Exception, match="nowhere"):
        await open_database(path, [good, bad])
    db = await open_database(path, [good])
    try:
        assert await db.user_version() == 1
        tables = {
            r["name"]
            for r in await db.fetch_all("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        assert "b" not in tables
    finally:
        await db.close()


async def test_a_database_newer_than_the_code_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    db = await open_database(path, [Migration(1, "001_a.sql", "CREATE TABLE a (x INTEGER);")])
    await db.close()
    with pytest.raises(RuntimeError, match="newer than this code"):
        await open_database(path, [])


async def test_transaction_rolls_back_on_error(tmp_path: Path) -> None:
    db = await open_database(
        tmp_path / "bot.sqlite3", [Migration(1, "001_a.sql", "CREATE TABLE a (x INTEGER);")]
    )
    try:
        with pytest.raises(ZeroDivisionError):
            async with db.transaction() as tx:
                await tx.execute("INSERT INTO a VALUES (1)")
                raise ZeroDivisionError
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO a VALUES (2)")
        rows = await db.fetch_all("SELECT x FROM a")
        assert [r["x"] for r in rows] == [2]
    finally:
        await db.close()


def test_split_statements_keeps_triggers_and_skips_comments() -> None:
    script = """
    -- a comment
    CREATE TABLE a (x INTEGER);
    CREATE TRIGGER t AFTER INSERT ON a BEGIN
        UPDATE a SET x = x + 1;
    END;
    """
    statements = split_statements(script)
    assert len(statements) == 2
    assert statements[1].startswith("CREATE TRIGGER") and statements[1].endswith("END;")


async def test_using_the_database_inside_its_own_transaction_fails_fast(tmp_path: Path) -> None:
    db = await open_database(
        tmp_path / "bot.sqlite3", [Migration(1, "001_a.sql", "CREATE TABLE a (x INTEGER);")]
    )
    try:
        with pytest.raises(RuntimeError, match="inside a transaction"):
            async with db.transaction():
                await db.fetch_all("SELECT x FROM a")
        with pytest.raises(RuntimeError, match="inside a transaction"):
            async with db.transaction(), db.transaction():
                pass
        assert await db.fetch_all("SELECT x FROM a") == []  # and nothing is stuck
    finally:
        await db.close()
