"""The game's use cases, split the way the routers are: the lobby, play, the endings
(leave, surrender, cancel, votes), chats (what Telegram reports, /settings) and
tournaments; and viewing, who sees what of a game outside its messages (the Mini App). Each
returns `Done(value, effects)`; `bot.app.effects.EffectDispatcher` carries the effects out
after the commit."""

from bot.app.usecases.base import (
    ChatCheck,
    ChatRecord,
    Context,
    MemberCheck,
    NotCreatorOrAdmin,
    Refusal,
    is_transient,
)
from bot.app.usecases.chats import Chats
from bot.app.usecases.endings import Endings
from bot.app.usecases.lobby import Lobby
from bot.app.usecases.play import Playing
from bot.app.usecases.tournaments import Tournaments
from bot.app.usecases.viewing import Viewing

__all__ = [
    "ChatCheck",
    "ChatRecord",
    "Chats",
    "Context",
    "Endings",
    "Lobby",
    "MemberCheck",
    "NotCreatorOrAdmin",
    "Playing",
    "Refusal",
    "Tournaments",
    "Viewing",
    "is_transient",
]
