"""Flood limits: off by default, switched on per test, driven by a manual clock."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from aiogram import Bot
from aiogram.exceptions import TelegramRetryAfter

from tests.conftest import FakegramFactory
from tests.fakegram import FakeTelegram, FloodLimits, ManualClock
from tests.fakegram.aiogram_support import make_bot


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def fake(clock: ManualClock, fakegram_factory: FakegramFactory) -> FakeTelegram:
    return await fakegram_factory(clock=clock)


@pytest.fixture
async def bot(fake: FakeTelegram) -> AsyncIterator[Bot]:
    client = make_bot(fake)
    yield client
    await client.session.close()


async def test_off_by_default(fake: FakeTelegram, bot: Bot) -> None:
    alice = fake.add_user("Алиса", started=True)
    for n in range(40):
        await bot.send_message(alice.id, str(n))


async def test_per_chat_burst_then_one_a_second(
    fake: FakeTelegram, bot: Bot, clock: ManualClock
) -> None:
    fake.enable_flood_limits()
    alice = fake.add_user("Алиса", started=True)
    bob = fake.add_user("Боб", started=True)
    for n in range(3):
        await bot.send_message(alice.id, str(n))
    with pytest.raises(TelegramRetryAfter) as refused:
        await bot.send_message(alice.id, "4")
    assert refused.value.retry_after == 1
    assert "Original description: Too Many Requests: retry after 1" in refused.value.message
    await bot.send_message(bob.id, "another chat is not stalled")
    clock.advance(1.0)
    sent = await bot.send_message(alice.id, "4")
    with pytest.raises(TelegramRetryAfter):  # edits count like sends
        await bot.edit_message_text("4!", chat_id=alice.id, message_id=sent.message_id)


async def test_twenty_a_minute_per_group(fake: FakeTelegram, bot: Bot, clock: ManualClock) -> None:
    fake.enable_flood_limits()
    group = fake.add_group("G", members=[fake.add_user("Алиса")])
    for n in range(20):
        await bot.send_message(group.id, str(n))
        clock.advance(1.0)
    with pytest.raises(TelegramRetryAfter) as refused:
        await bot.send_message(group.id, "21")
    assert refused.value.retry_after == 40  # the first of the 20 leaves the window at t=60
    clock.advance(40)
    await bot.send_message(group.id, "21")


async def test_thirty_a_second_overall(fake: FakeTelegram, bot: Bot, clock: ManualClock) -> None:
    fake.enable_flood_limits(FloodLimits(per_chat_burst=1))
    users = [fake.add_user(f"u{n}", started=True) for n in range(31)]
    for user in users[:30]:
        await bot.send_message(user.id, "hi")
    with pytest.raises(TelegramRetryAfter) as refused:
        await bot.send_message(users[30].id, "hi")
    assert refused.value.retry_after == 1
    calls = fake.transcript.calls("sendMessage", ok=False)
    assert calls[-1].error_code == 429 and calls[-1].parameters == {"retry_after": 1}
