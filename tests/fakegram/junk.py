"""Junk updates: what Telegram may deliver that no ordinary press or message produces.

A bot must survive anything in its update stream. ``Junk`` pushes such updates straight
into the fake's queue (``FakeTelegram.push_update``; each still conforms to the Bot API's
``Update`` type), without waiting for the bot:

- messages from chats the fake does not know (the bot's reply there fails with 400
  ``chat not found``, as it would for a chat Telegram has since deleted);
- edited messages, channel posts and edited channel posts (a bot that did not ask for
  them never gets them: the fake drops updates outside ``allowed_updates``);
- messages with no sender (an anonymous admin writing as the group, ``sender_chat``);
- callback queries with any data, on any message or none (``FakeTelegram.push_callback``).

Every builder returns the ``update_id`` (callback queries: a future of the answer)::

    junk = Junk(fake)
    junk.message(junk.ghost_group(), "/domino@domino_test_bot")
    junk.edited(group, alice, "/leave")
    junk.channel_post("/start")
    junk.anonymous(group, "/cancel")
"""

from __future__ import annotations

import asyncio
import itertools
import time
from typing import TYPE_CHECKING, Any

from .world import CallbackAnswer, FakeChat, FakeUser

if TYPE_CHECKING:
    from .server import FakeTelegram

_GHOST_MESSAGE_IDS = itertools.count(900_000_001)


class Junk:
    """Builds and pushes junk updates for one fake."""

    def __init__(self, fake: FakeTelegram) -> None:
        self.fake = fake
        self._ghosts = itertools.count(1)
        self.pushed = 0

    # --- chats and senders --------------------------------------------------------

    def ghost_group(self, *, supergroup: bool = False) -> dict[str, Any]:
        """The JSON of a group the fake does not know: nothing can be sent there."""
        number = next(self._ghosts)
        if supergroup:
            return {"id": -(1_009_000_000_000 + number), "type": "supergroup", "title": "👻"}
        return {"id": -(9_000_000_000 + number), "type": "group", "title": f"Ghost {number}"}

    def ghost_user(self, first_name: str = "Ghost") -> dict[str, Any]:
        """The JSON of a person the fake does not know (never pressed Start anywhere)."""
        return {"id": 8_000_000_000 + next(self._ghosts), "is_bot": False, "first_name": first_name}

    @staticmethod
    def chat_json(chat: FakeChat | dict[str, Any]) -> dict[str, Any]:
        return chat if isinstance(chat, dict) else chat.to_api()

    # --- messages -----------------------------------------------------------------

    def _message_body(
        self,
        chat: FakeChat | dict[str, Any],
        text: str,
        sender: FakeUser | dict[str, Any] | None,
        *,
        sender_chat: dict[str, Any] | None = None,
        edited: bool = False,
    ) -> dict[str, Any]:
        now = int(time.time())
        body: dict[str, Any] = {
            "message_id": next(_GHOST_MESSAGE_IDS),
            "date": now - (60 if edited else 0),
            "chat": self.chat_json(chat),
        }
        if sender is not None:
            body["from"] = sender.to_api() if isinstance(sender, FakeUser) else sender
        if sender_chat is not None:
            body["sender_chat"] = sender_chat
        if edited:
            body["edit_date"] = now
        if text:
            body["text"] = text
            entities = self.fake.client_entities(text)
            if entities:
                body["entities"] = entities
        return body

    def _push(self, kind: str, body: dict[str, Any]) -> int:
        self.pushed += 1
        return self.fake.push_update(kind, body)

    def message(
        self,
        chat: FakeChat | dict[str, Any],
        text: str,
        sender: FakeUser | dict[str, Any] | None = None,
    ) -> int:
        """A new message in ``chat`` (a ``FakeChat`` or any chat JSON) from ``sender``
        (None: no sender at all)."""
        return self._push("message", self._message_body(chat, text, sender))

    def edited(self, chat: FakeChat | dict[str, Any], sender: FakeUser, text: str) -> int:
        """An ``edited_message``: someone edited an old message to ``text``."""
        return self._push("edited_message", self._message_body(chat, text, sender, edited=True))

    def channel_post(self, text: str, *, edited: bool = False) -> int:
        """A post in a channel (no sender; the channel is the ``sender_chat``)."""
        channel = {"id": -(1_008_000_000_000 + next(self._ghosts)), "type": "channel"}
        channel["title"] = "Канал"
        body = self._message_body(channel, text, None, sender_chat=channel, edited=edited)
        return self._push("edited_channel_post" if edited else "channel_post", body)

    def anonymous(self, group: FakeChat | dict[str, Any], text: str) -> int:
        """A message with no sender: an anonymous admin writing as the group itself."""
        chat = self.chat_json(group)
        return self._push("message", self._message_body(chat, text, None, sender_chat=chat))

    # --- presses ------------------------------------------------------------------

    def press(
        self,
        user: FakeUser,
        data: str,
        *,
        on: FakeChat | dict[str, Any] | None = None,
        message: Any = None,
    ) -> asyncio.Future[CallbackAnswer]:
        """A callback query with ``data`` by ``user``: on a stored message (``message``), on
        a made-up message in ``on`` (any chat JSON), or on no message (an inline one)."""
        self.pushed += 1
        if message is not None:
            return self.fake.push_callback(user, data, message=self.fake.message_json(message))
        if on is not None:
            body = self._message_body(on, "🁢", {**self.fake.bot_user()})
            return self.fake.push_callback(user, data, message=body)
        return self.fake.push_callback(user, data)
