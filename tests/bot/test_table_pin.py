"""bot.telegram.table_pin: how far a group has moved on past a message, and pins that a group
refuses are not asked for again."""

from __future__ import annotations

import datetime
from typing import Any

from aiogram.exceptions import TelegramBadRequest
from aiogram.methods import PinChatMessage, TelegramMethod, UnpinChatMessage
from aiogram.types import Chat, Message, PhotoSize

from bot.telegram.outgoing import Limits, Outgoing
from bot.telegram.table_pin import SINK_DEPTH, GroupTail, Pins

GROUP = -4_000_000_001  # a basic group: ids are the bot's account's
SUPERGROUP = -1_000_000_000_001  # ids number the chat's own messages


def message(chat_id: int, message_id: int, *, picture: bool = False) -> Message:
    return Message(
        message_id=message_id,
        date=datetime.datetime(2026, 12, 1, tzinfo=datetime.UTC),
        chat=Chat(id=chat_id, type="group" if chat_id == GROUP else "supergroup"),
        photo=[PhotoSize(file_id="f", file_unique_id="u", width=1280, height=1300)]
        if picture
        else None,
    )


def test_a_picture_below_the_table_buries_it_by_itself() -> None:
    """A round's end picture is a screen tall: the table above it is off the screen."""
    tail = GroupTail()
    tail.saw_answer(message(GROUP, 10, picture=True))  # the table itself
    tail.saw_answer(message(GROUP, 11))
    assert not tail.sunk(GROUP, 10)
    tail.saw_answer(message(GROUP, 12, picture=True))
    assert tail.sunk(GROUP, 10) and not tail.sunk(GROUP, 12)


def test_a_basic_group_counts_the_messages_seen_after_the_table() -> None:
    tail = GroupTail()
    for k in range(SINK_DEPTH - 1):
        tail.saw(GROUP, 100 + 7 * k)  # the bot's account's ids skip its private chats
    assert tail.newer_than(GROUP, 99) == SINK_DEPTH - 1 and not tail.sunk(GROUP, 99)
    tail.saw(GROUP, 300)
    tail.saw(GROUP, 300)  # an edit of it: the same message
    assert tail.sunk(GROUP, 99)
    assert not tail.sunk(GROUP, 128)  # only 300 is newer than 128


def test_a_supergroup_counts_unseen_messages_by_their_ids() -> None:
    tail = GroupTail()
    tail.saw(SUPERGROUP, 10)
    assert not tail.sunk(SUPERGROUP, 10)
    tail.saw(SUPERGROUP, 10 + SINK_DEPTH)  # chatter the bot never saw came between
    assert tail.newer_than(SUPERGROUP, 10) == SINK_DEPTH and tail.sunk(SUPERGROUP, 10)


def test_only_groups_are_watched_and_memory_is_bounded() -> None:
    tail = GroupTail(depth=3, chats=2)
    tail.saw(42, 1)  # a private chat
    tail.saw_answer([message(GROUP, 5), message(GROUP, 6), True])
    tail.saw_answer(message(SUPERGROUP, 7))
    for k in range(10):
        tail.saw(GROUP, 100 + k)
    assert tail.newer_than(GROUP, 0) == 3  # the newest three are kept
    tail.saw(GROUP, 50)  # older than all of them: changes nothing
    assert tail.newer_than(GROUP, 106) == 3
    tail.saw(-3, 1)  # a third chat: the least recently seen is forgotten
    assert tail.newer_than(SUPERGROUP, 0) == 0
    assert tail.newer_than(42, 0) == 0


class Api:
    """Telegram as the outgoing queue sees it: pins refused while `admin` is False."""

    def __init__(self) -> None:
        self.admin = False
        self.calls: list[TelegramMethod[Any]] = []

    async def __call__(self, method: TelegramMethod[Any]) -> Any:
        self.calls.append(method)
        if not self.admin:
            raise TelegramBadRequest(
                method, "Bad Request: not enough rights to manage pinned messages in the chat"
            )
        return True


async def test_a_group_that_refuses_pins_is_not_asked_again_until_the_rights_change() -> None:
    api = Api()
    pins = Pins(Outgoing(api, Limits.off()))
    assert await pins.pin(GROUP, 5) is False
    assert await pins.pin(GROUP, 6) is False and await pins.unpin(GROUP, 5) is False
    assert len(api.calls) == 1 and not pins.may_pin(GROUP)
    pin = api.calls[0]
    assert isinstance(pin, PinChatMessage) and pin.disable_notification is True

    api.admin = True
    pins.rights_changed(GROUP)
    assert await pins.pin(GROUP, 6) is True and await pins.unpin(GROUP, 6) is True
    assert isinstance(api.calls[-1], UnpinChatMessage) and len(api.calls) == 3


async def test_other_refusals_are_not_taken_for_missing_rights() -> None:
    async def gone(method: TelegramMethod[Any]) -> Any:
        raise TelegramBadRequest(method, "Bad Request: message to pin not found")

    pins = Pins(Outgoing(gone, Limits.off()))
    assert await pins.pin(GROUP, 5) is False
    assert pins.may_pin(GROUP)
