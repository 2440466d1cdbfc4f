"""/settings: a group's turn timer, language, lobby timeout, default game, hints and
where hands are shown, and the buttons that change them; in the private chat the
person's own settings (where their hand is shown, their «🔔 Ваш ход» notices)."""

from __future__ import annotations

import html

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.app.group_settings import group_lang
from bot.telegram.callbacks import (
    DefaultGameCb,
    GroupLangCb,
    HandsCb,
    HintsCb,
    LobbyTimeCb,
    TimerCb,
    TurnNoticesCb,
)
from bot.telegram.presenter.common import short_name
from bot.telegram.presenter.lobby import own_turn_times, playable_games
from domino.timing import TurnTimer
from i18n import Lang, t
from storage.records import LOBBY_TIMEOUTS, ChatSettings, HandsPlace

TIMER_ROWS = (
    (TurnTimer.OFF, TurnTimer.S30, TurnTimer.S60),
    (TurnTimer.S120, TurnTimer.S300),
    (TurnTimer.SPORT,),
)
GAMES_PER_ROW = 2  # the default game's buttons
HANDS_DEFAULT = "default"  # `HandsCb.place` in the private /settings: the group's default
# The person's choices of where their hand is shown, two a row as a phone shows them whole.
PRIVATE_HANDS_ROWS: tuple[tuple[HandsPlace | None, ...], ...] = (
    (HandsPlace.GROUP, HandsPlace.PRIVATE),
    (HandsPlace.BOTH, None),
)


def timer_name(timer: TurnTimer, lang: Lang) -> str:
    return t(f"timer.{timer.value}", lang)


def lobby_timeout_name(minutes: int, lang: Lang) -> str:
    return t("lobby_timeout.off", lang) if not minutes else t("lobby_timeout.min", lang, n=minutes)


def hints_state(on: bool, lang: Lang) -> str:
    """«вкл» / «выкл»: whether the hands show «💡 Подсказка»."""
    return t("hints.on" if on else "hints.off", lang)


def hands_name(place: HandsPlace | None, lang: Lang) -> str:
    """Where hands are shown, as a sentence names it; None: as the person's group has it."""
    return t(f"hands.{place.value if place else HANDS_DEFAULT}", lang)


def hands_choice(value: str, *, own: bool) -> tuple[bool, HandsPlace | None]:
    """What `HandsCb.place` names: (True, the place) for one this version knows (`own`:
    the private /settings, where "default" is None, the group's); (False, None) for
    anything else (forged, or of another layout)."""
    if own and value == HANDS_DEFAULT:
        return True, None
    if value in {place.value for place in HandsPlace}:
        return True, HandsPlace(value)
    return False, None


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
    hands = t("settings.hands", lang, place=hands_name(settings.hands, lang))
    # S-7: the games timed by their own rules whatever the timer (`timer_in_force`).
    own = [
        t("settings.own_timing", lang, game=t(game.name_key, lang), **own_turn_times())
        for game in playable_games()
        if game.turn_timing
    ]
    hint = "\n".join([t("settings.hint", lang), *own, t("settings.hands_hint", lang)])
    shown = "\n".join([title, language, lobby, hints, hands])
    return shown + "\n\n" + hint


def _choice(text: str, chosen: bool, data: str) -> InlineKeyboardButton:
    """A button of one setting's choices; the one in force is marked ✅."""
    return InlineKeyboardButton(text=("✅ " if chosen else "") + text, callback_data=data)


def settings_keyboard(settings: ChatSettings, lang: Lang) -> InlineKeyboardMarkup:
    """The choices of each setting, the current ones marked: turn timers, the group's
    language, the lobby timeout, the game a plain /domino opens; one switch for hints,
    which names the state in force and turns it over (the button carries the state it
    sets, so a second press of an old message changes nothing more); where hands are
    shown for whoever did not choose."""
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
    rows.append(
        [
            _choice(
                t("btn.group_hands", lang, place=t(f"btn.hands.{place.value}", lang)),
                place is settings.hands,
                HandsCb(place=place.value).pack(),
            )
            for place in HandsPlace
        ]
    )
    return InlineKeyboardMarkup(inline_keyboard=rows)


def chosen_code(settings: ChatSettings) -> str:
    """The group's language as its button names it; "auto": the creator's."""
    chosen = group_lang(settings)
    return chosen.value if chosen is not None else "auto"


# --- the private /settings ------------------------------------------------------------


def private_settings_text(notices: bool, hands: HandsPlace | None, lang: Lang) -> str:
    """The person's own settings (their turn notices, `notices`; where their hand is
    shown, `hands`: None as their group has it), and where the group's are."""
    own = t("settings.private", lang, state=notices_state(notices, lang))
    place = t("settings.private_hands", lang, place=hands_name(hands, lang))
    return f"{own}\n\n{place}\n\n{t('settings.in_group', lang)}"


def private_settings_keyboard(
    notices: bool, hands: HandsPlace | None, lang: Lang
) -> InlineKeyboardMarkup:
    """A switch for the turn notices (carrying the state it sets), then the places a
    hand may be shown, the chosen one marked ✅."""
    switch = InlineKeyboardButton(
        text=t("btn.turn_notices", lang, state=notices_state(notices, lang)),
        callback_data=TurnNoticesCb(on=not notices).pack(),
    )
    rows = [[switch]]
    for row in PRIVATE_HANDS_ROWS:
        rows.append(
            [
                _choice(
                    t(f"btn.hands.{place.value if place else HANDS_DEFAULT}", lang),
                    place is hands,
                    HandsCb(place=place.value if place else HANDS_DEFAULT).pack(),
                )
                for place in row
            ]
        )
    return InlineKeyboardMarkup(inline_keyboard=rows)


def notices_state(wanted: bool, lang: Lang) -> str:
    return t("turn_notices.on" if wanted else "turn_notices.off", lang)
