"""The bot's HTTP side: the webhook server and the metrics server.

With `WEBHOOK_URL` set, Telegram posts each update to that URL; a reverse proxy in front
(TLS ends there) forwards the URL's path to `WEBHOOK_LISTEN`, where `WebhookHandler`
(aiogram's `SimpleRequestHandler`) takes it. A request without the right
`X-Telegram-Bot-Api-Secret-Token` is answered 401 and changes nothing. A right one is
answered 200 at once and handled in the background (`WebhookHandler.handle`), as polling
hands each update to a task: Telegram is never kept waiting for a picture or a
transaction. In shard mode (`bot.server.shard_mode`) every instance takes posts: each
update is stored in the queue for its shard's owner (`store`) and answered 200 once it
is; a post that cannot be stored is answered 503, and Telegram sends it again. On stop
the server closes first (Telegram keeps what it could not deliver and posts it again to
the next run), then the updates taken finish
(`WebhookHandler.idle`, then the dispatcher's in-flight count).

The secret: `WEBHOOK_SECRET`, or else one generated at the first start in webhook mode
and kept in the database (`storage.kv`), so a restart tells Telegram the same one. It is
never logged.

`/metrics` and `/healthz` (`bot.server.metrics`) are served on the webhook server, and on
`METRICS_LISTEN` when that is set (the way to see them while polling).

Anyone who reaches these servers may send them anything, so nothing a client sends
makes a traceback or an ERROR line, and each kind of junk makes at most one WARNING line
a minute (`bot.server.log_limits`): a malformed request (`ServerLog`), a post without
the secret, a body that is no update (`bot.server.webhook_updates`). A client has
`request_seconds` to send a request's head, counted from its connecting or from its
previous answer, and a webhook post's body; then the connection is closed
(`WebServer`).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import Bot, Dispatcher
from aiogram.methods import TelegramMethod
from aiogram.types import Update
from aiogram.webhook.aiohttp_server import SimpleRequestHandler, setup_application
from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError
from aiohttp.typedefs import Handler, Middleware
from pydantic import SecretStr

from bot.server.config import Address
from bot.server.log_limits import Throttled
from bot.server.webhook_updates import Unusable, parse_update
from storage import kv
from storage.db import Database

log = logging.getLogger(__name__)

SECRET_NAME = "webhook_secret"  # its name in `bot_values`
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
# Seconds the server waits for requests in hand when it closes; the webhook's answer
# never waits for the update's handling, so this is only a net.
CLOSE_TIMEOUT = 2.0
# Seconds a client has to send a request's head (and a webhook post its body); a
# connection idle that long is closed. Telegram and a proxy send a request at once.
REQUEST_SECONDS = 10.0
# Telegram's updates are a few kilobytes, a few hundred at the most (nginx's
# `client_max_body_size 1m` in the README says the same).
MAX_BODY = 1024 * 1024

# Why a post is dropped: the causes of its WARNING line (`Throttled`).
NO_SECRET = "webhook post without the right secret token"
TOO_LARGE = "webhook post too large"
TOO_SLOW = "webhook post too slow"
CUT_OFF = "webhook post cut off"
NOT_STORED = "webhook update not stored"


class CannotListen(RuntimeError):
    """A server cannot take its address; the text is one line for the admin."""


async def webhook_secret(configured: SecretStr | None, db: Database) -> str:
    """`WEBHOOK_SECRET`, or the one this database keeps (made at the first start: 43
    characters of Telegram's alphabet for secrets, A-Z a-z 0-9 _ -)."""
    if configured is not None:
        return configured.get_secret_value()
    return await kv.kept_value(db, SECRET_NAME, lambda: secrets.token_urlsafe(32))


class WebhookHandler(SimpleRequestHandler):
    """aiogram's handler for one bot, answering at once and handling in the background,
    and a way to wait for the updates it has taken (`idle`).

    The body is read and parsed here, before aiogram sees it (`parse_update`), so that a
    post no one can handle is answered 200 and dropped with one WARNING line: Telegram
    posts an update again after any other answer, and this one would fail the same way
    each time, for as long as Telegram keeps trying. A post too slow (408) or cut off
    (400) is refused instead: its update never arrived whole, and sent again it may."""

    def __init__(
        self,
        dispatcher: Dispatcher,
        bot: Bot,
        *,
        secret_token: str,
        request_seconds: float = REQUEST_SECONDS,
        store: Callable[[Update, bytes], Awaitable[object]] | None = None,
        **data: Any,
    ) -> None:
        """`store`: in shard mode, queue the update (given with the post's body) instead
        of handling it here."""
        super().__init__(dispatcher, bot, secret_token=secret_token, **data)
        self.request_seconds = request_seconds
        self.store = store
        self.warnings = Throttled(log)

    def verify_secret(self, telegram_secret_token: str, bot: Bot) -> bool:
        """aiogram's check, on bytes: `compare_digest` raises on a str that is not ASCII,
        and a header may be anything a client sends."""
        given = telegram_secret_token.encode("utf-8", "surrogateescape")
        return secrets.compare_digest(given, (self.secret_token or "").encode())

    def register_route(self, app: web.Application, path: str) -> None:
        """POST `path` on `app`. (aiogram's `register` also closes the bot's session when
        the server stops, before the updates taken and the queues are done with it; the
        session is closed by the bot's own shutdown instead.)"""
        app.router.add_post(path, self.handle)

    async def handle(self, request: web.Request) -> web.Response:
        """401 without the secret (the body unread), else 200 and the update handled in
        the background; see the class for the posts refused or dropped."""
        bot = self.bot
        if not self.verify_secret(request.headers.get(SECRET_HEADER, ""), bot):
            self.warnings.warning(NO_SECRET, "from %s, refused (401)", request.remote)
            return web.Response(body="Unauthorized", status=401)
        body = b""
        try:
            body = await self._body(request)
            update = parse_update(body, bot)
        except TimeoutError:
            self.warnings.warning(TOO_SLOW, "from %s, refused (408)", request.remote)
            return web.Response(text="too slow", status=408)
        except (ConnectionError, web.RequestPayloadError, HttpProcessingError) as exc:
            self.warnings.warning(
                CUT_OFF, "from %s (%s), refused (400)", request.remote, type(exc).__name__
            )
            return web.Response(text="cut off", status=400)
        except Unusable as exc:
            detail = f" ({exc.detail})" if exc.detail else ""
            self.warnings.warning(exc.cause, "from %s%s, dropped (200)", request.remote, detail)
        else:
            if self.store is not None:
                try:
                    await self.store(update, body)
                except Exception as exc:  # the database's: Telegram sends it again
                    self.warnings.warning(
                        NOT_STORED, "%s (%s), refused (503)", update.update_id, type(exc).__name__
                    )
                    return web.Response(status=503, text="not stored", headers={"Retry-After": "1"})
                return web.json_response({}, dumps=bot.session.json_dumps)
            task = asyncio.create_task(self._feed_in_background(bot, update))
            self._background_feed_update_tasks.add(task)
            task.add_done_callback(self._background_feed_update_tasks.discard)
        return web.json_response({}, dumps=bot.session.json_dumps)

    async def _body(self, request: web.Request) -> bytes:
        """The post's body, within `request_seconds` (else TimeoutError); `Unusable`
        beyond `MAX_BODY`."""
        async with asyncio.timeout(self.request_seconds):
            if (request.content_length or 0) > MAX_BODY:
                raise Unusable(TOO_LARGE, f"{request.content_length} bytes")
            body = bytearray()
            async for chunk in request.content.iter_any():
                body += chunk
                if len(body) > MAX_BODY:
                    raise Unusable(TOO_LARGE, f"over {MAX_BODY} bytes")
            return bytes(body)

    async def _feed_in_background(self, bot: Bot, update: Update) -> None:
        # As polling does: an update whose handling failed is logged with its traceback
        # now, not when its task is collected ("exception was never retrieved").
        try:
            result = await self.dispatcher.feed_update(bot, update, **self.data)
            if isinstance(result, TelegramMethod):
                await self.dispatcher.silent_call_request(bot=bot, result=result)
        except Exception:
            log.exception("the update %s failed", update.update_id)

    async def idle(self) -> None:
        """Until every update this handler has taken has been handled."""
        while tasks := set(self._background_feed_update_tasks):
            await asyncio.gather(*tasks, return_exceptions=True)


def webhook_app(
    dp: Dispatcher,
    bot: Bot,
    *,
    path: str,
    secret: str,
    active: Callable[[], bool] = lambda: True,
    request_seconds: float = REQUEST_SECONDS,
    store: Callable[[Update, bytes], Awaitable[object]] | None = None,
    **data: Any,
) -> tuple[web.Application, WebhookHandler]:
    """The webhook server's application: POST `path` takes updates; the dispatcher's
    startup and shutdown run with the server's, as polling runs them. While `active()`
    says no (a standby, or the running games not picked up yet), the posts are answered
    503 and taken by nobody: Telegram, or the proxy in front, sends them again. With
    `store` (shard mode) each update is queued, not handled here."""
    app = web.Application(middlewares=[standby_gate(path, active)])
    handler = WebhookHandler(
        dp, bot, secret_token=secret, request_seconds=request_seconds, store=store
    )
    handler.register_route(app, path)
    setup_application(app, dp, bot=bot, **data)
    return app, handler


def standby_gate(path: str, active: Callable[[], bool]) -> Middleware:
    """503 for the webhook's posts while `active()` says no (see `webhook_app`)."""

    @web.middleware
    async def gate(request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path == path and not active():
            return web.Response(status=503, text="standby", headers={"Retry-After": "1"})
        return await handler(request)

    return gate


class ServerLog(logging.LoggerAdapter[logging.Logger]):
    """aiohttp's server logger ('aiohttp.server') as one server of the bot uses it.

    aiohttp logs every request its parser refuses (a garbled request line, a header too
    long, TLS sent to plain http) with a traceback, at ERROR or DEBUG; here each becomes
    one WARNING line per kind a minute, naming the kind and never the bytes sent. What
    aiohttp logs of the bot's own failures (a handler that raised) stays as it was,
    with its traceback."""

    def __init__(self, warnings: Throttled) -> None:
        super().__init__(logging.getLogger("aiohttp.server"), {})
        self.warnings = warnings

    def log(self, level: int, msg: object, *args: object, **kwargs: Any) -> None:
        exc = _exception_of(kwargs.get("exc_info"))
        if isinstance(exc, HttpProcessingError):
            remote = args[0] if len(args) == 1 else None
            self.warnings.warning(
                f"malformed request ({type(exc).__name__})", "from %s, refused and closed", remote
            )
            return
        super().log(level, msg, *args, **kwargs)


def _exception_of(exc_info: object) -> BaseException | None:
    """The exception a logging call's `exc_info` stands for."""
    if isinstance(exc_info, BaseException):
        return exc_info
    if isinstance(exc_info, tuple) and len(exc_info) == 3:
        return exc_info[1] if isinstance(exc_info[1], BaseException) else None
    if exc_info is True:
        return sys.exc_info()[1]
    return None


class WebServer:
    """An aiohttp application served on one address, from `start` to `stop`.

    aiohttp has no deadline for a request's head, but its keep-alive timer is one: it is
    set when a connection opens and again after each answer, bytes arriving never push
    it back, and when it runs out while no whole head has come the connection is closed.
    So `keepalive_timeout=request_seconds` closes both a client that dribbles its head
    (slowloris) and one that keeps an idle connection, `request_seconds` after it
    connected or was last answered. `lingering_time` bounds the same way the reading of
    a body that a handler left unread (a 401, a 404). What aiohttp logs of the requests
    it refuses goes through `ServerLog`. (tests/bot/test_web_hostile.py holds aiohttp to
    this.)"""

    def __init__(
        self, app: web.Application, address: Address, *, request_seconds: float = REQUEST_SECONDS
    ) -> None:
        self.app = app
        self.address = address
        self.request_seconds = request_seconds
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        """Listen; raises `CannotListen` (the address taken, a host that is not this
        machine's) with nothing left open."""
        runner = web.AppRunner(
            self.app,
            access_log=None,
            handle_signals=False,
            shutdown_timeout=CLOSE_TIMEOUT,
            keepalive_timeout=self.request_seconds,
            lingering_time=self.request_seconds,
            logger=ServerLog(Throttled(log)),
        )
        await runner.setup()
        site = web.TCPSite(runner, self.address.host, self.address.port)
        try:
            await site.start()
        except OSError as exc:
            await runner.cleanup()
            reason = exc.strerror or str(exc) or type(exc).__name__
            raise CannotListen(f"cannot listen on {self.address}: {reason}") from exc
        self._runner = runner

    async def stop(self) -> None:
        """Stop listening and close the connections (again: nothing)."""
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()
