"""aiogram routers: parse the update, call a use case through the dispatcher, reply.

No game rules here. `get_routers()` gives one router holding all of them in the order
they must be tried: what happens to chats first, then everything a person sends
(specific handlers first, the polite fallbacks last), then the error handlers. What a
person sends passes two outer middlewares first: `PersonMiddleware` (the handlers'
`person` and `lang`) and, for messages, `CommandThrottle` (one person's command spam
in a group gets a cooldown), which is why those routers hang under one parent.
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
)
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
    from_people.include_routers(
        commands.router,
        endings.router,
        lobby.router,
        buttons.router,
        stats.router,
        settings.router,
        fallback.router,
    )
    root = Router(name="handlers")
    root.include_routers(chat_events.router, from_people, errors.router)
    return [root]
