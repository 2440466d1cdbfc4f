"""Mini Apps in the fake: BotFather's /newapp (`add_web_app`), `web_app` buttons only in
private chats, and a person opening an app as a client does, with `initData` signed by
the fake's token (checked here by hand, as the bot's server checks it)."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Awaitable
from urllib.parse import parse_qsl, urlsplit

import pytest
from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest
from aiogram.types import (
    EphemeralMessageParameters,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    WebAppInfo,
)

from tests.fakegram import FakeTelegram
from tests.fakegram.server import BUTTON_TYPE_INVALID
from tests.fakegram.webapp import WebAppLaunch

APP = "https://domino.example.org/app"


def app_button(url: str = APP) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text="🃏 Стол", web_app=WebAppInfo(url=url))]]
    )


def link_button(url: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(text="🃏 Стол", url=url)]])


def signed_by(launch: WebAppLaunch, token: str) -> bool:
    """Telegram's check of `initData`, written out apart from the fake's own code."""
    fields = dict(parse_qsl(launch.init_data, keep_blank_values=True))
    given = fields.pop("hash")
    check = "\n".join(f"{key}={fields[key]}" for key in sorted(fields))
    key = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    return hmac.compare_digest(hmac.new(key, check.encode(), hashlib.sha256).hexdigest(), given)


def fragment(launch: WebAppLaunch) -> dict[str, str]:
    return dict(parse_qsl(urlsplit(launch.url).fragment))


async def test_a_web_app_button_goes_to_a_private_chat_only(
    fakegram: FakeTelegram, fake_bot: Bot
) -> None:
    alice = fakegram.add_user("Алиса", started=True)
    group = fakegram.add_group("Домино", members=[alice], supergroup=True)
    sent = await fake_bot.send_message(alice.id, "Твои кости", reply_markup=app_button())
    assert fakegram.message(alice.id, sent.message_id).buttons[0].web_app == APP
    refusals: list[Awaitable[object]] = [
        fake_bot.send_message(group.id, "Стол", reply_markup=app_button()),
        fake_bot.send_message(
            group.id,
            "Только тебе",
            reply_markup=app_button(),
            ephemeral_message_parameters=EphemeralMessageParameters(receiver_user_id=alice.id),
        ),
    ]
    table = await fake_bot.send_message(group.id, "Стол")
    refusals.append(
        fake_bot.edit_message_reply_markup(
            chat_id=group.id, message_id=table.message_id, reply_markup=app_button()
        )
    )
    for refused in refusals:
        with pytest.raises(TelegramBadRequest, match=BUTTON_TYPE_INVALID):
            await refused
    assert fakegram.chat(group.id).last_bot_message.buttons == []


@pytest.mark.parametrize(
    ("url", "allowed"),
    [
        ("https://domino.example.org/app", True),
        ("http://127.0.0.1:8081/", True),  # this machine: as Telegram's test environment
        ("http://localhost:8081/?startapp=x", True),
        ("http://domino.example.org/app", False),
        ("ftp://domino.example.org/", False),
    ],
)
async def test_a_web_app_is_https_but_on_this_machine(
    fakegram: FakeTelegram, fake_bot: Bot, url: str, allowed: bool
) -> None:
    alice = fakegram.add_user("Алиса", started=True)
    if allowed:
        await fake_bot.send_message(alice.id, "Стол", reply_markup=app_button(url))
        assert fakegram.add_web_app("table", url) == f"https://t.me/{fakegram.bot_username}/table"
        return
    with pytest.raises(TelegramBadRequest, match="Only HTTPS links are allowed"):
        await fake_bot.send_message(alice.id, "Стол", reply_markup=app_button(url))
    with pytest.raises(ValueError, match="HTTPS"):
        fakegram.add_web_app("table", url)


@pytest.mark.parametrize("name", ["ab", "a" * 31, "стол", "my-app"])
def test_a_short_name_is_what_botfather_takes(name: str) -> None:
    with pytest.raises(ValueError, match="short name"):
        FakeTelegram().add_web_app(name, APP)


async def test_a_direct_link_tapped_in_a_group_opens_the_app_signed_for_its_person(
    fakegram: FakeTelegram, fake_bot: Bot
) -> None:
    alice = fakegram.add_user("Алиса", username="alice", started=True, language_code="ru")
    bob = fakegram.add_user("Боб")
    group = fakegram.add_group("Домино", members=[alice, bob], supergroup=True)
    link = fakegram.add_web_app("table", APP) + "?startapp=Tq3vX_9kLm-2pQr7"
    sent = await fake_bot.send_message(group.id, "Стол", reply_markup=link_button(link))
    message = fakegram.message(group.id, sent.message_id)

    launch = alice.open_web_app_button(message, text="🃏 Стол")
    assert launch.page == f"{APP}?tgWebAppStartParam=Tq3vX_9kLm-2pQr7"
    assert launch.start_param == "Tq3vX_9kLm-2pQr7" and launch.chat_type == "supergroup"
    assert signed_by(launch, fakegram.token) and not signed_by(launch, "1:another")
    fields = launch.fields
    assert json.loads(fields["user"]) == {
        "id": alice.id,
        "first_name": "Алиса",
        "username": "alice",
        "language_code": "ru",
        "allows_write_to_pm": True,
    }
    assert fields["start_param"] == "Tq3vX_9kLm-2pQr7" and "query_id" not in fields
    assert fields["chat_type"] == "supergroup" and fields["chat_instance"] == launch.chat_instance
    shown = fragment(launch)
    assert shown["tgWebAppData"] == launch.init_data
    assert shown["tgWebAppStartParam"] == "Tq3vX_9kLm-2pQr7"
    assert launch.authorization == f"tma {launch.init_data}"
    # Another person of the group: their own data; the chat is the same chat to the app.
    other = bob.open_web_app(link, chat=fakegram.chat(group.id))
    assert json.loads(other.fields["user"])["id"] == bob.id
    assert "allows_write_to_pm" not in json.loads(other.fields["user"])
    assert other.chat_instance == launch.chat_instance
    # Opened from outside any chat: no chat in the data.
    bare = alice.open_web_app(link)
    assert bare.chat_type is None and "chat_instance" not in bare.fields


async def test_only_a_chats_people_open_its_links_and_only_the_bots_apps_open(
    fakegram: FakeTelegram,
) -> None:
    alice = fakegram.add_user("Алиса", started=True)
    stranger = fakegram.add_user("Гость")
    group = fakegram.add_group("Домино", members=[alice])
    link = fakegram.add_web_app("table", APP)
    assert alice.open_web_app(link, chat=group).chat_type == "group"
    with pytest.raises(ValueError, match="not a member"):
        stranger.open_web_app(link, chat=group)
    with pytest.raises(LookupError, match="no Mini App 'other'"):
        alice.open_web_app(f"https://t.me/{fakegram.bot_username}/other")
    with pytest.raises(ValueError, match="startapp"):
        alice.open_web_app(f"{link}?startapp={'x' * 513}")
    with pytest.raises(ValueError, match="startapp"):
        alice.open_web_app(f"{link}?startapp=a.b")
    with pytest.raises(ValueError, match="no direct link"):
        alice.open_web_app("https://t.me/another_bot/table")  # not a direct link of this bot


async def test_a_web_app_button_opens_its_url_for_its_chats_person_only(
    fakegram: FakeTelegram, fake_bot: Bot
) -> None:
    alice = fakegram.add_user("Алиса", started=True)
    bob = fakegram.add_user("Боб", started=True)
    url = f"{APP}?startapp=Tq3vX_9kLm-2pQr7"
    sent = await fake_bot.send_message(alice.id, "Твои кости", reply_markup=app_button(url))
    message = fakegram.message(alice.id, sent.message_id)
    launch = alice.open_web_app_button(message, row=0, column=0)
    assert launch.page == url and signed_by(launch, fakegram.token)
    assert launch.start_param is None and "start_param" not in launch.fields
    assert launch.fields["query_id"] and "chat_type" not in launch.fields
    assert (
        alice.open_web_app_button(message, text="🃏 Стол").fields["query_id"]
        != (launch.fields["query_id"])
    )
    with pytest.raises(ValueError, match="cannot see"):
        bob.open_web_app_button(message, text="🃏 Стол")
    plain = await fake_bot.send_message(alice.id, "Ссылка", reply_markup=link_button(APP))
    with pytest.raises(ValueError, match="opens no Mini App"):
        alice.open_web_app_button(fakegram.message(alice.id, plain.message_id), text="🃏 Стол")
