"""Requests are checked against api.json the way the real server checks them."""

from __future__ import annotations

import aiohttp
import pytest
from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest

from tests.fakegram import FakeTelegram, load_spec
from tests.fakegram.spec import SpecViolation

from .helpers import raw_call


async def test_unknown_method_is_not_found(fakegram: FakeTelegram) -> None:
    status, body = await raw_call(fakegram, "sendDominoes", data={"chat_id": "1"})
    assert (status, body) == (404, {"ok": False, "error_code": 404, "description": "Not Found"})


async def test_method_names_are_case_insensitive(fakegram: FakeTelegram) -> None:
    status, body = await raw_call(fakegram, "GETME")
    assert status == 200 and body["result"]["username"] == fakegram.bot_username
    assert fakegram.transcript[0].method == "getMe"


async def test_wrong_token_is_unauthorized(fakegram: FakeTelegram) -> None:
    status, body = await raw_call(fakegram, "getMe", token="1:wrong")
    assert (status, body["description"]) == (401, "Unauthorized")


async def test_missing_text_is_refused_like_telegram(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    alice = fakegram.add_user("Алиса", started=True)
    with pytest.raises(TelegramBadRequest, match="Bad Request: message text is empty"):
        await fake_bot.send_message(alice.id, "")  # aiogram drops the empty field


async def test_missing_required_field_generic(fakegram: FakeTelegram) -> None:
    status, body = await raw_call(fakegram, "sendChatAction", data={"chat_id": "1"})
    assert status == 400
    assert body["description"] == 'Bad Request: parameter "action" is required'


async def test_wrong_scalar_type(fakegram: FakeTelegram) -> None:
    status, body = await raw_call(
        fakegram, "deleteMessage", data={"chat_id": "1", "message_id": "first"}
    )
    assert status == 400
    assert body["description"] == 'Bad Request: field "message_id" must be of type Integer'


async def test_wrong_nested_type_and_bad_json(fakegram: FakeTelegram) -> None:
    alice = fakegram.add_user("Алиса", started=True)
    markup = '{"inline_keyboard": [[{"text": 5, "callback_data": "x"}]]}'
    status, body = await raw_call(
        fakegram,
        "sendMessage",
        data={"chat_id": str(alice.id), "text": "t", "reply_markup": markup},
    )
    assert status == 400
    assert body["description"] == (
        'Bad Request: field "reply_markup.inline_keyboard[0][0].text" must be of type String'
    )
    status, body = await raw_call(
        fakegram, "sendMessage", data={"chat_id": str(alice.id), "text": "t", "reply_markup": "{"}
    )
    assert (status, body["description"]) == (
        400,
        'Bad Request: can\'t parse JSON object in field "reply_markup"',
    )


async def test_unknown_fields_are_accepted_but_recorded(fakegram: FakeTelegram) -> None:
    alice = fakegram.add_user("Алиса", started=True)
    markup = '{"inline_keyboard": [[{"text": "a", "callback_data": "x", "colour": "red"}]]}'
    status, _ = await raw_call(
        fakegram,
        "sendMessage",
        data={"chat_id": str(alice.id), "text": "t", "reply_markup": markup, "silent": "true"},
    )
    assert status == 200
    assert sorted(fakegram.problems) == [
        "sendMessage: unknown field 'reply_markup.inline_keyboard[0][0].colour'",
        "sendMessage: unknown field 'silent'",
    ]
    with pytest.raises(AssertionError, match="silent"):
        fakegram.assert_clean()
    fakegram.problems.clear()  # this test wanted them; the fixture would fail otherwise


async def test_json_and_query_string_bodies(fakegram: FakeTelegram) -> None:
    alice = fakegram.add_user("Алиса", started=True)
    status, body = await raw_call(
        fakegram,
        "sendMessage",
        json={"chat_id": alice.id, "text": "json", "reply_markup": {"inline_keyboard": []}},
    )
    assert status == 200 and body["result"]["text"] == "json"
    url = f"{fakegram.url}/bot{fakegram.token}/sendMessage?chat_id={alice.id}&text=query"
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        assert (await response.json())["result"]["text"] == "query"


async def test_unsupported_but_real_method_fails_the_test(fakegram: FakeTelegram) -> None:
    status, body = await raw_call(fakegram, "sendDice", data={"chat_id": "1"})
    assert status == 400 and "not supported by fakegram" in body["description"]
    assert fakegram.problems == ["sendDice: method not supported by fakegram"]
    fakegram.problems.clear()


def test_responses_are_shaped_by_the_spec() -> None:
    spec = load_spec()
    user = {"id": 1, "is_bot": False, "first_name": "A"}
    assert spec.conform("User", user) == user
    with pytest.raises(SpecViolation, match="fields not in User"):
        spec.conform("User", {**user, "mood": "good"})
    with pytest.raises(SpecViolation, match="must be of type Integer"):
        spec.conform("User", {**user, "id": "one"})
    member = spec.conform("ChatMember", {"status": "left", "user": user})
    assert member["status"] == "left"
    with pytest.raises(SpecViolation):
        spec.conform("ChatMember", {"status": "sleeping", "user": user})


async def test_every_answer_parses_with_aiogram(fakegram: FakeTelegram, fake_bot: Bot) -> None:
    """The fixture re-parses every answer; here the aiogram client parses them live too."""
    alice = fakegram.add_user("Алиса", username="alice", started=True)
    group = fakegram.add_group("G", members=[alice], admins=[alice])
    me = await fake_bot.get_me()
    assert me.is_bot and me.username == fakegram.bot_username
    full = await fake_bot.get_chat(group.id)
    assert full.title == "G" and full.type == "group"
    member = await fake_bot.get_chat_member(group.id, alice.id)
    assert member.status == "creator"
    own = await fake_bot.get_chat_member(group.id, fakegram.bot_id)
    assert own.status == "member"
    info = await fake_bot.get_webhook_info()
    assert info.url == "" and info.pending_update_count == 0
