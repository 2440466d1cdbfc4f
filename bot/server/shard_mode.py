"""Shard mode at run time (issue 35, docs/instances.md): every instance plays the games
of the shards it holds (`bot.server.shards.ShardKeeper`).

- **Ownership.** `ShardOwnership` is the core's `Ownership`: an instance plays a chat
  while it holds the chat's shard, and the work it does for the chat checks that
  shard's term (`storage.db.acting_for`). A renewal late for a moment changes nothing
  of that (only Telegram waits: `InstanceGuard`); a shard leaves by `let_go` then
  `give_back`, or is lost and the process stops.
- **Receiving.** Telegram's updates are stored in the queue (`storage.update_queue`)
  with the shard of the chat they act on (`UpdateRouter`), and nothing more is done by
  the receiver (`Receiver`): in polling mode by the holder of shard 0 alone, while its
  lease surely runs (polling moves with shard 0: the new holder's first poll ends the
  old one's); with a webhook by whichever instance the proxy hands a post to, which
  answers 200 once the update is stored.
- **Consuming.** For each shard it holds, an instance takes that shard's waiting updates
  (`ShardConsumers`), each chat's in order, several chats at once, and feeds each to the
  dispatcher inside `acting_for(fence=<the shard's fence>, update_id=...)`: the first
  change the handling commits deletes the queued update in its own transaction; a
  handling that changed nothing is `done` in the same scope. A second handling of an
  update (a takeover's moment) is refused (`AlreadyHandled`) and dropped.
- **Shards moving** (`ShardRuntime`): a shard gained is picked up as a restart picks up
  every game (its groups' flood budgets read first), then consumed; a shard asked back
  is no longer consumed, its updates in hand finish, its games are let go, its groups'
  last calls are answered and their budgets written, and it is given back. A shard found
  taken, or the instance found stalled, stops the process at once (exit 75, as a deposed
  leader).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from aiogram import Bot, Dispatcher
from aiogram.client.session.middlewares.base import (
    BaseRequestMiddleware,
    NextRequestMiddlewareType,
)
from aiogram.exceptions import TelegramAPIError, TelegramConflictError
from aiogram.filters.callback_data import CallbackData
from aiogram.methods import AnswerCallbackQuery, GetUpdates, TelegramMethod
from aiogram.types import Update

from bot.server.leadership import CONFLICT_PAUSE
from bot.server.shards import ShardKeeper
from bot.telegram.callbacks import (
    BackCb,
    CancelCb,
    GroupHandCb,
    HandCb,
    LobbyCb,
    MoveCb,
    RematchCb,
    RemoveCb,
    SurrenderCb,
    TournamentCb,
    VoteCb,
)
from storage import shards, update_queue
from storage.db import (
    DATABASE_ERRORS,
    AlreadyHandled,
    Database,
    Deposed,
    Fence,
    acting_for,
    retrying,
)

log = logging.getLogger(__name__)

# The callback data that name a game by its first field (`game`).
GAME_CALLBACKS: tuple[type[CallbackData], ...] = (
    LobbyCb,
    MoveCb,
    HandCb,
    GroupHandCb,
    CancelCb,
    SurrenderCb,
    BackCb,
    RematchCb,
    RemoveCb,
)
GAME_PREFIXES = frozenset(str(cls.__prefix__) for cls in GAME_CALLBACKS)
VOTE_PREFIX = str(VoteCb.__prefix__)
TOURNAMENT_PREFIX = str(TournamentCb.__prefix__)
CALLBACK_SEPARATOR = ":"  # aiogram's `CallbackData` separator
CACHED_CHATS = 10_000  # games, votes and tournaments whose chat is remembered
POLL_SECONDS = 10  # a long poll's length (within the lease's sure time)
POLL_PAUSE = 1.0  # seconds between polls while shard 0 is not surely held
CHECK_SECONDS = 2.0  # a consumer looks at its shard at least this often
HANDLING_PER_SHARD = 16  # updates of one shard handled at once (of different chats)
GUARD_PAUSE = 0.05  # seconds a call waits between looks while the instance is unsure
# A poll that failed (Telegram, the network, the database storing its updates): tried again.
POLL_FAILURES: tuple[type[Exception], ...] = (TelegramAPIError, TimeoutError, *DATABASE_ERRORS)


# Ownership.


class ShardOwnership:
    """The core's `Ownership` in shard mode: a chat is played while its shard is held;
    the work done for it checks the shard's fence.

    Held, not "held and surely running" (`ShardKeeper.valid`): a renewal slow for a
    moment must not make a turn's timeout, a computer's move or a lobby's expiry be
    skipped and lost. A shard that really moves is given back after `let_go`, or is
    lost (the process stops); a change made meanwhile by a stalled instance is refused
    by the shard's fence, and its calls to Telegram wait (`InstanceGuard`)."""

    def __init__(self, keeper: ShardKeeper) -> None:
        self.keeper = keeper
        self.count = keeper.count

    def shard(self, chat_id: int) -> int:
        return shards.shard_of(chat_id, self.count)

    def owns(self, chat_id: int) -> bool:
        return self.shard(chat_id) in self.keeper.owned()

    @contextlib.contextmanager
    def acting(self, chat_id: int) -> Iterator[object]:
        """The shard's scope; for a shard not held, a fence that refuses every change
        (it must not fall back on the instance's own fence)."""
        shard = self.shard(chat_id)
        fence = self.keeper.fence_for(shard) or refusing_fence(shard)
        with acting_for(fence=fence) as scope:
            yield scope


def refusing_fence(shard: int) -> Fence:
    """The fence of a shard this instance does not hold: no term is 0 (terms begin at
    1), so every change checked by it is refused."""

    def refused(refusal: Deposed) -> None:
        log.warning("%s: shard %d is not held here", refusal, shard)

    return Fence(shards.lease_name(shard), 0, refused)


# Routing.


@dataclass(frozen=True, slots=True)
class Route:
    """Where an update goes: its `shard`, and the chat whose updates it is ordered with
    (None: an update of no chat and no person)."""

    shard: int
    chat_id: int | None


class UpdateRouter:
    """The shard of an update: the chat it acts on. A press in a private chat (a hand) or
    on a message not in a chat (inline) acts on the game, vote or tournament its
    callback data names, so it goes to that one's chat (read once, then remembered);
    what names no chat goes to the person's private chat; what has neither to shard 0."""

    def __init__(self, db: Database, count: int, *, cached: int = CACHED_CHATS) -> None:
        self.db = db
        self.count = count
        self._cached = cached
        self._chats: OrderedDict[tuple[str, int], int | None] = OrderedDict()

    async def route(self, update: Update) -> Route:
        chat_id = await self.chat_of(update)
        return Route(0 if chat_id is None else shards.shard_of(chat_id, self.count), chat_id)

    async def chat_of(self, update: Update) -> int | None:
        """The chat `update` acts on (see the class)."""
        query = update.callback_query
        if query is not None:
            message = query.message
            if message is not None and message.chat.type != "private":
                return message.chat.id
            named = await self._named_chat(query.data)
            return named if named is not None else query.from_user.id
        event = update.event
        chat = getattr(event, "chat", None)
        if chat is not None:
            return int(chat.id)
        person = getattr(event, "from_user", None) or getattr(event, "user", None)
        return None if person is None else int(person.id)

    async def _named_chat(self, data: str | None) -> int | None:
        """The chat of the game, vote or tournament the callback data names (its first
        field: an id), if it is one that names one and exists."""
        if not data:
            return None
        prefix, _, rest = data.partition(CALLBACK_SEPARATOR)
        first = rest.partition(CALLBACK_SEPARATOR)[0]
        if not first.isascii() or not first.isdigit() or len(first) > 19:
            return None
        if prefix in GAME_PREFIXES:
            kind = "game"
        elif prefix == VOTE_PREFIX:
            kind = "vote"
        elif prefix == TOURNAMENT_PREFIX:
            kind = "tournament"
        else:
            return None
        return await self._chat_of(kind, int(first))

    async def _chat_of(self, kind: str, number: int) -> int | None:
        key = (kind, number)
        if key in self._chats:
            self._chats.move_to_end(key)
            return self._chats[key]
        chat_id = await shards.chat_named(self.db, kind, number)
        if chat_id is not None:  # a game made later under that id is not remembered None
            self._chats[key] = chat_id
            if len(self._chats) > self._cached:
                self._chats.popitem(last=False)
        return chat_id


# Receiving.


def update_body(update: Update) -> str:
    """The update as Telegram's JSON (by its field names: "from", not "from_user")."""
    return update.model_dump_json(exclude_none=True, by_alias=True)


def parse_body(body: str, bot: Bot) -> Update:
    """A stored update as aiogram's `Update`, bound to `bot`."""
    return Update.model_validate(json.loads(body), context={"bot": bot})


class Receiver:
    """Stores each update received in the queue with its shard, and wakes this
    instance's consumer of that shard (other instances are woken by the database's
    notice)."""

    def __init__(
        self,
        db: Database,
        router: UpdateRouter,
        *,
        woken: Callable[[int], None] = lambda shard: None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.db = db
        self.router = router
        self._woken = woken
        self._clock = clock
        self.received = 0

    async def store(self, update: Update, body: str | None = None) -> Route:
        """Queue `update` (`body`: its JSON as received, else made from it); Telegram
        delivering it again changes nothing."""
        route = await self.router.route(update)
        text = body if body is not None else update_body(update)
        if await update_queue.put(
            self.db, update.update_id, route.shard, route.chat_id, text, now=self._clock()
        ):
            self.received += 1
        self._woken(route.shard)
        return route

    async def store_webhook_post(self, update: Update, body: bytes) -> None:
        """A webhook post's update, stored as posted (`bot.server.web.WebhookHandler`)."""
        await self.store(update, body.decode("utf-8"))


class Poller:
    """Long polling by the holder of shard 0, while its lease surely runs: each poll's
    updates are stored, then confirmed by the next poll's offset, so an update is never
    confirmed before it is stored. A poll ended by another instance's (shard 0 moved)
    is a takeover, not a fault: one WARNING, a pause, and the guard decides."""

    def __init__(
        self,
        bot: Bot,
        receiver: Receiver,
        *,
        may_poll: Callable[[], bool],
        allowed_updates: list[str] | None = None,
        poll_seconds: int = POLL_SECONDS,
        pause: float = POLL_PAUSE,
    ) -> None:
        self.bot = bot
        self.receiver = receiver
        self._may_poll = may_poll
        self.allowed_updates = allowed_updates
        self.poll_seconds = poll_seconds
        self.pause = pause
        self._offset: int | None = None
        self._polling = False

    async def run(self) -> None:
        """Poll until cancelled."""
        failing = False
        while True:
            if not self._may_poll():
                if self._polling:
                    log.info("polling stops here: shard 0 is not surely held")
                    self._polling, self._offset = False, None
                await asyncio.sleep(self.pause)
                continue
            if not self._polling:
                log.info("polling Telegram here: this instance holds shard 0")
                self._polling = True
            try:
                await self.poll_once()
            except TelegramConflictError as exc:
                log.warning("a long poll was ended by another instance's: %s", exc.message)
                await asyncio.sleep(CONFLICT_PAUSE)
            except POLL_FAILURES as exc:
                if not failing:
                    log.warning("polling fails for now (%s); tried again", type(exc).__name__)
                    failing = True
                await asyncio.sleep(self.pause)
            else:
                failing = False

    async def poll_once(self) -> int:
        """One long poll, its updates stored in order: how many came."""
        updates = await self.bot.get_updates(
            offset=self._offset,
            timeout=self.poll_seconds,
            allowed_updates=self.allowed_updates,
            request_timeout=self.poll_seconds + 10,
        )
        for update in updates:
            await self.receiver.store(update)
            self._offset = update.update_id + 1
        return len(updates)


# Calling Telegram.


class InstanceGuard(BaseRequestMiddleware):
    """The innermost middleware of the Bot API session in shard mode, as
    `bot.server.leadership.LeaseGuard` is for a leader: a call goes out only while the
    instance's own lease surely runs (`ShardKeeper.instance_valid`), which is renewed
    with its shards in one statement. So an instance just resumed from a pause, or cut
    off from the database, sends nothing for games whose shards may have moved on until
    its keeper has renewed (or found it evicted, and stopped the process). Answers to
    presses go at once (they change nothing), and polls are guarded by the poller."""

    def __init__(self, keeper: ShardKeeper, *, pause: float = GUARD_PAUSE) -> None:
        self.keeper = keeper
        self.pause = pause

    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[Any],
        bot: Any,
        method: TelegramMethod[Any],
    ) -> Any:
        if not isinstance(method, AnswerCallbackQuery | GetUpdates):
            while not self.keeper.instance_valid():
                await asyncio.sleep(self.pause)
        return await make_request(bot, method)


# Consuming.


Feed = Callable[[update_queue.Queued], Awaitable[None]]


def dispatcher_feed(dp: Dispatcher, bot: Bot, **data: Any) -> Feed:
    """A queued update handed to the dispatcher, as polling hands it (a handler's
    returned method is called)."""

    async def feed(queued: update_queue.Queued) -> None:
        update = parse_body(queued.body, bot)
        result = await dp.feed_update(bot, update, **data)
        if isinstance(result, TelegramMethod):
            await dp.silent_call_request(bot=bot, result=result)

    return feed


@dataclass(eq=False)
class _Shard:
    """One shard's consumer: its task, the updates in hand (id → task), its wake-up."""

    shard: int
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    handling: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    task: asyncio.Task[None] | None = None
    stopping: bool = False


class ShardConsumers:
    """The consumers of the shards this instance holds (see the module's docstring)."""

    def __init__(
        self,
        db: Database,
        keeper: ShardKeeper,
        feed: Feed,
        *,
        check_seconds: float = CHECK_SECONDS,
        per_shard: int = HANDLING_PER_SHARD,
    ) -> None:
        self.db = db
        self.keeper = keeper
        self.feed = feed
        self.check_seconds = check_seconds
        self.per_shard = per_shard
        self._shards: dict[int, _Shard] = {}
        self.handled = 0  # updates whose handling ended, for the tests and logs

    def consuming(self) -> set[int]:
        return set(self._shards)

    def start(self, shard: int) -> None:
        """Consume the shard's updates (once it is held and picked up)."""
        if shard in self._shards:
            return
        state = _Shard(shard)
        state.task = asyncio.create_task(self._consume(state), name=f"consume-shard-{shard}")
        self._shards[shard] = state

    def wake(self, shard: int) -> None:
        """An update of `shard` was queued: look now, not at the next check."""
        state = self._shards.get(shard)
        if state is not None:
            state.wake.set()

    async def stop(self, shard: int) -> None:
        """Take no more of the shard's updates, and return once those in hand are
        handled."""
        state = self._shards.pop(shard, None)
        if state is None:
            return
        state.stopping = True
        state.wake.set()
        if state.task is not None:
            await asyncio.gather(state.task, return_exceptions=True)
        while state.handling:
            await asyncio.gather(*state.handling.values(), return_exceptions=True)

    async def close(self) -> None:
        """At a stop: every consumer stopped, the updates in hand handled."""
        await asyncio.gather(*(self.stop(shard) for shard in list(self._shards)))

    async def _consume(self, state: _Shard) -> None:
        failing = False
        while not state.stopping:
            state.wake.clear()
            fence = self.keeper.fence_for(state.shard)
            if fence is None:  # lost, or given back: nothing more is ours to handle
                break
            room = self.per_shard - len(state.handling)
            if room > 0 and self.keeper.valid(state.shard):
                try:
                    found = await update_queue.take(
                        self.db, [state.shard], limit=room, handling=list(state.handling)
                    )
                except Exception as exc:  # the database's, or closed: looked at again
                    if not failing:
                        log.warning(
                            "shard %d: its updates cannot be read now: %r", state.shard, exc
                        )
                        failing = True
                    found = []
                else:
                    failing = False
                for queued in found:
                    self._hand(state, fence, queued)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.check_seconds):
                    await state.wake.wait()

    def _hand(self, state: _Shard, fence: Fence, queued: update_queue.Queued) -> None:
        task = asyncio.create_task(self._handle(fence, queued), name=f"update-{queued.update_id}")
        state.handling[queued.update_id] = task

        def ended(_: asyncio.Task[None]) -> None:
            state.handling.pop(queued.update_id, None)
            self.handled += 1
            state.wake.set()  # the chat's next update may be taken now

        task.add_done_callback(ended)

    async def _handle(self, fence: Fence, queued: update_queue.Queued) -> None:
        """Feed the update in the shard's scope; done in that scope when it changed
        nothing. A refused fence has told the keeper (the process stops); an update
        handled already is dropped; one whose handling failed is dropped as polling
        drops it (logged), not handled again and again."""
        update_id = queued.update_id
        with acting_for(fence=fence, update_id=update_id) as scope:
            try:
                try:
                    await self.feed(queued)
                except (AlreadyHandled, Deposed):
                    raise
                except Exception:
                    log.exception("the update %s failed", update_id)
                if not scope.consumed:
                    await update_queue.done(self.db, update_id)
            except AlreadyHandled:
                log.info("the update %s was handled already (a takeover): dropped", update_id)
            except Deposed as exc:
                log.warning("the update %s is not ours to handle any more: %s", update_id, exc)
            except DATABASE_ERRORS as exc:
                log.warning("the update %s stays queued: %s", update_id, exc)


# The runtime: shards gained, asked back, lost.


class Playing(Protocol):
    """What the runtime asks of the application (`bot.server.application.Application`)."""

    async def pick_up(self, owned: Callable[[int], bool] | None = None) -> int: ...

    async def let_go(self, owned: Callable[[int], bool]) -> None: ...


class Sending(Protocol):
    """What the runtime asks of the outgoing queue (`bot.telegram.outgoing.Outgoing`): a
    shard's chats' flood budgets handed over to the next holder, taken over from the last."""

    async def hand_over(self, chats: Callable[[int], bool]) -> None: ...

    async def take_over(self, chats: Callable[[int], bool]) -> None: ...


class ShardRuntime:
    """The keeper's news carried out (see the module's docstring): `gained`, `lost`,
    `release_asked`, `evicted` are the keeper's callbacks. `stop_now` is the exit when
    a shard is lost or the instance evicted (`bot.server.leadership.stop_now`).

    The keeper, the application and the consumers depend on one another (the keeper
    tells the runtime, the runtime asks the application, whose ownership asks the
    keeper): the runtime is built first and given the others once they are (`attach`);
    nothing is picked up before `started` is set.

    A shard's groups keep one flood budget across a move (`sending`): Telegram counts a
    group's last minute whoever sent in it. So the giver writes what its buckets hold
    once its last call to them is answered, before the lease goes back (`hand_over`),
    and the taker reads them before its pickup sends anything (`take_over`)."""

    def __init__(self, count: int, *, stop_now: Callable[[], None]) -> None:
        self.count = count
        self.stop_now = stop_now
        self.keeper: ShardKeeper | None = None
        self.consumers: ShardConsumers | None = None
        self.playing: Playing | None = None
        self.sending: Sending | None = None
        self._moves: dict[int, asyncio.Task[None]] = {}  # shard → its pickup or let-go
        self.started = asyncio.Event()  # the application is ready: shards may be picked up

    def attach(
        self,
        keeper: ShardKeeper,
        consumers: ShardConsumers,
        playing: Playing,
        sending: Sending | None = None,
    ) -> None:
        """The keeper, the consumers, the application and the outgoing queue (None: none
        whose budgets move with the shards), built with this runtime."""
        self.keeper = keeper
        self.consumers = consumers
        self.playing = playing
        self.sending = sending

    def wake(self, shard: int) -> None:
        """An update of `shard` was queued (by this instance, or told by the database)."""
        if self.consumers is not None:
            self.consumers.wake(shard)

    def in_shard(self, shard: int) -> Callable[[int], bool]:
        """Whether a chat is of `shard`."""
        count = self.count
        return lambda chat_id: shards.shard_of(chat_id, count) == shard

    # The keeper's callbacks (on the bot's loop).

    def gained(self, shard: int, term: int) -> None:
        self._after(shard, self._pick_up(shard))

    def lost(self, shard: int) -> None:
        log.critical("shard %d is lost: stopping at once", shard)
        self.stop_now()

    def evicted(self) -> None:
        log.critical("this instance was found stalled: stopping at once")
        self.stop_now()

    def release_asked(self, shard: int) -> None:
        self._after(shard, self._let_go(shard))

    def _after(self, shard: int, work: Awaitable[None]) -> None:
        """Run `work` once the shard's previous move is over (a pickup before its
        let-go)."""
        before = self._moves.get(shard)

        async def in_turn() -> None:
            if before is not None:
                await asyncio.gather(before, return_exceptions=True)
            await work

        task = asyncio.create_task(in_turn(), name=f"shard-{shard}")
        self._moves[shard] = task

        def forget(ended: asyncio.Task[None]) -> None:
            if self._moves.get(shard) is ended:
                del self._moves[shard]
            if not ended.cancelled() and (exc := ended.exception()) is not None:
                log.error("shard %d: its move failed", shard, exc_info=exc)

        task.add_done_callback(forget)

    async def _pick_up(self, shard: int) -> None:
        await self.started.wait()
        assert self.keeper and self.consumers and self.playing, "attached before started"
        if self.keeper.fence_for(shard) is None:
            return  # given back or lost meanwhile
        keeper, playing = self.keeper, self.playing
        if self.sending is not None:
            await self.sending.take_over(self.in_shard(shard))
        picked = await retrying(
            lambda: playing.pick_up(self.in_shard(shard)),
            log_as=f"picking up shard {shard}",
            still_wanted=lambda: keeper.fence_for(shard) is not None,
        )
        log.info("shard %d picked up: %d running games", shard, picked or 0)
        if self.keeper.fence_for(shard) is not None:
            self.consumers.start(shard)

    async def _let_go(self, shard: int) -> None:
        await self.started.wait()
        assert self.keeper and self.consumers and self.playing, "attached before started"
        await self.consumers.stop(shard)
        await self.playing.let_go(self.in_shard(shard))
        if self.sending is not None:
            await self.sending.hand_over(self.in_shard(shard))
        await self.keeper.give_back(shard)

    async def close(self) -> None:
        """At a stop: no pickup or let-go left running, every consumer stopped with its
        updates in hand handled. (The keeper gives the shards back when it closes.)"""
        moves = list(self._moves.values())
        for task in moves:
            task.cancel()
        await asyncio.gather(*moves, return_exceptions=True)
        if self.consumers is not None:
            await self.consumers.close()

    def health(self) -> dict[str, object]:
        """What /healthz shows of the shards."""
        keeper = self.keeper
        held = sorted(keeper.owned()) if keeper is not None else []
        return {
            "shards": held,
            "fair_share": None if keeper is None else keeper.share,
            "shard_count": self.count,
        }


# Serving.

LISTEN_RETRY = 5.0  # seconds before listening for the queue's notices is tried again


class ShardService:
    """Shard mode served (`bot.server.serving.App`): the queue's notices listened to, the
    poller run (polling mode; the webhook's server takes posts by itself) until the
    stop; then nothing more received, every consumer stopped with its updates in hand
    handled (`finish`). The keeper closes after, giving every shard back."""

    def __init__(
        self, db: Database, runtime: ShardRuntime, receiver: Receiver, poller: Poller | None
    ) -> None:
        self.db = db
        self.runtime = runtime
        self.receiver = receiver
        self.poller = poller
        self._listener: asyncio.Task[None] | None = None
        self._polling: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Listen for the queue's notices and, when polling, poll."""
        loop = asyncio.get_running_loop()
        self._listener = loop.create_task(self._listen(), name="queue-notices")
        if self.poller is not None:
            self._polling = loop.create_task(self.poller.run(), name="shard-polling")

    async def stop_receiving(self) -> None:
        """No more polls (the webhook's server is stopped by the caller)."""
        await _cancelled(self._polling)
        self._polling = None

    async def finish(self) -> None:
        """Every consumer stopped, its updates in hand handled; no more notices."""
        await self.stop_receiving()
        await self.runtime.close()
        await _cancelled(self._listener)
        self._listener = None

    async def _listen(self) -> None:
        """Held until cancelled; a listener that cannot start is tried again (the
        consumers look at their shards now and then meanwhile)."""
        told = False
        while True:
            try:
                async with update_queue.listening(self.db, self.runtime.wake):
                    told = False
                    await asyncio.Event().wait()
            except Exception as exc:  # the database's: the periodic looks stand in
                if not told:
                    log.warning("the queue's notices are not heard now: %r", exc)
                    told = True
            await asyncio.sleep(LISTEN_RETRY)


async def _cancelled(task: asyncio.Task[None] | None) -> None:
    if task is not None:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
