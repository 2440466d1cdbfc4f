"""Calls outside every chat's queue (answers to presses, reads, the calls at start) are
retried like queued ones, and getUpdates is left to aiogram (bot/telegram/outgoing.py)."""

from __future__ import annotations

from typing import Any

import pytest
from aiogram.exceptions import TelegramBadRequest, TelegramRetryAfter, TelegramServerError
from aiogram.methods import AnswerCallbackQuery, GetUpdates, SendMessage, TelegramMethod

from bot.telegram.outgoing import Limits, Outgoing, QueueMiddleware
from tests.bot.test_outgoing import FakeApi, FakeTime

ANSWER = AnswerCallbackQuery(callback_query_id="42", text="ok")


def outgoing(time: FakeTime, api: FakeApi) -> Outgoing:
    return Outgoing(api, Limits(), clock=time.clock, sleep=time.sleep)


async def test_a_failing_answer_is_retried_until_telegram_takes_it() -> None:
    time = FakeTime()
    api = FakeApi(time)
    api.errors = [
        TelegramServerError(method=ANSWER, message="Bad Gateway"),
        TelegramRetryAfter(method=ANSWER, message="Too Many Requests", retry_after=2),
    ]
    out = outgoing(time, api)
    result = await out.direct(ANSWER, lambda: api(ANSWER))
    assert result == "ok:ok" and len(api.calls) == 3
    assert time.sleeps == [out.limits.backoff, 2]


async def test_a_refusal_reaches_the_caller_at_once() -> None:
    time = FakeTime()
    api = FakeApi(time)
    api.errors = [TelegramBadRequest(method=ANSWER, message="query is too old")]
    out = outgoing(time, api)
    with pytest.raises(TelegramBadRequest):
        await out.direct(ANSWER, lambda: api(ANSWER))
    assert len(api.calls) == 1 and time.sleeps == []


async def test_the_middleware_sends_answers_directly_and_leaves_polling_alone() -> None:
    time = FakeTime()
    api = FakeApi(time)
    out = outgoing(time, api)
    middleware = QueueMiddleware(out)
    made: list[str] = []

    async def make_request(bot: Any, method: TelegramMethod[Any]) -> Any:
        made.append(method.__api_method__)
        if isinstance(method, AnswerCallbackQuery) and made.count("answerCallbackQuery") == 1:
            raise TelegramServerError(method=method, message="Internal Server Error")
        if isinstance(method, GetUpdates) and made.count("getUpdates") == 1:
            raise TelegramServerError(method=method, message="Internal Server Error")
        return True

    assert await middleware(make_request, None, ANSWER) is True
    assert made == ["answerCallbackQuery", "answerCallbackQuery"]  # retried
    with pytest.raises(TelegramServerError):
        await middleware(make_request, None, GetUpdates(timeout=1))  # aiogram's to retry
    await middleware(make_request, None, SendMessage(chat_id=7, text="queued"))
    assert api.texts() == ["queued"]  # a send goes through the chat's queue
