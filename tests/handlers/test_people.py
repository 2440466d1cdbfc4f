"""The person and the admin check handlers receive (handlers/people.py), without Telegram:
a fake Bot answers getChatMember and counts the calls."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, cast

from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest
from aiogram.methods import GetChatMember
from aiogram.types import Chat, ChatMemberMember, ChatMemberOwner, Message, TelegramObject, User

from bot.app.people import ANONYMOUS_ADMIN_ID, Person
from bot.app.usecases import ChatCheck
from handlers.people import AdminCheck, PersonMiddleware
from i18n import Lang

GROUP = Chat(id=-100, type="supergroup", title="Домино")
OTHER_GROUP = Chat(id=-200, type="supergroup", title="Другая")
ALICE = User(id=501, is_bot=False, first_name="Алиса", language_code="ru")
ANONYMOUS = User(id=ANONYMOUS_ADMIN_ID, is_bot=True, first_name="Group")


class FakeBot:
    """Answers getChatMember: `owner_of` holds (chat, user) pairs; Telegram refuses chats
    in `unknown`."""

    def __init__(self, owner_of: set[tuple[int, int]], unknown: frozenset[int] = frozenset()):
        self.owner_of = owner_of
        self.unknown = unknown
        self.asked: list[tuple[int, int]] = []

    async def get_chat_member(self, chat_id: int, user_id: int) -> object:
        self.asked.append((chat_id, user_id))
        if chat_id in self.unknown:
            raise TelegramBadRequest(
                GetChatMember(chat_id=chat_id, user_id=user_id), "chat not found"
            )
        user = User(id=user_id, is_bot=False, first_name="x")
        if (chat_id, user_id) in self.owner_of:
            return ChatMemberOwner(user=user, is_anonymous=False)
        return ChatMemberMember(user=user)


def message(user: User | None, *, sender_chat: Chat | None = None) -> Message:
    return Message(
        message_id=1,
        date=datetime.now(UTC),
        chat=GROUP,
        from_user=user,
        sender_chat=sender_chat,
        text="/cancel",
    )


async def through_middleware(event: TelegramObject, user: User | None) -> dict[str, Any] | None:
    """The data a handler behind `PersonMiddleware` gets; None if it was not called."""
    seen: list[dict[str, Any]] = []

    async def handler(event: TelegramObject, data: dict[str, Any]) -> None:
        seen.append(data)

    await PersonMiddleware()(handler, event, {"event_from_user": user})
    return seen[0] if seen else None


async def test_the_handler_gets_the_person_and_their_language() -> None:
    data = await through_middleware(message(ALICE), ALICE)
    assert data is not None
    assert data["person"] == Person(501, "Алиса", language_code="ru")
    assert data["lang"] is Lang.RU


async def test_an_event_without_a_sender_never_reaches_a_handler() -> None:
    assert await through_middleware(message(None), None) is None


async def admin_check(bot: FakeBot, event: Message, user: User) -> ChatCheck:
    added = await AdminCheck()(event, cast(Bot, bot), Person(user.id, user.first_name))
    return added["is_admin"]


async def test_telegram_is_asked_only_when_needed_and_once_per_chat() -> None:
    bot = FakeBot(owner_of={(GROUP.id, ALICE.id)})
    is_admin = await admin_check(bot, message(ALICE), ALICE)
    assert bot.asked == []  # the filter alone asks nothing
    assert await is_admin(GROUP.id)
    assert await is_admin(GROUP.id)
    assert not await is_admin(OTHER_GROUP.id)  # an owner elsewhere is no admin here
    assert bot.asked == [(GROUP.id, ALICE.id), (OTHER_GROUP.id, ALICE.id)]


async def test_a_chat_telegram_will_not_describe_makes_nobody_an_admin() -> None:
    bot = FakeBot(owner_of={(GROUP.id, ALICE.id)}, unknown=frozenset({GROUP.id}))
    is_admin = await admin_check(bot, message(ALICE), ALICE)
    assert not await is_admin(GROUP.id)


async def test_an_anonymous_admin_is_an_admin_of_its_own_chat_only() -> None:
    bot = FakeBot(owner_of=set())
    is_admin = await admin_check(bot, message(ANONYMOUS, sender_chat=GROUP), ANONYMOUS)
    assert await is_admin(GROUP.id)
    assert bot.asked == []
    assert not await is_admin(OTHER_GROUP.id)
    # Telegram's stand-in user without the group as its sender is no admin anywhere.
    is_admin = await admin_check(bot, message(ANONYMOUS), ANONYMOUS)
    assert not await is_admin(GROUP.id)
