"""The lobby's buttons: join, leave, computers, options, start, cancel, removing a seated
person, and «🔁 Ещё партию» under a match's last word.

Every press names a game; the use case acts on it only if the pressed message belongs to
that game's chat and the presser may act in that game."""

from __future__ import annotations

import html
import logging

from aiogram import Router
from aiogram.exceptions import TelegramBadRequest
from aiogram.types import CallbackQuery, Message

from bot.app.effects import EffectDispatcher
from bot.app.group_settings import GroupSettings
from bot.app.people import Person
from bot.app.reply import NO_REPLY, Reply
from bot.app.usecases import ChatCheck, Lobby, Refusal
from bot.telegram.callbacks import LobbyAction, LobbyCb, RematchCb, RemoveCb, lobby_intent
from bot.telegram.presenter import removal_keyboard
from handlers.buttons import reply
from handlers.people import GROUP_TYPES, AdminCheck, chat_of, pressed_in
from i18n import Lang, t

router = Router(name="lobby")
log = logging.getLogger(__name__)


@router.callback_query(LobbyCb.filter(), AdminCheck())
async def on_lobby(
    call: CallbackQuery,
    callback_data: LobbyCb,
    person: Person,
    lang: Lang,
    is_admin: ChatCheck,
    lobby: Lobby,
    dispatch: EffectDispatcher,
    group_settings: GroupSettings,
) -> None:
    if callback_data.action is LobbyAction.REMOVE:
        await _offer_removal(
            call, callback_data.game, person, lang, is_admin, lobby, group_settings
        )
        return
    intent = lobby_intent(lobby, callback_data, pressed_in(call), person, is_admin)
    answer = Reply("alert.stale", alert=True) if intent is None else await dispatch(intent)
    await reply(call, answer, lang)


async def _offer_removal(
    call: CallbackQuery,
    game_id: int,
    person: Person,
    lang: Lang,
    is_admin: ChatCheck,
    lobby: Lobby,
    group_settings: GroupSettings,
) -> None:
    """«Remove a player»: a short group message with one button per seated person, in the
    group's language."""
    try:
        game, people = await lobby.removal_choices(game_id, pressed_in(call), person, is_admin)
    except Refusal as refusal:
        await reply(call, refusal.reply, lang)
        return
    await reply(call, NO_REPLY, lang)
    assert isinstance(call.message, Message)  # pressed_in() found the game's group
    group_lang = await group_settings.language_of(game)
    await call.message.answer(
        t("lobby.remove_who", group_lang),
        reply_markup=removal_keyboard(game, people, group_lang),
    )


@router.callback_query(RematchCb.filter())
async def on_rematch(
    call: CallbackQuery,
    callback_data: RematchCb,
    person: Person,
    lang: Lang,
    lobby: Lobby,
    dispatch: EffectDispatcher,
) -> None:
    """«🔁 Ещё партию» under a match's last word, pressed by anyone in the group: a new
    lobby like that match (`Lobby.rematch`)."""
    message = call.message
    if not isinstance(message, Message) or message.chat.type not in GROUP_TYPES:
        await reply(call, Refusal("alert.stale").reply, lang)
        return
    answer = await dispatch(lobby.rematch(chat_of(message.chat), person, callback_data.game))
    await reply(call, answer, lang)


@router.callback_query(RemoveCb.filter(), AdminCheck())
async def on_remove(
    call: CallbackQuery,
    callback_data: RemoveCb,
    person: Person,
    lang: Lang,
    is_admin: ChatCheck,
    lobby: Lobby,
    dispatch: EffectDispatcher,
) -> None:
    answer, removed = await dispatch(
        lobby.remove(
            callback_data.game,
            pressed_in(call),
            person,
            callback_data.seat,
            callback_data.user,
            is_admin,
        )
    )
    await reply(call, answer, lang)
    if removed is not None and isinstance(call.message, Message):
        # The list is used up: it says what was done (the lobby shows the seats as they are).
        text = t("lobby.removed", lang, name=html.escape(removed, quote=False))
        try:
            await call.message.edit_text(text, parse_mode="HTML")
        except TelegramBadRequest as exc:
            log.info("the removal list in %s was not edited: %s", call.message.chat.id, exc.message)
