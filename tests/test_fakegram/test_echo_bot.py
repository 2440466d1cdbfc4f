"""A real aiogram bot in a subprocess, driven as two users, by polling and by webhook."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.fakegram import FakeTelegram
from tests.fakegram.waiting import within

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(params=["polling", "webhook"])
async def echo_bot(request: pytest.FixtureRequest, fakegram: FakeTelegram) -> AsyncIterator[str]:
    mode: str = request.param
    args = ["--api", fakegram.url, "--token", fakegram.token]
    if mode == "webhook":
        args.append("--webhook")
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.test_fakegram.echo_bot",
        *args,
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
    )
    assert process.stdout is not None
    try:
        line = await within(process.stdout.readline(), 30, "the echo bot's READY")
        assert line.strip() == b"READY", line
        yield mode
    finally:
        process.terminate()
        await process.wait()


async def test_two_users_in_a_group_and_in_private(fakegram: FakeTelegram, echo_bot: str) -> None:
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    group = fakegram.add_group("Домино", members=[alice, bob], admins=[alice])

    await alice.start("join_7")
    greeting = await alice.private_chat.wait_for_message()
    assert greeting.content == "Привет! payload=join_7"
    await bob.start()
    assert (await bob.private_chat.wait_for_message()).content == "Привет! payload=-"

    await alice.send(None, "как дела?")
    echo = await alice.private_chat.wait_for_message(after=greeting)
    assert echo.content == "echo: как дела?"

    fakegram.faults.flood_next("sendMessage", chat_id=group.id, retry_after=1)
    await bob.command(group, "menu")
    menu = await group.wait_for_message(lambda m: m.content == "Меню", timeout=10)
    refused = [c for c in fakegram.transcript.calls("sendMessage") if c.error_code == 429]
    assert len(refused) == 1 and refused[0].parameters == {"retry_after": 1}

    answer = await alice.press(menu, text="Ping")
    assert answer.answered and answer.text == "pong" and not answer.show_alert
    await group.wait_for_message(lambda m: m.content == "Нажал Алиса")
    assert menu.content == "Нажал Алиса" and menu.history[0].text == "Меню"
    assert menu.buttons == []  # an edit without reply_markup removes the keyboard

    await bob.send(group, "просто текст")  # privacy mode: the bot does not see it
    await fakegram.idle()
    assert [m.content for m in group.bot_messages] == ["Нажал Алиса"]
    if echo_bot == "webhook":
        assert fakegram.webhook_url is not None
        assert len(fakegram.delivered_updates) >= 5
