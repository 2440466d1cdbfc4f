"""Faults of the disk and of other processes, made for tests.

- `write_lock(database)`: another process's `BEGIN IMMEDIATE` on the database, held
  until the block ends (a second connection behaves exactly like another process).
- `small_disk(folder, kib)`: a tmpfs of that size mounted on `folder` (root only;
  the test is skipped with the reason where mounting is not allowed), and
  `fill(folder)` / `unfill(folder)` to use up its space and give it back.
- `read_only(folder)`: the folder made read-only the way a read-only volume is (a
  read-only bind mount for root, whom file modes do not stop; `chmod a-w` otherwise).
- `corrupt_page(database, table)`: a page of the file overwritten with garbage, as a
  failing disk or a copy cut short leaves it.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

FILLER = "filler.bin"


@contextlib.contextmanager
def write_lock(database: Path) -> Iterator[sqlite3.Connection]:
    """Hold the database's write lock (as `sqlite3 db 'BEGIN IMMEDIATE'` would) until the
    block ends; the bot's own transaction in progress, if any, finishes first."""
    conn = sqlite3.connect(database, isolation_level=None, timeout=30)
    try:
        conn.execute("BEGIN IMMEDIATE")
        yield conn
        conn.execute("ROLLBACK")
    finally:
        conn.close()


def _mount(*args: str) -> None:
    done = subprocess.run(["mount", *args], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"mount {' '.join(args)} is not allowed here: {done.stderr.strip()}")


def _umount(folder: Path) -> None:
    subprocess.run(["umount", "-l", str(folder)], capture_output=True, check=False)


@contextlib.contextmanager
def small_disk(folder: Path, kib: int) -> Iterator[Path]:
    """A tmpfs of `kib` KiB on `folder` (created), unmounted at the end."""
    if os.geteuid() != 0:
        pytest.skip("a small disk (tmpfs) needs root")
    folder.mkdir(parents=True, exist_ok=True)
    _mount("-t", "tmpfs", "-o", f"size={kib}k,mode=0700", "tmpfs", str(folder))
    try:
        yield folder
    finally:
        _umount(folder)


def fill(folder: Path) -> int:
    """Use up the free space of `folder`'s file system with a filler file; its size."""
    written = 0
    chunk = b"\0" * 4096
    with (folder / FILLER).open("ab", buffering=0) as filler:
        while True:
            try:
                written += filler.write(chunk)
            except OSError:  # ENOSPC: the disk is full
                break
        with contextlib.suppress(OSError):  # the last bytes that still fit
            while filler.write(b"\0"):
                written += 1
    return written


def unfill(folder: Path) -> None:
    """Give back the space `fill` took."""
    (folder / FILLER).unlink()


@contextlib.contextmanager
def read_only(folder: Path) -> Iterator[Path]:
    """`folder` read-only for the bot until the block ends."""
    if os.geteuid() == 0:
        _mount("--bind", str(folder), str(folder))
        try:
            _mount("-o", "remount,bind,ro", str(folder))
            yield folder
        finally:
            _umount(folder)
    else:
        mode = folder.stat().st_mode
        folder.chmod(0o500)
        try:
            yield folder
        finally:
            folder.chmod(mode)


def corrupt_page(database: Path, table: str) -> int:
    """Overwrite the root page of `table` in the (checkpointed) database file with
    garbage; the page number."""
    with contextlib.closing(sqlite3.connect(database)) as db:
        page_size = db.execute("PRAGMA page_size").fetchone()[0]
        (root,) = db.execute(
            "SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
        ).fetchone()
    with database.open("r+b") as file:
        file.seek((root - 1) * page_size)
        file.write(bytes(range(7, 256)) * (page_size // 249) + b"\xee" * (page_size % 249))
    return int(root)
