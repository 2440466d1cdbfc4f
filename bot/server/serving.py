"""Serving once started: polling or the webhook until a signal, the command menus, and
the stop that lets in-flight work finish and the queues flush within a bounded time. In
shard mode (`bot.server.shard_mode`) the updates are received into the queue and taken
from it by the consumers of the shards held; at the stop nothing more is received, the
updates the consumers hold are handled, and every chat is let go before the rest winds
down (the shards are given back after)."""

from __future__ import annotations

import asyncio
import logging
import signal
from dataclasses import dataclass

from aiogram import Bot, Dispatcher
from aiogram.exceptions import TelegramAPIError
from aiogram.types import BotCommand

from bot.server.application import Application
from bot.server.shard_mode import ShardService
from bot.server.start_failures import START_TIMEOUT
from bot.server.web import WebhookHandler, WebServer
from bot.telegram.outgoing import Outgoing
from handlers.in_flight import InFlight
from i18n import DEFAULT_LANG, Lang, t

log = logging.getLogger("bot")

# Seconds for in-flight updates, messages and queues after SIGTERM: the process must be
# gone within 10 s (a container's stop timeout), closing the session and database included.
SHUTDOWN_GRACE = 6.0
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
    "tournament",
    "settings",
)


def commands_for(lang: Lang) -> list[BotCommand]:
    return [BotCommand(command=name, description=t(f"cmd.{name}", lang)) for name in COMMANDS]


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
    shards: ShardService | None = None  # shard mode: receiving into the queue, consuming
    served: bool = False

    async def serve(self) -> None:
        """Poll, or serve the webhook, until a signal; the command menus are set
        meanwhile, so they do not hold up the first update (building them parses both
        catalogues). The webhook server closes at the signal: no update is taken after."""
        self.served = True
        menus = asyncio.create_task(set_command_menus(self.bot))
        try:
            if self.shards is not None:
                await self.serve_shards(self.shards)
            elif self.webhook is None:
                await self.dp.start_polling(self.bot, handle_signals=True, close_bot_session=False)
            else:
                await self.webhook.stopping.wait()
                await self.webhook.server.stop()
        finally:
            if not menus.done():
                menus.cancel()

    async def serve_shards(self, shards: ShardService) -> None:
        """Receive (poll while holding shard 0, or take the webhook's posts) and consume
        until a signal; then receive no more."""
        if self.webhook is not None:
            stopping = self.webhook.stopping  # its signals are set before Telegram is told
        else:
            stopping = asyncio.Event()
            on_signals(stopping)
        shards.start()
        await stopping.wait()
        await shards.stop_receiving()
        if self.webhook is not None:
            await self.webhook.server.stop()

    async def stop(self) -> None:
        """No new work; after serving, the updates in hand, the messages they changed and
        the queues carrying those, in order, within one SHUTDOWN_GRACE (each step may add
        work to the next, never back).

        In shard mode the messages' step is the letting go of every chat instead
        (`Application.let_go`): the keeper gives the shards back after this stop, and
        nothing may write for a chat once its shard is another's (the digests
        `publisher.stop` writes included); what was not sent is brought up to date by
        the instance that takes the shard, as after any give-back."""
        if self.served:
            log.info(
                "stopping: letting %d updates in hand finish and the queues flush",
                self.in_flight.count,
            )
        await self.application.close()
        if not self.served and self.shards is None:
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + SHUTDOWN_GRACE
        steps = (
            ("updates", self.updates_done),
            ("messages", self.application.publisher.idle)
            if self.shards is None
            else ("chats", self.let_go),
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

    async def let_go(self) -> None:
        """Shard mode: every chat let go, as before a shard is given back (a stop gives
        every shard back). A failure (the database's) is said, not the stop's end: what
        was not written is brought up to date by the shards' next holders."""
        try:
            await self.application.let_go(lambda _chat_id: True)
        except Exception as exc:
            log.warning("stopping: the chats were not all let go: %r", exc)

    async def updates_done(self) -> None:
        """Until every update taken (by a poll, the webhook, or a shard's consumer) has
        been handled."""
        if self.shards is not None:
            await self.shards.finish()
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
    """The «/» menu in Russian (the default, for every language without a menu of its
    own) and in each other language found; a failure is logged, not fatal: the commands
    work without their menu."""
    try:
        await bot.set_my_commands(commands_for(DEFAULT_LANG), request_timeout=START_TIMEOUT)
        for lang in Lang:
            if lang is not DEFAULT_LANG:
                await bot.set_my_commands(
                    commands_for(lang), language_code=lang.value, request_timeout=START_TIMEOUT
                )
    except TelegramAPIError as exc:  # the network's and the server's errors included
        log.warning("could not set the command menus: %s", type(exc).__name__)
