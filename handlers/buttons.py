"""Inline buttons: the lobby (with removing a seated person), the hand, the confirmation
of /cancel.

Every press names a game; the use case acts on it only if the pressed message belongs
to that game's chat (group buttons) or to the presser's own private chat (hand
buttons), and the presser may act in that game (issue 11, item 1). A hand button
pressed anywhere else is not taken here: the fallback answers it as out of date."""

from __future__ import annotations

import html
import logging

from aiogram import F, Router
from aiogram.exceptions import TelegramBadRequest
from aiogram.types import CallbackQuery, Message

from bot.app.effects import EffectDispatcher
from bot.app.group_settings import GroupSettings
from bot.app.people import Person
from bot.app.usecases import Answer, ChatCheck, Endings, Lobby, Playing, Refusal
from bot.app.usecases.hints import Hints
from bot.telegram.callbacks import (
    CancelCb,
    LobbyAction,
    LobbyCb,
    MoveCb,
    MoveKind,
    RematchCb,
    RemoveCb,
)
from bot.telegram.presenter import removal_keyboard
from handlers.filters import in_own_private_chat
from handlers.people import GROUP_TYPES, AdminCheck, chat_of, pressed_in
from i18n import Lang, t

router = Router(name="buttons")
log = logging.getLogger(__name__)


async def reply(call: CallbackQuery, answer: Answer) -> None:
    """Answer the press. Telegram forgets a press after ~15 s; answering it later is
    refused, which only means the person's spinner already stopped: nothing to repair."""
    try:
        await call.answer(text=answer.text or None, show_alert=answer.alert or None, url=answer.url)
    except TelegramBadRequest as exc:
        if "query is too old" not in exc.message:
            raise
        log.info("a press by %s was answered too late: %s", call.from_user.id, exc.message)


async def settle_confirmation(call: CallbackQuery, answer: Answer) -> None:
    """A confirmation («Yes» / «No») was answered by the person it asked: its buttons go
    and it says what came of it, so a second press on the same message does nothing."""
    await reply(call, answer)
    message = call.message
    if not isinstance(message, Message) or not message.text or not shows_button(message, call.data):
        return  # a forged press on another message: that message is not touched
    try:
        await message.edit_text(f"{message.text}\n\n{answer.text}", reply_markup=None)
    except TelegramBadRequest as exc:  # deleted meanwhile, or settled by a press just before
        log.info("the confirmation in %s was not closed: %s", message.chat.id, exc.message)


def shows_button(message: Message, data: str | None) -> bool:
    """Whether the message really carries a button with this data (a modified client can
    send any data on any message)."""
    markup = message.reply_markup
    return markup is not None and any(
        button.callback_data == data for row in markup.inline_keyboard for button in row
    )


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
    answer = await dispatch(
        lobby.press(
            callback_data.game,
            pressed_in(call),
            person,
            callback_data.action,
            callback_data.option,
            is_admin,
        )
    )
    await reply(call, answer)


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
        await reply(call, refusal.answer(lang))
        return
    await reply(call, Answer())
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
        await reply(call, Refusal("alert.stale").answer(lang))
        return
    await reply(
        call, await dispatch(lobby.rematch(chat_of(message.chat), person, callback_data.game))
    )


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
    await reply(call, answer)
    if removed is not None and isinstance(call.message, Message):
        # The list is used up: it says what was done (the lobby shows the seats as they are).
        text = t("lobby.removed", lang, name=html.escape(removed, quote=False))
        try:
            await call.message.edit_text(text, parse_mode="HTML")
        except TelegramBadRequest as exc:
            log.info("the removal list in %s was not edited: %s", call.message.chat.id, exc.message)


@router.callback_query(MoveCb.filter(F.kind == MoveKind.HINT), in_own_private_chat)
async def on_hint(
    call: CallbackQuery,
    callback_data: MoveCb,
    person: Person,
    hints: Hints,
    dispatch: EffectDispatcher,
) -> None:
    """«💡 Подсказка» (issue 14): the hint goes to the presser alone, as an alert."""
    await reply(call, await dispatch(hints.press(callback_data.game, person, callback_data.move)))


@router.callback_query(MoveCb.filter(), in_own_private_chat)
async def on_move(
    call: CallbackQuery,
    callback_data: MoveCb,
    person: Person,
    playing: Playing,
    dispatch: EffectDispatcher,
) -> None:
    answer = await dispatch(
        playing.press(
            callback_data.game,
            person,
            callback_data.move,
            callback_data.kind,
            callback_data.tile,
            callback_data.end,
        )
    )
    await reply(call, answer)


@router.callback_query(CancelCb.filter(~F.confirm), AdminCheck())
async def on_cancel_kept(
    call: CallbackQuery,
    callback_data: CancelCb,
    person: Person,
    lang: Lang,
    is_admin: ChatCheck,
    endings: Endings,
) -> None:
    """«No»: the creator or an admin keeps the game and the confirmation closes; anyone
    else is only told the game goes on (the confirmation stays for whoever asked)."""
    kept = Answer(t("cancel.kept", lang))
    if await endings.may_cancel(callback_data.game, pressed_in(call), person, is_admin):
        await settle_confirmation(call, kept)
    else:
        await reply(call, kept)


@router.callback_query(CancelCb.filter(F.confirm), AdminCheck())
async def on_cancel(
    call: CallbackQuery,
    callback_data: CancelCb,
    person: Person,
    is_admin: ChatCheck,
    endings: Endings,
    dispatch: EffectDispatcher,
) -> None:
    answer = await dispatch(endings.cancel(callback_data.game, pressed_in(call), person, is_admin))
    if answer.alert:
        await reply(call, answer)
    else:
        await settle_confirmation(call, answer)
