"""Commands: /domino (/newgame), /start, /hand, /leave, /cancel, /rules, /help."""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup, Message

from bot.i18n import t
from bot.presenter import cancel_confirm_keyboard
from bot.service import GameService, Refusal
from domino.rules import KOZEL
from handlers.people import (
    ADMIN_STATUSES,
    GROUP_TYPES,
    by_anonymous_admin,
    chat_of,
    is_member,
    person_of,
)

router = Router(name="commands")
in_group = F.chat.type.in_(GROUP_TYPES)
in_private = F.chat.type == "private"


@router.message(Command("domino", "newgame"), in_group, F.from_user)
async def on_new_game(message: Message, games: GameService) -> None:
    """A new lobby. An anonymous admin's lobby has no seat for them; the chat's admins run
    it (issue 11, item 4). Another bot's command is not taken."""
    assert message.from_user is not None
    if message.from_user.is_bot and not by_anonymous_admin(message):
        return
    reply = await games.open_lobby(chat_of(message.chat), person_of(message.from_user))
    if reply:
        await message.reply(reply)


@router.message(Command("domino", "newgame"), in_private, F.from_user)
async def on_new_game_in_private(message: Message) -> None:
    assert message.from_user is not None
    await message.answer(t("private.group_only", person_of(message.from_user).lang))


@router.message(CommandStart(), in_private, F.from_user)
async def on_start(message: Message, command: CommandObject, bot: Bot, games: GameService) -> None:
    assert message.from_user is not None
    person = person_of(message.from_user)
    payload = command.args.strip() if command.args else None

    async def member(chat_id: int, user_id: int) -> bool:
        return await is_member(bot, chat_id, user_id)

    await message.answer(await games.start(person, payload, member))


@router.message(Command("hand"), in_private, F.from_user)
async def on_hand(message: Message, games: GameService) -> None:
    assert message.from_user is not None
    reply = await games.resend_hand(person_of(message.from_user))
    if reply:
        await message.answer(reply)


@router.message(Command("hand"), in_group, F.from_user)
async def on_hand_in_group(message: Message, games: GameService) -> None:
    assert message.from_user is not None
    lang = person_of(message.from_user).lang
    button = InlineKeyboardButton(
        text=t("btn.open_private", lang), url=f"https://t.me/{games.bot_username}?start=hand"
    )
    await message.reply(
        t("group.hand_is_private", lang),
        reply_markup=InlineKeyboardMarkup(inline_keyboard=[[button]]),
    )


@router.message(Command("leave"), F.from_user)
async def on_leave(message: Message, games: GameService) -> None:
    assert message.from_user is not None
    chat_id = message.chat.id if message.chat.type in GROUP_TYPES else None
    await message.reply(await games.leave(chat_id, person_of(message.from_user)))


@router.message(Command("cancel"), in_group, F.from_user)
async def on_cancel(message: Message, bot: Bot, games: GameService) -> None:
    assert message.from_user is not None
    person = person_of(message.from_user)
    if by_anonymous_admin(message):
        admin = True  # only a chat's admins can write as the chat
    else:
        member = await bot.get_chat_member(message.chat.id, person.id)
        admin = member.status in ADMIN_STATUSES
    try:
        game = await games.cancel_allowed(message.chat.id, person, admin)
    except Refusal as refusal:
        if refusal.key == "alert.creator_or_admin":
            # Anyone else seated in the running match may start a vote to cancel it.
            refused = await games.open_cancel_vote(message.chat.id, person)
            if refused is not None:
                await message.reply(refused)
            return
        await message.reply(t(refusal.key, person.lang, **refusal.values))
        return
    await message.reply(
        t("cancel.confirm", person.lang), reply_markup=cancel_confirm_keyboard(game.id, person.lang)
    )


@router.message(Command("cancel"), in_private, F.from_user)
async def on_cancel_in_private(message: Message) -> None:
    assert message.from_user is not None
    await message.answer(t("private.cancel_in_group", person_of(message.from_user).lang))


@router.message(Command("rules"), F.from_user)
async def on_rules(message: Message) -> None:
    assert message.from_user is not None
    await message.answer(
        t("rules.kozel", person_of(message.from_user).lang, target=KOZEL.target),
        parse_mode="HTML",
    )


@router.message(Command("help"), F.from_user)
async def on_help(message: Message) -> None:
    assert message.from_user is not None
    lang = person_of(message.from_user).lang
    key = "help.private" if message.chat.type == "private" else "help.group"
    await message.answer(t(key, lang))
