"""Inline buttons: the lobby (with removing a seated person), the hand, the confirmation
of /cancel.

Every press names a game; the service acts on it only if the pressed message belongs
to that game's chat (group buttons) or to the presser's own private chat (hand
buttons), and the presser may act in that game (issue 11, item 1)."""

from __future__ import annotations

import html
import logging

from aiogram import Bot, Router
from aiogram.exceptions import TelegramBadRequest
from aiogram.types import CallbackQuery, Message

from bot.callbacks import CancelCb, LobbyAction, LobbyCb, MoveCb, RemoveCb
from bot.i18n import t
from bot.presenter import removal_keyboard
from bot.service import Answer, GameService, Refusal
from handlers.people import admin_check, person_of, pressed_in, pressed_in_own_private_chat

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


async def refuse_outside_private_chat(call: CallbackQuery) -> bool:
    """A hand-like button pressed anywhere but the presser's own private chat is refused
    (answered as out of date); True if it was."""
    if pressed_in_own_private_chat(call):
        return False
    await reply(call, Answer(t("alert.stale", person_of(call.from_user).lang), alert=True))
    return True


@router.callback_query(LobbyCb.filter())
async def on_lobby(
    call: CallbackQuery, callback_data: LobbyCb, bot: Bot, games: GameService
) -> None:
    person = person_of(call.from_user)
    if callback_data.action is LobbyAction.REMOVE:
        await _offer_removal(call, callback_data.game, bot, games)
        return
    answer = await games.lobby_press(
        callback_data.game,
        pressed_in(call),
        person,
        callback_data.action,
        callback_data.option,
        admin_check(bot, person.id),
    )
    await reply(call, answer)


async def _offer_removal(call: CallbackQuery, game_id: int, bot: Bot, games: GameService) -> None:
    """«Remove a player»: a short group message with one button per seated person."""
    person = person_of(call.from_user)
    try:
        game, people = await games.removal_choices(
            game_id, pressed_in(call), person, admin_check(bot, person.id)
        )
    except Refusal as refusal:
        await reply(call, refusal.answer(person.lang))
        return
    await reply(call, Answer())
    assert isinstance(call.message, Message)  # pressed_in() found the game's group
    lang = await games.publisher.group_lang(game)
    await call.message.answer(
        t("lobby.remove_who", lang),
        reply_markup=removal_keyboard(game, people, lang),
    )


@router.callback_query(RemoveCb.filter())
async def on_remove(
    call: CallbackQuery, callback_data: RemoveCb, bot: Bot, games: GameService
) -> None:
    person = person_of(call.from_user)
    answer, removed = await games.remove_seat(
        callback_data.game,
        pressed_in(call),
        person,
        callback_data.seat,
        callback_data.user,
        admin_check(bot, person.id),
    )
    await reply(call, answer)
    if removed is not None and isinstance(call.message, Message):
        # The list is used up: it says what was done (the lobby shows the seats as they are).
        lang = person.lang
        text = t("lobby.removed", lang, name=html.escape(removed, quote=False))
        try:
            await call.message.edit_text(text, parse_mode="HTML")
        except TelegramBadRequest as exc:
            log.info("the removal list in %s was not edited: %s", call.message.chat.id, exc.message)


@router.callback_query(MoveCb.filter())
async def on_move(call: CallbackQuery, callback_data: MoveCb, games: GameService) -> None:
    if await refuse_outside_private_chat(call):
        return
    answer = await games.move_press(
        callback_data.game,
        person_of(call.from_user),
        callback_data.move,
        callback_data.kind,
        callback_data.tile,
        callback_data.end,
    )
    await reply(call, answer)


@router.callback_query(CancelCb.filter())
async def on_cancel(
    call: CallbackQuery, callback_data: CancelCb, bot: Bot, games: GameService
) -> None:
    person = person_of(call.from_user)
    if not callback_data.confirm:
        await reply(call, Answer(t("cancel.kept", person.lang)))
        return
    answer = await games.cancel(
        callback_data.game, pressed_in(call), person, admin_check(bot, person.id)
    )
    await reply(call, answer)
