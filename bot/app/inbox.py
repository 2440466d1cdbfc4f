"""What happens in the background, as events in one inbox, the way Telegram's updates
arrive: a turn's time ran out, a lobby's, a vote's; the computer players' pause is over;
Telegram refused a person, a group or a forum topic, or moved a group to a supergroup.

The turn timers, the computer players' pacer, the vote clocks and the publisher only
`emit` into the inbox; `bot.app.reactor.Reactor` takes each event to its use case and has
the effects carried out. So nothing that notices an event needs the use cases, and the
application is built in one pass, with no callback set after construction.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from storage.records import GameRecord


@dataclass(frozen=True, slots=True)
class TurnExpired:
    """The turn timers: the time for move number `move` of the game ran out. The timeout
    use case moves for the person, unless the game moved on meanwhile."""

    game_id: int
    move: int


@dataclass(frozen=True, slots=True)
class TurnWarned:
    """The turn timers: the person to move has little time left; the hand's time line and
    the table's caption are drawn again."""

    game: GameRecord


@dataclass(frozen=True, slots=True)
class LobbyExpired:
    """The turn timers: nobody started the lobby in its group's time."""

    game_id: int


@dataclass(frozen=True, slots=True)
class ComputersDue:
    """The alarms: the computer players' pause is over, the computers to move in the game
    move (up to a person's turn or the round's end)."""

    game_id: int


@dataclass(frozen=True, slots=True)
class VoteExpired:
    """The alarms: the vote's time is up."""

    vote_id: int


@dataclass(frozen=True, slots=True)
class PersonUnreachable:
    """The publisher: Telegram refused the person's hand (they blocked the bot, or never
    started it). The group is told once; the person's seat plays on. `mark` is the
    person's `People.reachable_mark` when the refused call began (0: none in this run): a
    later mark (their /start) means the refusal answers a block they have lifted."""

    game_id: int
    user_id: int
    mark: int = 0


@dataclass(frozen=True, slots=True)
class GroupLost:
    """The publisher: Telegram refuses the group (the bot was removed, may not write, no
    such chat). Its game stops and its players are told in private."""

    chat_id: int


@dataclass(frozen=True, slots=True)
class TopicClosed:
    """The publisher: Telegram refuses new messages of the game `game_id` in the forum
    topic `thread_id` of the group (closed, and the bot may not write in closed topics).
    The game goes on; the group is told in General; its messages wait until the topic is
    reopened."""

    chat_id: int
    thread_id: int | None
    game_id: int


@dataclass(frozen=True, slots=True)
class TopicLost:
    """The publisher: the forum topic `thread_id` of the group is gone (deleted). Its game
    stops uncounted; the group is told in General."""

    chat_id: int
    thread_id: int


@dataclass(frozen=True, slots=True)
class ChatMigrated:
    """The publisher: the group became a supergroup with a new chat id."""

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
    | TopicClosed
    | TopicLost
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
