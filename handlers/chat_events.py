"""What happens to chats: the bot removed from a group, a group upgraded to a supergroup."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import IS_NOT_MEMBER, ChatMemberUpdatedFilter
from aiogram.types import ChatMemberUpdated, Message

from bot.effects import EffectDispatcher
from bot.usecases import Chats
from handlers.filters import OnLoop, in_group

router = Router(name="chat_events")


@router.my_chat_member(ChatMemberUpdatedFilter(member_status_changed=IS_NOT_MEMBER), in_group)
async def on_removed(event: ChatMemberUpdated, chats: Chats, dispatch: EffectDispatcher) -> None:
    await dispatch(chats.bot_left_group(event.chat.id))


@router.message(OnLoop(F.migrate_to_chat_id.as_("new_chat_id")))
async def on_migrated(
    message: Message, new_chat_id: int, chats: Chats, dispatch: EffectDispatcher
) -> None:
    await dispatch(chats.chat_migrated(message.chat.id, new_chat_id))
