"""fakegram: a local Telegram Bot API server that behaves like the real one.

Telegram cannot be reached from tests, and mocks cannot show a flood error, a user who never
pressed Start, a stale button or a restart. ``FakeTelegram`` is an aiohttp server on
127.0.0.1 that the bot talks to over real HTTP, exactly as it would to api.telegram.org.

Where the definitions come from: Bot API 10.3, as data in three files beside this one:
``api.json`` (Bot API 10.1, from the open-source project telegram-bot-api-spec, MIT licence,
``LICENSE``), ``aiogram-schema-10.2.json`` (Bot API 10.2 as aiogram's code generator reads
it, MIT licence, ``LICENSE-aiogram``) and ``bot-api-10.3.json`` (the 10.3 changes to
ephemeral messages, from aiogram 3.31's generated classes); ``spec.load_definitions`` layers
them in that order.

Starting it
-----------
In tests, use the fixtures of ``tests/conftest.py``: ``fakegram`` is a started server on an
ephemeral port, ``fake_bot`` an aiogram ``Bot`` bound to it (``make_bot(fake)`` in
``aiogram_support`` builds more), ``fakegram_factory`` starts fakes with options
(``await fakegram_factory(clock=ManualClock(), privacy_mode=False)``). At teardown the
fixtures fail the test if the bot sent a field the API does not define (the real server
silently ignores it; it is always a bug) or called a method the fake does not model, and
they re-parse every answer with aiogram's own models. Point any aiogram bot at it with::

    Bot(fake.token, session=AiohttpSession(api=TelegramAPIServer.from_base(fake.url)))

and a python-telegram-bot application with
``ApplicationBuilder().token(fake.token).base_url(f"{fake.url}/bot")``: a second client
nobody here wrote keeps the fake honest (``tests/test_fakegram/test_ptb_client.py``).

By itself (benchmarks, manual checks): ``python -m tests.fakegram --port 8081 --demo``.
``--play`` adds the play page at ``/play/`` (``tests.fakegram.play``: every chat in a browser,
acting as any person; ``start(routes=PlayPage(fake).attach)`` in code), which
``python3 tasks.py demo`` serves with the bot running against the fake. The page opens the
bot's Mini App beside the chats, as Telegram's web client does (``tests.fakegram.play``).

The bot side
------------
``/bot{token}/{method}``, GET or POST, form-encoded, multipart (uploads, ``attach://``) or
JSON; method names are case-insensitive. Every request is checked against the definitions:
unknown method -> 404 ``Not Found``; missing required field or wrong type -> 400 in the
real server's words (``Bad Request: message text is empty``, ``Bad Request: chat not
found``, ``Bad Request: field "x" must be of type Integer``). Every answer is checked
against the definitions too (only declared fields, right types; the one field aiogram 3.31
requires beyond them, ``ChatMemberAdministrator.can_send_welcome_messages``, is
declared in ``spec.EXTRA_RESPONSE_FIELDS``). Modelled methods: getMe, getUpdates (long
polling, offsets, allowed_updates, 409 on a second poller or while a webhook is set),
setWebhook / deleteWebhook / getWebhookInfo (updates POSTed with
``X-Telegram-Bot-Api-Secret-Token``, up to ``max_connections`` at once, default 40, but one
chat's one at a time and in order, a failed one retried before the chat's next; a method
in the webhook's response body is executed),
sendMessage, sendPhoto (the image is opened with Pillow; ``file_id`` reuse; an empty
upload -> ``file must be non-empty``), editMessageText, editMessageCaption,
editMessageMedia (photos; it also turns a text message into a photo, as the Bot API
allows; an inline message takes new media by file_id only), editMessageReplyMarkup,
deleteMessage, answerCallbackQuery, answerInlineQuery, setMyCommands / getMyCommands /
deleteMyCommands, getChat, getChatMember, getChatAdministrators, pinChatMessage,
unpinChatMessage, sendChatAction, leaveChat, and the forum topic methods (below). Telegram's
rules with its texts: text 1-4096
and caption 0-1024 UTF-16 units after entity parsing; ``parse_mode=HTML`` parsed and
validated (``can't parse entities: ...``), Markdown modes passed through unchecked;
callback_data 1-64 bytes (``BUTTON_DATA_INVALID``); at most 8 buttons a row and 100 in all
(``reply markup is too long``); ``message is not modified: ...``; ``message to edit not
found`` / ``message to delete not found``; a callback query answered twice or after
``callback_timeout`` seconds (default 15, on the injectable ``clock``) -> ``query is too
old ...``. An edit without ``reply_markup`` removes the keyboard, as in Telegram.

The world
---------
``fake.add_user("Алиса", username="alice")`` -> ``FakeUser``; ``fake.add_group("Домино",
members=[alice, bob], admins=[alice])`` -> ``FakeChat`` (``supergroup=True`` for a
supergroup). A user's private chat is ``user.private_chat``. The bot may write to a user
only after they pressed Start (403 ``bot can't initiate conversation with a user``), not
after they blocked it (403 ``bot was blocked by the user``), and to a group only while it is a
member (403 ``bot was kicked from the group chat`` / ``... supergroup chat``). A group upgraded
with ``await fake.upgrade_to_supergroup(group)`` answers 400 ``group chat was upgraded to a
supergroup chat`` with ``parameters.migrate_to_chat_id``; the service messages
``migrate_to_chat_id`` / ``migrate_from_chat_id`` arrive as updates. Privacy mode is on by
default (in groups the bot sees commands, replies to it, mentions and service messages).
Every chat keeps its messages as a client shows them now (``chat.visible_messages``,
``chat.bot_messages``, ``chat.last_bot_message``): ``StoredMessage`` with text or photo (bytes
and file_id), caption, keyboard (``message.buttons``), edit ``history``, ``deleted``,
``pinned``, ``thread_id``. ``fake.message(chat_id, message_id)`` finds one, e.g. for an aiogram
``Message``.
Message ids are the bot's, numbered as Telegram numbers them: in private chats and basic
groups from one counter of the bot's account (every account numbers its own copies there),
in a supergroup from the chat's own counter. So an id names one message in one private chat
or basic group, and a wrong chat/id pair answers ``message to edit not found`` (``... to
delete ...``, ``... to pin ...``, ``message to be replied not found``), never another chat's
message; ids rise within a chat but have gaps.

Forum topics
------------
``fake.add_group("Форум", members=[...], supergroup=True, forum=True)`` is a forum
(``is_forum`` in ``getChat``). Methods: createForumTopic, editForumTopic, closeForumTopic,
reopenForumTopic, deleteForumTopic (the topic's messages go with it, no update),
unpinAllForumTopicMessages, editGeneralForumTopic, close/reopen/hide/unhideGeneralForumTopic
(hiding closes it), unpinAllGeneralForumTopicMessages, getForumTopicIconStickers. A topic's id
is the ``message_id`` of its ``forum_topic_created`` message, its first; General has none.
sendMessage, sendPhoto (ephemeral ones too) and sendChatAction take ``message_thread_id``;
a reply goes to the topic of the message it answers. A message in a topic carries
``message_thread_id`` and ``is_topic_message`` and, if it replies to nothing, the topic's first
message as ``reply_to_message``, as the Bot API shows it (so aiogram's ``message.answer()``
stays in the topic); a reply in General carries its reply thread's root id without
``is_topic_message``. Errors: ``message thread not found`` (a non-forum chat, General's or an
unknown or deleted topic's id), ``TOPIC_CLOSED`` (a closed topic or General, unless the bot
is an admin with ``can_manage_topics``: ``chat.bot_can_manage_topics``, default True),
``the chat is not a forum``, ``not enough rights to create a topic`` (``... to edit the
topic``, ``... to close or open the topic``, ``... to delete the topic``; a bot manages the
topics it created without the right), ``TOPIC_NOT_MODIFIED``, ``TOPIC_ID_INVALID``, ``title
must be non-empty``. Service messages of the bot's own doing are stored, never sent to it.
In tests: ``topic = await alice.create_topic(group, "Партия")`` (``ForumTopic``:
``thread_id``, ``name``, ``closed``, ``deleted``, ``messages``), ``await bob.send(group, "hi",
topic=topic)`` (or a thread id), ``await bob.command(group, "new", topic=topic)``,
``await alice.edit_topic(topic, "name")``, ``close_topic`` / ``reopen_topic`` /
``delete_topic(topic)`` (admins, or the topic's creator), ``close_general(group)`` /
``reopen_general(group)``; ``group.topic(thread_id)``, ``group.live_topics``,
``group.topic_messages(thread_id)`` (None: General), ``group.view(user, thread_id=...)``.
A press on a message in a topic carries its thread in ``callback_query.message``.

Acting as users (all awaitable)
-------------------------------
``await alice.start("join_42")`` (``/start join_42``), ``await alice.send(group, "hi")``,
``await alice.command(group, "new")`` (``/new@botname`` in groups, with a ``bot_command``
entity), ``answer = await alice.press(message, text="Войти")`` or ``data=...`` (resolves with
the ``CallbackAnswer`` the client shows: ``text``, ``show_alert``, ``url``; ``answered=False``
on timeout; ``stale=True`` presses a button from an earlier version of the message),
``results = await alice.inline_query("2-5", chat=group)`` then
``await alice.choose_inline_result(results, "id", chat=group)``, ``await alice.leave(group)``,
``await alice.forge_press(message, "any data")`` (a modified client: any callback
data on a message the user can see), ``await alice.block()`` / ``unblock()``,
``await fake.remove_bot(group)``, ``await fake.upgrade_to_supergroup(group)``.

Mini Apps (``webapp.py``): ``link = fake.add_web_app("table", "https://…/")`` is
BotFather's /newapp (the bot's app by its short name; its direct link is returned);
``launch = alice.open_web_app(f"{link}?startapp=TOKEN", chat=group)`` opens it as a client
does (``WebAppLaunch``: ``url``, the page with ``#tgWebAppData=…``; ``init_data`` signed
with the fake's token for that person; ``start_param``; ``chat_type`` and
``chat_instance`` of the chat the link was tapped in; ``authorization``, the header the
app sends its API), and ``alice.open_web_app_button(message, text="🃏 Стол")`` taps a
``web_app`` button (a ``query_id``, no ``start_param``) or a URL button holding a direct
link. A ``web_app`` button anywhere but a private chat with the bot is refused
``BUTTON_TYPE_INVALID``, and its URL must be HTTPS (HTTP on 127.0.0.1 too, as Telegram's
test environment allows). The play page opens both in a phone-sized panel.

Junk no client sends (``junk.py``): ``junk = Junk(fake)``; ``junk.message(junk.ghost_group(),
"/help", alice)`` (a chat the fake does not know: replies get 400 ``chat not found``),
``junk.edited(group, alice, "/leave")``, ``junk.channel_post("/start")``,
``junk.anonymous(group, "/cancel")`` (no sender), ``future = junk.press(alice, "any data",
message=stored)`` (or ``on=chat_json``, or on no message): pushed at once, without waiting;
the future resolves with the answer. Underneath: ``fake.push_update(kind, body)`` and
``fake.push_callback(user, data, message=json)``.

Waiting without sleeping: ``await fake.wait_for(lambda: ..., timeout=5)``,
``await chat.wait_for_message(lambda m: "Ход" in m.content, after=previous)``,
``await fake.idle()`` (no pending updates, no call in flight, quiet for 150 ms),
``fake.long_polling`` (a getUpdates is waiting now), ``fake.pending_updates``. Their
``timeout`` is no fixed end (``waiting.py``): a wait fails once nothing has moved for that
long (no call of the bot's but an empty long poll, no update, nothing in
``fake.progress_sources``, where the e2e harness adds the bot process's CPU), stretched by
the machine's load, so a busy machine makes a test slower, not red. A press waits for its
answer ``timeout`` seconds, stretched by the load too (a client gives up however busy the
bot is elsewhere), within Telegram's ``callback_timeout``; unanswered,
``CallbackAnswer.why`` says why. ``await fake.poll(predicate, seconds)`` is a fixed step,
for loops that look at other things between steps.

Faults and flood limits
-----------------------
``fake.faults.fail_next("sendMessage", chat_id=..., nth=2, status=502, description=...)``,
``fake.faults.flood_next("editMessageText", retry_after=1)``,
``fake.faults.drop_next("sendPhoto", after_executing=True)`` (close the socket without an
answer, optionally after doing the work), ``fake.faults.random(seed=7, server_error=0.05,
flood=0.05, drop=0.02, server_statuses=(500, 502, 503))``. Injected calls are in the
transcript with ``call.injected`` (and ``call.dropped``).
``fake.enable_flood_limits()`` switches Telegram's limits on: about 1 message a second
per chat with a burst of 3, 20 a minute per group, 30 a second overall (edits count),
answered with 429 ``Too Many Requests: retry after N`` and
``parameters.retry_after``. Pass ``clock=ManualClock()`` to drive limits and timeouts.

Transcript and the privacy check
--------------------------------
``fake.transcript`` holds every call in order (``Call``: seq, clock time, method, typed
params, result or error); ``fake.transcript.calls("sendMessage")``, ``.dump()``.
``HandPrivacy(fake)`` checks that no tile of a hand appears in any message, button,
callback data, callback answer or inline result outside its owner's private chat::

    privacy = HandPrivacy(fake, forms=("{a}-{b}", "[{a}|{b}]"))
    privacy.deal(alice, ["2-5", "6-6"])   # secret from now on
    privacy.reveal("2-5")                 # played: public from now on
    privacy.assert_no_leaks()

Example test
------------
::

    async def test_start_greets(fakegram: FakeTelegram, bot_process: None) -> None:
        alice = fakegram.add_user("Алиса", username="alice")
        await alice.start()
        reply = await alice.private_chat.wait_for_message()
        assert "Привет" in reply.content
"""

from .errors import ApiError
from .limits import Fault, Faults, FloodLimits, ManualClock
from .privacy import (
    DEFAULT_TILE_FORMS,
    HandPrivacy,
    Leak,
    assert_ephemeral_private,
    ephemeral_leaks,
)
from .server import DEFAULT_TOKEN, Exposure, FakeTelegram
from .spec import ApiSpec, load_spec
from .transcript import Call, Transcript
from .world import (
    Button,
    CallbackAnswer,
    ChatType,
    FakeChat,
    FakeUser,
    ForumTopic,
    InlineAnswer,
    MemberStatus,
    Photo,
    StoredMessage,
)

__all__ = [
    "DEFAULT_TILE_FORMS",
    "DEFAULT_TOKEN",
    "ApiError",
    "ApiSpec",
    "Button",
    "Call",
    "CallbackAnswer",
    "ChatType",
    "Exposure",
    "FakeChat",
    "FakeTelegram",
    "FakeUser",
    "Fault",
    "Faults",
    "FloodLimits",
    "ForumTopic",
    "HandPrivacy",
    "InlineAnswer",
    "Leak",
    "ManualClock",
    "MemberStatus",
    "Photo",
    "StoredMessage",
    "Transcript",
    "assert_ephemeral_private",
    "ephemeral_leaks",
    "load_spec",
]
