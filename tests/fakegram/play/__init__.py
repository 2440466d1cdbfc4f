"""The play page: the fake's chats in a browser, for playing by hand.

``python3 tasks.py demo`` serves it (``tests/e2e/demo.py``: the fake, this page and the
bot as a process); ``python -m tests.fakegram --play`` serves it over the fake alone.
It is a local developer's tool that shows what every person's Telegram client would
show, side by side, like sitting with every phone at once: the groups and each person's
private chat with the bot, pictures, captions, inline keyboards, edits in place, answers
to presses as toasts and alerts. Nothing the clients would not show is sent to the page:
no callback data (a button is pressed by its place in the version of the message the page
showed, as a client that has not refreshed sends the button it shows), no transcript.

An ephemeral message (Bot API 10.3: in a group, for one member alone) comes with its
``receiver`` and ``ephemeral_id``; the page draws it only while that person is the one
acting in the groups («I am»), and only they may press its buttons. Its ``key``
(``e<ephemeral_id>``; an ordinary message's is its id) names it on the page, and
``after`` is the id of the chat's last message before it, where the page puts it. An
ephemeral message that expires or is deleted comes as deleted.

Routes (only on a fake started with ``routes=PlayPage(fake).attach``; every one answers
only a browser on the same machine, and only a page of its own host):

- ``GET /play/``, ``/play/app.js``, ``/play/style.css``: the page, plain HTML and JS
  (``GET /`` and ``GET /play`` lead to it: the demo prints the page's address, but the
  fake's bare address is what a person tries first);
- ``GET /play/events``: server-sent events: ``reset`` (everything, on each connection),
  then ``people`` (who is there, their language, Start, block, membership) and
  ``message`` (a message new, edited, pinned or deleted, ephemeral ones too) as they
  happen;
- ``GET /play/file/{file_id}``: a picture the bot sent;
- ``POST /play/api/{action}`` with a JSON body, acting as a person: ``send`` (text or a
  command; ``/start PAYLOAD`` in a private chat presses Start), ``press`` (``chat``,
  ``message`` or, for an ephemeral message, ``ephemeral``, then ``version``, ``row``,
  ``column``: answers with the bot's answer to the press), ``open_app`` (below),
  ``add_person``, ``leave`` / ``join`` (a group), ``block``, ``language``.

Mini Apps (`tests.fakegram.webapp`): a ``web_app`` button, and a URL button or a link
holding a direct link to one of the bot's apps (``t.me/<bot>/<short name>?startapp=``,
registered with ``fake.add_web_app``), open the app beside the chats in a phone-sized
panel (390 px wide, a close button), as the person acting: ``open_app`` takes the button
as ``press`` does, or ``link`` (and the ``chat`` it was tapped in), and answers with the
page's URL and its launch fragment, its ``initData`` signed here (the browser never sees
the bot's token). The panel speaks the web client's side of Telegram's Mini App events
(``postMessage`` of ``{eventType, eventData}`` as JSON): ``web_app_ready``,
``web_app_expand``, ``web_app_close``, ``web_app_setup_back_button`` (the back button in
the panel's head posts ``back_button_pressed``), ``web_app_setup_main_button``
(``main_button_pressed``), ``web_app_request_theme`` / ``web_app_request_viewport``
(answered ``theme_changed`` / ``viewport_changed``), ``web_app_open_popup``
(``popup_closed``), ``web_app_open_tg_link`` (a link to the bot's private chat opens that
chat, a direct link another app), ``web_app_open_link``; haptic feedback, colours,
closing and swipe behaviour are no-ops.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import re
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

from aiohttp import web

from ..server import FakeTelegram
from ..webapp import THEME
from ..world import Button, ChatType, FakeChat, FakeUser, MemberStatus, StoredMessage

HERE = Path(__file__).resolve().parent
ASSETS = {
    "index.html": "text/html",
    "app.js": "text/javascript",
    "style.css": "text/css",
}
KEEPALIVE_SECONDS = 15.0
LANGUAGE = re.compile(r"[a-z]{2,3}")
MAX_NAME = 64

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
Json = dict[str, Any]
Mark = tuple[int, bool, bool]  # a message's edits, deletion and pin, as last shown


class Refused(Exception):
    """An action the page asked for that cannot be done; the text says why."""


def _local(handler: Handler) -> Handler:
    """Answer only a browser on this machine, and only for a page of this host: the fake
    is bound to 127.0.0.1, and a foreign page (a link elsewhere, a renamed host) must not
    act as the people either."""

    async def checked(request: web.Request) -> web.StreamResponse:
        try:
            remote = ipaddress.ip_address(request.remote or "")
        except ValueError:
            raise web.HTTPForbidden(text="the play page serves this machine only") from None
        host = (request.host or "").rsplit(":", 1)[0].strip("[]")
        if not remote.is_loopback or host not in ("127.0.0.1", "localhost", "::1"):
            raise web.HTTPForbidden(text="the play page serves this machine only")
        if request.method == "POST" and request.content_type != "application/json":
            raise web.HTTPUnsupportedMediaType(text="send JSON")
        return await handler(request)

    return checked


class PlayPage:
    """The page's routes over one fake."""

    def __init__(self, fake: FakeTelegram) -> None:
        self.fake = fake
        self._closing = False

    def attach(self, app: web.Application) -> None:
        app.router.add_get("/", _local(self._redirect))
        app.router.add_get("/play", _local(self._redirect))
        app.router.add_get("/play/", _local(self._index))
        app.router.add_get("/play/{asset:app\\.js|style\\.css}", _local(self._asset))
        app.router.add_get("/play/events", _local(self._events))
        app.router.add_get("/play/file/{file_id}", _local(self._file))
        app.router.add_post("/play/api/{action}", _local(self._act))
        app.on_shutdown.append(self._shutdown)

    async def _shutdown(self, app: web.Application) -> None:
        # Open event streams end now, or the server's stop would wait for them.
        self._closing = True

    # ------------------------------------------------------------------ assets

    async def _redirect(self, request: web.Request) -> web.StreamResponse:
        raise web.HTTPFound("/play/")

    async def _index(self, request: web.Request) -> web.StreamResponse:
        return self._serve("index.html")

    async def _asset(self, request: web.Request) -> web.StreamResponse:
        return self._serve(request.match_info["asset"])

    @staticmethod
    def _serve(name: str) -> web.Response:
        return web.Response(
            body=(HERE / name).read_bytes(),
            content_type=ASSETS[name],
            charset="utf-8",
            headers={"Cache-Control": "no-cache"},
        )

    async def _file(self, request: web.Request) -> web.StreamResponse:
        photo = self.fake.files.get(request.match_info["file_id"])
        if photo is None:
            raise web.HTTPNotFound(text="no such file")
        return web.Response(
            body=photo.data,
            content_type=f"image/{photo.format.lower()}",
            headers={"Cache-Control": "max-age=86400, immutable"},
        )

    # ------------------------------------------------------------------ events

    async def _events(self, request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}
        )
        await response.prepare(request)
        watch = Watch(self.fake)
        pending: list[tuple[str, Json]] = [("reset", watch.reset())]

        def ready() -> bool:
            pending.extend(watch.changes())
            return bool(pending) or self._closing

        with contextlib.suppress(ConnectionError):  # the page was closed
            while not self._closing:
                if not pending and not await self.fake.poll(ready, KEEPALIVE_SECONDS):
                    await response.write(b": keep-alive\n\n")
                    continue
                for kind, body in pending:
                    data = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
                    await response.write(f"event: {kind}\ndata: {data}\n\n".encode())
                pending.clear()
        return response

    # ------------------------------------------------------------------ actions

    async def _act(self, request: web.Request) -> web.StreamResponse:
        actions: dict[str, Callable[[Json], Awaitable[Json]]] = {
            "send": self.send,
            "press": self.press,
            "open_app": self.open_app,
            "add_person": self.add_person,
            "leave": self.leave,
            "join": self.join,
            "block": self.block,
            "language": self.language,
        }
        action = actions.get(request.match_info["action"])
        if action is None:
            raise web.HTTPNotFound(text="no such action")
        try:
            body = await request.json()
        except ValueError:
            return web.json_response({"error": "the body is not JSON"}, status=400)
        if not isinstance(body, dict):
            return web.json_response({"error": "the body is not a JSON object"}, status=400)
        try:
            return web.json_response(await action(body))
        except (Refused, ValueError, LookupError, RuntimeError) as refused:
            return web.json_response({"error": str(refused)}, status=400)

    def _person(self, body: Json) -> FakeUser:
        user = self.fake.users.get(_number(body, "user"))
        if user is None:
            raise Refused("no such person")
        return user

    def _chat(self, body: Json) -> FakeChat:
        number = _number(body, "chat")
        chat = self.fake.chats.get(number)
        if chat is None and number in self.fake.users:
            # A private chat is there for the client before anything is written in it.
            chat = self.fake.private_chat(self.fake.users[number])
        if chat is None:
            raise Refused("no such chat")
        return chat

    async def send(self, body: Json) -> Json:
        """A person writes in a chat; ``/start [payload]`` in their private chat presses
        Start (and unblocks the bot, as the client's Start button does)."""
        user, chat = self._person(body), self._chat(body)
        text = body.get("text")
        if not isinstance(text, str) or not text.strip():
            raise Refused("write something first")
        text = text.strip()
        if chat.type is ChatType.PRIVATE and chat.user is user and re.match(r"/start\b", text):
            payload = text[len("/start") :].strip() or None
            message = await user.start(payload)
        elif chat.type is ChatType.PRIVATE and user.blocked:
            raise Refused(f"{user.first_name} has blocked the bot: RESTART unblocks it")
        else:
            message = await user.send(chat, text)
        return {"message": message.message_id}

    async def press(self, body: Json) -> Json:
        """A person presses the button at ``row``, ``column`` of the version of a message
        the page showed; the answer is the bot's answer to the press (or none in time)."""
        user, chat = self._person(body), self._chat(body)
        message = self._pressed(user, chat, body)
        button = self._button(message, body)
        if button.callback_data is None:
            raise Refused("this button is not pressed through the bot")
        answer = await user.press(
            message, data=button.callback_data, stale=True, timeout=self.fake.callback_timeout
        )
        return {
            "answered": answer.answered,
            "text": answer.text,
            "show_alert": answer.show_alert,
            "url": answer.url,
        }

    @staticmethod
    def _button(message: StoredMessage, body: Json) -> Button:
        """The button at ``row``, ``column`` of the ``version`` of `message` the page showed."""
        versions = [*message.history, message.version]
        version = _number(body, "version")
        if not 0 <= version < len(versions):
            raise Refused("no such version of the message")
        keyboard = versions[version].keyboard or ()
        row, column = _number(body, "row"), _number(body, "column")
        if not (0 <= row < len(keyboard) and 0 <= column < len(keyboard[row])):
            raise Refused("no such button")
        return keyboard[row][column]

    async def open_app(self, body: Json) -> Json:
        """A person opens the bot's Mini App: from a message's button (named as ``press``
        names it), or from ``link`` tapped in ``chat`` (none: outside any chat). The
        answer is what the panel loads: the app's page with its launch fragment."""
        user = self._person(body)
        if "link" in body:
            link = body["link"]
            if not isinstance(link, str):
                raise Refused("link is the URL the person tapped")
            chat = self._chat(body) if "chat" in body else None
            launch = self.fake.open_web_app(user, link, chat=chat)
        else:
            chat = self._chat(body)
            message = self._pressed(user, chat, body)
            button = self._button(message, body)
            launch = self.fake.user_opens_web_app_button(user, message, button)
        return {
            "url": launch.url,
            "title": self.fake.bot_name,
            "theme": THEME,
            "start_param": launch.start_param,
        }

    def _pressed(self, user: FakeUser, chat: FakeChat, body: Json) -> StoredMessage:
        """The message a press names: ``message`` (its id) or ``ephemeral`` (its
        ``ephemeral_id``: a live one, which only its receiver sees and presses)."""
        if "ephemeral" not in body:
            message = chat.messages.get(_number(body, "message"))
            if message is None:
                raise Refused("no such message")
            return message
        number = _number(body, "ephemeral")
        self.fake.expire_ephemeral(chat)
        message = chat.ephemeral.get(number)
        if message is None or message.deleted or not message.delivered:
            raise Refused("no such message: it has expired or was deleted")
        if message.receiver is not user:
            raise Refused(f"{user.first_name} does not see this message: only its receiver does")
        return message

    async def add_person(self, body: Json) -> Json:
        """A new person, in every group (they have not pressed Start yet)."""
        name = body.get("name")
        if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_NAME:
            raise Refused(f"a name is 1 to {MAX_NAME} characters")
        user = self.fake.add_user(name.strip(), language_code=_language(body))
        for chat in list(self.fake.chats.values()):
            if chat.type is not ChatType.PRIVATE and chat.migrated_to is None:
                await user.join(chat)
        return {"user": user.id}

    async def leave(self, body: Json) -> Json:
        user, chat = self._person(body), self._chat(body)
        if not chat.members.get(user.id, MemberStatus.LEFT).present:
            raise Refused(f"{user.first_name} is not in {chat.title}")
        await user.leave(chat)
        return {}

    async def join(self, body: Json) -> Json:
        user, chat = self._person(body), self._chat(body)
        if chat.type is ChatType.PRIVATE:
            raise Refused("join a group, not a private chat")
        if chat.members.get(user.id, MemberStatus.LEFT).present:
            raise Refused(f"{user.first_name} is already in {chat.title}")
        await user.join(chat)
        return {}

    async def block(self, body: Json) -> Json:
        user = self._person(body)
        blocked = body.get("blocked")
        if not isinstance(blocked, bool):
            raise Refused("blocked is true or false")
        await (user.block() if blocked else user.unblock())
        return {}

    async def language(self, body: Json) -> Json:
        """The person's client language: the bot sees it in their next update."""
        self._person(body).language_code = _language(body)
        return {}  # the event streams see it at their next look (`wait_for` looks often)


def _number(body: Json, key: str) -> int:
    value = body.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise Refused(f"{key} must be a number")
    return value


def _language(body: Json) -> str:
    value = body.get("lang", "ru")
    if not isinstance(value, str) or not LANGUAGE.fullmatch(value):
        raise Refused("lang is a language code such as ru or en")
    return value


class Watch:
    """What one page has been shown, to send it only what changed since."""

    def __init__(self, fake: FakeTelegram) -> None:
        self.fake = fake
        self.people: Json | None = None
        self.shown: dict[tuple[int, int], Mark] = {}
        # Live ephemeral messages shown, by (chat, ephemeral_id): the message itself, as
        # a freed id is given to the next one, and its mark.
        self.shown_ephemeral: dict[tuple[int, int], tuple[StoredMessage, Mark]] = {}

    def reset(self) -> Json:
        self.people = people_json(self.fake)
        self.shown.clear()
        self.shown_ephemeral.clear()
        messages = []
        for message in self._messages():
            self.shown[(message.chat.id, message.message_id)] = _mark(message)
            if not message.deleted:
                messages.append(message_json(message))
        for key, message in self._ephemeral().items():
            self.shown_ephemeral[key] = (message, _mark(message))
            messages.append(message_json(message))
        return {**self.people, "messages": messages}

    def changes(self) -> list[tuple[str, Json]]:
        found: list[tuple[str, Json]] = []
        people = people_json(self.fake)
        if people != self.people:
            self.people = people
            found.append(("people", people))
        for message in self._messages():
            key, mark = (message.chat.id, message.message_id), _mark(message)
            if self.shown.get(key) != mark:
                self.shown[key] = mark
                found.append(("message", message_json(message)))
        live = self._ephemeral()
        for key, (message, _) in list(self.shown_ephemeral.items()):
            if live.get(key) is not message:  # expired or deleted (its id may be reused)
                del self.shown_ephemeral[key]
                found.append(("message", {**message_json(message), "deleted": True}))
        for key, message in live.items():
            mark = _mark(message)
            if self.shown_ephemeral.get(key) != (message, mark):
                self.shown_ephemeral[key] = (message, mark)
                found.append(("message", message_json(message)))
        return found

    def _messages(self) -> Iterator[StoredMessage]:
        for chat in list(self.fake.chats.values()):
            yield from list(chat.messages.values())

    def _ephemeral(self) -> dict[tuple[int, int], StoredMessage]:
        """The live ephemeral messages their receivers see now, oldest first by chat (an
        undelivered one, sent while its receiver was offline, nobody ever sees)."""
        live: dict[tuple[int, int], StoredMessage] = {}
        for chat in list(self.fake.chats.values()):
            self.fake.expire_ephemeral(chat)
            for number, message in sorted(chat.ephemeral.items(), key=lambda i: i[1].sent_at):
                if message.delivered and not message.deleted:
                    live[(chat.id, number)] = message
        return live


def _mark(message: StoredMessage) -> Mark:
    """Changes with every edit (the history grows), deletion and pin."""
    return len(message.history), message.deleted, message.pinned


def people_json(fake: FakeTelegram) -> Json:
    groups = [chat for chat in list(fake.chats.values()) if chat.type is not ChatType.PRIVATE]
    return {
        "bot": {
            "name": fake.bot_name,
            "username": fake.bot_username,
            "apps": sorted(fake.web_apps),  # its Mini Apps' short names
        },
        "people": [
            {
                "id": user.id,
                "name": _full_name(user),
                "lang": user.language_code,
                "started": user.started,
                "blocked": user.blocked,
            }
            for user in list(fake.users.values())
        ],
        "groups": [
            {
                "id": chat.id,
                "title": chat.title,
                "type": chat.type.value,
                "bot_present": chat.bot_status.present,
                "migrated_to": chat.migrated_to,
                "members": {
                    str(uid): status.value
                    for uid, status in chat.members.items()
                    if uid in fake.users
                },
            }
            for chat in groups
        ],
    }


def message_json(message: StoredMessage) -> Json:
    """A message as a client shows it: no callback data, only the buttons' faces."""
    version = message.version
    photo = version.photo
    chat = message.chat
    topic = None if message.thread_id is None else chat.topics.get(message.thread_id)
    body: Json = {
        "chat": chat.id,
        "id": message.message_id,
        "key": _key(message),
        "receiver": None if message.receiver is None else message.receiver.id,
        "ephemeral_id": message.ephemeral_id,
        "after": _after(message) if message.ephemeral else None,
        "thread_id": message.thread_id,
        "topic": None if topic is None else topic.name,
        "from": None if message.sender is None else _full_name(message.sender),
        "from_id": None if message.sender is None else message.sender.id,
        "date": message.date,
        "version": len(message.history),
        "edited": message.edit_date is not None,
        "deleted": message.deleted,
        "pinned": message.pinned,
        "via_bot": message.via_bot,
        "text": version.text,
        "entities": list(version.entities),
        "caption": version.caption,
        "caption_entities": list(version.caption_entities),
        "photo": None
        if photo is None
        else {"url": f"/play/file/{photo.file_id}", "width": photo.width, "height": photo.height},
        "keyboard": [[_button_json(button) for button in row] for row in version.keyboard or ()],
        "service": _service_text(message),
        "reply_to": None
        if message.reply_to is None
        else {
            "from": "bot"
            if message.reply_to.sender is None
            else message.reply_to.sender.first_name,
            "text": message.reply_to.content[:80],
        },
    }
    return body


def _key(message: StoredMessage) -> str:
    """What names a message on the page: its id, or ``e<ephemeral_id>`` (all ephemeral
    messages have ``message_id`` 0)."""
    return str(message.message_id) if message.ephemeral_id is None else f"e{message.ephemeral_id}"


def _after(message: StoredMessage) -> int:
    """The id of the chat's last message before an ephemeral one (0: none), as
    ``FakeChat.view`` orders them: by the time they came, ephemeral ones last on a tie."""
    return max(
        (
            m.message_id
            for m in list(message.chat.messages.values())
            if m.sent_at <= message.sent_at
        ),
        default=0,
    )


def _button_json(button: Button) -> Json:
    if button.callback_data is not None:
        return {"text": button.text, "kind": "callback"}
    if button.url is not None:
        return {"text": button.text, "kind": "url", "url": button.url}
    if button.web_app is not None:  # opened through `open_app`, by its place
        return {"text": button.text, "kind": "web_app"}
    if button.switch_inline_query is not None or button.switch_inline_query_current_chat:
        return {"text": button.text, "kind": "inline"}
    return {"text": button.text, "kind": "other"}


def _service_text(message: StoredMessage) -> str | None:
    service = message.service
    if not service:
        return None
    actor = "someone" if message.sender is None else message.sender.first_name
    if "new_chat_members" in service:
        names = ", ".join(m.get("first_name", "?") for m in service["new_chat_members"])
        return f"{names} joined the group" if names == actor else f"{actor} added {names}"
    if "left_chat_member" in service:
        return f"{service['left_chat_member'].get('first_name', '?')} left the group"
    if "migrate_to_chat_id" in service:
        return "the group became a supergroup"
    if "migrate_from_chat_id" in service:
        return "the supergroup was made from a group"
    return ", ".join(sorted(service))


def _full_name(user: FakeUser) -> str:
    return f"{user.first_name} {user.last_name}" if user.last_name else user.first_name
