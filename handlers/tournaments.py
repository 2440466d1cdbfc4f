"""/tournament and the buttons of a tournament's message (docs/tournaments.md).

/tournament in a group (or a forum topic) opens the sign-up there, or, when one is on
there already, shows its message again at the bottom; in a private chat it says where
tournaments are played. Every button names a tournament; the use case acts on it only
if the pressed message is in that tournament's chat and the presser may act (sign up:
anyone; the settings, start, pause, removal, cancel: the organiser or a group admin).
The organiser's menus (settings, games, whom to remove, the confirmations) are opened
in place of the message's buttons (`TournamentBoard.open_menu`) only after the core
has said the presser may change the tournament (`Tournaments.may_organise`)."""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import Command
from aiogram.types import CallbackQuery, Message

from bot.app.effects import EffectDispatcher
from bot.app.people import Person
from bot.app.reply import NO_REPLY, Reply
from bot.app.usecases import ChatCheck, Tournaments
from bot.telegram.callbacks import TournamentAction, TournamentCb
from bot.telegram.presenter.replies import reply_text
from bot.telegram.presenter.tournament import MAIN_MENU, Menu, MenuKind
from bot.telegram.tournament_board import TournamentBoard
from handlers.buttons import reply, shows_button
from handlers.filters import in_group, in_private, not_a_bot
from handlers.people import AdminCheck, chat_of, pressed_in, topic_of
from i18n import Lang, t

router = Router(name="tournaments")

# The menus a button opens, once the core says the presser may change the tournament.
MENUS = {
    TournamentAction.SETTINGS: Menu(MenuKind.SETTINGS),
    TournamentAction.GAMES: Menu(MenuKind.GAMES),
    TournamentAction.BACK: MAIN_MENU,
    TournamentAction.REMOVE: Menu(MenuKind.REMOVE),
}


@router.message(Command("tournament"), in_group, not_a_bot)
async def on_tournament(
    message: Message,
    person: Person,
    lang: Lang,
    tournaments: Tournaments,
    tournament_board: TournamentBoard,
    dispatch: EffectDispatcher,
) -> None:
    """The sign-up in the topic it was asked in; a tournament on there already is shown
    again at the bottom, and the answer says so."""
    topic = topic_of(message)
    current = await tournaments.current(message.chat.id, topic)
    if current is not None:
        tournament_board.resend(current.id)
        await message.reply(t("tournament.shown_again", lang))
        return
    answer = await dispatch(tournaments.open(chat_of(message.chat), topic, person))
    text = reply_text(answer, lang)
    if text:
        await message.reply(text)


@router.message(Command("tournament"), in_private)
async def on_tournament_in_private(message: Message, lang: Lang) -> None:
    await message.answer(t("tournament.private", lang))


@router.callback_query(TournamentCb.filter(), AdminCheck())
async def on_tournament_button(
    call: CallbackQuery,
    callback_data: TournamentCb,
    person: Person,
    lang: Lang,
    is_admin: ChatCheck,
    tournaments: Tournaments,
    tournament_board: TournamentBoard,
    dispatch: EffectDispatcher,
) -> None:
    message = call.message
    if not isinstance(message, Message) or not shows_button(message, call.data):
        # Forged onto another message, or its keyboard changed since.
        await reply(call, Reply("tournament.stale", alert=True), lang)
        return
    press = callback_data
    chat_id = pressed_in(call)
    tournament_id = press.tournament
    action = press.action
    answer: Reply
    if action is TournamentAction.JOIN:
        answer = await dispatch(tournaments.sign_up(tournament_id, chat_id, person))
    elif action is TournamentAction.LEAVE:
        answer = await dispatch(tournaments.sign_off(tournament_id, chat_id, person))
    elif action is TournamentAction.SET:
        answer = await dispatch(
            tournaments.set_option(
                tournament_id, chat_id, person, is_admin, press.option, press.value
            )
        )
        if not answer.alert:
            tournament_board.open_menu(tournament_id, Menu(MenuKind.SETTINGS))
    elif action is TournamentAction.START:
        answer = await dispatch(tournaments.start(tournament_id, chat_id, person, is_admin))
        if not answer.alert:
            tournament_board.open_menu(tournament_id, MAIN_MENU)
    elif action is TournamentAction.PAUSE:
        answer = await dispatch(tournaments.pause(tournament_id, chat_id, person, is_admin))
    elif action is TournamentAction.RESUME:
        answer = await dispatch(tournaments.resume(tournament_id, chat_id, person, is_admin))
    elif action in (TournamentAction.CANCEL, TournamentAction.CANCEL_YES):
        confirmed = action is TournamentAction.CANCEL_YES
        answer = await dispatch(
            tournaments.cancel(tournament_id, chat_id, person, is_admin, confirmed=confirmed)
        )
        if not answer.alert:
            tournament_board.open_menu(
                tournament_id, MAIN_MENU if confirmed else Menu(MenuKind.CANCEL)
            )
    elif action in (TournamentAction.REMOVE_ASK, TournamentAction.REMOVE_YES):
        entrant = press.entrant
        if entrant is None:
            await reply(call, Reply("tournament.stale", alert=True), lang)
            return
        confirmed = action is TournamentAction.REMOVE_YES
        answer = await dispatch(
            tournaments.remove(
                tournament_id, chat_id, person, is_admin, entrant, confirmed=confirmed
            )
        )
        if not answer.alert:
            menu = MAIN_MENU if confirmed else Menu(MenuKind.REMOVE_ONE, entrant)
            tournament_board.open_menu(tournament_id, menu)
    else:
        answer = await _open_menu(
            tournament_id, chat_id, person, is_admin, MENUS[action], tournaments, tournament_board
        )
    if not answer.alert:
        # Whatever the press changed is shown (a message that shows it already is not
        # edited: its digest is the same).
        tournament_board.show(tournament_id)
    await reply(call, answer, lang)


async def _open_menu(
    tournament_id: int,
    chat_id: int | None,
    person: Person,
    is_admin: ChatCheck,
    menu: Menu,
    tournaments: Tournaments,
    board: TournamentBoard,
) -> Reply:
    """An organiser's menu in place of the message's buttons; anyone else (or a press
    naming another chat's tournament) is told so, and the message does not change."""
    tournament = await tournaments.get(tournament_id)
    if tournament is None or chat_id is None or tournament.chat_id != chat_id:
        return Reply("tournament.not_here", alert=True)
    if not await tournaments.may_organise(tournament, person, is_admin):
        return Reply("tournament.organiser_only", alert=True)
    board.open_menu(tournament_id, menu)
    return NO_REPLY
