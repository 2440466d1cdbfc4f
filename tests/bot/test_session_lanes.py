"""bot.telegram.session: an answer to a press and a long poll never wait for a connection
behind the chats' calls (the module's "Two lanes of connections")."""

from __future__ import annotations

import asyncio

from aiogram import Bot
from aiogram.client.telegram import TelegramAPIServer
from aiogram.methods import AnswerCallbackQuery, SendMessage
from aiohttp import web
from aiohttp.test_utils import TestServer

from bot.telegram.session import JsonSession

TOKEN = "42:TEST"


async def test_an_answer_goes_out_while_every_chat_connection_is_busy() -> None:
    held = asyncio.Event()
    release = asyncio.Event()
    arrived: list[str] = []

    async def api(request: web.Request) -> web.Response:
        method = request.match_info["method"]
        arrived.append(method)
        if method == "sendMessage":
            if arrived.count("sendMessage") == 2:
                held.set()
            await release.wait()  # Telegram slow to take the chats' calls
            return web.json_response(
                {
                    "ok": True,
                    "result": {
                        "message_id": 1,
                        "date": 0,
                        "chat": {"id": 5, "type": "private"},
                        "text": "x",
                    },
                }
            )
        return web.json_response({"ok": True, "result": True})

    app = web.Application()
    app.router.add_post("/bot{token}/{method}", api)
    server = TestServer(app)
    await server.start_server()
    session = JsonSession(api=TelegramAPIServer.from_base(str(server.make_url(""))), limit=2)
    bot = Bot(TOKEN, session=session)
    try:
        sends = [
            asyncio.create_task(bot(SendMessage(chat_id=5, text=f"hand {n}"))) for n in range(3)
        ]
        await held.wait()  # both chat connections are taken, a third call waits for one
        answered = await asyncio.wait_for(
            bot(AnswerCallbackQuery(callback_query_id="7")), timeout=60
        )
        assert answered is True
        assert arrived.count("sendMessage") == 2  # the third still waits for a connection
        assert not any(send.done() for send in sends)
        release.set()
        await asyncio.gather(*sends)
        assert arrived.count("sendMessage") == 3
    finally:
        release.set()
        await session.close()
        await server.close()
