"""/settings (the group's default game, turn timer, language, lobby timeout, hints and
where hands are shown, a section's choices opened by its button; in the private chat
where the person's own hand is shown and their turn notices) and the "I'm back" button
of a hand."""

from __future__ import annotations

import dataclasses
from typing import Any

from aiogram import Router
from aiogram.exceptions import TelegramBadRequest
from aiogram.filters import Command
from aiogram.types import CallbackQuery, InlineKeyboardMarkup, Message

from bot.app.effects import EffectDispatcher
from bot.app.group_settings import LOBBY_TIMEOUTS, ChatSettings, group_lang, turn_timer_of
from bot.app.people import People, Person
from bot.app.reply import NO_REPLY, Reply
from bot.app.usecases import ChatCheck, Chats, Playing
from bot.telegram.callbacks import (
    BackCb,
    DefaultGameCb,
    GroupLangCb,
    HandsCb,
    HintsCb,
    LobbyTimeCb,
    SettingsCb,
    SettingsSection,
    TimerCb,
    TurnNoticesCb,
)
from bot.telegram.presenter import lobby_timeout_name, settings_keyboard, settings_text, timer_name
from bot.telegram.presenter.lobby import PLAYABLE, playable_game
from bot.telegram.presenter.settings import (
    hands_choice,
    hands_name,
    hints_state,
    notices_state,
    private_settings_keyboard,
    private_settings_text,
    section_keyboard,
    section_text,
)
from bot.telegram.turn_notices import TurnNotices
from handlers.buttons import reply
from handlers.filters import in_group, in_own_private_chat, in_private, on_own_hand
from handlers.people import GROUP_TYPES, AdminCheck, chat_of, hand_group
from i18n import Lang, t

router = Router(name="settings")


def shown_in(settings: ChatSettings, lang: Lang) -> Lang:
    """The settings message speaks the group's language (just changed, perhaps)."""
    return group_lang(settings) or lang


@router.message(Command("settings"), in_group)
async def on_settings(message: Message, lang: Lang, chats: Chats) -> None:
    """Everyone may look; the buttons answer non-admins with a refusal."""
    settings = chats.settings_of(message.chat.id)
    shown = shown_in(settings, lang)
    await message.reply(
        settings_text(message.chat.title or "?", settings, shown),
        reply_markup=settings_keyboard(settings, shown),
        parse_mode="HTML",
    )


@router.message(Command("settings"), in_private)
async def on_settings_in_private(
    message: Message, lang: Lang, person: Person, turn_notices: TurnNotices, people: People
) -> None:
    """The person's own settings (where their hand is shown, the «🔔 Ваш ход» notices);
    the group's are in the group."""
    notices = await turn_notices.wanted(person.id)
    hands = await people.hands_chosen(person.id)
    await message.answer(
        private_settings_text(notices, hands, lang),
        reply_markup=private_settings_keyboard(notices, hands, lang),
        parse_mode="HTML",
    )


async def _redraw_private(
    call: CallbackQuery, lang: Lang, person: Person, turn_notices: TurnNotices, people: People
) -> None:
    """The private settings message, redrawn with the person's settings as stored now."""
    message = call.message
    if not isinstance(message, Message):
        return
    notices = await turn_notices.wanted(person.id)
    hands = await people.hands_chosen(person.id)
    try:
        await message.edit_text(
            private_settings_text(notices, hands, lang),
            reply_markup=private_settings_keyboard(notices, hands, lang),
            parse_mode="HTML",
        )
    except TelegramBadRequest as exc:
        if "message is not modified" not in exc.message:
            raise


@router.callback_query(TurnNoticesCb.filter(), in_own_private_chat)
async def on_turn_notices(
    call: CallbackQuery,
    callback_data: TurnNoticesCb,
    lang: Lang,
    person: Person,
    turn_notices: TurnNotices,
    people: People,
) -> None:
    """Switch the person's turn notices on or off; from their next turn on."""
    wanted = callback_data.on
    await turn_notices.set_wanted(person, wanted)
    await _redraw_private(call, lang, person, turn_notices, people)
    state = notices_state(wanted, lang)
    await reply(call, Reply.of("answer.turn_notices_set", state=state), lang)


@router.callback_query(HandsCb.filter(), in_own_private_chat)
async def on_own_hands(
    call: CallbackQuery,
    callback_data: HandsCb,
    lang: Lang,
    person: Person,
    turn_notices: TurnNotices,
    people: People,
) -> None:
    """Where the person's hand is shown: in the group, in private, both, or as their
    group has it. The group's «✋ Мои кости» works whatever they choose."""
    known, place = hands_choice(callback_data.place, own=True)
    if not known:
        await reply(call, Reply("alert.stale", alert=True), lang)
        return
    await people.choose_hands(person, place)
    await _redraw_private(call, lang, person, turn_notices, people)
    await reply(call, Reply.of("answer.hands_set", place=hands_name(place, lang)), lang)


@router.callback_query(SettingsCb.filter(), AdminCheck())
async def on_section(
    call: CallbackQuery,
    callback_data: SettingsCb,
    lang: Lang,
    is_admin: ChatCheck,
    chats: Chats,
) -> None:
    """A section's button: its choices in place of the sections' buttons (or, from
    «↩️ Назад», the sections again). Only a chat admin: it changes the message everyone
    sees, and its choices are theirs."""
    message = call.message
    if not isinstance(message, Message) or message.chat.type not in GROUP_TYPES:
        await reply(call, Reply("alert.stale", alert=True), lang)
        return
    if not await is_admin(message.chat.id):
        await reply(call, Reply("alert.admins_only", alert=True), lang)
        return
    await reply(call, NO_REPLY, lang)
    section = callback_data.section
    settings = chats.settings_of(message.chat.id)
    shown = shown_in(settings, lang)
    if section is SettingsSection.MAIN:
        text = settings_text(message.chat.title or "?", settings, shown)
    else:
        text = section_text(section, settings, shown)
    await _edit(message, text, section_keyboard(section, settings, shown))


async def _edit(message: Message, text: str, keyboard: InlineKeyboardMarkup) -> None:
    """The settings message shows `text` and `keyboard` (already shown: nothing to do)."""
    try:
        await message.edit_text(text, reply_markup=keyboard, parse_mode="HTML")
    except TelegramBadRequest as exc:
        if "message is not modified" not in exc.message:
            raise


async def _change(
    call: CallbackQuery, lang: Lang, is_admin: ChatCheck, chats: Chats, **change: Any
) -> ChatSettings | None:
    """Apply `change` to the group's settings if an admin of it pressed; None after a
    refusal (already answered). The settings message shows the sections again, every
    value as it is now."""
    message = call.message
    if not isinstance(message, Message) or message.chat.type not in GROUP_TYPES:
        await reply(call, Reply("alert.stale", alert=True), lang)
        return None
    if not await is_admin(message.chat.id):
        await reply(call, Reply("alert.admins_only", alert=True), lang)
        return None
    settings = dataclasses.replace(chats.settings_of(message.chat.id), **change)
    await chats.change_settings(chat_of(message.chat), settings)
    shown = shown_in(settings, lang)
    text = settings_text(message.chat.title or "?", settings, shown)
    await _edit(message, text, settings_keyboard(settings, shown))
    return settings


@router.callback_query(TimerCb.filter(), AdminCheck())
async def on_timer(
    call: CallbackQuery,
    callback_data: TimerCb,
    lang: Lang,
    is_admin: ChatCheck,
    chats: Chats,
) -> None:
    timer = turn_timer_of(callback_data.timer)
    if timer is None:
        await reply(call, Reply("alert.stale", alert=True), lang)
        return
    if await _change(call, lang, is_admin, chats, turn_timer=timer) is not None:
        await reply(call, Reply.of("answer.timer_set", timer=timer_name(timer, lang)), lang)


@router.callback_query(GroupLangCb.filter(), AdminCheck())
async def on_group_lang(
    call: CallbackQuery,
    callback_data: GroupLangCb,
    lang: Lang,
    is_admin: ChatCheck,
    chats: Chats,
) -> None:
    """The group's one language, for everything the bot says there; from now on."""
    code = callback_data.lang
    if code not in list(Lang):  # forged, or the "auto" of an older message
        await reply(call, Reply("alert.stale", alert=True), lang)
        return
    if await _change(call, lang, is_admin, chats, group_lang=code) is not None:
        name = t(f"group_lang.{code}", lang)
        await reply(call, Reply.of("answer.group_lang_set", lang=name), lang)


@router.callback_query(LobbyTimeCb.filter(), AdminCheck())
async def on_lobby_timeout(
    call: CallbackQuery,
    callback_data: LobbyTimeCb,
    lang: Lang,
    is_admin: ChatCheck,
    chats: Chats,
) -> None:
    """How long a lobby nobody starts stays open; from the next lobby on."""
    minutes = callback_data.minutes
    if minutes not in LOBBY_TIMEOUTS:
        await reply(call, Reply("alert.stale", alert=True), lang)
        return
    if await _change(call, lang, is_admin, chats, lobby_timeout=minutes) is not None:
        name = lobby_timeout_name(minutes, lang)
        await reply(call, Reply.of("answer.lobby_timeout_set", time=name), lang)


@router.callback_query(DefaultGameCb.filter(), AdminCheck())
async def on_default_game(
    call: CallbackQuery,
    callback_data: DefaultGameCb,
    lang: Lang,
    is_admin: ChatCheck,
    chats: Chats,
) -> None:
    """The game a plain /domino opens in the group; from the next lobby on."""
    if callback_data.game not in PLAYABLE:
        await reply(call, Reply("alert.stale", alert=True), lang)
        return
    game = playable_game(callback_data.game)
    if await _change(call, lang, is_admin, chats, default_game=game.key.value) is not None:
        await reply(call, Reply.of("answer.default_game_set", game=t(game.name_key, lang)), lang)


@router.callback_query(HintsCb.filter(), AdminCheck())
async def on_hints(
    call: CallbackQuery,
    callback_data: HintsCb,
    lang: Lang,
    is_admin: ChatCheck,
    chats: Chats,
) -> None:
    """«💡 Подсказки: вкл/выкл»: the hands show the button from their next
    redraw; a hint press after switching off is refused (`bot.app.usecases.hints`)."""
    if await _change(call, lang, is_admin, chats, hints=callback_data.on) is not None:
        state = hints_state(callback_data.on, lang)
        await reply(call, Reply.of("answer.hints_set", state=state), lang)


@router.callback_query(HandsCb.filter(), AdminCheck())
async def on_group_hands(
    call: CallbackQuery,
    callback_data: HandsCb,
    lang: Lang,
    is_admin: ChatCheck,
    chats: Chats,
) -> None:
    """Where the group shows hands for whoever did not choose: in the group, in private,
    or both. In the group (or both), «🙋 Играю» seats anyone at once; in private, someone
    the bot cannot write to yet goes to its chat by the lobby's link first."""
    known, place = hands_choice(callback_data.place, own=False)
    if not known or place is None:
        await reply(call, Reply("alert.stale", alert=True), lang)
        return
    if await _change(call, lang, is_admin, chats, hands=place) is not None:
        await reply(call, Reply.of("answer.group_hands_set", place=hands_name(place, lang)), lang)


@router.callback_query(BackCb.filter(), on_own_hand)
async def on_back(
    call: CallbackQuery,
    callback_data: BackCb,
    person: Person,
    lang: Lang,
    playing: Playing,
    dispatch: EffectDispatcher,
) -> None:
    """«🙋 Я снова играю» on the person's own hand: in their private chat, or the one shown
    to them alone inside the game's group; pressed elsewhere, the fallback answers it as
    out of date."""
    game, group = callback_data.game, hand_group(call)
    await reply(call, await dispatch(playing.come_back(game, person, group=group)), lang)
