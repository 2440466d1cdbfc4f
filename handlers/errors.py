"""Telegram refusing a call a handler made is a fact about the chat, not a bug of the bot.

A reply to a chat Telegram no longer knows (deleted, upgraded to a supergroup), a chat
that removed or blocked the bot, or a call that still failed after the outgoing queue's
retries: the update is logged as one readable WARNING line (no traceback), and a press
that was not answered yet gets the "this button is out of date" alert, so nobody's
button spins. Anything else is left to aiogram, which logs it as the error it is.
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

from bot.i18n import lang_of, t

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


@router.errors(lambda event: refused_by_telegram(event.exception))
async def on_refused(event: ErrorEvent) -> None:
    update = event.update
    log.warning(
        "chat %s update %s: Telegram refused a call: %s: %s",
        chat_of_update(update),
        update.update_id,
        type(event.exception).__name__,
        getattr(event.exception, "message", event.exception),
    )
    call = update.callback_query
    if call is None:
        return
    try:
        await call.answer(t("alert.stale", lang_of(call.from_user.language_code)), show_alert=True)
    except TelegramAPIError as exc:  # answered already, or too late: nothing left to do
        log.info("update %s: the press could not be answered: %s", update.update_id, exc)
