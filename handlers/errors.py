"""Errors of the moment, not bugs of the bot: each is logged as one readable WARNING line
(no traceback) and the person gets an answer, so nobody's button spins.

- Telegram refusing a call a handler made: a reply to a chat Telegram no longer knows
  (deleted, upgraded to a supergroup), a chat that removed or blocked the bot, or a call
  that still failed after the outgoing queue's retries. A press not answered yet gets
  the "this button is out of date" alert.
- The database refusing a change for the moment (`bot.app.usecases.is_transient`):
  another process holds its write lock, or the disk is full. The transaction was rolled
  back, so nothing changed; a press gets an alert and a command a reply asking to try
  again in a few seconds.

Anything else is left to aiogram, which logs it as the error it is.
"""

from __future__ import annotations

import logging

from aiogram import Router
from aiogram.exceptions import (
    TelegramAPIError,
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.types import ErrorEvent, Update

from bot.app.usecases import is_transient
from handlers.filters import OnLoop
from i18n import lang_of, t

router = Router(name="errors")
log = logging.getLogger(__name__)

# Bad Request texts that describe the chat, not the call (TELEGRAM.md: errors).
CHAT_REFUSALS = (
    "chat not found",
    "group chat was upgraded",
    "not enough rights",
    "have no rights",
    "user not found",
    "PEER_ID_INVALID",
)


def refused_by_telegram(error: BaseException) -> bool:
    """Whether `error` is Telegram refusing a chat (or failing after every retry)."""
    if isinstance(
        error,
        (
            TelegramForbiddenError,
            TelegramMigrateToChat,
            TelegramServerError,
            TelegramNetworkError,
            TelegramRetryAfter,
        ),
    ):
        return True
    return isinstance(error, TelegramBadRequest) and any(
        text in error.message for text in CHAT_REFUSALS
    )


def chat_of_update(update: Update) -> int | None:
    if update.message is not None:
        return update.message.chat.id
    call = update.callback_query
    if call is not None and call.message is not None:
        return call.message.chat.id
    return None


async def _log_and_answer(
    event: ErrorEvent, what: str, alert: str, reply: str | None = None
) -> None:
    """One WARNING line `chat … update …: {what}`; then a press gets the `alert` and, if
    `reply` is given, a message gets it as a reply (each a key, in the person's language)."""
    update = event.update
    log.warning("chat %s update %s: %s", chat_of_update(update), update.update_id, what)
    call, message = update.callback_query, update.message
    try:
        if call is not None:
            await call.answer(t(alert, lang_of(call.from_user.language_code)), show_alert=True)
        elif reply is not None and message is not None and message.from_user is not None:
            await message.reply(t(reply, lang_of(message.from_user.language_code)))
    except TelegramAPIError as exc:  # answered already, too late, or the chat is gone
        log.info("update %s: the person could not be answered: %s", update.update_id, exc)


@router.errors(OnLoop(lambda event: refused_by_telegram(event.exception)))
async def on_refused(event: ErrorEvent) -> None:
    error = event.exception
    what = f"Telegram refused a call: {type(error).__name__}: {getattr(error, 'message', error)}"
    await _log_and_answer(event, what, alert="alert.stale")


@router.errors(OnLoop(lambda event: is_transient(event.exception)))
async def on_database_unavailable(event: ErrorEvent) -> None:
    what = f"not saved, the database refused it ({event.exception}); asked to try again"
    await _log_and_answer(event, what, alert="alert.db_unavailable", reply="reply.db_unavailable")
