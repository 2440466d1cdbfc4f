"""Fixtures shared by every test directory: the local Telegram and a bot bound to it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from aiogram import Bot

from tests.fakegram import FakeTelegram
from tests.fakegram.aiogram_support import aiogram_parse_problems, make_bot


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
    fake.assert_clean()
    problems = aiogram_parse_problems(fake)
    assert not problems, "\n".join(problems)


@pytest.fixture
async def fake_bot(fakegram: FakeTelegram) -> AsyncIterator[Bot]:
    """An aiogram ``Bot`` whose session talks to ``fakegram``."""
    bot = make_bot(fakegram)
    try:
        yield bot
    finally:
        await bot.session.close()
