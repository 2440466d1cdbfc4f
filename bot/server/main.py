"""The composition root: `python -m bot` builds everything and runs it.

Reads the settings once, opens the database (migrating it), points aiogram at
Telegram or at `TELEGRAM_API_BASE`, builds the outgoing queue and the application
(`bot.server.application`), hands its use cases to the handlers through the Dispatcher,
registers the commands in Russian and English, picks up every running game, then
long-polls until SIGINT/SIGTERM, or with `WEBHOOK_URL` set serves Telegram's webhook
(`bot.server.web`; polling deletes a webhook left set). `/metrics` and `/healthz`
(`bot.server.metrics`) are served on the webhook server or on `METRICS_LISTEN`. On the way out
it lets in-flight work finish and the queues flush, within a bounded time.

A start that cannot succeed (a configuration error, a database that is not one, is
damaged or sits in a read-only folder, a Telegram that is unreachable or refuses the
token or the webhook, an address to listen on that is taken) ends the process at once
with one line on stderr and a non-zero code, so that a supervisor sees it and restarts
it (issue 11, item 6): 2 for the configuration, 1 for the rest. Everything opened until
then is closed, so no thread keeps the process up. A network error on the first call
(getMe) is tried again a few times, each call bounded (`START_TIMEOUT`), before the start
is called failed (issue 15, item 13).

Start-up is measured by `bench/startup.py` (process start to the first getUpdates):
almost all of it is importing aiogram, whose `aiogram.types` builds every Telegram
type's pydantic model at import. What start-up does not need waits (issue 15, item
14): Pillow and the fonts load with the first picture (in `bot.infra.render_pool`), the
answer models are built on a thread at the first update, and the commands are
registered while the running games are picked up.
"""

from __future__ import annotations

import gc

if __name__ == "__main__":
    # `python -m bot`: no collection while the imports below build aiogram's thousands of
    # models, which all live as long as the process (0.4-0.6 s of CPU less); `main`
    # freezes what they made and lets the collector run again.
    gc.disable()

import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from aiogram import BaseMiddleware, Bot, Dispatcher, methods
from aiogram.client.default import DefaultBotProperties
from aiogram.client.telegram import TelegramAPIServer
from aiogram.exceptions import (
    TelegramAPIError,
    TelegramNetworkError,
    TelegramServerError,
    TelegramUnauthorizedError,
)
from aiogram.methods import TelegramMethod
from aiogram.methods.base import Response
from aiogram.types import BotCommand, TelegramObject, User
from aiohttp import web
from pydantic import ValidationError

from bot.infra import perf
from bot.infra.render_pool import round_end_picture, table_picture
from bot.server.application import Application, FirstPoll
from bot.server.config import Settings, explain
from bot.server.leadership import Leadership, LeaseGuard
from bot.server.logs import formatter
from bot.server.metrics import (
    Health,
    Metrics,
    TelegramMetrics,
    TimedRenderPool,
    UpdateMetrics,
    add_routes,
)
from bot.server.web import CannotListen, WebhookHandler, WebServer, webhook_app, webhook_secret
from bot.telegram.flood_budgets import SharedBudgets
from bot.telegram.outgoing import Limits, Outgoing, QueueMiddleware
from bot.telegram.session import JsonSession
from bot.telegram.stats_service import StatsService
from bot.telegram.table_pin import GroupTail, TailMiddleware
from handlers import get_routers
from handlers.in_flight import InFlight
from handlers.seen import LastSeenMiddleware
from i18n import Lang, t
from storage.connect import open_database
from storage.db import DATABASE_ERRORS, DatabaseUnusable

log = logging.getLogger("bot")

# Seconds for in-flight updates, messages and queues after SIGTERM: the process must be
# gone within 10 s (a container's stop timeout), closing the session and database included.
SHUTDOWN_GRACE = 6.0
# Seconds each call to Telegram may take while starting: an unreachable server is a
# failed start, told in one line, not a silent wait.
START_TIMEOUT = 10
# getMe, the first call, is tried this many times when the network fails (a server
# restarting, a DNS hiccup), with these pauses between; a refusal is not tried again.
START_TRIES = 3
START_PAUSES = (1.0, 2.0)
# Libraries whose DEBUG lines carry data: aiosqlite logs every statement's parameters,
# which hold whole matches (hands, the bazaar, the seed). They log at INFO at most,
# whatever LOG_LEVEL says (issue 11, item 11).
QUIET_LOGGERS = ("aiosqlite",)
COMMANDS = (
    "domino",
    "rules",
    "help",
    "hand",
    "leave",
    "surrender",
    "cancel",
    "top",
    "stats",
    "history",
    "settings",
)

# aiogram parses every answer with `Response[<returned type>]`; pydantic caches those
# models only weakly, so under load they were rebuilt again and again (milliseconds
# each). Holding them here keeps them built. Building them takes about 0.1 s, so it is
# done at the first update (`KeepResponseModels`), not before the first poll.
_RESPONSE_MODELS: list[object] = []
_KEPT_METHODS = (
    methods.SendMessage,
    methods.SendPhoto,
    methods.EditMessageText,
    methods.EditMessageMedia,
    methods.EditMessageReplyMarkup,
    methods.DeleteMessage,
    methods.AnswerCallbackQuery,
    methods.GetUpdates,
    methods.GetChatMember,
    methods.GetMe,
)


def keep_response_models() -> None:
    if not _RESPONSE_MODELS:
        _RESPONSE_MODELS.extend(
            Response[method.__returning__]  # type: ignore[name-defined]
            for method in _KEPT_METHODS
        )


class KeepResponseModels(BaseMiddleware):
    """At the first update, builds the answer models on a thread: the first poll went
    out without waiting for them (issue 15, item 14)."""

    def __init__(self) -> None:
        self.started = False

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        if not self.started:
            self.started = True
            asyncio.get_running_loop().run_in_executor(None, keep_response_models)
        return await handler(event, data)


def commands_for(lang: Lang) -> list[BotCommand]:
    return [BotCommand(command=name, description=t(f"cmd.{name}", lang)) for name in COMMANDS]


class StartFailed(Exception):
    """The bot cannot start; the text is one line for the admin."""


def why_start_failed(error: BaseException, settings: Settings) -> str | None:
    """One line saying why the start failed, when the cause is the admin's or the
    machine's to fix; None for anything else (a bug, which keeps its traceback)."""
    if isinstance(error, DatabaseUnusable | CannotListen):
        return str(error)
    if isinstance(error, DATABASE_ERRORS):
        return f"the database {settings.database_shown} failed: {error}"
    if isinstance(error, TelegramUnauthorizedError):
        return "Telegram refused BOT_TOKEN (Unauthorized): take the bot's token from @BotFather"
    server = settings.telegram_api_base or "https://api.telegram.org"
    if isinstance(error, TelegramNetworkError):
        check = "TELEGRAM_API_BASE and " if settings.telegram_api_base else ""
        return (
            f"cannot reach Telegram at {server}: {error.message} "
            f"({START_TRIES} tries; check {check}the network)"
        )
    if isinstance(error, TelegramAPIError):
        return f"Telegram at {server} refused {error.method.__api_method__}: {error.message}"
    return None


@dataclass
class Webhook:
    """The webhook server and the handler that takes its updates (`bot.server.web`)."""

    server: WebServer
    handler: WebhookHandler
    stopping: asyncio.Event  # set by SIGTERM or SIGINT (`on_signals`)


@dataclass
class App:
    """Everything `start` built, for `serve` to run and `stop` to wind down."""

    bot: Bot
    dp: Dispatcher
    out: Outgoing
    application: Application
    in_flight: InFlight
    webhook: Webhook | None = None  # None: long polling
    served: bool = False

    async def serve(self) -> None:
        """Poll, or serve the webhook, until a signal; the command menus are set
        meanwhile, so they do not hold up the first update (building them parses both
        catalogues). The webhook server closes at the signal: no update is taken after."""
        self.served = True
        menus = asyncio.create_task(set_command_menus(self.bot))
        try:
            if self.webhook is None:
                await self.dp.start_polling(self.bot, handle_signals=True, close_bot_session=False)
            else:
                await self.webhook.stopping.wait()
                await self.webhook.server.stop()
        finally:
            if not menus.done():
                menus.cancel()

    async def stop(self) -> None:
        """No new work; after serving, the updates in hand, the messages they changed and
        the queues carrying those, in order, within one SHUTDOWN_GRACE (each step may add
        work to the next, never back)."""
        if self.served:
            log.info(
                "stopping: letting %d updates in hand finish and the queues flush",
                self.in_flight.count,
            )
        await self.application.close()
        if not self.served:
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + SHUTDOWN_GRACE
        steps = (
            ("updates", self.updates_done),
            ("messages", self.application.publisher.idle),
            ("queues", self.out.drain),
        )
        for name, step in steps:
            began = loop.time()
            try:
                await asyncio.wait_for(step(), max(0.1, deadline - loop.time()))
            except TimeoutError:
                log.warning("stopping: %s not done in time; left as they are", name)
            else:
                log.info("stopping: %s done in %.2f s", name, loop.time() - began)
        # The digests the messages show now, for a quiet restart; the render pool ends.
        await self.application.publisher.stop()

    async def updates_done(self) -> None:
        """Until every update taken (by a poll or the webhook) has been handled."""
        if self.webhook is not None:
            await self.webhook.handler.idle()
        await self.in_flight.idle()


def on_signals(stopping: asyncio.Event) -> None:
    """SIGTERM and SIGINT set `stopping` (what polling stops at, with `handle_signals`);
    set before Telegram is told of the webhook, so no signal finds the bot unprepared."""
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stopping.set)


async def set_command_menus(bot: Bot) -> None:
    """The «/» menu in Russian (the default) and English; a failure is logged, not fatal:
    the commands work without their menu."""
    try:
        await bot.set_my_commands(commands_for(Lang.RU), request_timeout=START_TIMEOUT)
        await bot.set_my_commands(
            commands_for(Lang.EN), language_code="en", request_timeout=START_TIMEOUT
        )
    except TelegramAPIError as exc:  # the network's and the server's errors included
        log.warning("could not set the command menus: %s", type(exc).__name__)


async def start(settings: Settings, resources: contextlib.AsyncExitStack) -> App:
    """Open the database, reach Telegram, wire the application and pick up every running
    game. What is opened is pushed on `resources`, which closes it in reverse order."""
    name = settings.instance_name
    db = await open_database(settings.database, label=f"domino-bot {name}" if name else None)
    resources.push_async_callback(db.close)
    # JSON bodies and cheaper answers than aiogram's own session (issue 16).
    session = (
        JsonSession(api=TelegramAPIServer.from_base(settings.telegram_api_base))
        if settings.telegram_api_base
        else JsonSession()
    )
    # A reply to a message deleted meanwhile is sent as a plain message, not refused.
    bot = Bot(
        settings.bot_token.get_secret_value(),
        session=session,
        default=DefaultBotProperties(allow_sending_without_reply=True),
    )
    resources.push_async_callback(bot.session.close)
    me = await get_me(bot)
    assert me.username is not None, "a bot always has a username"

    tail = GroupTail()  # how far each group has moved on past the table (bot.telegram.table_pin)

    async def call(method: TelegramMethod[object]) -> object:
        answer = await bot(method)
        tail.saw_answer(answer)
        return answer

    # The groups' flood budgets are kept in the database (issue 18): a takeover or a
    # restart does not start every group's bucket full while Telegram counts the minute.
    budgets = SharedBudgets(db) if settings.pacing else None
    out = Outgoing(call, Limits() if settings.pacing else Limits.off(), budgets=budgets)
    resources.push_async_callback(out.close)
    metrics = Metrics(db, out)
    bot.session.middleware(QueueMiddleware(out))
    bot.session.middleware(TelegramMetrics(metrics))  # inside the queue: every attempt
    application = Application(
        db,
        out,
        bot_username=me.username,
        render_table=table_picture,  # drawn in the render pool's process (issue 16)
        render_scores=round_end_picture,
        table_interval=settings.table_interval,
        computer_delay=settings.computer_delay,
        turn_time_scale=settings.turn_time_scale,
        vote_time=timedelta(seconds=settings.vote_seconds),
        thinker_workers=settings.thinker_workers,
        hard_budget=settings.hard_budget,
        turn_notice_after=settings.turn_notice_after,
        tail=tail,
        painter=TimedRenderPool(metrics),
    )
    resources.callback(application.publisher.close)

    # No handler keeps a conversation state: aiogram's FSM (a storage key and a context
    # built for every update) is not needed (issue 16).
    dp = Dispatcher(disable_fsm=True)
    in_flight = InFlight()
    dp.update.outer_middleware(UpdateMetrics(metrics))
    dp.update.outer_middleware(in_flight)
    dp.update.outer_middleware(KeepResponseModels())
    dp.include_routers(*get_routers())
    dp.update.outer_middleware(LastSeenMiddleware())
    dp.update.outer_middleware(TailMiddleware(tail, application.publisher.pins))
    dp["dispatch"] = application.dispatch
    dp["lobby"] = application.lobby
    dp["playing"] = application.playing
    dp["hints"] = application.hints
    dp["endings"] = application.endings
    dp["chats"] = application.chats
    dp["people"] = application.people
    dp["group_settings"] = application.settings
    dp["turn_notices"] = application.notices
    dp["stats"] = StatsService(db)

    # /metrics and /healthz (issue 18): on the webhook server, and on METRICS_LISTEN. The
    # servers stop after `app.stop` (pushed later), but for the webhook's, which `serve`
    # stops first: no update is taken once the bot is stopping.
    # Several instances (issue 18): this one acts only while it holds the lease.
    leadership = (
        Leadership(
            db,
            name,
            ttl=settings.lease_seconds,
            open_keeper_db=lambda: open_database(
                settings.database, side=True, label=f"domino-bot {name} lease"
            ),
        )
        if name
        else None
    )
    if leadership is not None:
        bot.session.middleware(LeaseGuard(leadership))  # the innermost: every attempt
    picked_up = asyncio.Event()  # the running games are picked up: updates may come
    health = Health(db, role=None if leadership is None else lambda: leadership.role)
    resources.push_async_callback(health.close)
    servers: list[WebServer] = []
    webhook = None
    if settings.webhook_url:
        secret = await webhook_secret(settings.webhook_secret, db)
        seconds = settings.webhook_request_seconds
        hook_app, handler = webhook_app(
            dp,
            bot,
            path=settings.webhook_path,
            secret=secret,
            # A standby, and a leader unsure of its lease, answer 503: the proxy passes
            # the post on and Telegram keeps it until someone can store it.
            active=lambda: picked_up.is_set() and (leadership is None or leadership.valid()),
            request_seconds=seconds,
        )
        add_routes(hook_app, metrics, health)
        server = WebServer(hook_app, settings.webhook_address, request_seconds=seconds)
        webhook = Webhook(server, handler, asyncio.Event())
        servers.append(webhook.server)
    if settings.metrics_address is not None:
        metrics_app = web.Application()
        add_routes(metrics_app, metrics, health)
        servers.insert(0, WebServer(metrics_app, settings.metrics_address))
    for server in servers:
        resources.push_async_callback(server.stop)
    if leadership is not None:
        resources.push_async_callback(leadership.release)  # after `app.stop`, pushed next
    if budgets is not None:
        resources.push_async_callback(budgets.close)  # the last calls' tokens, then release
    app = App(bot, dp, out, application, in_flight, webhook)
    resources.push_async_callback(app.stop)

    if leadership is not None:
        # A standby answers /healthz, and the webhook's posts 503 (`picked_up`), until
        # it leads; then it picks up every running game as a restart does.
        await start_servers(servers, health)
        await lead(leadership)
    if budgets is not None:
        await budgets.load()  # what the last minute left, before the first call to a group

    # The command menus wait for `serve` (building them parses both catalogues).
    if webhook is None:
        # Independent of each other: made at once rather than one round trip after another.
        # Polling needs no webhook set: one left by a run in webhook mode goes. The running
        # games are picked up once the first poll is out (`Application.resume`).
        first_poll = FirstPoll()
        bot.session.middleware(first_poll)
        _, resumed = await asyncio.gather(
            bot.delete_webhook(drop_pending_updates=False, request_timeout=START_TIMEOUT),
            application.resume(after=first_poll.wait()),
        )
    else:
        resumed = await application.resume()
    picked_up.set()
    if leadership is None:
        await start_servers(servers, health)
    if webhook is not None:
        on_signals(webhook.stopping)
        # Listening first: Telegram posts the updates that waited as soon as it is told.
        await bot.set_webhook(
            settings.webhook_url or "",
            secret_token=secret,
            allowed_updates=dp.resolve_used_update_types(),
            drop_pending_updates=False,
            request_timeout=START_TIMEOUT,
        )
    way = f"webhook on {settings.webhook_address}" if webhook else "long polling"
    if leadership is not None:
        way += f", leader as {leadership.name!r}"
    log.info("@%s is up (%s): %d running games picked up", me.username, way, resumed)
    if settings.metrics_address is not None:
        log.info("/metrics and /healthz on %s", settings.metrics_address)
    return app


async def start_servers(servers: list[WebServer], health: Health) -> None:
    if servers:
        health.start()
    for server in servers:
        await server.start()


class StoppedAsStandby(Exception):
    """SIGTERM or SIGINT came while this instance waited for the lease."""


async def lead(leadership: Leadership) -> None:
    """Wait until this instance holds the lease; a stop asked for meanwhile raises
    `StoppedAsStandby` (a clean exit: there is nothing to finish)."""
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    signals = (signal.SIGTERM, signal.SIGINT)
    for signum in signals:
        loop.add_signal_handler(signum, stopping.set)
    acquiring = asyncio.create_task(leadership.acquire())
    waiting = asyncio.create_task(stopping.wait())
    try:
        await asyncio.wait((acquiring, waiting), return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (acquiring, waiting):
            task.cancel()
        await asyncio.gather(acquiring, waiting, return_exceptions=True)
        for signum in signals:  # polling and the webhook set their own
            loop.remove_signal_handler(signum)
    if not leadership.leading:
        raise StoppedAsStandby()


async def get_me(bot: Bot) -> User:
    """getMe, tried again after a network failure or a server error (START_TRIES)."""
    for pause in (*START_PAUSES[: START_TRIES - 1], None):
        try:
            return await bot.get_me(request_timeout=START_TIMEOUT)
        except (TelegramNetworkError, TelegramServerError):
            if pause is None:
                raise
            await asyncio.sleep(pause)
    raise AssertionError("unreachable")


async def run(settings: Settings) -> None:
    """Start, serve until a signal, stop; raises StartFailed when the start fails.
    SIGUSR1 logs the work counters (`bot.infra.perf`), as does the stop. Once started, what
    the start made is frozen out of the garbage collector's way (`perf.tune_gc`)."""
    asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, perf.log_counters)
    perf.watch_gc()
    async with contextlib.AsyncExitStack() as resources:
        try:
            app = await start(settings, resources)
        except StoppedAsStandby:
            log.info("stopped as a standby")
            return
        except Exception as exc:
            reason = why_start_failed(exc, settings)
            if reason is None:
                raise
            raise StartFailed(reason) from exc
        perf.tune_gc()
        await app.serve()
    perf.log_counters()
    log.info("stopped")


def configure_logging(level: str, kind: str = "text") -> None:
    """The root logger at `level`, each line in the `LOG_FORMAT` `kind` (`bot.server.logs`)."""
    handler = logging.StreamHandler()
    handler.setFormatter(formatter(kind))
    logging.basicConfig(level=level, handlers=[handler])
    for name in QUIET_LOGGERS:
        logger = logging.getLogger(name)
        logger.setLevel(max(logging.INFO, logging.getLevelName(level)))


def profiled(path: str | None, work: Callable[[], None]) -> None:
    """Run `work`; with `PROFILE_TO` set, under cProfile, its statistics written to that
    file when the bot stops (for `bench/e2e.py --profile`; read with `python -m pstats`)."""
    if not path:
        work()
        return
    import cProfile

    profile = cProfile.Profile()
    try:
        profile.runcall(work)
    finally:
        profile.dump_stats(path)
        log.info("profile written to %s", path)


def main() -> int:
    # What the imports made lives as long as the process: frozen now, no collection walks
    # it again, and `perf.tune_gc` collects only what the start made (~0.2 s less). The
    # garbage they left while the collector was off (~2,000 objects) stays with them.
    gc.freeze()
    gc.enable()
    try:
        settings = Settings()  # type: ignore[call-arg]  # filled from the environment
    except ValidationError as exc:
        print(explain(exc), file=sys.stderr)
        return 2
    configure_logging(settings.log_level, settings.log_format)
    try:
        profiled(settings.profile_to, lambda: asyncio.run(run(settings)))
    except StartFailed as failed:
        log.critical("cannot start: %s", failed)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
