"""What a stranger can send the webhook's server, in-process through real sockets on
127.0.0.1: a malformed request, a post without the secret, a body that is no update, a
head or a body sent a byte at a time. Each is answered (or closed) at once or at the
deadline, without a traceback or an ERROR line, and each cause makes at most one
WARNING line a minute (`bot.server.log_limits`). The same with the bot as a process:
tests/e2e/test_webhook_hostile_e2e.py."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from aiogram import Bot, Dispatcher
from aiogram.types import Message
from aiohttp import ClientSession
from pydantic import SecretStr

from bot.server import web as bot_web
from bot.server import webhook_updates as updates
from bot.server.config import Address, Settings
from bot.server.log_limits import Throttled
from bot.server.web import WebServer, webhook_app
from bot.server.webhook_updates import Unusable, parse_update
from tests.e2e.harness import free_port
from tests.fakegram.waiting import pace, within

SECRET = "s3cret-Token_for-tests"
PATH = "/hook"
TOKEN = "123456:fake-token-for-the-web-tests"
# A net for a loaded machine, not a measure: a deadline of a fraction of a second is
# met within it (stretched by the machine's pace) even when the test's own process
# waits long for the CPU.
LATE_BY = 10.0


def genuine(update_id: int = 1, text: str = "привет") -> dict[str, object]:
    """A private message, as Telegram posts it."""
    return {
        "update_id": update_id,
        "message": {
            "message_id": update_id,
            "date": 1_700_000_000,
            "chat": {"id": 42, "type": "private", "first_name": "Алиса"},
            "from": {"id": 42, "is_bot": False, "first_name": "Алиса"},
            "text": text,
        },
    }


# Bodies with the right secret that no one can handle, and the cause each is dropped for.
MALFORMED: dict[str, tuple[bytes, str]] = {
    "truncated": (json.dumps(genuine()).encode()[:40], updates.NOT_JSON),
    "empty": (b"", updates.NOT_JSON),
    "NaN": (b'{"update_id": NaN}', updates.NOT_JSON),
    "invalid UTF-8": (b'{"update_id": 1, "x": "\xff\xfe"}', updates.NOT_UTF8),
    "a lone surrogate": (b'{"update_id": 1, "x": "\\udc00"}', updates.NOT_UTF8),
    "200k deep": (b"[" * 200_000 + b"]" * 200_000, updates.TOO_DEEP),
    "65 objects deep": (b'{"a": ' * 65 + b"1" + b"}" * 65, updates.TOO_DEEP),
    "5,000 digits": (b'{"update_id": ' + b"7" * 5000 + b"}", updates.NUMBER),
    "beyond 64 bits": (b'{"update_id": 9223372036854775808}', updates.NUMBER),
    "an array": (b"[]", updates.NOT_OBJECT),
    "null": (b"null", updates.NOT_OBJECT),
    "a string": (b'"update"', updates.NOT_OBJECT),
    "no update_id": (b'{"message": {}}', updates.NOT_UPDATE),
    "a wrong type": (b'{"update_id": "one"}', updates.NOT_UPDATE),
    "an unknown kind": (b'{"update_id": 7, "brand_new_kind": {"a": 1}}', updates.UNKNOWN_KIND),
}

# Request lines and heads aiohttp's parser refuses (400), a few of each kind.
GARBLED = [
    b"GARBAGE\r\n\r\n",
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n",  # TLS sent to plain http
    b"POST /hook HTTP/1.1 junk\r\n\r\n",
    b"POST /ho\x00ok HTTP/1.1\r\nHost: x\r\n\r\n",
    b"POST /hook HTTP/1.1\r\nHost: x\r\nX-Long: " + b"a" * 10_000 + b"\r\n\r\n",
    b"POST /hook HTTP/1.1\r\nHost: x\r\nbroken header line\r\n\r\n",
    b"POST /hook HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
]


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_cause_is_logged_once_a_minute_then_with_the_count_left_out(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = FakeClock()
    warnings = Throttled(logging.getLogger("tests.throttled"), clock=clock)
    caplog.set_level(logging.WARNING, "tests.throttled")
    assert warnings.warning("junk", "from %s", "a")
    for _ in range(5):
        clock.now += 10
        assert not warnings.warning("junk", "from %s", "b")
    assert warnings.warning("other 100%", "from %s", "c")  # another cause: its own minute
    clock.now += 10.5  # 60.5 s after the first line
    assert warnings.warning("junk", "from %s", "d")
    clock.now += 60
    assert warnings.warning("junk", "from %s", "e")  # nothing left out since
    assert [r.getMessage() for r in caplog.records] == [
        "junk: from a",
        "other 100%: from c",
        "junk: from d (and 5 more like it since the last such line)",
        "junk: from e",
    ]
    assert {r.levelno for r in caplog.records} == {logging.WARNING}


@pytest.mark.parametrize("name", MALFORMED)
def test_a_body_that_is_no_update_is_refused_with_its_cause(name: str) -> None:
    body, cause = MALFORMED[name]
    with pytest.raises(Unusable) as refused:
        parse_update(body, Bot(TOKEN))
    assert refused.value.cause == cause
    assert "\n" not in refused.value.detail and len(refused.value.detail) < 200


def test_a_genuine_update_parses_escaped_emoji_too() -> None:
    body = json.dumps(genuine(text="ход 🁢")).encode()  # ensure_ascii: a surrogate pair
    assert b"\\ud83c\\udc62" in body
    update = parse_update(body, Bot(TOKEN))
    assert update.message is not None and update.message.text == "ход 🁢"
    assert update.event_type == "message"


@dataclass
class Hook:
    """The webhook's application on a free port of 127.0.0.1, as `python -m bot` serves
    it, with a dispatcher that records the messages it is fed."""

    server: WebServer
    handled: list[Message] = field(default_factory=list)
    fed: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def address(self) -> Address:
        return self.server.address

    @property
    def url(self) -> str:
        return f"http://{self.address}{PATH}"

    async def post(self, body: bytes, secret: str | None = SECRET) -> int:
        headers = {"Content-Type": "application/json"}
        if secret is not None:
            headers["X-Telegram-Bot-Api-Secret-Token"] = secret
        async with (
            ClientSession() as http,
            http.post(self.url, data=body, headers=headers) as response,
        ):
            await response.read()
            return response.status


@contextlib.asynccontextmanager
async def hook_server(request_seconds: float = bot_web.REQUEST_SECONDS) -> AsyncIterator[Hook]:
    bot = Bot(TOKEN)
    dp = Dispatcher()
    app, handler = webhook_app(dp, bot, path=PATH, secret=SECRET, request_seconds=request_seconds)
    server = WebServer(app, Address("127.0.0.1", free_port()), request_seconds=request_seconds)
    hook = Hook(server)

    @dp.message()
    async def record(message: Message) -> None:
        hook.handled.append(message)
        hook.fed.set()

    await server.start()
    try:
        yield hook
    finally:
        await server.stop()
        await handler.idle()
        await bot.session.close()


def quiet_but_warnings(records: Iterable[logging.LogRecord]) -> list[str]:
    """The WARNING lines among `records`, after checking there is nothing worse: no
    ERROR, no traceback."""
    lines = []
    for record in records:
        assert record.levelno < logging.ERROR, record.getMessage()
        assert record.exc_info is None and record.stack_info is None, record.getMessage()
        if record.levelno == logging.WARNING:
            lines.append(record.getMessage())
    return lines


def causes(lines: Iterable[str]) -> dict[str, int]:
    """How many WARNING lines each cause made (a line is "cause: what happened")."""
    found: dict[str, int] = {}
    for line in lines:
        cause = line.split(": ", 1)[0]
        found[cause] = found.get(cause, 0) + 1
    return found


async def test_each_malformed_body_is_answered_200_with_one_warning_per_cause(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    async with hook_server() as hook:
        for body, _ in [*MALFORMED.values(), *MALFORMED.values()]:  # each twice
            assert await hook.post(body) == 200
        assert await hook.post(json.dumps(genuine()).encode()) == 200
        await within(hook.fed.wait(), LATE_BY, "the update fed to the bot")
    assert [m.text for m in hook.handled] == ["привет"]  # only the genuine one was fed
    found = causes(quiet_but_warnings(caplog.records))
    assert found == {cause: 1 for _, cause in MALFORMED.values()}, found


async def test_without_the_secret_a_post_is_refused_before_its_body_is_read(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    async with hook_server() as hook:
        for secret in (None, "wrong", "ßecret-not-ascii", SECRET[:-1]):
            assert await hook.post(b"[]", secret=secret) == 401
            assert await hook.post(json.dumps(genuine()).encode(), secret=secret) == 401
        assert await hook.post(b"[]") == 200
    assert hook.handled == []
    found = causes(quiet_but_warnings(caplog.records))
    assert found == {bot_web.NO_SECRET: 1, updates.NOT_OBJECT: 1}
    assert SECRET not in caplog.text


async def send_raw(address: Address, data: bytes) -> bytes:
    """`data` on a connection of its own, and all the server answers until it closes."""
    reader, writer = await asyncio.open_connection(address.host, address.port)
    try:
        writer.write(data)
        await writer.drain()
        return await within(reader.read(), LATE_BY, "the answer")
    finally:
        writer.close()
        with contextlib.suppress(ConnectionError):
            await writer.wait_closed()


async def test_garbled_requests_are_answered_400_with_one_warning_per_kind(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    async with hook_server() as hook:
        for data in GARBLED * 3:
            answer = await send_raw(hook.address, data)
            assert answer.startswith(b"HTTP/1.0 400 ") or answer.startswith(b"HTTP/1.1 400 "), (
                data[:40],
                answer[:80],
            )
    found = causes(quiet_but_warnings(caplog.records))
    assert found and all(n == 1 for n in found.values()), found
    assert all(cause.startswith("malformed request (") for cause in found), found
    assert "BadStatusLine" in caplog.text and "BadHttpMethod" in caplog.text
    assert "GARBAGE" not in caplog.text and "aaaa" not in caplog.text  # never what was sent


async def closed_after(
    address: Address, prefix: bytes = b"", dribble: bytes = b"", every: float = 0.05
) -> tuple[float, int]:
    """Connect, send `prefix`, then `dribble` a byte every `every` s; the seconds until
    the server closed the connection, and the dribbled bytes it got meanwhile."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    reader, writer = await asyncio.open_connection(address.host, address.port)
    sent = 0
    try:
        writer.write(prefix)
        answer = b""
        # Bounded by the bytes to dribble: the server must close long before they run out.
        for byte in [*dribble, None]:
            if byte is not None:
                writer.write(bytes([byte]))
                sent += 1
            try:
                chunk = await asyncio.wait_for(reader.read(65536), every)
            except TimeoutError:
                if byte is None:  # nothing left to send: wait for the close alone
                    chunk = await within(reader.read(65536), LATE_BY, "the close")
                else:
                    continue
            answer += chunk
            if not chunk:
                return loop.time() - started, sent
            while chunk := await within(reader.read(65536), LATE_BY, "the close"):
                answer += chunk  # an answer; the close follows it
            return loop.time() - started, sent
    except ConnectionError:
        return loop.time() - started, sent
    finally:
        writer.close()
        with contextlib.suppress(ConnectionError):
            await writer.wait_closed()
    raise AssertionError("the server never closed the connection")


async def test_a_slow_head_a_silent_and_an_idle_connection_close_at_the_deadline(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    deadline = 0.5
    head = f"POST {PATH} HTTP/1.1\r\nHost: x\r\nX-Pad: ".encode()
    body = json.dumps(genuine()).encode()
    kept = (
        f"POST {PATH} HTTP/1.1\r\nHost: x\r\nX-Telegram-Bot-Api-Secret-Token: {SECRET}\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode() + body
    async with hook_server(request_seconds=deadline) as hook:
        slow, sent = await closed_after(hook.address, dribble=head + b"a" * 1000)
        assert deadline <= slow < deadline + LATE_BY * pace() and sent > 3, (slow, sent)
        silent, _ = await closed_after(hook.address)
        assert deadline <= silent < deadline + LATE_BY * pace()
        idle, _ = await closed_after(hook.address, prefix=kept)  # answered, then kept alive
        assert deadline <= idle < deadline + LATE_BY * pace()
        await within(hook.fed.wait(), LATE_BY, "the update fed to the bot")
    assert len(hook.handled) == 1
    assert quiet_but_warnings(caplog.records) == []


async def test_a_slow_body_is_refused_408_a_cut_one_400_and_a_huge_one_dropped(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    deadline = 0.5

    def head(length: int) -> bytes:
        return (
            f"POST {PATH} HTTP/1.1\r\nHost: x\r\nX-Telegram-Bot-Api-Secret-Token: {SECRET}\r\n"
            f"Content-Length: {length}\r\n\r\n"
        ).encode()

    async with hook_server(request_seconds=deadline) as hook:
        reader, writer = await asyncio.open_connection(hook.address.host, hook.address.port)
        writer.write(head(100) + b'{"update_id": 1')
        answer = await within(reader.read(), LATE_BY, "the answer")
        writer.close()
        assert answer.startswith(b"HTTP/1.1 408 "), answer[:80]

        reader, writer = await asyncio.open_connection(hook.address.host, hook.address.port)
        writer.write(head(100) + b'{"update_id": 1')
        await writer.drain()
        writer.close()  # gone mid-body
        await writer.wait_closed()

        answer = await send_raw(hook.address, head(bot_web.MAX_BODY + 1))  # no body sent
        assert answer.startswith(b"HTTP/1.1 200 "), answer[:80]

        async def warned() -> None:
            while bot_web.CUT_OFF not in caplog.text:
                await asyncio.sleep(0.01)

        await within(warned(), LATE_BY, "the warning")
    found = causes(quiet_but_warnings(caplog.records))
    assert found == {bot_web.TOO_SLOW: 1, bot_web.CUT_OFF: 1, bot_web.TOO_LARGE: 1}, found
    assert hook.handled == []


def test_the_request_deadline_is_a_setting(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)  # no .env of the developer's
    monkeypatch.delenv("WEBHOOK_REQUEST_SECONDS", raising=False)
    token = SecretStr(TOKEN)
    assert Settings(bot_token=token).webhook_request_seconds == bot_web.REQUEST_SECONDS
    monkeypatch.setenv("WEBHOOK_REQUEST_SECONDS", "2.5")
    assert Settings(bot_token=token).webhook_request_seconds == 2.5


async def test_a_genuine_update_is_answered_at_once_and_handled_in_the_background() -> None:
    async with hook_server() as hook:
        assert await hook.post(json.dumps(genuine(5, "/start")).encode()) == 200
        await within(hook.fed.wait(), LATE_BY, "the update fed to the bot")
    (message,) = hook.handled
    assert message.text == "/start" and message.chat.id == 42
