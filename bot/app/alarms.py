"""Events due later: the computer players' pause before they move, a vote's expiry.

Each alarm is one task that sleeps, then emits its event into the inbox (the reactor
takes it from there). At most one alarm waits under a key: setting it again while it
waits changes nothing, as a computer already about to move needs no second call.

The alarms only emit: whether this instance still plays the event's chat is asked by the
reactor when it takes the event (`bot.app.ownership`). An instance that lets a chat go
cancels its alarms (`waiting_events`, `cancel`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Collection, Hashable

from bot.app.inbox import Event, Inbox

log = logging.getLogger(__name__)


class Alarms:
    """Alarms by key; `close()` cancels those still waiting (shutdown)."""

    def __init__(self, inbox: Inbox) -> None:
        self.inbox = inbox
        self._waiting: dict[Hashable, asyncio.Task[None]] = {}
        self._events: dict[Hashable, Event] = {}  # what each waiting alarm will emit
        self._closing = False

    def set(self, key: Hashable, delay: float, event: Event) -> None:
        """Emit `event` in `delay` seconds, unless an alarm already waits under `key`."""
        if self._closing or key in self._waiting:
            return
        self._waiting[key] = asyncio.create_task(self._ring(key, delay, event))
        self._events[key] = event

    def waiting(self) -> int:
        return len(self._waiting)

    def waiting_events(self) -> dict[Hashable, Event]:
        """The event of each alarm still waiting, by key."""
        return dict(self._events)

    async def cancel(self, keys: Collection[Hashable]) -> None:
        """These alarms do not ring (their chats are played by another instance now)."""
        tasks = [task for key in keys if (task := self._waiting.pop(key, None)) is not None]
        for key in keys:
            self._events.pop(key, None)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _ring(self, key: Hashable, delay: float, event: Event) -> None:
        try:
            await asyncio.sleep(delay)
        finally:
            if self._waiting.get(key) is asyncio.current_task():
                del self._waiting[key]
                del self._events[key]
        self.inbox.emit(event)

    async def close(self) -> None:
        self._closing = True
        tasks = list(self._waiting.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._waiting.clear()
        self._events.clear()
