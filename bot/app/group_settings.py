"""Each group's own settings (/settings, `ChatSettings`): the turn timer, how long a
lobby waits, the language of its messages, the game a plain /domino opens, whether the
hands offer hints, where hands are shown for whoever did not choose. Read once at the
start and kept in memory (a group changes them rarely); the turn timers, the lobby
deadlines, the lobby's seating, the publisher and the hints read them here."""

from __future__ import annotations

import logging

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

    def of(self, chat_id: int) -> ChatSettings:
        return self._settings.get(chat_id, ChatSettings())

    async def change(self, chat: ChatRecord, settings: ChatSettings) -> None:
        """Store a group's new settings; a turn in progress keeps its deadline."""
        async with self.db.transaction() as tx:
            await repo.upsert_chat(tx, chat)
            await repo.set_chat_settings(tx, chat.id, settings)
        self._settings[chat.id] = settings
        log.info(
            "chat %s: turn timer set to %s, lobbies close after %s min, hints %s, hands %s",
            chat.id,
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

    async def language_of(self, game: GameRecord) -> Lang:
        """The language of the game's group messages: the group's own choice in /settings,
        else its creator's (a person is answered in their own language, `i18n.lang_of`,
        as last seen: `People.language_of`)."""
        chosen = group_lang(self.of(game.chat_id))
        if chosen is not None:
            return chosen
        return await self.people.language_of(game.creator_id)


def group_lang(settings: ChatSettings) -> Lang | None:
    """The language a group chose, if this version has its catalogues (a code stored
    for a language whose folder is gone reads as no choice: the creator's language)."""
    code = settings.group_lang
    return Lang(code) if code in {lang.value for lang in Lang} else None
