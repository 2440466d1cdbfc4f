"""Keeps a game's table findable in a busy group: pinned while its match runs. The table
is sent anew below each announcement of its game (`bot.telegram.table_message`); after a
restart, which forgets what was announced, the group's newer messages (`GroupTail`) tell
whether it has been pushed off a phone's screen.

`GroupTail` watches how far each group has moved on: the messages in the updates the
bot gets and the ones it sends itself. In privacy mode a bot sees only commands and its
own messages, but in a supergroup message ids number every message, so the newest id
seen tells how many came since; in a basic group ids are the bot's account's own and
only the messages seen are counted.

`Pins` pins and unpins through the chat's outgoing queue. A group that refuses (the bot
is not an admin allowed to pin) is remembered in memory and not asked again, until the
bot's rights there change.
"""

from __future__ import annotations

import bisect
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError
from aiogram.methods import PinChatMessage, TelegramMethod, UnpinChatMessage
from aiogram.types import Message, TelegramObject, Update

from bot.infra.lru import Lru
from bot.telegram.delivery import TELEGRAM_FAILURES
from bot.telegram.outgoing import Outgoing

log = logging.getLogger(__name__)

# This many messages newer than the table push it off a phone's screen.
SINK_DEPTH = 5
# Groups remembered (a few ints each); a forgotten one only starts counting again.
CACHED_CHATS = 10_000
# What Telegram says when the bot may not pin in a chat.
PIN_REFUSALS = ("not enough rights", "CHAT_ADMIN_REQUIRED")


def is_supergroup(chat_id: int) -> bool:
    """Supergroups' ids read -100…; their message ids number the chat's own messages."""
    return str(chat_id).startswith("-100")


class GroupTail:
    """The newest message ids seen in each group (at most `depth` of them), each with
    its height in messages: a picture (a round's end, 1280 px wide and taller) fills a
    phone's screen by itself, so it counts `depth`."""

    def __init__(self, depth: int = SINK_DEPTH, chats: int = CACHED_CHATS) -> None:
        self.depth = depth
        self._newest: Lru[int, list[tuple[int, int]]] = Lru(chats)

    def saw(self, chat_id: int, message_id: int, *, picture: bool = False) -> None:
        """A message in `chat_id` (a group's; private chats are not watched)."""
        if chat_id >= 0:
            return
        seen = self._newest.get(chat_id)
        if seen is None:
            seen = self._newest[chat_id] = []
        if any(known == message_id for known, _ in seen) or (
            len(seen) >= self.depth and message_id < seen[0][0]
        ):
            return  # an edit, or older than what is known
        bisect.insort(seen, (message_id, self.depth if picture else 1))
        del seen[: -self.depth]

    def saw_answer(self, answer: Any) -> None:
        """Telegram's answer to something the bot sent: the message(s) it made or edited."""
        for message in answer if isinstance(answer, list) else [answer]:
            if isinstance(message, Message):
                self.saw(message.chat.id, message.message_id, picture=bool(message.photo))

    def newer_than(self, chat_id: int, message_id: int) -> int:
        """How many messages' height of the group is known to be below `message_id`."""
        seen = self._newest.get(chat_id) or []
        below = sum(height for other, height in seen if other > message_id)
        if seen and is_supergroup(chat_id):
            return max(below, seen[-1][0] - message_id)
        return below

    def sunk(self, chat_id: int, message_id: int) -> bool:
        """Whether `message_id` is off a phone's screen by now (`SINK_DEPTH`)."""
        return self.newer_than(chat_id, message_id) >= self.depth


class Pins:
    """Pins and unpins a group's messages where the bot may; remembers where it may not."""

    def __init__(self, out: Outgoing, chats: int = CACHED_CHATS) -> None:
        self.out = out
        self._refused: Lru[int, bool] = Lru(chats)

    def may_pin(self, chat_id: int) -> bool:
        return chat_id not in self._refused

    def rights_changed(self, chat_id: int) -> None:
        """The bot's rights in the chat changed: it may be allowed to pin now."""
        self._refused.pop(chat_id)

    async def pin(self, chat_id: int, message_id: int) -> bool:
        """Pin quietly (no notification); whether it is pinned."""
        method = PinChatMessage(chat_id=chat_id, message_id=message_id, disable_notification=True)
        return await self._ask(chat_id, method)

    async def unpin(self, chat_id: int, message_id: int) -> bool:
        return await self._ask(chat_id, UnpinChatMessage(chat_id=chat_id, message_id=message_id))

    async def _ask(self, chat_id: int, method: TelegramMethod[bool]) -> bool:
        if not self.may_pin(chat_id):
            return False
        name = type(method).__name__
        try:
            await self.out.call(chat_id, method)
        except (TelegramBadRequest, TelegramForbiddenError) as exc:
            if isinstance(exc, TelegramForbiddenError) or any(
                text in exc.message for text in PIN_REFUSALS
            ):
                self._refused[chat_id] = True
                log.info("chat %s: the bot may not pin messages here: %s", chat_id, exc.message)
            else:
                log.info("chat %s: %s refused: %s", chat_id, name, exc.message)
            return False
        except TELEGRAM_FAILURES as exc:  # a pin is worth no retry: the table still shows
            log.info("chat %s: %s failed: %s", chat_id, name, exc)
            return False
        return True


class TailMiddleware(BaseMiddleware):
    """An outer middleware on updates: tells `tail` of each group message that comes in,
    and `pins` of each change of the bot's own rights in a chat."""

    def __init__(self, tail: GroupTail, pins: Pins) -> None:
        self.tail = tail
        self.pins = pins

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        if isinstance(event, Update):
            if event.message is not None:
                self.tail.saw(event.message.chat.id, event.message.message_id)
            if event.my_chat_member is not None:
                self.pins.rights_changed(event.my_chat_member.chat.id)
        return await handler(event, data)
