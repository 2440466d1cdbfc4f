"""Turning Telegram's users and chats into the service's types."""

from __future__ import annotations

from aiogram.types import Chat, User

from bot.service import Person
from storage.records import ChatRecord

GROUP_TYPES = frozenset({"group", "supergroup"})


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
