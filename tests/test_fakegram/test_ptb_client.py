"""The local Telegram held to a second client: python-telegram-bot, written by nobody here.

aiogram's models check every answer the fake gives (``tests/conftest.py``); that only proves
the fake agrees with one reading of the Bot API. Here a small python-telegram-bot
``Application`` polls the fake over real HTTP, exactly as it would api.telegram.org, and
uses what the domino bot uses: commands in a private chat and in a group, an inline keyboard
whose presses are answered, a text edit, a photo upload, editMessageMedia (also turning a
text message into a photo), a reuse of a ``file_id``, a delete, and the fake's refusals of a
message id from another chat and of an empty upload, read in PTB's own exceptions. Every
call it makes must pass the fake's own checks (no unknown field, right types: the
``fakegram`` fixture's teardown), every answer must parse in PTB's own models (an error
handler and PTB's log would show it), and the chats must end as a client would show them.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator

import pytest
from telegram import (
    Bot,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputFile,
    InputMediaPhoto,
    Update,
)
from telegram.error import BadRequest
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
)
from telegram.request import HTTPXRequest

from tests.fakegram import FakeTelegram, MemberStatus

from .helpers import png

# Deadlines, not pauses: each wait ends as soon as the fake sees the answer; a loaded machine
# may take long, and that must not fail the test.
PATIENCE = 60.0
PICTURE = png(64, 48, "green")
OTHER_PICTURE = png(48, 64, "red")


def local_request() -> HTTPXRequest:
    """PTB's HTTP client for 127.0.0.1: no proxy from the environment, patient timeouts."""
    return HTTPXRequest(
        connect_timeout=PATIENCE,
        read_timeout=PATIENCE,
        write_timeout=PATIENCE,
        pool_timeout=PATIENCE,
        media_write_timeout=PATIENCE,
        httpx_kwargs={"trust_env": False},
    )


def keyboard(text: str, data: str) -> InlineKeyboardMarkup:
    """One button."""
    return InlineKeyboardMarkup([[InlineKeyboardButton(text, callback_data=data)]])


class TableBot:
    """A tiny bot in PTB's own style, shaped like the domino bot's use of the API."""

    def __init__(self) -> None:
        self.errors: list[BaseException] = []

    def install(self, app: Application) -> None:  # type: ignore[type-arg]
        app.add_handler(CommandHandler("start", self.start))
        app.add_handler(CommandHandler("table", self.table))
        app.add_handler(CallbackQueryHandler(self.pressed))
        app.add_error_handler(self.failed)

    async def start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_message is not None
        payload = " ".join(context.args or []) or "—"
        await update.effective_message.reply_text(
            f"Привет! <b>{payload}</b>", parse_mode="HTML", reply_markup=keyboard("Нажми", "press")
        )

    async def table(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        chat = update.effective_chat
        assert chat is not None
        assert update.effective_message is not None
        sent = await update.effective_message.reply_photo(
            PICTURE, caption="Стол", reply_markup=keyboard("Убрать", "delete")
        )
        file_id = sent.photo[-1].file_id
        again = await context.bot.send_photo(chat.id, file_id, caption="Снова стол")
        assert again.photo[-1].file_id == file_id
        await context.bot.edit_message_media(
            InputMediaPhoto(OTHER_PICTURE, caption="Новый стол"),
            chat_id=chat.id,
            message_id=again.message_id,
        )

    async def pressed(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        assert query is not None and query.message is not None
        if query.data == "press":
            await query.answer("Нажато")
            await query.edit_message_text(
                "Нажато один раз", reply_markup=keyboard("Картинка", "picture")
            )
        elif query.data == "picture":
            await query.edit_message_media(
                InputMediaPhoto(PICTURE, caption="Теперь картинка"),
                reply_markup=keyboard("Убрать", "delete"),
            )
            await query.answer()
        elif query.data == "delete":
            await query.delete_message()
            await query.answer("Убрано", show_alert=True)
        else:
            await query.answer("Эта кнопка устарела", show_alert=True)

    async def failed(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert context.error is not None
        self.errors.append(context.error)


@pytest.fixture
async def ptb_bot(fakegram: FakeTelegram) -> AsyncIterator[TableBot]:
    """The PTB application, polling the fake until the test ends."""
    app = (
        ApplicationBuilder()
        .token(fakegram.token)
        .base_url(f"{fakegram.url}/bot")
        .request(local_request())
        .get_updates_request(local_request())
        .build()
    )
    bot = TableBot()
    bot.install(app)
    async with app:
        await app.start()
        assert app.updater is not None
        await app.updater.start_polling(timeout=5)
        try:
            yield bot
        finally:
            await app.updater.stop()
            await app.stop()
    assert not bot.errors, f"PTB handlers failed: {bot.errors!r}"


async def test_a_python_telegram_bot_application_runs_against_the_fake(
    fakegram: FakeTelegram, ptb_bot: TableBot, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="telegram")
    alice = fakegram.add_user("Алиса", username="alice")
    bob = fakegram.add_user("Боб", username="bob")
    group = fakegram.add_group(
        "Домино", members=[alice, bob], bot_status=MemberStatus.ADMINISTRATOR
    )

    # /start with a deep-link payload: an HTML reply with a keyboard.
    await alice.start("j42")
    hello = await alice.private_chat.wait_for_message(
        lambda m: "Привет" in m.content, timeout=PATIENCE
    )
    assert hello.text == "Привет! j42" and hello.version.entities[0]["type"] == "bold"

    # A press is answered, and the message is edited in place.
    answer = await alice.press(hello, text="Нажми", timeout=PATIENCE)
    assert answer.answered and answer.text == "Нажато" and not answer.show_alert
    await fakegram.wait_for(lambda: hello.text == "Нажато один раз", timeout=PATIENCE)

    # editMessageMedia turns the text message into a photo with a new caption and keyboard.
    answer = await alice.press(hello, text="Картинка", timeout=PATIENCE)
    assert answer.answered
    await fakegram.wait_for(lambda: hello.photo is not None, timeout=PATIENCE)
    assert (hello.version.text, hello.caption) == (None, "Теперь картинка")
    assert hello.photo is not None and hello.photo.data == PICTURE

    # A command in a group (``/table@bot``): an upload (PTB quotes the command there), a
    # file_id reuse, a media edit.
    command = await bob.command(group, "table")
    table = await group.wait_for_message(lambda m: m.caption == "Стол", timeout=PATIENCE)
    assert table.reply_to is command
    again = await group.wait_for_message(
        lambda m: m.caption == "Новый стол", after=table, timeout=PATIENCE
    )
    assert table.photo is not None and table.photo.data == PICTURE
    assert again.photo is not None and again.photo.data == OTHER_PICTURE
    assert [v.caption for v in again.history] == ["Снова стол"]
    assert again.history[0].photo == table.photo

    # A press that deletes its own message, in the group and in the private chat.
    answer = await alice.press(table, text="Убрать", timeout=PATIENCE)
    assert answer.answered and answer.show_alert and answer.text == "Убрано"
    assert table.deleted
    answer = await alice.press(hello, text="Убрать", timeout=PATIENCE)
    assert answer.answered and hello.deleted
    assert alice.private_chat.bot_messages == []

    # A forged press gets the polite refusal: PTB reads what the fake sends as it is.
    refused = await bob.forge_press(again, "junk", timeout=PATIENCE)
    assert refused.answered and refused.show_alert and refused.text == "Эта кнопка устарела"

    await fakegram.idle(timeout=PATIENCE)
    failed = [c for c in fakegram.transcript if not c.ok]
    assert failed == [], [(c.method, c.description) for c in failed]
    used = {c.method for c in fakegram.transcript}
    assert {
        "getMe",
        "deleteWebhook",
        "getUpdates",
        "sendMessage",
        "sendPhoto",
        "editMessageText",
        "editMessageMedia",
        "deleteMessage",
        "answerCallbackQuery",
    } <= used
    fakegram.assert_clean()
    complaints = [r.getMessage() for r in caplog.records if r.name.startswith("telegram")]
    assert complaints == []


async def test_ptb_reads_the_refusals_of_foreign_ids_and_empty_files(
    fakegram: FakeTelegram,
) -> None:
    """Through the second client: a message id from one private chat names nothing in
    another (the bot's ids there come from one account-wide counter), and an empty upload
    is refused in Telegram's words."""
    alice = fakegram.add_user("Алиса", started=True)
    bob = fakegram.add_user("Боб", started=True)
    said = await bob.send(None, "привет")
    async with Bot(fakegram.token, base_url=f"{fakegram.url}/bot", request=local_request()) as bot:
        with pytest.raises(BadRequest, match=r"^Message to delete not found$"):
            await bot.delete_message(alice.id, said.message_id)
        with pytest.raises(BadRequest, match=r"^File must be non-empty$"):
            await bot.send_photo(alice.id, InputFile(b"", filename="empty.png"))
    assert not said.deleted and alice.private_chat.visible_messages == []
    refused = [(c.method, c.description) for c in fakegram.transcript if not c.ok]
    assert refused == [
        ("deleteMessage", "Bad Request: message to delete not found"),
        ("sendPhoto", "Bad Request: file must be non-empty"),
    ]
