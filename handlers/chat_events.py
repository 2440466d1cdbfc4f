"""What happens to chats: the bot removed from a group, a person leaving a group (or
removed from it), a forum topic reopened, a group upgraded to a supergroup."""

from __future__ import annotations

import dataclasses

from aiogram import F, Router
from aiogram.filters import IS_NOT_MEMBER, ChatMemberUpdatedFilter
from aiogram.types import ChatMemberUpdated, Message

from bot.app.effects import EffectDispatcher
from bot.app.people import People
from bot.app.usecases import Chats, Endings, Tournaments, Viewing
from handlers.filters import OnLoop, in_group
from handlers.people import person_of, topic_of

router = Router(name="chat_events")


@router.my_chat_member(ChatMemberUpdatedFilter(member_status_changed=IS_NOT_MEMBER), in_group)
async def on_removed(event: ChatMemberUpdated, chats: Chats, dispatch: EffectDispatcher) -> None:
    await dispatch(chats.bot_left_group(event.chat.id))


@router.message(OnLoop(F.migrate_to_chat_id.as_("new_chat_id")))
async def on_migrated(
    message: Message, new_chat_id: int, chats: Chats, dispatch: EffectDispatcher
) -> None:
    await dispatch(chats.chat_migrated(message.chat.id, new_chat_id))


@router.message(OnLoop(F.forum_topic_reopened), in_group)
async def on_topic_reopened(message: Message, chats: Chats, dispatch: EffectDispatcher) -> None:
    """A person reopened a forum topic: a game there that waited while it was closed is
    shown again (`bot.telegram.topics`)."""
    await dispatch(chats.topic_reopened(message.chat.id, topic_of(message)))


@router.message(OnLoop(F.left_chat_member), in_group)
async def on_member_left(
    message: Message,
    endings: Endings,
    people: People,
    dispatch: EffectDispatcher,
    viewing: Viewing | None = None,
    tournaments: Tournaments | None = None,
) -> None:
    """A person left the group, or was removed from it: as their /leave there (out of
    the lobby, or a computer plays their seat out and the group is told), since the
    group's game is no place for someone who is not in the group; and out of its
    tournament (off the sign-up list, or forfeited from then on). Nobody is answered:
    the lobby or the group's notice shows it, and their hand says so."""
    user = message.left_chat_member
    if user is None or user.is_bot:
        return  # the bot itself: `on_removed`
    if viewing is not None:  # the Mini App shows them the group's games no more
        viewing.left(message.chat.id, user.id)
    lang = await people.language_of(user.id)  # Telegram names no language for them here
    person = dataclasses.replace(person_of(user), language_code=lang.value)
    await dispatch(endings.leave(message.chat.id, person))
    if tournaments is not None:
        await dispatch(tournaments.person_left(message.chat.id, user.id))
