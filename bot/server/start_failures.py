"""Why a start failed, in one line for the admin, and the first call to Telegram.

A start that cannot succeed (a configuration error, a database that is not one, is
damaged or sits in a read-only folder, a Telegram that is unreachable or refuses the
token or the webhook, an address to listen on that is taken) ends the process at once
with one line on stderr and a non-zero code, so that a supervisor sees it and restarts
it. A network error on the first call (getMe) is tried again a few times, each call
bounded (`START_TIMEOUT`), before the start is called failed.
"""

from __future__ import annotations

import asyncio

from aiogram import Bot
from aiogram.exceptions import (
    TelegramAPIError,
    TelegramNetworkError,
    TelegramServerError,
    TelegramUnauthorizedError,
)
from aiogram.types import User

from bot.server.config import Settings
from bot.server.web import CannotListen
from storage.db import DATABASE_ERRORS, DatabaseUnusable

# Seconds each call to Telegram may take while starting: an unreachable server is a
# failed start, told in one line, not a silent wait.
START_TIMEOUT = 10
# getMe, the first call, is tried this many times when the network fails (a server
# restarting, a DNS hiccup), with these pauses between; a refusal is not tried again.
START_TRIES = 3
START_PAUSES = (1.0, 2.0)


class StartFailed(Exception):
    """The bot cannot start; the text is one line for the admin."""


def why_start_failed(error: BaseException, settings: Settings) -> str | None:
    """One line saying why the start failed, when the cause is the admin's or the
    machine's to fix; None for anything else (a bug, which keeps its traceback)."""
    if isinstance(error, DatabaseUnusable | CannotListen):
        return str(error)
    if isinstance(error, DATABASE_ERRORS):
        return f"the database {settings.database_shown} failed: {error}"
    if isinstance(error, TelegramUnauthorizedError):
        return "Telegram refused BOT_TOKEN (Unauthorized): take the bot's token from @BotFather"
    server = settings.telegram_api_base or "https://api.telegram.org"
    if isinstance(error, TelegramNetworkError):
        check = "TELEGRAM_API_BASE and " if settings.telegram_api_base else ""
        return (
            f"cannot reach Telegram at {server}: {error.message} "
            f"({START_TRIES} tries; check {check}the network)"
        )
    if isinstance(error, TelegramAPIError):
        return f"Telegram at {server} refused {error.method.__api_method__}: {error.message}"
    return None


async def get_me(bot: Bot) -> User:
    """getMe, tried again after a network failure or a server error (START_TRIES)."""
    for pause in (*START_PAUSES[: START_TRIES - 1], None):
        try:
            return await bot.get_me(request_timeout=START_TIMEOUT)
        except (TelegramNetworkError, TelegramServerError):
            if pause is None:
                raise
            await asyncio.sleep(pause)
    raise AssertionError("unreachable")
