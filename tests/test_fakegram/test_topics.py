"""Forum topics: forum supergroups, their topics and General, as the Bot API shows them."""

from __future__ import annotations

import pytest
from aiogram import Bot, F, Router
from aiogram.exceptions import TelegramBadRequest
from aiogram.filters import Command
from aiogram.types import (
    BufferedInputFile,
    CallbackQuery,
    EphemeralMessageParameters,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    ReplyParameters,
)

from tests.fakegram import (
    FakeChat,
    FakeTelegram,
    FakeUser,
    HandPrivacy,
    MemberStatus,
    assert_ephemeral_private,
)
from tests.fakegram.server import (
    NOT_A_FORUM,
    THREAD_NOT_FOUND,
    TOPIC_CLOSED,
    TOPIC_ID_INVALID,
    TOPIC_NOT_MODIFIED,
)
from tests.test_fakegram.helpers import png
from tests.test_fakegram.test_acting import polling


def _forum(
    fake: FakeTelegram, *, bot_status: MemberStatus = MemberStatus.ADMINISTRATOR
) -> tuple[FakeChat, FakeUser, FakeUser]:
    """A forum with Алиса (its owner) and Боб (a member); the bot an admin by default."""
    alice = fake.add_user("Алиса", started=True)
    bob = fake.add_user("Боб")
    group = fake.add_group(
        "Форум",
        members=[alice, bob],
        admins=[alice],
        supergroup=True,
        forum=True,
        bot_status=bot_status,
    )
    return group, alice, bob


def _keyboard(data: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text="play", callback_data=data)]]
    )


async def test_a_forum_says_so(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    group, _, _ = _forum(fakegram)
    plain = fakegram.add_group("G", supergroup=True)
    assert (await fake_bot.get_chat(group.id)).is_forum is True
    assert (await fake_bot.get_chat(plain.id)).is_forum is None
    with pytest.raises(ValueError, match="only a supergroup"):
        fakegram.add_group("G", forum=True)
    member = await fake_bot.get_chat_member(group.id, fakegram.bot_id)
    assert getattr(member, "can_manage_topics", None) is True


async def test_bot_creates_a_topic_and_writes_in_it(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    group, _, _ = _forum(fakegram)
    topic = await fake_bot.create_forum_topic(group.id, "  Партия 1  ", icon_color=16766590)
    assert (topic.name, topic.icon_color) == ("Партия 1", 16766590)
    [root] = group.visible_messages
    assert root.message_id == root.thread_id == topic.message_thread_id
    assert root.service == {"forum_topic_created": {"name": "Партия 1", "icon_color": 16766590}}
    assert group.topic(topic.message_thread_id).creator is None
    assert await fake_bot.get_updates() == []  # no update of the bot's own doing

    sent = await fake_bot.send_message(group.id, "ход", message_thread_id=topic.message_thread_id)
    assert sent.message_thread_id == topic.message_thread_id and sent.is_topic_message
    # A topic is the reply thread of its first message: the Bot API shows it as a reply.
    assert sent.reply_to_message is not None
    assert sent.reply_to_message.forum_topic_created is not None
    general = await fake_bot.send_message(group.id, "общий")
    assert general.message_thread_id is None and general.is_topic_message is None
    assert general.reply_to_message is None
    photo = await fake_bot.send_photo(
        group.id,
        BufferedInputFile(png(), "p.png"),
        caption="стол",
        message_thread_id=topic.message_thread_id,
    )
    assert photo.message_thread_id == topic.message_thread_id
    await fake_bot.send_chat_action(group.id, "typing", message_thread_id=topic.message_thread_id)

    in_topic = group.topic(topic.message_thread_id).messages
    assert [m.content for m in in_topic] == ["", "ход", "стол"]
    assert [m.content for m in group.topic_messages(None)] == ["общий"]
    assert [t.thread_id for t in group.live_topics] == [topic.message_thread_id]


async def test_thread_errors(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    group, alice, _ = _forum(fakegram)
    plain = fakegram.add_group("G", members=[alice], supergroup=True)
    basic = fakegram.add_group("B", members=[alice])
    for chat_id in (plain.id, basic.id, alice.id):
        with pytest.raises(TelegramBadRequest, match=THREAD_NOT_FOUND):
            await fake_bot.send_message(chat_id, "x", message_thread_id=1)
    # General has no thread id; an unknown one is not found either.
    for thread_id in (1, 999):
        with pytest.raises(TelegramBadRequest, match=THREAD_NOT_FOUND):
            await fake_bot.send_message(group.id, "x", message_thread_id=thread_id)
    with pytest.raises(TelegramBadRequest, match=THREAD_NOT_FOUND):
        await fake_bot.send_chat_action(group.id, "typing", message_thread_id=999)
    with pytest.raises(TelegramBadRequest, match=NOT_A_FORUM):
        await fake_bot.create_forum_topic(plain.id, "x")
    with pytest.raises(TelegramBadRequest, match="title must be non-empty"):
        await fake_bot.create_forum_topic(group.id, "   ")
    with pytest.raises(TelegramBadRequest, match="invalid icon color"):
        await fake_bot.create_forum_topic(group.id, "x", icon_color=0x123456)
    with pytest.raises(TelegramBadRequest, match=TOPIC_ID_INVALID):
        await fake_bot.close_forum_topic(group.id, 999)
    long = await fake_bot.create_forum_topic(group.id, "я" * 200)
    assert len(long.name) == 128
    assert group.visible_messages[-1].thread_id == long.message_thread_id


async def test_rights_to_manage_topics(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    group, alice, _ = _forum(fakegram, bot_status=MemberStatus.MEMBER)
    with pytest.raises(TelegramBadRequest, match="not enough rights to create a topic"):
        await fake_bot.create_forum_topic(group.id, "x")
    topic = await alice.create_topic(group, "Алисина")
    for call, text in (
        (fake_bot.close_forum_topic, "not enough rights to close or open the topic"),
        (fake_bot.delete_forum_topic, "not enough rights to delete the topic"),
    ):
        with pytest.raises(TelegramBadRequest, match=text):
            await call(group.id, topic.thread_id)
    with pytest.raises(TelegramBadRequest, match="not enough rights to edit the topic"):
        await fake_bot.edit_forum_topic(group.id, topic.thread_id, name="y")
    with pytest.raises(TelegramBadRequest, match="not enough rights to close or open"):
        await fake_bot.close_general_forum_topic(group.id)
    group.bot_status = MemberStatus.ADMINISTRATOR
    group.bot_can_manage_topics = False
    with pytest.raises(TelegramBadRequest, match="not enough rights to create a topic"):
        await fake_bot.create_forum_topic(group.id, "x")
    # An admin without can_manage_topics still deletes (can_delete_messages) ...
    await fake_bot.delete_forum_topic(group.id, topic.thread_id)
    # ... and the creator of a topic manages it without the right.
    group.bot_can_manage_topics = True
    own = await fake_bot.create_forum_topic(group.id, "своя")
    group.bot_can_manage_topics = False
    await fake_bot.close_forum_topic(group.id, own.message_thread_id)
    await fake_bot.edit_forum_topic(group.id, own.message_thread_id, name="своя 2")


async def test_closing_and_reopening(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    group, alice, bob = _forum(fakegram)
    made = await fake_bot.create_forum_topic(group.id, "Партия")
    thread = made.message_thread_id
    assert await fake_bot.close_forum_topic(group.id, thread)
    assert group.topic(thread).closed
    assert group.topic_messages(thread)[-1].service == {"forum_topic_closed": {}}
    with pytest.raises(TelegramBadRequest, match=TOPIC_NOT_MODIFIED):
        await fake_bot.close_forum_topic(group.id, thread)
    # An admin that may manage topics still writes in a closed one ...
    await fake_bot.send_message(group.id, "итог", message_thread_id=thread)
    # ... anyone else is refused, the bot without the right too.
    group.bot_can_manage_topics = False
    with pytest.raises(TelegramBadRequest, match=TOPIC_CLOSED):
        await fake_bot.send_message(group.id, "ещё", message_thread_id=thread)
    with pytest.raises(ValueError, match="closed topic"):
        await bob.send(group, "можно?", topic=thread)
    await alice.send(group, "админ может", topic=thread)
    group.bot_can_manage_topics = True
    assert await fake_bot.reopen_forum_topic(group.id, thread)
    with pytest.raises(TelegramBadRequest, match=TOPIC_NOT_MODIFIED):
        await fake_bot.reopen_forum_topic(group.id, thread)
    await bob.send(group, "снова можно", topic=thread)
    assert group.topic_messages(thread)[-2].service == {"forum_topic_reopened": {}}


async def test_deleting_a_topic(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    group, alice, _ = _forum(fakegram)
    made = await fake_bot.create_forum_topic(group.id, "Партия")
    thread = made.message_thread_id
    sent = await fake_bot.send_message(
        group.id, "стол", message_thread_id=thread, reply_markup=_keyboard("t")
    )
    await fake_bot.pin_chat_message(group.id, sent.message_id)
    await alice.send(group, "привет", topic=thread)
    general = await fake_bot.send_message(group.id, "общий")
    assert await fake_bot.delete_forum_topic(group.id, thread)
    assert group.topic(thread).deleted and group.live_topics == []
    assert group.topic_messages(thread) == [] and group.pinned == []
    assert [m.message_id for m in group.visible_messages] == [general.message_id]
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await fake_bot.edit_message_text("new", chat_id=group.id, message_id=sent.message_id)
    with pytest.raises(TelegramBadRequest, match="message to delete not found"):
        await fake_bot.delete_message(group.id, sent.message_id)
    with pytest.raises(TelegramBadRequest, match=THREAD_NOT_FOUND):
        await fake_bot.send_message(group.id, "x", message_thread_id=thread)
    with pytest.raises(TelegramBadRequest, match="message to be replied not found"):
        await fake_bot.send_message(
            group.id, "x", reply_parameters=ReplyParameters(message_id=sent.message_id)
        )
    for call in (fake_bot.delete_forum_topic, fake_bot.reopen_forum_topic):
        with pytest.raises(TelegramBadRequest, match=TOPIC_ID_INVALID):
            await call(group.id, thread)
    with pytest.raises(LookupError, match="deleted"):
        await alice.press(fakegram.message(group.id, sent.message_id), data="t")
    with pytest.raises(ValueError, match="no topic"):
        await alice.send(group, "x", topic=thread)


async def test_a_person_acts_in_a_topic(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    group, alice, bob = _forum(fakegram)
    topic = await alice.create_topic(group, "Алисина", icon_color=9367192)
    created = await fake_bot.get_updates()
    [update] = created
    assert update.message is not None
    assert update.message.forum_topic_created is not None
    assert update.message.forum_topic_created.name == "Алисина"
    assert update.message.message_id == update.message.message_thread_id == topic.thread_id
    assert update.message.is_topic_message
    await fake_bot.get_updates(offset=update.update_id + 1)

    router = Router()
    seen: list[Message] = []
    pressed: list[CallbackQuery] = []

    @router.message(Command("new"))
    async def on_new(message: Message) -> None:
        seen.append(message)
        await message.answer("стол", reply_markup=_keyboard("go"))  # keeps the topic

    @router.callback_query(F.data == "go")
    async def on_go(query: CallbackQuery) -> None:
        pressed.append(query)
        assert isinstance(query.message, Message)
        await query.message.answer("ход")
        await query.answer("ok")

    async with polling(fake_bot, router):
        await bob.command(group, "new", topic=topic)
        table = await group.wait_for_message(lambda m: m.content == "стол")
        answer = await bob.press(table, data="go")
        await group.wait_for_message(lambda m: m.content == "ход")
    assert answer.answered and answer.text == "ok"
    [command] = seen
    assert command.message_thread_id == topic.thread_id and command.is_topic_message
    assert command.reply_to_message is not None
    assert command.reply_to_message.message_id == topic.thread_id
    assert table.thread_id == topic.thread_id
    [query] = pressed
    assert isinstance(query.message, Message)
    assert query.message.message_thread_id == topic.thread_id and query.message.is_topic_message
    assert [m.content for m in topic.messages][1:] == ["/new@domino_test_bot", "стол", "ход"]
    assert group.topic_messages(None) == []

    await alice.edit_topic(topic, "Переименована")
    await alice.close_topic(topic)
    await alice.reopen_topic(topic)
    updates = await fake_bot.get_updates()
    services = [
        name
        for u in updates
        if u.message
        for name in ("forum_topic_edited", "forum_topic_closed", "forum_topic_reopened")
        if getattr(u.message, name) is not None
    ]
    assert services == ["forum_topic_edited", "forum_topic_closed", "forum_topic_reopened"]
    assert all(u.message and u.message.message_thread_id == topic.thread_id for u in updates)
    with pytest.raises(ValueError, match="may not manage"):
        await bob.close_topic(topic)
    own = await bob.create_topic(group, "Бобова")
    await bob.close_topic(own)  # a topic's creator manages it
    await alice.delete_topic(own)
    assert own.deleted and own.messages == []


async def test_replies_keep_the_topic(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    group, alice, bob = _forum(fakegram)
    made = await fake_bot.create_forum_topic(group.id, "Партия")
    thread = made.message_thread_id
    question = await alice.send(group, f"@{fakegram.bot_username} как ходить?", topic=thread)
    reply = await fake_bot.send_message(
        group.id, "так", reply_parameters=ReplyParameters(message_id=question.message_id)
    )
    assert reply.message_thread_id == thread and reply.is_topic_message
    assert reply.reply_to_message is not None
    assert reply.reply_to_message.message_id == question.message_id
    stored = fakegram.message(group.id, reply.message_id)
    assert stored.thread_id == thread
    follow_up = await bob.send(group, "спасибо", reply_to=stored)
    assert follow_up.thread_id == thread

    # In General a reply carries its reply thread's root as message_thread_id, with no
    # is_topic_message; that id is no topic (tdlib/telegram-bot-api#447).
    root = await fake_bot.send_message(group.id, "общий")
    await fake_bot.get_updates(offset=-1)
    answer = await alice.send(group, "ответ", reply_to=fakegram.message(group.id, root.message_id))
    assert answer.thread_id is None
    [update] = await fake_bot.get_updates(offset=-1)
    assert update.message is not None
    assert update.message.message_thread_id == root.message_id
    assert not update.message.is_topic_message
    with pytest.raises(TelegramBadRequest, match=THREAD_NOT_FOUND):
        await fake_bot.send_message(
            group.id, "x", message_thread_id=update.message.message_thread_id
        )
    await update.message.answer("в General")  # aiogram leaves the thread out here
    assert group.topic_messages(None)[-1].content == "в General"


async def test_general_topic(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    group, alice, bob = _forum(fakegram)
    assert await fake_bot.close_general_forum_topic(group.id)
    assert group.general_closed
    with pytest.raises(TelegramBadRequest, match=TOPIC_NOT_MODIFIED):
        await fake_bot.close_general_forum_topic(group.id)
    await fake_bot.send_message(group.id, "бот может")  # it may manage topics
    group.bot_can_manage_topics = False
    with pytest.raises(TelegramBadRequest, match=TOPIC_CLOSED):
        await fake_bot.send_message(group.id, "нельзя")
    with pytest.raises(ValueError, match="closed topic"):
        await bob.send(group, "можно?")
    group.bot_can_manage_topics = True
    assert await fake_bot.reopen_general_forum_topic(group.id)
    assert await fake_bot.hide_general_forum_topic(group.id)
    assert (group.general_hidden, group.general_closed) == (True, True)  # hiding closes it
    with pytest.raises(TelegramBadRequest, match=TOPIC_NOT_MODIFIED):
        await fake_bot.hide_general_forum_topic(group.id)
    assert await fake_bot.unhide_general_forum_topic(group.id)
    # Unhiding does not open it.
    assert (group.general_hidden, group.general_closed) == (False, True)
    await alice.reopen_general(group)
    assert await fake_bot.edit_general_forum_topic(group.id, "Лобби")
    assert group.general_name == "Лобби"
    with pytest.raises(TelegramBadRequest, match=TOPIC_NOT_MODIFIED):
        await fake_bot.edit_general_forum_topic(group.id, "Лобби")
    services = [next(iter(m.service)) for m in group.topic_messages(None) if m.service]
    assert services == [
        "forum_topic_closed",
        "forum_topic_reopened",
        "general_forum_topic_hidden",
        "general_forum_topic_unhidden",
        "forum_topic_reopened",
        "forum_topic_edited",
    ]
    [update] = await fake_bot.get_updates()  # only Алиса's reopening reached the bot
    assert update.message is not None and update.message.forum_topic_reopened is not None
    assert update.message.message_thread_id is None


async def test_edit_unpin_and_icons(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    group, _, _ = _forum(fakegram)
    icons = await fake_bot.get_forum_topic_icon_stickers()
    assert icons and all(s.type == "custom_emoji" and s.custom_emoji_id for s in icons)
    emoji = icons[0].custom_emoji_id
    made = await fake_bot.create_forum_topic(group.id, "Партия", icon_custom_emoji_id=emoji)
    assert made.icon_custom_emoji_id == emoji
    thread = made.message_thread_id
    assert await fake_bot.edit_forum_topic(group.id, thread, name="Финал")
    topic = group.topic(thread)
    assert topic.name == "Финал"
    assert group.topic_messages(thread)[-1].service == {"forum_topic_edited": {"name": "Финал"}}
    with pytest.raises(TelegramBadRequest, match=TOPIC_NOT_MODIFIED):
        await fake_bot.edit_forum_topic(group.id, thread, name="Финал")
    other = icons[1].custom_emoji_id
    assert await fake_bot.edit_forum_topic(group.id, thread, icon_custom_emoji_id=other)
    assert topic.icon_custom_emoji_id == other

    in_topic = await fake_bot.send_message(group.id, "a", message_thread_id=thread)
    in_general = await fake_bot.send_message(group.id, "b")
    for sent in (in_topic, in_general):
        await fake_bot.pin_chat_message(group.id, sent.message_id)
    assert await fake_bot.unpin_all_forum_topic_messages(group.id, thread)
    assert [m.message_id for m in group.pinned] == [in_general.message_id]
    assert await fake_bot.unpin_all_general_forum_topic_messages(group.id)
    assert group.pinned == []


async def test_ephemeral_in_a_topic(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    group, alice, bob = _forum(fakegram)
    made = await fake_bot.create_forum_topic(group.id, "Партия")
    thread = made.message_thread_id
    sent = await fake_bot.send_message(
        group.id,
        "твоя рука: 2-5",
        message_thread_id=thread,
        ephemeral_message_parameters=EphemeralMessageParameters(receiver_user_id=alice.id),
    )
    assert sent.message_thread_id == thread and sent.is_topic_message
    await fake_bot.send_message(group.id, "ход Алисы", message_thread_id=thread)
    await fake_bot.send_message(group.id, "в общем")
    mine = group.view(alice, thread_id=thread)
    assert [m.content for m in mine] == ["", "твоя рука: 2-5", "ход Алисы"]
    assert [m.content for m in group.view(bob, thread_id=thread)] == ["", "ход Алисы"]
    assert [m.content for m in group.view(alice, thread_id=None)] == ["в общем"]
    assert len(group.view(alice)) == 4
    privacy = HandPrivacy(fakegram)
    privacy.deal(alice, ["2-5"], at=0)
    privacy.assert_no_leaks()
    assert_ephemeral_private(fakegram)
    await fake_bot.delete_forum_topic(group.id, thread)
    assert group.ephemeral_for(alice) == []
