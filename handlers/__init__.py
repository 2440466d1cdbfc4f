"""aiogram routers: parse the update, call the game service, reply. No game rules here.

`get_routers()` gives them in the order they must be included: specific handlers
first, the polite fallbacks for everything else last.
"""

from __future__ import annotations

from aiogram import Router

from handlers import buttons, chat_events, commands, endings, errors, fallback, settings, stats


def get_routers() -> list[Router]:
    return [
        chat_events.router,
        commands.router,
        endings.router,
        buttons.router,
        stats.router,
        settings.router,
        fallback.router,
        errors.router,
    ]
