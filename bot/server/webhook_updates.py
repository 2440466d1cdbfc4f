"""A webhook post's body as a Telegram update, or why it can never be one.

Anyone may post anything, so every way a body fails is an `Unusable` naming its cause
(each a `Throttled` cause of one WARNING line a minute), never another exception: not
UTF-8 (or a lone surrogate), not JSON, nested deeper than `MAX_DEPTH`, a number beyond
64 bits, not an object, not an update, an update of a kind aiogram does not know.
"""

from __future__ import annotations

import json
import re
from typing import Any

from aiogram import Bot
from aiogram.types import Update
from aiogram.types.update import UpdateTypeLookupError
from pydantic import ValidationError

# Telegram's updates nest a dozen levels at most; deeper is junk that only risks the
# recursion of whatever walks it later.
MAX_DEPTH = 64
# Every number in an update (ids, dates, sizes) fits in 64 bits.
INT_DIGITS = 20
INT_RANGE = range(-(2**63), 2**63)
JSON_KINDS: dict[type, str] = {
    list: "an array",
    str: "a string",
    int: "a number",
    float: "a number",
    bool: "true or false",
    type(None): "null",
}
SURROGATE = re.compile("[\ud800-\udfff]")

# Why a body is dropped: the causes of its WARNING line.
NOT_UTF8 = "webhook body not UTF-8"
NOT_JSON = "webhook body not JSON"
TOO_DEEP = "webhook body nested too deep"
NUMBER = "webhook body with a number out of range"
NOT_OBJECT = "webhook body not a JSON object"
NOT_UPDATE = "webhook body not an update"
UNKNOWN_KIND = "webhook update of a kind this bot does not know"


class Unusable(Exception):
    """A webhook post that can never be handled: `cause` names why (a `Throttled` cause),
    `detail` says a little more in a few words (of the body, a few names at most, cut
    short and escaped)."""

    def __init__(self, cause: str, detail: str = "") -> None:
        super().__init__(cause)
        self.cause = cause
        self.detail = detail


def _bounded_int(digits: str) -> int:
    # Before `int()`: a 5,000-digit number costs time to convert, and Python refuses
    # past 4,300 digits with a ValueError that would read as "not JSON".
    if len(digits) > INT_DIGITS or (number := int(digits)) not in INT_RANGE:
        raise Unusable(NUMBER)
    return number


def _no_constant(name: str) -> Any:
    raise Unusable(NOT_JSON, f"{name} is not JSON")  # NaN, Infinity: Python's extension


def _refused(value: object) -> Unusable | None:
    """Why a parsed body cannot be taken, walking it without recursion of its own: it
    nests deeper than `MAX_DEPTH`, or a string holds a lone surrogate (an escape such as
    "\\ud800" that JSON lets through and UTF-8 cannot encode, so the database or a reply
    would fail on it)."""
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if SURROGATE.search(item):
                return Unusable(NOT_UTF8, "a lone surrogate")
            continue
        if isinstance(item, dict):
            children: list[object] = [*item.keys(), *item.values()]
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > MAX_DEPTH:
            return Unusable(TOO_DEEP)
        stack.extend((child, depth + 1) for child in children)
    return None


def _shown(text: str, limit: int = 80) -> str:
    """`text` fit for one log line: cut short, escaped to printable ASCII."""
    return ascii(text[:limit])


def parse_update(body: bytes, bot: Bot) -> Update:
    """A webhook post's body as an update, or `Unusable`: not UTF-8 (or a lone
    surrogate), not JSON (cut short, empty), nested deeper than `MAX_DEPTH`, a number
    beyond 64 bits, not an object, not an update, or an update of a kind aiogram does
    not know. Every way a body fails is one of these, never another exception."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Unusable(NOT_UTF8, f"at byte {exc.start}") from None
    try:
        data = json.loads(text, parse_int=_bounded_int, parse_constant=_no_constant)
    except RecursionError:  # Python's parser refuses to nest about 1,000 deep
        raise Unusable(TOO_DEEP) from None
    except json.JSONDecodeError as exc:
        raise Unusable(NOT_JSON, f"{exc.msg}, character {exc.pos} of {len(text)}") from None
    if (refused := _refused(data)) is not None:
        raise refused
    if not isinstance(data, dict):
        raise Unusable(NOT_OBJECT, JSON_KINDS.get(type(data), "a value"))
    try:
        update = Update.model_validate(data, context={"bot": bot})
    except ValidationError as exc:
        errors = exc.errors(include_url=False, include_input=False)
        first = errors[0]
        where = ".".join(str(part) for part in first["loc"])
        raise Unusable(
            NOT_UPDATE, f"{len(errors)} error(s), first {first['type']} at {_shown(where)}"
        ) from None
    try:
        update.event_type  # noqa: B018 - what the dispatcher would trip over later
    except UpdateTypeLookupError:
        fields = ", ".join(sorted(name for name in data if name != "update_id")[:5])
        raise Unusable(UNKNOWN_KIND, f"fields {_shown(fields)}") from None
    return update
