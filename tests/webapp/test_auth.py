"""`bot.webapp.auth`: Telegram's initData checked as the Bot API's docs say, signed by
the fake's signer (tests/fakegram/webapp.py), so the check is held to Telegram's own."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode

import pytest

from bot.webapp.auth import AUTH_SECONDS, FUTURE_SKEW, InitDataCheck, Refused
from tests.fakegram.webapp import init_data, sign

TOKEN = "123456:ABC-fake-token"
OTHER_TOKEN = "654321:XYZ-another-bot"
NOW = 1_800_000_000
ALICE = {
    "id": 42,
    "is_bot": False,
    "first_name": "Алиса",
    "username": "alice",
    "language_code": "ru",
}


def check(**kwargs: float) -> InitDataCheck:
    return InitDataCheck(TOKEN, clock=lambda: NOW, **kwargs)


def fields_of(data: str) -> dict[str, str]:
    return dict(parse_qsl(data, keep_blank_values=True))


def refusal(data: str) -> str:
    with pytest.raises(Refused) as refused:
        check()(data)
    return refused.value.reason


def test_valid_init_data_names_the_person_and_the_start_param() -> None:
    launch = check()(init_data(TOKEN, ALICE, start_param="AbCdEfGh12345678", auth_date=NOW))
    assert launch.person.id == 42 and launch.person.first_name == "Алиса"
    assert launch.person.username == "alice" and launch.person.language_code == "ru"
    assert launch.start_param == "AbCdEfGh12345678"
    assert launch.auth_date == NOW
    without = check()(init_data(TOKEN, ALICE, auth_date=NOW - 10, query_id=None))
    assert without.start_param is None


def test_a_tampered_field_is_refused() -> None:
    data = fields_of(init_data(TOKEN, ALICE, start_param="AbCdEfGh12345678", auth_date=NOW))
    for key, value in (
        ("user", data["user"].replace("42", "43")),
        ("start_param", "ZZZZZZZZZZZZZZZZ"),
        ("auth_date", str(NOW - 1)),
    ):
        tampered = urlencode({**data, key: value})
        assert "hash" in refusal(tampered)
    added = urlencode({**data, "chat_type": "group"})
    assert "hash" in refusal(added)


def test_a_tampered_hash_is_refused() -> None:
    data = fields_of(init_data(TOKEN, ALICE, auth_date=NOW))
    flipped = ("0" if data["hash"][0] != "0" else "1") + data["hash"][1:]
    assert "hash" in refusal(urlencode({**data, "hash": flipped}))
    assert "hash" in refusal(urlencode({**data, "hash": data["hash"].upper()}))
    assert "hash" in refusal(urlencode({**data, "hash": "ё" * 64}))


def test_expired_and_future_init_data_is_refused() -> None:
    assert "expired" in refusal(init_data(TOKEN, ALICE, auth_date=NOW - AUTH_SECONDS - 1))
    check()(init_data(TOKEN, ALICE, auth_date=NOW - AUTH_SECONDS + 5))  # just in time
    short = InitDataCheck(TOKEN, max_age=60, clock=lambda: NOW)
    with pytest.raises(Refused, match="expired"):
        short(init_data(TOKEN, ALICE, auth_date=NOW - 61))
    assert "future" in refusal(init_data(TOKEN, ALICE, auth_date=NOW + FUTURE_SKEW + 60))
    check()(init_data(TOKEN, ALICE, auth_date=NOW + 5))  # a clock a little ahead


def test_another_bots_init_data_is_refused() -> None:
    assert "hash" in refusal(init_data(OTHER_TOKEN, ALICE, auth_date=NOW))


def test_missing_user_or_hash_or_date_is_refused() -> None:
    assert "user" in refusal(sign({"auth_date": str(NOW)}, TOKEN))
    data = fields_of(init_data(TOKEN, ALICE, auth_date=NOW))
    del data["hash"]
    assert "hash" in refusal(urlencode(data))
    assert "auth_date" in refusal(sign({"user": '{"id":1,"first_name":"A"}'}, TOKEN))
    assert "user" in refusal(sign({"user": '{"id":1}', "auth_date": str(NOW)}, TOKEN))
    assert "user" in refusal(
        sign({"user": '{"id":"1","first_name":"A"}', "auth_date": str(NOW)}, TOKEN)
    )
    assert "user" in refusal(sign({"user": "[1]", "auth_date": str(NOW)}, TOKEN))
    assert "user" in refusal(sign({"user": "{", "auth_date": str(NOW)}, TOKEN))
    bot = {"id": 7, "is_bot": True, "first_name": "Bot"}
    assert "bot" in refusal(init_data(TOKEN, bot, auth_date=NOW))


@pytest.mark.parametrize(
    "junk",
    [
        "",
        "x",
        "hash",
        "hash=",
        "=&=",
        "a=1&a=2&hash=00",
        "%ff%fe=%00&hash=zz",
        "\x00" * 100,
        "user=" + "A" * 10_000,
        "hash=abc&hash=abc",
    ],
)
def test_junk_is_refused(junk: str) -> None:
    with pytest.raises(Refused) as refused:
        check()(junk)
    assert junk not in refused.value.reason or not junk


def test_a_reason_never_holds_the_data_or_the_token() -> None:
    data = init_data(OTHER_TOKEN, ALICE, auth_date=NOW)
    with pytest.raises(Refused) as refused:
        check()(data)
    text = str(refused.value) + repr(check())
    assert fields_of(data)["hash"] not in text and TOKEN not in text and "Алиса" not in text
