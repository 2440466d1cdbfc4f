"""/top, /stats, /history and their buttons: parse, ask the stats service, reply or edit.

A command shows the group's default game (`ChatSettings.default_game`, see
`bot.app.stats`), with buttons for the other games. A press is only honoured on a
message that really is a stats screen of its kind, showing a button of the same kind
(for /stats: about the same person): a modified client can send any data on any
message, and a forged press must not turn a lobby or the table into a leaderboard.
/top and /history presses count in groups only; /stats presses also in a private
chat. The service checks the game, the page and the match, so a forged or foreign
press is answered politely and changes nothing.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable

from aiogram import Router
from aiogram.exceptions import TelegramBadRequest
from aiogram.filters import Command, CommandObject
from aiogram.filters.callback_data import CallbackData
from aiogram.types import CallbackQuery, Chat, Message

from bot.app.group_settings import GroupSettings
from bot.app.people import Person
from bot.app.reply import NO_REPLY, Reply
from bot.app.usecases import Refusal
from bot.telegram.callbacks import HistoryCb, StatsCb, TopCb
from bot.telegram.stats_service import Chat as StatsChat
from bot.telegram.stats_service import Screen, StatsService
from handlers.buttons import reply
from handlers.filters import in_group, in_private
from handlers.people import GROUP_TYPES, person_of
from i18n import Lang, t

router = Router(name="stats")
log = logging.getLogger(__name__)
# The edit changed nothing (the game or page already shown), or cannot be made any more.
_UNEDITABLE = ("message is not modified", "message to edit not found", "can't be edited")


def where(chat: Chat) -> StatsChat:
    return StatsChat(id=chat.id, title=chat.title, is_group=chat.type in GROUP_TYPES)


def default_game(chat: Chat, group_settings: GroupSettings) -> str | None:
    """The game a command in `chat` opens at: the group's default; None in a private chat."""
    return group_settings.of(chat.id).default_game if chat.type in GROUP_TYPES else None


async def show(message: Message, screen: Screen) -> None:
    await message.reply(screen.text, reply_markup=screen.keyboard, parse_mode="HTML")


@router.message(Command("top"), in_group)
async def on_top(
    message: Message, lang: Lang, stats: StatsService, group_settings: GroupSettings
) -> None:
    preferred = default_game(message.chat, group_settings)
    await show(message, await stats.top(where(message.chat), lang, preferred=preferred))


@router.message(Command("top", "history"), in_private)
async def on_group_only_in_private(message: Message, command: CommandObject, lang: Lang) -> None:
    """Leaderboards and histories belong to groups: the answer says where to ask."""
    await message.answer(t(f"{command.command}.private", lang))


@router.message(Command("stats"))
async def on_stats(
    message: Message,
    person: Person,
    lang: Lang,
    stats: StatsService,
    group_settings: GroupSettings,
) -> None:
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
    preferred = default_game(message.chat, group_settings)
    screen = await stats.player(about.id, about.name, chat, lang, preferred=preferred)
    await show(message, screen)


@router.message(Command("history"), in_group)
async def on_history(
    message: Message, lang: Lang, stats: StatsService, group_settings: GroupSettings
) -> None:
    preferred = default_game(message.chat, group_settings)
    await show(message, await stats.history(where(message.chat), lang, preferred=preferred))


def shows_kind(message: Message, kind: type[CallbackData], same: Callable[[str], bool]) -> bool:
    """Whether the message carries a button of `kind` (its prefix) whose data `same`
    accepts: the pressed message is a screen of that kind."""
    markup = message.reply_markup
    if markup is None:
        return False
    prefix = f"{kind.__prefix__}{kind.__separator__}"
    return any(
        button.callback_data is not None
        and button.callback_data.startswith(prefix)
        and same(button.callback_data)
        for row in markup.inline_keyboard
        for button in row
    )


async def _edit(
    call: CallbackQuery,
    lang: Lang,
    screen_of: Callable[[StatsChat], Awaitable[Screen]],
    kind: type[CallbackData],
    *,
    same: Callable[[str], bool] = lambda data: True,
    in_private_too: bool = False,
) -> None:
    """Answer the press and put the screen `screen_of` the pressed message's chat into
    that message. A press on anything but a screen of this `kind` still shown (in a
    group, or also a private chat when `in_private_too`) is answered as out of date; a
    refusal of the stats service is only answered."""
    message = call.message
    if (
        not isinstance(message, Message)
        or (message.chat.type not in GROUP_TYPES and not in_private_too)
        or not shows_kind(message, kind, same)
    ):
        await reply(call, Reply("alert.stale", alert=True), lang)
        return
    try:
        screen = await screen_of(where(message.chat))
    except Refusal as refusal:
        await reply(call, refusal.reply, lang)
        return
    await reply(call, NO_REPLY, lang)
    try:
        await message.edit_text(screen.text, reply_markup=screen.keyboard, parse_mode="HTML")
    except TelegramBadRequest as exc:
        # Already showing it, deleted meanwhile, or too old for Telegram to edit: the
        # press was answered, and the command gives a fresh message any time.
        if not any(reason in exc.message for reason in _UNEDITABLE):
            raise
        log.info("a stats message in %s could not be edited: %s", message.chat.id, exc.message)


@router.callback_query(TopCb.filter())
async def on_top_page(
    call: CallbackQuery, callback_data: TopCb, lang: Lang, stats: StatsService
) -> None:
    screen_of = functools.partial(
        stats.top,
        lang=lang,
        game=callback_data.game,
        scope=callback_data.scope,
        page=callback_data.page,
    )
    await _edit(call, lang, screen_of, TopCb)


@router.callback_query(HistoryCb.filter())
async def on_history_page(
    call: CallbackQuery, callback_data: HistoryCb, lang: Lang, stats: StatsService
) -> None:
    """A page of the history, or one match's score sheet (whose "back" returns to `page`)."""
    game, page, match = callback_data.game, callback_data.page, callback_data.match
    if match:
        screen_of = functools.partial(stats.sheet, game=game, match_id=match, page=page, lang=lang)
    else:
        screen_of = functools.partial(stats.history, lang=lang, game=game, page=page)
    await _edit(call, lang, screen_of, HistoryCb)


@router.callback_query(StatsCb.filter())
async def on_stats_game(
    call: CallbackQuery, callback_data: StatsCb, lang: Lang, stats: StatsService
) -> None:
    """A person's /stats in another game: only on a /stats screen about the same person
    (in a private chat that is always the chat's owner)."""
    user = callback_data.user

    def about_the_same(data: str) -> bool:
        return StatsCb.unpack(data).user == user

    screen_of = functools.partial(stats.player_game, user, lang=lang, game=callback_data.game)
    await _edit(call, lang, screen_of, StatsCb, same=about_the_same, in_private_too=True)
