"""The fake's definitions are Bot API 10.3: what aiogram 3.31 sends for ephemeral messages
and forum topics is exactly what they accept."""

from __future__ import annotations

from typing import Any

import aiogram.methods as methods
import pytest

from tests.fakegram import load_spec

EPHEMERAL_AND_FORUM = (
    "editEphemeralMessageText",
    "editEphemeralMessageMedia",
    "editEphemeralMessageCaption",
    "editEphemeralMessageReplyMarkup",
    "deleteEphemeralMessage",
    "createForumTopic",
    "editForumTopic",
    "closeForumTopic",
    "reopenForumTopic",
    "deleteForumTopic",
    "unpinAllForumTopicMessages",
    "editGeneralForumTopic",
    "closeGeneralForumTopic",
    "reopenGeneralForumTopic",
    "hideGeneralForumTopic",
    "unhideGeneralForumTopic",
)


def _aiogram_method(name: str) -> Any:
    for attribute in dir(methods):
        candidate = getattr(methods, attribute)
        if getattr(candidate, "__api_method__", None) == name:
            return candidate
    raise LookupError(name)


def test_version() -> None:
    assert load_spec().version == "Bot API 10.3"


@pytest.mark.parametrize("name", EPHEMERAL_AND_FORUM)
def test_fields_are_aiogram_3_31s(name: str) -> None:
    spec = load_spec().method(name)
    assert spec is not None
    cls = _aiogram_method(name)
    assert set(spec.fields) == set(cls.model_fields)
    required = {key for key, info in cls.model_fields.items() if info.is_required()}
    assert {key for key, field in spec.fields.items() if field.required} == required


@pytest.mark.parametrize("name", ["sendMessage", "sendPhoto", "sendSticker", "sendRichMessage"])
def test_send_methods_take_ephemeral_parameters(name: str) -> None:
    spec = load_spec().method(name)
    assert spec is not None
    assert spec.fields["ephemeral_message_parameters"].types == ("EphemeralMessageParameters",)
    for old in ("receiver_user_id", "callback_query_id"):
        if old in spec.fields:
            assert spec.fields[old].deprecated


def test_ephemeral_parameters_type() -> None:
    spec = load_spec()
    checked = spec.check_json(
        "EphemeralMessageParameters",
        {"receiver_user_id": 5, "callback_query_id": "7", "replace_callback_query_message": False},
        "ephemeral_message_parameters",
        [],
    )
    assert checked["receiver_user_id"] == 5
    assert spec.conform("BotCommand", {"command": "hand", "description": "x", "is_ephemeral": True})


def test_deprecated_field_is_accepted_but_reported() -> None:
    spec = load_spec()
    method = spec.method("sendMessage")
    assert method is not None
    parsed = spec.parse_request(method, {"chat_id": "-5", "text": "hi", "receiver_user_id": "9"})
    assert parsed.params["receiver_user_id"] == 9
    assert parsed.deprecated_fields == ["receiver_user_id"]
    assert parsed.unknown_fields == []
