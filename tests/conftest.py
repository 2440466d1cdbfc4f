"""Fixtures shared by every test directory: the local Telegram and a bot bound to it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from aiogram import Bot

from tests.fakegram import FakeTelegram
from tests.fakegram.aiogram_support import aiogram_parse_problems, make_bot

FakegramFactory = Callable[..., Awaitable[FakeTelegram]]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked slow first (in their order), the rest after: with pytest-xdist's
    work stealing (tasks.py test) the long ones start at once and the short ones fill the
    gaps, so the workers end together (issue 11, item 18)."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


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
