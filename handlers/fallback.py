"""Everything no other handler took: answered politely, never an error, never a change."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.types import CallbackQuery, Message

from bot.i18n import Lang, t
from bot.usecases import Answer
from handlers.buttons import reply

router = Router(name="fallback")


@router.callback_query()
async def on_unknown_button(call: CallbackQuery, lang: Lang) -> None:
    """A button from an older version of the bot, forged data, or a hand button pressed
    outside its owner's private chat: out of date."""
    await reply(call, Answer(t("alert.stale", lang), alert=True))


@router.message(F.chat.type == "private", F.text.startswith("/"))
async def on_unknown_command(message: Message, lang: Lang) -> None:
    await message.answer(t("private.unknown_command", lang))
