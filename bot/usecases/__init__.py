"""The game's use cases, split the way the routers are: the lobby, play, the endings
(leave, surrender, cancel, votes) and chats (what Telegram reports, /settings). Each
returns `Done(value, effects)`; `bot.effects.EffectDispatcher` carries the effects out
after the commit."""

from bot.usecases.base import (
    Answer,
    ChatCheck,
    Context,
    MemberCheck,
    NotCreatorOrAdmin,
    Refusal,
)
from bot.usecases.chats import Chats
from bot.usecases.endings import Endings
from bot.usecases.lobby import Lobby
from bot.usecases.play import Playing

__all__ = [
    "Answer",
    "ChatCheck",
    "Chats",
    "Context",
    "Endings",
    "Lobby",
    "MemberCheck",
    "NotCreatorOrAdmin",
    "Playing",
    "Refusal",
]
