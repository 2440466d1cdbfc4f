"""How a call to Telegram is tried again: after a 429 (`retry_after`) it waits that long
and counts as one more message for the chat's limits; after a 5xx, a dropped connection
or a timeout it backs off a few times (`Limits.retries`, `Limits.backoff`); "message is
not modified" is success (the message already shows what we want); everything else
(403, 400) reaches the caller as the aiogram exception.

An answer to a press is good only within Telegram's window for it (`ANSWER_WINDOW`): it
is tried again as often as that window allows, at short pauses (`ANSWER_PAUSE` at most),
instead of `Limits.retries` times at pauses that double past the window; a wait that
would end after the window is not begun (the person's spinner has stopped by then).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.methods import AnswerCallbackQuery, TelegramMethod

from bot.telegram.pacing import Limits

log = logging.getLogger(__name__)

NOT_MODIFIED = "message is not modified"

# Telegram answers a press's answerCallbackQuery only this long after the press (about
# 15 s; the margin is for the update's way to the bot), and a failed answer is tried
# again at pauses of at most `ANSWER_PAUSE` until then (`Outgoing.direct`).
ANSWER_WINDOW = 14.0
ANSWER_PAUSE = 1.0


class Retrying:
    """Sends calls with the retries of the module's docstring, and counts them."""

    def __init__(
        self,
        limits: Limits,
        clock: Callable[[], float],
        sleep: Callable[[float], Awaitable[Any]],
    ) -> None:
        self.limits = limits
        self._clock = clock
        self._sleep = sleep
        self.sent = 0  # calls that reached Telegram and succeeded, for logs and metrics
        self.flood_waits = 0  # Telegram's 429s honoured (each call waited, then tried again)
        self.retries = 0  # calls tried again after a 5xx, a dropped connection or a timeout

    def deadline_for(self, method: TelegramMethod[Any]) -> float | None:
        """The moment after which `method` is no longer worth sending (an answer to a
        press: `ANSWER_WINDOW`); None for every other call."""
        return self._clock() + ANSWER_WINDOW if isinstance(method, AnswerCallbackQuery) else None

    async def send(
        self,
        chat_id: int | None,
        method: TelegramMethod[Any],
        call: Callable[[], Awaitable[Any]],
        *,
        paced: Callable[[], Awaitable[None]] | None = None,
        deadline: float | None = None,
    ) -> Any:
        """`call()` (which sends `method` to `chat_id`), tried again as the module's
        docstring says; `paced()` waits for the chat's turn before a retry after a 429."""
        failures = 0
        while True:
            try:
                result = await call()
            except TelegramRetryAfter as exc:
                if deadline is not None and self._clock() + exc.retry_after > deadline:
                    raise
                self.flood_waits += 1
                log.warning(
                    "chat %s: flood limit, %s waits %ss",
                    chat_id,
                    type(method).__name__,
                    exc.retry_after,
                    extra={"chat_id": chat_id},
                )
                await self._sleep(exc.retry_after)
                if paced is not None:
                    await paced()  # the retry is one more message for the limits
                continue
            except TelegramBadRequest as exc:
                if NOT_MODIFIED in exc.message:
                    return True
                raise
            except (TelegramServerError, TelegramNetworkError, TimeoutError) as exc:
                failures += 1
                pause = self.limits.backoff * 2 ** (failures - 1)
                if deadline is not None:
                    pause = min(pause, ANSWER_PAUSE)
                    if self._clock() + pause > deadline:
                        raise
                elif failures > self.limits.retries:
                    raise
                self.retries += 1
                log.warning(
                    "chat %s: %s failed (%s), retry %d in %.1fs",
                    chat_id,
                    type(method).__name__,
                    exc,
                    failures,
                    pause,
                    extra={"chat_id": chat_id},
                )
                await self._sleep(pause)
                continue
            self.sent += 1
            return result
