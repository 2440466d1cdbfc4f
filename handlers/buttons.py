"""Inline buttons: the hand, «✋ Мои кости» under the table, and the confirmation of
/cancel (the lobby's are in handlers/lobby.py).

Every press names a game; the use case acts on it only if the pressed message belongs
to that game's chat (group buttons, and a hand shown inside the group) or to the
presser's own private chat (hand buttons), and the presser may act in that game. A
hand button pressed anywhere else (on a message that is not the presser's own hand) is
not taken here: the fallback answers it as out of date."""

from __future__ import annotations

import logging

from aiogram import F, Router
from aiogram.exceptions import TelegramBadRequest
from aiogram.types import CallbackQuery, Message

from bot.app.effects import EffectDispatcher
from bot.app.people import Person
from bot.app.reply import Reply
from bot.app.usecases import ChatCheck, Endings, Playing
from bot.app.usecases.hints import Hints
from bot.telegram.callbacks import (
    CHOICES,
    CancelCb,
    GroupHandCb,
    HandCb,
    HandKind,
    MoveCb,
    action_of,
    choice_of,
)
from bot.telegram.presenter.replies import reply_text
from handlers.filters import on_own_hand
from handlers.people import AdminCheck, hand_group, pressed_in
from i18n import Lang

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


@router.callback_query(MoveCb.filter(), on_own_hand)
async def on_move(
    call: CallbackQuery,
    callback_data: MoveCb,
    person: Person,
    lang: Lang,
    playing: Playing,
    dispatch: EffectDispatcher,
) -> None:
    """A move button of the person's hand: the engine's action it carries, made if it is
    legal now (the use case checks). Text that names no action (forged) is refused and
    changes nothing."""
    action = action_of(callback_data)
    if action is None:
        await reply(call, Reply("alert.illegal", alert=True), lang)
        return
    game, move = callback_data.game, callback_data.move
    answer = await dispatch(playing.play(game, person, move, action, group=hand_group(call)))
    await reply(call, answer, lang)


@router.callback_query(HandCb.filter(F.kind == HandKind.HINT), on_own_hand)
async def on_hint(
    call: CallbackQuery,
    callback_data: HandCb,
    person: Person,
    lang: Lang,
    hints: Hints,
    dispatch: EffectDispatcher,
) -> None:
    """«💡 Подсказка»: the hint goes to the presser alone, as an alert."""
    game, move = callback_data.game, callback_data.move
    answer = await dispatch(hints.press(game, person, move, group=hand_group(call)))
    await reply(call, answer, lang)


@router.callback_query(HandCb.filter(F.kind == HandKind.OFFER_DRAW), on_own_hand)
async def on_offer_draw(
    call: CallbackQuery,
    callback_data: HandCb,
    person: Person,
    lang: Lang,
    endings: Endings,
    dispatch: EffectDispatcher,
) -> None:
    """«🤝 Предложить ничью»: the button carries the round it was drawn in; the group is
    asked by the vote's own message."""
    game, round_no = callback_data.game, callback_data.move
    answer = await dispatch(endings.offer_draw(game, person, round_no, group=hand_group(call)))
    await reply(call, answer, lang)


@router.callback_query(HandCb.filter(), on_own_hand)
async def on_hand(
    call: CallbackQuery,
    callback_data: HandCb,
    person: Person,
    lang: Lang,
    playing: Playing,
    dispatch: EffectDispatcher,
) -> None:
    """A hand button that makes no move: a choice to open, back to the hand, or a tile
    that cannot go now. A choice whose tile does not parse (forged) is refused and
    changes nothing."""
    game, move, kind = callback_data.game, callback_data.move, callback_data.kind
    group = hand_group(call)
    if kind in CHOICES:
        choice = choice_of(callback_data)
        if choice is None:
            await reply(call, Reply("alert.illegal", alert=True), lang)
            return
        answer = await dispatch(playing.show_choice(game, person, move, choice, group=group))
    elif kind is HandKind.BACK:
        answer = await dispatch(playing.show_hand(game, person, move, group=group))
    else:
        answer = await dispatch(playing.why_not(game, person, group=group))
    await reply(call, answer, lang)


@router.callback_query(GroupHandCb.filter())
async def on_group_hand(
    call: CallbackQuery,
    callback_data: GroupHandCb,
    person: Person,
    lang: Lang,
    playing: Playing,
    dispatch: EffectDispatcher,
) -> None:
    """«✋ Мои кости» under the table: the presser's hand comes inside the group, for them
    alone (sent before the press is answered, which Telegram asks of a message a press
    brings); anyone not seated in the group's game is told so, and nothing is sent."""
    answer = await dispatch(
        playing.hand_in_group(callback_data.game, pressed_in(call), person, press=call.id)
    )
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
