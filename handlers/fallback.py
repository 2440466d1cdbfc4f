"""Everything no other handler took: answered politely, never an error, never a change."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.types import CallbackQuery, Message

from bot.i18n import lang_of, t

router = Router(name="fallback")


@router.callback_query()
async def on_unknown_button(call: CallbackQuery) -> None:
    """A button from an older version of the bot, or forged data."""
    await call.answer(t("alert.stale", lang_of(call.from_user.language_code)), show_alert=True)


@router.message(F.chat.type == "private", F.text.startswith("/"), F.from_user)
async def on_unknown_command(message: Message) -> None:
    assert message.from_user is not None
    await message.answer(t("private.unknown_command", lang_of(message.from_user.language_code)))
