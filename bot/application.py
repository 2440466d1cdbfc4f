"""The application assembled in one pass, without Telegram's `Bot`: what the composition
root (`python -m bot`) serves and the tests drive directly.

    handlers ──▶ use cases ──▶ Done(value, effects) ──▶ EffectDispatcher ──▶ publisher,
      ▲          (bot.usecases)                          (bot.effects)        turn timers,
      │                                                                        alarms, votes
    Telegram                       inbox ◀── timers, alarms, publisher (what happened later)
                                     │
                                     ▼
                                  Reactor ──▶ use cases ──▶ effects ──▶ ...

Nothing here calls back into what does not exist yet: the producers of background
events only know the inbox, the dispatcher only the parts it drives.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from datetime import timedelta

from bot.alarms import Alarms
from bot.announcements import ScoresRenderer
from bot.effects import EffectDispatcher, Effects
from bot.group_settings import GroupSettings
from bot.inbox import Inbox
from bot.outgoing import Outgoing
from bot.people import People
from bot.publisher import Publisher, TableRenderer
from bot.reactor import Reactor
from bot.render_pool import RenderPool
from bot.table_pin import GroupTail
from bot.thinker import DEFAULT_BUDGET, DEFAULT_WORKERS, Thinker
from bot.timers import TurnTimers
from bot.turn_notices import TURN_NOTICE_AFTER, Followers, TurnNotices
from bot.usecases import Chats, Context, Endings, Lobby, Playing
from bot.usecases.base import utcnow
from bot.usecases.hints import Hints
from bot.votes import VOTE_TIME, VoteBoard
from storage import repo
from storage import votes as vote_store
from storage.db import Database

log = logging.getLogger(__name__)

RECENTLY_ENDED = timedelta(minutes=15)  # ended games whose messages a restart re-checks


class Application:
    """Every part of the bot but Telegram's own: people, group settings, use cases, the
    publisher, clocks and the reactor."""

    def __init__(
        self,
        db: Database,
        out: Outgoing,
        *,
        bot_username: str,
        render_table: TableRenderer,
        render_scores: ScoresRenderer,
        table_interval: float = 3.0,
        computer_delay: float = 1.5,
        turn_time_scale: float = 1.0,
        vote_time: timedelta = VOTE_TIME,
        new_seed: Callable[[], int] = lambda: secrets.randbits(64),
        turn_clock: Callable[[], float] = time.time,
        turn_sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        thinker_workers: int = DEFAULT_WORKERS,
        hard_budget: float = DEFAULT_BUDGET,
        turn_notice_after: float = TURN_NOTICE_AFTER,
        tail: GroupTail | None = None,
        painter: RenderPool | None = None,
    ) -> None:
        self.db = db
        self.thinker = Thinker(workers=thinker_workers, budget=hard_budget)
        self.people = People(db)
        self.settings = GroupSettings(db, self.people)
        self.inbox = Inbox()
        self.timers = TurnTimers(
            db, self.settings, self.inbox, scale=turn_time_scale, clock=turn_clock, sleep=turn_sleep
        )
        self.alarms = Alarms(self.inbox)
        self.publisher = Publisher(
            db,
            out,
            render_table=render_table,
            render_scores=render_scores,
            people=self.people,
            settings=self.settings,
            inbox=self.inbox,
            clocks=self.timers,
            table_interval=table_interval,
            tail=tail,  # what the group's newer messages are (the table's findability)
            painter=painter,  # where pictures are drawn (`bot.metrics` times them)
        )
        self.votes = VoteBoard(db, out, self.settings)
        # «🔔 Ваш ход» (issue 15, item 7): follows the committed games as the timers do.
        self.notices = TurnNotices(db, out, self.people, after=turn_notice_after)
        self.dispatch = EffectDispatcher(
            self.publisher,
            Followers(self.timers, self.notices),
            self.alarms,
            self.votes,
            self.settings,
            computer_delay=computer_delay,
        )
        context = Context(
            db=db,
            people=self.people,
            settings=self.settings,
            bot_username=bot_username,
            new_seed=new_seed,
            vote_time=vote_time,
            lobby_deadline=self.timers.lobby_deadline,
            turn_deadline=self.timers.turn_deadline,
        )
        self.lobby = Lobby(context)
        self.playing = Playing(context, self.thinker)
        self.endings = Endings(context)
        self.hints = Hints(context, self.thinker)  # «💡 Подсказка» (issue 14)
        self.chats = Chats(context)
        self.reactor = Reactor(
            self.inbox,
            self.dispatch,
            lobby=self.lobby,
            playing=self.playing,
            endings=self.endings,
            chats=self.chats,
        )

    async def resume(self) -> int:
        """After a (re)start: bring every running game's messages up to date, time its turn,
        let computers move, deliver owed announcements, watch open votes. Returns the
        number of games picked up. The thinker's pool starts in the background (issue 15,
        item 14: its processes take a second or so): the bot serves meanwhile, and the
        hard level's decisions are medium's until it is ready."""
        await self.settings.load()
        await self.timers.load()  # before the games: their stored deadlines stand
        await self.notices.load()  # the notices the last run left are deleted
        self.reactor.start()
        games = await repo.active_games(self.db)
        # A game that ended just before the stop may still owe its final edits (the
        # digests make this a no-op for the messages that are up to date).
        ended = await repo.games_ended_since(self.db, utcnow() - RECENTLY_ENDED)
        votes = await vote_store.open_votes(self.db)
        await self.dispatch.carry_out(
            Effects(
                games=(*games, *ended),
                votes=tuple(vote.id for vote in votes),  # sent, if a crash came first
                vote_clocks=tuple(votes),
                announcements=True,
            )
        )
        self.thinker.start_soon()
        log.info("resumed %d running games", len(games))
        return len(games)

    async def close(self) -> None:
        """Stop the background: events, turn clocks and alarms (shutdown; what they were
        about is picked up again by the next `resume`), then the thinker's pool."""
        await self.reactor.close()
        await self.timers.close()
        await self.notices.close()
        await self.alarms.close()
        await self.thinker.stop()
