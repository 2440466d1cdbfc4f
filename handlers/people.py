"""Who is acting, in the use cases' terms, and what Telegram says they may do in a chat.

- `PersonMiddleware` gives every message and button handler the acting `person: Person`
  and their `lang: Lang` as typed parameters; an event without a sender never reaches a
  handler.
- `AdminCheck`, a filter that adds to the handler's data (aiogram's filter-to-context
  pattern), gives `is_admin: ChatCheck`: whether that person is an admin of a chat the
  use case names, the game's own chat above all (an admin of another group is no admin
  here). Telegram is asked
  only when the use case asks, at most once per chat per update, so a handler that needs
  no admin never costs a getChatMember call.

The use cases hold no Bot: they get these checks as callables.
"""

from __future__ import annotations

import logging
from typing import Any

from aiogram import BaseMiddleware, Bot
from aiogram.dispatcher.event.bases import NextMiddlewareType
from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError
from aiogram.filters import Filter
from aiogram.types import (
    CallbackQuery,
    Chat,
    ChatMemberRestricted,
    Message,
    TelegramObject,
    User,
)

from bot.app.people import ANONYMOUS_ADMIN_ID, Person
from bot.app.usecases import ChatCheck, ChatRecord

GROUP_TYPES = frozenset({"group", "supergroup"})
ADMIN_STATUSES = frozenset({"creator", "administrator"})
MEMBER_STATUSES = frozenset({"creator", "administrator", "member"})
log = logging.getLogger(__name__)
# The rest of the chain a middleware of handlers/ passes the event on to.
Handler = NextMiddlewareType[TelegramObject]


def person_of(user: User) -> Person:
    """The use cases' view of a Telegram user (used by the middlewares, and by /stats for
    the person a command replies to)."""
    return Person(
        id=user.id,
        first_name=user.first_name,
        last_name=user.last_name,
        username=user.username,
        language_code=user.language_code,
    )


class PersonMiddleware(BaseMiddleware):
    """An outer middleware of messages and button presses: puts `person` and `lang` (the
    language Telegram reports for them) into the handler's data.

    Telegram sends every message and press with a sender (a channel or an anonymous admin
    writing in a group has a stand-in user); one without is dropped here with a log line,
    since there is nobody to answer."""

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        user = data.get("event_from_user")
        if not isinstance(user, User):
            log.info("a %s without a sender was ignored", type(event).__name__)
            return None
        person = person_of(user)
        data["person"] = person
        data["lang"] = person.lang
        return await handler(event, data)


class AdminCheck(Filter):
    """Always passes; adds `is_admin: ChatCheck` for the acting person (see the module's
    docstring). An anonymous admin's message is an admin's in its own chat without asking:
    only a chat's admins can write as the chat."""

    async def __call__(
        self, event: Message | CallbackQuery, bot: Bot, person: Person
    ) -> dict[str, ChatCheck]:
        known = event.chat.id if isinstance(event, Message) and by_anonymous_admin(event) else None
        return {"is_admin": _admin_check(bot, person.id, known)}


def _admin_check(bot: Bot, user_id: int, admin_of: int | None) -> ChatCheck:
    answers: dict[int, bool] = {}

    async def is_admin(chat_id: int) -> bool:
        if chat_id == admin_of:
            return True
        if chat_id not in answers:
            answers[chat_id] = await _status(bot, chat_id, user_id) in ADMIN_STATUSES
        return answers[chat_id]

    return is_admin


def chat_of(chat: Chat) -> ChatRecord:
    return ChatRecord(id=chat.id, type=chat.type, title=chat.title)


def topic_of(message: Message) -> int | None:
    """The forum topic a message was written in (its `message_thread_id`); None in
    General or a group that is no forum, where a reply carries its reply thread's id
    without being a topic's message."""
    return message.message_thread_id if message.is_topic_message else None


def pressed_in(call: CallbackQuery) -> int | None:
    """The chat of the message whose button was pressed; None for an inline message or one
    Telegram no longer shows (a press there acts on no game)."""
    return call.message.chat.id if isinstance(call.message, Message) else None


def pressed_in_own_private_chat(call: CallbackQuery) -> bool:
    """Hand, "I'm back" and similar buttons are only ever sent to the person's own private
    chat, whose id is the person's id: their handlers' filter is
    `handlers.filters.in_own_private_chat`."""
    message = call.message
    return (
        isinstance(message, Message)
        and message.chat.type == "private"
        and message.chat.id == call.from_user.id
    )


def pressed_on_own_hand(call: CallbackQuery) -> bool:
    """Hand buttons: pressed on a hand in the presser's own private chat, or on one shown
    inside a group as an ephemeral message whose receiver is the presser (Telegram shows
    it to nobody else). Which game's hand it is, and that the game is that group's, the
    use case checks (`checked_press`, its `group`)."""
    if pressed_in_own_private_chat(call):
        return True
    message = call.message
    return (
        isinstance(message, Message)
        and message.chat.type in GROUP_TYPES
        and message.ephemeral_message_id is not None
        and message.receiver_user is not None
        and message.receiver_user.id == call.from_user.id
    )


def hand_group(call: CallbackQuery) -> int | None:
    """The group a hand button was pressed in (a hand shown there); None for a private hand."""
    message = call.message
    if isinstance(message, Message) and message.chat.type in GROUP_TYPES:
        return message.chat.id
    return None


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


async def is_admin(bot: Bot, chat_id: int, user_id: int) -> bool:
    """Whether `user_id` is an admin (or the owner) of the chat now."""
    return await _status(bot, chat_id, user_id) in ADMIN_STATUSES


async def is_member(bot: Bot, chat_id: int, user_id: int) -> bool:
    """Whether `user_id` is in the chat now (owner, admin, member, or restricted but in)."""
    return await _status(bot, chat_id, user_id) in MEMBER_STATUSES
