"""What the bot shows a monitor: `/metrics` in Prometheus's text format and
`/healthz`, served by `bot.server.web` on the webhook server or on `METRICS_LISTEN`.

Most figures are counters the bot keeps anyway, read when Prometheus scrapes
(`WorkCollector`): `bot.infra.perf`'s (database statements, transactions, hops and the time
waited for them, moves, pictures drawn and sent, Bot API calls by method, the garbage
collector) and the outgoing queue's (calls waiting per lane, sent, merged, dropped, 429s
honoured, retries). A few are measured here, each a `perf_counter` pair or an increment:

- updates handled, by type (`UpdateMetrics`, an outer middleware of the dispatcher);
- press -> answer: from a callback query's arrival to Telegram's answer to our
  answerCallbackQuery (the spinner on the person's button), a histogram;
- Telegram's refusals by code ("400", "403", "429", "5xx", "network", ...), every attempt
  counted (`TelegramMetrics`, the innermost middleware of the Bot API session);
- the time a picture takes, queueing for the render pool included (`TimedRenderPool`);
- the games in a lobby and playing, counted in the database at each scrape;
- in shard mode (`bot.server.shard_mode`), by shard: whether this instance holds it,
  the updates queued for it and how long the oldest has waited (a shard whose age keeps
  growing has no live owner), read from the database at each scrape.

Labels are bounded sets (update types, methods, codes, lanes, shards): no chat, person or
game is ever a label. `Health` answers `/healthz`: the event loop turned within
`LOOP_STALE` seconds and a trivial read of the database came back within `DB_TIMEOUT`.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import logging
import time
from collections.abc import Awaitable, Callable, Collection, Iterator
from typing import Any

from aiogram import BaseMiddleware
from aiogram.client.session.middlewares.base import (
    BaseRequestMiddleware,
    NextRequestMiddlewareType,
)
from aiogram.exceptions import (
    TelegramAPIError,
    TelegramBadRequest,
    TelegramConflictError,
    TelegramEntityTooLarge,
    TelegramForbiddenError,
    TelegramNetworkError,
    TelegramNotFound,
    TelegramRetryAfter,
    TelegramServerError,
    TelegramUnauthorizedError,
)
from aiogram.methods import AnswerCallbackQuery, TelegramMethod
from aiogram.types import TelegramObject
from aiohttp import web
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from bot.infra import perf
from bot.infra.render_pool import RenderPool
from bot.telegram.outgoing import Outgoing
from storage import repo, shards
from storage.db import Database

log = logging.getLogger(__name__)

# Seconds: Telegram gives a press 15 s before the button stops spinning on its own.
PRESS_BUCKETS = (0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 15.0)
RENDER_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
# /healthz: the heartbeat's period, how old its last beat may be, and how long the
# database may take to answer, in seconds.
BEAT = 1.0
LOOP_STALE = 5.0
DB_TIMEOUT = 2.0

# Set while a callback query is handled: when it arrived (perf_counter).
_PRESSED_AT: contextvars.ContextVar[float | None] = contextvars.ContextVar(
    "pressed_at", default=None
)

# Telegram's refusals as aiogram raises them, subclasses first; the label they count under.
ERROR_CODES: tuple[tuple[type[TelegramAPIError], str], ...] = (
    (TelegramEntityTooLarge, "413"),
    (TelegramNetworkError, "network"),
    (TelegramRetryAfter, "429"),
    (TelegramBadRequest, "400"),
    (TelegramUnauthorizedError, "401"),
    (TelegramForbiddenError, "403"),
    (TelegramNotFound, "404"),
    (TelegramConflictError, "409"),
    (TelegramServerError, "5xx"),
)


def error_code(error: TelegramAPIError) -> str:
    """The label a refusal counts under ("other" for one aiogram names no code for)."""
    for kind, code in ERROR_CODES:
        if isinstance(error, kind):
            return code
    return "other"


class Metrics:
    """The registry `/metrics` shows, and the instruments the bot's parts observe."""

    def __init__(
        self,
        db: Database,
        out: Outgoing,
        *,
        shard_count: int | None = None,
        held_shards: Callable[[], Collection[int]] = frozenset,
    ) -> None:
        """`shard_count` in shard mode (the shards' gauges), with `held_shards()` the
        shards this instance holds now."""
        self.db = db
        self.shard_count = shard_count
        self._held_shards = held_shards
        self.registry = CollectorRegistry()
        registry = self.registry
        self.updates = Counter(
            "domino_updates", "Updates handled, by type", ["type"], registry=registry
        )
        self.press_answer = Histogram(
            "domino_press_answer_seconds",
            "From a button press's arrival to Telegram's answer to answerCallbackQuery",
            buckets=PRESS_BUCKETS,
            registry=registry,
        )
        self.telegram_errors = Counter(
            "domino_telegram_errors",
            "Bot API calls Telegram refused or that failed, every attempt, by code",
            ["code"],
            registry=registry,
        )
        self.render = Histogram(
            "domino_render_seconds",
            "Time to draw a picture, waiting for the render pool included",
            ["picture"],
            buckets=RENDER_BUCKETS,
            registry=registry,
        )
        self.games = Gauge(
            "domino_games", "Games open as a lobby or playing now", ["status"], registry=registry
        )
        self.shard_held = Gauge(
            "domino_shard_held",
            "1 for each shard this instance holds",
            ["shard"],
            registry=registry,
        )
        self.shard_queued = Gauge(
            "domino_shard_queued_updates",
            "Updates waiting in the queue, by shard",
            ["shard"],
            registry=registry,
        )
        self.shard_oldest = Gauge(
            "domino_shard_oldest_update_seconds",
            "How long the oldest update waiting has waited, by shard (0: none waits)",
            ["shard"],
            registry=registry,
        )
        registry.register(WorkCollector(out))
        ProcessCollector(registry=registry)

    async def exposition(self) -> bytes:
        """The text Prometheus scrapes; the games are counted in the database now (a
        database that does not answer leaves the last count)."""
        try:
            counts = await asyncio.wait_for(repo.games_by_status(self.db), DB_TIMEOUT)
        except Exception as exc:  # the rest of the figures are still worth showing
            log.warning("metrics: the games could not be counted: %s", type(exc).__name__)
        else:
            for status in ("lobby", "playing"):
                self.games.labels(status=status).set(counts.get(status, 0))
        if self.shard_count is not None:
            await self._shards(self.shard_count)
        return generate_latest(self.registry)

    async def _shards(self, count: int) -> None:
        """The shards' gauges; a database that does not answer leaves the last figures
        of the queue."""
        held = set(self._held_shards())
        for shard in range(count):
            self.shard_held.labels(shard=str(shard)).set(1 if shard in held else 0)
        try:
            queued = await asyncio.wait_for(
                shards.queue_by_shard(self.db, now=time.time()), DB_TIMEOUT
            )
        except Exception as exc:  # the rest of the figures are still worth showing
            log.warning("metrics: the queue could not be read: %s", type(exc).__name__)
            return
        for shard in range(count):
            waiting, age = queued.get(shard, (0, 0.0))
            self.shard_queued.labels(shard=str(shard)).set(waiting)
            self.shard_oldest.labels(shard=str(shard)).set(round(age, 3))


class WorkCollector(Collector):
    """`bot.infra.perf`'s counters and the outgoing queue's, read at each scrape."""

    def __init__(self, out: Outgoing) -> None:
        self.out = out

    def collect(self) -> Iterator[Metric]:
        counts = perf.snapshot()
        families: dict[str, CounterMetricFamily] = {}

        def family(name: str, doc: str, labels: tuple[str, ...] = ()) -> CounterMetricFamily:
            if name not in families:
                families[name] = CounterMetricFamily(name, doc, labels=labels)
            return families[name]

        for key, value in sorted(counts.items()):
            group, _, rest = key.partition(".")
            if key == "moves":
                family("domino_moves", "Moves saved").add_metric([], value)
            elif key == "db.hop_us":
                family("domino_db_seconds", "Time waited for the database's thread").add_metric(
                    [], value / 1e6
                )
            elif group == "db":
                family(f"domino_db_{rest}", f"Database {rest}").add_metric([], value)
            elif group == "api":
                family(
                    "domino_telegram_calls", "Bot API calls made, by method", ("method",)
                ).add_metric([rest], value)
            elif group in ("render", "sent"):
                doc = "Pictures drawn" if group == "render" else "Pictures sent"
                name = "domino_pictures_drawn" if group == "render" else "domino_pictures_sent"
                family(name, doc, ("picture",)).add_metric([rest], value)
            elif key == "gc.us":
                family("domino_gc_pause_seconds", "Garbage collector pauses in all").add_metric(
                    [], value / 1e6
                )
            elif group == "gc":
                family(
                    "domino_gc_collections", "Garbage collector passes", ("generation",)
                ).add_metric([rest], value)
            else:
                family("domino_work", "Other work counted", ("counter",)).add_metric([key], value)
        yield from families.values()

        out = self.out
        waiting = GaugeMetricFamily(
            "domino_outgoing_waiting",
            "Calls waiting in the outgoing queues, by lane",
            labels=["lane"],
        )
        for lane, count in out.waiting().items():
            waiting.add_metric([lane.name.lower()], count)
        yield waiting
        for name, doc, value in (
            ("domino_outgoing_sent", "Calls the outgoing queues got answered", out.sent),
            ("domino_outgoing_merged", "Calls folded into a newer one", out.merged),
            ("domino_outgoing_dropped", "Calls not sent: their chat's queue was full", out.dropped),
            ("domino_telegram_flood_waits", "Telegram's 429s honoured", out.flood_waits),
            ("domino_telegram_retries", "Calls tried again after a failure", out.retries),
        ):
            yield CounterMetricFamily(name, doc, value=value)


class UpdateMetrics(BaseMiddleware):
    """Counts each update handled and marks when a press arrived (an outer middleware of
    the dispatcher's updates, the first one)."""

    def __init__(self, metrics: Metrics) -> None:
        self.updates = metrics.updates

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        kind = getattr(event, "event_type", "unknown")
        token = _PRESSED_AT.set(time.perf_counter()) if kind == "callback_query" else None
        try:
            return await handler(event, data)
        finally:
            self.updates.labels(type=kind).inc()
            if token is not None:
                _PRESSED_AT.reset(token)


class TelegramMetrics(BaseRequestMiddleware):
    """The innermost middleware of the Bot API session: it sees every attempt of every
    call (the queue's retries included) and counts the refusals by code; an answer to a
    press is timed from the press's arrival."""

    def __init__(self, metrics: Metrics) -> None:
        self.errors = metrics.telegram_errors
        self.press_answer = metrics.press_answer

    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[Any],
        bot: Any,
        method: TelegramMethod[Any],
    ) -> Any:
        try:
            result = await make_request(bot, method)
        except TelegramAPIError as exc:
            self.errors.labels(code=error_code(exc)).inc()
            raise
        if isinstance(method, AnswerCallbackQuery):
            pressed = _PRESSED_AT.get()
            if pressed is not None:
                self.press_answer.observe(time.perf_counter() - pressed)
                _PRESSED_AT.set(None)  # one answer a press
        return result


class TimedRenderPool(RenderPool):
    """The render pool, each picture timed from the ask to the bytes (`domino_render_seconds`
    by picture: "table", "round_end")."""

    def __init__(self, metrics: Metrics, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.seconds = metrics.render

    async def draw(self, renderer: Callable[..., bytes], *args: Any) -> bytes:
        began = time.perf_counter()
        try:
            return await super().draw(renderer, *args)
        finally:
            picture = getattr(renderer, "__name__", "other").removesuffix("_picture")
            self.seconds.labels(picture=picture).observe(time.perf_counter() - began)


class Health:
    """Whether the bot is alive: a heartbeat task notes each turn of the event loop (every
    `beat` seconds), and a check reads the database."""

    def __init__(
        self,
        db: Database,
        *,
        beat: float = BEAT,
        stale_after: float = LOOP_STALE,
        db_timeout: float = DB_TIMEOUT,
        role: Callable[[], str] | None = None,
        details: Callable[[], dict[str, object]] | None = None,
    ) -> None:
        self.db = db
        self.role = role  # "leader", "standby" or "shards" when several instances run
        self.details = details  # more to show (shard mode: the shards held, the share)
        self.beat = beat
        self.stale_after = stale_after
        self.db_timeout = db_timeout
        self._last_beat = time.monotonic()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._beating())

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    async def _beating(self) -> None:
        while True:
            self._last_beat = time.monotonic()
            await asyncio.sleep(self.beat)

    async def check(self) -> tuple[bool, dict[str, object]]:
        """(healthy, what was found): the loop's last beat and the database's answer."""
        problems: list[str] = []
        since_beat = time.monotonic() - self._last_beat
        if since_beat > self.stale_after:
            problems.append(f"the event loop last turned {since_beat:.1f} s ago")
        began = time.perf_counter()
        try:
            await asyncio.wait_for(repo.schema_answers(self.db), self.db_timeout)
        except TimeoutError:
            problems.append(f"the database did not answer within {self.db_timeout} s")
        except Exception as exc:  # any failure of the database is the check's answer
            problems.append(f"the database failed: {type(exc).__name__}")
        found: dict[str, object] = {
            "status": "failing" if problems else "ok",
            "loop_seconds": round(since_beat, 3),
            "database_seconds": round(time.perf_counter() - began, 4),
        }
        if self.role is not None:
            found["role"] = self.role()
        if self.details is not None:
            found.update(self.details())
        if problems:
            found["problems"] = problems
        return not problems, found


def add_routes(app: web.Application, metrics: Metrics, health: Health) -> None:
    """GET /metrics and GET /healthz on `app`."""

    async def show_metrics(request: web.Request) -> web.Response:
        return web.Response(
            body=await metrics.exposition(), headers={"Content-Type": CONTENT_TYPE_LATEST}
        )

    async def show_health(request: web.Request) -> web.Response:
        healthy, found = await health.check()
        return web.json_response(found, status=200 if healthy else 503, dumps=json.dumps)

    app.router.add_get("/metrics", show_metrics)
    app.router.add_get("/healthz", show_health)
