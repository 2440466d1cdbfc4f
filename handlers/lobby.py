"""The lobby's buttons: join, leave, computers, options, the list of games, start,
cancel, removing a seated person, and «🔁 Ещё партию» under a match's last word.

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
from bot.telegram.callbacks import (
    PICKER_ACTIONS,
    LobbyAction,
    LobbyCb,
    RematchCb,
    RemoveCb,
    lobby_intent,
)
from bot.telegram.presenter import lobby_keyboard, removal_keyboard
from bot.telegram.presenter.lobby import games_keyboard
from bot.telegram.web_app_links import WebAppLinks
from handlers.buttons import reply, shows_button
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
    web_app: WebAppLinks | None = None,
) -> None:
    if callback_data.action is LobbyAction.REMOVE:
        await _offer_removal(
            call, callback_data.game, person, lang, is_admin, lobby, group_settings
        )
        return
    if callback_data.opens_games or callback_data.action in PICKER_ACTIONS:
        await _games(
            call, callback_data, person, lang, is_admin, lobby, dispatch, group_settings, web_app
        )
        return
    intent = lobby_intent(lobby, callback_data, pressed_in(call), person, is_admin)
    answer = Reply("alert.stale", alert=True) if intent is None else await dispatch(intent)
    await reply(call, answer, lang)


async def _games(
    call: CallbackQuery,
    press: LobbyCb,
    person: Person,
    lang: Lang,
    is_admin: ChatCheck,
    lobby: Lobby,
    dispatch: EffectDispatcher,
    group_settings: GroupSettings,
    web_app: WebAppLinks | None,
) -> None:
    """The game's button turns the lobby's buttons into the list of games; a game picked
    there is the lobby's with its own options (the lobby is redrawn with its buttons, as
    after any change), «↩️ Назад» or the lobby's own game brings its buttons back. Only
    the creator or a chat admin; a press on a message that does not show the button
    (forged) changes nothing."""
    message = call.message
    if not isinstance(message, Message) or not shows_button(message, call.data):
        await reply(call, Reply("alert.stale", alert=True), lang)
        return
    try:
        game = await lobby.game_choices(press.game, pressed_in(call), person, is_admin)
    except Refusal as refusal:
        await reply(call, refusal.reply, lang)
        return
    picked = press.option if press.action is LobbyAction.PICK else None
    if picked is not None and picked != game.ruleset.variant.value:
        await reply(
            call,
            await dispatch(lobby.pick_game(game.id, message.chat.id, person, picked, is_admin)),
            lang,
        )
        return
    await reply(call, NO_REPLY, lang)
    group_lang = await group_settings.language_of(game)
    if press.opens_games:
        shown = games_keyboard(game, group_lang)
    else:  # the lobby's own buttons, «🃏 Открыть стол» with them when the app is on
        app_link = web_app.table_link(game) if web_app is not None else None
        shown = lobby_keyboard(game, group_lang, app_link)
    try:
        await message.edit_reply_markup(reply_markup=shown)
    except TelegramBadRequest as exc:  # shown already, or the message is gone
        log.info("the lobby in %s was not edited: %s", message.chat.id, exc.message)


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
