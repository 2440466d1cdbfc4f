"""A text message of a game (its lobby, a person's hand) sent or edited, with Telegram's
refusals handled: a person who blocked the bot is told to the inbox
(`PersonUnreachable`), a message someone deleted is forgotten and sent fresh."""

from __future__ import annotations

from collections.abc import Callable

from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError
from aiogram.types import InlineKeyboardMarkup

from bot.app.inbox import Inbox, PersonUnreachable
from bot.app.people import People
from bot.telegram.delivery import digest_of, markup_data, send_or_edit
from bot.telegram.message_records import MessageRecords, Target
from bot.telegram.outgoing import Outgoing
from storage.records import MessageRecord


class TextMessages:
    """Shows a text and its keyboard in the message of a `Target`, unless it shows them
    already (the digest of its record)."""

    def __init__(
        self,
        out: Outgoing,
        records: MessageRecords,
        *,
        people: People,
        inbox: Inbox,
        mark: Callable[[Target], None],
    ) -> None:
        self.out = out
        self.records = records
        self.people = people
        self.inbox = inbox
        self._mark = mark  # a message's worker is to run again

    async def show(
        self,
        target: Target,
        chat_id: int,
        text: str,
        markup: InlineKeyboardMarkup | None,
        existing: MessageRecord | None,
        *,
        thread_id: int | None = None,
    ) -> None:
        """Send `text` to `chat_id` (in its forum topic `thread_id`), or edit `existing` to
        show it."""
        digest = digest_of(text, markup_data(markup))
        if existing is not None and existing.digest == digest:
            return
        # Taken before the call: its refusal may come back after the person's /start.
        mark = self.people.reachable_mark(chat_id)
        try:
            message_id = await send_or_edit(
                self.out,
                chat_id,
                existing.message_id if existing else None,
                text,
                markup,
                thread_id=thread_id,
            )
        except TelegramForbiddenError:
            if chat_id < 0:
                raise
            self.inbox.emit(PersonUnreachable(target.game_id, chat_id, mark))
            return
        except TelegramBadRequest as exc:
            if existing is None or "message to edit not found" not in exc.message:
                raise
            # Deleted by someone: forget it, the next pass sends a fresh one.
            await self.records.forget(target)
            self._mark(target)
            return
        await self.records.remember(
            target,
            chat_id,
            message_id,
            None,
            digest,
            new=existing is None or existing.message_id != message_id,
        )
