"""Each group's own settings (/settings, `ChatSettings`): the turn timer, how long a
lobby waits, the language of its messages, the game a plain /domino opens, whether the
hands offer hints, where hands are shown for whoever did not choose. Read once at the
start and kept in memory (a group changes them rarely); the turn timers, the lobby
deadlines, the lobby's seating, the publisher and the hints read them here.

A group speaks one language: everything the bot says there (its games, the answers to
its commands and buttons) is in it, whoever asked. Choice: it is the language of the
first person to use the bot there, by a command or a press (`settle_language`; a front
end settles it then, and a group's first game at the latest), Russian for someone whose
Telegram language the bot does not speak; only the group's admins change it afterwards.
A group that played before it had one keeps its latest game creator's (migration 017)."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable

from bot.app.people import People
from domino.timing import TurnTimer
from i18n import Lang
from storage import repo
from storage.db import Database
from storage.records import LOBBY_TIMEOUTS as LOBBY_TIMEOUTS
from storage.records import ChatRecord, GameRecord
from storage.records import ChatSettings as ChatSettings
from storage.records import HandsPlace as HandsPlace

log = logging.getLogger(__name__)


def turn_timer_of(value: str) -> TurnTimer | None:
    """The turn timer `value` names (`TurnTimer`'s value); None for one no timer has."""
    try:
        return TurnTimer(value)
    except ValueError:
        return None


class GroupSettings:
    """Every group's `ChatSettings`, defaults for a group that chose nothing."""

    def __init__(self, db: Database, people: People) -> None:
        self.db = db
        self.people = people
        self._settings: dict[int, ChatSettings] = {}

    async def load(self) -> None:
        """Read every group's settings (at the start, before any game is picked up)."""
        self._settings = await repo.chats_with_settings(self.db)

    async def reload(self, chats: Callable[[int], bool]) -> None:
        """Read again the settings of the chats `chats` picks: another instance played
        them until now, and kept their changes in its own memory (issue 35)."""
        stored = await repo.chats_with_settings(self.db)
        for chat_id in [chat_id for chat_id in self._settings if chats(chat_id)]:
            if chat_id not in stored:
                del self._settings[chat_id]
        for chat_id, settings in stored.items():
            if chats(chat_id):
                self._settings[chat_id] = settings

    def of(self, chat_id: int) -> ChatSettings:
        return self._settings.get(chat_id, ChatSettings())

    async def change(self, chat: ChatRecord, settings: ChatSettings) -> None:
        """Store a group's new settings; a turn in progress keeps its deadline."""
        async with self.db.transaction() as tx:
            await repo.upsert_chat(tx, chat)
            await repo.set_chat_settings(tx, chat.id, settings)
        self._settings[chat.id] = settings
        log.info(
            "chat %s: language %s, turn timer %s, lobbies close after %s min, hints %s, hands %s",
            chat.id,
            settings.group_lang,
            settings.turn_timer.value,
            settings.lobby_timeout or "no limit",
            "on" if settings.hints else "off",
            settings.hands.value,
        )

    def hints_allowed(self, chat_id: int) -> bool:
        """Whether the group's hands offer «💡 Подсказка» (its /settings; on by default)."""
        return self.of(chat_id).hints

    def hands_in_group(self, chat_id: int) -> bool:
        """Whether the group shows hands in the group by default (its /settings: in the
        group, or in both places, the default): anyone plays from the group's «✋ Мои
        кости» there, without opening the bot's private chat first."""
        return self.of(chat_id).hands.group

    def chat_moved(self, old_id: int, new_id: int) -> None:
        """A group became a supergroup: its settings (moved in the database) follow it."""
        settings = self._settings.pop(old_id, None)
        if settings is not None:
            self._settings[new_id] = settings

    async def settle_language(self, chat: ChatRecord, lang: Lang) -> ChatSettings:
        """The group's settings, its language settled: a group without one takes `lang`,
        the language of the first person to use the bot there (stored once; see the
        module's docstring)."""
        settings = self.of(chat.id)
        if group_lang(settings) is None:
            settings = dataclasses.replace(settings, group_lang=lang.value)
            await self.change(chat, settings)
        return settings

    def language(self, chat_id: int) -> Lang | None:
        """The group's language; None while it has none (nobody used the bot there yet)."""
        return group_lang(self.of(chat_id))

    async def language_of(self, game: GameRecord) -> Lang:
        """The language of the game's group messages: the group's (settled when its first
        game opened); its creator's only for a group that has none, which no game opened
        since migration 017 is."""
        chosen = group_lang(self.of(game.chat_id))
        if chosen is not None:
            return chosen
        return await self.people.language_of(game.creator_id)


def group_lang(settings: ChatSettings) -> Lang | None:
    """The group's language, if this version has its catalogues (a code stored for a
    language whose folder is gone reads as none: settled again at the next chance)."""
    code = settings.group_lang
    return Lang(code) if code in {lang.value for lang in Lang} else None
