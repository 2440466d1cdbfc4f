"""What the publisher, the announcer and the vote board share about bringing a message to
Telegram: what a message shows, hashed (`digest_of`); a text message sent once, then
edited; Telegram's answers that mean "try again
after a pause", "the group refuses the bot" and "the group moved to a supergroup"."""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramMigrateToChat,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.methods import EditMessageText, SendMessage
from aiogram.types import InlineKeyboardMarkup, Message

from bot.app.inbox import ChatMigrated, Inbox
from bot.app.names import computer_name as computer_name  # where seat names are made
from bot.telegram import presenter
from bot.telegram.outgoing import Outgoing
from i18n import Lang, t
from storage.records import GameRecord

log = logging.getLogger(__name__)

# Seconds before a message Telegram failed to take (after the queue's retries) is tried again.
TELEGRAM_PAUSE = 3.0
# Telegram still failing after the queue's retries (an outage, a flood): tried again later.
TELEGRAM_FAILURES = (TelegramServerError, TelegramNetworkError, TelegramRetryAfter)
# Bad Request texts that mean the bot cannot write in a group at all (TELEGRAM.md).
GROUP_REFUSALS = ("chat not found", "not enough rights to send", "CHAT_WRITE_FORBIDDEN")


def digest_of(*parts: Any) -> str:
    blob = json.dumps(parts, ensure_ascii=False, sort_keys=True, default=str).encode()
    return hashlib.sha256(blob).hexdigest()[:32]


def markup_data(markup: InlineKeyboardMarkup | None) -> Any:
    return markup.model_dump(exclude_none=True) if markup else None


async def send_or_edit(
    out: Outgoing,
    chat_id: int,
    message_id: int | None,
    text: str,
    markup: InlineKeyboardMarkup | None,
    *,
    thread_id: int | None = None,
) -> int:
    """Send the HTML `text` to `chat_id` (in its forum topic `thread_id`), or (with
    `message_id`) edit that message to show it; the id of the message that shows it now."""
    if message_id is None:
        sent: Message = await out.call(
            chat_id,
            SendMessage(
                chat_id=chat_id,
                message_thread_id=thread_id,
                text=text,
                reply_markup=markup,
                parse_mode="HTML",
            ),
        )
        return sent.message_id
    await out.call(
        chat_id,
        EditMessageText(
            chat_id=chat_id,
            message_id=message_id,
            text=text,
            reply_markup=markup,
            parse_mode="HTML",
        ),
        merge_key=("text", chat_id, message_id),
    )
    return message_id


def group_refuses(exc: TelegramBadRequest) -> bool:
    """Whether `exc` says the group cannot be written to (as a 403 would)."""
    return any(text in exc.message for text in GROUP_REFUSALS)


def tell_migration(
    inbox: Inbox, game_id: int | None, game: GameRecord | None, exc: TelegramMigrateToChat
) -> None:
    """Telegram says the group is a supergroup now, before its service message reached
    us: the game's group moves there, by the use case that takes `ChatMigrated`."""
    if game is None:
        log.warning("game %s: the group moved to %s", game_id, exc.migrate_to_chat_id)
        return
    if game.chat_id == exc.migrate_to_chat_id:
        return  # the service message came first: the game is there already
    log.info(
        "chat %s game %s: the group is now the supergroup %s",
        game.chat_id,
        game.id,
        exc.migrate_to_chat_id,
    )
    inbox.emit(ChatMigrated(game.chat_id, exc.migrate_to_chat_id))


def seat_names(game: GameRecord, lang: Lang) -> list[str]:
    """The names to show for each seat, in `lang` for a computer's own; a person the
    computer plays for is marked so."""
    return [
        t("computer.instead", lang, name=presenter.short_name(seat.name))
        if seat.by_computer and seat.user_id
        else presenter.short_name(
            computer_name(seat.name, lang) if seat.user_id is None else seat.name
        )
        for seat in game.seats
    ]
