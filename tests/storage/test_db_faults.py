"""The database under faults: unusable files refused in one line with no thread left
behind, another process's lock, a full database, retries, private files."""

from __future__ import annotations

import logging
import sqlite3
import stat
import threading
import time
from pathlib import Path

import pytest

import storage.db
from storage.connect import open_database
from storage.db import (
    Backoff,
    DatabaseUnusable,
    Migration,
    is_locked,
    is_transient,
    retrying,
)
from tests.storage.disk import corrupt_page, read_only, write_lock

pytestmark = pytest.mark.sqlite_only  # SQLite's file, pages and locks

TABLE_A = Migration(1, "001_a.sql", "CREATE TABLE a (x INTEGER);")


def connection_threads() -> list[threading.Thread]:
    """aiosqlite's worker threads alive now (one per open connection)."""
    return [t for t in threading.enumerate() if "_connection_worker_thread" in t.name]


def left_behind(before: list[threading.Thread]) -> list[threading.Thread]:
    """Worker threads started since `before` that do not end (a closed connection's
    thread ends just after its last answer; it may still be on its way out)."""
    for thread in connection_threads():
        if thread not in before:
            thread.join(timeout=10)
    return [t for t in connection_threads() if t not in before]


def mode_of(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


async def test_random_bytes_are_refused_in_one_line_and_leave_no_thread(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    path.write_bytes(bytes(range(256)) * 64)
    before = connection_threads()
    with pytest.raises(DatabaseUnusable) as refused:
        await open_database(path)
    assert str(refused.value) == f"cannot use the database {path}: file is not a database"
    assert not left_behind(before)


async def test_a_corrupted_page_is_found_at_open(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    tables = [TABLE_A, Migration(2, "002_b.sql", "CREATE TABLE b (y TEXT);")]
    db = await open_database(path, tables)
    async with db.transaction() as tx:
        await tx.execute_many("INSERT INTO b VALUES (?)", [(f"row {n}",) for n in range(500)])
    await db.close()
    # Nothing reads table b at open: only the check finds its broken page.
    corrupt_page(path, "b")
    before = connection_threads()
    with pytest.raises(DatabaseUnusable, match=r"is damaged .*restore a backup") as refused:
        await open_database(path, tables)
    assert "\n" not in str(refused.value)
    assert not left_behind(before)


async def test_a_read_only_folder_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    with read_only(folder), pytest.raises(DatabaseUnusable, match="cannot open the database"):
        await open_database(folder / "bot.sqlite3")


async def test_a_newer_schema_is_refused_as_unusable(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    db = await open_database(path, [TABLE_A])
    await db.close()
    with pytest.raises(DatabaseUnusable, match="newer than this code"):
        await open_database(path, [])


async def test_files_are_private_and_an_old_world_readable_file_is_made_private(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "new" / "data"
    path = folder / "bot.sqlite3"
    db = await open_database(path, [TABLE_A])
    try:
        await db.execute("INSERT INTO a VALUES (1)")
        assert mode_of(folder) == 0o700
        for name in ("bot.sqlite3", "bot.sqlite3-wal", "bot.sqlite3-shm"):
            assert mode_of(folder / name) == 0o600, name
    finally:
        await db.close()

    path.chmod(0o644)  # as an older version left it
    db = await open_database(path, [TABLE_A])
    try:
        await db.execute("INSERT INTO a VALUES (2)")
        for name in ("bot.sqlite3", "bot.sqlite3-wal", "bot.sqlite3-shm"):
            assert mode_of(folder / name) == 0o600, name
    finally:
        await db.close()


async def test_another_process_holding_the_lock_fails_writes_fast_until_it_lets_go(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(storage.db, "BUSY_WAIT", 0.5)
    path = tmp_path / "bot.sqlite3"
    db = await open_database(path, [TABLE_A])
    caplog.set_level(logging.INFO, logger="storage.db")
    try:
        with write_lock(path):
            began = time.monotonic()
            with pytest.raises(sqlite3.OperationalError, match="database is locked") as first:
                async with db.transaction() as tx:
                    await tx.execute("INSERT INTO a VALUES (1)")
            waited = time.monotonic() - began
            assert is_locked(first.value) and is_transient(first.value)
            assert waited >= 0.4  # the first write waits BUSY_WAIT for the lock
            # Once the lock is known to be held, a write fails without that wait; reads go on.
            for _ in range(5):
                began = time.monotonic()
                with pytest.raises(sqlite3.OperationalError, match="database is locked"):
                    await db.execute("INSERT INTO a VALUES (2)")
                assert time.monotonic() - began < waited
            assert await db.fetch_all("SELECT x FROM a") == []
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO a VALUES (3)")
        assert [r["x"] for r in await db.fetch_all("SELECT x FROM a")] == [3]
        busy = await db.fetch_one("PRAGMA busy_timeout")
        assert busy is not None and busy[0] == 500  # the full wait again
    finally:
        await db.close()
    lines = [r for r in caplog.records if r.name == "storage.db"]
    assert [r.levelname for r in lines] == ["WARNING", "INFO"]
    assert "refuses changes (database is locked)" in lines[0].getMessage()
    assert "takes changes again" in lines[1].getMessage()
    assert not any(r.exc_info for r in lines)


async def test_a_full_database_rolls_back_and_takes_changes_when_space_returns(
    tmp_path: Path,
) -> None:
    # SQLITE_FULL as a full disk gives it, from a limit on the file's pages.
    db = await open_database(tmp_path / "bot.sqlite3", [TABLE_A])
    try:
        pages = await db.fetch_one("PRAGMA page_count")
        assert pages is not None
        await db.execute(f"PRAGMA max_page_count = {pages[0]}")
        with pytest.raises(sqlite3.OperationalError, match="database or disk is full") as full:
            async with db.transaction() as tx:
                await tx.execute("INSERT INTO a VALUES (1)")
                await tx.execute_many("INSERT INTO a VALUES (?)", [(n,) for n in range(100_000)])
        assert is_transient(full.value) and not is_locked(full.value)
        assert await db.fetch_all("SELECT x FROM a") == []  # nothing of it was kept
        await db.execute("PRAGMA max_page_count = 1000000")
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO a VALUES (7)")
        assert [r["x"] for r in await db.fetch_all("SELECT x FROM a")] == [7]
    finally:
        await db.close()


def test_only_the_moment_s_errors_are_transient() -> None:
    locked = sqlite3.OperationalError("database is locked")
    locked.sqlite_errorcode = 5  # type: ignore[attr-defined]
    io = sqlite3.OperationalError("disk I/O error")
    io.sqlite_errorcode = 10 | (3 << 8)  # type: ignore[attr-defined]  # SQLITE_IOERR_WRITE
    syntax = sqlite3.OperationalError("near 'x': syntax error")
    syntax.sqlite_errorcode = 1  # type: ignore[attr-defined]
    assert is_transient(locked) and is_locked(locked)
    assert is_transient(io) and not is_locked(io)
    assert not is_transient(syntax)
    assert not is_transient(sqlite3.DatabaseError("file is not a database"))
    assert not is_transient(ValueError("database is locked"))


def transient(message: str = "database is locked") -> sqlite3.OperationalError:
    error = sqlite3.OperationalError(message)
    error.sqlite_errorcode = 5  # type: ignore[attr-defined]
    return error


async def test_retrying_repeats_with_backoff_and_logs_a_burst_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="storage.db")
    failures = [transient(), transient(), transient()]
    pauses: list[float] = []

    async def work() -> str:
        if failures:
            raise failures.pop()
        return "moved"

    async def sleep(seconds: float) -> None:
        pauses.append(seconds)

    result = await retrying(
        work, log_as="game 7: computer move", backoff=Backoff(0.5, 2, 1.5), sleep=sleep
    )
    assert result == "moved"
    assert pauses == [0.5, 1.0, 1.5]
    lines = [(r.levelname, r.getMessage()) for r in caplog.records]
    assert lines[0] == (
        "WARNING",
        "game 7: computer move: database is locked; tried again until the database takes it",
    )
    assert lines[1][0] == "INFO" and lines[1][1].startswith("game 7: computer move: done at try 4")
    assert len(lines) == 2


async def test_retrying_stops_when_no_longer_wanted_and_raises_other_errors() -> None:
    tries = 0

    async def locked() -> None:
        nonlocal tries
        tries += 1
        raise transient()

    async def no_sleep(seconds: float) -> None:
        pass

    wanted = iter([True, True, False])
    assert (
        await retrying(locked, log_as="vote 3", still_wanted=lambda: next(wanted), sleep=no_sleep)
        is None
    )
    assert tries == 3

    async def broken() -> None:
        raise sqlite3.OperationalError("no such table: games")

    with pytest.raises(sqlite3.OperationalError, match="no such table"):
        await retrying(broken, log_as="vote 3", sleep=no_sleep)
