"""The play page's Mini App routes without a browser: a `web_app` button or a direct link
opens the app for the person acting, with `initData` signed by the page's server (the
token never reaches the browser), and the panel handles the events it says it does."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from tests.fakegram import play as play_module
from tests.fakegram.webapp import WebAppLaunch
from tests.test_fakegram.test_play_page import Events, Play, serving
from tests.test_fakegram.test_webapp import signed_by

APP = "http://127.0.0.1:9/app"
TOKEN = "Tq3vX_9kLm-2pQr7"
PLAY = Path(play_module.__file__).resolve().parent


@pytest.fixture
async def play() -> AsyncIterator[Play]:
    async with serving() as found:
        yield found


def launched(url: str) -> WebAppLaunch:
    """What the panel loads, read back as the launch it is."""
    shown = dict(parse_qsl(urlsplit(url).fragment))
    return WebAppLaunch(url, shown["tgWebAppData"], shown.get("tgWebAppStartParam"))


async def test_a_web_app_button_opens_the_app_for_its_chats_person(play: Play) -> None:
    alice = play.fake.add_user("Алиса", started=True)
    bob = play.fake.add_user("Боб", started=True)
    keyboard = InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(
                    text="🃏 Стол", web_app=WebAppInfo(url=f"{APP}?startapp={TOKEN}")
                )
            ]
        ]
    )
    async with play.http.get(f"{play.fake.url}/play/events") as response:
        events = Events(response)
        await events.next("reset")
        sent = await play.bot.send_message(alice.id, "Твои кости", reply_markup=keyboard)
        shown = await events.next("message")
    assert shown["keyboard"] == [[{"text": "🃏 Стол", "kind": "web_app"}]]
    place = {"chat": alice.id, "message": sent.message_id, "version": 0, "row": 0, "column": 0}

    status, answer = await play.act("open_app", user=alice.id, **place)
    assert status == 200, answer
    assert answer["title"] == play.fake.bot_name and answer["theme"]["bg_color"]
    launch = launched(answer["url"])
    assert launch.page == f"{APP}?startapp={TOKEN}" and signed_by(launch, play.fake.token)
    assert json.loads(launch.fields["user"])["id"] == alice.id
    assert play.fake.token not in json.dumps(answer)
    status, refused = await play.act("open_app", user=bob.id, **place)
    assert status == 400 and "cannot see" in refused["error"]
    status, refused = await play.act("press", user=alice.id, **place)
    assert status == 400 and refused["error"] == "this button is not pressed through the bot"


async def test_a_groups_direct_link_opens_the_app_for_whoever_taps_it(play: Play) -> None:
    alice = play.fake.add_user("Алиса", started=True)
    bob = play.fake.add_user("Боб")
    stranger = play.fake.add_user("Гость")
    group = play.fake.add_group("Домино", members=[alice, bob], supergroup=True)
    link = play.fake.add_web_app("table", APP) + f"?startapp={TOKEN}"
    keyboard = InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(text="✋ Мои кости", callback_data="hand"),
                InlineKeyboardButton(text="🃏 Открыть стол", url=link),
            ]
        ]
    )
    sent = await play.bot.send_message(group.id, "Стол", reply_markup=keyboard)
    place = {"chat": group.id, "message": sent.message_id, "version": 0, "row": 0}

    status, answer = await play.act("open_app", user=bob.id, column=1, **place)
    assert status == 200, answer
    launch = launched(answer["url"])
    assert launch.start_param == TOKEN == answer["start_param"]
    assert launch.page == f"{APP}?tgWebAppStartParam={TOKEN}"
    fields = launch.fields
    assert json.loads(fields["user"])["id"] == bob.id and signed_by(launch, play.fake.token)
    assert (fields["chat_type"], fields["start_param"]) == ("supergroup", TOKEN)

    status, refused = await play.act("open_app", user=stranger.id, column=1, **place)
    assert status == 400 and "not a member" in refused["error"]
    status, refused = await play.act("open_app", user=alice.id, column=0, **place)
    assert status == 400 and "opens no Mini App" in refused["error"]


async def test_a_link_in_a_text_opens_the_app_and_the_page_knows_the_apps(play: Play) -> None:
    alice = play.fake.add_user("Алиса", started=True)
    async with play.http.get(f"{play.fake.url}/play/events") as response:
        events = Events(response)
        assert (await events.next("reset"))["bot"]["apps"] == []
        play.fake.add_web_app("table", APP)
        await play.bot.send_message(alice.id, "ping")  # something moves: the page looks again
        people = await events.next("people")
    assert people["bot"]["apps"] == ["table"]
    link = f"https://t.me/{play.fake.bot_username}/table?startapp={TOKEN}"
    status, answer = await play.act("open_app", user=alice.id, chat=alice.id, link=link)
    assert status == 200 and launched(answer["url"]).fields["chat_type"] == "private"
    status, answer = await play.act("open_app", user=alice.id, link=link)  # outside any chat
    assert status == 200 and "chat_type" not in launched(answer["url"]).fields
    for wrong, why in (
        (f"https://t.me/{play.fake.bot_username}/nope", "no Mini App 'nope'"),
        (f"{link}!", "startapp"),
        (42, "link is the URL"),
    ):
        status, refused = await play.act("open_app", user=alice.id, link=wrong)
        assert status == 400 and why in refused["error"], refused


def test_the_panel_handles_every_event_its_docstring_names() -> None:
    """The module docstring lists the Mini App events the panel speaks; app.js handles
    each (a `case`, or the no-ops' comment), and the panel is in the page."""
    doc = play_module.__doc__ or ""
    script = (PLAY / "app.js").read_text()
    named = set(re.findall(r"``((?:web_app|back|main|theme|viewport|popup)_[a-z_]+)``", doc))
    assert {"web_app_ready", "web_app_setup_back_button", "back_button_pressed"} <= named
    for event in named:
        assert f'"{event}"' in script, event
    page = (PLAY / "index.html").read_text()
    assert all(f'id="{part}"' in page for part in ("app", "app-back", "app-close", "app-frame"))
    assert "width: 390px" in (PLAY / "style.css").read_text()
