"""The outgoing queue: order, pacing, merging, retry_after, retries (bot/telegram/outgoing.py).

A fake clock stands in for time: `sleep` advances it, so nothing here waits for real.
The end-to-end behaviour against tests/fakegram is covered by the bot's own tests.
"""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

import pytest
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.methods import AnswerCallbackQuery, EditMessageText, SendMessage, TelegramMethod
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.telegram.outgoing import SWEEP_FLOOR, Lane, Limits, Outgoing, QueueFull
from bot.telegram.pacing import Pace
from bot.telegram.retries import ANSWER_WINDOW

GROUP = -100
PRIVATE = 7


class FakeTime:
    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds
        await asyncio.sleep(0)


class FakeApi:
    """Records what reaches 'Telegram' with the fake time; raises scripted errors."""

    def __init__(self, time: FakeTime) -> None:
        self.time = time
        self.calls: list[tuple[float, TelegramMethod[Any]]] = []
        self.errors: list[Exception] = []

    async def __call__(self, method: TelegramMethod[Any]) -> Any:
        await asyncio.sleep(0)
        self.calls.append((self.time.now, method))
        if self.errors:
            raise self.errors.pop(0)
        return f"ok:{getattr(method, 'text', '')}"

    def texts(self) -> list[str]:
        return [getattr(m, "text", "") for _, m in self.calls]


def make(limits: Limits | None = None) -> tuple[Outgoing, FakeApi, FakeTime]:
    time = FakeTime()
    api = FakeApi(time)
    return Outgoing(api, limits, clock=time.clock, sleep=time.sleep), api, time


def send(chat: int, text: str) -> SendMessage:
    return SendMessage(chat_id=chat, text=text)


async def test_calls_to_one_chat_leave_in_order_and_return_answers() -> None:
    out, api, _ = make(Limits.off())
    results = await asyncio.gather(*(out.call(GROUP, send(GROUP, str(i))) for i in range(5)))
    assert results == [f"ok:{i}" for i in range(5)]
    assert api.texts() == ["0", "1", "2", "3", "4"]


async def test_a_group_is_paced_to_twenty_a_minute_after_its_burst() -> None:
    out, api, _ = make(Limits(group=Pace(rate=20 / 60, burst=3), private=None, overall=None))
    await asyncio.gather(*(out.call(GROUP, send(GROUP, str(i))) for i in range(23)))
    times = [t for t, _ in api.calls]
    assert times[:3] == [0.0, 0.0, 0.0]  # the burst
    # No sliding minute holds more than 20 + burst calls; steady state is one per 3 s.
    for start in times:
        assert sum(1 for t in times if start <= t < start + 60) <= 23
    gaps = [b - a for a, b in itertools.pairwise(times[3:])]
    assert all(gap == pytest.approx(3.0) for gap in gaps)


async def test_one_chats_pacing_does_not_delay_another_chat() -> None:
    out, api, _ = make(Limits(group=Pace(rate=1 / 60, burst=1), private=None, overall=None))
    slow = [out.call(GROUP, send(GROUP, f"g{i}")) for i in range(3)]
    await out.call(PRIVATE, send(PRIVATE, "p"))
    await asyncio.gather(*slow)
    # The private message went out while the group waited for its next token.
    assert api.texts() == ["g0", "p", "g1", "g2"]
    assert [t for t, m in api.calls if m.chat_id == GROUP] == [0.0, 60.0, 120.0]


async def test_waiting_edits_of_one_message_are_merged_into_the_newest() -> None:
    out, api, _ = make(Limits(group=Pace(rate=1.0, burst=1), private=None, overall=None))
    first = out.call(GROUP, send(GROUP, "announce"))
    edits = [
        out.call(
            GROUP,
            EditMessageText(chat_id=GROUP, message_id=5, text=f"table v{i}"),
            merge_key=("edit", GROUP, 5),
        )
        for i in range(4)
    ]
    await asyncio.gather(first, *edits)
    assert api.texts() == ["announce", "table v3"]
    assert [e.result() for e in edits] == ["ok:table v3"] * 4
    assert out.merged == 3


async def test_retry_after_makes_only_that_chat_wait() -> None:
    out, api, time = make(Limits.off())
    method = send(GROUP, "x")
    api.errors.append(TelegramRetryAfter(method, "Too Many Requests: retry after 7", 7))
    result = await out.call(GROUP, method)
    assert result == "ok:x"
    assert time.sleeps == [7]
    assert len(api.calls) == 2


async def test_message_not_modified_counts_as_success() -> None:
    out, api, _ = make(Limits.off())
    method = EditMessageText(chat_id=GROUP, message_id=1, text="same")
    api.errors.append(
        TelegramBadRequest(
            method,
            "Bad Request: message is not modified: specified new message content and reply"
            " markup are exactly the same as a current content and reply markup of the message",
        )
    )
    assert await out.call(GROUP, method) is True


async def test_server_errors_are_retried_with_backoff_then_given_up() -> None:
    out, api, time = make(Limits(private=None, group=None, overall=None, retries=2, backoff=0.5))
    method = send(PRIVATE, "x")
    api.errors.extend([TelegramServerError(method, "Internal Server Error")] * 2)
    assert await out.call(PRIVATE, method) == "ok:x"
    assert time.sleeps == [0.5, 1.0]

    api.errors.extend([TelegramServerError(method, "Internal Server Error")] * 3)
    with pytest.raises(TelegramServerError):
        await out.call(PRIVATE, method)


async def test_an_answer_to_a_press_is_tried_again_as_long_as_its_window_lasts() -> None:
    """A press's answer is worth sending for ANSWER_WINDOW seconds: it is tried again at
    pauses of at most ANSWER_PAUSE (more often than `Limits.retries` allows other calls),
    and no try or 429 wait is begun that would end after the window."""
    out, api, time = make(Limits(private=None, group=None, overall=None, retries=2, backoff=0.5))
    answer = AnswerCallbackQuery(callback_query_id="1")
    api.errors.extend([TelegramServerError(answer, "Bad Gateway")] * 8)
    assert await out.direct(answer, lambda: api(answer)) == "ok:None"
    assert time.sleeps == [0.5, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]
    assert len(api.calls) == 9

    time.sleeps.clear()
    started = time.now
    api.errors.extend([TelegramServerError(answer, "Bad Gateway")] * 100)
    with pytest.raises(TelegramServerError):
        await out.direct(answer, lambda: api(answer))
    assert time.now - started <= ANSWER_WINDOW and time.now - started > ANSWER_WINDOW - 1
    api.errors.clear()

    api.errors.append(TelegramRetryAfter(answer, "Too Many Requests: retry after 20", 20))
    with pytest.raises(TelegramRetryAfter):
        await out.direct(answer, lambda: api(answer))  # 20 s: past the window, not waited
    api.errors.append(TelegramRetryAfter(answer, "Too Many Requests: retry after 3", 3))
    time.sleeps.clear()
    assert await out.direct(answer, lambda: api(answer)) == "ok:None"
    assert time.sleeps == [3]


async def test_forbidden_reaches_the_caller_and_the_queue_goes_on() -> None:
    out, api, _ = make(Limits.off())
    blocked = send(PRIVATE, "hand")
    api.errors.append(TelegramForbiddenError(blocked, "Forbidden: bot was blocked by the user"))
    failed = out.call(PRIVATE, blocked)
    after = out.call(PRIVATE, send(PRIVATE, "next"))
    with pytest.raises(TelegramForbiddenError):
        await failed
    assert await after == "ok:next"
    await out.drain()


# --- the game first, identical replies once, bounded queues --------------------------


def reply(chat: int, text: str, to: int) -> SendMessage:
    """A handler's `message.reply(text)` to the message `to`."""
    return SendMessage(chat_id=chat, text=text, reply_to_message_id=to)


async def test_the_games_messages_overtake_waiting_replies() -> None:
    out, api, _ = make(Limits(group=Pace(rate=1.0, burst=1), private=None, overall=None))
    replies = [out.call(GROUP, send(GROUP, f"r{i}"), lane=Lane.REPLY) for i in range(3)]
    table = out.call(GROUP, send(GROUP, "table"))
    announcement = out.call(GROUP, send(GROUP, "round over"))
    await asyncio.gather(*replies, table, announcement)
    assert api.texts() == ["table", "round over", "r0", "r1", "r2"]


async def test_a_busy_game_still_lets_one_reply_through_in_three_calls() -> None:
    out, api, _ = make(Limits(group=Pace(rate=1.0, burst=1), private=None, overall=None))
    replies = [out.call(GROUP, send(GROUP, f"r{i}"), lane=Lane.REPLY) for i in range(3)]
    game = [out.call(GROUP, send(GROUP, f"g{i}")) for i in range(5)]
    await asyncio.gather(*replies, *game)
    assert api.texts() == ["g0", "g1", "r0", "g2", "g3", "r1", "g4", "r2"]


async def test_identical_replies_waiting_in_a_group_are_sent_once() -> None:
    out, api, _ = make(Limits(group=Pace(rate=1.0, burst=1), private=None, overall=None))
    keyboard = InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text="»", callback_data="t1:2")]]
    )
    first = out.call(GROUP, send(GROUP, "busy"), lane=Lane.REPLY)
    tops = [
        out.call(
            GROUP,
            SendMessage(chat_id=GROUP, text="top", reply_markup=keyboard, reply_to_message_id=i),
            lane=Lane.REPLY,
        )
        for i in range(10)
    ]
    other = out.call(GROUP, reply(GROUP, "top", to=99), lane=Lane.REPLY)  # no keyboard
    results = await asyncio.gather(first, *tops, other)
    assert api.texts() == ["busy", "top", "top"]
    assert results[1:-1] == ["ok:top"] * 10  # every /top learns of the one message
    assert out.merged == 9


async def test_identical_replies_in_a_private_chat_each_go_out() -> None:
    out, api, _ = make(Limits(private=Pace(rate=1.0, burst=1), group=None, overall=None))
    await asyncio.gather(
        *(out.call(PRIVATE, reply(PRIVATE, "rules", to=i), lane=Lane.REPLY) for i in range(4))
    )
    assert api.texts() == ["rules"] * 4
    assert out.merged == 0


async def test_a_full_reply_lane_drops_its_oldest_reply() -> None:
    limits = Limits(group=Pace(rate=1.0, burst=1), private=None, overall=None, reply_queue=3)
    out, api, _ = make(limits)
    waiting = [out.call(GROUP, send(GROUP, f"r{i}"), lane=Lane.REPLY) for i in range(5)]
    table = out.call(GROUP, send(GROUP, "table"))
    await asyncio.gather(*waiting, table, return_exceptions=True)
    # At most 3 replies ever waited: r0 and r1 made room for r3 and r4.
    assert api.texts() == ["table", "r2", "r3", "r4"]
    for dropped in waiting[:2]:
        assert isinstance(dropped.exception(), QueueFull)
    assert out.dropped == 2


async def test_a_full_game_lane_refuses_the_new_call() -> None:
    limits = Limits(group=Pace(rate=1.0, burst=1), private=None, overall=None, game_queue=2)
    out, api, _ = make(limits)
    calls = [out.call(GROUP, send(GROUP, f"g{i}")) for i in range(4)]
    await asyncio.gather(*calls, return_exceptions=True)
    # g0 and g1 filled the lane; g2 and g3 were refused (their callers redo them).
    assert api.texts() == ["g0", "g1"]
    assert [isinstance(c.exception(), QueueFull) for c in calls] == [False, False, True, True]


async def test_idle_chats_are_forgotten_once_their_bucket_is_full_again() -> None:
    out, api, time = make()  # the real limits: a group refills its burst in about 11 s
    groups = [-(1000 + i) for i in range(3 * SWEEP_FLOOR)]
    for chat in groups[:SWEEP_FLOOR]:
        await out.call(chat, send(chat, "x"))
    assert out.chats == SWEEP_FLOOR
    # Just written to: their buckets are not full, so a sweep keeps every one of them.
    await out.call(groups[SWEEP_FLOOR], send(groups[SWEEP_FLOOR], "x"))
    assert out.chats == SWEEP_FLOOR + 1
    time.now += 12.0  # every bucket is full again
    for chat in groups[SWEEP_FLOOR + 1 :]:
        await out.call(chat, send(chat, "x"))
        assert out.chats <= 2 * SWEEP_FLOOR + 2
    # The bound holds however many chats the bot ever wrote to.
    assert out.chats <= 2 * SWEEP_FLOOR + 2 < len(groups)
    assert len(api.calls) == len(groups)


async def test_on_sent_runs_right_after_the_answer_before_the_chats_next_call() -> None:
    out, api, _ = make(Limits.off())
    events: list[str] = []

    async def mark(answer: Any) -> None:
        events.append(f"marked {answer} with {len(api.calls)} calls made")

    async def broken(answer: Any) -> None:
        raise RuntimeError("the database is gone")

    first = out.call(GROUP, send(GROUP, "a"), on_sent=mark)
    second = out.call(GROUP, send(GROUP, "a"), on_sent=broken, lane=Lane.REPLY)
    after = out.call(GROUP, send(GROUP, "b"))
    assert await first == "ok:a"
    events.append("caller resumed")
    assert await second == "ok:a"  # a failed hook costs the caller nothing; never merged
    await after
    assert events == ["marked ok:a with 1 calls made", "caller resumed"]
    assert api.texts() == ["a", "b", "a"]
