"""How many sendMessage calls a second the fake Telegram serves on this machine.

    .venv/bin/python bench/fakegram.py [--requests 3000] [--concurrency 8] [--client raw|aiogram]

The fake runs in its own process (``python -m tests.fakegram --demo``), as it would beside a
bot; N concurrent senders in this process post sendMessage over keep-alive connections
(raw aiohttp, or a real aiogram Bot). Prints throughput and p50/p99 latency.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import sys
import time
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.fakegram.server import DEFAULT_TOKEN  # noqa: E402


async def start_fake() -> tuple[asyncio.subprocess.Process, str, int]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.fakegram",
        "--port",
        "0",
        "--demo",
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
    )
    assert process.stdout is not None
    demo = (await process.stdout.readline()).decode()
    serving = (await process.stdout.readline()).decode()
    user_id = int(re.search(r"users (\d+)", demo).group(1))  # type: ignore[union-attr]
    url = re.search(r"serving (\S+)", serving).group(1)  # type: ignore[union-attr]
    return process, url, user_id


async def raw_sender(
    session: aiohttp.ClientSession, url: str, chat_id: int, count: int, latencies: list[float]
) -> None:
    endpoint = f"{url}/bot{DEFAULT_TOKEN}/sendMessage"
    for n in range(count):
        started = time.perf_counter()
        async with session.post(endpoint, data={"chat_id": str(chat_id), "text": f"m{n}"}) as r:
            body = await r.json()
        latencies.append(time.perf_counter() - started)
        assert body["ok"], body


async def aiogram_sender(bot: object, chat_id: int, count: int, latencies: list[float]) -> None:
    from aiogram import Bot

    assert isinstance(bot, Bot)
    for n in range(count):
        started = time.perf_counter()
        await bot.send_message(chat_id, f"m{n}")
        latencies.append(time.perf_counter() - started)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--client", choices=["raw", "aiogram"], default="raw")
    args = parser.parse_args()
    process, url, chat_id = await start_fake()
    per_sender = args.requests // args.concurrency
    latencies: list[float] = []
    try:
        if args.client == "raw":
            connector = aiohttp.TCPConnector(limit=args.concurrency)
            async with aiohttp.ClientSession(connector=connector) as session:
                await raw_sender(session, url, chat_id, 20, [])  # warm-up
                started = time.perf_counter()
                await asyncio.gather(
                    *(
                        raw_sender(session, url, chat_id, per_sender, latencies)
                        for _ in range(args.concurrency)
                    )
                )
                elapsed = time.perf_counter() - started
        else:
            from aiogram import Bot
            from aiogram.client.session.aiohttp import AiohttpSession
            from aiogram.client.telegram import TelegramAPIServer

            bot = Bot(DEFAULT_TOKEN, session=AiohttpSession(api=TelegramAPIServer.from_base(url)))
            await aiogram_sender(bot, chat_id, 20, [])
            started = time.perf_counter()
            await asyncio.gather(
                *(
                    aiogram_sender(bot, chat_id, per_sender, latencies)
                    for _ in range(args.concurrency)
                )
            )
            elapsed = time.perf_counter() - started
            await bot.session.close()
    finally:
        process.terminate()
        await process.wait()
    done = len(latencies)
    cuts = statistics.quantiles(latencies, n=100)
    print(f"client: {args.client}, {args.concurrency} concurrent senders, {done} requests")
    print(f"sendMessage: {done / elapsed:.0f} req/s")
    print(f"latency p50: {cuts[49] * 1000:.2f} ms, p99: {cuts[98] * 1000:.2f} ms")


if __name__ == "__main__":
    asyncio.run(main())
