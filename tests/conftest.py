"""Fixtures shared by every test directory: the local Telegram and a bot bound to it."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from pathlib import Path
from typing import Any

import pytest
from aiogram import Bot

from storage.db import Database, Migration, is_postgres_url
from tests.databases import (
    POSTGRES_ONLY_VARIABLE,
    SERVER_VARIABLE,
    drop_schemas,
    test_server,
    url_for,
)
from tests.fakegram import FakeTelegram
from tests.fakegram.aiogram_support import aiogram_parse_problems, make_bot

FakegramFactory = Callable[..., Awaitable[FakeTelegram]]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked slow first (in their order), the rest after: with pytest-xdist's
    work stealing (tasks.py test) the long ones start at once and the short ones fill the
    gaps, so the workers end together (issue 11, item 18)."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(autouse=True)
def _postgres_for_sqlite_paths(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With `DOMINO_TEST_POSTGRES` set, `Database.open(path)` opens the schema standing
    for `path` on that server (`tests.databases`); tests marked `sqlite_only` skip. Tests
    marked `postgres_only` run on `DOMINO_TEST_POSTGRES_ONLY` without it (tasks.py's
    first pass), else skip."""
    if test_server() is None:
        if not request.node.get_closest_marker("postgres_only"):
            return
        only = os.environ.get(POSTGRES_ONLY_VARIABLE)
        if not only:
            pytest.skip(f"runs on PostgreSQL only: set {SERVER_VARIABLE} (tasks.py test does)")
        monkeypatch.setenv(SERVER_VARIABLE, only)  # for this test (tasks.py's first pass)
    if request.node.get_closest_marker("sqlite_only"):
        pytest.skip("about SQLite itself: run without DOMINO_TEST_POSTGRES")
    from storage.postgres import PostgresDatabase

    async def open_on_postgres(
        location: str | Path, migrations: Iterable[Migration] | None = None
    ) -> Database:
        if not is_postgres_url(location):
            location = await url_for(location)
        return await PostgresDatabase.connect(str(location), migrations)

    monkeypatch.setattr(Database, "open", staticmethod(open_on_postgres))


def pytest_sessionfinish(session: pytest.Session) -> None:
    server = test_server() or os.environ.get(POSTGRES_ONLY_VARIABLE)
    if server:
        asyncio.run(drop_schemas(server))


def _check(fake: FakeTelegram) -> None:
    fake.assert_clean()
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
