"""Forum topics as the bot's messages meet them: every message of a game goes to the topic
it was opened in (`GameRecord.thread_id`; None: General, or a group that is no forum),
and what Telegram answers a send there when the topic is gone.

- "TOPIC_CLOSED": a person closed the topic and the bot may not write in closed topics
  (it is no admin with the right to manage topics). The game goes on; the topic is held
  here as closed: its new messages (the table sent anew, the announcements, a vote) wait,
  and the inbox is told once (`TopicClosed`: the group hears it in General). A reopened
  topic (its service message, `Chats.topic_reopened`) is written to again, and the game's
  messages brought up to date there.
- "message thread not found": the topic was deleted (or the group is no forum any more).
  The inbox is told (`TopicLost`): the game stops, and the group hears it in General.

What is held here lives in memory: after a restart a closed topic is tried once more,
and told once more.
"""

from __future__ import annotations

import logging

from aiogram.exceptions import TelegramBadRequest

from bot.app.inbox import Inbox, TopicClosed, TopicLost

log = logging.getLogger(__name__)

TOPIC_CLOSED = "TOPIC_CLOSED"
THREAD_NOT_FOUND = "message thread not found"

Topic = tuple[int, int | None]
"""A group's topic: (chat id, thread id; None: General, or the whole group)."""


class Topics:
    """The forum topics found closed, and what the inbox is told about refused topics."""

    def __init__(self, inbox: Inbox) -> None:
        self.inbox = inbox
        self._closed: set[Topic] = set()

    def closed(self, chat_id: int, thread_id: int | None) -> bool:
        """Whether the topic refused the bot's last new message (its messages wait)."""
        return (chat_id, thread_id) in self._closed

    def reopened(self, chat_id: int, thread_id: int | None) -> None:
        self._closed.discard((chat_id, thread_id))

    def refused(
        self, chat_id: int, thread_id: int | None, game_id: int | None, exc: TelegramBadRequest
    ) -> bool:
        """Whether `exc`, answered to a send of the game `game_id` in the topic, says the
        topic is closed or gone (then the inbox is told, a closed topic once); False for
        any other refusal."""
        if thread_id is not None and THREAD_NOT_FOUND in exc.message:
            log.warning("chat %s: topic %s is gone: %s", chat_id, thread_id, exc.message)
            self._closed.discard((chat_id, thread_id))
            self.inbox.emit(TopicLost(chat_id, thread_id))
            return True
        if TOPIC_CLOSED in exc.message:
            if (chat_id, thread_id) not in self._closed and game_id is not None:
                log.warning("chat %s: topic %s is closed to the bot", chat_id, thread_id)
                self._closed.add((chat_id, thread_id))
                self.inbox.emit(TopicClosed(chat_id, thread_id, game_id))
            return True
        return False
