"""Junk updates (tests/fakegram/junk.py), forged presses without waiting, chosen 5xx codes."""

from __future__ import annotations

import pytest
from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest, TelegramServerError

from tests.fakegram import FakeTelegram
from tests.fakegram.junk import Junk


async def test_junk_updates_arrive_as_telegram_sends_them(
    fakegram: FakeTelegram, fake_bot: Bot
) -> None:
    alice = fakegram.add_user("Алиса", started=True)
    group = fakegram.add_group("Двор", members=[alice])
    junk = Junk(fakegram)
    ghost = junk.ghost_group()
    first = junk.message(ghost, "/help@domino_test_bot junk", alice)
    junk.anonymous(group, "/cancel")
    junk.edited(group, alice, "/leave")
    junk.channel_post("/start")
    updates = await fake_bot.get_updates(
        allowed_updates=["message", "edited_message", "channel_post"]
    )
    assert updates[0].update_id == first and junk.pushed == 4
    ghostly, anonymous, edited, post = updates
    assert ghostly.message is not None and ghostly.message.chat.id == ghost["id"]
    assert ghostly.message.entities and ghostly.message.entities[0].type == "bot_command"
    assert anonymous.message is not None and anonymous.message.from_user is None
    assert anonymous.message.sender_chat is not None
    assert edited.edited_message is not None and edited.edited_message.edit_date
    assert post.channel_post is not None and post.channel_post.chat.type == "channel"
    with pytest.raises(TelegramBadRequest, match="chat not found"):
        await fake_bot.send_message(ghost["id"], "hello?")


async def test_updates_outside_allowed_updates_are_dropped(
    fakegram: FakeTelegram, fake_bot: Bot
) -> None:
    alice = fakegram.add_user("Алиса", started=True)
    junk = Junk(fakegram)
    junk.channel_post("/start", edited=True)
    junk.edited(alice.private_chat, alice, "/start")
    kept = junk.message(alice.private_chat, "/start", alice)
    updates = await fake_bot.get_updates(allowed_updates=["message"])
    assert [u.update_id for u in updates] == [kept]


async def test_pushed_presses_resolve_with_the_answer(
    fakegram: FakeTelegram, fake_bot: Bot
) -> None:
    alice = fakegram.add_user("Алиса", started=True)
    sent = await fake_bot.send_message(alice.id, "buttons were here")
    junk = Junk(fakegram)
    on_message = junk.press(alice, "forged:1", message=fakegram.message(alice.id, sent.message_id))
    on_nothing = junk.press(alice, "forged:2")
    on_ghost = junk.press(alice, "forged:3", on=junk.ghost_group())
    updates = await fake_bot.get_updates(allowed_updates=["callback_query"])
    queries = [u.callback_query for u in updates]
    assert [q.data for q in queries if q] == ["forged:1", "forged:2", "forged:3"]
    assert queries[1] is not None and queries[1].inline_message_id and not queries[1].message
    for query, text in zip(queries, ("one", "two", "three"), strict=True):
        assert query is not None
        await fake_bot.answer_callback_query(query.id, text=text)
    assert [f.result().text for f in (on_message, on_nothing, on_ghost)] == ["one", "two", "three"]


async def test_random_server_errors_use_the_given_codes(
    fakegram: FakeTelegram, fake_bot: Bot
) -> None:
    alice = fakegram.add_user("Алиса", started=True)
    fakegram.faults.random(seed=3, server_error=1.0, server_statuses=(502, 503))
    for _ in range(8):
        with pytest.raises(TelegramServerError):
            await fake_bot.send_message(alice.id, "x")
    codes = {c.error_code for c in fakegram.transcript.calls("sendMessage")}
    assert codes == {502, 503}
    with pytest.raises(ValueError, match="5xx"):
        fakegram.faults.random(seed=3, server_error=1.0, server_statuses=(429,))
