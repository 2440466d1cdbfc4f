"""All user-facing text, Russian first and English, through one function: `t()`.

`lang_of(language_code)` picks the language from a Telegram user's settings
(English for `en*`, Russian for everything else: Russian is the default). Texts are
`str.format` templates; the test suite checks that every key has both languages
with the same placeholders. The players' own words stay as they say them: рыба,
козёл, базар, яйца, стучу, вышел, рыбак.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from enum import StrEnum
from typing import Any


class Lang(StrEnum):
    RU = "ru"
    EN = "en"


DEFAULT_LANG = Lang.RU


def lang_of(language_code: str | None) -> Lang:
    """The language to answer a person in, from Telegram's `language_code`."""
    if language_code and language_code.lower().startswith("en"):
        return Lang.EN
    return DEFAULT_LANG


TEXTS: Mapping[str, Mapping[Lang, str]] = {
    # The domain's words (RULES.md: they must appear in the Russian UI exactly so).
    "variant.kozel": {Lang.RU: "Козёл", Lang.EN: "Kozel (Goat)"},
    "variant.classic": {Lang.RU: "Классика", Lang.EN: "Classic"},
    "term.fish": {Lang.RU: "рыба", Lang.EN: "fish (blocked)"},
    "term.goat": {Lang.RU: "козёл", Lang.EN: "goat"},
    "term.bazaar": {Lang.RU: "базар", Lang.EN: "boneyard"},
    "term.eggs": {Lang.RU: "яйца", Lang.EN: "eggs"},
    "term.knock": {Lang.RU: "стучу", Lang.EN: "knock"},
    "term.fisherman": {Lang.RU: "рыбак", Lang.EN: "fisherman"},
    # Announcements in the group.
    "announce.went_out": {Lang.RU: "{name} вышел!", Lang.EN: "{name} went out!"},
    "announce.fish": {
        Lang.RU: "🐟 Рыба! Рыбак — {name}.",
        Lang.EN: "🐟 Fish! The fisherman is {name}.",
    },
    "announce.eggs": {
        Lang.RU: "🥚 Яйца: {points} очков переходят в следующий раунд.",
        Lang.EN: "🥚 Eggs: {points} points carry over to the next round.",
    },
    "announce.goat": {Lang.RU: "🐐 Козёл — {names}", Lang.EN: "🐐 The goat is {names}"},
    "announce.winner": {Lang.RU: "🏆 Победа — {names}", Lang.EN: "🏆 The winner is {names}"},
    # Answers to presses that change nothing.
    "alert.not_in_game": {
        Lang.RU: "Вы не играете в этой партии.",
        Lang.EN: "You are not playing in this game.",
    },
    "alert.stale": {
        Lang.RU: "Эта кнопка устарела: игра ушла дальше.",
        Lang.EN: "This button is out of date: the game has moved on.",
    },
    "alert.finished": {Lang.RU: "Эта партия уже закончилась.", Lang.EN: "This game is over."},
    "alert.not_your_turn": {
        Lang.RU: "Сейчас ходит {name}.",
        Lang.EN: "It is {name}'s turn.",
    },
}


def t(key: str, lang: Lang = DEFAULT_LANG, /, **values: Any) -> str:
    """The text `key` in `lang`, with `values` filled in."""
    try:
        template = TEXTS[key][lang]
    except KeyError:
        raise KeyError(f"no text {key!r} in {lang.value}") from None
    return template.format(**values)


def placeholders(template: str) -> frozenset[str]:
    return frozenset(
        name for _, name, _, _ in string.Formatter().parse(template) if name is not None
    )
