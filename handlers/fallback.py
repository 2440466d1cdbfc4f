"""Everything no other handler took: answered politely, never an error, never a change."""

from __future__ import annotations

import time

from aiogram import Bot, F, Router
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message

from bot.app.lobby_rules import playable_game
from bot.app.reply import Reply
from bot.infra.lru import Lru
from bot.telegram.callbacks import RulesCb
from handlers.buttons import reply
from handlers.filters import OnLoop, in_private
from i18n import Lang, t

router = Router(name="fallback")

HELP_EVERY = 300.0  # seconds: a plain message in private gets the short help once in this
HELP_TRACKED = 10_000  # people remembered for that (memory stays bounded)
_helped: Lru[int, float] = Lru(HELP_TRACKED)


@router.callback_query()
async def on_unknown_button(call: CallbackQuery, lang: Lang) -> None:
    """A button from an older version of the bot, forged data, or a hand button pressed
    outside its owner's private chat: out of date."""
    await reply(call, Reply("alert.stale", alert=True), lang)


@router.message(in_private, OnLoop(F.text.startswith("/")))
async def on_unknown_command(message: Message, lang: Lang) -> None:
    await message.answer(t("private.unknown_command", lang))


def private_help_keyboard(bot_username: str, lang: Lang) -> InlineKeyboardMarkup:
    """«➕ Добавить в группу» (Telegram's startgroup link: pick a group, the bot joins it)
    and «📖 Правила» (the first game's rules page, paged like /rules)."""
    add = InlineKeyboardButton(
        text=t("btn.add_to_group", lang), url=f"https://t.me/{bot_username}?startgroup=true"
    )
    rules = InlineKeyboardButton(
        text=t("btn.rules", lang),
        callback_data=RulesCb(game=playable_game(None).key.value, lang=lang.value).pack(),
    )
    return InlineKeyboardMarkup(inline_keyboard=[[add], [rules]])


@router.message(in_private, OnLoop(F.text))
async def on_private_text(message: Message, bot: Bot, lang: Lang) -> None:
    """A plain message in private («привет, как играть?»): a short help with the buttons
    to start, at most once in `HELP_EVERY` a person, so a chatty
    person is not answered at every line."""
    user = message.from_user
    if user is None:
        return
    now = time.monotonic()
    last = _helped.get(user.id)
    if last is not None and now - last < HELP_EVERY:
        return
    _helped[user.id] = now
    me = await bot.me()
    await message.answer(
        t("private.help_hint", lang),
        reply_markup=private_help_keyboard(me.username or "", lang),
    )
