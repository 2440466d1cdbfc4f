"""What happens in the background, as events in one inbox, the way Telegram's updates
arrive: a turn's time ran out, a lobby's, a vote's; the computer players' pause is over;
Telegram refused a person or a group, or moved a group to a supergroup.

The turn timers, the computer players' pacer, the vote clocks and the publisher only
`emit` into the inbox; `bot.reactor.Reactor` takes each event to its use case and has
the effects carried out. So nothing that notices an event needs the use cases, and the
application is built in one pass, with no callback set after construction.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from storage.records import GameRecord


@dataclass(frozen=True, slots=True)
class TurnExpired:
    """The time for move number `move` of the game ran out."""

    game_id: int
    move: int


@dataclass(frozen=True, slots=True)
class TurnWarned:
    """The turn of the game's person to move is close to its end: redraw the clocks."""

    game: GameRecord


@dataclass(frozen=True, slots=True)
class LobbyExpired:
    """Nobody started the lobby in its group's time."""

    game_id: int


@dataclass(frozen=True, slots=True)
class ComputersDue:
    """The computer players' pause is over: the computers to move in the game move."""

    game_id: int


@dataclass(frozen=True, slots=True)
class VoteExpired:
    """The vote's time is up."""

    vote_id: int


@dataclass(frozen=True, slots=True)
class PersonUnreachable:
    """Telegram refused the person's hand (they blocked the bot, or never started it)."""

    game_id: int
    user_id: int


@dataclass(frozen=True, slots=True)
class GroupLost:
    """Telegram refuses the group (the bot was removed, may not write, no such chat)."""

    chat_id: int


@dataclass(frozen=True, slots=True)
class ChatMigrated:
    """The group became a supergroup with a new chat id."""

    old_id: int
    new_id: int


Event = (
    TurnExpired
    | TurnWarned
    | LobbyExpired
    | ComputersDue
    | VoteExpired
    | PersonUnreachable
    | GroupLost
    | ChatMigrated
)


class Inbox:
    """The background events not yet taken, in the order they came."""

    def __init__(self) -> None:
        self._events: asyncio.Queue[Event] = asyncio.Queue()

    def emit(self, event: Event) -> None:
        self._events.put_nowait(event)

    async def next(self) -> Event:
        return await self._events.get()

    def pending(self) -> int:
        return self._events.qsize()
