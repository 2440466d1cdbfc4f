"""Takes each background event from the inbox to its use case, as the handlers do with
Telegram's updates, and has the effects carried out.

Each event is handled in a task of its own, so a slow one (a database locked by another
process) holds up no other. Nobody will ask for this work again, so each is tried
again while the database refuses it for the moment (`storage.db.retrying`): each try
is one whole transaction, and the use case itself finds out when the game has moved on
meanwhile (a press just before a deadline wins; nothing is applied twice).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.app.effects import Done, EffectDispatcher, Effects
from bot.app.inbox import (
    ChatMigrated,
    ComputersDue,
    Event,
    GroupLost,
    Inbox,
    LobbyExpired,
    PersonUnreachable,
    TopicClosed,
    TopicLost,
    TurnExpired,
    TurnWarned,
    VoteExpired,
)
from bot.app.usecases import Chats, Endings, Lobby, Playing
from storage.db import retrying

log = logging.getLogger(__name__)

Work = Callable[[], Awaitable[Done[None] | None]]


class Reactor:
    """The background's side of the application: inbox in, use cases, effects out."""

    def __init__(
        self,
        inbox: Inbox,
        dispatch: EffectDispatcher,
        *,
        lobby: Lobby,
        playing: Playing,
        endings: Endings,
        chats: Chats,
    ) -> None:
        self.inbox = inbox
        self.dispatch = dispatch
        self.lobby = lobby
        self.playing = playing
        self.endings = endings
        self.chats = chats
        self._pump: asyncio.Task[None] | None = None
        self._handling: set[asyncio.Task[None]] = set()
        self._closing = False

    def start(self) -> None:
        if self._pump is None:
            self._pump = asyncio.create_task(self._take_events())

    async def _take_events(self) -> None:
        while True:
            event = await self.inbox.next()
            task = asyncio.create_task(self._handle(event))
            self._handling.add(task)
            task.add_done_callback(self._handling.discard)

    def _work_for(self, event: Event) -> tuple[Work, str]:
        """The use case an event calls for, and how the log names it while it waits."""
        match event:
            case TurnExpired(game_id, move):
                return lambda: self.playing.time_out(game_id, move), (
                    f"game {game_id}: timeout of move {move}"
                )
            case ComputersDue(game_id):
                return lambda: self.playing.computers(game_id), f"game {game_id}: computer move"
            case LobbyExpired(game_id):
                return lambda: self.lobby.time_out(game_id), f"game {game_id}: lobby timeout"
            case VoteExpired(vote_id):
                return lambda: self.endings.vote_expired(vote_id), f"vote {vote_id}: expiry"
            case PersonUnreachable(game_id, user_id, mark):
                return lambda: self.chats.person_unreachable(game_id, user_id, mark), (
                    f"game {game_id}: unreachable user {user_id}"
                )
            case GroupLost(chat_id):
                return lambda: self.chats.bot_left_group(chat_id), f"chat {chat_id}: group lost"
            case TopicClosed(chat_id, thread_id, game_id):
                return lambda: self.chats.topic_closed(game_id), (
                    f"chat {chat_id}: topic {thread_id} closed"
                )
            case TopicLost(chat_id, thread_id):
                return lambda: self.chats.topic_lost(chat_id, thread_id), (
                    f"chat {chat_id}: topic {thread_id} lost"
                )
            case ChatMigrated(old_id, new_id):
                return lambda: self.chats.chat_migrated(old_id, new_id), (
                    f"chat {old_id}: moved to {new_id}"
                )
            case TurnWarned(game):
                return lambda: _done(Effects(games=(game,))), f"game {game.id}: turn warning"

    async def _handle(self, event: Event) -> None:
        work, log_as = self._work_for(event)
        try:
            done = await retrying(work, log_as=log_as, still_wanted=lambda: not self._closing)
            if done is not None:
                await self.dispatch.carry_out(done.effects)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("%s: failed", log_as)

    async def close(self) -> None:
        """Take no more events; stop the ones in hand (shutdown: what they committed stays,
        what they did not is done again after the restart, from the stored deadlines)."""
        self._closing = True
        tasks = [*self._handling, *([self._pump] if self._pump else [])]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def _done(effects: Effects) -> Done[None]:
    return Done(None, effects)
