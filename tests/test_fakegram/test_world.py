"""Users who never pressed Start, blocked bots, kicked bots, upgraded groups."""

from __future__ import annotations

import pytest
from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError, TelegramMigrateToChat

from tests.fakegram import FakeTelegram, MemberStatus

from .helpers import png


async def test_user_who_never_pressed_start(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    alice = fakegram.add_user("Алиса")
    fakegram.private_chat(alice)
    with pytest.raises(
        TelegramForbiddenError, match=r"^Telegram server says - Forbidden: bot can.t initiate"
    ):
        await fake_bot.send_message(alice.id, "привет")
    await alice.start()
    sent = await fake_bot.send_message(alice.id, "привет")
    assert sent.chat.id == alice.id


async def test_unknown_chat(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    with pytest.raises(TelegramBadRequest, match="Bad Request: chat not found"):
        await fake_bot.send_message(424242, "x")
    with pytest.raises(TelegramBadRequest, match="Bad Request: chat not found"):
        await fake_bot.send_message("@nobody", "x")


async def test_blocked_and_unblocked(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    alice = fakegram.add_user("Алиса", started=True)
    await alice.block()
    with pytest.raises(TelegramForbiddenError, match="Forbidden: bot was blocked by the user"):
        await fake_bot.send_message(alice.id, "x")
    updates = await fake_bot.get_updates(allowed_updates=["message", "my_chat_member"])
    change = updates[-1].my_chat_member
    assert change is not None
    assert (change.old_chat_member.status, change.new_chat_member.status) == ("member", "kicked")
    await alice.unblock()
    await fake_bot.send_message(alice.id, "снова")


@pytest.mark.parametrize("supergroup", [False, True])
async def test_kicked_from_group(fakegram: FakeTelegram, fake_bot: Bot, supergroup: bool) -> None:
    alice = fakegram.add_user("Алиса")
    group = fakegram.add_group("G", members=[alice], supergroup=supergroup)
    await fake_bot.send_message(group.id, "до")
    await fakegram.remove_bot(group, by=alice)
    kind = "supergroup chat" if supergroup else "group chat"
    with pytest.raises(TelegramForbiddenError, match=f"Forbidden: bot was kicked from the {kind}"):
        await fake_bot.send_message(group.id, "после")
    updates = await fake_bot.get_updates()
    change = updates[-1].my_chat_member
    assert change is not None and change.new_chat_member.status == "kicked"


async def test_bot_leaves_group(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    group = fakegram.add_group("G", members=[fakegram.add_user("Алиса")])
    assert await fake_bot.leave_chat(group.id)
    assert group.bot_status is MemberStatus.LEFT
    with pytest.raises(TelegramForbiddenError, match="bot is not a member of the group chat"):
        await fake_bot.send_message(group.id, "x")


async def test_group_upgraded_to_supergroup(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    alice = fakegram.add_user("Алиса")
    group = fakegram.add_group("G", members=[alice])
    supergroup = await fakegram.upgrade_to_supergroup(group)
    with pytest.raises(TelegramMigrateToChat) as refused:
        await fake_bot.send_message(group.id, "x")
    assert refused.value.migrate_to_chat_id == supergroup.id
    assert "Bad Request: group chat was upgraded to a supergroup chat" in refused.value.message
    updates = await fake_bot.get_updates()
    services = [u.message for u in updates if u.message]
    assert services[0].migrate_to_chat_id == supergroup.id
    assert services[1].migrate_from_chat_id == group.id
    assert services[1].chat.type == "supergroup"
    await fake_bot.send_message(supergroup.id, "здесь")


async def test_messages_kept_as_a_client_shows_them(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    alice = fakegram.add_user("Алиса")
    group = fakegram.add_group("G", members=[alice], bot_status=MemberStatus.ADMINISTRATOR)
    first = await fake_bot.send_message(group.id, "первое")
    await fake_bot.edit_message_text("второе", chat_id=group.id, message_id=first.message_id)
    await fake_bot.pin_chat_message(group.id, first.message_id)
    stored = fakegram.message(group.id, first.message_id)
    assert stored.text == "второе" and [v.text for v in stored.history] == ["первое"]
    assert stored.pinned and stored.edit_date is not None
    assert (await fake_bot.get_chat(group.id)).pinned_message is not None
    await fake_bot.unpin_chat_message(group.id)
    assert group.pinned == []
    await fake_bot.delete_message(group.id, first.message_id)
    assert stored.deleted and group.visible_messages == []
    admins = await fake_bot.get_chat_administrators(group.id)
    assert [a.status for a in admins] == ["creator", "administrator"]


async def test_pin_needs_admin_rights_in_groups(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    group = fakegram.add_group("G", members=[fakegram.add_user("Алиса")])
    sent = await fake_bot.send_message(group.id, "x")
    with pytest.raises(TelegramBadRequest, match="not enough rights to manage pinned messages"):
        await fake_bot.pin_chat_message(group.id, sent.message_id)


async def test_user_messages_cannot_be_deleted_by_plain_member(
    fakegram: FakeTelegram, fake_bot: Bot
) -> None:
    alice = fakegram.add_user("Алиса")
    group = fakegram.add_group("G", members=[alice])
    said = await alice.send(group, "/hello")
    with pytest.raises(TelegramBadRequest, match="Bad Request: message can't be deleted"):
        await fake_bot.delete_message(group.id, said.message_id)
    with pytest.raises(TelegramBadRequest, match="Bad Request: message can't be edited"):
        await fake_bot.edit_message_text("x", chat_id=group.id, message_id=said.message_id)


async def test_photo_upload_and_file_id_reuse(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    from aiogram.types import BufferedInputFile, InputMediaPhoto

    alice = fakegram.add_user("Алиса", started=True)
    sent = await fake_bot.send_photo(alice.id, BufferedInputFile(png(), "t.png"), caption="стол")
    file_id = sent.photo[-1].file_id if sent.photo else ""
    stored = fakegram.message(alice.id, sent.message_id)
    assert stored.photo is not None and stored.photo.data == png()
    assert (stored.photo.width, stored.photo.height, stored.photo.format) == (64, 48, "PNG")
    again = await fake_bot.send_photo(alice.id, file_id)
    assert again.photo and again.photo[-1].file_id == file_id
    edited = await fake_bot.edit_message_media(
        InputMediaPhoto(media=BufferedInputFile(png(color="red"), "r.png"), caption="новый"),
        chat_id=alice.id,
        message_id=sent.message_id,
    )
    assert isinstance(edited, object) and stored.caption == "новый"
    assert stored.photo.data == png(color="red")
    await fake_bot.edit_message_caption(chat_id=alice.id, message_id=sent.message_id, caption="c")
    assert stored.caption == "c"


async def test_bad_photos_are_refused(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    from aiogram.types import BufferedInputFile

    alice = fakegram.add_user("Алиса", started=True)
    with pytest.raises(TelegramBadRequest, match="IMAGE_PROCESS_FAILED"):
        await fake_bot.send_photo(alice.id, BufferedInputFile(b"not a png", "x.png"))
    with pytest.raises(TelegramBadRequest, match="PHOTO_INVALID_DIMENSIONS"):
        await fake_bot.send_photo(alice.id, BufferedInputFile(png(2100, 100), "x.png"))
    with pytest.raises(TelegramBadRequest, match="wrong file identifier/HTTP URL specified"):
        await fake_bot.send_photo(alice.id, "AgACAgIAAxkDAAInvented")


async def test_empty_upload_is_refused(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    """A zero-byte file is refused before anyone looks at the picture."""
    from aiogram.types import BufferedInputFile, InputMediaPhoto

    alice = fakegram.add_user("Алиса", started=True)
    with pytest.raises(TelegramBadRequest, match=r"Bad Request: file must be non-empty$"):
        await fake_bot.send_photo(alice.id, BufferedInputFile(b"", "empty.png"))
    sent = await fake_bot.send_photo(alice.id, BufferedInputFile(png(), "t.png"))
    with pytest.raises(TelegramBadRequest, match=r"Bad Request: file must be non-empty$"):
        await fake_bot.edit_message_media(
            InputMediaPhoto(media=BufferedInputFile(b"", "empty.png")),
            chat_id=alice.id,
            message_id=sent.message_id,
        )
    assert [m.message_id for m in alice.private_chat.visible_messages] == [sent.message_id]
    assert fakegram.message(alice.id, sent.message_id).photo is not None


async def test_edit_media_turns_a_text_message_into_a_photo(
    fakegram: FakeTelegram, fake_bot: Bot
) -> None:
    """editMessageMedia may "replace a text ... message with a media"."""
    from aiogram.types import BufferedInputFile, InlineKeyboardMarkup, InputMediaPhoto

    alice = fakegram.add_user("Алиса", started=True)
    sent = await fake_bot.send_message(alice.id, "<b>ждём</b>", parse_mode="HTML")
    edited = await fake_bot.edit_message_media(
        InputMediaPhoto(media=BufferedInputFile(png(), "t.png"), caption="стол"),
        chat_id=alice.id,
        message_id=sent.message_id,
        reply_markup=InlineKeyboardMarkup(inline_keyboard=[]),
    )
    assert not isinstance(edited, bool)
    assert edited.text is None and edited.entities is None
    assert edited.photo and edited.caption == "стол"
    stored = fakegram.message(alice.id, sent.message_id)
    assert (stored.text, stored.caption) == (None, "стол")
    assert stored.photo is not None and stored.photo.data == png()
    assert [v.text for v in stored.history] == ["ждём"]
    with pytest.raises(TelegramBadRequest, match="there is no text in the message to edit"):
        await fake_bot.edit_message_text("снова", chat_id=alice.id, message_id=sent.message_id)


async def test_message_ids_count_per_account_in_private_chats_and_groups(
    fakegram: FakeTelegram, fake_bot: Bot
) -> None:
    """In private chats and basic groups the bot's messages are numbered from one counter
    of its account, so an id names one message in one chat only; a supergroup numbers its
    own messages."""
    alice = fakegram.add_user("Алиса", started=True)
    bob = fakegram.add_user("Боб", started=True)
    group = fakegram.add_group("G", members=[alice, bob], bot_status=MemberStatus.ADMINISTRATOR)
    to_alice = await fake_bot.send_message(alice.id, "тебе")
    from_bob = await bob.send(None, "привет")
    in_group = await fake_bot.send_message(group.id, "всем")
    ids = [to_alice.message_id, from_bob.message_id, in_group.message_id]
    assert len(set(ids)) == 3 and ids == sorted(ids)
    with pytest.raises(TelegramBadRequest, match="Bad Request: message to delete not found"):
        await fake_bot.delete_message(bob.id, to_alice.message_id)
    with pytest.raises(TelegramBadRequest, match="Bad Request: message to edit not found"):
        await fake_bot.edit_message_text("x", chat_id=alice.id, message_id=from_bob.message_id)
    with pytest.raises(TelegramBadRequest, match="Bad Request: message to delete not found"):
        await fake_bot.delete_message(group.id, from_bob.message_id)
    assert not fakegram.message(bob.id, from_bob.message_id).deleted
    first = fakegram.add_group("S1", members=[alice], supergroup=True)
    second = fakegram.add_group("S2", members=[bob], supergroup=True)
    one = await fake_bot.send_message(first.id, "раз")
    other = await fake_bot.send_message(second.id, "два")
    assert one.message_id == other.message_id == 1
