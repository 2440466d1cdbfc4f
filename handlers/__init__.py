"""aiogram routers: parse the update, call a use case through the dispatcher, reply.

No game rules here. `get_routers()` gives one router holding all of them in the order
they must be tried: what happens to chats first, then everything a person sends
(specific handlers first, the polite fallbacks last), then the error handlers. What a
person sends passes two outer middlewares first: `PersonMiddleware` (the handlers'
`person` and `lang`) and, for messages, `CommandThrottle` (one person's command spam
in a group gets a cooldown), which is why those routers hang under one parent; its
filter `chat_language` makes the handlers' `lang` the group's language in a group.
"""

from __future__ import annotations

import functools

from aiogram import Router

from handlers import (
    buttons,
    chat_events,
    commands,
    endings,
    errors,
    fallback,
    lobby,
    settings,
    stats,
    tournaments,
)
from handlers.filters import chat_language
from handlers.people import PersonMiddleware
from handlers.throttle import CommandThrottle


@functools.cache
def get_routers() -> list[Router]:
    """The bot's routers (built once: a router can belong to one parent only)."""
    from_people = Router(name="from_people")
    person = PersonMiddleware()
    from_people.message.outer_middleware(person)
    from_people.callback_query.outer_middleware(person)
    from_people.message.outer_middleware(CommandThrottle())
    # One language per group, whoever asks: every answer in a group speaks the group's.
    from_people.message.filter(chat_language)
    from_people.callback_query.filter(chat_language)
    from_people.include_routers(
        commands.router,
        endings.router,
        lobby.router,
        buttons.router,
        stats.router,
        settings.router,
        tournaments.router,
        fallback.router,
    )
    root = Router(name="handlers")
    root.include_routers(chat_events.router, from_people, errors.router)
    return [root]
