"""Ephemeral messages (Bot API 10.3): one member of a group alone sees them."""

from __future__ import annotations

import pytest
from aiogram import Bot, F, Router
from aiogram.exceptions import TelegramBadRequest
from aiogram.types import (
    BufferedInputFile,
    CallbackQuery,
    EphemeralMessageParameters,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    ReplyParameters,
)

from tests.fakegram import (
    FakeTelegram,
    HandPrivacy,
    ManualClock,
    assert_ephemeral_private,
    ephemeral_leaks,
)
from tests.fakegram.aiogram_support import make_bot
from tests.fakegram.server import EPHEMERAL_IN_PRIVATE
from tests.test_fakegram.helpers import png
from tests.test_fakegram.test_acting import polling


def _for(user_id: int) -> EphemeralMessageParameters:
    return EphemeralMessageParameters(receiver_user_id=user_id)


def _keyboard(data: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text="play", callback_data=data)]]
    )


async def test_only_the_receiver_sees_it(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    alice = fakegram.add_user("Алиса")
    bob = fakegram.add_user("Боб")
    group = fakegram.add_group("G", members=[alice, bob], supergroup=True)
    sent = await fake_bot.send_message(
        group.id, "your hand: 2-5", ephemeral_message_parameters=_for(alice.id)
    )
    assert sent.message_id == 0
    assert sent.ephemeral_message_id == 1
    assert sent.receiver_user is not None and sent.receiver_user.id == alice.id
    [seen] = group.ephemeral_for(alice)
    assert seen.content == "your hand: 2-5"
    assert group.view(bob) == group.visible_messages == []
    privacy = HandPrivacy(fakegram)
    privacy.deal(alice, ["2-5"], at=0)
    privacy.deal(bob, ["6-6"], at=0)
    assert privacy.leaks() == []
    [exposure] = fakegram.exposures
    assert (exposure.chat_id, exposure.audience, exposure.receiver) == (None, alice.id, alice.id)
    assert_ephemeral_private(fakegram)


async def test_private_chat_refuses_it(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    alice = fakegram.add_user("Алиса", started=True)
    with pytest.raises(TelegramBadRequest, match=EPHEMERAL_IN_PRIVATE):
        await fake_bot.send_message(alice.id, "x", ephemeral_message_parameters=_for(alice.id))
    assert alice.private_chat.visible_messages == []


async def test_receiver_must_be_a_member(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    alice = fakegram.add_user("Алиса")
    stranger = fakegram.add_user("Чужой")
    group = fakegram.add_group("G", members=[alice])
    with pytest.raises(TelegramBadRequest, match="user not found"):
        await fake_bot.send_message(group.id, "x", ephemeral_message_parameters=_for(stranger.id))


async def test_offline_receiver_gets_nothing(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    alice = fakegram.add_user("Алиса")
    group = fakegram.add_group("G", members=[alice])
    alice.online = False
    sent = await fake_bot.send_message(group.id, "x", ephemeral_message_parameters=_for(alice.id))
    assert sent.ephemeral_message_id == 1
    assert group.view(alice) == []
    assert fakegram.exposures == []


async def test_it_expires_and_its_id_is_reused(fakegram_factory: object) -> None:
    clock = ManualClock()
    fake = await fakegram_factory(clock=clock, ephemeral_lifetime=60.0)  # type: ignore[operator]
    bot = make_bot(fake)
    try:
        alice = fake.add_user("Алиса")
        group = fake.add_group("G", members=[alice], supergroup=True)
        first = await bot.send_message(group.id, "a", ephemeral_message_parameters=_for(alice.id))
        clock.advance(60.0)
        assert group.ephemeral_for(alice) == []
        with pytest.raises(TelegramBadRequest, match="message to edit not found"):
            await bot.edit_ephemeral_message_text(
                chat_id=group.id,
                receiver_user_id=alice.id,
                ephemeral_message_id=first.ephemeral_message_id or 0,
                text="b",
            )
        again = await bot.send_message(group.id, "c", ephemeral_message_parameters=_for(alice.id))
        assert again.ephemeral_message_id == first.ephemeral_message_id
    finally:
        await bot.session.close()


async def test_edits_and_delete(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    alice = fakegram.add_user("Алиса")
    bob = fakegram.add_user("Боб")
    group = fakegram.add_group("G", members=[alice, bob], supergroup=True)
    ids = {"chat_id": group.id, "receiver_user_id": alice.id}
    text = await fake_bot.send_message(group.id, "t", ephemeral_message_parameters=_for(alice.id))
    photo = await fake_bot.send_photo(
        group.id,
        BufferedInputFile(png(), "a.png"),
        caption="c",
        ephemeral_message_parameters=_for(alice.id),
    )
    assert (text.ephemeral_message_id, photo.ephemeral_message_id) == (1, 2)
    assert await fake_bot.edit_ephemeral_message_text(
        **ids, ephemeral_message_id=1, text="t2", reply_markup=_keyboard("k")
    )
    assert await fake_bot.edit_ephemeral_message_reply_markup(
        **ids, ephemeral_message_id=1, reply_markup=_keyboard("k2")
    )
    assert await fake_bot.edit_ephemeral_message_caption(
        **ids, ephemeral_message_id=2, caption="c2"
    )
    assert await fake_bot.edit_ephemeral_message_media(
        **ids,
        ephemeral_message_id=2,
        media=InputMediaPhoto(media=BufferedInputFile(png(color="red"), "b.png"), caption="c3"),
    )
    shown = {m.ephemeral_id: m for m in group.ephemeral_for(alice)}
    assert shown[1].content == "t2" and shown[1].buttons[0].callback_data == "k2"
    assert shown[2].content == "c3"
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await fake_bot.edit_ephemeral_message_text(
            chat_id=group.id, receiver_user_id=bob.id, ephemeral_message_id=1, text="x"
        )
    assert await fake_bot.delete_ephemeral_message(**ids, ephemeral_message_id=1)
    with pytest.raises(TelegramBadRequest, match="message to delete not found"):
        await fake_bot.delete_ephemeral_message(**ids, ephemeral_message_id=1)
    assert [m.ephemeral_id for m in group.ephemeral_for(alice)] == [2]
    assert group.view(bob) == []


async def test_a_press_on_one(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    alice = fakegram.add_user("Алиса")
    bob = fakegram.add_user("Боб")
    group = fakegram.add_group("G", members=[alice, bob], supergroup=True)
    sent = await fake_bot.send_message(
        group.id,
        "hand",
        reply_markup=_keyboard("tile"),
        ephemeral_message_parameters=_for(alice.id),
    )
    seen: list[CallbackQuery] = []
    router = Router()

    @router.callback_query(F.data == "tile")
    async def on_press(query: CallbackQuery) -> None:
        seen.append(query)
        await query.answer("ok")

    async with polling(fake_bot, router):
        answer = await alice.press(sent, data="tile")
    assert answer.answered and answer.text == "ok"
    [query] = seen
    assert query.message is not None
    assert query.message.message_id == 0
    assert getattr(query.message, "ephemeral_message_id", None) == sent.ephemeral_message_id
    with pytest.raises(ValueError, match="does not see"):
        await bob.press(sent, data="tile")


async def test_replies_within_fifteen_seconds(fakegram_factory: object) -> None:
    clock = ManualClock()
    fake = await fakegram_factory(clock=clock)  # type: ignore[operator]
    bot = make_bot(fake)
    try:
        alice = fake.add_user("Алиса")
        group = fake.add_group("G", members=[alice], supergroup=True)
        first = await bot.send_message(group.id, "a", ephemeral_message_parameters=_for(alice.id))
        reply = ReplyParameters(message_id=0, ephemeral_message_id=first.ephemeral_message_id)
        with pytest.raises(TelegramBadRequest, match="must be ephemeral"):
            await bot.send_message(group.id, "public", reply_parameters=reply)
        clock.advance(15.0)
        answer = await bot.send_message(
            group.id, "b", reply_parameters=reply, ephemeral_message_parameters=_for(alice.id)
        )
        assert answer.reply_to_message is not None
        clock.advance(0.5)
        with pytest.raises(TelegramBadRequest, match="message to be replied not found"):
            await bot.send_message(
                group.id, "c", reply_parameters=reply, ephemeral_message_parameters=_for(alice.id)
            )
    finally:
        await bot.session.close()


async def test_privacy_check_catches_a_leak(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    alice = fakegram.add_user("Алиса")
    bob = fakegram.add_user("Боб")
    group = fakegram.add_group("G", members=[alice, bob])
    await fake_bot.send_message(group.id, "secret", ephemeral_message_parameters=_for(alice.id))
    [message] = group.ephemeral_for(alice)
    group.messages[0] = message  # a broken fake: shown to the whole group
    found = ephemeral_leaks(fakegram)
    assert any("shared messages" in leak for leak in found)
    assert any(leak.startswith("Боб sees") for leak in found)
    with pytest.raises(AssertionError, match="ephemeral privacy broken"):
        assert_ephemeral_private(fakegram)
    del group.messages[0]


async def test_deprecated_fields_still_work_but_are_reported(
    fakegram: FakeTelegram, fake_bot: Bot
) -> None:
    alice = fakegram.add_user("Алиса")
    group = fakegram.add_group("G", members=[alice])
    sent = await fake_bot.send_message(group.id, "old style", receiver_user_id=alice.id)
    assert sent.ephemeral_message_id == 1
    assert fakegram.problems == ["sendMessage: field 'receiver_user_id' is deprecated since 10.3"]
    fakegram.problems.clear()
