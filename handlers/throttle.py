"""One person's command spam in a group gets a cooldown.

Whoever sends more than `LIMIT` commands to the bot within `WINDOW` seconds in one
group gets one polite answer, then silence for `COOLDOWN` seconds: their commands there
are dropped unread. A real game never comes near it (a player sends /domino, /hand,
/top or /stats now and then: a handful a minute); 300 `/top` in 10 s cost the group one
table of standings and one notice per spammer instead of 300 replies queued in front
of the table. Private chats are not limited: there a flood only delays its sender's own
replies, and their hand goes first anyway (bot/telegram/outgoing.py: `Lane`).

Memory is bounded: a person's record is forgotten once both their window and their
cooldown are over, and at most `MAX_TRACKED` records are kept (the oldest go first; a
forgotten cooldown only ends early).
"""

from __future__ import annotations

import html
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiogram import BaseMiddleware, Bot
from aiogram.types import Message, TelegramObject

from bot.app.people import Person
from bot.telegram.presenter import short_name
from handlers.people import GROUP_TYPES, Handler
from i18n import t

log = logging.getLogger(__name__)

LIMIT = 8  # commands a person may send in one group within WINDOW ...
WINDOW = 30.0  # ... seconds; one more starts the cooldown
COOLDOWN = 60.0  # seconds of silence after the notice (the notice says "a minute")
MAX_TRACKED = 10_000  # (group, person) records kept at most


@dataclass
class _Record:
    times: deque[float] = field(default_factory=lambda: deque(maxlen=LIMIT + 1))
    quiet_until: float = 0.0  # commands before this moment are dropped
    last: float = 0.0  # the last command's moment

    def stale(self, now: float) -> bool:
        return now - self.last > WINDOW and now >= self.quiet_until


class CommandThrottle(BaseMiddleware):
    """An outer middleware of message events, inside `PersonMiddleware` (it reads
    `person`): counts each person's commands per group."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._records: OrderedDict[tuple[int, int], _Record] = OrderedDict()
        self.silenced = 0  # commands dropped during a cooldown (logs, tests)

    @property
    def tracked(self) -> int:
        """How many (group, person) records are kept now."""
        return len(self._records)

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        if not isinstance(event, Message) or not await self._is_group_command(event, data):
            return await handler(event, data)
        person: Person = data["person"]
        verdict = self.count(event.chat.id, person.id)
        if verdict == "go":
            return await handler(event, data)
        if verdict == "notice":
            log.info(
                "chat %s: user %s sent more than %d commands in %.0f s; %.0f s of silence",
                event.chat.id,
                person.id,
                LIMIT,
                WINDOW,
                COOLDOWN,
            )
            name = html.escape(short_name(person.name))
            await event.reply(t("spam.cooldown", person.lang, name=name), parse_mode="HTML")
        else:
            self.silenced += 1
        return None

    def count(self, chat_id: int, user_id: int) -> str:
        """Record one command: "go" (handle it), "notice" (the limit was just passed:
        say so once) or "quiet" (in the cooldown: drop it)."""
        now = self.clock()
        key = (chat_id, user_id)
        record = self._records.pop(key, None) or _Record()
        self._records[key] = record  # the most recent at the end
        record.last = now
        self._forget_stale(now)
        if now < record.quiet_until:
            return "quiet"
        record.times.append(now)
        if len(record.times) > LIMIT and now - record.times[0] <= WINDOW:
            record.times.clear()
            record.quiet_until = now + COOLDOWN
            return "notice"
        return "go"

    def _forget_stale(self, now: float) -> None:
        """Drop records from the oldest while they are over, and beyond `MAX_TRACKED`."""
        while self._records:
            key, oldest = next(iter(self._records.items()))
            if len(self._records) <= MAX_TRACKED and not oldest.stale(now):
                break
            del self._records[key]

    async def _is_group_command(self, message: Message, data: dict[str, Any]) -> bool:
        """A command to this bot (not `/top@another_bot`) in a group."""
        text = message.text or ""
        if message.chat.type not in GROUP_TYPES:
            return False
        if not text.startswith("/"):
            return False
        _, _, mention = text.split(maxsplit=1)[0].partition("@")
        if not mention:
            return True
        bot = data.get("bot")
        me = await bot.me() if isinstance(bot, Bot) else None
        return me is not None and mention.lower() == (me.username or "").lower()
