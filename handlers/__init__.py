"""aiogram routers: parse the update, call the game service, reply. No game rules here.

`get_routers()` gives one router holding all of them in the order they must be tried:
specific handlers first, the polite fallbacks for everything else last. Its message
events pass `CommandThrottle` first (issue 11, item 9: one person's command spam in a
group gets a cooldown), which is why they hang under one parent.
"""

from __future__ import annotations

import functools

from aiogram import Router

from handlers import buttons, chat_events, commands, endings, errors, fallback, settings, stats
from handlers.throttle import CommandThrottle


@functools.cache
def get_routers() -> list[Router]:
    """The bot's routers (built once: a router can belong to one parent only)."""
    root = Router(name="handlers")
    root.message.outer_middleware(CommandThrottle())
    root.include_routers(
        chat_events.router,
        commands.router,
        endings.router,
        buttons.router,
        stats.router,
        settings.router,
        fallback.router,
        errors.router,
    )
    return [root]
