"""Fixtures shared by every test directory: the local Telegram and a bot bound to it."""

from __future__ import annotations

import asyncio
import itertools
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from aiogram import Bot

from storage import connect
from storage.db import Database, Migration
from tests.databases import (
    POSTGRES_ONLY_VARIABLE,
    SERVER_VARIABLE,
    drop_schemas,
    test_server,
    url_for,
)
from tests.fakegram import FakeTelegram, assert_ephemeral_private
from tests.fakegram.aiogram_support import aiogram_parse_problems, make_bot
from tests.fakegram.waiting import pace

FakegramFactory = Callable[..., Awaitable[FakeTelegram]]
T = TypeVar("T")


# What a test marked `slow` without `seconds=` is taken to last, for `spread_slow`.
SLOW_SECONDS = 30.0


@pytest.hookimpl(trylast=True)  # after tests/e2e/conftest.py has set its nets
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The tests marked slow start first, each worker of pytest-xdist beginning with its
    share of them (`spread_slow`), so the workers end together. Each test's
    pytest-timeout is stretched by the machine's pace (`stretch_timeouts`)."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    items[:] = spread_slow(items, workers, expected_seconds)
    stretch_timeouts(config, items, pace())


def expected_seconds(item: pytest.Item) -> float | None:
    """What a test marked `@pytest.mark.slow(seconds=N)` is expected to take on an idle
    machine (`SLOW_SECONDS` without N); None for a test not marked slow."""
    marker = item.get_closest_marker("slow")
    return None if marker is None else float(marker.kwargs.get("seconds", SLOW_SECONDS))


def spread_slow(items: list[T], workers: int, seconds: Callable[[T], float | None]) -> list[T]:
    """`items` reordered for `workers` workers of pytest-xdist's work stealing (tasks.py
    test). That scheduler hands each worker a contiguous slice of the collection at the
    start (sizes as even as can be, in order) and later moves tests from the tail of the
    longest queue to an idle worker. Put all the slow tests first and the first worker
    gets them all: it runs them one after another while the others soon run dry. Here
    the slow ones (longest first) go each to the slice whose slow tests add up to the
    least so far, at that slice's head; the rest fill the slices in their own order."""
    slow = sorted(
        (item for item in items if seconds(item) is not None),
        key=lambda item: -(seconds(item) or 0.0),
    )
    if workers <= 1:
        return [*slow, *(item for item in items if seconds(item) is None)]
    rest = iter(item for item in items if seconds(item) is None)
    sizes, left = [], len(items)
    for worker in range(workers):  # worksteal's first split: len // nodes remaining
        sizes.append(left // (workers - worker))
        left -= sizes[-1]
    slices: list[list[T]] = [[] for _ in range(workers)]
    loads = [0.0] * workers
    for item in slow:
        open_slices = [k for k in range(workers) if len(slices[k]) < sizes[k]]
        k = min(open_slices, key=lambda k: (loads[k], k))
        slices[k].append(item)
        loads[k] += seconds(item) or 0.0
    for k in range(workers):
        slices[k].extend(itertools.islice(rest, sizes[k] - len(slices[k])))
    return [item for part in slices for item in part]


def stretch_timeouts(config: pytest.Config, items: list[pytest.Item], speed: float) -> None:
    """pytest-timeout's limit is a net for a hung test, not a deadline: on a machine
    `speed` times slower than an idle one (tests.fakegram.waiting.pace, at collection) a
    test gets that many times its limit (its marker's, else the configured one). A limit
    switched off (0) stays off."""
    if speed <= 1:
        return
    try:
        configured = config.getoption("timeout", None) or config.getini("timeout")
    except ValueError:  # pytest-timeout is not installed
        return
    for item in items:
        marker = item.get_closest_marker("timeout")
        args: tuple[Any, ...] = marker.args if marker else ()
        kwargs: dict[str, Any] = dict(marker.kwargs) if marker else {}
        limit = args[0] if args else kwargs.pop("timeout", configured)
        if not limit or float(limit) <= 0:
            continue
        stretched = pytest.mark.timeout(float(limit) * speed, *args[1:], **kwargs)
        item.add_marker(stretched, append=False)  # the closest: pytest-timeout reads it


@pytest.fixture(autouse=True)
def _postgres_for_sqlite_paths(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With `DOMINO_TEST_POSTGRES` set, `open_database(path)` opens the schema standing
    for `path` on that server (`tests.databases`) instead of the SQLite file: this
    replaces `storage.connect.open_sqlite`, which `open_database` calls for every path.
    Tests marked `sqlite_only` skip. Tests marked `postgres_only` run on
    `DOMINO_TEST_POSTGRES_ONLY` without it (tasks.py's first pass), else skip."""
    if test_server() is None:
        if not request.node.get_closest_marker("postgres_only"):
            return
        only = os.environ.get(POSTGRES_ONLY_VARIABLE)
        if not only:
            pytest.skip(f"runs on PostgreSQL only: set {SERVER_VARIABLE} (tasks.py test does)")
        monkeypatch.setenv(SERVER_VARIABLE, only)  # for this test (tasks.py's first pass)
    if request.node.get_closest_marker("sqlite_only"):
        pytest.skip("about SQLite itself: run without DOMINO_TEST_POSTGRES")

    async def open_on_postgres(
        path: str | Path, migrations: Iterable[Migration] | None = None, *, side: bool = False
    ) -> Database:
        return await connect.open_postgres(await url_for(path), migrations, side=side)

    monkeypatch.setattr(connect, "open_sqlite", open_on_postgres)


def pytest_sessionfinish(session: pytest.Session) -> None:
    server = test_server() or os.environ.get(POSTGRES_ONLY_VARIABLE)
    if server:
        asyncio.run(drop_schemas(server))


def _check(fake: FakeTelegram) -> None:
    fake.assert_clean()
    assert_ephemeral_private(fake)
    problems = aiogram_parse_problems(fake)
    assert not problems, "\n".join(problems)


@pytest.fixture
async def fakegram_factory() -> AsyncIterator[FakegramFactory]:
    """Start fakes with options: ``fake = await fakegram_factory(clock=ManualClock())``.

    Each is stopped and checked at teardown like ``fakegram``.
    """
    started: list[FakeTelegram] = []

    async def build(**options: Any) -> FakeTelegram:
        fake = FakeTelegram(**options)
        await fake.start()
        started.append(fake)
        return fake

    try:
        yield build
    finally:
        for fake in started:
            await fake.stop()
    for fake in started:
        _check(fake)


@pytest.fixture
async def fakegram() -> AsyncIterator[FakeTelegram]:
    """A started fake Telegram on an ephemeral port of 127.0.0.1.

    At teardown the test fails if the bot sent a field the Bot API does not define, called a
    method the fake does not model, or got an answer aiogram's models cannot parse.
    """
    fake = FakeTelegram()
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()
    _check(fake)


@pytest.fixture
async def fake_bot(fakegram: FakeTelegram) -> AsyncIterator[Bot]:
    """An aiogram ``Bot`` whose session talks to ``fakegram``."""
    bot = make_bot(fakegram)
    try:
        yield bot
    finally:
        await bot.session.close()
