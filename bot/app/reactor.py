"""Takes each background event from the inbox to its use case, as the handlers do with
Telegram's updates, and has the effects carried out.

Each event is handled in a task of its own, so a slow one (a database locked by another
process) holds up no other. Nobody will ask for this work again, so each is tried
again while the database refuses it for the moment (`storage.db.retrying`): each try
is one whole transaction, and the use case itself finds out when the game has moved on
meanwhile (a press just before a deadline wins; nothing is applied twice).

With several instances that all play (`bot.app.ownership`), an event is handled only by
the instance that plays its chat, inside that chat's scope (its shard's fence): the
chat is the event's own, or that of the game (or vote) it names (`GameChats`). An event
of a chat another instance plays is left, quietly: that instance has its own clocks.
"""

from __future__ import annotations

import asyncio
import contextlib
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
from bot.app.ownership import EVERY_CHAT, Ownership
from bot.app.usecases import Chats, Endings, Lobby, Playing
from bot.infra.lru import Lru
from storage import repo
from storage import votes as vote_store
from storage.db import Database, retrying
from storage.records import GameRecord

log = logging.getLogger(__name__)

Work = Callable[[], Awaitable[Done[None] | None]]

CACHED_CHATS = 10_000  # games whose chat is remembered (an int each)


class GameChats:
    """The chat each game and each vote is played in, for the ownership of the work
    done for them: a game's chat never changes but when its group moves to a
    supergroup, whose use case reloads the moved games. Looked up in what the front end
    holds (`known`: the newest record shown), then in a small cache, then read."""

    def __init__(
        self, db: Database, *, known: Callable[[int], GameRecord | None] = lambda _: None
    ) -> None:
        self.db = db
        self._known = known
        self._games: Lru[int, int] = Lru(CACHED_CHATS)

    async def of_game(self, game_id: int) -> int | None:
        known = self._known(game_id)
        if known is not None:
            return known.chat_id
        chat_id = self._games.get(game_id)
        if chat_id is None:
            game = await repo.load_game(self.db, game_id)
            if game is None:
                return None
            chat_id = self._games[game_id] = game.chat_id
        return chat_id

    async def of_vote(self, vote_id: int) -> int | None:
        vote = await vote_store.load_vote(self.db, vote_id)
        return None if vote is None else vote.chat_id

    def moved(self, old_id: int, new_id: int) -> None:
        """The group became a supergroup: its games are played under the new id."""
        for game_id in self._games.keys():  # noqa: SIM118 (an Lru, not a dict)
            if self._games.get(game_id) == old_id:
                self._games[game_id] = new_id

    async def of_event(self, event: Event) -> int | None:
        """The chat `event` is about; None when the game or vote it names is not stored."""
        match event:
            case TurnExpired(game_id) | ComputersDue(game_id) | LobbyExpired(game_id):
                return await self.of_game(game_id)
            case PersonUnreachable(game_id):
                return await self.of_game(game_id)
            case VoteExpired(vote_id):
                return await self.of_vote(vote_id)
            case GroupLost(chat_id) | TopicClosed(chat_id) | TopicLost(chat_id):
                return chat_id
            case ChatMigrated(old_id):
                return old_id
            case TurnWarned(game):
                return game.chat_id


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
        game_chats: GameChats,
        ownership: Ownership = EVERY_CHAT,
    ) -> None:
        self.inbox = inbox
        self.dispatch = dispatch
        self.lobby = lobby
        self.playing = playing
        self.endings = endings
        self.chats = chats
        self.game_chats = game_chats  # which chat an event is about
        self.ownership = ownership  # which chats this instance plays, and their scope
        self._pump: asyncio.Task[None] | None = None
        # The events in hand, each with its chat once known (None: not yet, or none).
        self._handling: dict[asyncio.Task[None], int | None] = {}
        self._closing = False

    def start(self) -> None:
        if self._pump is None:
            self._pump = asyncio.create_task(self._take_events())

    async def _take_events(self) -> None:
        while True:
            event = await self.inbox.next()
            task = asyncio.create_task(self._handle(event))
            self._handling[task] = None
            task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._handling.pop(task, None)

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
            chat_id = await self.game_chats.of_event(event)
            task = asyncio.current_task()
            if task in self._handling:
                self._handling[task] = chat_id  # before the check: `let_go` waits for it
            if chat_id is not None and not self.ownership.owns(chat_id):
                log.debug("%s: left to the instance that plays chat %s", log_as, chat_id)
                return
            # An event of a game no longer stored acts for no chat (its use case finds
            # nothing to do).
            scope = contextlib.nullcontext() if chat_id is None else self.ownership.acting(chat_id)
            with scope:
                done = await retrying(
                    work, log_as=log_as, still_wanted=lambda: self._wanted(chat_id)
                )
                if done is not None:
                    if isinstance(event, ChatMigrated):
                        self.game_chats.moved(event.old_id, event.new_id)
                    await self.dispatch.carry_out(done.effects)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("%s: failed", log_as)

    def _wanted(self, chat_id: int | None) -> bool:
        """Whether work for `chat_id` waiting for the database is still this instance's."""
        return not self._closing and (chat_id is None or self.ownership.owns(chat_id))

    async def let_go(self, owned: Callable[[int], bool]) -> None:
        """Until no event of the chats `owned` picks is in hand (the ownership no longer
        gives them to this instance: those still queued are left when taken)."""
        tasks = [
            task
            for task, chat_id in self._handling.items()
            if chat_id is not None and owned(chat_id)
        ]
        if tasks:
            await asyncio.wait(tasks)

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
