"""/settings (the group's turn timer and language) and the "I'm back" button of a hand
(issue 7)."""

from __future__ import annotations

import dataclasses
from typing import Any

from aiogram import Bot, F, Router
from aiogram.exceptions import TelegramBadRequest
from aiogram.filters import Command
from aiogram.types import CallbackQuery, Message

from bot.callbacks import BackCb, GroupLangCb, LobbyTimeCb, TimerCb
from bot.i18n import Lang, t
from bot.presenter import lobby_timeout_name, settings_keyboard, settings_text, timer_name
from bot.service import Answer, GameService
from bot.timers import TurnTimers
from domino.timing import TurnTimer
from handlers.buttons import refuse_outside_private_chat, reply
from handlers.people import ADMIN_STATUSES, GROUP_TYPES, chat_of, person_of
from storage.records import GROUP_LANGS, LOBBY_TIMEOUTS, ChatSettings

router = Router(name="settings")


def shown_in(settings: ChatSettings, person_lang: Lang) -> Lang:
    """The settings message speaks the group's language once it has one."""
    return Lang(settings.group_lang) if settings.group_lang else person_lang


@router.message(Command("settings"), F.chat.type.in_(GROUP_TYPES), F.from_user)
async def on_settings(message: Message, timers: TurnTimers) -> None:
    """Everyone may look; the buttons answer non-admins with a refusal."""
    assert message.from_user is not None
    settings = timers.settings_of(message.chat.id)
    lang = shown_in(settings, person_of(message.from_user).lang)
    await message.reply(
        settings_text(message.chat.title or "?", settings, lang),
        reply_markup=settings_keyboard(settings, lang),
        parse_mode="HTML",
    )


@router.message(Command("settings"), F.chat.type == "private", F.from_user)
async def on_settings_in_private(message: Message) -> None:
    assert message.from_user is not None
    await message.answer(t("settings.in_group", person_of(message.from_user).lang))


async def _change(
    call: CallbackQuery, bot: Bot, timers: TurnTimers, **change: Any
) -> ChatSettings | None:
    """Apply `change` to the group's settings if an admin pressed; None after a refusal
    (already answered). The settings message is redrawn."""
    person = person_of(call.from_user)
    message = call.message
    if not isinstance(message, Message) or message.chat.type not in GROUP_TYPES:
        await reply(call, Answer(t("alert.stale", person.lang), alert=True))
        return None
    member = await bot.get_chat_member(message.chat.id, person.id)
    if member.status not in ADMIN_STATUSES:
        await reply(call, Answer(t("alert.admins_only", person.lang), alert=True))
        return None
    settings = dataclasses.replace(timers.settings_of(message.chat.id), **change)
    await timers.change_settings(chat_of(message.chat), settings)
    lang = shown_in(settings, person.lang)
    try:
        await message.edit_text(
            settings_text(message.chat.title or "?", settings, lang),
            reply_markup=settings_keyboard(settings, lang),
            parse_mode="HTML",
        )
    except TelegramBadRequest as exc:
        if "message is not modified" not in exc.message:
            raise
    return settings


@router.callback_query(TimerCb.filter())
async def on_timer(
    call: CallbackQuery, callback_data: TimerCb, bot: Bot, timers: TurnTimers
) -> None:
    lang = person_of(call.from_user).lang
    try:
        timer = TurnTimer(callback_data.timer)
    except ValueError:
        await reply(call, Answer(t("alert.stale", lang), alert=True))
        return
    if await _change(call, bot, timers, turn_timer=timer) is not None:
        await reply(call, Answer(t("answer.timer_set", lang, timer=timer_name(timer, lang))))


@router.callback_query(GroupLangCb.filter())
async def on_group_lang(
    call: CallbackQuery, callback_data: GroupLangCb, bot: Bot, timers: TurnTimers
) -> None:
    lang = person_of(call.from_user).lang
    code = callback_data.lang
    if code != "auto" and code not in GROUP_LANGS:
        await reply(call, Answer(t("alert.stale", lang), alert=True))
        return
    if await _change(call, bot, timers, group_lang=None if code == "auto" else code) is not None:
        name = t(f"group_lang.{code}", lang)
        await reply(call, Answer(t("answer.group_lang_set", lang, lang=name)))


@router.callback_query(LobbyTimeCb.filter())
async def on_lobby_timeout(
    call: CallbackQuery, callback_data: LobbyTimeCb, bot: Bot, timers: TurnTimers
) -> None:
    """How long a lobby nobody starts stays open (issue 11, item 5); from the next lobby on."""
    lang = person_of(call.from_user).lang
    minutes = callback_data.minutes
    if minutes not in LOBBY_TIMEOUTS:
        await reply(call, Answer(t("alert.stale", lang), alert=True))
        return
    if await _change(call, bot, timers, lobby_timeout=minutes) is not None:
        name = lobby_timeout_name(minutes, lang)
        await reply(call, Answer(t("answer.lobby_timeout_set", lang, time=name)))


@router.callback_query(BackCb.filter())
async def on_back(call: CallbackQuery, callback_data: BackCb, games: GameService) -> None:
    if await refuse_outside_private_chat(call):
        return
    await reply(call, await games.come_back(callback_data.game, person_of(call.from_user)))
