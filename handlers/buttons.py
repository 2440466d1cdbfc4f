"""Inline buttons: the lobby, the hand, the confirmation of /cancel."""

from __future__ import annotations

import logging

from aiogram import Bot, Router
from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError
from aiogram.types import CallbackQuery

from bot.callbacks import CancelCb, LobbyCb, MoveCb
from bot.i18n import t
from bot.service import Answer, GameService
from handlers.people import person_of

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


@router.callback_query(LobbyCb.filter())
async def on_lobby(call: CallbackQuery, callback_data: LobbyCb, games: GameService) -> None:
    answer = await games.lobby_press(
        callback_data.game, person_of(call.from_user), callback_data.action, callback_data.option
    )
    await reply(call, answer)


@router.callback_query(MoveCb.filter())
async def on_move(call: CallbackQuery, callback_data: MoveCb, games: GameService) -> None:
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
    is_admin = False
    if call.message is not None and call.message.chat.type != "private":
        try:
            member = await bot.get_chat_member(call.message.chat.id, person.id)
        except (TelegramBadRequest, TelegramForbiddenError) as exc:  # a chat we cannot see
            log.info("a cancel press by %s in chat %s: %s", person.id, call.message.chat.id, exc)
        else:
            is_admin = member.status in ("creator", "administrator")
    await reply(call, await games.cancel(callback_data.game, person, is_admin))
