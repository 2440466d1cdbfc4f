"""Fixtures for end-to-end tests: the fake Telegram (tests/conftest.py) and the bot process."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.e2e.harness import BotProcess, running_bot
from tests.fakegram import FakeTelegram


@pytest.fixture
async def bot(fakegram: FakeTelegram, tmp_path: Path) -> AsyncIterator[BotProcess]:
    """The bot running as `python -m bot` against the fake, without pacing (speed).

    At teardown it gets SIGTERM and must exit cleanly within 10 s, with no error in
    its log.
    """
    async with running_bot(fakegram, tmp_path, PACING="false") as process:
        yield process
