"""/settings: a group's default game, turn timer, language, lobby timeout, hints and
where hands are shown: every value in the text and a button a section, each section's
choices opening in its place with «↩️ Назад»; in the private chat the person's own
settings (where their hand is shown, their «🔔 Ваш ход» notices)."""

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
    SettingsCb,
    SettingsSection,
    TimerCb,
    TurnNoticesCb,
)
from bot.telegram.presenter.common import short_name
from bot.telegram.presenter.lobby import own_turn_times, playable_game, playable_games
from domino.timing import TurnTimer
from i18n import Lang, t
from storage.records import LOBBY_TIMEOUTS, ChatSettings, HandsPlace

# The turn timers' choices, two a row as a phone shows them whole; sport, whose name
# carries its times, on a row of its own.
TIMER_ROWS = (
    (TurnTimer.OFF,),
    (TurnTimer.S30, TurnTimer.S60),
    (TurnTimer.S120, TurnTimer.S300),
    (TurnTimer.SPORT,),
)
PER_ROW = 2  # a section's choices, and the sections' buttons
HANDS_DEFAULT = "default"  # `HandsCb.place` in the private /settings: the group's default
# The person's choices of where their hand is shown, two a row as a phone shows them whole.
PRIVATE_HANDS_ROWS: tuple[tuple[HandsPlace | None, ...], ...] = (
    (HandsPlace.GROUP, HandsPlace.PRIVATE),
    (HandsPlace.BOTH, None),
)
SECTIONS = (
    SettingsSection.GAME,
    SettingsSection.TIMER,
    SettingsSection.LANG,
    SettingsSection.LOBBY,
    SettingsSection.HINTS,
    SettingsSection.HANDS,
)
"""The group's /settings, in the order the text lists them and the buttons open them."""


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


def _values(settings: ChatSettings, lang: Lang) -> dict[SettingsSection, str]:
    """Each section's value in force, as its line of the text names it."""
    return {
        SettingsSection.GAME: t(playable_game(settings.default_game).name_key, lang),
        SettingsSection.TIMER: timer_name(settings.turn_timer, lang),
        SettingsSection.LANG: t(f"group_lang.{language_of(settings, lang).value}", lang),
        SettingsSection.LOBBY: lobby_timeout_name(settings.lobby_timeout, lang),
        SettingsSection.HINTS: hints_state(settings.hints, lang),
        SettingsSection.HANDS: hands_name(settings.hands, lang),
    }


def language_of(settings: ChatSettings, lang: Lang) -> Lang:
    """The group's language; `lang` (the one the message is shown in) while it has none."""
    return group_lang(settings) or lang


def _line(section: SettingsSection, settings: ChatSettings, lang: Lang) -> str:
    """«🎲 Игра по умолчанию: <b>Козёл</b>»: a section and its value in force."""
    return t(f"settings.{section.name.lower()}", lang, value=_values(settings, lang)[section])


def settings_text(chat_title: str, settings: ChatSettings, lang: Lang) -> str:
    """The group's /settings: every value in force, one line a section, and who may
    change them (a button a section)."""
    title = t("settings.title", lang, chat=html.escape(short_name(chat_title, 40)))
    lines = [_line(section, settings, lang) for section in SECTIONS]
    return "\n".join([title, *lines, "", t("settings.admins", lang)])


def settings_keyboard(settings: ChatSettings, lang: Lang) -> InlineKeyboardMarkup:
    """A button a section (two a row), each opening that section's choices."""
    sections = [
        InlineKeyboardButton(
            text=t(f"btn.settings.{section.name.lower()}", lang),
            callback_data=SettingsCb(section=section).pack(),
        )
        for section in SECTIONS
    ]
    return InlineKeyboardMarkup(inline_keyboard=_rows(sections))


def section_text(section: SettingsSection, settings: ChatSettings, lang: Lang) -> str:
    """A section of the group's /settings opened: its value in force and what it does."""
    about = [t(f"settings.about_{section.name.lower()}", lang)]
    if section is SettingsSection.TIMER:
        # S-7: the games timed by their own rules whatever the timer (`timer_in_force`).
        about.extend(
            t("settings.own_timing", lang, game=t(game.name_key, lang), **own_turn_times())
            for game in playable_games()
            if game.turn_timing
        )
    return "\n".join([_line(section, settings, lang), "", *about])


def section_keyboard(
    section: SettingsSection, settings: ChatSettings, lang: Lang
) -> InlineKeyboardMarkup:
    """A section's choices, the one in force marked ✅, and «↩️ Назад» to the sections. A
    choice carries the value it sets, so a second press changes nothing more."""
    match section:
        case SettingsSection.GAME:
            rows = _rows(
                [
                    _choice(
                        t(game.name_key, lang),
                        game.key.value == playable_game(settings.default_game).key.value,
                        DefaultGameCb(game=game.key.value).pack(),
                    )
                    for game in playable_games()
                ]
            )
        case SettingsSection.TIMER:
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
        case SettingsSection.LANG:
            rows = _rows(
                [
                    _choice(
                        t(f"btn.group_lang.{code.value}", lang),
                        code is language_of(settings, lang),
                        GroupLangCb(lang=code.value).pack(),
                    )
                    for code in Lang
                ]
            )
        case SettingsSection.LOBBY:
            rows = _rows(
                [
                    _choice(
                        lobby_timeout_name(minutes, lang),
                        minutes == settings.lobby_timeout,
                        LobbyTimeCb(minutes=minutes).pack(),
                    )
                    for minutes in LOBBY_TIMEOUTS
                ]
            )
        case SettingsSection.HINTS:
            rows = _rows(
                [
                    _choice(hints_state(on, lang), on is settings.hints, HintsCb(on=on).pack())
                    for on in (True, False)
                ]
            )
        case SettingsSection.HANDS:
            rows = _rows(
                [
                    _choice(
                        t(f"btn.hands.{place.value}", lang),
                        place is settings.hands,
                        HandsCb(place=place.value).pack(),
                    )
                    for place in HandsPlace
                ]
            )
        case SettingsSection.MAIN:
            return settings_keyboard(settings, lang)
    back = SettingsCb(section=SettingsSection.MAIN).pack()
    rows.append([InlineKeyboardButton(text=t("btn.back", lang), callback_data=back)])
    return InlineKeyboardMarkup(inline_keyboard=rows)


def _rows(buttons: list[InlineKeyboardButton]) -> list[list[InlineKeyboardButton]]:
    """`buttons` two a row: a phone shows a name such as «Морской козёл» whole only so."""
    return [buttons[i : i + PER_ROW] for i in range(0, len(buttons), PER_ROW)]


def _choice(text: str, chosen: bool, data: str) -> InlineKeyboardButton:
    """A button of one setting's choices; the one in force is marked ✅."""
    return InlineKeyboardButton(text=("✅ " if chosen else "") + text, callback_data=data)


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
