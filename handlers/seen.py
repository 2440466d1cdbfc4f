"""Every update from a person keeps their name as last seen (a cross-cutting concern).

The leaderboards and histories list people under the name Telegram showed last, also
once they left the group; `People.seen` writes only when the name changed.
"""

from __future__ import annotations

import logging
from typing import Any

from aiogram import BaseMiddleware
from aiogram.types import TelegramObject, User

from bot.app.people import People
from bot.app.usecases import is_transient
from handlers.people import Handler, person_of

log = logging.getLogger(__name__)


class LastSeenMiddleware(BaseMiddleware):
    """An outer middleware of the dispatcher's updates (after aiogram's user context)."""

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        user = data.get("event_from_user")
        people = data.get("people")
        if isinstance(user, User) and not user.is_bot and isinstance(people, People):
            try:
                await people.seen(person_of(user))
            except Exception as exc:  # a name not refreshed must never cost the update itself
                if is_transient(exc):  # locked by another process, or a full disk
                    log.info("the name of user %s is refreshed later: %s", user.id, exc)
                else:
                    log.exception("could not refresh the name of user %s", user.id)
        return await handler(event, data)
