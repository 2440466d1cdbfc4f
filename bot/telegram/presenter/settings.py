"""/settings: a group's turn timer, language, lobby timeout, default game and hints, and
the buttons that change them."""

from __future__ import annotations

import html

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.app.group_settings import group_lang
from bot.telegram.callbacks import DefaultGameCb, GroupLangCb, HintsCb, LobbyTimeCb, TimerCb
from bot.telegram.presenter.common import short_name
from bot.telegram.presenter.lobby import own_turn_times, playable_games
from domino.timing import TurnTimer
from i18n import Lang, t
from storage.records import LOBBY_TIMEOUTS, ChatSettings

TIMER_ROWS = (
    (TurnTimer.OFF, TurnTimer.S30, TurnTimer.S60),
    (TurnTimer.S120, TurnTimer.S300),
    (TurnTimer.SPORT,),
)
GAMES_PER_ROW = 2  # the default game's buttons


def timer_name(timer: TurnTimer, lang: Lang) -> str:
    return t(f"timer.{timer.value}", lang)


def lobby_timeout_name(minutes: int, lang: Lang) -> str:
    return t("lobby_timeout.off", lang) if not minutes else t("lobby_timeout.min", lang, n=minutes)


def hints_state(on: bool, lang: Lang) -> str:
    """«вкл» / «выкл»: whether the hands show «💡 Подсказка»."""
    return t("hints.on" if on else "hints.off", lang)


def settings_text(chat_title: str, settings: ChatSettings, lang: Lang) -> str:
    title = t(
        "settings.title",
        lang,
        chat=html.escape(short_name(chat_title, 40)),
        timer=timer_name(settings.turn_timer, lang),
    )
    chosen = t(f"group_lang.{chosen_code(settings)}", lang)
    language = t("settings.lang", lang, lang=chosen)
    lobby = t("settings.lobby_timeout", lang, time=lobby_timeout_name(settings.lobby_timeout, lang))
    hints = t("settings.hints", lang, state=hints_state(settings.hints, lang))
    # S-7: the games timed by their own rules whatever the timer (`timer_in_force`).
    own = [
        t("settings.own_timing", lang, game=t(game.name_key, lang), **own_turn_times())
        for game in playable_games()
        if game.turn_timing
    ]
    hint = "\n".join([t("settings.hint", lang), *own])
    return title + "\n" + language + "\n" + lobby + "\n" + hints + "\n\n" + hint


def _choice(text: str, chosen: bool, data: str) -> InlineKeyboardButton:
    """A button of one setting's choices; the one in force is marked ✅."""
    return InlineKeyboardButton(text=("✅ " if chosen else "") + text, callback_data=data)


def settings_keyboard(settings: ChatSettings, lang: Lang) -> InlineKeyboardMarkup:
    """The choices of each setting, the current ones marked: turn timers, the group's
    language, the lobby timeout, the game a plain /domino opens; one switch for hints,
    which names the state in force and turns it over (the button carries the state it
    sets, so a second press of an old message changes nothing more)."""
    rows = [
        [
            _choice(
                timer_name(timer, lang),
                timer is settings.turn_timer,
                TimerCb(timer=timer.value).pack(),
            )
            for timer in row
        ]
        for row in TIMER_ROWS
    ]
    rows.append(
        [
            _choice(
                t(f"btn.group_lang.{code}", lang),
                code == chosen_code(settings),
                GroupLangCb(lang=code).pack(),
            )
            for code in ("auto", *(lang.value for lang in Lang))
        ]
    )
    rows.append(
        [
            _choice(
                t("btn.lobby_timeout", lang, time=lobby_timeout_name(minutes, lang)),
                minutes == settings.lobby_timeout,
                LobbyTimeCb(minutes=minutes).pack(),
            )
            for minutes in LOBBY_TIMEOUTS
        ]
    )
    games = [
        _choice(
            t("btn.default_game", lang, game=t(game.name_key, lang)),
            game.key.value == settings.default_game,
            DefaultGameCb(game=game.key.value).pack(),
        )
        for game in playable_games()
    ]
    # A phone shows a name such as «Морской козёл» whole only two a row.
    rows.extend(games[i : i + GAMES_PER_ROW] for i in range(0, len(games), GAMES_PER_ROW))
    hints = t("btn.hints", lang, state=hints_state(settings.hints, lang))
    switch = HintsCb(on=not settings.hints).pack()
    rows.append([InlineKeyboardButton(text=hints, callback_data=switch)])
    return InlineKeyboardMarkup(inline_keyboard=rows)


def chosen_code(settings: ChatSettings) -> str:
    """The group's language as its button names it; "auto": the creator's."""
    chosen = group_lang(settings)
    return chosen.value if chosen is not None else "auto"
