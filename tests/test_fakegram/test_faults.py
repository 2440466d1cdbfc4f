"""One-shot scripted faults and seeded random ones."""

from __future__ import annotations

import pytest
from aiogram import Bot
from aiogram.exceptions import (
    TelegramMigrateToChat,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)

from tests.fakegram import FakeTelegram


async def test_fail_next_by_method_and_chat(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    alice = fakegram.add_user("Алиса", started=True)
    bob = fakegram.add_user("Боб", started=True)
    fakegram.faults.fail_next("SendMessage", chat_id=bob.id, status=502, description="Bad Gateway")
    await fake_bot.send_message(alice.id, "alice is not affected")
    with pytest.raises(TelegramServerError, match="Bad Gateway"):
        await fake_bot.send_message(bob.id, "x")
    await fake_bot.send_message(bob.id, "once only")
    assert fakegram.faults.pending == 0
    failed = fakegram.transcript.calls("sendMessage", ok=False)
    assert len(failed) == 1 and failed[0].injected and failed[0].error_code == 502


async def test_nth_call_and_custom_parameters(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    alice = fakegram.add_user("Алиса", started=True)
    fakegram.faults.fail_next(
        "sendMessage",
        nth=3,
        status=400,
        description="Bad Request: group chat was upgraded to a supergroup chat",
        parameters={"migrate_to_chat_id": -100123},
    )
    fakegram.faults.flood_next("getChat", retry_after=7)
    await fake_bot.send_message(alice.id, "1")
    await fake_bot.send_message(alice.id, "2")
    with pytest.raises(TelegramMigrateToChat) as moved:
        await fake_bot.send_message(alice.id, "3")
    assert moved.value.migrate_to_chat_id == -100123
    with pytest.raises(TelegramRetryAfter) as flood:
        await fake_bot.get_chat(alice.id)
    assert flood.value.retry_after == 7


async def test_dropped_connection(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    alice = fakegram.add_user("Алиса", started=True)
    fakegram.faults.drop_next("sendMessage")
    with pytest.raises(TelegramNetworkError):
        await fake_bot.send_message(alice.id, "lost")
    assert alice.private_chat.bot_messages == []
    fakegram.faults.drop_next("sendMessage", after_executing=True)
    with pytest.raises(TelegramNetworkError):
        await fake_bot.send_message(alice.id, "done but the answer is lost")
    assert [m.content for m in alice.private_chat.bot_messages] == ["done but the answer is lost"]
    assert [c.dropped for c in fakegram.transcript.calls("sendMessage")] == [True, True]


async def run_chaos(fake: FakeTelegram, bot: Bot, chat_id: int, seed: int) -> list[str]:
    fake.faults.random(seed=seed, server_error=0.2, flood=0.2, drop=0.1)
    outcomes = []
    for n in range(30):
        try:
            await bot.send_message(chat_id, str(n))
            outcomes.append("ok")
        except TelegramRetryAfter:
            outcomes.append("429")
        except TelegramServerError:
            outcomes.append("5xx")
        except TelegramNetworkError:
            outcomes.append("drop")
    fake.faults.clear()
    return outcomes


async def test_random_faults_are_seeded(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    alice = fakegram.add_user("Алиса", started=True)
    first = await run_chaos(fakegram, fake_bot, alice.id, seed=11)
    second = await run_chaos(fakegram, fake_bot, alice.id, seed=11)
    assert first == second
    assert {"ok", "429", "5xx", "drop"} <= set(first)
    await fake_bot.get_me()  # lifecycle methods are spared by default
