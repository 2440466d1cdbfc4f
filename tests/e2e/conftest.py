"""Fixtures for end-to-end tests: the fake Telegram (tests/conftest.py) and the bot process."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.e2e.harness import STARTED, BotProcess, running_bot
from tests.fakegram import FakeTelegram

HERE = Path(__file__).resolve().parent
# A net for a hung test, not a deadline: the waits here end on progress (harness.Stall),
# so a loaded machine makes a test slower, and only one that stopped moving meets this.
# pyproject's 300 s stays the net for everything else.
HANG_SECONDS = 1800


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in item.path.parents and item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(HANG_SECONDS))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item):  # type: ignore[no-untyped-def]
    """A failed test's report shows where each bot still running waits (its asyncio
    tasks, `BotProcess.tasks_now`): a stall is then found in the report, not re-run."""
    outcome = yield
    if outcome.excinfo is None:
        return
    for number, process in enumerate(list(STARTED), 1):
        dump = process.tasks_now()
        if dump:
            item.add_report_section("call", f"bot {number}: its tasks", dump)


@pytest.fixture
async def bot(fakegram: FakeTelegram, tmp_path: Path) -> AsyncIterator[BotProcess]:
    """The bot running as `python -m bot` against the fake, without pacing (speed).

    At teardown it gets SIGTERM and must exit cleanly, with no error in its log.
    """
    async with running_bot(fakegram, tmp_path, PACING="false") as process:
        yield process
