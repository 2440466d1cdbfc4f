"""bot.telegram.session.JsonSession against aiogram's own session, over HTTP to
tests/fakegram.

The same calls are made through each session to two fakes set up alike; what each fake
understood (its transcript: the typed parameters), what it answered and what aiogram
handed back must be the same, and each request's body is JSON unless it uploads a file.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.exceptions import TelegramBadRequest
from aiogram.methods import AnswerCallbackQuery, SendMessage, TelegramMethod
from aiogram.types import (
    BotCommand,
    BufferedInputFile,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    LinkPreviewOptions,
    ReplyParameters,
)
from aiohttp import web

from bot.infra import perf
from bot.telegram.session import JsonSession
from tests.fakegram import FakeTelegram

FakegramFactory = Callable[..., Awaitable[FakeTelegram]]
NOW = 1_800_000_000
PNG = (  # a 1x1 picture
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00"
    b"\x00\x90wS\xde\x00\x00\x00\x0cIDATx\x9cc\xf8\xcf\xc0\x00\x00\x03\x01\x01\x00\xc9\xfe"
    b"\x92\xef\x00\x00\x00\x00IEND\xaeB`\x82"
)


class Quick(JsonSession):
    """No pause on close (it waits for TLS connections; there are none here)."""

    async def close(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()


class Stock(AiohttpSession):
    async def close(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()


def keyboard(turn: int) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(text="6|5", callback_data=f"p1:{turn}:6-5"),
                InlineKeyboardButton(text="Базар", callback_data=f"b1:{turn}"),
            ],
            [InlineKeyboardButton(text="Правила", url="https://t.me/domino_test_bot?start=r")],
        ]
    )


async def conversation(fake: FakeTelegram, session: AiohttpSession) -> list[Any]:
    """A run of the calls the bot makes; what aiogram returned for each, or the error."""
    fake._now = lambda: NOW  # type: ignore[method-assign]
    kinds: list[str] = []
    read_params = fake._read_params

    async def noted(request: web.Request) -> Any:
        kinds.append(request.content_type)
        return await read_params(request)

    fake._read_params = noted  # type: ignore[method-assign]
    alice = fake.add_user("Алиса", username="alice", started=True)
    group = fake.add_group("Домино", members=[alice], admins=[alice])
    bot = Bot(
        fake.token,
        session=session,
        default=DefaultBotProperties(parse_mode="HTML", allow_sending_without_reply=True),
    )
    answers: list[Any] = []
    try:
        text = await bot.send_message(group.id, "<b>Партия</b> 1 — ход", reply_markup=keyboard(1))
        answers.append(text)
        answers.append(
            await bot.send_message(
                group.id,
                "ответ",
                reply_parameters=ReplyParameters(message_id=text.message_id),
                link_preview_options=LinkPreviewOptions(is_disabled=True),
                disable_notification=False,
            )
        )
        answers.append(
            await bot.edit_message_text(
                text="<i>ход 2</i>",
                chat_id=group.id,
                message_id=text.message_id,
                reply_markup=keyboard(2),
            )
        )
        answers.append(
            await bot.edit_message_reply_markup(
                chat_id=group.id, message_id=text.message_id, reply_markup=keyboard(3)
            )
        )
        photo = await bot.send_photo(
            group.id, BufferedInputFile(PNG, "table.png"), caption="стол", reply_markup=keyboard(4)
        )
        answers.append(photo)
        answers.append(
            await bot.edit_message_media(
                InputMediaPhoto(media=BufferedInputFile(PNG, "t.png"), caption="<b>ход</b> 5"),
                chat_id=group.id,
                message_id=photo.message_id,
                reply_markup=keyboard(5),
            )
        )
        assert photo.photo is not None
        answers.append(
            await bot.edit_message_media(
                InputMediaPhoto(media=photo.photo[-1].file_id, caption="ход 6"),
                chat_id=group.id,
                message_id=photo.message_id,
            )
        )
        before = set(fake._pending_callbacks)
        fake.push_callback(alice, "x")
        (query,) = set(fake._pending_callbacks) - before
        answers.append(await bot.answer_callback_query(query, text="Не ваш ход", show_alert=True))
        answers.append(await bot.delete_message(group.id, photo.message_id))
        answers.append(
            await bot.set_my_commands(
                [BotCommand(command="domino", description="Играть")], language_code="ru"
            )
        )
        answers.append(await bot.get_chat_member(group.id, alice.id))
        try:
            await bot.edit_message_text(text="нет", chat_id=group.id, message_id=999)
        except TelegramBadRequest as error:
            answers.append(("error", type(error).__name__, error.message))
        return [
            [answer.model_dump(mode="json") if hasattr(answer, "model_dump") else answer]
            for answer in answers
        ] + [kinds]
    finally:
        await bot.session.close()


def transcript(fake: FakeTelegram) -> list[tuple[str, Any, Any, str | None]]:
    """What the fake understood and answered; a file's part name is random (attach://)."""
    return [(c.method, unnamed(dict(c.params)), c.result, c.description) for c in fake.transcript]


def unnamed(value: Any) -> Any:
    if isinstance(value, str) and value.startswith("attach://"):
        return "attach://"
    if isinstance(value, dict):
        return {key: unnamed(item) for key, item in value.items()}
    if isinstance(value, list):
        return [unnamed(item) for item in value]
    return value


async def test_the_same_calls_and_answers_as_aiogrammes_session(
    fakegram_factory: FakegramFactory,
) -> None:
    stock_fake, json_fake = await fakegram_factory(), await fakegram_factory()
    stock = await conversation(stock_fake, Stock(api=TelegramAPIServer.from_base(stock_fake.url)))
    before = perf.snapshot()
    ours = await conversation(json_fake, Quick(api=TelegramAPIServer.from_base(json_fake.url)))
    counted = perf.since(before)

    # The answers aiogram hands back are the same, but editMessageText's: the message as
    # edited, which the bot never reads, is True (the API's other answer to that method).
    assert stock[2][0]["message_id"] and ours[2] == [True]
    assert ours[:2] + ours[3:-1] == stock[:2] + stock[3:-1]
    assert transcript(json_fake) == transcript(stock_fake)
    assert len(json_fake.transcript) == 12
    # Only the two calls that upload a picture are multipart; the stock session sends
    # every call as a form.
    assert ours[-1] == [
        "application/json",
        "application/json",
        "application/json",
        "application/json",
        "multipart/form-data",
        "multipart/form-data",
        *["application/json"] * 6,
    ]
    assert set(stock[-1]) == {"application/x-www-form-urlencoded", "multipart/form-data"}
    assert counted["api.sendMessage"] == 2
    assert counted["api.editMessageText"] == 2
    assert counted["api.editMessageMedia"] == 2
    assert counted["api.answerCallbackQuery"] == 1
    assert counted["api.deleteMessage"] == 1


async def test_a_keyboard_echoed_as_sent_is_the_one_sent(fakegram: FakeTelegram) -> None:
    """The answer's keyboard is not parsed again when Telegram echoes it unchanged."""
    alice = fakegram.add_user("Алиса", username="alice", started=True)
    bot = Bot(fakegram.token, session=Quick(api=TelegramAPIServer.from_base(fakegram.url)))
    try:
        sent = keyboard(1)
        message = await bot.send_message(alice.id, "ход", reply_markup=sent)
        assert message.reply_markup is sent
        assert message.bot is bot
    finally:
        await bot.session.close()


@pytest.mark.parametrize(
    ("status", "body"),
    [
        (200, b'{"ok":true,"result":true}'),
        (200, b'{"ok": true, "result": true}'),
        (200, b'{"ok":true,"result":{"message_id":"x"}}'),
        (200, b"not json"),
        (400, b'{"ok":false,"error_code":400,"description":"Bad Request: message not found"}'),
        (
            429,
            b'{"ok":false,"error_code":429,"description":"Too Many Requests","parameters":'
            b'{"retry_after":3}}',
        ),
    ],
)
def test_answers_read_as_aiogram_reads_them(status: int, body: bytes) -> None:
    """The quick ways through an answer give aiogram's result or raise aiogram's error."""
    bot = Bot("123:abc")
    ours, stock = JsonSession(), AiohttpSession()
    methods: list[TelegramMethod[Any]] = [
        AnswerCallbackQuery(callback_query_id="1"),
        SendMessage(chat_id=1, text="x"),
    ]
    for method in methods:
        try:
            expected: Any = stock.check_response(bot, method, status, body.decode()).result
        except Exception as error:  # the error is what is compared
            with pytest.raises(type(error)) as raised:
                ours.answer_of(bot, method, status, body)
            assert str(raised.value) == str(error)
        else:
            assert ours.answer_of(bot, method, status, body) == expected


async def test_each_request_names_the_instance_that_made_it(fakegram: FakeTelegram) -> None:
    """With `INSTANCE_NAME` the User-Agent says whose call it was, a picture's included
    (the local Telegram's transcript shows it beside each call)."""
    alice = fakegram.add_user("Алиса", username="alice", started=True)
    api = TelegramAPIServer.from_base(fakegram.url)
    named = Bot(fakegram.token, session=Quick(api=api, instance="bot-a"))
    plain = Bot(fakegram.token, session=Quick(api=api))
    try:
        await named.send_message(alice.id, "ход")
        await named.send_photo(alice.id, BufferedInputFile(PNG, "table.png"))
        await plain.send_message(alice.id, "ход")
    finally:
        await named.session.close()
        await plain.session.close()
    senders = [call.sender or "" for call in fakegram.transcript.calls()]
    assert [sender.endswith(" domino/bot-a") for sender in senders] == [True, True, False]
    assert "aiogram/" in senders[2] and "domino/" not in senders[2]
