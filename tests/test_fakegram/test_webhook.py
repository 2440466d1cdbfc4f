"""Webhook delivery as Telegram does it (tests/fakegram/server.py): up to setWebhook's
``max_connections`` updates POSTed at once (default 40), but one chat's updates one at a
time and in order, a failed one retried before the chat's next while other chats go on."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

from aiohttp import web

from tests.conftest import FakegramFactory
from tests.fakegram import FakeTelegram
from tests.fakegram.aiogram_support import make_bot
from tests.fakegram.waiting import within

# What the receiver answers an update of `chat` with `text`: an HTTP status.
Respond = Callable[[int, str], Awaitable[int]]


class Receiver:
    """A bot's webhook server that keeps the texts it took, per chat, and what it held
    at once: `most` updates, and any update of a chat that came while the chat's previous
    one was still in hand (`overlaps`)."""

    def __init__(self, respond: Respond) -> None:
        self.respond = respond
        self.texts: dict[int, list[str]] = defaultdict(list)
        self.in_hand: list[int] = []  # the chat of each update in hand
        self.most = 0
        self.overlaps: list[str] = []

    async def hook(self, request: web.Request) -> web.Response:
        message = (await request.json())["message"]
        chat, text = message["chat"]["id"], message["text"]
        if chat in self.in_hand:
            self.overlaps.append(text)
        self.in_hand.append(chat)
        self.most = max(self.most, len(self.in_hand))
        try:
            status = await self.respond(chat, text)
        finally:
            self.in_hand.remove(chat)
        if status == 200:
            self.texts[chat].append(text)
        return web.Response(status=status)

    @asynccontextmanager
    async def serving(self) -> AsyncIterator[str]:
        """The receiver on an ephemeral port; yields its URL."""
        app = web.Application()
        app.router.add_post("/hook", self.hook)
        runner = web.AppRunner(app)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        host, port = runner.addresses[0][:2]
        try:
            yield f"http://{host}:{port}/hook"
        finally:
            await runner.cleanup()


async def waited(event: asyncio.Event) -> bool:
    """Whether `event` came within 5 s at the machine's pace (a delivery that never
    comes fails the test)."""
    try:
        await within(event.wait(), 5, "the webhook's delivery")
    except TimeoutError:
        return False
    return True


async def test_two_chats_are_delivered_at_once_and_each_chat_in_order(
    fakegram_factory: FakegramFactory,
) -> None:
    fakegram: FakeTelegram = await fakegram_factory(webhook_retry_delay=0.01)
    alice = fakegram.add_user("Алиса", started=True)
    bob = fakegram.add_user("Боб", started=True)
    both_in_hand = asyncio.Event()  # never, if the fake POSTs one update at a time
    bob_done = asyncio.Event()
    tries_of_alice_1 = 0

    async def respond(chat: int, text: str) -> int:
        nonlocal tries_of_alice_1
        if len(receiver.in_hand) == 2:
            both_in_hand.set()
        if not await waited(both_in_hand):
            return 503
        if text == "Алиса 1":
            tries_of_alice_1 += 1
            if tries_of_alice_1 == 1:
                return 500  # retried, and her next updates wait for it
            if not await waited(bob_done):  # her chat stuck holds up no other
                return 503
        if text == "Боб 3":
            bob_done.set()
        return 200

    receiver = Receiver(respond)
    for n in (1, 2, 3):
        await alice.send(None, f"Алиса {n}")
        await bob.send(None, f"Боб {n}")
    bot = make_bot(fakegram)
    try:
        async with receiver.serving() as url:
            await bot.set_webhook(url)
            assert (await bot.get_webhook_info()).max_connections == 40
            await fakegram.wait_for(lambda: fakegram.pending_updates == 0, timeout=10)
            await bot.delete_webhook()
    finally:
        await bot.session.close()
    assert receiver.texts == {
        alice.id: ["Алиса 1", "Алиса 2", "Алиса 3"],
        bob.id: ["Боб 1", "Боб 2", "Боб 3"],
    }
    assert receiver.most == 2 and receiver.overlaps == []
    assert tries_of_alice_1 == 2
    delivered = [update["message"]["text"] for update in fakegram.delivered_updates]
    assert delivered.index("Боб 3") < delivered.index("Алиса 1")


async def test_max_connections_bounds_the_updates_in_flight(fakegram: FakeTelegram) -> None:
    people = [fakegram.add_user(name, started=True) for name in ("Алиса", "Боб", "Вера")]
    first_in_hand = asyncio.Event()
    second_came = asyncio.Event()

    async def respond(chat: int, text: str) -> int:
        if first_in_hand.is_set():
            second_came.set()
            return 200
        first_in_hand.set()
        # Held a moment: a second update POSTed meanwhile would break the bound.
        await asyncio.sleep(0.2)
        return 200

    receiver = Receiver(respond)
    for person in people:
        await person.send(None, "привет")
    bot = make_bot(fakegram)
    try:
        async with receiver.serving() as url:
            await bot.set_webhook(url, max_connections=1)
            assert (await bot.get_webhook_info()).max_connections == 1
            await fakegram.wait_for(lambda: fakegram.pending_updates == 0, timeout=10)
            await bot.delete_webhook()
    finally:
        await bot.session.close()
    assert receiver.most == 1 and second_came.is_set()
    assert sorted(receiver.texts) == sorted(person.id for person in people)
