"""What the front end makes of a forum topic that refuses the bot (`bot.telegram.topics`)."""

from __future__ import annotations

from aiogram.exceptions import TelegramBadRequest
from aiogram.methods import SendMessage

from bot.app.inbox import Inbox, TopicClosed, TopicLost
from bot.telegram.topics import Topics

GROUP = -1001


def refusal(text: str) -> TelegramBadRequest:
    return TelegramBadRequest(SendMessage(chat_id=GROUP, text="x"), f"Bad Request: {text}")


def told(inbox: Inbox) -> list[object]:
    events = []
    while inbox.pending():
        events.append(inbox._events.get_nowait())
    return events


def test_a_closed_topic_is_told_once_and_held_until_reopened() -> None:
    inbox = Inbox()
    topics = Topics(inbox)
    assert topics.refused(GROUP, 7, 1, refusal("TOPIC_CLOSED"))
    assert topics.refused(GROUP, 7, 1, refusal("TOPIC_CLOSED"))
    assert topics.closed(GROUP, 7) and not topics.closed(GROUP, 8)
    assert told(inbox) == [TopicClosed(GROUP, 7, 1)]
    topics.reopened(GROUP, 7)
    assert not topics.closed(GROUP, 7)
    assert topics.refused(GROUP, 7, 1, refusal("TOPIC_CLOSED"))  # closed again: told again
    assert told(inbox) == [TopicClosed(GROUP, 7, 1)]


def test_a_deleted_topic_is_lost_and_other_refusals_are_not_the_topics() -> None:
    inbox = Inbox()
    topics = Topics(inbox)
    assert topics.refused(GROUP, 7, 1, refusal("message thread not found"))
    assert told(inbox) == [TopicLost(GROUP, 7)]
    # General has no thread to lose; any other refusal is someone else's to handle.
    assert not topics.refused(GROUP, None, 1, refusal("message thread not found"))
    assert not topics.refused(GROUP, 7, 1, refusal("message to edit not found"))
    assert told(inbox) == []
