"""CPU one Bot API call costs the bot inside aiogram: the stock session against
`bot.telegram.session`.

    .venv/bin/python bench/api_calls.py [--calls 300] [--repeats 5]

The fake Telegram (tests/fakegram) runs in a forked process; the calls are made from
the main thread, whose CPU time (`time.thread_time`) is the client's alone:
building the request, aiohttp, parsing the answer. Each repeat makes `--calls` calls of
each common kind (sendMessage and editMessageText with an inline keyboard,
answerCallbackQuery, editMessageMedia uploading a picture) through each session in turn:
aiogram's `AiohttpSession`, `JsonSession` with aiogram's answer parsing
(`check_response`), and `JsonSession` as the bot uses it. Prints the median over the
repeats of the CPU ms per call, and each session's ratio to the stock one.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from aiogram import Bot  # noqa: E402
from aiogram.client.default import DefaultBotProperties  # noqa: E402
from aiogram.client.session.aiohttp import AiohttpSession  # noqa: E402
from aiogram.client.telegram import TelegramAPIServer  # noqa: E402
from aiogram.methods import TelegramMethod  # noqa: E402
from aiogram.types import (  # noqa: E402
    BufferedInputFile,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
)

from bot.telegram.session import JsonSession  # noqa: E402
from tests.fakegram import FakeTelegram  # noqa: E402
from tests.fakegram.world import FakeUser  # noqa: E402

TEXT = (
    "🁫 <b>Партия 3</b>, раунд 2 — ход Алисы.\n"
    "На столе: 6-6 6-3 3-3 3-1; базар: 9 костей.\n"
    "Алиса 45 · Боб 30 · Вера 15 · Глеб 0"
)
KINDS = ("sendMessage", "editMessageText", "answerCallbackQuery", "editMessageMedia")


class StockParsing(JsonSession):
    """JSON bodies, but answers parsed the way aiogram does (`check_response`)."""

    def answer_of(self, bot: Bot, method: TelegramMethod[Any], status: int, raw: bytes) -> Any:
        return self.check_response(bot, method, status, raw.decode()).result


class StockSession(AiohttpSession):
    """aiogram's stock session, closed without its pause for TLS (the baseline)."""

    async def close(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()


SESSIONS: dict[str, Callable[[TelegramAPIServer], AiohttpSession]] = {
    "aiogram AiohttpSession": lambda api: StockSession(api=api),
    "JsonSession, stock answer parsing": lambda api: StockParsing(api=api),
    "JsonSession": lambda api: JsonSession(api=api),
}


def keyboard(turn: int) -> InlineKeyboardMarkup:
    """A hand of seven tiles and two more buttons, as the bot's move keyboard."""
    tiles = [
        InlineKeyboardButton(text=f"{a}|{b}", callback_data=f"p1:{turn}:42:{a}-{b}:L")
        for a, b in ((6, 5), (6, 4), (5, 5), (4, 2), (3, 0), (2, 2), (1, 0))
    ]
    return InlineKeyboardMarkup(
        inline_keyboard=[
            tiles[:4],
            tiles[4:],
            [
                InlineKeyboardButton(text="Базар", callback_data=f"b1:{turn}:42"),
                InlineKeyboardButton(text="Пас", callback_data=f"s1:{turn}:42"),
            ],
        ]
    )


def picture() -> bytes:
    """A PNG of a table picture's size (tens of KB)."""
    from PIL import Image

    rng = random.Random(16)
    image = Image.new("RGB", (640, 400), (20, 90, 50))
    pixels = image.load()
    assert pixels is not None
    for _ in range(6000):
        pixels[rng.randrange(640), rng.randrange(400)] = (rng.randrange(256),) * 3
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


class FakeProcess:
    """The fake Telegram served from a process of its own (forked), so its work is not
    counted as the client's nor competes with it for the GIL; driven through a pipe."""

    def __init__(self) -> None:
        self.pipe, child = multiprocessing.Pipe()
        self.process = multiprocessing.get_context("fork").Process(
            target=self._serve, args=(child,), daemon=True
        )
        self.process.start()
        self.token, self.url = self.pipe.recv()

    @staticmethod
    def _serve(pipe: Connection) -> None:
        asyncio.run(FakeProcess._serve_async(pipe))

    @staticmethod
    async def _serve_async(pipe: Connection) -> None:
        fake = FakeTelegram(callback_timeout=1e9)
        await fake.start()
        pipe.send((fake.token, fake.url))
        loop = asyncio.get_running_loop()
        users: dict[int, FakeUser] = {}
        while True:
            command, arg = await loop.run_in_executor(None, pipe.recv)
            if command == "people":
                user = fake.add_user("Алиса", username="alice", started=True)
                group = fake.add_group("Домино", members=[user], admins=[user])
                users[user.id] = user
                pipe.send((user.id, group.id))
            elif command == "callbacks":
                user_id, n = arg
                before = set(fake._pending_callbacks)
                for _ in range(n):
                    fake.push_callback(users[user_id], "x")
                pipe.send([key for key in fake._pending_callbacks if key not in before])
            else:
                await fake.stop()
                pipe.send(None)
                return

    def ask(self, command: str, arg: Any = None) -> Any:
        self.pipe.send((command, arg))
        return self.pipe.recv()

    def stop(self) -> None:
        self.ask("stop")
        self.process.join()


async def one_session(
    fake: FakeProcess, make: Callable[[TelegramAPIServer], AiohttpSession], calls: int
) -> dict[str, float]:
    """CPU ms per call of each kind through one session."""
    user_id, group_id = fake.ask("people")
    png = picture()
    bot = Bot(
        fake.token,
        session=make(TelegramAPIServer.from_base(fake.url)),
        default=DefaultBotProperties(allow_sending_without_reply=True),
    )
    try:
        text = await bot.send_message(group_id, TEXT, parse_mode="HTML")
        photo = await bot.send_photo(group_id, BufferedInputFile(png, "table.png"))
        ids = iter(fake.ask("callbacks", (user_id, calls + 1)))
        made: dict[str, Callable[[int], Awaitable[Any]]] = {
            "sendMessage": lambda i: bot.send_message(
                group_id, TEXT, parse_mode="HTML", reply_markup=keyboard(i)
            ),
            "editMessageText": lambda i: bot.edit_message_text(
                text=f"{TEXT}\n{i}",
                chat_id=group_id,
                message_id=text.message_id,
                parse_mode="HTML",
                reply_markup=keyboard(i),
            ),
            "answerCallbackQuery": lambda i: bot.answer_callback_query(next(ids)),
            "editMessageMedia": lambda i: bot.edit_message_media(
                InputMediaPhoto(media=BufferedInputFile(png, "table.png"), caption=f"ход {i}"),
                chat_id=group_id,
                message_id=photo.message_id,
            ),
        }
        per_call: dict[str, float] = {}
        for kind in KINDS:
            call = made[kind]
            await call(-1)  # warm: the answer model built, the connection open
            began = time.thread_time()
            for i in range(calls):
                await call(i)
            per_call[kind] = (time.thread_time() - began) * 1000 / calls
        return per_call
    finally:
        await bot.session.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=300, help="calls of each kind per repeat")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    fake = FakeProcess()
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in SESSIONS}
    try:
        for _ in range(args.repeats):
            for name, make in SESSIONS.items():
                runs[name].append(asyncio.run(one_session(fake, make, args.calls)))
    finally:
        fake.stop()
    print(f"CPU ms per call (client thread), median of {args.repeats} x {args.calls} calls")
    stock = next(iter(SESSIONS))
    medians = {
        name: {kind: statistics.median(run[kind] for run in runs[name]) for kind in KINDS}
        for name in SESSIONS
    }
    print(f"{'':36}" + "".join(f"{kind:>22}" for kind in KINDS))
    for name in SESSIONS:
        cells = "".join(
            f"{medians[name][kind]:>12.3f} (x{medians[name][kind] / medians[stock][kind]:.2f})"
            for kind in KINDS
        )
        print(f"{name:36}{cells}")


if __name__ == "__main__":
    main()
