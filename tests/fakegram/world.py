"""The fake's world: users, chats and the messages in them, as a client would show them now.

Users and chats are handles bound to their :class:`~tests.fakegram.server.FakeTelegram`: the
async methods on them act as the person would in a real client (send, press, start, leave,
block) and the fake turns that into updates for the bot.
"""

from __future__ import annotations

import asyncio
import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from .waiting import describe

if TYPE_CHECKING:
    from .server import FakeTelegram
    from .webapp import WebAppLaunch


class ChatType(enum.Enum):
    PRIVATE = "private"
    GROUP = "group"
    SUPERGROUP = "supergroup"


class MemberStatus(enum.Enum):
    CREATOR = "creator"
    ADMINISTRATOR = "administrator"
    MEMBER = "member"
    LEFT = "left"
    KICKED = "kicked"

    @property
    def present(self) -> bool:
        return self in (MemberStatus.CREATOR, MemberStatus.ADMINISTRATOR, MemberStatus.MEMBER)


@dataclass(frozen=True)
class Button:
    """One inline keyboard button as shown by a client."""

    text: str
    callback_data: str | None = None
    url: str | None = None
    switch_inline_query: str | None = None
    switch_inline_query_current_chat: str | None = None
    web_app: str | None = None  # the URL of the Mini App it opens (private chats only)

    @classmethod
    def from_api(cls, raw: Mapping[str, Any]) -> Button:
        return cls(
            text=raw["text"],
            callback_data=raw.get("callback_data"),
            url=raw.get("url"),
            switch_inline_query=raw.get("switch_inline_query"),
            switch_inline_query_current_chat=raw.get("switch_inline_query_current_chat"),
            web_app=(raw.get("web_app") or {}).get("url"),
        )


@dataclass(frozen=True)
class Photo:
    """An uploaded picture: its bytes as Pillow opened them, and the ids Telegram gave it."""

    file_id: str
    file_unique_id: str
    data: bytes
    width: int
    height: int
    format: str


@dataclass(frozen=True)
class MessageVersion:
    """One state of a message's content (the current one, or one before an edit)."""

    text: str | None
    entities: tuple[Mapping[str, Any], ...]
    caption: str | None
    caption_entities: tuple[Mapping[str, Any], ...]
    photo: Photo | None
    keyboard: tuple[tuple[Button, ...], ...] | None
    raw_keyboard: Mapping[str, Any] | None


@dataclass(eq=False)
class StoredMessage:
    """A message in a chat as a client would show it now (with its edit history)."""

    chat: FakeChat
    message_id: int
    sender: FakeUser | None  # None: the bot
    date: int
    version: MessageVersion
    history: list[MessageVersion] = field(default_factory=list)
    edit_date: int | None = None
    deleted: bool = False
    pinned: bool = False
    service: dict[str, Any] = field(default_factory=dict)
    via_bot: bool = False
    reply_to: StoredMessage | None = None
    # An ephemeral message: only ``receiver`` sees it; its ``message_id`` is 0 and the
    # Bot API names it by ``ephemeral_id``. ``sent_at`` is the fake's clock when it came,
    # ``delivered`` False when its receiver was offline (the call succeeded, nobody saw it).
    receiver: FakeUser | None = None
    ephemeral_id: int | None = None
    sent_at: float = 0.0
    delivered: bool = True
    thread_id: int | None = None  # the forum topic it was posted in (None: General)

    @property
    def ephemeral(self) -> bool:
        return self.receiver is not None

    @property
    def from_bot(self) -> bool:
        return self.sender is None

    @property
    def text(self) -> str | None:
        return self.version.text

    @property
    def caption(self) -> str | None:
        return self.version.caption

    @property
    def content(self) -> str:
        """Text or caption, whichever the message has ("" for neither)."""
        return self.version.text or self.version.caption or ""

    @property
    def photo(self) -> Photo | None:
        return self.version.photo

    @property
    def keyboard(self) -> tuple[tuple[Button, ...], ...]:
        return self.version.keyboard or ()

    @property
    def buttons(self) -> list[Button]:
        return [button for row in self.keyboard for button in row]

    def button(self, *, text: str | None = None, data: str | None = None) -> Button:
        """The button with this exact ``text`` or ``data`` (raises ``LookupError`` if none)."""
        for button in self.buttons:
            if (text is None or button.text == text) and (
                data is None or button.callback_data == data
            ):
                return button
        raise LookupError(
            f"no button text={text!r} data={data!r} on message {self.message_id} "
            f"in chat {self.chat.id}; buttons: {[(b.text, b.callback_data) for b in self.buttons]}"
        )

    def __repr__(self) -> str:
        who = "bot" if self.sender is None else self.sender.first_name
        state = " deleted" if self.deleted else ""
        return f"<message {self.chat.id}/{self.message_id} by {who}{state}: {self.content[:60]!r}>"


@dataclass(eq=False)
class ForumTopic:
    """A topic of a forum supergroup. Its id is the ``message_id`` of the
    ``forum_topic_created`` service message that opened it (the topic's first message)."""

    chat: FakeChat = field(repr=False)
    thread_id: int
    name: str
    icon_color: int
    icon_custom_emoji_id: str | None = None
    creator: FakeUser | None = None  # None: the bot
    closed: bool = False
    deleted: bool = False

    def to_api(self) -> dict[str, Any]:
        """The Bot API's ``ForumTopic``."""
        topic: dict[str, Any] = {
            "message_thread_id": self.thread_id,
            "name": self.name,
            "icon_color": self.icon_color,
        }
        if self.icon_custom_emoji_id:
            topic["icon_custom_emoji_id"] = self.icon_custom_emoji_id
        return topic

    @property
    def messages(self) -> list[StoredMessage]:
        """The topic's visible messages, its ``forum_topic_created`` first."""
        return self.chat.topic_messages(self.thread_id)


@dataclass(frozen=True)
class CallbackAnswer:
    """What the client shows after a button press: the bot's answer, or nothing (timed out)."""

    answered: bool
    text: str | None = None
    show_alert: bool = False
    url: str | None = None
    # Unanswered: why the client stopped waiting (for a failure's message; not compared).
    why: str | None = field(default=None, compare=False)


@dataclass(frozen=True)
class InlineAnswer:
    """The bot's answer to an inline query, as the client would list it."""

    query_id: str
    query: str
    results: tuple[Mapping[str, Any], ...]
    is_personal: bool
    cache_time: int | None
    next_offset: str | None

    def result(self, result_id: str) -> Mapping[str, Any]:
        for item in self.results:
            if item["id"] == result_id:
                return item
        raise LookupError(f"no inline result {result_id!r}; ids: {[r['id'] for r in self.results]}")


@dataclass(eq=False)
class FakeUser:
    """A person using Telegram. The async methods act as they would in a client."""

    fake: FakeTelegram = field(repr=False)
    id: int
    first_name: str
    username: str | None = None
    last_name: str | None = None
    language_code: str | None = "ru"
    started: bool = False
    blocked: bool = False
    # Offline: ephemeral messages sent to them are not delivered (Telegram does not
    # guarantee them, "especially if they are offline").
    online: bool = True

    def to_api(self) -> dict[str, Any]:
        user: dict[str, Any] = {"id": self.id, "is_bot": False, "first_name": self.first_name}
        if self.last_name:
            user["last_name"] = self.last_name
        if self.username:
            user["username"] = self.username
        if self.language_code:
            user["language_code"] = self.language_code
        return user

    @property
    def private_chat(self) -> FakeChat:
        return self.fake.private_chat(self)

    async def start(self, payload: str | None = None) -> StoredMessage:
        """Press Start in the private chat (``/start PAYLOAD`` for a deep link)."""
        return await self.fake.user_starts(self, payload)

    async def send(
        self,
        chat: FakeChat | None,
        text: str,
        *,
        reply_to: StoredMessage | None = None,
        topic: ForumTopic | int | None = None,
    ) -> StoredMessage:
        """Send ``text`` to ``chat`` (the private chat when None), entities filled as a client.

        In a forum, ``topic`` (a :class:`ForumTopic` or its thread id) is where it goes; without
        it the message goes to the topic of ``reply_to``, else to General."""
        thread_id = topic.thread_id if isinstance(topic, ForumTopic) else topic
        return await self.fake.user_sends(
            self, chat or self.private_chat, text, reply_to, thread_id=thread_id
        )

    async def command(
        self,
        chat: FakeChat | None,
        name: str,
        args: str = "",
        *,
        mention: bool | None = None,
        topic: ForumTopic | int | None = None,
    ) -> StoredMessage:
        """Send ``/name args``; in groups ``mention`` adds ``@botname`` (default: yes)."""
        target = chat or self.private_chat
        if mention is None:
            mention = target.type is not ChatType.PRIVATE
        text = f"/{name}@{self.fake.bot_username}" if mention else f"/{name}"
        return await self.send(target, f"{text} {args}".rstrip(), topic=topic)

    # Forum topics, as a member (creating) or an admin or the topic's creator (the rest)
    # does them in a client; the bot gets the service messages as updates.

    async def create_topic(
        self, chat: FakeChat, name: str, *, icon_color: int | None = None
    ) -> ForumTopic:
        """Create a topic in the forum ``chat`` (``forum_topic_created`` reaches the bot)."""
        return await self.fake.user_creates_topic(self, chat, name, icon_color)

    async def edit_topic(self, topic: ForumTopic, name: str) -> None:
        """Rename ``topic`` (``forum_topic_edited``)."""
        await self.fake.user_edits_topic(self, topic, name)

    async def close_topic(self, topic: ForumTopic) -> None:
        """Close ``topic`` (``forum_topic_closed``): only admins may write in it now."""
        await self.fake.user_closes_topic(self, topic, closed=True)

    async def reopen_topic(self, topic: ForumTopic) -> None:
        await self.fake.user_closes_topic(self, topic, closed=False)

    async def delete_topic(self, topic: ForumTopic) -> None:
        """Delete ``topic`` with all its messages (the bot gets no update, as in Telegram)."""
        await self.fake.user_deletes_topic(self, topic)

    async def close_general(self, chat: FakeChat) -> None:
        """Close the forum's General topic (``forum_topic_closed`` in General)."""
        await self.fake.user_closes_general(self, chat, closed=True)

    async def reopen_general(self, chat: FakeChat) -> None:
        await self.fake.user_closes_general(self, chat, closed=False)

    async def press(
        self,
        message: StoredMessage | Any,
        *,
        text: str | None = None,
        data: str | None = None,
        stale: bool = False,
        timeout: float = 5.0,
    ) -> CallbackAnswer:
        """Press an inline button found by ``text`` or ``data``; resolve with the bot's answer.

        ``message`` is a :class:`StoredMessage` or anything with ``.chat.id`` and
        ``.message_id`` (e.g. the aiogram ``Message`` a send returned).

        ``stale=True`` also looks in earlier versions of the message, the way an old client
        that has not refreshed would still show (and send) a button the bot edited away.
        """
        return await self.fake.user_presses(self, message, text, data, stale, timeout)

    async def forge_press(
        self, message: StoredMessage, data: str, *, timeout: float = 5.0
    ) -> CallbackAnswer:
        """Send a callback query with any ``data`` on ``message``, as a modified client can:
        for tests of forged, foreign and malformed button presses."""
        return await self.fake.user_forges_press(self, message, data, timeout)

    async def inline_query(
        self, query: str, *, chat: FakeChat | None = None, timeout: float = 5.0
    ) -> InlineAnswer:
        """Type ``@bot query`` in ``chat``; resolve with the bot's answer."""
        return await self.fake.user_inline_query(self, query, chat, timeout)

    async def choose_inline_result(
        self, answer: InlineAnswer, result_id: str, *, chat: FakeChat
    ) -> StoredMessage:
        """Pick a result from ``answer``: its message appears in ``chat`` (via the bot)."""
        return await self.fake.user_chooses_inline_result(self, answer, result_id, chat)

    def open_web_app(self, link: str, *, chat: FakeChat | None = None) -> WebAppLaunch:
        """Open the bot's Mini App from its direct link tapped in `chat` (or a `web_app`
        button's URL): `FakeTelegram.open_web_app`."""
        return self.fake.open_web_app(self, link, chat=chat)

    def open_web_app_button(
        self,
        message: StoredMessage,
        *,
        text: str | None = None,
        row: int | None = None,
        column: int | None = None,
    ) -> WebAppLaunch:
        """Tap the button of `message` found by `text` (or at `row`, `column`) that opens
        a Mini App: a `web_app` button, or a URL button with a direct link to the app."""
        if text is not None:
            button = message.button(text=text)
        elif row is not None and column is not None:
            button = message.keyboard[row][column]
        else:
            raise ValueError("find the button by text= or by row= and column=")
        return self.fake.user_opens_web_app_button(self, message, button)

    async def join(self, chat: FakeChat) -> None:
        await self.fake.user_joins(self, chat)

    async def leave(self, chat: FakeChat) -> None:
        await self.fake.user_leaves(self, chat)

    async def block(self) -> None:
        """Block the bot: it gets ``my_chat_member`` (kicked) and 403 on every send."""
        await self.fake.user_blocks(self, blocked=True)

    async def unblock(self) -> None:
        await self.fake.user_blocks(self, blocked=False)


@dataclass(eq=False)
class FakeChat:
    """A private chat, group or supergroup, with its members and messages."""

    fake: FakeTelegram = field(repr=False)
    id: int
    type: ChatType
    title: str | None = None
    user: FakeUser | None = None  # the other side of a private chat
    members: dict[int, MemberStatus] = field(default_factory=dict)
    bot_status: MemberStatus = MemberStatus.MEMBER
    migrated_to: int | None = None
    migrated_from: int | None = None
    messages: dict[int, StoredMessage] = field(default_factory=dict)
    next_message_id: int = 1  # a supergroup's own counter; other chats use the bot's account's
    # Live ephemeral messages by ephemeral_message_id (ids are reused once freed).
    ephemeral: dict[int, StoredMessage] = field(default_factory=dict)
    # A forum supergroup: its topics by thread id (deleted ones stay, marked), and General.
    forum: bool = False
    topics: dict[int, ForumTopic] = field(default_factory=dict)
    general_name: str = "General"
    general_closed: bool = False
    general_hidden: bool = False
    # An administrator bot's can_manage_topics right (a test may take it away).
    bot_can_manage_topics: bool = True

    def to_api(self) -> dict[str, Any]:
        chat: dict[str, Any] = {"id": self.id, "type": self.type.value}
        if self.type is ChatType.PRIVATE:
            assert self.user is not None
            chat["first_name"] = self.user.first_name
            if self.user.username:
                chat["username"] = self.user.username
        else:
            chat["title"] = self.title
        if self.forum:
            chat["is_forum"] = True
        return chat

    def topic(self, thread_id: int) -> ForumTopic:
        """The topic with this thread id (also a deleted one)."""
        return self.topics[thread_id]

    @property
    def live_topics(self) -> list[ForumTopic]:
        """The topics not deleted, oldest first."""
        return [t for t in self.topics.values() if not t.deleted]

    def topic_messages(self, thread_id: int | None) -> list[StoredMessage]:
        """The visible messages of one topic (None: General), oldest first."""
        return [m for m in self.visible_messages if m.thread_id == thread_id]

    @property
    def visible_messages(self) -> list[StoredMessage]:
        """Messages a client shows now (not deleted), oldest first."""
        return [m for m in self.messages.values() if not m.deleted]

    def view(
        self, user: FakeUser, *, thread_id: int | Literal["all"] | None = "all"
    ) -> list[StoredMessage]:
        """What ``user``'s client shows now: the chat's messages and the live ephemeral
        messages delivered to them alone, in the order they came. In a forum ``thread_id``
        shows one topic (None: General), as a client opens one at a time."""
        self.fake.expire_ephemeral(self)
        own = [
            m
            for m in self.ephemeral.values()
            if m.receiver is user and m.delivered and not m.deleted
        ]
        shown = sorted([*self.visible_messages, *own], key=lambda m: m.sent_at)
        if thread_id == "all":
            return shown
        return [m for m in shown if m.thread_id == thread_id]

    def ephemeral_for(self, user: FakeUser) -> list[StoredMessage]:
        """The live ephemeral messages ``user`` sees in this chat, oldest first."""
        return [m for m in self.view(user) if m.ephemeral]

    @property
    def bot_messages(self) -> list[StoredMessage]:
        return [m for m in self.visible_messages if m.from_bot]

    @property
    def last_bot_message(self) -> StoredMessage:
        found = self.bot_messages
        if not found:
            raise LookupError(f"the bot has no message in chat {self.id}")
        return found[-1]

    @property
    def pinned(self) -> list[StoredMessage]:
        return [m for m in self.visible_messages if m.pinned]

    def member_ids(self, *, admins_only: bool = False) -> list[int]:
        wanted = (
            (MemberStatus.CREATOR, MemberStatus.ADMINISTRATOR)
            if admins_only
            else (MemberStatus.CREATOR, MemberStatus.ADMINISTRATOR, MemberStatus.MEMBER)
        )
        return [uid for uid, status in self.members.items() if status in wanted]

    async def wait_for_message(
        self,
        predicate: Callable[[StoredMessage], bool] | None = None,
        *,
        after: StoredMessage | int | None = None,
        timeout: float = 5.0,
    ) -> StoredMessage:
        """The first visible bot message (newer than ``after``) that satisfies ``predicate``.

        The predicate sees the message as it is now, so it also catches edits. ``timeout``
        is no fixed end: the wait fails once nothing has moved for that long, stretched by
        the machine's pace (``FakeTelegram.wait_for``).
        """
        floor = after.message_id if isinstance(after, StoredMessage) else (after or 0)

        def find() -> StoredMessage | None:
            for message in self.bot_messages:
                if message.message_id > floor and (predicate is None or predicate(message)):
                    return message
            return None

        found: list[StoredMessage] = []

        def ready() -> bool:
            message = find()
            if message is not None:
                found.append(message)
            return message is not None

        wanted = "any" if predicate is None else describe(predicate)
        try:
            await self.fake.wait_for(
                ready, timeout=timeout, what=f"no matching bot message in chat {self.id} ({wanted})"
            )
        except TimeoutError as exc:
            shown = "\n".join(f"  {m!r}" for m in self.visible_messages[-10:])
            raise TimeoutError(f"{exc}; the chat's last messages:\n{shown}") from None
        return found[0]

    def __repr__(self) -> str:
        return f"<chat {self.id} {self.type.value} {self.title or ''}>"


def keyboard_from_api(
    raw: Mapping[str, Any] | None,
) -> tuple[tuple[tuple[Button, ...], ...] | None, Mapping[str, Any] | None]:
    """The inline keyboard of a ``reply_markup`` (other markups show no buttons on a message)."""
    if not raw or "inline_keyboard" not in raw:
        return None, None
    rows: Sequence[Sequence[Mapping[str, Any]]] = raw["inline_keyboard"]
    return tuple(tuple(Button.from_api(b) for b in row) for row in rows), raw


@dataclass
class PendingQuery:
    """A callback or inline query waiting for the bot's answer."""

    id: str
    user: FakeUser
    created: float
    future: asyncio.Future[Any]
    message: StoredMessage | None = None
    query: str = ""
    taken: float | None = None  # when the bot first took its update (getUpdates, a post)
