"""Turning Telegram's users and chats into the service's types, and asking Telegram who
may do what in a chat (the service holds no Bot: it gets these checks as callables)."""

from __future__ import annotations

import logging

from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError
from aiogram.types import CallbackQuery, Chat, ChatMemberRestricted, Message, User

from bot.service import ANONYMOUS_ADMIN_ID, ChatCheck, Person
from storage.records import ChatRecord

GROUP_TYPES = frozenset({"group", "supergroup"})
ADMIN_STATUSES = frozenset({"creator", "administrator"})
MEMBER_STATUSES = frozenset({"creator", "administrator", "member"})
log = logging.getLogger(__name__)


def person_of(user: User) -> Person:
    return Person(
        id=user.id,
        first_name=user.first_name,
        last_name=user.last_name,
        username=user.username,
        language_code=user.language_code,
    )


def chat_of(chat: Chat) -> ChatRecord:
    return ChatRecord(id=chat.id, type=chat.type, title=chat.title)


def pressed_in(call: CallbackQuery) -> int | None:
    """The chat of the message whose button was pressed; None for an inline message or one
    Telegram no longer shows (a press there acts on no game)."""
    return call.message.chat.id if isinstance(call.message, Message) else None


def pressed_in_own_private_chat(call: CallbackQuery) -> bool:
    """Hand, "I'm back" and similar buttons are only ever sent to the person's own private
    chat, whose id is the person's id (issue 11, item 1)."""
    message = call.message
    return (
        isinstance(message, Message)
        and message.chat.type == "private"
        and message.chat.id == call.from_user.id
    )


def by_anonymous_admin(message: Message) -> bool:
    """An admin writing as the group: Telegram sends it from `GroupAnonymousBot` with the
    group itself as `sender_chat` (only the chat's admins can)."""
    return (
        message.from_user is not None
        and message.from_user.id == ANONYMOUS_ADMIN_ID
        and message.sender_chat is not None
        and message.sender_chat.id == message.chat.id
    )


async def _status(bot: Bot, chat_id: int, user_id: int) -> str | None:
    """The person's status in the chat as Telegram says (`restricted` counts as `member`
    while they are in the chat); None if Telegram will not tell us."""
    try:
        member = await bot.get_chat_member(chat_id, user_id)
    except (TelegramBadRequest, TelegramForbiddenError) as exc:  # a chat we cannot see
        log.info("chat %s: the status of user %s is unknown: %s", chat_id, user_id, exc.message)
        return None
    if isinstance(member, ChatMemberRestricted):
        return "member" if member.is_member else "left"
    return member.status


def admin_check(bot: Bot, user_id: int) -> ChatCheck:
    """Whether `user_id` is an admin (or the owner) of a given chat, asked when needed."""

    async def is_admin(chat_id: int) -> bool:
        return await _status(bot, chat_id, user_id) in ADMIN_STATUSES

    return is_admin


async def is_member(bot: Bot, chat_id: int, user_id: int) -> bool:
    """Whether `user_id` is in the chat now (owner, admin, member, or restricted but in)."""
    return await _status(bot, chat_id, user_id) in MEMBER_STATUSES
