"""Commands: /domino (/newgame), /start, /hand, /leave, /cancel, /rules (and its pages),
/help. In a group every answer speaks the group's language, whoever asked
(`handlers.filters.chat_language`); in a private chat the person's own."""

from __future__ import annotations

import functools
import logging

from aiogram import Bot, Router
from aiogram.exceptions import TelegramBadRequest
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import CallbackQuery, Message

from bot.app.effects import EffectDispatcher
from bot.app.lobby_rules import game_of_key
from bot.app.people import Person
from bot.app.reply import NO_REPLY, Reply
from bot.app.usecases import ChatCheck, Endings, Lobby, NotCreatorOrAdmin, Playing, Refusal
from bot.app.usecases.endings import cancel_question
from bot.telegram.callbacks import RulesCb, StartKind, parse_start
from bot.telegram.presenter import cancel_confirm_keyboard, rules_keyboard, rules_text
from bot.telegram.presenter.lobby import game_named, games_list
from bot.telegram.presenter.replies import reply_text
from handlers.buttons import reply, shows_button
from handlers.filters import in_group, in_private, not_a_bot
from handlers.people import GROUP_TYPES, AdminCheck, chat_of, is_member, topic_of
from i18n import Lang, t

router = Router(name="commands")
log = logging.getLogger(__name__)
_UNEDITABLE = ("message is not modified", "message to edit not found", "can't be edited")


@router.message(Command("domino", "newgame"), in_group, not_a_bot)
async def on_new_game(
    message: Message,
    command: CommandObject,
    person: Person,
    lang: Lang,
    lobby: Lobby,
    dispatch: EffectDispatcher,
) -> None:
    """A new lobby in the forum topic it was asked in, of the game named after the command
    (`/domino classic`, «/domino Классика») or else of the group's default game. An
    anonymous admin's lobby has no seat for them; the chat's admins run it."""
    game = None
    if command.args and command.args.strip():
        game = game_named(command.args)
        if game is None:
            await message.reply(t("lobby.unknown_game", lang, games=games_list(lang)))
            return
    refused = await dispatch(
        lobby.open(chat_of(message.chat), person, game, thread_id=topic_of(message))
    )
    if refused is not None:
        await message.reply(reply_text(refused, lang))


@router.message(Command("domino", "newgame"), in_private)
async def on_new_game_in_private(message: Message, lang: Lang) -> None:
    await message.answer(t("private.group_only", lang))


@router.message(CommandStart(), in_private)
async def on_start(
    message: Message,
    command: CommandObject,
    person: Person,
    lang: Lang,
    bot: Bot,
    lobby: Lobby,
    dispatch: EffectDispatcher,
) -> None:
    """/start, with a lobby's join link as its payload if any."""
    start = parse_start(command.args.strip() if command.args else None)
    if start.kind is StartKind.JOIN:
        member = functools.partial(is_member, bot)
        answer = await dispatch(lobby.join_by_link(person, start.token, member))
    elif start.kind is StartKind.STALE_JOIN:
        answer = await dispatch(lobby.stale_link(person))
    else:
        answer = await dispatch(lobby.start(person))
    await message.answer(reply_text(answer, lang))


@router.message(Command("hand"), in_private)
async def on_hand(
    message: Message, person: Person, lang: Lang, playing: Playing, dispatch: EffectDispatcher
) -> None:
    refused = await dispatch(playing.resend_hand(person))
    if refused is not None:
        await message.answer(reply_text(refused, lang))


@router.message(Command("hand"), in_group)
async def on_hand_in_group(
    message: Message, person: Person, lang: Lang, playing: Playing, dispatch: EffectDispatcher
) -> None:
    """/hand in the group: the person's hand comes right here, for them alone (as
    «✋ Мои кости» under the table brings it); someone not playing here is told so."""
    text = reply_text(await dispatch(playing.hand_here(message.chat.id, person)), lang)
    if text:
        await message.reply(text)


@router.message(Command("leave"))
async def on_leave(
    message: Message, person: Person, lang: Lang, endings: Endings, dispatch: EffectDispatcher
) -> None:
    chat_id = message.chat.id if message.chat.type in GROUP_TYPES else None
    text = reply_text(await dispatch(endings.leave(chat_id, person)), lang)
    if text:
        await message.reply(text)


@router.message(Command("cancel"), in_group, AdminCheck())
async def on_cancel(
    message: Message,
    person: Person,
    lang: Lang,
    is_admin: ChatCheck,
    endings: Endings,
    dispatch: EffectDispatcher,
) -> None:
    """The game of the forum topic it was asked in: the creator or an admin is asked to
    confirm; anyone else seated in the running match opens a vote to cancel it instead."""
    topic = topic_of(message)
    try:
        game = await endings.cancel_allowed(message.chat.id, person, is_admin, topic)
    except NotCreatorOrAdmin:
        refused = await dispatch(endings.open_vote(message.chat.id, person, topic))
        if refused is not None:
            await message.reply(reply_text(refused, lang))
        return
    except Refusal as refusal:
        await message.reply(reply_text(refusal.reply, lang))
        return
    keyboard = cancel_confirm_keyboard(game.id, lang)
    question = reply_text(cancel_question(game), lang)  # plain text: the name unescaped
    await message.reply(question, reply_markup=keyboard)


@router.message(Command("cancel"), in_private)
async def on_cancel_in_private(message: Message, lang: Lang) -> None:
    await message.answer(t("private.cancel_in_group", lang))


@router.message(Command("rules"))
async def on_rules(message: Message, person: Person, lang: Lang, lobby: Lobby) -> None:
    """The rules of the game in the chat's forum topic (in a private chat: the person's own
    game), else of the group's default game, with the target it is played to; a button
    per game pages through the others."""
    chat_id = message.chat.id if message.chat.type in GROUP_TYPES else None
    rules = await lobby.rules_for(chat_id, person.id, topic_of(message))
    await message.answer(
        rules_text(rules, lang), reply_markup=rules_keyboard(rules, lang), parse_mode="HTML"
    )


@router.callback_query(RulesCb.filter())
async def on_rules_page(
    call: CallbackQuery, callback_data: RulesCb, person: Person, lang: Lang, lobby: Lobby
) -> None:
    """A game's button under /rules: that game's rules in the same message and its
    language, to the target of the chat's own game if it is that game, else to the
    game's default. A press that names no game, or comes on a message without that
    button (forged), is answered and changes nothing."""
    message = call.message
    game = game_of_key(callback_data.game)
    if game is None:
        await reply(call, Reply("alert.rules_unknown", alert=True), lang)
        return
    if not isinstance(message, Message) or not shows_button(message, call.data):
        await reply(call, Reply("alert.stale", alert=True), lang)
        return
    chat_id = message.chat.id if message.chat.type in GROUP_TYPES else None
    current = await lobby.rules_for(chat_id, person.id, topic_of(message))
    rules = current if current.game is game else game.ruleset
    page = next((known for known in Lang if known.value == callback_data.lang), lang)
    await reply(call, NO_REPLY, lang)
    try:
        await message.edit_text(
            rules_text(rules, page), reply_markup=rules_keyboard(rules, page), parse_mode="HTML"
        )
    except TelegramBadRequest as exc:
        # The page shown already, or the message deleted or too old to edit meanwhile:
        # the press was answered, and /rules gives a fresh message any time.
        if not any(reason in exc.message for reason in _UNEDITABLE):
            raise
        log.info("the rules in %s were not edited: %s", message.chat.id, exc.message)


@router.message(Command("help"))
async def on_help(message: Message, lang: Lang) -> None:
    key = "help.private" if message.chat.type == "private" else "help.group"
    await message.answer(t(key, lang))
