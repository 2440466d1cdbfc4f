"""The composition root: `python -m bot` builds everything and runs it.

Reads the settings once, opens the database (migrating it), points aiogram at
Telegram or at `TELEGRAM_API_BASE`, wires the outgoing queue, the publisher and the
game service into the Dispatcher, registers the commands in Russian and English,
picks up every running game, then long-polls until SIGINT/SIGTERM. On the way out
it lets in-flight work finish and the queues flush, within a bounded time.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from datetime import timedelta

from aiogram import Bot, Dispatcher, methods
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.methods import TelegramMethod
from aiogram.methods.base import Response
from aiogram.types import BotCommand
from pydantic import ValidationError

import render
from bot.config import Settings
from bot.i18n import Lang, t
from bot.outgoing import Limits, Outgoing, QueueMiddleware
from bot.publisher import Publisher
from bot.service import GameService
from bot.stats_service import StatsService
from bot.timers import TurnTimers
from handlers import get_routers
from handlers.in_flight import InFlight
from handlers.seen import LastSeenMiddleware
from storage.db import Database

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
    "settings",
)

# aiogram parses every answer with `Response[<returned type>]`; pydantic caches those
# models only weakly, so under load they were rebuilt again and again (milliseconds
# each). Holding them here keeps them built.
_RESPONSE_MODELS = [
    Response[method.__returning__]  # type: ignore[name-defined]
    for method in (
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
]


def commands_for(lang: Lang) -> list[BotCommand]:
    return [BotCommand(command=name, description=t(f"cmd.{name}", lang)) for name in COMMANDS]


async def run(settings: Settings) -> None:
    db = await Database.open(settings.database_path)
    session = (
        AiohttpSession(api=TelegramAPIServer.from_base(settings.telegram_api_base))
        if settings.telegram_api_base
        else AiohttpSession()
    )
    # A reply to a message deleted meanwhile is sent as a plain message, not refused.
    bot = Bot(
        settings.bot_token.get_secret_value(),
        session=session,
        default=DefaultBotProperties(allow_sending_without_reply=True),
    )
    me = await bot.get_me()
    assert me.username is not None, "a bot always has a username"

    async def call(method: TelegramMethod[object]) -> object:
        return await bot(method)

    out = Outgoing(call, Limits() if settings.pacing else Limits.off())
    bot.session.middleware(QueueMiddleware(out))
    service: GameService | None = None

    async def language_of(user_id: int) -> Lang:
        assert service is not None
        return await service.language_of(user_id)

    async def on_blocked(game_id: int, user_id: int) -> None:
        assert service is not None
        await service.person_unreachable(game_id, user_id)

    async def on_group_lost(chat_id: int) -> None:
        assert service is not None
        await service.bot_left_group(chat_id)

    async def on_migrated(old_id: int, new_id: int) -> None:
        assert service is not None
        await service.chat_migrated(old_id, new_id)

    timers = TurnTimers(db, scale=settings.turn_time_scale)
    publisher = Publisher(
        db,
        out,
        render_table=render.render_table,
        render_scores=render.render_scores,
        language_of=language_of,
        on_blocked=on_blocked,
        on_group_lost=on_group_lost,
        table_interval=settings.table_interval,
        timers=timers,
        on_migrated=on_migrated,
    )
    service = GameService(
        db,
        publisher,
        bot_username=me.username,
        computer_delay=settings.computer_delay,
        timers=timers,
        vote_time=timedelta(seconds=settings.vote_seconds),
    )

    dp = Dispatcher()
    in_flight = InFlight()
    dp.update.outer_middleware(in_flight)
    dp.include_routers(*get_routers())
    dp.update.outer_middleware(LastSeenMiddleware())
    dp["games"] = service
    dp["timers"] = timers
    dp["stats"] = StatsService(db)

    await bot.delete_webhook(drop_pending_updates=False)
    await bot.set_my_commands(commands_for(Lang.RU))
    await bot.set_my_commands(commands_for(Lang.EN), language_code="en")
    resumed = await service.resume()
    log.info("@%s is up: %d running games picked up", me.username, resumed)
    try:
        await dp.start_polling(bot, handle_signals=True, close_bot_session=False)
    finally:
        log.info(
            "stopping: letting %d updates in hand finish and the queues flush", in_flight.count
        )
        await service.close()
        # In order, within one budget: the updates taken, the messages they changed, the
        # queues that carry those (each step may add work to the next, never back).
        loop = asyncio.get_running_loop()
        deadline = loop.time() + SHUTDOWN_GRACE
        steps = (("updates", in_flight.idle), ("messages", publisher.idle), ("queues", out.drain))
        for name, step in steps:
            began = loop.time()
            try:
                await asyncio.wait_for(step(), max(0.1, deadline - loop.time()))
            except TimeoutError:
                log.warning("stopping: %s not done in time; left as they are", name)
            else:
                log.info("stopping: %s done in %.2f s", name, loop.time() - began)
        await out.close()
        publisher.close()
        await bot.session.close()
        await db.close()
        log.info("stopped")


def main() -> int:
    try:
        settings = Settings()  # type: ignore[call-arg]  # filled from the environment
    except ValidationError as exc:
        print(f"configuration error:\n{exc}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    asyncio.run(run(settings))
    return 0


if __name__ == "__main__":
    sys.exit(main())
