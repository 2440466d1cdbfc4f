"""One outgoing queue per chat in front of the Bot API (TELEGRAM.md: limits).

Everything the bot sends goes through `Outgoing.call(chat_id, method)`:

- calls to one chat leave in order (within their lane, below), spaced by a token
  bucket per chat (about one message a second in a private chat, twenty a minute in
  a group, where edits count too) and one bucket for the whole bot (about thirty a
  second);
- a call with a `merge_key` (e.g. "edit the table message") that finds an older call
  with the same key still waiting replaces it: the older caller gets the newer
  call's result, and Telegram sees one edit instead of two;
- the game's own messages (the table, hands, lobby, votes, announcements: `Lane.GAME`)
  go before replies to commands (`Lane.REPLY`, everything a handler sends), so a flood
  of commands cannot hold a group's table back; one reply in
  `GAME_STREAK + 1` calls still goes while both wait, so replies are never starved;
- in a group, a reply whose text and keyboard equal a reply still waiting is not sent
  again: both commands get the one message (`/top` ×300 sends one table of standings);
- every chat's queue is bounded (`Limits.game_queue`, `Limits.reply_queue`): a full
  reply lane drops its oldest waiting reply, a full game lane refuses the new call
  (its caller redoes it on the next change); both with `QueueFull`, a kind of 429;
- a chat's entry is forgotten once it is idle and its bucket full again, so `_chats`
  holds only the chats written to in the last few seconds (see `Outgoing._sweep`);
- with `budgets` (`bot.telegram.flood_budgets`), a group's bucket is kept in the
  database: a new one starts from what this or another instance left there (refilled
  for the time since), and its tokens are noted after each call, so a takeover or a
  restart does not start with a full bucket while Telegram still counts the last minute
  (in shard mode a shard's groups are handed over by `hand_over` and `take_over`);
- with `overall` (`bot.telegram.bot_budget`), the bot-wide budget is one bucket in the
  database that every instance claims from, so several instances that all send keep
  together to what one would; without it, `limits.overall` is a bucket in memory;
- 429 `retry_after` makes only that chat wait; other chats go on; 5xx answers and
  dropped connections are retried a few times with backoff; "message is not modified"
  is success (`bot.telegram.retries`).

The buckets' shapes are `bot.telegram.pacing`.

`QueueMiddleware` puts the queue under aiogram's session, so a handler's plain
`message.answer(...)` is paced like everything else: no call that sends or edits in a
chat can overtake the limits. Every other call but getUpdates (answers to presses,
getChatMember, the calls at start) goes out at once with the same retries. Time is
injected (`clock`, `sleep`) so tests never wait for real.
"""

from __future__ import annotations

import asyncio
import contextvars
import enum
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from aiogram.client.session.middlewares.base import (
    BaseRequestMiddleware,
    NextRequestMiddlewareType,
)
from aiogram.exceptions import TelegramRetryAfter
from aiogram.methods import GetUpdates, SendMessage, TelegramMethod

from bot.telegram.flood_budgets import SharedBudgets
from bot.telegram.pacing import Limits, TokenBucket
from bot.telegram.retries import Retrying

__all__ = [
    "SWEEP_FLOOR",
    "Caller",
    "Lane",
    "Limits",
    "Outgoing",
    "OverallBudget",
    "QueueFull",
    "QueueMiddleware",
]

log = logging.getLogger(__name__)

T = TypeVar("T")

# Methods that put something in a chat and so count against its limits.
PACED_METHODS = frozenset(
    {
        "sendMessage",
        "sendPhoto",
        "sendDocument",
        "sendChatAction",
        "editMessageText",
        "editMessageCaption",
        "editMessageMedia",
        "editMessageReplyMarkup",
        "deleteMessage",
        "pinChatMessage",
        "unpinChatMessage",
    }
)

# While replies wait, at most this many game calls go before one of them: the table is
# held back by one message in GAME_STREAK + 1 at worst, and replies still move.
GAME_STREAK = 2

# `_chats` is never swept while it holds fewer entries than this.
SWEEP_FLOOR = 64

# Set inside the queue's own workers: their calls go straight to Telegram.
_IN_QUEUE: contextvars.ContextVar[bool] = contextvars.ContextVar("in_outgoing_queue", default=False)


class Lane(enum.IntEnum):
    """Which calls of a chat go first: the lower value."""

    GAME = 0  # what shows a game: the table, hands, the lobby, votes, announcements
    REPLY = 1  # answers to commands: everything a handler sends


class QueueFull(TelegramRetryAfter):
    """The chat's queue is full (a flood of commands): this call is not sent. Like
    Telegram's own 429, it says "this chat takes no more now", and is treated so."""

    def __init__(self, method: TelegramMethod[Any], chat_id: int, lane: Lane) -> None:
        super().__init__(
            method,
            f"the {lane.name.lower()} queue of chat {chat_id} is full",
            retry_after=1,
        )


# Run by the chat's worker right after Telegram's answer, before anything else.
SentHook = Callable[[Any], Awaitable[None]]


@dataclass
class _Job:
    method: TelegramMethod[Any]
    merge_key: Hashable | None
    waiters: list[asyncio.Future[Any]] = field(default_factory=list)
    on_sent: SentHook | None = None


@dataclass
class _ChatQueue:
    lanes: tuple[deque[_Job], deque[_Job]] = field(default_factory=lambda: (deque(), deque()))
    bucket: TokenBucket | None = None
    worker: asyncio.Task[None] | None = None
    game_streak: int = 0  # game calls sent in a row while replies waited

    @property
    def waiting(self) -> int:
        return sum(len(lane) for lane in self.lanes)

    def next_job(self) -> _Job:
        """The oldest game call, unless replies have waited through `GAME_STREAK` of
        them: a game that always has a new table picture ready must not starve the
        replies for ever."""
        game, replies = self.lanes
        if game and (not replies or self.game_streak < GAME_STREAK):
            self.game_streak = self.game_streak + 1 if replies else 0
            return game.popleft()
        self.game_streak = 0
        return replies.popleft()

    def jobs(self) -> list[_Job]:
        return [job for lane in self.lanes for job in lane]


Caller = Callable[[TelegramMethod[Any]], Awaitable[Any]]


class OverallBudget(Protocol):
    """The bot-wide budget when it is not this process's alone (`Outgoing(overall=...)`)."""

    async def acquire(self) -> None:
        """Return once one more call may leave (its token taken)."""


class Outgoing:
    """Per-chat ordered, paced, merging queues in front of `bot(method)`."""

    def __init__(
        self,
        call: Caller,
        limits: Limits | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
        budgets: SharedBudgets | None = None,
        overall: OverallBudget | None = None,
    ) -> None:
        """`budgets`: where the groups' buckets are shared (None: in memory only);
        `overall`: the bot-wide budget shared by several instances (None: a bucket of
        `limits.overall` in memory)."""
        self._call = call
        self.limits = limits or Limits()
        self._clock = clock
        self._sleep = sleep
        self._budgets = budgets
        self._chats: dict[int, _ChatQueue] = {}
        self._sweep_at = SWEEP_FLOOR  # `_sweep` when `_chats` grows past this
        self._shared_overall = overall
        pace = None if overall is not None else self.limits.overall
        self._overall = TokenBucket(pace, clock) if pace else None
        self._idle = asyncio.Event()
        self._idle.set()
        # The chats whose worker has calls to send or is sending one: idle when empty
        # (kept as a set: checking every chat's queue at each worker's end cost O(chats)).
        self._working: set[int] = set()
        self.retrying = Retrying(self.limits, clock, sleep)
        self.merged = 0  # calls folded into a newer one with the same merge_key
        self.dropped = 0  # calls not sent because their chat's queue was full

    @property
    def sent(self) -> int:
        """Calls that reached Telegram and succeeded, for logs and metrics."""
        return self.retrying.sent

    @property
    def flood_waits(self) -> int:
        """Telegram's 429s honoured (each call waited, then tried again)."""
        return self.retrying.flood_waits

    @property
    def retries(self) -> int:
        """Calls tried again after a 5xx, a dropped connection or a timeout."""
        return self.retrying.retries

    def call(
        self,
        chat_id: int,
        method: TelegramMethod[T],
        *,
        merge_key: Hashable | None = None,
        lane: Lane = Lane.GAME,
        on_sent: SentHook | None = None,
    ) -> asyncio.Future[T]:
        """Queue `method` for `chat_id`; the returned future resolves with Telegram's answer.
        `on_sent(answer)` runs in the chat's worker as soon as Telegram answered, before the
        worker goes on and before the caller resumes: the narrowest window there is between
        a message sent and it being recorded as sent. A call with
        `on_sent` is never merged with another."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        queue = self._chats.get(chat_id)
        if queue is None:
            if len(self._chats) >= self._sweep_at:
                self._sweep()
            queue = self._chats[chat_id] = _ChatQueue(bucket=self._bucket_for(chat_id))
        if merge_key is None and lane is Lane.REPLY and on_sent is None:
            merge_key = reply_key(chat_id, method)
        if on_sent is not None:
            merge_key = None
        jobs = queue.lanes[lane]
        if merge_key is not None:
            for job in jobs:
                if job.merge_key == merge_key:
                    job.method = method
                    job.waiters.append(future)
                    self.merged += 1
                    return future
        if len(jobs) >= self._bound(lane):
            if lane is Lane.GAME:
                future.set_exception(QueueFull(method, chat_id, lane))
                self.dropped += 1
                return future
            oldest = jobs.popleft()
            for waiter in oldest.waiters:
                if not waiter.done():
                    waiter.set_exception(QueueFull(oldest.method, chat_id, lane))
            self.dropped += 1
            log.warning(
                "chat %s: %d replies waiting; the oldest (%s) is dropped",
                chat_id,
                len(jobs) + 1,
                type(oldest.method).__name__,
            )
        jobs.append(_Job(method, merge_key, [future], on_sent))
        self._working.add(chat_id)
        self._idle.clear()
        if queue.worker is None or queue.worker.done():
            queue.worker = loop.create_task(self._work(chat_id, queue))
        return future

    async def drain(self) -> None:
        """Wait until every queued call has been answered."""
        await self._idle.wait()

    async def close(self) -> None:
        """Stop the workers; calls still waiting get CancelledError."""
        for queue in self._chats.values():
            if queue.worker is not None:
                queue.worker.cancel()
            for job in queue.jobs():
                for waiter in job.waiters:
                    waiter.cancel()
        self._chats.clear()
        self._working.clear()
        self._idle.set()

    async def hand_over(self, chats: Callable[[int], bool]) -> None:
        """Before the chats `chats` picks go to another instance (a shard given back):
        every call queued for them answered, then their groups' buckets written, so the
        taker's first call counts this instance's last ones. Telegram counts a group's
        calls of the last minute whoever made them: a taker that started from a bucket
        read before this one's last calls would send its pickup's edits on top of them
        and earn a 429."""
        while busy := [
            queue.worker
            for chat_id, queue in list(self._chats.items())
            if chats(chat_id) and queue.worker is not None and not queue.worker.done()
        ]:
            await asyncio.wait(busy)
        if self._budgets is not None:
            await self._budgets.flush()

    async def take_over(self, chats: Callable[[int], bool]) -> None:
        """Before the chats `chats` picks are picked up (a shard taken): their groups'
        buckets go on from what the database holds now (what the last holder left, see
        `hand_over`), not from what was read at the start nor from what this instance
        left when it last played them."""
        if self._budgets is None:
            return
        await self._budgets.reload(chats)
        for chat_id, queue in list(self._chats.items()):
            bucket = queue.bucket
            if chat_id < 0 and bucket is not None and chats(chat_id):
                stored = self._budgets.tokens_for(chat_id, bucket.pace)
                if stored is not None:
                    bucket.tokens = min(bucket.level(), stored)

    @property
    def chats(self) -> int:
        """How many chats have an entry now (for tests and logs)."""
        return len(self._chats)

    def waiting(self) -> dict[Lane, int]:
        """The calls waiting now in every chat, per lane (for /metrics: O(chats), read at
        a scrape, never on the way of a call)."""
        waiting = dict.fromkeys(Lane, 0)
        for queue in list(self._chats.values()):
            for lane, jobs in zip(Lane, queue.lanes, strict=True):
                waiting[lane] += len(jobs)
        return waiting

    def _bound(self, lane: Lane) -> int:
        return self.limits.game_queue if lane is Lane.GAME else self.limits.reply_queue

    def _sweep(self) -> None:
        """Forget the chats with nothing waiting whose bucket is full again: a new entry
        for them would start exactly as this one stands, so nothing is lost. Run when
        `_chats` has doubled since the last sweep, so it costs O(1) a call on average and
        `_chats` stays under max(SWEEP_FLOOR, twice the chats written to in the last
        `burst / rate` seconds: about 11 s for a group, 3 s for a private chat)."""
        for chat_id, queue in list(self._chats.items()):
            if queue.waiting or (queue.worker is not None and not queue.worker.done()):
                continue
            if queue.bucket is None or queue.bucket.full():
                del self._chats[chat_id]
        self._sweep_at = max(SWEEP_FLOOR, 2 * len(self._chats))

    def _bucket_for(self, chat_id: int) -> TokenBucket | None:
        pace = self.limits.private if chat_id > 0 else self.limits.group
        if pace is None:
            return None
        tokens = None  # a full bucket
        if self._budgets is not None and chat_id < 0:
            tokens = self._budgets.tokens_for(chat_id, pace)
        return TokenBucket(pace, self._clock, tokens)

    async def _work(self, chat_id: int, queue: _ChatQueue) -> None:
        _IN_QUEUE.set(True)
        while queue.waiting:
            await self._wait_turn(queue)
            job = queue.next_job()  # dropping a reply always makes room for a newer one
            try:
                result = await self._send(chat_id, queue, job.method)
            except Exception as exc:  # every caller learns the failure
                for waiter in job.waiters:
                    if not waiter.done():
                        waiter.set_exception(exc)
            else:
                if job.on_sent is not None:
                    try:
                        await job.on_sent(result)
                    except Exception:  # sent all the same: the caller gets the answer
                        log.exception(
                            "chat %s: the hook after %s failed", chat_id, type(job.method).__name__
                        )
                for waiter in job.waiters:
                    if not waiter.done():
                        waiter.set_result(result)
            if self._budgets is not None and chat_id < 0 and queue.bucket is not None:
                self._budgets.note(chat_id, queue.bucket.level())  # its retries taken too
        self._working.discard(chat_id)
        if not self._working:
            self._idle.set()

    async def _wait_turn(self, queue: _ChatQueue) -> None:
        for bucket in (queue.bucket, self._overall):
            if bucket is None:
                continue
            while (delay := bucket.wait_time()) > 0:
                await self._sleep(delay)
            bucket.take()
        if self._shared_overall is not None:
            await self._shared_overall.acquire()

    async def direct(self, method: TelegramMethod[T], call: Callable[[], Awaitable[T]]) -> T:
        """`call()` (which sends `method`) now, outside every chat's queue: answers to
        presses, reads, the calls at start. Only the retries apply (429, 5xx, dropped
        connections; an answer to a press within Telegram's window for it,
        `bot.telegram.retries`); a press unanswered because one call failed would spin
        for seconds."""
        deadline = self.retrying.deadline_for(method)
        result: T = await self.retrying.send(None, method, call, deadline=deadline)
        return result

    async def _send(self, chat_id: int, queue: _ChatQueue, method: TelegramMethod[Any]) -> Any:
        return await self.retrying.send(
            chat_id, method, lambda: self._call(method), paced=lambda: self._wait_turn(queue)
        )


def reply_key(chat_id: int, method: TelegramMethod[Any]) -> Hashable | None:
    """What makes two replies in a group the same: the method, its forum topic, its text
    and keyboard (not the message it answers: one table of standings answers every
    `/top` in a topic; a `/top` in another topic gets its own). In a private chat every
    command keeps its own reply (only its sender waits there, and the game's messages go
    first anyway); None: never merged."""
    if chat_id > 0 or not isinstance(method, SendMessage):
        return None
    markup = method.reply_markup
    keyboard = markup.model_dump_json(exclude_none=True) if markup is not None else None
    return ("reply", method.message_thread_id, method.text, str(method.parse_mode), keyboard)


class QueueMiddleware(BaseRequestMiddleware):
    """Routes every call that sends or edits in a chat through `Outgoing`; these are the
    handlers' replies (the game's own messages are queued by the publisher directly)."""

    def __init__(self, out: Outgoing) -> None:
        self.out = out

    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[T],
        bot: Any,
        method: TelegramMethod[T],
    ) -> Any:
        chat_id = getattr(method, "chat_id", None)
        if _IN_QUEUE.get() or isinstance(method, GetUpdates):
            return await make_request(bot, method)  # aiogram's polling retries by itself
        if method.__api_method__ not in PACED_METHODS or not isinstance(chat_id, int):
            return await self.out.direct(method, lambda: make_request(bot, method))
        return await self.out.call(chat_id, method, lane=Lane.REPLY)
