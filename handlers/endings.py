"""Ending a match early: /surrender with its confirmation, and the ballots of a vote to
cancel (the vote itself is opened by /cancel, in handlers/commands.py)."""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import Command
from aiogram.types import CallbackQuery, Message

from bot.app.effects import EffectDispatcher
from bot.app.people import Person
from bot.app.reply import Reply
from bot.app.usecases import Endings, Refusal
from bot.telegram.callbacks import SurrenderCb, VoteCb
from bot.telegram.presenter import surrender_confirm_keyboard
from bot.telegram.presenter.replies import reply_text
from handlers.buttons import reply, settle_confirmation, shows_button
from handlers.people import GROUP_TYPES, pressed_in
from i18n import Lang

router = Router(name="endings")


@router.message(Command("surrender"))
async def on_surrender(message: Message, person: Person, lang: Lang, endings: Endings) -> None:
    """In the match's group or in private: ask first, saying what giving up will do, with
    buttons for this person only."""
    chat_id = message.chat.id if message.chat.type in GROUP_TYPES else None
    try:
        game_id, first, question = await endings.surrender_allowed(chat_id, person)
    except Refusal as refusal:
        await message.reply(reply_text(refusal.reply, lang))
        return
    await message.reply(
        reply_text(question, lang),
        reply_markup=surrender_confirm_keyboard(game_id, first, person.id, lang),
    )


@router.callback_query(SurrenderCb.filter())
async def on_surrender_press(
    call: CallbackQuery,
    callback_data: SurrenderCb,
    person: Person,
    lang: Lang,
    endings: Endings,
    dispatch: EffectDispatcher,
) -> None:
    if person.id != callback_data.user:
        await reply(call, Reply("alert.not_your_confirmation", alert=True), lang)
        return
    if not callback_data.confirm:
        await settle_confirmation(call, Reply("answer.playing_on"), lang)
        return
    message = call.message
    if not isinstance(message, Message) or not shows_button(message, call.data):
        # A confirmation answered before (its buttons gone), or data forged onto another
        # message: the «Да» it carries is no longer on offer.
        answered = isinstance(message, Message) and message.reply_markup is None
        await reply(call, Refusal("alert.answered" if answered else "alert.stale").reply, lang)
        return
    answer = await dispatch(
        endings.surrender(callback_data.game, pressed_in(call), person, callback_data.first)
    )
    if answer.alert:
        await reply(call, answer, lang)
    else:
        await settle_confirmation(call, answer, lang)


@router.callback_query(VoteCb.filter())
async def on_vote(
    call: CallbackQuery,
    callback_data: VoteCb,
    person: Person,
    lang: Lang,
    endings: Endings,
    dispatch: EffectDispatcher,
) -> None:
    answer = await dispatch(
        endings.vote(callback_data.vote, pressed_in(call), person, callback_data.in_favour)
    )
    await reply(call, answer, lang)
