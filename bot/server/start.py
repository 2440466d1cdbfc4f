"""The start: opens the database, reaches Telegram, builds the outgoing queue and the
application (`bot.server.application`), hands its use cases to the handlers through the
Dispatcher, sets up the webhook (`bot.server.web`) or polling, `/metrics` and `/healthz`
(`bot.server.metrics`), waits for the lease when several instances run
(`bot.server.leadership`) and picks up every running game. In shard mode (`SHARDS`,
`bot.server.shard_mode`) every instance plays instead: it keeps its share of the shards,
stores the updates it receives in the queue, consumes those of its shards, and picks up
each shard's games as it takes the shard.

What the start does not need waits: Pillow and the fonts load with the first picture (in
`bot.infra.render_pool`), the answer models are built on a thread at the first update,
and the commands are registered while the running games are picked up.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import signal
import time
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from aiogram import BaseMiddleware, Bot, Dispatcher, methods
from aiogram.client.default import DefaultBotProperties
from aiogram.client.telegram import TelegramAPIServer
from aiogram.methods import TelegramMethod
from aiogram.methods.base import Response
from aiogram.types import TelegramObject
from aiohttp import web

from bot.app.ownership import EVERY_CHAT
from bot.infra.render_pool import round_end_picture, table_picture
from bot.server.application import Application, FirstPoll
from bot.server.config import Settings
from bot.server.leadership import Leadership, LeaseGuard, stop_now
from bot.server.log_limits import Throttled
from bot.server.metrics import (
    Health,
    Metrics,
    TelegramMetrics,
    TimedRenderPool,
    UpdateMetrics,
    add_routes,
)
from bot.server.serving import App, Webhook, on_signals
from bot.server.shard_mode import (
    InstanceGuard,
    Poller,
    Receiver,
    ShardConsumers,
    ShardOwnership,
    ShardRuntime,
    ShardService,
    UpdateRouter,
    dispatcher_feed,
)
from bot.server.shards import ShardKeeper
from bot.server.start_failures import START_TIMEOUT, get_me
from bot.server.web import WebServer, webhook_app, webhook_secret
from bot.telegram.bot_budget import SharedBotBudget
from bot.telegram.flood_budgets import SharedBudgets
from bot.telegram.outgoing import Limits, Outgoing, QueueMiddleware
from bot.telegram.session import JsonSession
from bot.telegram.stats_service import StatsService
from bot.telegram.table_pin import GroupTail, TailMiddleware
from bot.telegram.web_app_links import WebAppLinks
from handlers import get_routers
from handlers.in_flight import InFlight
from handlers.people import is_admin, is_member
from handlers.seen import LastSeenMiddleware
from storage import shards
from storage.connect import open_database

if TYPE_CHECKING:
    from bot.webapp.server import WebAppServer

log = logging.getLogger("bot")

# aiogram parses every answer with `Response[<returned type>]`; pydantic caches those
# models only weakly, so under load they would be rebuilt again and again (milliseconds
# each). Holding them here keeps them built. Building them takes a noticeable part of a
# second, so it is done at the first update (`KeepResponseModels`), not before the first poll.
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
    out without waiting for them."""

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


async def start(settings: Settings, resources: contextlib.AsyncExitStack) -> App:
    """Open the database, reach Telegram, wire the application and pick up every running
    game. What is opened is pushed on `resources`, which closes it in reverse order."""
    name = settings.instance_name
    db = await open_database(settings.database, label=f"domino-bot {name}" if name else None)
    resources.push_async_callback(db.close)
    # JSON bodies and cheaper answers than aiogram's own session.
    session = (
        JsonSession(api=TelegramAPIServer.from_base(settings.telegram_api_base), instance=name)
        if settings.telegram_api_base
        else JsonSession(instance=name)
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

    # Shard mode: the keeper holds the instance's own lease before anything is changed
    # (its term is the fence of every change made outside a shard's scope), then takes
    # its share of the shards; each is picked up once the application is ready.
    runtime = keeper = None
    if settings.shards is not None:
        assert name is not None, "the settings refuse SHARDS without INSTANCE_NAME"
        # Every instance must split the groups alike: another SHARDS is refused here.
        before = await shards.agree_on_count(
            db, settings.shards, name, now=time.time(), ttl=settings.lease_seconds
        )
        if before and before != settings.shards:
            log.warning(
                "the groups are split into %d shards now, %d before", settings.shards, before
            )
        runtime = ShardRuntime(settings.shards, stop_now=stop_now)
        keeper = ShardKeeper(
            name,
            open_keeper_db=lambda: open_database(
                settings.database, side=True, label=f"domino-bot {name} shards"
            ),
            on_gained=runtime.gained,
            on_lost=runtime.lost,
            on_release_asked=runtime.release_asked,
            on_evicted=runtime.evicted,
            count=settings.shards,
            ttl=settings.lease_seconds,
        )
        resources.push_async_callback(keeper.close)  # after `app.stop`: every shard back
        await keeper.start()
        db.fence = keeper.instance_fence()

    tail = GroupTail()  # how far each group has moved on past the table (bot.telegram.table_pin)

    async def call(method: TelegramMethod[object]) -> object:
        answer = await bot(method)
        tail.saw_answer(answer)
        return answer

    # The groups' flood budgets are kept in the database: a takeover or a
    # restart does not start every group's bucket full while Telegram counts the minute.
    budgets = SharedBudgets(db) if settings.pacing else None
    limits = Limits() if settings.pacing else Limits.off()
    # In shard mode the bot-wide limit is one bucket in the database that every
    # instance claims from: N instances together send no more than one would.
    overall = None
    if keeper is not None and limits.overall is not None:
        sharing = keeper
        overall = SharedBotBudget(db, limits.overall, instances=lambda: sharing.live)
        resources.push_async_callback(overall.close)  # after the queue's close
    out = Outgoing(call, limits, budgets=budgets, overall=overall)
    resources.push_async_callback(out.close)
    metrics = Metrics(
        db,
        out,
        shard_count=settings.shards,
        held_shards=(lambda: set()) if keeper is None else keeper.owned,
    )
    bot.session.middleware(QueueMiddleware(out))
    bot.session.middleware(TelegramMetrics(metrics))  # inside the queue: every attempt
    application = Application(
        db,
        out,
        bot_username=me.username,
        render_table=table_picture,  # drawn in the render pool's process
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
        is_member=functools.partial(is_member, bot),  # the Mini App's viewers
        is_admin=functools.partial(is_admin, bot),  # and who may control a lobby there
        web_app=(
            WebAppLinks(me.username, settings.webapp_short_name, settings.webapp_url)
            if settings.webapp_url
            else None
        ),
        ownership=EVERY_CHAT if keeper is None else ShardOwnership(keeper),
    )
    resources.callback(application.publisher.close)

    # No handler keeps a conversation state: aiogram's FSM (a storage key and a context
    # built for every update) is not needed.
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
    dp["viewing"] = application.viewing
    dp["people"] = application.people
    dp["group_settings"] = application.settings
    dp["web_app"] = application.publisher.web_app  # the lobby's «🃏 Открыть стол» (or None)
    dp["turn_notices"] = application.notices
    dp["tournaments"] = application.tournaments
    dp["tournament_board"] = application.tournament_board  # the organiser's menus
    dp["stats"] = StatsService(db)
    service = None
    if runtime is not None and keeper is not None and settings.shards is not None:
        consumers = ShardConsumers(db, keeper, dispatcher_feed(dp, bot))
        runtime.attach(keeper, consumers, application, out)
        receiver = Receiver(db, UpdateRouter(db, settings.shards), woken=runtime.wake)
        poller = None
        if not settings.webhook_url:
            held = keeper
            poller = Poller(
                bot,
                receiver,
                may_poll=lambda: held.valid(0),
                allowed_updates=dp.resolve_used_update_types(),
            )
        service = ShardService(db, runtime, receiver, poller)

    # /metrics and /healthz: on the webhook server, and on METRICS_LISTEN. The
    # servers stop after `app.stop` (pushed later), but for the webhook's, which `serve`
    # stops first: no update is taken once the bot is stopping.
    # Several instances: this one acts only while it holds the lease.
    leadership = (
        None
        if runtime is not None
        else Leadership(
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
    if keeper is not None:
        bot.session.middleware(InstanceGuard(keeper))  # the same, for shard mode
    picked_up = asyncio.Event()  # the running games are picked up: updates may come
    if runtime is not None:
        health = Health(db, role=lambda: "shards", details=runtime.health)
    else:
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
            # Shard mode: every instance stores each post's update for its shard's owner.
            store=None if service is None else service.receiver.store_webhook_post,
        )
        add_routes(hook_app, metrics, health)
        server = WebServer(hook_app, settings.webhook_address, request_seconds=seconds)
        webhook = Webhook(server, handler, asyncio.Event())
        servers.append(webhook.server)
    webapp_server = None
    if settings.webapp_url:
        # The Mini App (bot.webapp): on the webhook's server, else on its own.
        webapp = mini_app(
            settings,
            application,
            active=lambda: picked_up.is_set() and (leadership is None or leadership.valid()),
        )
        if webhook is not None:
            webapp.add_routes(webhook.server.app)
        else:
            webapp_app = web.Application()
            webapp.add_routes(webapp_app)
            webapp_server = WebServer(webapp_app, settings.webapp_address)
            servers.append(webapp_server)
    if settings.metrics_address is not None:
        metrics_app = web.Application()
        add_routes(metrics_app, metrics, health)
        servers.insert(0, WebServer(metrics_app, settings.metrics_address))
    for server in servers:
        if server is not webapp_server:
            resources.push_async_callback(server.stop)
    if leadership is not None:
        resources.push_async_callback(leadership.release)  # after `app.stop`, pushed next
    if budgets is not None:
        resources.push_async_callback(budgets.close)  # the last calls' tokens, then release
    app = App(bot, dp, out, application, in_flight, webhook, shards=service)
    resources.push_async_callback(app.stop)
    if webapp_server is not None:
        # Stopped before the application: no press from the app comes while it winds down.
        resources.push_async_callback(webapp_server.stop)

    if leadership is not None:
        # A standby answers /healthz, and the webhook's posts 503 (`picked_up`), until
        # it leads; then it picks up every running game as a restart does.
        await start_servers(servers, health)
        await lead(leadership)
    if budgets is not None:
        await budgets.load()  # what the last minute left, before the first call to a group

    # The command menus wait for `serve` (building them parses both catalogues).
    if runtime is not None:
        # Each shard's games are picked up as it is taken (`ShardRuntime`), from now on.
        await application.prepare()
        if webhook is None:
            await bot.delete_webhook(drop_pending_updates=False, request_timeout=START_TIMEOUT)
        resumed = 0
        runtime.started.set()
    elif webhook is None:
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
    if keeper is not None:
        way += f", {keeper.count} shards shared as {keeper.name!r}"
        log.info("@%s is up (%s): each shard's games picked up as it is taken", me.username, way)
    else:
        games = "1 running game" if resumed == 1 else f"{resumed} running games"
        log.info("@%s is up (%s): %s picked up", me.username, way, games)
    if settings.metrics_address is not None:
        log.info("/metrics and /healthz on %s", settings.metrics_address)
    if settings.webapp_url:
        where = settings.webhook_address if webhook else settings.webapp_address
        log.info("the Mini App on %s", where)
    return app


def mini_app(
    settings: Settings, application: Application, *, active: Callable[[], bool]
) -> WebAppServer:
    """The Mini App's routes over the application's use cases. The page may be framed by
    Telegram's web client and, when the bot talks to another Bot API server (the local
    Telegram), by that server's origin (its play page opens the app in a frame).
    Imported here: the app's state draws on `render` (and Pillow), which a bot without
    the app never loads in its main process."""
    from bot.webapp.access import Access
    from bot.webapp.auth import InitDataCheck
    from bot.webapp.server import WebAppServer

    check = InitDataCheck(
        settings.bot_token.get_secret_value(), max_age=settings.webapp_auth_seconds
    )
    ancestors = []
    if settings.telegram_api_base:
        parts = urlsplit(settings.telegram_api_base)
        if parts.scheme and parts.netloc:
            ancestors.append(f"{parts.scheme}://{parts.netloc}")
    warnings = Throttled(logging.getLogger("bot.webapp"))  # a stranger's junk: few lines
    return WebAppServer(
        Access(check, warn=warnings.warning),
        application.web,
        application.dispatch,
        viewing=application.viewing,
        playing=application.playing,
        hints=application.hints,
        lobby=application.lobby,
        endings=application.endings,
        frame_ancestors=ancestors,
        active=active,
        # Shard mode: a game played by another instance is answered 503, and the proxy
        # passes the request on to it (deploy/nginx.conf).
        ownership=application.ownership,
    )


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
        if acquiring.done():
            acquiring.result()  # raises why the start failed (the database did not answer)
    finally:
        for task in (acquiring, waiting):
            task.cancel()
        await asyncio.gather(acquiring, waiting, return_exceptions=True)
        for signum in signals:  # polling and the webhook set their own
            loop.remove_signal_handler(signum)
    if not leadership.leading:
        raise StoppedAsStandby()
