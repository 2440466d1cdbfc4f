"""The bot's HTTP side (issue 18): the webhook server and the metrics server.

With `WEBHOOK_URL` set, Telegram posts each update to that URL; a reverse proxy in front
(TLS ends there) forwards the URL's path to `WEBHOOK_LISTEN`, where aiogram's
`SimpleRequestHandler` takes it. A request without the right
`X-Telegram-Bot-Api-Secret-Token` is answered 401 and changes nothing. A right one is
answered 200 at once and handled in the background (`handle_in_background`), as polling
hands each update to a task: Telegram is never kept waiting for a picture or a
transaction. On stop the server closes first (Telegram keeps what it could not deliver
and posts it again to the next run), then the updates taken finish
(`WebhookHandler.idle`, then the dispatcher's in-flight count).

The secret: `WEBHOOK_SECRET`, or else one generated at the first start in webhook mode
and kept in the database (`storage.kv`), so a restart tells Telegram the same one. It is
never logged.

`/metrics` and `/healthz` (`bot.metrics`) are served on the webhook server, and on
`METRICS_LISTEN` when that is set (the way to see them while polling).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from typing import Any

from aiogram import Bot, Dispatcher
from aiogram.webhook.aiohttp_server import SimpleRequestHandler, setup_application
from aiohttp import web
from aiohttp.typedefs import Handler, Middleware
from pydantic import SecretStr

from bot.config import Address
from storage import kv
from storage.db import Database

log = logging.getLogger(__name__)

SECRET_NAME = "webhook_secret"  # its name in `bot_values`
# Seconds the server waits for requests in hand when it closes; the webhook's answer
# never waits for the update's handling, so this is only a net.
CLOSE_TIMEOUT = 2.0


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
    and a way to wait for the updates it has taken (`idle`)."""

    def register_route(self, app: web.Application, path: str) -> None:
        """POST `path` on `app`. (aiogram's `register` also closes the bot's session when
        the server stops, before the updates taken and the queues are done with it; the
        session is closed by the bot's own shutdown instead.)"""
        app.router.add_post(path, self.handle)

    async def _background_feed_update(self, bot: Bot, update: dict[str, Any]) -> None:
        # As polling does: an update whose handling failed is logged with its traceback
        # now, not when its task is collected ("exception was never retrieved").
        try:
            await super()._background_feed_update(bot, update)
        except Exception:
            log.exception("the update %s failed", update.get("update_id"))

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
    **data: Any,
) -> tuple[web.Application, WebhookHandler]:
    """The webhook server's application: POST `path` takes updates; the dispatcher's
    startup and shutdown run with the server's, as polling runs them. While `active()`
    says no (a standby, or the running games not picked up yet), the posts are answered
    503 and taken by nobody: Telegram, or the proxy in front, sends them again."""
    app = web.Application(middlewares=[standby_gate(path, active)])
    handler = WebhookHandler(dp, bot, secret_token=secret)
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


class WebServer:
    """An aiohttp application served on one address, from `start` to `stop`."""

    def __init__(self, app: web.Application, address: Address) -> None:
        self.app = app
        self.address = address
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        """Listen; raises `CannotListen` (the address taken, a host that is not this
        machine's) with nothing left open."""
        runner = web.AppRunner(
            self.app, access_log=None, handle_signals=False, shutdown_timeout=CLOSE_TIMEOUT
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
