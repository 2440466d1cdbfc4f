"""Counts the updates being handled, so that a stopping bot waits for exactly those.

On SIGTERM aiogram stops taking updates, but the ones it took are still running as
tasks (a press half-way through its transaction, a reply not yet sent). `InFlight`
is an outer middleware of the dispatcher's updates: `await in_flight.idle()` returns
once every update taken has been handled, so a restart loses no press half-done.
"""

from __future__ import annotations

import asyncio
from typing import Any

from aiogram import BaseMiddleware
from aiogram.types import TelegramObject

from handlers.people import Handler


class InFlight(BaseMiddleware):
    """The number of updates being handled now, and a way to wait for none."""

    def __init__(self) -> None:
        self.count = 0
        self._none = asyncio.Event()
        self._none.set()

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        self.count += 1
        self._none.clear()
        try:
            return await handler(event, data)
        finally:
            self.count -= 1
            if self.count == 0:
                self._none.set()

    async def idle(self) -> None:
        await self._none.wait()
