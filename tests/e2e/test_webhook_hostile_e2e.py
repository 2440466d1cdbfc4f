"""The bot on a webhook, as a real process against tests/fakegram, attacked on
WEBHOOK_LISTEN: JSON that is not an object, garbled request lines, heads sent a byte at
a time and silent connections, bodies with the right secret that are no update. Each is
answered (2xx for a body no one can ever handle: Telegram would post it again after
anything else) or closed by the server within WEBHOOK_REQUEST_SECONDS; the log shows no
traceback and no ERROR, and at most one WARNING line per cause a minute; and the bot
goes on taking the fake's updates and playing.

The in-process tests of the same parts: tests/bot/test_web_hostile.py."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import time
from pathlib import Path

from aiohttp import ClientSession

from bot.server import web as bot_web
from bot.server import webhook_updates as updates
from bot.server.config import Address
from tests.bot.test_web_hostile import GARBLED, MALFORMED, send_raw
from tests.e2e.harness import (
    REPLY_SECONDS,
    BotProcess,
    open_game,
    play_until,
    running_bot,
    webhook_env,
)
from tests.fakegram import FakeTelegram

DEADLINE = 2.0  # WEBHOOK_REQUEST_SECONDS of these bots: short, so the test is too
CONNECTIONS = 50  # slow clients at once (the attack had 300: the bound is the same)
DRIBBLE_EVERY = 0.25  # seconds between two bytes of a slow client's head
# A net for a loaded machine, not a measure: the server closes a slow client at
# DEADLINE; its process may wait this long for a CPU before it gets to run the timer.
LATE_BY = 30.0
SLACK = 3  # open files of the bot's own that may come and go meanwhile
WARNING_LINE = re.compile(r" WARNING bot\.server\.web: (.+?): ")


def hostile_env() -> dict[str, str]:
    return {**webhook_env(), "WEBHOOK_REQUEST_SECONDS": str(DEADLINE), "PACING": "false"}


def secret_of(fakegram: FakeTelegram) -> str:
    hook = fakegram.transcript.calls("setWebhook", ok=True)[-1]
    return str(hook.params["secret_token"])


def warning_causes(bot: BotProcess) -> dict[str, int]:
    """The bot's WARNING lines of `bot.server.web`, counted by cause ("cause: what happened")."""
    found: dict[str, int] = {}
    for line in bot.log().splitlines():
        if match := WARNING_LINE.search(line):
            found[match.group(1)] = found.get(match.group(1), 0) + 1
    return found


def assert_once_a_minute(found: dict[str, int], since: float) -> None:
    """No cause has more lines than one a minute since `since` (one, unless the machine
    made the test outlast a minute)."""
    allowed = 1 + int((time.monotonic() - since) // 60)
    assert all(count <= allowed for count in found.values()), found


async def post_all(url: str, bodies: list[bytes], secret: str) -> list[int]:
    headers = {"Content-Type": "application/json", "X-Telegram-Bot-Api-Secret-Token": secret}
    statuses = []
    async with ClientSession() as http:
        for body in bodies:
            async with http.post(url, data=body, headers=headers) as response:
                await response.read()
                statuses.append(response.status)
    return statuses


async def still_answers(fakegram: FakeTelegram, name: str) -> None:
    """A person presses Start; the fake posts it to the bot, which greets them."""
    person = fakegram.add_user(name)
    await person.start()
    await person.private_chat.wait_for_message(
        lambda m: "Привет" in m.content, timeout=REPLY_SECONDS
    )


async def test_json_that_is_not_an_object_is_dropped_with_one_warning(
    fakegram: FakeTelegram, tmp_path: Path
) -> None:
    env = hostile_env()
    async with running_bot(fakegram, tmp_path, **env) as bot:
        since = time.monotonic()
        bodies = [b"[]", b"null", b"1", b'"update"', b"true", b'[{"update_id": 1}]'] * 3
        assert await post_all(env["WEBHOOK_URL"], bodies, secret_of(fakegram)) == [200] * 18
        # The posts' tasks were made before their answers: by the time a later update is
        # handled, a failure of theirs is in the log.
        await still_answers(fakegram, "Алиса")
        assert not bot.problems(), bot.problem_report()
        assert "never retrieved" not in bot.log()
        found = warning_causes(bot)
        assert found.get(updates.NOT_OBJECT) == 1, found
        assert_once_a_minute(found, since)


def open_files(bot: BotProcess) -> int:
    assert bot.process is not None
    return len(os.listdir(f"/proc/{bot.process.pid}/fd"))


async def slow_client(host: str, port: int, opened: asyncio.Event, head: bool) -> float:
    """A client that sends its head a byte every `DRIBBLE_EVERY` s (or, `head` false,
    nothing at all); the seconds until the server closed it. Bounded: it gives up after
    DEADLINE + LATE_BY."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    reader, writer = await asyncio.open_connection(host, port)
    opened.set()
    start = b"POST /telegram HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: "
    try:
        sent = 0
        while loop.time() - started < DEADLINE + LATE_BY:
            if head:
                writer.write(start[sent : sent + 1] or b"a")
                sent += 1
            try:
                if await asyncio.wait_for(reader.read(1024), DRIBBLE_EVERY) == b"":
                    return loop.time() - started
            except TimeoutError:
                continue
        raise AssertionError(f"still open after {loop.time() - started:.1f} s")
    except ConnectionError:
        return loop.time() - started
    finally:
        writer.close()
        with contextlib.suppress(ConnectionError):
            await writer.wait_closed()


async def test_garbled_requests_and_slow_clients_are_closed_with_one_warning_a_minute(
    fakegram: FakeTelegram, tmp_path: Path
) -> None:
    env = hostile_env()
    host, port = env["WEBHOOK_LISTEN"].rsplit(":", 1)
    # DEBUG: aiohttp logs some refusals (TLS sent to plain http) with a traceback there.
    async with running_bot(fakegram, tmp_path, LOG_LEVEL="DEBUG", **env) as bot:
        since = time.monotonic()
        address = Address(host, int(port))
        answers = await asyncio.gather(
            *(send_raw(address, GARBLED[k % len(GARBLED)]) for k in range(CONNECTIONS))
        )
        assert all(a.startswith((b"HTTP/1.0 400 ", b"HTTP/1.1 400 ")) for a in answers)

        before = open_files(bot)
        events = [asyncio.Event() for _ in range(CONNECTIONS)]
        clients = [
            asyncio.ensure_future(slow_client(host, int(port), events[k], head=k % 5 != 0))
            for k in range(CONNECTIONS)
        ]
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in events)), LATE_BY)
        lasted = await asyncio.gather(*clients)
        assert all(DEADLINE <= seconds < DEADLINE + LATE_BY for seconds in lasted), lasted

        # The server's side of each connection is closed too: its open files come back
        # (give or take a few of its own, such as a connection to the fake).
        loop = asyncio.get_running_loop()
        give_up = loop.time() + LATE_BY  # a net: the closes are done, only counted here
        while open_files(bot) > before + SLACK and loop.time() < give_up:
            await asyncio.sleep(0.05)
        assert open_files(bot) <= before + SLACK, (open_files(bot), before)

        await still_answers(fakegram, "Алиса")
        found = warning_causes(bot)
        assert any(cause.startswith("malformed request (") for cause in found), found
        assert_once_a_minute(found, since)
        assert "GARBAGE" not in bot.log()  # what was sent is never written down


async def test_malformed_bodies_with_the_secret_are_dropped_and_the_game_goes_on(
    fakegram: FakeTelegram, tmp_path: Path
) -> None:
    env = hostile_env()
    async with running_bot(fakegram, tmp_path, **env) as bot:
        since = time.monotonic()
        secret = secret_of(fakegram)
        bodies = [body for body, _ in MALFORMED.values()]
        bodies.append(b'{"update_id": 1, "x": "' + b"a" * (bot_web.MAX_BODY + 1) + b'"}')
        statuses = await post_all(env["WEBHOOK_URL"], bodies * 2, secret)
        assert statuses == [200] * len(statuses), statuses

        alice = fakegram.add_user("Алиса", username="alice")
        table = await open_game(fakegram, [alice], computers=1)
        (person,) = table.people
        await play_until(fakegram, table.people, lambda: person.presses >= 2)  # by webhook

        assert not bot.problems(), bot.problem_report()
        found = warning_causes(bot)
        expected = {cause for _, cause in MALFORMED.values()} | {bot_web.TOO_LARGE}
        assert expected <= found.keys(), found
        assert_once_a_minute(found, since)
