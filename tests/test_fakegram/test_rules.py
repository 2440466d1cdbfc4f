"""Telegram's rules with its exact error texts."""

from __future__ import annotations

import asyncio

import pytest
from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from tests.conftest import FakegramFactory
from tests.fakegram import FakeTelegram, ManualClock
from tests.fakegram.aiogram_support import make_bot
from tests.fakegram.errors import NOT_MODIFIED
from tests.fakegram.text import parse_html, utf16_len

TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"


def keyboard(*rows: list[str]) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [InlineKeyboardButton(text=data, callback_data=data) for data in row] for row in rows
        ]
    )


@pytest.fixture
async def alice_id(fakegram: FakeTelegram) -> int:
    return fakegram.add_user("Алиса", started=True).id


async def test_text_length_counts_utf16_units(fake_bot: Bot, alice_id: int) -> None:
    assert utf16_len("😀") == 2
    await fake_bot.send_message(alice_id, "😀" * 2048)  # 4096 units
    with pytest.raises(TelegramBadRequest, match="Bad Request: message is too long"):
        await fake_bot.send_message(alice_id, "😀" * 2048 + "x")


async def test_length_is_measured_after_entity_parsing(fake_bot: Bot, alice_id: int) -> None:
    sent = await fake_bot.send_message(alice_id, "<b>" + "я" * 4096 + "</b>", parse_mode="HTML")
    assert sent.text is not None and len(sent.text) == 4096


async def test_whitespace_only_text_is_empty(fake_bot: Bot, alice_id: int) -> None:
    with pytest.raises(TelegramBadRequest, match="Bad Request: message text is empty"):
        await fake_bot.send_message(alice_id, " <b> </b>\n", parse_mode="HTML")


async def test_caption_length(fakegram: FakeTelegram, fake_bot: Bot, alice_id: int) -> None:
    from aiogram.types import BufferedInputFile

    from .helpers import png

    photo = BufferedInputFile(png(), "p.png")
    await fake_bot.send_photo(alice_id, photo, caption="к" * 1024)
    with pytest.raises(TelegramBadRequest, match="Bad Request: message caption is too long"):
        await fake_bot.send_photo(alice_id, photo, caption="к" * 1025)


async def test_callback_data_is_1_to_64_bytes(fake_bot: Bot, alice_id: int) -> None:
    await fake_bot.send_message(alice_id, "ok", reply_markup=keyboard(["я" * 32]))
    with pytest.raises(TelegramBadRequest, match="Bad Request: BUTTON_DATA_INVALID"):
        await fake_bot.send_message(alice_id, "x", reply_markup=keyboard(["я" * 32 + "x"]))


async def test_keyboard_size(fake_bot: Bot, alice_id: int) -> None:
    await fake_bot.send_message(alice_id, "8", reply_markup=keyboard([str(i) for i in range(8)]))
    with pytest.raises(TelegramBadRequest, match="Bad Request: reply markup is too long"):
        await fake_bot.send_message(
            alice_id, "9", reply_markup=keyboard([str(i) for i in range(9)])
        )
    rows = [[f"{r}-{c}" for c in range(8)] for r in range(13)]  # 104 buttons
    with pytest.raises(TelegramBadRequest, match="Bad Request: reply markup is too long"):
        await fake_bot.send_message(alice_id, "many", reply_markup=keyboard(*rows))


async def test_buttons_need_an_action(fake_bot: Bot, alice_id: int) -> None:
    bare = InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(text="просто")]])
    with pytest.raises(TelegramBadRequest, match="Text buttons are unallowed"):
        await fake_bot.send_message(alice_id, "x", reply_markup=bare)


async def test_edit_to_identical_content(fake_bot: Bot, alice_id: int) -> None:
    sent = await fake_bot.send_message(alice_id, "стол", reply_markup=keyboard(["a"]))
    with pytest.raises(TelegramBadRequest) as refused:
        await fake_bot.edit_message_text(
            "стол", chat_id=alice_id, message_id=sent.message_id, reply_markup=keyboard(["a"])
        )
    assert refused.value.message == f"Bad Request: {NOT_MODIFIED}"
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await fake_bot.edit_message_reply_markup(
            chat_id=alice_id, message_id=sent.message_id, reply_markup=keyboard(["a"])
        )
    await fake_bot.edit_message_reply_markup(chat_id=alice_id, message_id=sent.message_id)


async def test_edit_or_delete_missing_message(fake_bot: Bot, alice_id: int) -> None:
    with pytest.raises(TelegramBadRequest, match="Bad Request: message to edit not found"):
        await fake_bot.edit_message_text("x", chat_id=alice_id, message_id=99)
    sent = await fake_bot.send_message(alice_id, "x")
    assert await fake_bot.delete_message(alice_id, sent.message_id)
    with pytest.raises(TelegramBadRequest, match="Bad Request: message to delete not found"):
        await fake_bot.delete_message(alice_id, sent.message_id)
    with pytest.raises(TelegramBadRequest, match="Bad Request: message to edit not found"):
        await fake_bot.edit_message_text("y", chat_id=alice_id, message_id=sent.message_id)


async def test_edit_text_of_a_photo_message(fake_bot: Bot, alice_id: int) -> None:
    from aiogram.types import BufferedInputFile

    from .helpers import png

    sent = await fake_bot.send_photo(alice_id, BufferedInputFile(png(), "p.png"))
    with pytest.raises(TelegramBadRequest, match="there is no text in the message to edit"):
        await fake_bot.edit_message_text("x", chat_id=alice_id, message_id=sent.message_id)


async def test_callback_answer_once_and_in_time(fakegram_factory: FakegramFactory) -> None:
    clock = ManualClock()
    fake = await fakegram_factory(clock=clock, callback_timeout=15)
    bot = make_bot(fake)
    try:
        alice = fake.add_user("Алиса", started=True)
        sent = await bot.send_message(alice.id, "x", reply_markup=keyboard(["a", "b"]))
        press = asyncio.create_task(alice.press(sent, data="a", timeout=2))
        (update,) = await bot.get_updates()
        assert update.callback_query is not None and update.callback_query.data == "a"
        with pytest.raises(TelegramBadRequest, match="MESSAGE_TOO_LONG"):
            await bot.answer_callback_query(update.callback_query.id, text="x" * 201)
        await bot.answer_callback_query(update.callback_query.id, text="x" * 200)
        assert (await press).text == "x" * 200
        with pytest.raises(TelegramBadRequest, match=TOO_OLD):
            await bot.answer_callback_query(update.callback_query.id)

        late = asyncio.create_task(alice.press(sent, data="b", timeout=0.2))
        (update,) = await bot.get_updates(offset=update.update_id + 1)
        assert update.callback_query is not None
        clock.advance(15.5)
        with pytest.raises(TelegramBadRequest, match=TOO_OLD):
            await bot.answer_callback_query(update.callback_query.id, text="поздно")
        assert not (await late).answered
    finally:
        await bot.session.close()


async def test_callback_answer_url_must_be_the_bots(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    alice = fakegram.add_user("Алиса", started=True)
    sent = await fake_bot.send_message(alice.id, "x", reply_markup=keyboard(["a"]))
    press = asyncio.create_task(alice.press(sent, data="a"))
    (update,) = await fake_bot.get_updates()
    assert update.callback_query is not None
    with pytest.raises(TelegramBadRequest, match="URL_INVALID"):
        await fake_bot.answer_callback_query(update.callback_query.id, url="https://example.com")
    link = f"https://t.me/{fakegram.bot_username}?start=join_5"
    await fake_bot.answer_callback_query(update.callback_query.id, url=link)
    assert (await press).url == link


@pytest.mark.parametrize(
    ("markup", "error"),
    [
        ("<b>open", 'Can\'t find end tag corresponding to start tag "b"'),
        ("<blink>x</blink>", 'Unsupported start tag "blink" at byte offset 0'),
        ("x</b>", "Unexpected end tag at byte offset 1"),
        ("<b><i>x</b></i>", 'Unmatched end tag at byte offset 7, expected "</i>", found "</b>"'),
        ("a < b", "Character '<' is reserved"),
        ('<span class="x">y</span>', 'Tag "span" must have class "tg-spoiler"'),
    ],
)
async def test_html_errors(fake_bot: Bot, alice_id: int, markup: str, error: str) -> None:
    with pytest.raises(TelegramBadRequest) as refused:
        await fake_bot.send_message(alice_id, markup, parse_mode="HTML")
    assert refused.value.message.startswith("Bad Request: can't parse entities: " + error)


async def test_html_text_and_entities_are_stored(
    fakegram: FakeTelegram, fake_bot: Bot, alice_id: int
) -> None:
    source = (
        '😀 <b>Ход</b> <a href="https://t.me/x">Алисы</a> &lt;2|5&gt; <tg-spoiler>s</tg-spoiler>'
    )
    sent = await fake_bot.send_message(alice_id, source, parse_mode="HTML")
    stored = fakegram.message(alice_id, sent.message_id)
    assert stored.text == "😀 Ход Алисы <2|5> s"
    assert [(e["type"], e["offset"], e["length"]) for e in stored.version.entities] == [
        ("bold", 3, 3),
        ("text_link", 7, 5),
        ("spoiler", 19, 1),
    ]
    with pytest.raises(TelegramBadRequest, match="unsupported parse_mode"):
        await fake_bot.send_message(alice_id, "x", parse_mode="BBCode")


def test_html_parser_nesting_and_numeric_entities() -> None:
    text, entities = parse_html('<pre><code class="language-py">a&#33;&#x3F;</code></pre>')
    assert text == "a!?"
    assert entities == [{"type": "pre", "language": "py", "offset": 0, "length": 3}]


async def test_bot_commands_by_scope(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    from aiogram.types import BotCommand, BotCommandScopeAllGroupChats

    group_scope = BotCommandScopeAllGroupChats()
    await fake_bot.set_my_commands([BotCommand(command="new", description="Новая игра")])
    await fake_bot.set_my_commands(
        [BotCommand(command="join", description="Войти")], scope=group_scope
    )
    assert fakegram.commands_for() == ["new"]
    assert fakegram.commands_for("all_group_chats") == ["join"]
    assert [c.command for c in await fake_bot.get_my_commands(scope=group_scope)] == ["join"]
    with pytest.raises(TelegramBadRequest, match="BOT_COMMAND_INVALID"):
        await fake_bot.set_my_commands([BotCommand(command="Новая", description="x")])
    await fake_bot.delete_my_commands()
    assert await fake_bot.get_my_commands() == []


async def test_chat_action(fake_bot: Bot, alice_id: int) -> None:
    assert await fake_bot.send_chat_action(alice_id, "upload_photo")
    with pytest.raises(TelegramBadRequest, match="wrong parameter action in request"):
        await fake_bot.send_chat_action(alice_id, "dancing")


async def test_inline_answer_limits(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    from typing import Any

    from aiogram.types import InlineQueryResultArticle, InputTextMessageContent

    def article(result_id: str) -> Any:
        content = InputTextMessageContent(message_text=result_id)
        return InlineQueryResultArticle(
            id=result_id, title=result_id, input_message_content=content
        )

    alice = fakegram.add_user("Алиса", started=True)
    asking = asyncio.create_task(alice.inline_query("x"))
    (update,) = await fake_bot.get_updates()
    assert update.inline_query is not None
    query_id = update.inline_query.id
    with pytest.raises(TelegramBadRequest, match="RESULTS_TOO_MUCH"):
        await fake_bot.answer_inline_query(query_id, [article(str(n)) for n in range(51)])
    with pytest.raises(TelegramBadRequest, match="RESULT_ID_DUPLICATE"):
        await fake_bot.answer_inline_query(query_id, [article("a"), article("a")])
    await fake_bot.answer_inline_query(query_id, [article("a")])
    assert [r["id"] for r in (await asking).results] == ["a"]
    with pytest.raises(TelegramBadRequest, match=TOO_OLD):
        await fake_bot.answer_inline_query(query_id, [article("b")])


async def test_html_user_mention_becomes_text_mention(
    fakegram: FakeTelegram, fake_bot: Bot
) -> None:
    alice = fakegram.add_user("Алиса", started=True)
    sent = await fake_bot.send_message(
        alice.id, f'Ход: <a href="tg://user?id={alice.id}">Алиса</a>', parse_mode="HTML"
    )
    assert sent.entities is not None
    (mention,) = sent.entities
    assert mention.type == "text_mention" and mention.user is not None
    assert mention.user.id == alice.id and (mention.offset, mention.length) == (5, 5)
