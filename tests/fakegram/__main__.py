"""Run the fake by itself: ``python -m tests.fakegram --port 8081 [--demo] [--play]``.

With the bot against it and the people's page in one command: ``python3 tasks.py demo``."""

from __future__ import annotations

import argparse
import asyncio
import contextlib

from .play import PlayPage
from .server import DEFAULT_TOKEN, FakeTelegram


async def serve(args: argparse.Namespace) -> None:
    fake = FakeTelegram(token=args.token, bot_username=args.bot_username)
    if args.play and args.host != "127.0.0.1":
        raise SystemExit("--play serves 127.0.0.1 only: it acts as every person")
    url = await fake.start(
        args.host, args.port, routes=PlayPage(fake).attach if args.play else None
    )
    if args.demo:
        alice = fake.add_user("Алиса", username="alice", started=True)
        bob = fake.add_user("Боб", username="bob", started=True)
        group = fake.add_group("Домино", members=[alice, bob], admins=[alice])
        print(f"demo: users {alice.id} {bob.id}, group {group.id}", flush=True)
    print(f"fakegram serving {url} for token {fake.token}", flush=True)
    if args.play:
        print(f"the people's page: {url}/play/", flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await fake.stop()


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.fakegram", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8081)
    parser.add_argument("--token", default=DEFAULT_TOKEN)
    parser.add_argument("--bot-username", default="domino_test_bot")
    parser.add_argument("--demo", action="store_true", help="add two users and a group")
    parser.add_argument(
        "--play", action="store_true", help="serve the people's page at /play/ (tasks.py demo)"
    )
    args = parser.parse_args()
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(args))


if __name__ == "__main__":
    main()
