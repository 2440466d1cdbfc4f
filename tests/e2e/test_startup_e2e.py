"""A start that cannot succeed ends the process with one clear line.

Each case runs `python -m bot` as the README does, with one thing wrong: a database
file of random bytes, a database with a damaged page, a read-only data folder, no
Telegram at TELEGRAM_API_BASE, a token Telegram refuses, a malformed token. The
process must exit with a non-zero code and say why in exactly one line on stderr, no
traceback. The import of aiogram alone may take many seconds on a loaded machine, so
the time is measured from that line to the exit: the process must not stay alive after
saying it cannot start (a database thread left running would keep it up for ever).
"""

from __future__ import annotations

import asyncio
import os
import socket
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from storage.connect import open_database
from tests.e2e.harness import ROOT
from tests.fakegram import FakeTelegram
from tests.storage.disk import corrupt_page, read_only

# Seconds between the line saying why and the exit: under a second on an idle machine,
# some seconds under load (the interpreter frees aiogram's thousands of models); the
# fault this guards against is a process that never exits.
EXIT_AFTER_LINE = 30.0
# Seconds for the whole start on a loaded machine (importing aiogram is most of it).
START_DEADLINE = 180.0
SECRET = "S3cr3t-t0ken-v4lue"


@dataclass
class Failed:
    code: int
    lines: list[str]  # stderr, non-empty lines
    total: float  # seconds from spawn to exit
    after_line: float  # seconds from the first stderr line to the exit


async def failed_start(env: dict[str, str]) -> Failed:
    """Run `python -m bot` with `env` over a clean environment until it exits."""
    spawned = time.monotonic()
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=ROOT,
        env={
            **{k: v for k, v in os.environ.items() if not k.startswith(("BOT_", "DATABASE_"))},
            "PYTHONUNBUFFERED": "1",
            **env,
        },
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    assert process.stderr is not None
    lines: list[str] = []
    first_line: float | None = None
    try:
        async with asyncio.timeout(START_DEADLINE) as deadline:
            while raw := await process.stderr.readline():
                if raw.strip():
                    lines.append(raw.decode(errors="replace").rstrip())
                if first_line is None:
                    first_line = time.monotonic()
                    deadline.reschedule(asyncio.get_running_loop().time() + EXIT_AFTER_LINE)
            code = await process.wait()
    except TimeoutError:
        process.kill()
        await process.wait()
        raise AssertionError(
            f"the bot was still running {EXIT_AFTER_LINE} s after its first line "
            f"(or {START_DEADLINE} s after its start); stderr:\n" + "\n".join(lines)
        ) from None
    exited = time.monotonic()
    return Failed(code, lines, exited - spawned, exited - (first_line or exited))


def closed_port() -> int:
    """A local port nothing listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def random_bytes(folder: Path) -> Path:
    path = folder / "domino.sqlite3"
    # Private like the bot's own files, so the only line is the refusal (the bot notes
    # in an INFO line when it makes a file private).
    path.touch(mode=0o600)
    path.write_bytes(os.urandom(64 * 1024))
    return path


async def damaged_page(folder: Path) -> Path:
    path = folder / "domino.sqlite3"
    db = await open_database(path)
    await db.close()
    corrupt_page(path, "stat_rounds")  # a table nothing reads at start: the check finds it
    return path


def assert_one_line(failed: Failed, code: int, *fragments: str) -> str:
    print(
        f"\nfailed start: exit {failed.code} in {failed.total:.1f} s, "
        f"{failed.after_line:.2f} s after its line"
    )
    assert failed.code == code, failed.lines
    assert len(failed.lines) == 1, "\n".join(failed.lines)
    line = failed.lines[0]
    assert "Traceback" not in line
    for fragment in fragments:
        assert fragment in line, line
    assert failed.after_line < EXIT_AFTER_LINE
    return line


@pytest.mark.parametrize("kind", ["random bytes", "damaged page"])
async def test_a_database_that_is_not_usable_is_a_failed_start(
    fakegram: FakeTelegram, tmp_path: Path, kind: str
) -> None:
    path = random_bytes(tmp_path) if kind == "random bytes" else await damaged_page(tmp_path)
    failed = await failed_start(
        {"BOT_TOKEN": fakegram.token, "TELEGRAM_API_BASE": fakegram.url, "DATABASE_PATH": str(path)}
    )
    expected = "file is not a database" if kind == "random bytes" else "is damaged"
    assert_one_line(failed, 1, " CRITICAL bot: cannot start: ", str(path), expected)
    assert not fakegram.transcript.calls()  # it did not go on to Telegram


async def test_a_read_only_data_folder_is_a_failed_start(
    fakegram: FakeTelegram, tmp_path: Path
) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    with read_only(folder):
        failed = await failed_start(
            {
                "BOT_TOKEN": fakegram.token,
                "TELEGRAM_API_BASE": fakegram.url,
                "DATABASE_PATH": str(folder / "domino.sqlite3"),
            }
        )
    line = assert_one_line(failed, 1, "cannot start: cannot open the database")
    assert line.endswith(("Read-only file system", "Permission denied")), line


@pytest.mark.parametrize("kind", ["closed port", "refused token"])
async def test_a_telegram_that_cannot_be_used_is_a_failed_start(
    fakegram: FakeTelegram, tmp_path: Path, kind: str
) -> None:
    if kind == "closed port":
        url = f"http://127.0.0.1:{closed_port()}"
        token = fakegram.token
        expected = f"cannot reach Telegram at {url}: "
    else:
        url = fakegram.url
        token = f"{fakegram.bot_id}:{SECRET}"  # well formed, but not the bot's
        expected = "Telegram refused BOT_TOKEN (Unauthorized)"
    failed = await failed_start(
        {
            "BOT_TOKEN": token,
            "TELEGRAM_API_BASE": url,
            "DATABASE_PATH": str(tmp_path / "domino.sqlite3"),
        }
    )
    line = assert_one_line(failed, 1, "cannot start: ", expected)
    assert SECRET not in line


@pytest.mark.parametrize("token", [f"bot{SECRET}", f"{SECRET}:12345"])
async def test_a_malformed_token_is_refused_without_being_printed(
    tmp_path: Path, token: str
) -> None:
    failed = await failed_start(
        {"BOT_TOKEN": token, "DATABASE_PATH": str(tmp_path / "domino.sqlite3")}
    )
    line = assert_one_line(failed, 2, "configuration error: BOT_TOKEN: must look like 123456:")
    assert SECRET not in line
    assert not (tmp_path / "domino.sqlite3").exists()  # nothing was touched
