"""The fake Bot API server: HTTP front end, the methods, updates, webhooks and user actions."""

from __future__ import annotations

import asyncio
import contextlib
import io
import itertools
import json
import re
import time
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from aiohttp import ClientSession, ClientTimeout, MultipartReader, web
from PIL import Image

from .errors import NOT_MODIFIED, QUERY_TOO_OLD, ApiError, bad_request, forbidden
from .limits import Clock, Faults, FloodControl, FloodLimits
from .spec import ApiSpec, MethodSpec, UploadedFile, load_spec
from .text import MAX_CAPTION, MAX_TEXT, format_text, utf16_len
from .transcript import Call, Transcript
from .waiting import LOOK_GAP, Deadline, Watch, describe
from .webapp import (
    SHORT_NAME,
    WebAppLaunch,
    direct_link,
    init_data,
    launch_fragment,
    web_app_url_allowed,
    with_query,
)
from .world import (
    Button,
    CallbackAnswer,
    ChatType,
    FakeChat,
    FakeUser,
    ForumTopic,
    InlineAnswer,
    MemberStatus,
    MessageVersion,
    PendingQuery,
    Photo,
    StoredMessage,
    keyboard_from_api,
)

DEFAULT_TOKEN = "123456789:AAFakegramTestTokenForTheLocalServer0"
DEFAULT_ALLOWED = (
    "message",
    "edited_message",
    "channel_post",
    "edited_channel_post",
    "inline_query",
    "chosen_inline_result",
    "callback_query",
    "my_chat_member",
)
MAX_PHOTO_BYTES = 10 * 1024 * 1024
# setWebhook's max_connections: updates POSTed at once (1-100, default 40).
DEFAULT_WEBHOOK_CONNECTIONS = 40
MAX_WEBHOOK_CONNECTIONS = 100
_CALLBACK_ACTIONS = (
    "url",
    "callback_data",
    "web_app",
    "login_url",
    "switch_inline_query",
    "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat",
    "copy_text",
    "callback_game",
    "pay",
)
_CHAT_ACTIONS = {
    "typing",
    "upload_photo",
    "record_video",
    "upload_video",
    "record_voice",
    "upload_voice",
    "upload_document",
    "choose_sticker",
    "find_location",
    "record_video_note",
    "upload_video_note",
}
_COMMAND = re.compile(r"[a-z0-9_]{1,32}")
# A bot may reply to an ephemeral message only this long after it was sent (Bot API 10.3).
EPHEMERAL_REPLY_WINDOW = 15.0
# No observed text for these two: Telegram's usual short sentences, in its style.
EPHEMERAL_IN_PRIVATE = "ephemeral messages can be sent only to group and supergroup chats"
EPHEMERAL_REPLY_NOT_EPHEMERAL = "a reply to an ephemeral message must be ephemeral"
_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")
# A `web_app` button anywhere but a private chat with the bot (Bot API:
# `InlineKeyboardButton.web_app`, "available only in private chats").
BUTTON_TYPE_INVALID = "BUTTON_TYPE_INVALID"
# Forum topics. The texts are tdlib's (ForumTopicManager, MessagesManager) as the Bot API
# passes them on, or the server's own error codes (TOPIC_CLOSED, TOPIC_NOT_MODIFIED,
# TOPIC_ID_INVALID).
THREAD_NOT_FOUND = "message thread not found"
NOT_A_FORUM = "the chat is not a forum"
TOPIC_CLOSED = "TOPIC_CLOSED"
TOPIC_NOT_MODIFIED = "TOPIC_NOT_MODIFIED"
TOPIC_ID_INVALID = "TOPIC_ID_INVALID"
TOPIC_TITLE_EMPTY = "title must be non-empty"
TOPIC_ICON_COLORS = (7322096, 16766590, 13338331, 9367192, 16749490, 16478047)
MAX_TOPIC_NAME = 128  # longer names are cut, as tdlib's clean_name does
# getForumTopicIconStickers: a few custom emoji the fake offers as topic icons.
TOPIC_ICON_EMOJI = (("5312536423851630001", "💡"), ("5312536423851630002", "🎲"))

Handler = Callable[[dict[str, Any], Mapping[str, UploadedFile]], Any]


@dataclass(frozen=True)
class Exposure:
    """Something the bot showed: where, to whom, and the text of it (for privacy checks).

    ``chat_id`` is the chat everyone in it sees; ``audience`` a single user (callback answers,
    inline results, ephemeral messages); ``position`` the transcript position when it was
    shown; ``receiver`` the one user an ephemeral message is for (None for anything else).
    """

    position: int
    chat_id: int | None
    audience: int | None
    kind: str
    text: str
    receiver: int | None = None


@dataclass
class _Update:
    update_id: int
    kind: str
    body: dict[str, Any]


class FakeTelegram:
    """A local Telegram for one bot. See the package docstring for the tour."""

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        bot_username: str = "domino_test_bot",
        bot_name: str = "Домино",
        clock: Clock | None = None,
        callback_timeout: float = 15.0,
        inline_timeout: float = 10.0,
        privacy_mode: bool = True,
        webhook_retry_delay: float = 0.2,
        spec: ApiSpec | None = None,
        ephemeral_lifetime: float | None = None,
        check_own: bool = True,
    ) -> None:
        self.token = token
        # Whether the fake checks its own answers and updates against the spec, as the
        # suite does. bench/e2e.py, a load generator, turns it off: they are built by the
        # same code the suite checks, and checking them took a sixth of its CPU.
        self.check_own = check_own
        self.bot_id = int(token.split(":", 1)[0])
        self.bot_username = bot_username
        self.bot_name = bot_name
        self.clock: Clock = clock or time.monotonic
        self.callback_timeout = callback_timeout
        self.inline_timeout = inline_timeout
        self.privacy_mode = privacy_mode
        self.webhook_retry_delay = webhook_retry_delay
        # Seconds (on ``clock``) an ephemeral message lives; None: until deleted.
        self.ephemeral_lifetime = ephemeral_lifetime
        self.spec = spec or load_spec()
        self.transcript = Transcript()
        self.faults = Faults()
        # (method, chat id) -> calls that wait until the event is set (`hold_calls`).
        self.gates: dict[tuple[str, int], asyncio.Event] = {}
        self.flood = FloodControl(self.clock)
        self.problems: list[str] = []
        self.exposures: list[Exposure] = []
        self.delivered_updates: list[dict[str, Any]] = []
        # Each answered press as (pressed, its update taken by the bot, answered), on
        # `clock`: where a slow answer waited, Telegram's side or the bot's (bench/e2e.py).
        self.press_times: list[tuple[float, float, float]] = []
        self.users: dict[int, FakeUser] = {}
        self.chats: dict[int, FakeChat] = {}
        self.files: dict[str, Photo] = {}
        self.commands: dict[str, list[dict[str, Any]]] = {}
        self.web_apps: dict[str, str] = {}  # the bot's Mini Apps: short name -> URL
        self._web_app_queries = itertools.count(1)
        self.webhook_url: str | None = None
        self.webhook_last_error: str | None = None
        self._webhook_secret: str | None = None
        self._webhook_task: asyncio.Task[None] | None = None
        self.webhook_connections = DEFAULT_WEBHOOK_CONNECTIONS
        # Update id -> its delivery, while it is POSTed or waits to be retried.
        self._webhook_posts: dict[int, asyncio.Task[None]] = {}
        self._allowed: tuple[str, ...] = DEFAULT_ALLOWED
        self._updates: list[_Update] = []
        self._update_ids = itertools.count(100_000_001)
        self._user_ids = itertools.count(1_000_001)
        self._group_ids = itertools.count(1)
        self._query_ids = itertools.count(7_000_000_000_001)
        self._file_ids = itertools.count(1)
        # The bot's own message counter: ids in private chats and basic groups (see _store).
        self._account_message_ids = itertools.count(1)
        self._pending_callbacks: dict[str, PendingQuery] = {}
        self._pending_inline: dict[str, PendingQuery] = {}
        self._inline_messages: dict[str, StoredMessage] = {}
        self._poller: asyncio.Future[None] | None = None
        self.long_polls = 0  # getUpdates calls that began waiting, ever (a new bot's shows)
        self._change = asyncio.Event()
        self._in_flight = 0
        self._last_activity = time.monotonic()
        # Progress, for the waits (tests.fakegram.waiting): everything the bot or a person
        # did (an empty long poll left out), and what other progress to watch, such as a
        # bot process's CPU (the e2e harness adds it).
        self.moves = 0
        self.last_move = (time.monotonic(), "nothing yet")
        self.progress_sources: list[Callable[[], object]] = []
        self._runner: web.AppRunner | None = None
        self._client: ClientSession | None = None
        self.url = ""
        self._handlers: dict[str, Handler] = {
            "getme": self._get_me,
            "sendmessage": self._send_message,
            "sendphoto": self._send_photo,
            "editmessagetext": self._edit_message_text,
            "editmessagecaption": self._edit_message_caption,
            "editmessagemedia": self._edit_message_media,
            "editmessagereplymarkup": self._edit_message_reply_markup,
            "deletemessage": self._delete_message,
            "editephemeralmessagetext": self._edit_message_text,
            "editephemeralmessagecaption": self._edit_message_caption,
            "editephemeralmessagemedia": self._edit_message_media,
            "editephemeralmessagereplymarkup": self._edit_message_reply_markup,
            "deleteephemeralmessage": self._delete_ephemeral_message,
            "answercallbackquery": self._answer_callback_query,
            "answerinlinequery": self._answer_inline_query,
            "setmycommands": self._set_my_commands,
            "getmycommands": self._get_my_commands,
            "deletemycommands": self._delete_my_commands,
            "getchat": self._get_chat,
            "getchatmember": self._get_chat_member,
            "getchatadministrators": self._get_chat_administrators,
            "pinchatmessage": self._pin_chat_message,
            "unpinchatmessage": self._unpin_chat_message,
            "sendchataction": self._send_chat_action,
            "leavechat": self._leave_chat,
            "createforumtopic": self._create_forum_topic,
            "editforumtopic": self._edit_forum_topic,
            "closeforumtopic": self._close_forum_topic,
            "reopenforumtopic": self._reopen_forum_topic,
            "deleteforumtopic": self._delete_forum_topic,
            "unpinallforumtopicmessages": self._unpin_all_forum_topic_messages,
            "editgeneralforumtopic": self._edit_general_forum_topic,
            "closegeneralforumtopic": self._close_general_forum_topic,
            "reopengeneralforumtopic": self._reopen_general_forum_topic,
            "hidegeneralforumtopic": self._hide_general_forum_topic,
            "unhidegeneralforumtopic": self._unhide_general_forum_topic,
            "unpinallgeneralforumtopicmessages": self._unpin_all_general_forum_topic_messages,
            "getforumtopiciconstickers": self._get_forum_topic_icon_stickers,
            "setwebhook": self._set_webhook,
            "deletewebhook": self._delete_webhook,
            "getwebhookinfo": self._get_webhook_info,
        }

    # ------------------------------------------------------------------ lifecycle

    async def start(
        self,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        routes: Callable[[web.Application], None] | None = None,
    ) -> str:
        """Serve on ``host:port`` (0: an ephemeral port); return the base URL. ``routes``
        adds pages of its own to the app before it serves (the play page:
        ``tests.fakegram.play.PlayPage.attach``)."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        if routes is not None:
            routes(app)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port, reuse_address=True)
        await site.start()
        bound = self._runner.addresses[0]
        self.url = f"http://{bound[0]}:{bound[1]}"
        return self.url

    async def stop(self) -> None:
        await self._stop_webhook()
        if self._poller is not None and not self._poller.done():
            self._poller.set_result(None)
        if self._client is not None:
            await self._client.close()
            self._client = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeTelegram:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    def bot_user(self) -> dict[str, Any]:
        return {
            "id": self.bot_id,
            "is_bot": True,
            "first_name": self.bot_name,
            "username": self.bot_username,
        }

    def assert_clean(self) -> None:
        """Fail if the bot sent anything the fake flagged (unknown fields, unsupported calls)."""
        if self.problems:
            raise AssertionError(
                "the bot made calls the real Telegram would not accept as intended:\n  "
                + "\n  ".join(self.problems)
            )

    # ---------------------------------------------------------------- the world

    def add_user(
        self,
        first_name: str,
        *,
        username: str | None = None,
        last_name: str | None = None,
        language_code: str | None = "ru",
        started: bool = False,
        user_id: int | None = None,
    ) -> FakeUser:
        """A new person. ``started=True``: they have already pressed Start in the bot's chat."""
        user = FakeUser(
            self,
            user_id if user_id is not None else next(self._user_ids),
            first_name,
            username=username,
            last_name=last_name,
            language_code=language_code,
            started=started,
        )
        self.users[user.id] = user
        if started:
            self.private_chat(user)
        return user

    def private_chat(self, user: FakeUser) -> FakeChat:
        chat = self.chats.get(user.id)
        if chat is None:
            chat = FakeChat(self, user.id, ChatType.PRIVATE, user=user)
            chat.members = {user.id: MemberStatus.MEMBER}
            self.chats[user.id] = chat
        return chat

    def add_group(
        self,
        title: str,
        *,
        members: tuple[FakeUser, ...] | list[FakeUser] = (),
        admins: tuple[FakeUser, ...] | list[FakeUser] = (),
        supergroup: bool = False,
        forum: bool = False,
        bot_status: MemberStatus = MemberStatus.MEMBER,
    ) -> FakeChat:
        """A group (or supergroup) with the bot in it. The first admin (or member) owns it.
        ``forum=True`` (a supergroup only) turns topics on: ``getChat`` says ``is_forum``."""
        if forum and not supergroup:
            raise ValueError("only a supergroup can be a forum (pass supergroup=True)")
        number = next(self._group_ids)
        chat_id = -(1_000_000_000_000 + number) if supergroup else -(4_000_000_000 + number)
        chat_type = ChatType.SUPERGROUP if supergroup else ChatType.GROUP
        chat = FakeChat(self, chat_id, chat_type, title=title, bot_status=bot_status, forum=forum)
        everyone = [*admins, *(m for m in members if m not in admins)]
        for index, user in enumerate(everyone):
            if index == 0:
                chat.members[user.id] = MemberStatus.CREATOR
            elif user in admins:
                chat.members[user.id] = MemberStatus.ADMINISTRATOR
            else:
                chat.members[user.id] = MemberStatus.MEMBER
        self.chats[chat_id] = chat
        return chat

    def add_web_app(self, short_name: str, url: str) -> str:
        """BotFather's /newapp: the bot's Mini App `short_name`, opening `url`; returns
        its direct link (`https://t.me/<bot>/<short name>`, `?startapp=` optional)."""
        if not SHORT_NAME.fullmatch(short_name):
            raise ValueError(f"a short name is 3-30 letters, digits or _, not {short_name!r}")
        if not web_app_url_allowed(url):
            raise ValueError(f"a Mini App's URL is HTTPS (HTTP on this machine), not {url!r}")
        self.web_apps[short_name] = url
        return f"https://t.me/{self.bot_username}/{short_name}"

    def chat(self, chat_id: int) -> FakeChat:
        return self.chats[chat_id]

    def message(self, chat_id: int, message_id: int) -> StoredMessage:
        """The stored message (also for an aiogram ``Message``: ``m.chat.id, m.message_id``)."""
        return self.chats[chat_id].messages[message_id]

    async def set_bot_status(
        self, chat: FakeChat, status: MemberStatus, *, by: FakeUser | None = None
    ) -> None:
        """Change the bot's membership in a group; the bot gets ``my_chat_member``."""
        old = chat.bot_status
        chat.bot_status = status
        actor = by or self._owner(chat)
        self._push(
            "my_chat_member",
            {
                "chat": chat.to_api(),
                "from": actor.to_api(),
                "date": self._now(),
                "old_chat_member": self._member_json(self.bot_user(), old, chat),
                "new_chat_member": self._member_json(self.bot_user(), status, chat),
            },
        )
        if status is MemberStatus.MEMBER and not old.present:
            self._service_message(chat, actor, {"new_chat_members": [self.bot_user()]})

    async def remove_bot(self, chat: FakeChat, *, by: FakeUser | None = None) -> None:
        """An admin kicks the bot: from now on every call to the chat gets 403."""
        await self.set_bot_status(chat, MemberStatus.KICKED, by=by)

    async def add_bot(self, chat: FakeChat, *, by: FakeUser | None = None) -> None:
        await self.set_bot_status(chat, MemberStatus.MEMBER, by=by)

    async def upgrade_to_supergroup(self, chat: FakeChat) -> FakeChat:
        """The group becomes a supergroup with a new id; the old id answers 400 from now on."""
        if chat.type is not ChatType.GROUP:
            raise ValueError(f"{chat!r} is not a basic group")
        number = next(self._group_ids)
        new = FakeChat(
            self,
            -(1_000_000_000_000 + number),
            ChatType.SUPERGROUP,
            title=chat.title,
            members=dict(chat.members),
            bot_status=chat.bot_status,
            migrated_from=chat.id,
        )
        self.chats[new.id] = new
        chat.migrated_to = new.id
        owner = self._owner(chat)
        self._service_message(chat, owner, {"migrate_to_chat_id": new.id}, force=True)
        self._service_message(new, owner, {"migrate_from_chat_id": chat.id}, force=True)
        return new

    def _owner(self, chat: FakeChat) -> FakeUser:
        for uid, status in chat.members.items():
            if status is MemberStatus.CREATOR:
                return self.users[uid]
        if chat.user is not None:
            return chat.user
        return next(iter(self.users.values()))

    # ------------------------------------------------------------- acting as users

    async def user_starts(self, user: FakeUser, payload: str | None) -> StoredMessage:
        chat = self.private_chat(user)
        if user.blocked:
            await self.user_blocks(user, blocked=False)
        user.started = True
        text = f"/start {payload}" if payload else "/start"
        return await self.user_sends(user, chat, text, None)

    async def user_sends(
        self,
        user: FakeUser,
        chat: FakeChat,
        text: str,
        reply_to: StoredMessage | None,
        *,
        thread_id: int | None = None,
    ) -> StoredMessage:
        if chat.type is ChatType.PRIVATE:
            if chat.user is not user:
                raise ValueError(f"{user.first_name} cannot write in another user's chat")
            if not user.started and not text.startswith("/start"):
                raise RuntimeError(f"{user.first_name} must press Start first (user.start())")
        elif not chat.members.get(user.id, MemberStatus.LEFT).present:
            raise ValueError(f"{user.first_name} is not a member of {chat!r}")
        if chat.migrated_to is not None:
            raise ValueError(f"{chat!r} was upgraded; write in chat {chat.migrated_to}")
        thread = self._user_thread(user, chat, thread_id, reply_to)
        entities = self._client_entities(text)
        message = self._store(
            chat,
            user,
            MessageVersion(text, tuple(entities), None, (), None, None, None),
            reply_to=reply_to,
            thread_id=thread,
        )
        if self._bot_sees(chat, message):
            self._push("message", self._message_json(message))
        return message

    def _user_thread(
        self,
        user: FakeUser,
        chat: FakeChat,
        thread_id: int | None,
        reply_to: StoredMessage | None,
    ) -> int | None:
        """Where a person's message goes: the topic asked for, else the topic of the message
        it replies to, else General; what a client would not let them do raises."""
        if thread_id is None and reply_to is not None:
            thread_id = reply_to.thread_id
        if thread_id is not None:
            topic = chat.topics.get(thread_id) if chat.forum else None
            if topic is None or topic.deleted:
                raise ValueError(f"{chat!r} has no topic {thread_id}")
            closed = topic.closed
        else:
            closed = chat.forum and chat.general_closed
        if closed and not self._is_admin(chat, user):
            raise ValueError(f"{user.first_name} cannot write in a closed topic of {chat!r}")
        return thread_id

    @staticmethod
    def _is_admin(chat: FakeChat, user: FakeUser) -> bool:
        status = chat.members.get(user.id, MemberStatus.LEFT)
        return status in (MemberStatus.CREATOR, MemberStatus.ADMINISTRATOR)

    def _forum_of(self, user: FakeUser, chat: FakeChat) -> None:
        if not chat.forum:
            raise ValueError(f"{chat!r} is not a forum (add_group(..., forum=True))")
        self._check_can_see(user, chat)

    def _may_manage(self, user: FakeUser, topic: ForumTopic | None, chat: FakeChat) -> None:
        """Admins manage every topic, a topic's creator their own (as in Telegram)."""
        if self._is_admin(chat, user) or (topic is not None and topic.creator is user):
            return
        raise ValueError(f"{user.first_name} may not manage this topic of {chat!r}")

    def _live_topic_for(self, user: FakeUser, topic: ForumTopic) -> None:
        self._forum_of(user, topic.chat)
        if topic.deleted:
            raise ValueError(f"topic {topic.thread_id} of {topic.chat!r} was deleted")
        self._may_manage(user, topic, topic.chat)

    async def user_creates_topic(
        self, user: FakeUser, chat: FakeChat, name: str, icon_color: int | None
    ) -> ForumTopic:
        self._forum_of(user, chat)
        return self._open_topic(chat, user, name, icon_color or TOPIC_ICON_COLORS[0], None)

    async def user_edits_topic(self, user: FakeUser, topic: ForumTopic, name: str) -> None:
        self._live_topic_for(user, topic)
        topic.name = name
        self._service_message(
            topic.chat, user, {"forum_topic_edited": {"name": name}}, thread_id=topic.thread_id
        )

    async def user_closes_topic(self, user: FakeUser, topic: ForumTopic, *, closed: bool) -> None:
        self._live_topic_for(user, topic)
        if topic.closed == closed:
            raise ValueError(f"topic {topic.thread_id} is {'closed' if closed else 'open'} already")
        topic.closed = closed
        kind = "forum_topic_closed" if closed else "forum_topic_reopened"
        self._service_message(topic.chat, user, {kind: {}}, thread_id=topic.thread_id)

    async def user_deletes_topic(self, user: FakeUser, topic: ForumTopic) -> None:
        self._live_topic_for(user, topic)
        self._erase_topic(topic)

    async def user_closes_general(self, user: FakeUser, chat: FakeChat, *, closed: bool) -> None:
        self._forum_of(user, chat)
        self._may_manage(user, None, chat)
        if chat.general_closed == closed:
            raise ValueError(f"General of {chat!r} is {'closed' if closed else 'open'} already")
        chat.general_closed = closed
        kind = "forum_topic_closed" if closed else "forum_topic_reopened"
        self._service_message(chat, user, {kind: {}})

    def _open_topic(
        self,
        chat: FakeChat,
        creator: FakeUser | None,
        name: str,
        icon_color: int,
        icon_custom_emoji_id: str | None,
    ) -> ForumTopic:
        """A new topic: its ``forum_topic_created`` message, whose id is the thread id, comes
        to the bot as an update when a person made it (the bot gets none of its own)."""
        created: dict[str, Any] = {"name": name, "icon_color": icon_color}
        if icon_custom_emoji_id:
            created["icon_custom_emoji_id"] = icon_custom_emoji_id
        root = self._store(chat, creator, _EMPTY)
        root.thread_id = root.message_id
        root.service = {"forum_topic_created": created}
        topic = ForumTopic(
            chat, root.message_id, name, icon_color, icon_custom_emoji_id, creator=creator
        )
        chat.topics[topic.thread_id] = topic
        if creator is not None and self._bot_sees(chat, root):
            self._push("message", self._message_json(root))
        return topic

    def _erase_topic(self, topic: ForumTopic) -> None:
        """A deleted topic takes all its messages with it; no update tells the bot."""
        topic.deleted = True
        for message in topic.chat.messages.values():
            if message.thread_id == topic.thread_id:
                message.deleted = True
                message.pinned = False
        for message in topic.chat.ephemeral.values():
            if message.thread_id == topic.thread_id:
                message.deleted = True

    def _client_entities(self, text: str) -> list[dict[str, Any]]:
        """Entities a client fills in: bot commands and @mentions."""
        entities: list[dict[str, Any]] = []
        for match in re.finditer(r"(?<![\w/])/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{3,32})?", text):
            start = utf16_len(text[: match.start()])
            entities.append(
                {"type": "bot_command", "offset": start, "length": utf16_len(match.group(0))}
            )
        for match in re.finditer(r"(?<![\w/@])@[A-Za-z0-9_]{3,32}", text):
            start = utf16_len(text[: match.start()])
            entities.append(
                {"type": "mention", "offset": start, "length": utf16_len(match.group(0))}
            )
        entities.sort(key=lambda e: e["offset"])
        return entities

    def _bot_sees(self, chat: FakeChat, message: StoredMessage) -> bool:
        """Whether the bot receives a user's message (privacy mode in groups)."""
        if chat.type is ChatType.PRIVATE:
            return True
        if not chat.bot_status.present:
            return False
        if not self.privacy_mode or message.service or message.via_bot:
            return True
        text = message.content
        if text.startswith("/"):
            command = text.split()[0]
            return "@" not in command or command.endswith(f"@{self.bot_username}")
        # An explicit reply only: a message in a topic the bot opened is no reply to the
        # bot here, though the Bot API shows the topic's first message as its
        # reply_to_message (whether Telegram's privacy mode counts that is not known).
        if message.reply_to is not None and message.reply_to.from_bot:
            return True
        return f"@{self.bot_username}" in text

    async def user_presses(
        self,
        user: FakeUser,
        message: StoredMessage | Any,
        text: str | None,
        data: str | None,
        stale: bool,
        timeout: float,
    ) -> CallbackAnswer:
        if text is None and data is None:
            raise ValueError("find the button by text= or data=")
        if not isinstance(message, StoredMessage):
            ephemeral_id = getattr(message, "ephemeral_message_id", None)
            if ephemeral_id:
                message = self.chats[message.chat.id].ephemeral[ephemeral_id]
            else:
                message = self.message(message.chat.id, message.message_id)
        self.expire_ephemeral(message.chat)
        if message.deleted:
            raise LookupError(f"{message!r} is deleted; no client shows its buttons")
        self._check_can_see(user, message.chat, message)
        versions = [message.version, *reversed(message.history)] if stale else [message.version]
        button: Button | None = None
        for version in versions:
            for row in version.keyboard or ():
                for candidate in row:
                    if (text is None or candidate.text == text) and (
                        data is None or candidate.callback_data == data
                    ):
                        button = candidate
                        break
                if button:
                    break
            if button:
                break
        if button is None:
            message.button(text=text, data=data)  # raises LookupError listing the buttons
            raise AssertionError("unreachable")
        if button.callback_data is None:
            return CallbackAnswer(answered=False, url=button.url)
        return await self._callback_query(user, message, button.callback_data, timeout)

    async def user_forges_press(
        self, user: FakeUser, message: StoredMessage, data: str, timeout: float
    ) -> CallbackAnswer:
        """A modified client: a callback query with any ``data`` on a message ``user`` sees."""
        self._check_can_see(user, message.chat, message)
        return await self._callback_query(user, message, data, timeout)

    async def _callback_query(
        self, user: FakeUser, message: StoredMessage, data: str, timeout: float
    ) -> CallbackAnswer:
        query_id = str(next(self._query_ids))
        loop = asyncio.get_running_loop()
        pending = PendingQuery(query_id, user, self.clock(), loop.create_future(), message=message)
        self._pending_callbacks[query_id] = pending
        self._push(
            "callback_query",
            {
                "id": query_id,
                "from": user.to_api(),
                "message": self._message_json(message),
                "chat_instance": self._chat_instance(message.chat),
                "data": data,
            },
        )
        answer = await self._answer_to(pending, self.callback_timeout, timeout)
        if isinstance(answer, str):
            return CallbackAnswer(answered=False, why=answer)
        assert isinstance(answer, CallbackAnswer)
        return answer

    def _check_can_see(
        self, user: FakeUser, chat: FakeChat, message: StoredMessage | None = None
    ) -> None:
        if message is not None and message.ephemeral and message not in chat.view(user):
            raise ValueError(f"{user.first_name} does not see ephemeral {message!r}")
        if chat.type is ChatType.PRIVATE:
            if chat.user is not user:
                raise ValueError(f"{user.first_name} cannot see {chat!r}")
        elif not chat.members.get(user.id, MemberStatus.LEFT).present:
            raise ValueError(f"{user.first_name} is not a member of {chat!r}")

    def open_web_app(
        self, user: FakeUser, link: str, *, chat: FakeChat | None = None
    ) -> WebAppLaunch:
        """`user` opens the bot's Mini App as a client does. `link` is one of its direct
        links (tapped in `chat`, which the person must see; None: from outside any
        chat): the app's URL with `tgWebAppStartParam`, `start_param`, `chat_type` and
        `chat_instance`. Any other URL is taken as a `web_app` button's in the person's
        private chat with the bot: opened as it is, with a `query_id`."""
        found = direct_link(link, self.bot_username)
        if found is None:
            if urlsplit(link).hostname in ("t.me", "telegram.me"):
                raise ValueError(f"{link!r} is no direct link to a Mini App of the bot")
            if not web_app_url_allowed(link):
                raise ValueError(f"{link!r} is no Mini App's URL nor a direct link to one")
            query_id = f"AAF{self.bot_id}-{next(self._web_app_queries)}"
            data = init_data(
                self.token, self._web_app_user(user), auth_date=self._now(), query_id=query_id
            )
            return WebAppLaunch(f"{link.partition('#')[0]}#{launch_fragment(data)}", data)
        short_name, start = found
        url = self.web_apps.get(short_name)
        if url is None:
            raise LookupError(
                f"the bot has no Mini App {short_name!r} (BotFather's /newapp: "
                f"fake.add_web_app); it has {sorted(self.web_apps)}"
            )
        chat_type = instance = None
        if chat is not None:
            self._check_can_see(user, chat)
            chat_type, instance = chat.type.value, self._chat_instance(chat)
        data = init_data(
            self.token,
            self._web_app_user(user),
            start_param=start,
            auth_date=self._now(),
            query_id=None,
            chat_type=chat_type,
            chat_instance=instance,
        )
        page = with_query(url, tgWebAppStartParam=start) if start else url.partition("#")[0]
        fragment = launch_fragment(data, start_param=start)
        return WebAppLaunch(f"{page}#{fragment}", data, start, chat_type, instance)

    def user_opens_web_app_button(
        self, user: FakeUser, message: StoredMessage, button: Button
    ) -> WebAppLaunch:
        """`user` taps `button` of `message`: a `web_app` button (its private chat's
        person only), or a URL button holding a direct link to one of the bot's apps."""
        if message.deleted:
            raise LookupError(f"{message!r} is deleted; no client shows its buttons")
        self._check_can_see(user, message.chat, message)
        if button.web_app is not None:
            return self.open_web_app(user, button.web_app)
        if button.url is not None and direct_link(button.url, self.bot_username) is not None:
            return self.open_web_app(user, button.url, chat=message.chat)
        raise ValueError(f"{button.text!r} opens no Mini App of the bot")

    def _web_app_user(self, user: FakeUser) -> dict[str, Any]:
        """The person as `initData` shows them (a `User` without `is_bot`)."""
        shown = {k: v for k, v in user.to_api().items() if k != "is_bot"}
        if user.started and not user.blocked:
            shown["allows_write_to_pm"] = True
        return shown

    def _chat_instance(self, chat: FakeChat) -> str:
        """What a callback query or a Mini App opened there shows of `chat`: one id per
        chat and bot, never the chat's own."""
        return str(abs(hash((chat.id, self.bot_id))))

    async def user_inline_query(
        self, user: FakeUser, query: str, chat: FakeChat | None, timeout: float
    ) -> InlineAnswer:
        query_id = str(next(self._query_ids))
        pending = PendingQuery(
            query_id, user, self.clock(), asyncio.get_running_loop().create_future(), query=query
        )
        self._pending_inline[query_id] = pending
        body: dict[str, Any] = {"id": query_id, "from": user.to_api(), "query": query, "offset": ""}
        if chat is not None:
            self._check_can_see(user, chat)
            body["chat_type"] = "sender" if chat.id == user.id else chat.type.value
        self._push("inline_query", body)
        answer = await self._answer_to(pending, self.inline_timeout, timeout)
        if isinstance(answer, str):
            raise TimeoutError(f"the bot did not answer inline query {query!r}: {answer}")
        assert isinstance(answer, InlineAnswer)
        return answer

    async def user_chooses_inline_result(
        self, user: FakeUser, answer: InlineAnswer, result_id: str, chat: FakeChat
    ) -> StoredMessage:
        result = answer.result(result_id)
        self._check_can_see(user, chat)
        content = result.get("input_message_content")
        if not content or "message_text" not in content:
            raise ValueError(f"inline result {result_id!r} has no text message content")
        text, entities = format_text(
            content["message_text"], content.get("parse_mode"), content.get("entities")
        )
        keyboard, raw = keyboard_from_api(result.get("reply_markup"))
        message = self._store(
            chat, user, MessageVersion(text, tuple(entities), None, (), None, keyboard, raw)
        )
        message.via_bot = True
        self._expose_message(message, kind="inline message")
        chosen: dict[str, Any] = {
            "result_id": result_id,
            "from": user.to_api(),
            "query": answer.query,
        }
        if keyboard is not None:
            inline_id = f"inl{next(self._file_ids)}"
            self._inline_messages[inline_id] = message
            chosen["inline_message_id"] = inline_id
        self._push("chosen_inline_result", chosen)
        if self._bot_sees(chat, message):
            self._push("message", self._message_json(message))
        return message

    async def user_joins(self, user: FakeUser, chat: FakeChat) -> None:
        chat.members[user.id] = MemberStatus.MEMBER
        self._service_message(chat, user, {"new_chat_members": [user.to_api()]})

    async def user_leaves(self, user: FakeUser, chat: FakeChat) -> None:
        if chat.type is ChatType.PRIVATE:
            raise ValueError("block the bot instead of leaving a private chat")
        chat.members[user.id] = MemberStatus.LEFT
        self._service_message(chat, user, {"left_chat_member": user.to_api()})

    async def user_blocks(self, user: FakeUser, *, blocked: bool) -> None:
        chat = self.private_chat(user)
        if user.blocked == blocked:
            return
        user.blocked = blocked
        old, new = (
            (MemberStatus.MEMBER, MemberStatus.KICKED)
            if blocked
            else (MemberStatus.KICKED, MemberStatus.MEMBER)
        )
        self._push(
            "my_chat_member",
            {
                "chat": chat.to_api(),
                "from": user.to_api(),
                "date": self._now(),
                "old_chat_member": self._member_json(self.bot_user(), old, chat),
                "new_chat_member": self._member_json(self.bot_user(), new, chat),
            },
        )

    def _service_message(
        self,
        chat: FakeChat,
        actor: FakeUser,
        service: dict[str, Any],
        *,
        force: bool = False,
        thread_id: int | None = None,
    ) -> StoredMessage:
        message = self._store(chat, actor, _EMPTY, thread_id=thread_id)
        message.service = service
        if force or self._bot_sees(chat, message):
            self._push("message", self._message_json(message))
        return message

    # ------------------------------------------------------------- waiting helpers

    def _pulse(self) -> None:
        self._last_activity = time.monotonic()
        self._change.set()
        self._change = asyncio.Event()

    def _moved(self, what: str) -> None:
        self.moves += 1
        self.last_move = (time.monotonic(), what)

    def progress(self) -> tuple[object, ...]:
        """A mark that changes whenever something moves: a call of the bot's (an empty long
        poll left out), an update, anything `progress_sources` watch."""
        return (self.moves, *(source() for source in self.progress_sources))

    def last_moved(self) -> str:
        """The last call or update and how long ago, for a failed wait's message."""
        at, what = self.last_move
        return f"{what}, {time.monotonic() - at:.1f} s ago"

    def watch(self, window: float, what: str) -> Watch:
        """A `Watch` over everything that moves here, named `what`."""
        return Watch(
            self.progress,
            window=window,
            what=what,
            last=lambda: f"call or update: {self.last_moved()}",
        )

    async def wait_for(
        self, predicate: Callable[[], bool], *, timeout: float = 5.0, what: str | None = None
    ) -> None:
        """Return as soon as ``predicate()`` holds; re-checked whenever anything happens.

        ``timeout`` is no fixed end: ``TimeoutError`` comes once nothing has moved for that
        long (no call of the bot's but an empty long poll, no update, nothing
        ``progress_sources`` watch), stretched by the machine's pace, or after many such
        windows of moving without the predicate (``tests.fakegram.waiting``). ``what``
        names the wait in the error (by default the predicate's source).
        """
        if predicate():
            return
        watch = self.watch(timeout, what or f"not met: {describe(predicate)}")
        while not predicate():
            watch.check()
            await self._next_change(0.25)

    async def poll(self, predicate: Callable[[], bool], seconds: float) -> bool:
        """Whether ``predicate()`` holds within ``seconds``: one step of a loop that looks at
        other things between steps (so a fixed time is right: it is no deadline)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while not predicate():
            remaining = deadline - loop.time()
            if remaining <= 0:
                return False
            await self._next_change(min(remaining, 0.25))
        return True

    async def _next_change(self, at_most: float) -> None:
        event = self._change
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), at_most)

    @property
    def long_polling(self) -> bool:
        """Whether a getUpdates call is waiting for updates right now."""
        return self._poller is not None and not self._poller.done()

    @property
    def pending_updates(self) -> int:
        """Updates not yet confirmed by the bot (polling) or delivered (webhook)."""
        return len(self._updates)

    async def idle(self, quiet: float = 0.15, *, timeout: float = 10.0) -> None:
        """Wait until the bot has taken every update and made no call for ``quiet`` seconds.

        ``timeout`` is no fixed end, as in ``wait_for``: the bot may take as long as it keeps
        moving; ``TimeoutError`` once nothing has moved for that long (pace stretched)."""
        watch = self.watch(timeout, "the bot did not fall idle")
        while True:
            calm = time.monotonic() - self._last_activity
            if not self._updates and self._in_flight == 0 and calm >= quiet:
                return
            try:
                watch.check()
            except TimeoutError as exc:
                raise TimeoutError(
                    f"not idle: {len(self._updates)} pending updates, "
                    f"{self._in_flight} calls in flight; {exc}"
                ) from None
            await asyncio.sleep(min(max(quiet - calm, 0.01), 0.25))

    async def _answer_to(self, pending: PendingQuery, window: float, timeout: float) -> Any:
        """The bot's answer to a query, or why a client stopped waiting for it (a string):
        ``timeout`` seconds passed, stretched by the machine's pace (``Deadline``), or the
        query is older than Telegram's ``window`` (an answer would be refused now).

        It waits on the query's own answer, not on every change here: with thousands of
        presses waiting (bench/e2e.py at 2,000 games), waking each of them at each of the
        hundreds of calls a second would take the load generator's whole core. It looks
        again at the window's end, at the deadline's, and at least every ``LOOK_GAP`` / 2
        (an injected ``clock`` may jump meanwhile)."""
        deadline = Deadline(timeout)
        while not pending.future.done():
            age = self.clock() - pending.created
            if age > window:
                return f"not answered within Telegram's {window:g} s for one ({age:.1f} s)"
            if deadline.passed():
                return f"not answered in {deadline}; last call or update: {self.last_moved()}"
            wait = min(LOOK_GAP / 2, max(deadline.left(), 0.01), max(window - age, 0.01))
            await asyncio.wait((pending.future,), timeout=wait)
        return pending.future.result()

    # ------------------------------------------------------------------ updates

    def _push(self, kind: str, body: dict[str, Any]) -> int:
        update_id = next(self._update_ids)
        update: dict[str, Any] = {"update_id": update_id, kind: body}
        if self.check_own:
            self.spec.conform("Update", update, "update")
        self._updates.append(_Update(update_id, kind, update))
        self._moved(f"a {kind} update came")
        self._pulse()
        return update_id

    def push_update(self, kind: str, body: dict[str, Any]) -> int:
        """Queue any update exactly as given (checked against the ``Update`` type) and return
        its ``update_id``: junk no client would produce, a chat the fake does not know, an
        edited message, a channel post, a message with no sender (see ``junk.py``)."""
        return self._push(kind, body)

    def push_callback(
        self, user: FakeUser, data: str, *, message: dict[str, Any] | None = None
    ) -> asyncio.Future[CallbackAnswer]:
        """A callback query with any ``data``, pushed without waiting: the future resolves
        with the bot's answer. ``message`` is the JSON of the message the button was on (any
        chat, even one the fake does not know); without it the query names an inline message,
        as a press on a message sent via the bot does. For floods of forged presses."""
        query_id = str(next(self._query_ids))
        future: asyncio.Future[CallbackAnswer] = asyncio.get_running_loop().create_future()
        self._pending_callbacks[query_id] = PendingQuery(query_id, user, self.clock(), future)
        body: dict[str, Any] = {
            "id": query_id,
            "from": user.to_api(),
            "chat_instance": str(abs(hash((query_id, self.bot_id)))),
            "data": data,
        }
        if message is not None:
            body["message"] = message
        else:
            body["inline_message_id"] = f"forged{query_id}"
        self._push("callback_query", body)
        return future

    def message_json(self, message: StoredMessage) -> dict[str, Any]:
        """A stored message as the Bot API shows it in an update."""
        return self._message_json(message)

    def client_entities(self, text: str) -> list[dict[str, Any]]:
        """The entities a client adds to ``text`` (bot commands, @mentions)."""
        return self._client_entities(text)

    def _take_allowed(self, limit: int) -> list[dict[str, Any]]:
        """The first deliverable updates; updates the bot did not subscribe to are dropped."""
        self._drop_unsubscribed()
        taken = [u.body for u in self._updates[:limit]]
        for body in taken:
            self._note_taken(body)
        return taken

    def _note_taken(self, update: dict[str, Any]) -> None:
        """The bot took `update`: the moment is kept for a press (`press_times`)."""
        query = update.get("callback_query")
        pending = None if query is None else self._pending_callbacks.get(query["id"])
        if pending is not None and pending.taken is None:
            pending.taken = self.clock()

    def _drop_unsubscribed(self) -> None:
        self._updates = [u for u in self._updates if u.kind in self._allowed]

    async def _get_updates(self, params: dict[str, Any]) -> list[dict[str, Any]]:
        if self.webhook_url is not None:
            raise ApiError(
                409,
                "Conflict: can't use getUpdates method while webhook is active; "
                "use deleteWebhook to delete the webhook first",
            )
        if self._poller is not None and not self._poller.done():
            self._poller.set_exception(
                ApiError(
                    409,
                    "Conflict: terminated by other getUpdates request; "
                    "make sure that only one bot instance is running",
                )
            )
        if "allowed_updates" in params:
            self._allowed = tuple(params["allowed_updates"]) or DEFAULT_ALLOWED
        offset = params.get("offset")
        if offset is not None:
            if offset < 0:
                self._updates = self._updates[offset:]
            else:
                self._updates = [u for u in self._updates if u.update_id >= offset]
            self._pulse()
        limit = min(max(params.get("limit", 100), 1), 100)
        found = self._take_allowed(limit)
        timeout = params.get("timeout", 0)
        if found or timeout <= 0:
            return found
        loop = asyncio.get_running_loop()
        poller: asyncio.Future[None] = loop.create_future()
        self._poller = poller
        self.long_polls += 1
        deadline = loop.time() + timeout
        self._in_flight -= 1  # a waiting long poll is not bot activity
        try:
            while not found:
                remaining = deadline - loop.time()
                if remaining <= 0:
                    break
                event = self._change
                waiter: asyncio.Future[Any] = asyncio.ensure_future(event.wait())
                await asyncio.wait(
                    {waiter, poller}, timeout=remaining, return_when=asyncio.FIRST_COMPLETED
                )
                waiter.cancel()
                if poller.done():
                    if poller.exception() is not None:
                        raise poller.exception()  # type: ignore[misc]
                    break
                found = self._take_allowed(limit)
        finally:
            self._in_flight += 1
            if self._poller is poller:
                self._poller = None
        return found

    # ------------------------------------------------------------------ webhook

    def _set_webhook(self, p: dict[str, Any], files: Mapping[str, UploadedFile]) -> bool:
        url = p["url"]
        if not url:
            return self._delete_webhook(p, files)
        if not url.startswith(("https://", "http://")):
            raise bad_request("bad webhook: An HTTPS URL must be provided for webhook")
        secret = p.get("secret_token")
        if secret is not None and not _SECRET.fullmatch(secret):
            raise bad_request("secret token contains unallowed characters")
        if "allowed_updates" in p:
            self._allowed = tuple(p["allowed_updates"]) or DEFAULT_ALLOWED
        if p.get("drop_pending_updates"):
            self._updates.clear()
        connections = p.get("max_connections", DEFAULT_WEBHOOK_CONNECTIONS)
        self.webhook_connections = min(max(connections, 1), MAX_WEBHOOK_CONNECTIONS)
        self.webhook_url = url
        self._webhook_secret = secret
        if self._webhook_task is None or self._webhook_task.done():
            self._webhook_task = asyncio.ensure_future(self._deliver_webhook())
        self._pulse()
        return True

    def _delete_webhook(self, p: dict[str, Any], files: Mapping[str, UploadedFile]) -> bool:
        self.webhook_url = None
        self._webhook_secret = None
        if p.get("drop_pending_updates"):
            self._updates.clear()
        self._pulse()
        return True

    def _get_webhook_info(self, p: dict[str, Any], files: Mapping[str, UploadedFile]) -> Any:
        info: dict[str, Any] = {
            "url": self.webhook_url or "",
            "has_custom_certificate": False,
            "pending_update_count": len(self._updates),
        }
        if self.webhook_url:
            info["max_connections"] = self.webhook_connections
            info["allowed_updates"] = list(self._allowed)
            if self.webhook_last_error:
                info["last_error_date"] = self._now()
                info["last_error_message"] = self.webhook_last_error
        return info

    async def _stop_webhook(self) -> None:
        self.webhook_url = None
        tasks = [*self._webhook_posts.values()]
        if self._webhook_task is not None:
            tasks.append(self._webhook_task)
        self._webhook_task = None
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _deliver_webhook(self) -> None:
        """POST updates as Telegram does: up to ``webhook_connections`` at once, but one
        chat's updates one at a time and in order (see ``_ready_for_webhook``); each is
        retried until the bot's server takes it."""
        if self._client is None:
            self._client = ClientSession(timeout=ClientTimeout(total=30))
        while self.webhook_url is not None:
            event = self._change  # a delivery's end or a new update pulses it
            for update in self._ready_for_webhook():
                post = asyncio.ensure_future(self._post_update(update))
                self._webhook_posts[update.update_id] = post
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), 1.0)

    def _ready_for_webhook(self) -> list[_Update]:
        """The pending updates to POST now, oldest first: none while all the connections
        are busy, and none of a chat with an older update still pending (POSTed, waiting
        for a retry, or waiting its turn)."""
        room = self.webhook_connections - len(self._webhook_posts)
        if room <= 0:
            return []
        self._drop_unsubscribed()
        ready: list[_Update] = []
        seen: set[Hashable] = set()
        for update in self._updates:
            key = _order_key(update.body)
            if key in seen:
                continue
            seen.add(key)
            if update.update_id not in self._webhook_posts:
                ready.append(update)
                if len(ready) == room:
                    break
        return ready

    async def _post_update(self, pending: _Update) -> None:
        """One update POSTed until the bot's server takes it (a pause between tries)."""
        update = pending.body
        try:
            while (url := self.webhook_url) is not None:
                assert self._client is not None
                headers = {"Content-Type": "application/json"}
                if self._webhook_secret:
                    headers["X-Telegram-Bot-Api-Secret-Token"] = self._webhook_secret
                self._in_flight += 1
                self._moved("a webhook POST began")
                self._note_taken(update)
                try:
                    async with self._client.post(
                        url, data=json.dumps(update), headers=headers
                    ) as response:
                        status = response.status
                        reply = await self._webhook_reply(response) if status < 300 else None
                except Exception as error:  # any failure: Telegram retries later
                    self.webhook_last_error = f"Connection failed: {type(error).__name__}"
                    status, reply = 0, None
                finally:
                    self._in_flight -= 1
                self._moved(f"a webhook POST was answered {status or 'with no answer'}")
                if 200 <= status < 300:
                    self._updates = [u for u in self._updates if u is not pending]
                    self.delivered_updates.append(update)
                    self.webhook_last_error = None
                    if reply and "method" in reply:
                        await self._run_webhook_reply(reply)
                    return
                if status:
                    self.webhook_last_error = f"Wrong response from the webhook: {status}"
                await asyncio.sleep(self.webhook_retry_delay)
        finally:
            # Before the pulse: the chat's next update is ready when the loop wakes.
            self._webhook_posts.pop(pending.update_id, None)
            self._pulse()

    @staticmethod
    async def _webhook_reply(response: Any) -> dict[str, Any] | None:
        kind = response.headers.get("Content-Type", "")
        if kind.startswith("application/json"):
            body = await response.json()
            return body if isinstance(body, dict) else None
        if kind.startswith("multipart/"):
            reader = MultipartReader.from_response(response)
            fields: dict[str, Any] = {}
            while (part := await reader.next()) is not None:
                if part.name is None:  # type: ignore[union-attr]
                    continue
                data = await part.read()  # type: ignore[union-attr]
                filename = getattr(part, "filename", None)
                if filename:
                    fields[part.name] = UploadedFile(part.name, filename, bytes(data))  # type: ignore[union-attr]
                else:
                    fields[part.name] = bytes(data).decode()  # type: ignore[union-attr]
            return fields
        return None

    async def _run_webhook_reply(self, reply: dict[str, Any]) -> None:
        method_name = str(reply.pop("method"))
        spec = self.spec.method(method_name)
        if spec is None:
            self.problems.append(f"webhook reply with unknown method {method_name!r}")
            return
        raw = {k: v for k, v in reply.items() if not isinstance(v, UploadedFile)}
        files = {k: v for k, v in reply.items() if isinstance(v, UploadedFile)}
        await self._call(spec, {**raw, **files}, files, via="webhook-reply")

    # --------------------------------------------------------------- HTTP front

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        if request.match_info["token"] != self.token:
            return web.json_response(
                {"ok": False, "error_code": 401, "description": "Unauthorized"}, status=401
            )
        spec = self.spec.method(request.match_info["method"])
        if spec is None:
            return web.json_response(
                {"ok": False, "error_code": 404, "description": "Not Found"}, status=404
            )
        try:
            raw, files = await self._read_params(request)
        except ApiError as error:
            return web.json_response(error.to_json(), status=error.status)
        chat_hint = raw.get("chat_id")
        chat_id = int(chat_hint) if isinstance(chat_hint, str) and _is_int(chat_hint) else None
        gate = self.gates.get((spec.name, chat_id)) if chat_id is not None else None
        if gate is not None:
            await gate.wait()
        sender = request.headers.get("User-Agent")
        fault = self.faults.pick(spec.name, chat_id)
        if fault is not None and fault.drop:
            if fault.after_executing:
                await self._call(spec, raw, files, dropped=True, sender=sender)
            else:
                self._record(spec.name, raw, None, None, injected=True, dropped=True, sender=sender)
            if request.transport is not None:
                request.transport.close()
            return web.Response(status=500)
        if fault is not None:
            injected = fault.error()
            self._record(spec.name, raw, None, injected, injected=True, sender=sender)
            return web.json_response(injected.to_json(), status=injected.status)
        ok, payload = await self._call(spec, raw, files, sender=sender)
        return web.json_response(payload, status=200 if ok else payload["error_code"])

    async def _read_params(
        self, request: web.Request
    ) -> tuple[dict[str, Any], dict[str, UploadedFile]]:
        raw: dict[str, Any] = dict(request.query)
        files: dict[str, UploadedFile] = {}
        if request.method == "POST" and request.can_read_body:
            kind = request.content_type
            if kind == "application/json":
                try:
                    body = await request.json()
                except ValueError:
                    raise bad_request("can't parse JSON object") from None
                if not isinstance(body, dict):
                    raise bad_request("can't parse JSON object")
                raw.update(body)
            elif kind in ("application/x-www-form-urlencoded", "multipart/form-data"):
                form = await request.post()
                for key, value in form.items():
                    if isinstance(value, str):
                        raw[key] = value
                    elif isinstance(value, web.FileField):
                        content = value.file.read()
                        files[key] = UploadedFile(key, value.filename or key, content)
                    else:
                        raw[key] = bytes(value).decode("utf-8", "replace")
        for name, upload in files.items():
            raw.setdefault(name, upload)
        return raw, files

    async def _call(
        self,
        spec: MethodSpec,
        raw: dict[str, Any],
        files: Mapping[str, UploadedFile],
        *,
        via: str = "http",
        dropped: bool = False,
        sender: str | None = None,
    ) -> tuple[bool, dict[str, Any]]:
        """Check, execute and record one call (`sender`: the request's User-Agent);
        return (ok, JSON body)."""
        self._in_flight += 1
        if spec.name.lower() != "getupdates":  # a long poll's wait is no progress
            self._moved(f"{spec.name} began")
        self._pulse()
        params: dict[str, Any] = {}
        try:
            parsed = self.spec.parse_request(spec, raw)
            params = parsed.params
            for name in parsed.unknown_fields:
                self.problems.append(f"{spec.name}: unknown field {name!r}")
            for name in parsed.deprecated_fields:
                self.problems.append(f"{spec.name}: field {name!r} is deprecated since 10.3")
            handler = self._handlers.get(spec.name.lower())
            if spec.name.lower() == "getupdates":
                result: Any = await self._get_updates(params)
            elif handler is None:
                self.problems.append(f"{spec.name}: method not supported by fakegram")
                raise bad_request(f"method {spec.name} is not supported by fakegram")
            else:
                result = handler(params, files)
            if self.check_own:
                result = self.spec.conform_result(spec, result)
        except ApiError as error:
            self._record(
                spec.name, params or raw, None, error, via=via, dropped=dropped, sender=sender
            )
            return False, error.to_json()
        finally:
            self._in_flight -= 1
            self._pulse()
        self._record(spec.name, params, result, None, via=via, dropped=dropped, sender=sender)
        return True, {"ok": True, "result": result}

    def _record(
        self,
        method: str,
        params: Mapping[str, Any],
        result: Any,
        error: ApiError | None,
        *,
        injected: bool = False,
        dropped: bool = False,
        via: str = "http",
        sender: str | None = None,
    ) -> None:
        shown = {k: (repr(v) if isinstance(v, UploadedFile) else v) for k, v in params.items()}
        if method.lower() != "getupdates" or result or error is not None:
            chat = f" in chat {params['chat_id']}" if "chat_id" in params else ""
            outcome = "ok" if error is None else f"{error.status} {error.description}"
            self._moved(f"{method}{chat} -> {outcome}")
        self.transcript.append(
            Call(
                seq=self.transcript.next_seq(),
                at=self.clock(),
                wall=time.time(),
                method=method,
                params=shown,
                ok=error is None and not (dropped and injected),
                result=result,
                error_code=error.status if error else None,
                description=error.description if error else None,
                parameters=error.parameters if error else None,
                injected=injected,
                dropped=dropped,
                via=via,
                sender=sender,
            )
        )

    # ------------------------------------------------------------ chat resolution

    def _now(self) -> int:
        return int(time.time())

    def _find_chat(self, chat_id: int | str) -> FakeChat:
        if isinstance(chat_id, int) and chat_id in self.chats:
            return self.chats[chat_id]
        raise bad_request("chat not found")

    def _writable_chat(self, chat_id: int | str) -> FakeChat:
        """The chat, if the bot may act in it now; the real server's error otherwise."""
        chat = self._find_chat(chat_id)
        if chat.migrated_to is not None:
            raise bad_request(
                "group chat was upgraded to a supergroup chat",
                {"migrate_to_chat_id": chat.migrated_to},
            )
        if chat.type is ChatType.PRIVATE:
            assert chat.user is not None
            if chat.user.blocked:
                raise forbidden("bot was blocked by the user")
            if not chat.user.started:
                raise forbidden("bot can't initiate conversation with a user")
            return chat
        kind = "supergroup chat" if chat.type is ChatType.SUPERGROUP else "group chat"
        if chat.bot_status is MemberStatus.KICKED:
            raise forbidden(f"bot was kicked from the {kind}")
        if chat.bot_status is MemberStatus.LEFT:
            raise forbidden(f"bot is not a member of the {kind}")
        return chat

    def _readable_chat(self, chat_id: int | str) -> FakeChat:
        chat = self._find_chat(chat_id)
        if chat.type is not ChatType.PRIVATE and chat.migrated_to is None:
            return self._writable_chat(chat_id)
        if chat.migrated_to is not None:
            raise bad_request(
                "group chat was upgraded to a supergroup chat",
                {"migrate_to_chat_id": chat.migrated_to},
            )
        return chat

    def _count_flood(self, chat: FakeChat) -> None:
        self.flood.check(chat.id, chat.type is not ChatType.PRIVATE)

    def hold_calls(self, method: str, chat_id: int) -> asyncio.Event:
        """Every call of ``method`` to ``chat_id`` from now waits, unanswered, until the
        returned event is set (as a chat whose queue Telegram drains slowly): for tests
        that nothing else waits for that chat."""
        gate = self.gates[(method, chat_id)] = asyncio.Event()
        return gate

    def enable_flood_limits(self, limits: FloodLimits | None = None) -> None:
        """Switch Telegram's send limits on (they are off by default)."""
        self.flood.enable(limits)

    # -------------------------------------------------------------- messages

    def _store(
        self,
        chat: FakeChat,
        sender: FakeUser | None,
        version: MessageVersion,
        *,
        reply_to: StoredMessage | None = None,
        thread_id: int | None = None,
    ) -> StoredMessage:
        message = StoredMessage(
            chat,
            self._next_message_id(chat),
            sender,
            self._now(),
            version,
            reply_to=reply_to,
            thread_id=thread_id,
        )
        message.sent_at = self.clock()
        chat.messages[message.message_id] = message
        return message

    def _store_ephemeral(
        self,
        chat: FakeChat,
        receiver: FakeUser,
        version: MessageVersion,
        reply_to: StoredMessage | None,
        thread_id: int | None = None,
    ) -> StoredMessage:
        """An ephemeral message: ``message_id`` 0, the lowest free ``ephemeral_message_id``
        of the chat (freed ids are reused), delivered only if its receiver is online."""
        self.expire_ephemeral(chat)
        number = next(n for n in itertools.count(1) if n not in chat.ephemeral)
        message = StoredMessage(
            chat,
            0,
            None,
            self._now(),
            version,
            reply_to=reply_to,
            receiver=receiver,
            ephemeral_id=number,
            sent_at=self.clock(),
            delivered=receiver.online,
            thread_id=thread_id,
        )
        chat.ephemeral[number] = message
        return message

    def expire_ephemeral(self, chat: FakeChat) -> None:
        """Drop the chat's ephemeral messages older than ``ephemeral_lifetime``."""
        if self.ephemeral_lifetime is None:
            return
        now = self.clock()
        for number, message in list(chat.ephemeral.items()):
            if now - message.sent_at >= self.ephemeral_lifetime:
                message.deleted = True
                del chat.ephemeral[number]

    def _ephemeral_receiver(self, chat: FakeChat, p: dict[str, Any]) -> FakeUser | None:
        """Whom a send is ephemeral for (None: an ordinary message), checked as Telegram does.
        Bot API 10.2's separate fields still work: 10.3 deprecated them, not removed them."""
        params = p.get("ephemeral_message_parameters")
        if params is None and "receiver_user_id" in p:
            params = {"receiver_user_id": p["receiver_user_id"]}
            if "callback_query_id" in p:
                params["callback_query_id"] = p["callback_query_id"]
        if params is None:
            return None
        if chat.type is ChatType.PRIVATE:
            raise bad_request(EPHEMERAL_IN_PRIVATE)
        receiver = self.users.get(params["receiver_user_id"])
        if receiver is None or not chat.members.get(receiver.id, MemberStatus.LEFT).present:
            raise bad_request("user not found")
        query_id = params.get("callback_query_id")
        if query_id is not None:
            pending = self._pending_callbacks.get(query_id)
            if pending is None or pending.user is not receiver:
                raise bad_request(QUERY_TOO_OLD)
        return receiver

    def _live_ephemeral(self, chat: FakeChat, number: int) -> StoredMessage | None:
        self.expire_ephemeral(chat)
        return chat.ephemeral.get(number)

    def _next_message_id(self, chat: FakeChat) -> int:
        """The id the bot sees for a new message in ``chat``.

        Telegram numbers messages in private chats and basic groups per *account*: each
        account that receives a copy gives it the next number of its own counter, so the bot's
        ids in two such chats never collide (and a person sees other ids for the same message).
        Supergroups and channels number their messages per chat, the same for everyone (the
        MTProto design as Pyrogram's and Telethon's docs explain it; tdlib's maintainers:
        "message id will be the same only in supergroups (and channels)"). The fake keeps
        the bot's view only; every message of a private chat or basic group takes
        a number, also one privacy mode hides from the bot (ids need only be unique and rising).
        """
        if chat.type is ChatType.SUPERGROUP:
            number = chat.next_message_id
            chat.next_message_id += 1
            return number
        return next(self._account_message_ids)

    def _message_json(self, message: StoredMessage, *, nested: bool = False) -> dict[str, Any]:
        body: dict[str, Any] = {
            "message_id": message.message_id,
            "from": self.bot_user() if message.sender is None else message.sender.to_api(),
            "chat": message.chat.to_api(),
            "date": message.date,
        }
        version = message.version
        if message.edit_date is not None:
            body["edit_date"] = message.edit_date
        if message.via_bot:
            body["via_bot"] = self.bot_user()
        if message.receiver is not None:
            body["receiver_user"] = message.receiver.to_api()
            body["ephemeral_message_id"] = message.ephemeral_id
        if message.reply_to is not None and not nested:
            body["reply_to_message"] = self._message_json(message.reply_to, nested=True)
        body.update(self._thread_json(message, nested))
        if version.text is not None:
            body["text"] = version.text
            if version.entities:
                body["entities"] = [self._entity_json(e) for e in version.entities]
        if version.photo is not None:
            body["photo"] = self._photo_sizes(version.photo)
            if version.caption:
                body["caption"] = version.caption
                if version.caption_entities:
                    body["caption_entities"] = [
                        self._entity_json(e) for e in version.caption_entities
                    ]
        if version.raw_keyboard is not None:
            body["reply_markup"] = version.raw_keyboard
        body.update(message.service)
        return body

    def _thread_json(self, message: StoredMessage, nested: bool) -> dict[str, Any]:
        """A forum message's thread fields, as the Bot API shows them.

        In a topic: ``message_thread_id`` and ``is_topic_message``, and a message that
        replies to nothing shows the topic's ``forum_topic_created`` message as its
        ``reply_to_message`` (a topic is the reply thread of that message). In General a
        reply carries the id of its reply thread's root as ``message_thread_id``, without
        ``is_topic_message``: no topic, and sending there answers ``message thread not
        found`` (tdlib/telegram-bot-api#356, #447). Plain supergroups are left out.
        """
        chat = message.chat
        if not chat.forum:
            return {}
        if message.thread_id is not None:
            body: dict[str, Any] = {
                "message_thread_id": message.thread_id,
                "is_topic_message": True,
            }
            root = chat.messages.get(message.thread_id)
            if message.reply_to is None and not nested and root is not None and root is not message:
                body["reply_to_message"] = self._message_json(root, nested=True)
            return body
        if message.reply_to is not None and not message.reply_to.ephemeral:
            root = message.reply_to
            while root.reply_to is not None:
                root = root.reply_to
            return {"message_thread_id": root.message_id}
        return {}

    def _entity_json(self, entity: Mapping[str, Any]) -> dict[str, Any]:
        if "user_id" in entity:
            uid = int(entity["user_id"])
            user = self.users.get(uid)
            found = dict(entity)
            del found["user_id"]
            if user is None:
                return {**found, "type": "text_link", "url": f"tg://user?id={uid}"}
            return {**found, "user": user.to_api()}
        return dict(entity)

    def _photo_sizes(self, photo: Photo) -> list[dict[str, Any]]:
        sizes = []
        scale = 320 / max(photo.width, photo.height)
        if scale < 1:
            sizes.append(
                {
                    "file_id": f"{photo.file_id}-s",
                    "file_unique_id": f"{photo.file_unique_id}-s",
                    "width": max(1, round(photo.width * scale)),
                    "height": max(1, round(photo.height * scale)),
                }
            )
        sizes.append(
            {
                "file_id": photo.file_id,
                "file_unique_id": photo.file_unique_id,
                "width": photo.width,
                "height": photo.height,
                "file_size": len(photo.data),
            }
        )
        return sizes

    def _expose_message(self, message: StoredMessage, *, kind: str = "message") -> None:
        if message.receiver is not None and not message.delivered:
            return  # nobody saw it
        version = message.version
        parts = [version.text or "", version.caption or ""]
        for row in version.keyboard or ():
            for button in row:
                parts.extend(
                    v
                    for v in (
                        button.text,
                        button.callback_data,
                        button.url,
                        button.switch_inline_query,
                        button.switch_inline_query_current_chat,
                        button.web_app,
                    )
                    if v
                )
        shown = "\n".join(parts)
        if message.receiver is not None:
            receiver = message.receiver.id
            self.exposures.append(
                Exposure(
                    self.transcript.position, None, receiver, "ephemeral message", shown, receiver
                )
            )
            return
        self.exposures.append(
            Exposure(self.transcript.position, message.chat.id, None, kind, shown)
        )

    def _text_version(
        self, p: dict[str, Any], key: str, entities_key: str, limit: int, too_long: str
    ) -> tuple[str, tuple[Mapping[str, Any], ...]]:
        text, entities = format_text(p.get(key) or "", p.get("parse_mode"), p.get(entities_key))
        if utf16_len(text) > limit:
            raise bad_request(too_long)
        return text, tuple(entities)

    def _check_markup(
        self, markup: Mapping[str, Any] | None, *, private: bool
    ) -> tuple[tuple[tuple[Button, ...], ...] | None, Mapping[str, Any] | None]:
        """Telegram's rules for inline keyboards (size, callback data, one action each);
        `private`: the message is in a private chat with the bot, the one place a
        `web_app` button is allowed."""
        if not markup or "inline_keyboard" not in markup:
            return None, None
        rows = markup["inline_keyboard"]
        if sum(len(row) for row in rows) > 100 or any(len(row) > 8 for row in rows):
            raise bad_request("reply markup is too long")
        for row in rows:
            for button in row:
                actions = [key for key in _CALLBACK_ACTIONS if key in button]
                if not actions:
                    raise bad_request(
                        "can't parse inline keyboard button: "
                        "Text buttons are unallowed in the inline keyboard"
                    )
                if not button["text"]:
                    raise bad_request("BUTTON_TEXT_INVALID")
                if "callback_data" in button:
                    size = len(button["callback_data"].encode("utf-8"))
                    if not 1 <= size <= 64:
                        raise bad_request("BUTTON_DATA_INVALID")
                if "url" in button and not button["url"].startswith(
                    ("http://", "https://", "tg://")
                ):
                    raise bad_request(
                        f"inline keyboard button URL '{button['url']}' is invalid: Wrong HTTP URL"
                    )
                if "web_app" in button:
                    self._check_web_app(button["web_app"], private=private)
        return keyboard_from_api(markup)

    @staticmethod
    def _check_web_app(web_app: Mapping[str, Any], *, private: bool) -> None:
        """A `web_app` button: an HTTPS URL (HTTP on this machine too, as Telegram's test
        environment allows), in a private chat only (`InlineKeyboardButton.web_app`)."""
        url = web_app.get("url")
        if not isinstance(url, str) or not web_app_url_allowed(url):
            raise bad_request(
                f"inline keyboard button Web App URL '{url}' is invalid: "
                "Only HTTPS links are allowed"
            )
        if not private:
            raise bad_request(BUTTON_TYPE_INVALID)

    @staticmethod
    def _private(where: FakeChat | StoredMessage) -> bool:
        """Whether a chat, or a message, is a private chat with the bot (an inline message
        is not: it goes wherever its sender chose)."""
        if isinstance(where, StoredMessage):
            return not where.via_bot and where.chat.type is ChatType.PRIVATE
        return where.type is ChatType.PRIVATE

    @staticmethod
    def _is_upload(value: Any, files: Mapping[str, UploadedFile]) -> bool:
        """Whether an InputFile-or-String field names a file uploaded with this request."""
        if isinstance(value, str) and value.startswith("attach://"):
            return value.removeprefix("attach://") in files
        return isinstance(value, UploadedFile)

    def _photo_from(self, value: Any, files: Mapping[str, UploadedFile]) -> Photo:
        """The photo an InputFile-or-String field names: an upload or an earlier file_id."""
        if isinstance(value, str) and value.startswith("attach://"):
            name = value.removeprefix("attach://")
            if name not in files:
                raise bad_request(f"file attachment '{name}' not found")
            value = files[name]
        if isinstance(value, UploadedFile):
            return self._upload_photo(value)
        if isinstance(value, str) and value.startswith(("http://", "https://")):
            raise bad_request("failed to get HTTP URL content")
        photo = self.files.get(str(value))
        if photo is None:
            raise bad_request("wrong file identifier/HTTP URL specified")
        return photo

    def _upload_photo(self, upload: UploadedFile) -> Photo:
        if not upload.data:
            # Telegram refuses any empty upload before it looks at what kind of file it is.
            raise bad_request("file must be non-empty")
        if len(upload.data) > MAX_PHOTO_BYTES:
            raise bad_request("file is too big")
        try:
            with Image.open(io.BytesIO(upload.data)) as image:
                image.verify()
            with Image.open(io.BytesIO(upload.data)) as image:
                width, height = image.size
                kind = image.format or "?"
        except Exception:  # Pillow raises many kinds for a bad picture
            raise bad_request("IMAGE_PROCESS_FAILED") from None
        if width + height > 10_000 or max(width, height) > 20 * min(width, height):
            raise bad_request("PHOTO_INVALID_DIMENSIONS")
        number = next(self._file_ids)
        photo = Photo(
            file_id=f"AgACAgIAAxkDAAI{number:08d}fakegram",
            file_unique_id=f"AQAD{number:06d}",
            data=upload.data,
            width=width,
            height=height,
            format=kind,
        )
        self.files[photo.file_id] = photo
        self.files[f"{photo.file_id}-s"] = photo
        return photo

    def _reply_target(
        self, chat: FakeChat, p: dict[str, Any], receiver: FakeUser | None = None
    ) -> StoredMessage | None:
        reply = p.get("reply_parameters")
        if not reply:
            return None
        if reply.get("ephemeral_message_id"):
            # A reply to an ephemeral message must be ephemeral itself, and comes within
            # EPHEMERAL_REPLY_WINDOW seconds of it or not at all.
            found = self._live_ephemeral(chat, reply["ephemeral_message_id"])
            if found is None or self.clock() - found.sent_at > EPHEMERAL_REPLY_WINDOW:
                raise bad_request("message to be replied not found")
            if receiver is None:
                raise bad_request(EPHEMERAL_REPLY_NOT_EPHEMERAL)
            return found
        target = chat.messages.get(reply["message_id"])
        if target is None or target.deleted:
            if reply.get("allow_sending_without_reply"):
                return None
            raise bad_request("message to be replied not found")
        return target

    def _send_thread(
        self, chat: FakeChat, p: dict[str, Any], reply_to: StoredMessage | None
    ) -> int | None:
        """The topic a send goes to: ``message_thread_id``, else the topic of the message it
        replies to, else General (None).

        A closed topic (or closed General) refuses the bot unless it may manage topics (the
        creator, or an administrator with can_manage_topics): Telegram lets only such admins
        write in a closed topic, and tdlib answers anyone else ``TOPIC_CLOSED``."""
        thread_id: int | None = p.get("message_thread_id")
        if thread_id is not None:
            topic = chat.topics.get(thread_id) if chat.forum else None
            if topic is None or topic.deleted:
                raise bad_request(THREAD_NOT_FOUND)
        elif reply_to is not None:
            thread_id = reply_to.thread_id
        if chat.forum:
            closed = chat.topics[thread_id].closed if thread_id is not None else chat.general_closed
            if closed and not self._bot_manages_topics(chat):
                raise bad_request(TOPIC_CLOSED)
        return thread_id

    @staticmethod
    def _bot_manages_topics(chat: FakeChat) -> bool:
        if chat.bot_status is MemberStatus.CREATOR:
            return True
        return chat.bot_status is MemberStatus.ADMINISTRATOR and chat.bot_can_manage_topics

    def _send_message(self, p: dict[str, Any], files: Mapping[str, UploadedFile]) -> Any:
        chat = self._writable_chat(p["chat_id"])
        text, entities = self._text_version(p, "text", "entities", MAX_TEXT, "message is too long")
        if not text:
            raise bad_request("message text is empty")
        keyboard, raw = self._check_markup(p.get("reply_markup"), private=self._private(chat))
        receiver = self._ephemeral_receiver(chat, p)
        reply_to = self._reply_target(chat, p, receiver)
        thread_id = self._send_thread(chat, p, reply_to)
        self._count_flood(chat)
        version = MessageVersion(text, entities, None, (), None, keyboard, raw)
        if receiver is not None:
            message = self._store_ephemeral(chat, receiver, version, reply_to, thread_id)
        else:
            message = self._store(chat, None, version, reply_to=reply_to, thread_id=thread_id)
        self._expose_message(message)
        return self._message_json(message)

    def _send_photo(self, p: dict[str, Any], files: Mapping[str, UploadedFile]) -> Any:
        chat = self._writable_chat(p["chat_id"])
        caption, entities = self._text_version(
            p, "caption", "caption_entities", MAX_CAPTION, "message caption is too long"
        )
        keyboard, raw = self._check_markup(p.get("reply_markup"), private=self._private(chat))
        photo = self._photo_from(p["photo"], files)
        receiver = self._ephemeral_receiver(chat, p)
        reply_to = self._reply_target(chat, p, receiver)
        thread_id = self._send_thread(chat, p, reply_to)
        self._count_flood(chat)
        version = MessageVersion(None, (), caption or None, entities, photo, keyboard, raw)
        if receiver is not None:
            message = self._store_ephemeral(chat, receiver, version, reply_to, thread_id)
        else:
            message = self._store(chat, None, version, reply_to=reply_to, thread_id=thread_id)
        self._expose_message(message)
        return self._message_json(message)

    def _edit_target(self, p: dict[str, Any], missing: str) -> StoredMessage:
        if "ephemeral_message_id" in p:
            chat = self._writable_chat(p["chat_id"])
            found = self._live_ephemeral(chat, p["ephemeral_message_id"])
            if (
                found is None
                or found.receiver is None
                or found.receiver.id != p["receiver_user_id"]
            ):
                raise bad_request(missing)
            return found
        if "inline_message_id" in p:
            found = self._inline_messages.get(p["inline_message_id"])
            if found is None or found.deleted:
                raise bad_request(missing)
            return found
        if "chat_id" not in p:
            raise bad_request("chat_id is empty")
        chat = self._writable_chat(p["chat_id"])
        if "message_id" not in p:
            raise bad_request("message identifier is not specified")
        message = chat.messages.get(p["message_id"])
        if message is None or message.deleted:
            raise bad_request(missing)
        return message

    def _apply_edit(
        self, p: dict[str, Any], message: StoredMessage, version: MessageVersion
    ) -> Any:
        if version == message.version:
            raise bad_request(NOT_MODIFIED)
        if "inline_message_id" not in p:
            self._count_flood(message.chat)
        message.history.append(message.version)
        message.version = version
        message.edit_date = self._now()
        self._expose_message(message)
        if "inline_message_id" in p or message.ephemeral:
            return True
        return self._message_json(message)

    def _editable(self, p: dict[str, Any]) -> StoredMessage:
        message = self._edit_target(p, "message to edit not found")
        if not message.from_bot and not message.via_bot:
            raise bad_request("message can't be edited")
        return message

    def _edit_message_text(self, p: dict[str, Any], files: Mapping[str, UploadedFile]) -> Any:
        message = self._editable(p)
        if message.version.text is None:
            raise bad_request("there is no text in the message to edit")
        text, entities = self._text_version(p, "text", "entities", MAX_TEXT, "message is too long")
        if not text:
            raise bad_request("message text is empty")
        keyboard, raw = self._check_markup(p.get("reply_markup"), private=self._private(message))
        old = message.version
        return self._apply_edit(
            p, message, MessageVersion(text, entities, None, (), old.photo, keyboard, raw)
        )

    def _edit_message_caption(self, p: dict[str, Any], files: Mapping[str, UploadedFile]) -> Any:
        message = self._editable(p)
        if message.version.photo is None:
            raise bad_request("there is no caption in the message to edit")
        caption, entities = self._text_version(
            p, "caption", "caption_entities", MAX_CAPTION, "message caption is too long"
        )
        keyboard, raw = self._check_markup(p.get("reply_markup"), private=self._private(message))
        old = message.version
        return self._apply_edit(
            p,
            message,
            MessageVersion(None, (), caption or None, entities, old.photo, keyboard, raw),
        )

    def _edit_message_media(self, p: dict[str, Any], files: Mapping[str, UploadedFile]) -> Any:
        message = self._editable(p)
        media = p["media"]
        if media.get("type") != "photo":
            raise bad_request(f"fakegram models photo media only, got {media.get('type')!r}")
        if "inline_message_id" in p and self._is_upload(media["media"], files):
            # "When an inline message is edited, a new file can't be uploaded" (api.json);
            # tdlib refuses it in these words.
            raise bad_request("invalid message content specified")
        # A text message may become a photo (api.json: "or to replace a text or a rich message
        # with a media"): its text and entities go, the new caption comes with the picture.
        photo = self._photo_from(media["media"], files)
        caption, entities = self._text_version(
            media, "caption", "caption_entities", MAX_CAPTION, "message caption is too long"
        )
        keyboard, raw = self._check_markup(p.get("reply_markup"), private=self._private(message))
        return self._apply_edit(
            p,
            message,
            MessageVersion(None, (), caption or None, entities, photo, keyboard, raw),
        )

    def _edit_message_reply_markup(
        self, p: dict[str, Any], files: Mapping[str, UploadedFile]
    ) -> Any:
        message = self._editable(p)
        keyboard, raw = self._check_markup(p.get("reply_markup"), private=self._private(message))
        old = message.version
        return self._apply_edit(
            p,
            message,
            MessageVersion(
                old.text, old.entities, old.caption, old.caption_entities, old.photo, keyboard, raw
            ),
        )

    def _delete_message(self, p: dict[str, Any], files: Mapping[str, UploadedFile]) -> bool:
        chat = self._writable_chat(p["chat_id"])
        message = chat.messages.get(p["message_id"])
        if message is None or message.deleted:
            raise bad_request("message to delete not found")
        bot_is_admin = chat.bot_status in (MemberStatus.ADMINISTRATOR, MemberStatus.CREATOR)
        if not message.from_bot and chat.type is not ChatType.PRIVATE and not bot_is_admin:
            raise bad_request("message can't be deleted")
        message.deleted = True
        message.pinned = False
        return True

    def _delete_ephemeral_message(
        self, p: dict[str, Any], files: Mapping[str, UploadedFile]
    ) -> bool:
        message = self._edit_target(p, "message to delete not found")
        message.deleted = True
        del message.chat.ephemeral[p["ephemeral_message_id"]]
        return True

    # -------------------------------------------------------------- answers

    def _answer_callback_query(self, p: dict[str, Any], files: Mapping[str, UploadedFile]) -> bool:
        pending = self._pending_callbacks.get(p["callback_query_id"])
        if pending is None or self.clock() - pending.created > self.callback_timeout:
            raise bad_request(QUERY_TOO_OLD)
        text = p.get("text")
        if text is not None and utf16_len(text) > 200:
            raise bad_request("MESSAGE_TOO_LONG")
        url = p.get("url")
        if url is not None and not url.startswith(
            (f"https://t.me/{self.bot_username}", f"t.me/{self.bot_username}")
        ):
            raise bad_request("URL_INVALID")
        del self._pending_callbacks[pending.id]
        if pending.taken is not None:
            self.press_times.append((pending.created, pending.taken, self.clock()))
        answer = CallbackAnswer(True, text, bool(p.get("show_alert")), url)
        if not pending.future.done():
            pending.future.set_result(answer)
        shown = "\n".join(v for v in (text, url) if v)
        self.exposures.append(
            Exposure(self.transcript.position, None, pending.user.id, "callback answer", shown)
        )
        return True

    def _answer_inline_query(self, p: dict[str, Any], files: Mapping[str, UploadedFile]) -> bool:
        pending = self._pending_inline.get(p["inline_query_id"])
        if pending is None or self.clock() - pending.created > self.inline_timeout:
            raise bad_request(QUERY_TOO_OLD)
        results = p["results"]
        if len(results) > 50:
            raise bad_request("RESULTS_TOO_MUCH")
        seen: set[str] = set()
        for result in results:
            if not 1 <= len(result["id"].encode()) <= 64:
                raise bad_request("RESULT_ID_INVALID")
            if result["id"] in seen:
                raise bad_request("RESULT_ID_DUPLICATE")
            seen.add(result["id"])
            self._check_markup(result.get("reply_markup"), private=False)  # sent anywhere
        del self._pending_inline[pending.id]
        answer = InlineAnswer(
            pending.id,
            pending.query,
            tuple(results),
            bool(p.get("is_personal")),
            p.get("cache_time"),
            p.get("next_offset"),
        )
        if not pending.future.done():
            pending.future.set_result(answer)
        self.exposures.append(
            Exposure(
                self.transcript.position,
                None,
                pending.user.id,
                "inline results",
                json.dumps(results, ensure_ascii=False),
            )
        )
        return True

    # -------------------------------------------------------------- bot settings

    def _get_me(self, p: dict[str, Any], files: Mapping[str, UploadedFile]) -> Any:
        return {
            **self.bot_user(),
            "can_join_groups": True,
            "can_read_all_group_messages": not self.privacy_mode,
            "supports_inline_queries": True,
        }

    @staticmethod
    def _scope_key(p: dict[str, Any]) -> str:
        scope = p.get("scope") or {"type": "default"}
        return json.dumps([scope, p.get("language_code") or ""], sort_keys=True)

    def _set_my_commands(self, p: dict[str, Any], files: Mapping[str, UploadedFile]) -> bool:
        commands = p["commands"]
        if len(commands) > 100:
            raise bad_request("too many commands")
        for command in commands:
            if not _COMMAND.fullmatch(command["command"]):
                raise bad_request("BOT_COMMAND_INVALID")
            if not 1 <= len(command["description"]) <= 256:
                raise bad_request("command description must be 1-256 characters")
        self.commands[self._scope_key(p)] = [dict(c) for c in commands]
        return True

    def _get_my_commands(self, p: dict[str, Any], files: Mapping[str, UploadedFile]) -> Any:
        return self.commands.get(self._scope_key(p), [])

    def _delete_my_commands(self, p: dict[str, Any], files: Mapping[str, UploadedFile]) -> bool:
        self.commands.pop(self._scope_key(p), None)
        return True

    def commands_for(self, scope: str = "default", language_code: str = "") -> list[str]:
        """Command names set for a scope type, e.g. ``commands_for("all_group_chats")``."""
        key = json.dumps([{"type": scope}, language_code], sort_keys=True)
        return [c["command"] for c in self.commands.get(key, [])]

    # -------------------------------------------------------------- chats

    def _get_chat(self, p: dict[str, Any], files: Mapping[str, UploadedFile]) -> Any:
        chat = self._readable_chat(p["chat_id"])
        info = {
            **chat.to_api(),
            "accent_color_id": 0,
            "max_reaction_count": 11,
            "accepted_gift_types": {
                "unlimited_gifts": True,
                "limited_gifts": True,
                "unique_gifts": True,
                "premium_subscription": True,
                "gifts_from_channels": True,
            },
        }
        pinned = chat.pinned
        if pinned:
            info["pinned_message"] = self._message_json(pinned[-1])
        return info

    def _member_json(
        self, user: dict[str, Any], status: MemberStatus, chat: FakeChat | None = None
    ) -> dict[str, Any]:
        """A ``ChatMember``; in a supergroup an administrator's ``can_manage_topics`` too
        (the bot's as ``chat.bot_can_manage_topics`` says, a person's always)."""
        if status is MemberStatus.CREATOR:
            return {"status": "creator", "user": user, "is_anonymous": False}
        if status is MemberStatus.ADMINISTRATOR:
            rights = (
                "can_be_edited",
                "is_anonymous",
                "can_manage_chat",
                "can_delete_messages",
                "can_manage_video_chats",
                "can_restrict_members",
                "can_promote_members",
                "can_change_info",
                "can_invite_users",
                "can_post_stories",
                "can_edit_stories",
                "can_delete_stories",
            )
            member: dict[str, Any] = {"status": "administrator", "user": user}
            member.update({right: right != "is_anonymous" for right in rights})
            member["can_be_edited"] = False
            member["can_send_welcome_messages"] = False
            member["can_pin_messages"] = True
            if chat is not None and chat.type is ChatType.SUPERGROUP:
                is_bot = user["id"] == self.bot_id
                member["can_manage_topics"] = chat.bot_can_manage_topics if is_bot else True
            return member
        if status is MemberStatus.KICKED:
            return {"status": "kicked", "user": user, "until_date": 0}
        return {"status": status.value, "user": user}

    def _get_chat_member(self, p: dict[str, Any], files: Mapping[str, UploadedFile]) -> Any:
        chat = self._readable_chat(p["chat_id"])
        user_id = p["user_id"]
        if user_id == self.bot_id:
            blocked = chat.user is not None and chat.user.blocked
            status = MemberStatus.KICKED if blocked else chat.bot_status
            return self._member_json(self.bot_user(), status, chat)
        user = self.users.get(user_id)
        if user is None:
            raise bad_request("user not found")
        return self._member_json(user.to_api(), chat.members.get(user_id, MemberStatus.LEFT), chat)

    def _get_chat_administrators(self, p: dict[str, Any], files: Mapping[str, UploadedFile]) -> Any:
        chat = self._readable_chat(p["chat_id"])
        if chat.type is ChatType.PRIVATE:
            raise bad_request("there are no administrators in the private chat")
        found = [
            self._member_json(self.users[uid].to_api(), chat.members[uid], chat)
            for uid in chat.member_ids(admins_only=True)
        ]
        if chat.bot_status in (MemberStatus.ADMINISTRATOR, MemberStatus.CREATOR):
            found.append(self._member_json(self.bot_user(), chat.bot_status, chat))
        return found

    def _pin_chat_message(self, p: dict[str, Any], files: Mapping[str, UploadedFile]) -> bool:
        chat = self._writable_chat(p["chat_id"])
        if chat.type is not ChatType.PRIVATE and chat.bot_status is MemberStatus.MEMBER:
            raise bad_request("not enough rights to manage pinned messages in the chat")
        message = chat.messages.get(p["message_id"])
        if message is None or message.deleted:
            raise bad_request("message to pin not found")
        message.pinned = True
        return True

    def _unpin_chat_message(self, p: dict[str, Any], files: Mapping[str, UploadedFile]) -> bool:
        chat = self._writable_chat(p["chat_id"])
        if chat.type is not ChatType.PRIVATE and chat.bot_status is MemberStatus.MEMBER:
            raise bad_request("not enough rights to manage pinned messages in the chat")
        pinned = chat.pinned
        if "message_id" in p:
            target = chat.messages.get(p["message_id"])
            if target is None or target.deleted:
                raise bad_request("message to unpin not found")
            target.pinned = False
        elif pinned:
            pinned[-1].pinned = False
        return True

    def _send_chat_action(self, p: dict[str, Any], files: Mapping[str, UploadedFile]) -> bool:
        chat = self._writable_chat(p["chat_id"])
        if p["action"] not in _CHAT_ACTIONS:
            raise bad_request("wrong parameter action in request")
        self._send_thread(chat, p, None)
        return True

    def _leave_chat(self, p: dict[str, Any], files: Mapping[str, UploadedFile]) -> bool:
        chat = self._find_chat(p["chat_id"])
        if chat.type is ChatType.PRIVATE:
            raise bad_request("chat member status can't be changed in private chats")
        self._writable_chat(p["chat_id"])
        old = chat.bot_status
        chat.bot_status = MemberStatus.LEFT
        self._push(
            "my_chat_member",
            {
                "chat": chat.to_api(),
                "from": self.bot_user(),
                "date": self._now(),
                "old_chat_member": self._member_json(self.bot_user(), old, chat),
                "new_chat_member": self._member_json(self.bot_user(), MemberStatus.LEFT, chat),
            },
        )
        return True

    # -------------------------------------------------------------- forum topics

    def _forum(self, p: dict[str, Any]) -> FakeChat:
        chat = self._writable_chat(p["chat_id"])
        if not chat.forum:
            raise bad_request(NOT_A_FORUM)
        return chat

    def _managed_topic(self, chat: FakeChat, p: dict[str, Any], refused: str) -> ForumTopic:
        """The live topic ``message_thread_id`` names, if the bot may manage it (it may
        manage topics, or it created this one); ``refused`` is the error otherwise."""
        topic = chat.topics.get(p["message_thread_id"])
        if topic is None or topic.deleted:
            raise bad_request(TOPIC_ID_INVALID)
        if not self._bot_manages_topics(chat) and topic.creator is not None:
            raise bad_request(refused)
        return topic

    def _manage_general(self, p: dict[str, Any]) -> FakeChat:
        chat = self._forum(p)
        if not self._bot_manages_topics(chat):
            raise bad_request("not enough rights to close or open the topic")
        return chat

    def _bot_service(
        self, chat: FakeChat, service: dict[str, Any], thread_id: int | None = None
    ) -> None:
        """A service message of the bot's own doing: stored, never an update to the bot."""
        message = self._store(chat, None, _EMPTY, thread_id=thread_id)
        message.service = service

    @staticmethod
    def _topic_name(raw: str) -> str:
        return raw.strip()[:MAX_TOPIC_NAME]

    def _create_forum_topic(self, p: dict[str, Any], files: Mapping[str, UploadedFile]) -> Any:
        chat = self._forum(p)
        if not self._bot_manages_topics(chat):
            raise bad_request("not enough rights to create a topic")
        name = self._topic_name(p["name"])
        if not name:
            raise bad_request(TOPIC_TITLE_EMPTY)
        color = p.get("icon_color", TOPIC_ICON_COLORS[0])
        if color not in TOPIC_ICON_COLORS:
            # The Bot API allows only these six; tdlib's words for a bad colour.
            raise bad_request("invalid icon color specified")
        self._count_flood(chat)
        topic = self._open_topic(chat, None, name, color, p.get("icon_custom_emoji_id"))
        return topic.to_api()

    def _edit_forum_topic(self, p: dict[str, Any], files: Mapping[str, UploadedFile]) -> bool:
        chat = self._forum(p)
        topic = self._managed_topic(chat, p, "not enough rights to edit the topic")
        edited: dict[str, Any] = {}
        # An empty name leaves the name as it is (tdlib); "" removes the icon.
        name = self._topic_name(p.get("name") or "")
        if name and name != topic.name:
            edited["name"] = name
        emoji = p.get("icon_custom_emoji_id")
        if emoji is not None and (emoji or None) != topic.icon_custom_emoji_id:
            edited["icon_custom_emoji_id"] = emoji
        if not edited:
            if name or emoji is not None:
                raise bad_request(TOPIC_NOT_MODIFIED)
            return True
        topic.name = edited.get("name", topic.name)
        if "icon_custom_emoji_id" in edited:
            topic.icon_custom_emoji_id = emoji or None
        self._bot_service(chat, {"forum_topic_edited": edited}, topic.thread_id)
        return True

    def _toggle_topic(self, p: dict[str, Any], closed: bool) -> bool:
        chat = self._forum(p)
        topic = self._managed_topic(chat, p, "not enough rights to close or open the topic")
        if topic.closed == closed:
            raise bad_request(TOPIC_NOT_MODIFIED)
        topic.closed = closed
        kind = "forum_topic_closed" if closed else "forum_topic_reopened"
        self._bot_service(chat, {kind: {}}, topic.thread_id)
        return True

    def _close_forum_topic(self, p: dict[str, Any], files: Mapping[str, UploadedFile]) -> bool:
        return self._toggle_topic(p, closed=True)

    def _reopen_forum_topic(self, p: dict[str, Any], files: Mapping[str, UploadedFile]) -> bool:
        return self._toggle_topic(p, closed=False)

    def _delete_forum_topic(self, p: dict[str, Any], files: Mapping[str, UploadedFile]) -> bool:
        chat = self._forum(p)
        topic = chat.topics.get(p["message_thread_id"])
        if topic is None or topic.deleted:
            raise bad_request(TOPIC_ID_INVALID)
        # can_delete_messages: every administrator the fake models has it.
        bot_is_admin = chat.bot_status in (MemberStatus.ADMINISTRATOR, MemberStatus.CREATOR)
        if not bot_is_admin and topic.creator is not None:
            raise bad_request("not enough rights to delete the topic")
        self._erase_topic(topic)
        return True

    def _unpin_all_in(self, p: dict[str, Any], thread_id: int | None) -> bool:
        chat = self._forum(p)
        if chat.bot_status is MemberStatus.MEMBER:
            raise bad_request("not enough rights to manage pinned messages in the chat")
        for message in chat.topic_messages(thread_id):
            message.pinned = False
        return True

    def _unpin_all_forum_topic_messages(
        self, p: dict[str, Any], files: Mapping[str, UploadedFile]
    ) -> bool:
        topic = self._forum(p).topics.get(p["message_thread_id"])
        if topic is None or topic.deleted:
            raise bad_request(TOPIC_ID_INVALID)
        return self._unpin_all_in(p, topic.thread_id)

    def _unpin_all_general_forum_topic_messages(
        self, p: dict[str, Any], files: Mapping[str, UploadedFile]
    ) -> bool:
        return self._unpin_all_in(p, None)

    def _edit_general_forum_topic(
        self, p: dict[str, Any], files: Mapping[str, UploadedFile]
    ) -> bool:
        chat = self._forum(p)
        if not self._bot_manages_topics(chat):
            raise bad_request("not enough rights to edit the topic")
        name = self._topic_name(p["name"])
        if not name:
            raise bad_request(TOPIC_TITLE_EMPTY)
        if name == chat.general_name:
            raise bad_request(TOPIC_NOT_MODIFIED)
        chat.general_name = name
        self._bot_service(chat, {"forum_topic_edited": {"name": name}})
        return True

    def _toggle_general(self, p: dict[str, Any], closed: bool) -> bool:
        chat = self._manage_general(p)
        if chat.general_closed == closed:
            raise bad_request(TOPIC_NOT_MODIFIED)
        chat.general_closed = closed
        kind = "forum_topic_closed" if closed else "forum_topic_reopened"
        self._bot_service(chat, {kind: {}})
        return True

    def _close_general_forum_topic(
        self, p: dict[str, Any], files: Mapping[str, UploadedFile]
    ) -> bool:
        return self._toggle_general(p, closed=True)

    def _reopen_general_forum_topic(
        self, p: dict[str, Any], files: Mapping[str, UploadedFile]
    ) -> bool:
        return self._toggle_general(p, closed=False)

    def _hide_general_forum_topic(
        self, p: dict[str, Any], files: Mapping[str, UploadedFile]
    ) -> bool:
        """Hidden General is closed too, if it was open (api.json); unhiding leaves it so."""
        chat = self._manage_general(p)
        if chat.general_hidden:
            raise bad_request(TOPIC_NOT_MODIFIED)
        chat.general_hidden = True
        chat.general_closed = True
        self._bot_service(chat, {"general_forum_topic_hidden": {}})
        return True

    def _unhide_general_forum_topic(
        self, p: dict[str, Any], files: Mapping[str, UploadedFile]
    ) -> bool:
        chat = self._manage_general(p)
        if not chat.general_hidden:
            raise bad_request(TOPIC_NOT_MODIFIED)
        chat.general_hidden = False
        self._bot_service(chat, {"general_forum_topic_unhidden": {}})
        return True

    def _get_forum_topic_icon_stickers(
        self, p: dict[str, Any], files: Mapping[str, UploadedFile]
    ) -> Any:
        return [
            {
                "file_id": f"CAACAgIAAxUAAfakegram{emoji_id}",
                "file_unique_id": f"AgAD{emoji_id[-6:]}",
                "type": "custom_emoji",
                "width": 100,
                "height": 100,
                "is_animated": False,
                "is_video": False,
                "emoji": emoji,
                "set_name": "Topics",
                "custom_emoji_id": emoji_id,
            }
            for emoji_id, emoji in TOPIC_ICON_EMOJI
        ]


_EMPTY = MessageVersion(None, (), None, (), None, None, None)


def _is_int(text: str) -> bool:
    return bool(re.fullmatch(r"-?\d+", text.strip()))


def _order_key(update: dict[str, Any]) -> Hashable:
    """Whose updates the webhook delivers one at a time, in order: the chat's (a message,
    a member change, a press on a message), else the sender's (an inline query, a press
    on an inline message), else nobody's."""
    body = next((value for key, value in update.items() if key != "update_id"), None)
    if isinstance(body, dict):
        message = body.get("message")
        for holder in (body, message if isinstance(message, dict) else {}):
            chat = holder.get("chat")
            if isinstance(chat, dict) and isinstance(chat.get("id"), int):
                return ("chat", chat["id"])
        sender = body.get("from")
        if isinstance(sender, dict) and isinstance(sender.get("id"), int):
            return ("user", sender["id"])
    return ("update", update["update_id"])
