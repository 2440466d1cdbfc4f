"""A tiny aiogram bot for testing the fake end to end, run as a real subprocess.

    python -m tests.test_fakegram.echo_bot --api URL --token TOKEN [--webhook]

Private chat: ``/start PAYLOAD`` greets with the payload, any other text is echoed. Group:
``/menu`` posts a message with a Ping button; pressing it answers the callback with "pong"
and edits the message to say who pressed. Every call survives a 429 by waiting
``retry_after`` and trying again. With ``--webhook`` it serves aiogram's webhook handler on
an ephemeral port of 127.0.0.1 and registers it with a secret token; it prints ``READY`` once
it is listening either way.
"""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from aiogram import Bot, Dispatcher, F, Router
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.session.middlewares.base import BaseRequestMiddleware, NextRequestMiddlewareType
from aiogram.client.telegram import TelegramAPIServer
from aiogram.exceptions import TelegramRetryAfter
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.methods import Response, TelegramMethod
from aiogram.methods.base import TelegramType
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message
from aiogram.webhook.aiohttp_server import SimpleRequestHandler
from aiohttp import web

SECRET = "echo-secret"
router = Router()


class RetryOnFlood(BaseRequestMiddleware):
    """Wait out ``retry_after`` and try again (aiogram never retries a 429 by itself)."""

    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: TelegramMethod[TelegramType],
    ) -> Response[TelegramType]:
        for _ in range(5):
            try:
                return await make_request(bot, method)
            except TelegramRetryAfter as error:
                print(f"flood: retry after {error.retry_after}", flush=True)
                await asyncio.sleep(error.retry_after)
        return await make_request(bot, method)


@router.message(CommandStart())
async def on_start(message: Message, command: CommandObject) -> None:
    await message.answer(f"Привет! payload={command.args or '-'}")


@router.message(Command("menu"))
async def on_menu(message: Message) -> None:
    markup = InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text="Ping", callback_data="ping")]]
    )
    await message.answer("Меню", reply_markup=markup)


@router.callback_query(F.data == "ping")
async def on_ping(query: CallbackQuery) -> None:
    await query.answer("pong")
    if isinstance(query.message, Message):
        await query.message.edit_text(f"Нажал {query.from_user.first_name}")


@router.message(F.chat.type == "private", F.text)
async def on_text(message: Message) -> None:
    await message.answer(f"echo: {message.text}")


async def run(args: argparse.Namespace) -> None:
    session = AiohttpSession(api=TelegramAPIServer.from_base(args.api))
    session.middleware(RetryOnFlood())
    bot = Bot(args.token, session=session)
    dispatcher = Dispatcher()
    dispatcher.include_router(router)
    if not args.webhook:
        await bot.delete_webhook()
        print("READY", flush=True)
        await dispatcher.start_polling(bot, handle_signals=False, polling_timeout=5)
        return
    app = web.Application()
    SimpleRequestHandler(dispatcher, bot, secret_token=SECRET).register(app, path="/hook")
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    await bot.set_webhook(
        f"http://{host}:{port}/hook",
        secret_token=SECRET,
        allowed_updates=dispatcher.resolve_used_update_types(),
    )
    print("READY", flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()
        await bot.session.close()


def main(argv: Any = None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--api", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--webhook", action="store_true")
    asyncio.run(run(parser.parse_args(argv)))


if __name__ == "__main__":
    main()
