"""Acting as users: commands, Start, buttons, inline mode, leaving; polling and webhooks."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from aiogram import Bot, Dispatcher, F, Router
from aiogram.exceptions import TelegramConflictError
from aiogram.types import (
    CallbackQuery,
    ChosenInlineResult,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQuery,
    InlineQueryResultArticle,
    InputTextMessageContent,
    Message,
)
from aiohttp import web

from tests.fakegram import FakeTelegram


@asynccontextmanager
async def polling(bot: Bot, router: Router) -> AsyncIterator[Dispatcher]:
    """Run an in-process aiogram Dispatcher against the fake while the block runs."""
    dispatcher = Dispatcher()
    dispatcher.include_router(router)
    task = asyncio.create_task(
        dispatcher.start_polling(bot, handle_signals=False, close_bot_session=False)
    )
    try:
        yield dispatcher
    finally:
        await dispatcher.stop_polling()
        await task


async def test_group_commands_and_privacy_mode(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    alice = fakegram.add_user("Алиса")
    group = fakegram.add_group("G", members=[alice])
    own = await fake_bot.send_message(group.id, "бот здесь")
    await alice.command(group, "new", "3")
    await alice.command(group, "help", mention=False)
    await alice.send(group, "/other@someone_else_bot")
    await alice.send(group, "болтовня")
    await alice.send(group, "ответ боту", reply_to=fakegram.message(group.id, own.message_id))
    await alice.send(group, f"эй @{fakegram.bot_username}")
    updates = await fake_bot.get_updates()
    texts = [u.message.text for u in updates if u.message]
    assert texts == [
        f"/new@{fakegram.bot_username} 3",
        "/help",
        "ответ боту",
        f"эй @{fakegram.bot_username}",
    ]
    first = updates[0].message
    assert first is not None and first.entities is not None
    entity = first.entities[0]
    assert (entity.type, entity.offset, entity.length) == ("bot_command", 0, 20)


async def test_start_with_deep_link_payload(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    alice = fakegram.add_user("Алиса")
    with pytest.raises(RuntimeError, match="must press Start first"):
        await alice.send(None, "привет")
    await alice.start("join_42")
    assert alice.started
    (update,) = await fake_bot.get_updates()
    assert update.message is not None and update.message.text == "/start join_42"
    assert update.message.chat.type == "private"


async def test_polling_offsets_allowed_updates_and_long_poll(
    fakegram: FakeTelegram, fake_bot: Bot
) -> None:
    alice = fakegram.add_user("Алиса", started=True)
    await alice.send(None, "1")
    await alice.send(None, "2")
    first = await fake_bot.get_updates()
    assert [u.message.text for u in first if u.message] == ["1", "2"]
    assert len(await fake_bot.get_updates()) == 2  # not confirmed yet
    assert await fake_bot.get_updates(offset=first[-1].update_id + 1) == []
    assert fakegram.pending_updates == 0

    waiting = asyncio.create_task(fake_bot.get_updates(timeout=5))
    await fakegram.wait_for(lambda: fakegram.long_polling)
    await alice.send(None, "3")
    woke = await asyncio.wait_for(waiting, 2)
    assert [u.message.text for u in woke if u.message] == ["3"]

    await alice.send(None, "4")  # dropped: the bot no longer subscribes to messages
    assert await fake_bot.get_updates(offset=woke[-1].update_id + 1, allowed_updates=["poll"]) == []
    assert fakegram.pending_updates == 0


async def test_second_poller_gets_conflict(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    first = asyncio.create_task(fake_bot.get_updates(timeout=5))
    await fakegram.wait_for(lambda: fakegram.long_polling)
    second = asyncio.create_task(fake_bot.get_updates(timeout=0))
    with pytest.raises(TelegramConflictError, match="terminated by other getUpdates request"):
        await first
    assert await second == []


async def test_webhook_delivery_secret_retry_and_reply_method(
    fakegram: FakeTelegram, fake_bot: Bot
) -> None:
    alice = fakegram.add_user("Алиса", started=True)
    received: list[tuple[str | None, dict[str, Any]]] = []

    async def hook(request: web.Request) -> web.Response:
        received.append(
            (request.headers.get("X-Telegram-Bot-Api-Secret-Token"), await request.json())
        )
        if len(received) == 1:
            return web.Response(status=500)  # Telegram retries
        reply = {"method": "sendMessage", "chat_id": alice.id, "text": "ответ из вебхука"}
        return web.json_response(reply)

    app = web.Application()
    app.router.add_post("/hook", hook)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    host, port = runner.addresses[0][:2]
    try:
        await fake_bot.set_webhook(f"http://{host}:{port}/hook", secret_token="s3cret")
        with pytest.raises(TelegramConflictError, match="can't use getUpdates method"):
            await fake_bot.get_updates()
        await alice.send(None, "привет")
        reply = await alice.private_chat.wait_for_message()
        assert reply.content == "ответ из вебхука"
        assert [secret for secret, _ in received] == ["s3cret", "s3cret"]
        assert received[0][1] == received[1][1]
        assert received[0][1]["message"]["text"] == "привет"
        assert fakegram.transcript.calls("sendMessage")[0].via == "webhook-reply"
        info = await fake_bot.get_webhook_info()
        assert info.url.endswith("/hook") and info.pending_update_count == 0
        await fake_bot.delete_webhook()
        assert await fake_bot.get_updates() == []
    finally:
        await runner.cleanup()


async def test_buttons_answers_and_stale_presses(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    alice = fakegram.add_user("Алиса", started=True)
    router = Router()
    game = {"turn": 1}

    @router.callback_query(F.data.startswith("move:"))
    async def on_move(query: CallbackQuery) -> None:
        turn = int((query.data or "").split(":")[1])
        assert isinstance(query.message, Message)
        if turn != game["turn"]:
            await query.answer("Этот ход уже сделан", show_alert=True)
            return
        game["turn"] += 1
        await query.answer("Принято")
        markup = InlineKeyboardMarkup(
            inline_keyboard=[[InlineKeyboardButton(text="Ход 2", callback_data="move:2")]]
        )
        await query.message.edit_text("Ход 2", reply_markup=markup)

    markup = InlineKeyboardMarkup(
        inline_keyboard=[
            [InlineKeyboardButton(text="Ход 1", callback_data="move:1")],
            [InlineKeyboardButton(text="Правила", url="https://example.com/rules")],
        ]
    )
    sent = await fake_bot.send_message(alice.id, "Ход 1", reply_markup=markup)
    message = fakegram.message(alice.id, sent.message_id)
    assert (await alice.press(message, text="Правила")).url == "https://example.com/rules"
    async with polling(fake_bot, router):
        answer = await alice.press(message, text="Ход 1")
        assert answer.answered and answer.text == "Принято" and not answer.show_alert
        await alice.private_chat.wait_for_message(lambda m: m.content == "Ход 2")
        with pytest.raises(LookupError, match="no button"):
            await alice.press(message, data="move:1")
        stale = await alice.press(message, data="move:1", stale=True)
        assert stale.show_alert and stale.text == "Этот ход уже сделан"
        await fakegram.idle()


async def test_unanswered_press_times_out(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    alice = fakegram.add_user("Алиса", started=True)
    markup = InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text="A", callback_data="a")]]
    )
    sent = await fake_bot.send_message(alice.id, "x", reply_markup=markup)
    answer = await alice.press(sent, text="A", timeout=0.05)
    assert not answer.answered


async def test_inline_query_and_chosen_result(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    alice = fakegram.add_user("Алиса", started=True)
    group = fakegram.add_group("G", members=[alice])
    router = Router()
    chosen: list[ChosenInlineResult] = []

    @router.inline_query()
    async def on_query(query: InlineQuery) -> None:
        markup = InlineKeyboardMarkup(
            inline_keyboard=[[InlineKeyboardButton(text="Ещё", callback_data="more")]]
        )
        result = InlineQueryResultArticle(
            id="t25",
            title=f"Сыграть {query.query}",
            input_message_content=InputTextMessageContent(
                message_text=f"<b>{query.query}</b>", parse_mode="HTML"
            ),
            reply_markup=markup,
        )
        await query.answer([result], is_personal=True, cache_time=0)

    @router.chosen_inline_result()
    async def on_chosen(result: ChosenInlineResult) -> None:
        chosen.append(result)
        await fake_bot.edit_message_text(
            "сыграно", inline_message_id=result.inline_message_id or ""
        )

    async with polling(fake_bot, router):
        answer = await alice.inline_query("2-5", chat=group)
        assert answer.is_personal and [r["title"] for r in answer.results] == ["Сыграть 2-5"]
        message = await alice.choose_inline_result(answer, "t25", chat=group)
        assert message.via_bot and message.content == "2-5"
        await fakegram.wait_for(lambda: message.content == "сыграно")
    assert chosen[0].result_id == "t25" and chosen[0].query == "2-5"


async def test_an_inline_message_takes_new_media_only_by_file_id(
    fakegram: FakeTelegram, fake_bot: Bot
) -> None:
    """editMessageMedia on an inline message: "a new file can't be uploaded; use a previously
    uploaded file via its file_id" (api.json); tdlib refuses an upload there with «Invalid
    message content specified»."""
    from aiogram.exceptions import TelegramBadRequest
    from aiogram.types import BufferedInputFile, InputMediaPhoto

    from .helpers import png

    alice = fakegram.add_user("Алиса", started=True)
    group = fakegram.add_group("G", members=[alice])
    router = Router()
    chosen: list[ChosenInlineResult] = []

    @router.inline_query()
    async def on_query(query: InlineQuery) -> None:
        markup = InlineKeyboardMarkup(
            inline_keyboard=[[InlineKeyboardButton(text="Ход", callback_data="move")]]
        )
        content = InputTextMessageContent(message_text="ход")
        result = InlineQueryResultArticle(
            id="a", title="ход", input_message_content=content, reply_markup=markup
        )
        await query.answer([result], is_personal=True, cache_time=0)

    @router.chosen_inline_result()
    async def on_chosen(result: ChosenInlineResult) -> None:
        chosen.append(result)

    async with polling(fake_bot, router):
        answer = await alice.inline_query("", chat=group)
        message = await alice.choose_inline_result(answer, "a", chat=group)
        await fakegram.wait_for(lambda: bool(chosen))
    inline_id = chosen[0].inline_message_id or ""
    upload = InputMediaPhoto(media=BufferedInputFile(png(), "t.png"), caption="стол")
    with pytest.raises(TelegramBadRequest, match="Bad Request: invalid message content specified"):
        await fake_bot.edit_message_media(upload, inline_message_id=inline_id)
    assert message.photo is None and message.text == "ход"
    sent = await fake_bot.send_photo(alice.id, BufferedInputFile(png(), "t.png"))
    assert sent.photo is not None
    by_id = InputMediaPhoto(media=sent.photo[-1].file_id, caption="стол")
    assert await fake_bot.edit_message_media(by_id, inline_message_id=inline_id) is True
    assert message.photo is not None and message.photo.data == png()
    assert (message.version.text, message.caption) == (None, "стол")


async def test_leave_join_and_bot_removed(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    alice = fakegram.add_user("Алиса")
    bob = fakegram.add_user("Боб")
    group = fakegram.add_group("G", members=[alice, bob])
    await bob.leave(group)
    await bob.join(group)
    await fakegram.remove_bot(group)
    updates = await fake_bot.get_updates()
    left = updates[0].message
    assert left is not None and left.left_chat_member is not None
    assert left.left_chat_member.id == bob.id
    joined = updates[1].message
    assert joined is not None and joined.new_chat_members is not None
    assert updates[2].my_chat_member is not None
    with pytest.raises(ValueError, match="not a member"):
        await fakegram.add_user("Ева").send(group, "/x")


async def test_idle_and_wait_for(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    alice = fakegram.add_user("Алиса", started=True)
    await fakegram.idle(quiet=0.01)
    await alice.send(None, "никто не читает")
    with pytest.raises(TimeoutError, match="1 pending updates"):
        await fakegram.idle(quiet=0.01, timeout=0.1)
    with pytest.raises(TimeoutError):
        await fakegram.wait_for(lambda: False, timeout=0.05)
    raw = json.dumps(fakegram.transcript.dump())
    assert isinstance(raw, str)


async def test_aiogram_webhook_reply_in_the_response_body(
    fakegram: FakeTelegram, fake_bot: Bot
) -> None:
    """aiogram's handler answers with the method as multipart in the HTTP response."""
    from aiogram.methods import SendMessage
    from aiogram.webhook.aiohttp_server import SimpleRequestHandler

    alice = fakegram.add_user("Алиса", started=True)
    router = Router()

    @router.message()
    async def echo(message: Message) -> SendMessage:
        return message.answer(f"эхо: {message.text}")

    dispatcher = Dispatcher()
    dispatcher.include_router(router)
    app = web.Application()
    SimpleRequestHandler(
        dispatcher, fake_bot, handle_in_background=False, secret_token="tok"
    ).register(app, path="/hook")
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    host, port = runner.addresses[0][:2]
    try:
        await fake_bot.set_webhook(f"http://{host}:{port}/hook", secret_token="tok")
        await alice.send(None, "раз")
        reply = await alice.private_chat.wait_for_message()
        assert reply.content == "эхо: раз"
        (call,) = fakegram.transcript.calls("sendMessage")
        assert call.via == "webhook-reply" and call.ok
    finally:
        await fake_bot.delete_webhook()
        await runner.cleanup()
