"""Inline buttons: the lobby (with removing a seated person), the hand, the confirmation
of /cancel.

Every press names a game; the use case acts on it only if the pressed message belongs
to that game's chat (group buttons) or to the presser's own private chat (hand
buttons), and the presser may act in that game. A hand button
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
from bot.app.reply import NO_REPLY, Reply
from bot.app.usecases import ChatCheck, Endings, Lobby, Playing, Refusal
from bot.app.usecases.hints import Hints
from bot.telegram.callbacks import (
    CHOICES,
    MOVES,
    CancelCb,
    LobbyAction,
    LobbyCb,
    MoveCb,
    MoveKind,
    RematchCb,
    RemoveCb,
    action_of,
    choice_of,
)
from bot.telegram.presenter import removal_keyboard
from bot.telegram.presenter.replies import reply_text
from handlers.filters import in_own_private_chat
from handlers.people import GROUP_TYPES, AdminCheck, chat_of, pressed_in
from i18n import Lang, t

router = Router(name="buttons")
log = logging.getLogger(__name__)


async def reply(call: CallbackQuery, answer: Reply, lang: Lang) -> None:
    """Answer the press in `lang`. Telegram forgets a press after ~15 s; answering it later
    is refused, which only means the person's spinner already stopped: nothing to repair."""
    text = reply_text(answer, lang)
    try:
        await call.answer(text=text or None, show_alert=answer.alert or None, url=answer.url)
    except TelegramBadRequest as exc:
        if "query is too old" not in exc.message:
            raise
        log.info("a press by %s was answered too late: %s", call.from_user.id, exc.message)


async def settle_confirmation(call: CallbackQuery, answer: Reply, lang: Lang) -> None:
    """A confirmation («Yes» / «No») was answered by the person it asked: its buttons go
    and it says what came of it, so a second press on the same message does nothing."""
    await reply(call, answer, lang)
    text = reply_text(answer, lang)
    message = call.message
    if not isinstance(message, Message) or not message.text or not shows_button(message, call.data):
        return  # a forged press on another message: that message is not touched
    try:
        await message.edit_text(f"{message.text}\n\n{text}", reply_markup=None)
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


@router.callback_query(MoveCb.filter(F.kind == MoveKind.HINT), in_own_private_chat)
async def on_hint(
    call: CallbackQuery,
    callback_data: MoveCb,
    person: Person,
    lang: Lang,
    hints: Hints,
    dispatch: EffectDispatcher,
) -> None:
    """«💡 Подсказка»: the hint goes to the presser alone, as an alert."""
    answer = await dispatch(hints.press(callback_data.game, person, callback_data.move))
    await reply(call, answer, lang)


@router.callback_query(MoveCb.filter(), in_own_private_chat)
async def on_move(
    call: CallbackQuery,
    callback_data: MoveCb,
    person: Person,
    lang: Lang,
    playing: Playing,
    dispatch: EffectDispatcher,
) -> None:
    """A button of the person's hand: a move, a choice to open, back to the hand, or a
    tile that cannot go now. A malformed button (forged) is refused and changes nothing."""
    game, move, kind = callback_data.game, callback_data.move, callback_data.kind
    if kind in MOVES:
        action = action_of(callback_data)
        if action is None:
            await reply(call, Reply("alert.illegal", alert=True), lang)
            return
        answer = await dispatch(playing.play(game, person, move, action))
    elif kind in CHOICES:
        choice = choice_of(callback_data)
        if choice is None:
            await reply(call, Reply("alert.illegal", alert=True), lang)
            return
        answer = await dispatch(playing.show_choice(game, person, move, choice))
    elif kind is MoveKind.BACK:
        answer = await dispatch(playing.show_hand(game, person, move))
    elif kind is MoveKind.INFO:
        answer = await dispatch(playing.why_not(game, person))
    else:
        answer = Reply("alert.stale", alert=True)
    await reply(call, answer, lang)


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
    kept = Reply("cancel.kept")
    if await endings.may_cancel(callback_data.game, pressed_in(call), person, is_admin):
        await settle_confirmation(call, kept, lang)
    else:
        await reply(call, kept, lang)


@router.callback_query(CancelCb.filter(F.confirm), AdminCheck())
async def on_cancel(
    call: CallbackQuery,
    callback_data: CancelCb,
    person: Person,
    lang: Lang,
    is_admin: ChatCheck,
    endings: Endings,
    dispatch: EffectDispatcher,
) -> None:
    answer = await dispatch(endings.cancel(callback_data.game, pressed_in(call), person, is_admin))
    if answer.alert:
        await reply(call, answer, lang)
    else:
        await settle_confirmation(call, answer, lang)
