"""/top, /stats, /history and their buttons: parse, ask the stats service, reply or edit.

A press is only honoured on a message in a group (where these buttons are sent);
the service checks the page and the match, so a forged or foreign press is answered
politely and changes nothing.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable

from aiogram import F, Router
from aiogram.exceptions import TelegramBadRequest
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Chat, Message

from bot.callbacks import HistoryCb, TopCb
from bot.i18n import Lang, t
from bot.people import Person
from bot.stats_service import Chat as StatsChat
from bot.stats_service import Screen, StatsService
from bot.usecases import Answer, Refusal
from handlers.buttons import reply
from handlers.people import GROUP_TYPES, person_of

router = Router(name="stats")
log = logging.getLogger(__name__)
in_group = F.chat.type.in_(GROUP_TYPES)
in_private = F.chat.type == "private"


def where(chat: Chat) -> StatsChat:
    return StatsChat(id=chat.id, title=chat.title, is_group=chat.type in GROUP_TYPES)


async def show(message: Message, screen: Screen) -> None:
    await message.reply(screen.text, reply_markup=screen.keyboard, parse_mode="HTML")


@router.message(Command("top"), in_group)
async def on_top(message: Message, lang: Lang, stats: StatsService) -> None:
    await show(message, await stats.top(where(message.chat), lang))


@router.message(Command("top", "history"), in_private)
async def on_group_only_in_private(message: Message, command: CommandObject, lang: Lang) -> None:
    """Leaderboards and histories belong to groups: the answer says where to ask."""
    await message.answer(t(f"{command.command}.private", lang))


@router.message(Command("stats"))
async def on_stats(message: Message, person: Person, lang: Lang, stats: StatsService) -> None:
    """Yours here; as a reply in a group, the replied-to person's here; in private, yours
    across all groups. A reply to a bot's message asks about the sender, and so does a
    message in a forum topic (Telegram makes it a reply to the topic's first message)."""
    chat = where(message.chat)
    about = person
    replied = message.reply_to_message
    if (
        chat.is_group
        and replied is not None
        and replied.forum_topic_created is None
        and replied.from_user is not None
        and not replied.from_user.is_bot
    ):
        about = person_of(replied.from_user)
    await show(message, await stats.player(about.id, about.name, chat, lang))


@router.message(Command("history"), in_group)
async def on_history(message: Message, lang: Lang, stats: StatsService) -> None:
    await show(message, await stats.history(where(message.chat), lang))


async def _edit(
    call: CallbackQuery, lang: Lang, screen_of: Callable[[StatsChat], Awaitable[Screen]]
) -> None:
    """Answer the press and put the screen `screen_of` the pressed message's group into
    that message. A press on anything but a group's message still shown is answered as
    out of date; a refusal of the stats service is only answered."""
    message = call.message
    if not isinstance(message, Message) or message.chat.type not in GROUP_TYPES:
        await reply(call, Answer(t("alert.stale", lang), alert=True))
        return
    try:
        screen = await screen_of(where(message.chat))
    except Refusal as refusal:
        await reply(call, refusal.answer(lang))
        return
    await reply(call, Answer())
    try:
        await message.edit_text(screen.text, reply_markup=screen.keyboard, parse_mode="HTML")
    except TelegramBadRequest as exc:
        # Deleted meanwhile, or too old for Telegram to edit: the press was answered, and
        # the command gives a fresh message any time.
        if "message to edit not found" not in exc.message and "can't be edited" not in exc.message:
            raise
        log.info("a stats message in %s could not be edited: %s", message.chat.id, exc.message)


@router.callback_query(TopCb.filter())
async def on_top_page(
    call: CallbackQuery, callback_data: TopCb, lang: Lang, stats: StatsService
) -> None:
    scope, page = callback_data.scope, callback_data.page
    await _edit(call, lang, functools.partial(stats.top, lang=lang, scope=scope, page=page))


@router.callback_query(HistoryCb.filter())
async def on_history_page(
    call: CallbackQuery, callback_data: HistoryCb, lang: Lang, stats: StatsService
) -> None:
    """A page of the history, or one match's score sheet (whose "back" returns to `page`)."""
    game, page = callback_data.game, callback_data.page
    if game:
        await _edit(call, lang, functools.partial(stats.sheet, game_id=game, page=page, lang=lang))
    else:
        await _edit(call, lang, functools.partial(stats.history, lang=lang, page=page))
