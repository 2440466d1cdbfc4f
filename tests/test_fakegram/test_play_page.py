"""The play page's routes without a browser: what the page sends reaches the bot as
a person's update, and what the bot does reaches the page as events.

The browser itself plays a whole match in `tests/e2e/test_play_page_e2e.py` where
Chromium is installed; these hold the routes to their word everywhere.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest
from aiogram import Bot
from aiogram.types import (
    BufferedInputFile,
    EphemeralMessageParameters,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    Update,
)

from tests.fakegram import FakeTelegram, ManualClock
from tests.fakegram.aiogram_support import aiogram_parse_problems, make_bot
from tests.fakegram.play import PlayPage
from tests.fakegram.waiting import within
from tests.test_fakegram.helpers import png

WAIT = 10.0


@dataclass
class Play:
    fake: FakeTelegram
    bot: Bot
    http: aiohttp.ClientSession

    async def act(self, action: str, **body: Any) -> tuple[int, dict[str, Any]]:
        async with self.http.post(f"{self.fake.url}/play/api/{action}", json=body) as response:
            answer: dict[str, Any] = await response.json()
            return response.status, answer

    async def updates(self, count: int = 1) -> list[Update]:
        """The next `count` updates, as the bot's long poll takes them."""
        found: list[Update] = []
        offset = None
        while len(found) < count:
            batch = await self.bot.get_updates(offset=offset, timeout=5)
            found += batch
            if batch:
                offset = batch[-1].update_id + 1
        await self.bot.get_updates(offset=offset, timeout=0)  # confirm what was taken
        return found


@pytest.fixture
async def play() -> AsyncIterator[Play]:
    async with serving() as found:
        yield found


@contextlib.asynccontextmanager
async def serving(**options: Any) -> AsyncIterator[Play]:
    """A fake (made with `options`) serving the page, and a bot on it."""
    fake = FakeTelegram(**options)
    await fake.start(routes=PlayPage(fake).attach)
    bot = make_bot(fake)
    try:
        async with aiohttp.ClientSession() as http:
            yield Play(fake, bot, http)
    finally:
        await bot.session.close()
        await fake.stop()
    fake.assert_clean()
    assert not aiogram_parse_problems(fake)


class Events:
    """The page's event stream, read as the browser's EventSource reads it."""

    def __init__(self, response: aiohttp.ClientResponse) -> None:
        self.response = response

    async def next(
        self, kind: str, until: Callable[[dict[str, Any]], bool] = lambda _: True
    ) -> dict[str, Any]:
        """The next event of `kind` that satisfies `until` (earlier ones are skipped)."""

        async def read() -> dict[str, Any]:
            event, data = "", ""
            while True:
                line = (await self.response.content.readline()).decode().rstrip("\n")
                if line.startswith("event: "):
                    event = line[len("event: ") :]
                elif line.startswith("data: "):
                    data = line[len("data: ") :]
                elif not line and event:
                    found: dict[str, Any] = json.loads(data)
                    if event == kind and until(found):
                        return found
                    event, data = "", ""

        return await within(read(), WAIT, "the play page's answer")


async def test_the_page_is_served_only_where_the_fake_was_started_with_it(
    play: Play, fakegram: FakeTelegram
) -> None:
    async with play.http.get(f"{play.fake.url}/play/") as page:
        assert page.status == 200 and page.content_type == "text/html"
        assert "/play/app.js" in await page.text()
    for asset, kind in (("app.js", "text/javascript"), ("style.css", "text/css")):
        async with play.http.get(f"{play.fake.url}/play/{asset}") as response:
            assert response.status == 200 and response.content_type == kind
    async with play.http.get(f"{play.fake.url}/play/index.html") as response:
        assert response.status == 404  # the assets by name only, no folder served
    async with play.http.get(f"{fakegram.url}/play/") as response:
        assert response.status == 404  # a fake started without the page


async def test_the_bare_address_and_play_without_its_slash_lead_to_the_page(
    play: Play, fakegram: FakeTelegram
) -> None:
    for path in ("/", "/play"):
        async with play.http.get(f"{play.fake.url}{path}", allow_redirects=False) as response:
            assert response.status == 302 and response.headers["Location"] == "/play/", path
    async with play.http.get(f"{play.fake.url}/") as page:  # followed, as a browser does
        assert page.status == 200 and page.url.path == "/play/"
        assert 'id="first-run"' in await page.text()
    async with play.http.get(f"{fakegram.url}/", allow_redirects=False) as response:
        assert response.status == 404  # a fake started without the page has none to lead to


async def test_a_foreign_page_or_host_is_refused(play: Play) -> None:
    url = f"{play.fake.url}/play/api/language"
    alice = play.fake.add_user("Алиса")
    body = json.dumps({"user": alice.id, "lang": "en"})
    # A form of another site posting here (no preflight for text/plain).
    async with play.http.post(url, data=body, headers={"Content-Type": "text/plain"}) as r:
        assert r.status == 415
    # A name that resolves here but is not this machine's (DNS rebinding).
    async with play.http.post(
        url, data=body, headers={"Content-Type": "application/json", "Host": "evil.example"}
    ) as r:
        assert r.status == 403
    assert alice.language_code == "ru"


async def test_a_press_reaches_the_bot_and_its_answer_comes_back(play: Play) -> None:
    alice = play.fake.add_user("Алиса", started=True)
    keyboard = InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text="Да", callback_data="vote:yes")]]
    )
    sent = await play.bot.send_message(alice.id, "Играем?", reply_markup=keyboard)
    await play.bot.edit_message_text(
        "Играем? (изменено)", chat_id=alice.id, message_id=sent.message_id, reply_markup=keyboard
    )
    press = asyncio.create_task(
        play.act(
            "press",
            user=alice.id,
            chat=alice.id,
            message=sent.message_id,
            version=0,
            row=0,
            column=0,
        )
    )  # the button as the page showed it before the edit: a client sends what it shows
    (update,) = await play.updates()
    query = update.callback_query
    assert query is not None and query.data == "vote:yes" and query.from_user.id == alice.id
    await play.bot.answer_callback_query(query.id, text="Принято", show_alert=True)
    status, answer = await press
    assert status == 200
    assert answer == {"answered": True, "text": "Принято", "show_alert": True, "url": None}

    status, refused = await play.act(
        "press", user=alice.id, chat=alice.id, message=sent.message_id, version=1, row=2, column=0
    )
    assert status == 400 and refused["error"] == "no such button"


async def test_events_bring_messages_edits_and_pictures_without_callback_data(
    play: Play,
) -> None:
    alice = play.fake.add_user("Алиса", started=True)
    group = play.fake.add_group("Домино", members=[alice])
    async with play.http.get(f"{play.fake.url}/play/events") as response:
        assert response.content_type == "text/event-stream"
        events = Events(response)
        reset = await events.next("reset")
        assert [p["name"] for p in reset["people"]] == ["Алиса"]
        assert [g["title"] for g in reset["groups"]] == ["Домино"] and reset["messages"] == []

        keyboard = InlineKeyboardMarkup(
            inline_keyboard=[[InlineKeyboardButton(text="🎯 Ход", callback_data="m1:7:3:p:12")]]
        )
        sent = await play.bot.send_message(
            group.id, "<b>Стол</b>", parse_mode="HTML", reply_markup=keyboard
        )
        shown = await events.next("message")
        assert (shown["chat"], shown["id"], shown["version"]) == (group.id, sent.message_id, 0)
        assert shown["text"] == "Стол" and shown["entities"][0]["type"] == "bold"
        assert shown["keyboard"] == [[{"text": "🎯 Ход", "kind": "callback"}]]
        assert "m1:7" not in json.dumps(shown)  # a client shows the face, not the data

        await play.bot.edit_message_text("Стол 2", chat_id=group.id, message_id=sent.message_id)
        edited = await events.next("message")
        assert (edited["id"], edited["version"], edited["edited"]) == (sent.message_id, 1, True)
        assert edited["keyboard"] == []  # an edit without a keyboard removes it

        picture = await play.bot.send_photo(alice.id, BufferedInputFile(png(), "t.png"))
        photo = (await events.next("message"))["photo"]
        assert (photo["width"], photo["height"]) == (64, 48)
        async with play.http.get(f"{play.fake.url}{photo['url']}") as image:
            assert image.content_type == "image/png" and await image.read() == png()
        assert picture.photo is not None

        await play.bot.delete_message(group.id, sent.message_id)
        assert (await events.next("message"))["deleted"] is True


async def test_people_come_leave_block_and_change_language(play: Play) -> None:
    alice = play.fake.add_user("Алиса", started=True)
    group = play.fake.add_group("Домино", members=[alice], admins=[alice])
    async with play.http.get(f"{play.fake.url}/play/events") as response:
        events = Events(response)
        await events.next("reset")

        status, added = await play.act("add_person", name="Carol", lang="en")
        assert status == 200
        carol = play.fake.users[added["user"]]
        people = await events.next("people")
        assert {
            "id": carol.id,
            "name": "Carol",
            "lang": "en",
            "started": False,
            "blocked": False,
        } in people["people"]
        (joined,) = await play.updates()  # she is added to the group: the bot sees it
        assert joined.message is not None and joined.message.new_chat_members is not None

        assert (await play.act("leave", user=carol.id, chat=group.id))[0] == 200
        (left,) = await play.updates()
        assert left.message is not None and left.message.left_chat_member is not None
        assert (await play.act("leave", user=carol.id, chat=group.id))[0] == 400
        assert (await play.act("join", user=carol.id, chat=group.id))[0] == 200
        await play.updates()

        assert (await play.act("language", user=alice.id, lang="en"))[0] == 200
        assert (await play.act("block", user=alice.id, blocked=True))[0] == 200
        (blocked,) = await play.updates()
        assert blocked.my_chat_member is not None
        assert blocked.my_chat_member.from_user.language_code == "en"
        assert blocked.my_chat_member.new_chat_member.status == "kicked"
        people = await events.next(
            "people",
            lambda body: (
                {"id": alice.id, "name": "Алиса", "lang": "en", "started": True, "blocked": True}
                in body["people"]
            ),
        )
        assert str(carol.id) in people["groups"][0]["members"]

        status, refused = await play.act("send", user=alice.id, chat=alice.id, text="/help")
        assert status == 400 and "RESTART" in refused["error"]  # a client shows only that
        status, refused = await play.act("language", user=alice.id, lang="<b>")
        assert status == 400 and "language code" in refused["error"]


async def test_start_with_a_payload_and_commands_in_the_group(play: Play) -> None:
    bob = play.fake.add_user("Боб")
    group = play.fake.add_group("Домино", members=[bob])
    status, refused = await play.act("send", user=bob.id, chat=bob.id, text="привет")
    assert status == 400 and "Start" in refused["error"]  # a client shows only START first

    assert (await play.act("send", user=bob.id, chat=bob.id, text="/start join_7"))[0] == 200
    assert (await play.act("send", user=bob.id, chat=group.id, text="/domino"))[0] == 200
    start, command = await play.updates(2)
    assert bob.started
    assert start.message is not None and start.message.text == "/start join_7"
    assert command.message is not None and command.message.text == "/domino"
    assert command.message.chat.id == group.id

    stranger = play.fake.add_user("Чужой", started=True)
    status, refused = await play.act("send", user=stranger.id, chat=group.id, text="/domino")
    assert status == 400 and "not a member" in refused["error"]


def _hand(data: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text="🁣 2|5", callback_data=data)]]
    )


async def test_an_ephemeral_message_comes_for_its_receiver_who_alone_presses_it(
    play: Play,
) -> None:
    alice = play.fake.add_user("Алиса", started=True)
    bob = play.fake.add_user("Боб", started=True)
    group = play.fake.add_group("Домино", members=[alice, bob], supergroup=True)
    table = await play.bot.send_message(group.id, "Стол")
    first = await play.bot.send_message(
        group.id,
        "Ваши кости",
        reply_markup=_hand("m1:hand:secret"),
        ephemeral_message_parameters=EphemeralMessageParameters(receiver_user_id=alice.id),
    )
    assert first.ephemeral_message_id == 1
    async with play.http.get(f"{play.fake.url}/play/events") as response:
        events = Events(response)
        reset = await events.next("reset")
        table_json, hand = reset["messages"]
        assert (table_json["key"], table_json["receiver"]) == (str(table.message_id), None)
        assert (hand["chat"], hand["id"], hand["key"]) == (group.id, 0, "e1")
        assert (hand["receiver"], hand["ephemeral_id"]) == (alice.id, 1)
        assert hand["after"] == table.message_id  # the page puts it after the table
        assert hand["keyboard"] == [[{"text": "🁣 2|5", "kind": "callback"}]]
        assert "secret" not in json.dumps(reset)  # a client shows the face, not the data

        # Another one, for Bob this time: a live event, with its receiver.
        await play.bot.send_message(
            group.id,
            "Ваши кости",
            reply_markup=_hand("m1:hand:bob"),
            ephemeral_message_parameters=EphemeralMessageParameters(receiver_user_id=bob.id),
        )
        bobs = await events.next("message")
        assert (bobs["key"], bobs["receiver"], bobs["deleted"]) == ("e2", bob.id, False)
        assert "m1:hand" not in json.dumps(bobs)

        # Bob does not see Alice's hand: the page refuses his press, nothing reaches the bot.
        press = {"chat": group.id, "ephemeral": 1, "version": 0, "row": 0, "column": 0}
        status, refused = await play.act("press", user=bob.id, **press)
        assert status == 400 and "only its receiver" in refused["error"]
        assert play.fake.pending_updates == 0

        pressed = asyncio.create_task(play.act("press", user=alice.id, **press))
        (update,) = await play.updates()
        query = update.callback_query
        assert query is not None and query.from_user.id == alice.id
        assert query.data == "m1:hand:secret"
        assert isinstance(query.message, Message) and query.message.ephemeral_message_id == 1
        await play.bot.answer_callback_query(query.id, text="Ход принят")
        status, answer = await pressed
        assert (status, answer["answered"], answer["text"]) == (200, True, "Ход принят")

        await play.bot.edit_ephemeral_message_text(
            chat_id=group.id,
            receiver_user_id=alice.id,
            ephemeral_message_id=1,
            text="Ваши кости (ход сделан)",
        )
        edited = await events.next("message")
        assert (edited["key"], edited["version"], edited["edited"]) == ("e1", 1, True)

        await play.bot.delete_ephemeral_message(
            chat_id=group.id, receiver_user_id=alice.id, ephemeral_message_id=1
        )
        gone = await events.next("message")
        assert (gone["key"], gone["receiver"], gone["deleted"]) == ("e1", alice.id, True)
        status, refused = await play.act("press", user=alice.id, **press)
        assert status == 400 and "no such message" in refused["error"]

        # Its id is free again: the next one takes it, and the page gets it as new.
        await play.bot.send_message(
            group.id,
            "Новые кости",
            ephemeral_message_parameters=EphemeralMessageParameters(receiver_user_id=alice.id),
        )
        again = await events.next("message")
        assert (again["key"], again["text"], again["deleted"]) == ("e1", "Новые кости", False)


async def test_an_expired_or_undelivered_ephemeral_message_is_not_on_the_page() -> None:
    clock = ManualClock()
    async with serving(clock=clock, ephemeral_lifetime=60.0) as play:
        alice = play.fake.add_user("Алиса", started=True)
        bob = play.fake.add_user("Боб", started=True)
        group = play.fake.add_group("Домино", members=[alice, bob], supergroup=True)
        bob.online = False  # sent while he was offline: nobody ever sees it
        for receiver in (alice, bob):
            await play.bot.send_message(
                group.id,
                "Ваши кости",
                ephemeral_message_parameters=EphemeralMessageParameters(
                    receiver_user_id=receiver.id
                ),
            )
        bob.online = True
        status, refused = await play.act(
            "press", user=bob.id, chat=group.id, ephemeral=2, version=0, row=0, column=0
        )
        assert status == 400 and "no such message" in refused["error"]
        async with play.http.get(f"{play.fake.url}/play/events") as response:
            events = Events(response)
            [hand] = (await events.next("reset"))["messages"]
            assert (hand["key"], hand["receiver"]) == ("e1", alice.id)
            clock.advance(60.0)
            gone = await events.next("message")
            assert (gone["key"], gone["deleted"]) == ("e1", True)
        async with play.http.get(f"{play.fake.url}/play/events") as response:
            assert (await Events(response).next("reset"))["messages"] == []
