"""Errors of the moment, not bugs of the bot: each is logged as one readable WARNING line
(no traceback) and the person gets an answer, so nobody's button spins.

- Telegram refusing a call a handler made: a reply to a chat Telegram no longer knows
  (deleted, upgraded to a supergroup), a chat that removed or blocked the bot, or a call
  that still failed after the outgoing queue's retries. A press not answered yet gets
  the "this button is out of date" alert.
- The database refusing a change for the moment (`storage.db.is_transient`): another
  process holds its write lock, or the disk is full. The transaction was rolled back,
  so nothing changed; a press gets an alert and a command a reply asking to try again
  in a few seconds (issue 11, items 7 and 8).

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

from bot.i18n import lang_of, t
from storage.db import is_transient

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


@router.errors(lambda event: is_transient(event.exception))
async def on_database_unavailable(event: ErrorEvent) -> None:
    update = event.update
    log.warning(
        "chat %s update %s: not saved, the database refused it (%s); asked to try again",
        chat_of_update(update),
        update.update_id,
        event.exception,
    )
    try:
        if update.callback_query is not None:
            call = update.callback_query
            lang = lang_of(call.from_user.language_code)
            await call.answer(t("alert.db_unavailable", lang), show_alert=True)
        elif update.message is not None and update.message.from_user is not None:
            lang = lang_of(update.message.from_user.language_code)
            await update.message.reply(t("reply.db_unavailable", lang))
    except TelegramAPIError as exc:  # answered already, too late, or the chat is gone
        log.info("update %s: could not be told to try again: %s", update.update_id, exc)
