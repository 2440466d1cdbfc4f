"""/settings (the group's turn timer) and the "I'm back" button of a hand (issue 7)."""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.exceptions import TelegramBadRequest
from aiogram.filters import Command
from aiogram.types import CallbackQuery, Message

from bot.callbacks import BackCb, TimerCb
from bot.i18n import t
from bot.presenter import settings_keyboard, settings_text, timer_name
from bot.service import Answer, GameService
from bot.timers import TurnTimers
from domino.timing import TurnTimer
from handlers.buttons import reply
from handlers.people import GROUP_TYPES, chat_of, person_of
from storage.records import ChatSettings

router = Router(name="settings")
ADMIN_STATUSES = ("creator", "administrator")


@router.message(Command("settings"), F.chat.type.in_(GROUP_TYPES), F.from_user)
async def on_settings(message: Message, timers: TurnTimers) -> None:
    """Everyone may look; the buttons answer non-admins with a refusal."""
    assert message.from_user is not None
    lang = person_of(message.from_user).lang
    settings = timers.settings_of(message.chat.id)
    await message.reply(
        settings_text(message.chat.title or "?", settings, lang),
        reply_markup=settings_keyboard(settings, lang),
        parse_mode="HTML",
    )


@router.message(Command("settings"), F.chat.type == "private", F.from_user)
async def on_settings_in_private(message: Message) -> None:
    assert message.from_user is not None
    await message.answer(t("settings.in_group", person_of(message.from_user).lang))


@router.callback_query(TimerCb.filter())
async def on_timer(
    call: CallbackQuery, callback_data: TimerCb, bot: Bot, timers: TurnTimers
) -> None:
    person = person_of(call.from_user)
    message = call.message
    if message is None or message.chat.type not in GROUP_TYPES:
        await reply(call, Answer(t("alert.stale", person.lang), alert=True))
        return
    try:
        timer = TurnTimer(callback_data.timer)
    except ValueError:
        await reply(call, Answer(t("alert.stale", person.lang), alert=True))
        return
    member = await bot.get_chat_member(message.chat.id, person.id)
    if member.status not in ADMIN_STATUSES:
        await reply(call, Answer(t("alert.admins_only", person.lang), alert=True))
        return
    settings = ChatSettings(turn_timer=timer)
    await timers.change_settings(chat_of(message.chat), settings)
    await reply(
        call, Answer(t("answer.timer_set", person.lang, timer=timer_name(timer, person.lang)))
    )
    if isinstance(message, Message):
        try:
            await message.edit_text(
                settings_text(message.chat.title or "?", settings, person.lang),
                reply_markup=settings_keyboard(settings, person.lang),
                parse_mode="HTML",
            )
        except TelegramBadRequest as exc:
            if "message is not modified" not in exc.message:
                raise


@router.callback_query(BackCb.filter())
async def on_back(call: CallbackQuery, callback_data: BackCb, games: GameService) -> None:
    await reply(call, await games.come_back(callback_data.game, person_of(call.from_user)))
