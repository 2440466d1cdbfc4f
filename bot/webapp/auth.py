"""Telegram's `initData`, checked: who opened the Mini App, and with which `startapp`.

Telegram's client hands the app its launch data as a query string signed with the
bot's token (core.telegram.org/bots/webapps, "Validating data received via the Mini
App"): the data-check-string is every field but `hash` as `key=value`, sorted by key,
joined by newlines; the secret key is HMAC-SHA256 of the bot token keyed "WebAppData";
`hash` is the hex HMAC-SHA256 of the data-check-string under that key. The app sends
the raw string with each request (`Authorization: tma <initData>`) and this module
checks it: the hash (compared in constant time), `auth_date` not older than the
allowed age nor in the future beyond a small skew, and a `user` that reads as a person.

A refusal (`Refused`) carries a reason for the log only; initData, its hash and the
token are never logged or put in a reason.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import parse_qsl

from bot.app.people import Person

AUTH_SECONDS = 86400  # how old an initData may be (WEBAPP_AUTH_SECONDS's default)
FUTURE_SKEW = 300  # seconds an auth_date may lie ahead of this machine's clock
MAX_INIT_DATA = 8192  # bytes: Telegram's initData is a few hundred; longer is junk


class Refused(Exception):
    """initData that proves nothing; `reason` is for the log (never the data itself)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Launch:
    """What a checked initData says: the person, the `startapp` parameter if any, and
    when Telegram signed it (epoch seconds)."""

    person: Person
    start_param: str | None
    auth_date: int


def secret_key(token: str) -> bytes:
    return hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()


class InitDataCheck:
    """Checks initData signed with one bot's token."""

    def __init__(
        self,
        token: str,
        *,
        max_age: float = AUTH_SECONDS,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._key = secret_key(token)
        self.max_age = max_age
        self.clock = clock

    def __repr__(self) -> str:  # never the key
        return f"InitDataCheck(max_age={self.max_age})"

    def __call__(self, init_data: str) -> Launch:
        """The launch `init_data` proves; `Refused` if it proves nothing."""
        if not init_data:
            raise Refused("no initData")
        if len(init_data) > MAX_INIT_DATA:
            raise Refused("initData too long")
        try:
            pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=True)
        except ValueError:
            raise Refused("initData is no query string") from None
        fields: dict[str, str] = {}
        for key, value in pairs:
            if key in fields:
                raise Refused("initData repeats a field")
            fields[key] = value
        given = fields.pop("hash", None)
        if not given:
            raise Refused("initData without a hash")
        check = "\n".join(f"{key}={fields[key]}" for key in sorted(fields))
        digest = hmac.new(self._key, check.encode("utf-8", "surrogateescape"), hashlib.sha256)
        if not hmac.compare_digest(
            digest.hexdigest().encode(), given.encode("utf-8", "surrogateescape")
        ):
            raise Refused("initData's hash does not match")
        auth_date = fields.get("auth_date", "")
        if not auth_date.isascii() or not auth_date.isdigit():
            raise Refused("initData without an auth_date")
        signed = int(auth_date)
        now = self.clock()
        if signed > now + FUTURE_SKEW:
            raise Refused("initData signed in the future")
        if now - signed > self.max_age:
            raise Refused("initData expired")
        person = person_of(fields.get("user"))
        start_param = fields.get("start_param") or None
        return Launch(person, start_param, signed)


def person_of(user: str | None) -> Person:
    """The `user` field (the Bot API's WebAppUser as JSON) as a `Person`."""
    if not user:
        raise Refused("initData without a user")
    try:
        data = json.loads(user)
    except ValueError:
        raise Refused("initData's user is no JSON") from None
    if not isinstance(data, dict):
        raise Refused("initData's user is no object")
    user_id = data.get("id")
    first_name = data.get("first_name")
    if isinstance(user_id, bool) or not isinstance(user_id, int) or user_id <= 0:
        raise Refused("initData's user has no id")
    if not isinstance(first_name, str):
        raise Refused("initData's user has no first name")
    if data.get("is_bot") is True:
        raise Refused("initData's user is a bot")

    def text(key: str) -> str | None:
        value = data.get(key)
        return value if isinstance(value, str) and value else None

    return Person(
        id=user_id,
        first_name=first_name,
        last_name=text("last_name"),
        username=text("username"),
        language_code=text("language_code"),
    )
