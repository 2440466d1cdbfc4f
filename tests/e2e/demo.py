"""`python3 tasks.py demo [--port N]`: the bot against the local Telegram, played from a
web page.

One process serves tests/fakegram on 127.0.0.1 with its play page
(`tests.fakegram.play`), two people and a group with both in it (neither has pressed
Start yet: the page shows each one's START button, as a client does), and runs the bot
as `python -m bot` against it (`harness.BotProcess`: SQLite in a temporary folder, the bot
killed if this process dies). It prints the page's address and runs until Ctrl-C or
SIGTERM, which stop the bot (SIGTERM, waited for) and then the fake.

The demo's bot waits a little before a computer moves and between two pictures of a
table, so people can follow, and its turn and lobby times are ten times the usual (a
turn of the default 60 s lasts ten minutes): nobody is hurried while trying it out.

The bot's Mini App is on (`harness.webapp_env`, registered with the fake's BotFather):
«🃏 Открыть стол» on the lobby and the table opens it in a phone-sized panel of the page.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
import tempfile
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

from tests.e2e.harness import EXIT_SECONDS, BotProcess, webapp_env
from tests.fakegram import FakeChat, FakeTelegram, FakeUser
from tests.fakegram.play import PlayPage

HOST = "127.0.0.1"  # the page acts as every person: this machine only
DEFAULT_PORT = 8080
DEMO_ENV = {
    "COMPUTER_DELAY": "1.0",
    "TABLE_INTERVAL": "1.0",
    "TURN_TIME_SCALE": "10",
}


@dataclass
class Demo:
    fake: FakeTelegram
    page: str  # the play page's address
    group: FakeChat
    people: list[FakeUser]
    bot: BotProcess
    exit_code: int | None = None  # the bot's, once stopped


@contextlib.asynccontextmanager
async def demo(workdir: Path, *, port: int = 0, **env: str) -> AsyncIterator[Demo]:
    """The fake with its page on `port` (0: any free one), the people and the group, and
    the bot running against it with `DEMO_ENV` and `env`; at the end the bot gets SIGTERM
    and is waited for, then the fake stops."""
    fake = FakeTelegram()
    url = await fake.start(HOST, port, routes=PlayPage(fake).attach)
    try:
        alice = fake.add_user("Алиса", username="alice")
        bob = fake.add_user("Боб", username="bob")
        group = fake.add_group("Домино во дворе", members=[alice, bob], admins=[alice])
        app_env = webapp_env()  # the Mini App, opened from the page's «🃏 Открыть стол»
        fake.add_web_app(app_env["WEBAPP_SHORT_NAME"], app_env["WEBAPP_URL"])
        bot = BotProcess(fake, workdir, **{**DEMO_ENV, **app_env, **env})
        bot.forked = False  # the bot a person tries: `python -m bot` itself, once
        await bot.start()
        running = Demo(fake, f"{url}/play/", group, [alice, bob], bot)
        try:
            yield running
        finally:
            running.exit_code = await bot.stop(timeout=EXIT_SECONDS)
    finally:
        await fake.stop()


async def serve(port: int) -> None:
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    with tempfile.TemporaryDirectory(prefix="domino-demo-") as folder:
        print("starting the local Telegram and the bot ...", flush=True)
        async with demo(Path(folder), port=port) as running:
            print(
                f"\n  Play: {running.page}\n"
                f"  (the bot's log: {running.bot.log_path}; Ctrl-C stops everything)\n",
                flush=True,
            )
            await stop.wait()
            print("stopping ...", flush=True)


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="tasks.py demo",
        description="Play the bot in a browser against a local Telegram (127.0.0.1).",
    )
    parser.add_argument(
        "--port",
        type=port_number,
        default=DEFAULT_PORT,
        help=f"the page's port on 127.0.0.1 (default {DEFAULT_PORT}; 0: any free one)",
    )
    return parser.parse_args(argv)


def port_number(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port number (0 to 65535)")
    return port


def main(argv: list[str] | None = None) -> int:
    args = parse(sys.argv[1:] if argv is None else argv)
    try:
        asyncio.run(serve(args.port))
    except OSError as error:  # the port taken, most often
        print(
            f"demo: cannot serve on {HOST}:{args.port}: {error.strerror or error}", file=sys.stderr
        )
        return 1
    except AssertionError as error:  # the bot did not start: harness says why, with its log
        print(f"demo: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
