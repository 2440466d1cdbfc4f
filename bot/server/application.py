"""The application assembled in one pass, without Telegram's `Bot`: what the composition
root (`python -m bot`) serves and the tests drive directly.

    handlers ──▶ use cases ──▶ Done(value, effects) ──▶ EffectDispatcher ──▶ publisher,
      ▲          (bot.app.usecases)                          (bot.app.effects)        turn timers,
      │                                                                        alarms, votes
    Telegram                       inbox ◀── timers, alarms, publisher (what happened later)
                                     │
                                     ▼
                                  Reactor ──▶ use cases ──▶ effects ──▶ ...

Nothing here calls back into what does not exist yet: the producers of background
events only know the inbox, the dispatcher only the parts it drives.

Several instances that all play (issue 35, `bot.app.ownership`): every piece of
background work is given the same `ChatsPlayed`, the instance's ownership less the chats
it is letting go, and acts for a chat only while it plays it, in that chat's scope. An
instance that takes a shard picks its chats' games up (`pick_up(owned)`) as a restart
does; one that gives a shard back first lets its chats go (`let_go(owned)`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Iterator
from datetime import timedelta
from typing import Any, Protocol, TypeVar

from aiogram.client.session.middlewares.base import NextRequestMiddlewareType
from aiogram.methods import GetUpdates, TelegramMethod

from bot.app.alarms import Alarms
from bot.app.effects import EffectDispatcher, Effects
from bot.app.group_settings import GroupSettings
from bot.app.inbox import Event, Inbox
from bot.app.ownership import EVERY_CHAT, Ownership
from bot.app.people import People
from bot.app.reactor import GameChats, Reactor
from bot.app.thinker import DEFAULT_BUDGET, DEFAULT_WORKERS, Thinker
from bot.app.timers import TurnTimers
from bot.app.usecases import (
    Chats,
    Context,
    Endings,
    Lobby,
    MemberCheck,
    Playing,
    Tournaments,
    Viewing,
)
from bot.app.usecases.base import utcnow
from bot.app.usecases.hints import Hints
from bot.app.votes import VOTE_TIME
from bot.infra.render_pool import RenderPool
from bot.telegram.announcements import ScoresRenderer
from bot.telegram.front_end import TelegramFrontEnd
from bot.telegram.outgoing import Outgoing
from bot.telegram.publisher import Publisher, TableRenderer
from bot.telegram.table_pin import GroupTail
from bot.telegram.tournament_board import TableTopics, TournamentBoard
from bot.telegram.turn_notices import TURN_NOTICE_AFTER, Followers, TurnNotices
from bot.telegram.vote_board import VoteBoard
from bot.telegram.web_app_links import WebAppLinks
from bot.webapp.live import WebAppFrontEnd
from storage import repo, tournament_messages
from storage import votes as vote_store
from storage.db import Database, retrying
from storage.records import GameRecord

log = logging.getLogger(__name__)
T = TypeVar("T")

RECENTLY_ENDED = timedelta(minutes=15)  # ended games whose messages a restart re-checks

ChatPicker = Callable[[int], bool]
"""Picks chats by id: those of a shard (`storage.shards.shard_of(chat_id, n) == shard`)."""

# The decisions `ChatsPlayed` keeps (one per shard let go or picked up); an older one
# only ever stands for a shard whose lease has long changed hands since.
REMEMBERED_DECISIONS = 64


class ChatsPlayed:
    """The chats this instance acts for: those `ownership` gives it, less those it let go
    since (`let_go`) and has not picked up again (`picked_up`). A shard being given back
    is still held until `give_back`; from its `let_go` on, nothing here acts for its
    chats. The newest decision that picks a chat stands."""

    def __init__(self, ownership: Ownership) -> None:
        self.ownership = ownership
        self._decisions: list[tuple[ChatPicker, bool]] = []  # (chats, played), oldest first

    def owns(self, chat_id: int) -> bool:
        for chats, played in reversed(self._decisions):
            if chats(chat_id):
                return played and self.ownership.owns(chat_id)
        return self.ownership.owns(chat_id)

    def acting(self, chat_id: int) -> contextlib.AbstractContextManager[object]:
        return self.ownership.acting(chat_id)

    def every_chat(self) -> bool:
        """Whether every chat is played (one instance): nothing to sort out."""
        return self.ownership is EVERY_CHAT and not self._decisions

    def let_go(self, chats: ChatPicker) -> None:
        self._decide(chats, played=False)

    def picked_up(self, chats: ChatPicker) -> None:
        self._decide(chats, played=True)

    def _decide(self, chats: ChatPicker, *, played: bool) -> None:
        self._decisions.append((chats, played))
        del self._decisions[:-REMEMBERED_DECISIONS]


async def nobody_is_a_member(chat_id: int, user_id: int) -> bool:
    """The membership check of an application built without Telegram (the tests')."""
    return False


class FirstPoll:
    """A request middleware of the bot's session that notes when the first getUpdates
    goes out: what `Application.resume(after=first_poll.wait())` waits for."""

    def __init__(self) -> None:
        self._sent = asyncio.Event()

    async def __call__(
        self, make_request: NextRequestMiddlewareType[T], bot: Any, method: TelegramMethod[T]
    ) -> Any:
        if isinstance(method, GetUpdates):
            self._sent.set()  # what waits runs once this request is on its way
        return await make_request(bot, method)

    async def wait(self) -> None:
        await self._sent.wait()


class Pickup(EffectDispatcher):
    """The effect dispatcher, which notes while the running games are being picked up
    the newest version of each game whose effects it carried out, so that the pickup
    leaves out a record older than what an update showed meanwhile (`newer_shown`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._versions: dict[int, int] | None = {}  # None once the pickup is done
        self._pickups = 0  # pickups under way (several shards may be taken at once)

    async def carry_out(self, effects: Effects) -> None:
        if self._versions is not None:
            for game in self._games_of(effects):
                self._versions[game.id] = max(game.version, self._versions.get(game.id, -1))
        await super().carry_out(effects)

    def newer_shown(self, game: GameRecord) -> bool:
        """Whether a newer version of `game` than this one was carried out."""
        return self._versions is not None and self._versions.get(game.id, -1) > game.version

    def begin(self) -> None:
        """A pickup begins (the first, after the database's outage, of a shard taken):
        note until it is done."""
        if self._versions is None:
            self._versions = {}
        self._pickups += 1

    def picked_up(self) -> None:
        """A pickup is done: nothing more to note once none is under way."""
        self._pickups -= 1
        if self._pickups == 0:
            self._versions = None

    @staticmethod
    def _games_of(effects: Effects) -> Iterator[GameRecord]:
        yield from effects.games
        yield from effects.hands_only
        yield from (closed.game for closed in effects.closed_hands)
        if effects.choice is not None:
            yield effects.choice.game


class InChat(Protocol):
    @property
    def chat_id(self) -> int: ...


InChatT = TypeVar("InChatT", bound=InChat)


def _of(keep: ChatPicker | None, found: list[InChatT]) -> list[InChatT]:
    """What `found` holds of the chats `keep` picks (None: all)."""
    return found if keep is None else [one for one in found if keep(one.chat_id)]


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
        is_member: MemberCheck = nobody_is_a_member,
        is_admin: MemberCheck | None = None,
        web_app: WebAppLinks | None = None,
        ownership: Ownership = EVERY_CHAT,
    ) -> None:
        self.db = db
        # Which chats this instance plays (all but with shards), less those let go.
        self.ownership = played = ChatsPlayed(ownership)
        self.thinker = Thinker(workers=thinker_workers, budget=hard_budget)
        self.people = People(db)
        self.settings = GroupSettings(db, self.people)
        self.inbox = Inbox()
        self.timers = TurnTimers(
            db,
            self.settings,
            self.inbox,
            scale=turn_time_scale,
            clock=turn_clock,
            sleep=turn_sleep,
            ownership=played,
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
            painter=painter,  # where pictures are drawn (`bot.server.metrics` times them)
            web_app=web_app,  # the Mini App's buttons (None: the app is off)
            ownership=played,
        )
        self.votes = VoteBoard(db, out, self.settings, played)
        # A tournament's message, and its tables' forum topics (bot.telegram.tournament_board).
        self.tournament_board = TournamentBoard(db, out, self.settings, played)
        self.tables = tables = TableTopics(
            db,
            out,
            self.settings,
            self._open_table,
            announced=self.publisher.flush_outbox,
            ownership=played,
        )
        # «🔔 Ваш ход»: follows the committed games as the timers do.
        self.notices = TurnNotices(
            db,
            out,
            self.people,
            after=turn_notice_after,
            hands=lambda chat_id: self.settings.of(chat_id).hands,
            ownership=played,
        )
        self._pickup: asyncio.Task[None] | None = None  # `resume(after=...)`'s
        self._repickup: asyncio.Task[None] | None = None  # after the database's outage
        self._resumed = False  # `resume` has run: the games are followed
        db.on_recovery(self._after_outage)
        self.web = WebAppFrontEnd()  # the Mini Apps open on a game (bot.webapp)
        self.dispatch = Pickup(
            (TelegramFrontEnd(self.publisher, self.votes, self.tournament_board, tables), self.web),
            Followers(self.timers, self.notices),
            self.alarms,
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
            show_up_deadline=self.timers.show_up_deadline,
            newest_known=self.publisher.records.games.get,
        )
        self.lobby = Lobby(context)
        self.tournaments = Tournaments(context)
        self.playing = Playing(context, self.thinker)
        self.endings = Endings(context)
        self.hints = Hints(context, self.thinker)  # «💡 Подсказка»
        self.chats = Chats(context)
        self.viewing = Viewing(context, is_member, is_admin)  # who sees what in the Mini App
        # The chat of a game an event names: the publisher's newest record, else read.
        self.game_chats = GameChats(db, known=self.publisher.records.games.get)
        self.reactor = Reactor(
            self.inbox,
            self.dispatch,
            lobby=self.lobby,
            playing=self.playing,
            endings=self.endings,
            chats=self.chats,
            game_chats=self.game_chats,
            ownership=played,
        )

    async def resume(self, *, after: Awaitable[object] | None = None) -> int:
        """After a (re)start: what updates need (the groups' settings, the stored turn
        deadlines, the notices the last run left, the reactor), then the pickup of the
        running games (`pick_up`). Returns the number of running games.

        Without `after` the pickup is done when this returns. With it (polling: the
        first getUpdates on its way) the pickup waits for `after` and runs in the
        background, so that the first long poll does not wait for it nor share the
        loop with it (a hundred games' messages re-checked, their pictures drawn).
        Updates may then come for a game not picked up yet, and that is safe: a use
        case reads its game from the database itself, in its own transaction, and
        carries out what it committed, which picks the game up; and every follower of
        the games (the publisher, the turn timers, the notices) keeps the newest
        version it has been shown and ignores an older one. The pickup itself skips a
        record older than one an update has carried out meanwhile (`Pickup`), so a
        game that ended while it was read is not timed or noticed again. What the
        updates need first is loaded before this returns, so it comes before them."""
        self._resumed = True
        await self.settings.load()
        await self.timers.load()  # before the games: their stored deadlines stand
        await self.notices.load()  # the notices the last run left are deleted
        self.reactor.start()
        if after is None:
            return await self.pick_up()
        running = sum((await repo.games_by_status(self.db)).values())
        self._pickup = asyncio.create_task(self._pick_up_after(after), name="pickup")
        return running

    async def prepare(self) -> None:
        """With shards, at the start: what updates need before the first is handled (the
        groups' settings, the reactor), no game picked up: each shard's are when it is
        taken (`pick_up(owned)`), the turns timed by the deadlines stored with them."""
        self._resumed = True
        await self.settings.load()
        self.reactor.start()

    async def pick_up(self, owned: ChatPicker | None = None) -> int:
        """Bring every running game's messages up to date, time its turn, let computers
        move, deliver owed announcements, watch open votes, offer the tournaments'
        tables due; the number of games picked up. The thinker's pool starts in the
        background (its processes take a second or so): the bot serves meanwhile, and
        the hard level's decisions are medium's until it is ready.

        `owned` picks the chats whose games are picked up (a shard just taken: its
        notices left behind are deleted too, and this instance plays its chats again
        after a `let_go`); None: every chat this instance plays.

        A game the database holds in an older version than the one shown (after an
        outage) lost changes the server had acknowledged: a server that does not wait
        for its disk (`synchronous_commit = off`), a failover to a replica that lagged.
        The database is the truth: such a game is shown as stored (`reloaded`), and the
        moves it lost are made again."""
        began = time.monotonic()
        if owned is not None:
            self.ownership.picked_up(owned)
        keep = owned if owned is not None or self.ownership.every_chat() else self.ownership.owns
        self.dispatch.begin()
        try:
            games = _of(keep, await repo.active_games(self.db))
            # A game that ended just before the stop may still owe its final edits (the
            # digests make this a no-op for the messages that are up to date).
            ended = _of(keep, await repo.games_ended_since(self.db, utcnow() - RECENTLY_ENDED))
            votes = _of(keep, await vote_store.open_votes(self.db))
            if owned is not None:
                await self.settings.reload(owned)  # changed meanwhile by their player
                await self.notices.clear_left(self.game_chats.of_game, owned)
            went_back = []
            for game in games:
                shown = self.publisher.shown_version(game.id)
                if shown is not None and shown > game.version:
                    log.warning(
                        "chat %s game %s: the database holds version %d, older than the %d"
                        " shown: it lost changes it had committed; the game goes on as stored",
                        game.chat_id,
                        game.id,
                        game.version,
                        shown,
                    )
                    went_back.append(game.id)
            await self.dispatch.carry_out(
                Effects(
                    reloaded=tuple(went_back),
                    games=tuple(g for g in (*games, *ended) if not self.dispatch.newer_shown(g)),
                    votes=tuple(vote.id for vote in votes),  # sent, if a crash came first
                    vote_clocks=tuple(votes),
                    announcements=True,
                    tables_due=tuple(_of(keep, await self.tournaments.due_tables())),
                    # Their messages re-checked, if a crash came before an edit.
                    tournaments=tuple(await self._live_tournaments(keep)),
                )
            )
        finally:
            self.dispatch.picked_up()
        self.thinker.start_soon()
        log.info(
            "resumed %d running games in %.0f ms", len(games), (time.monotonic() - began) * 1000
        )
        return len(games)

    async def _live_tournaments(self, keep: ChatPicker | None) -> list[int]:
        """The tournaments signing up, running or paused, of the chats `keep` picks."""
        live = await tournament_messages.live(self.db)
        if keep is None:
            return live
        picked = []
        for tournament_id in live:
            tournament = await self.tournaments.get(tournament_id)
            if tournament is not None and keep(tournament.chat_id):
                picked.append(tournament_id)
        return picked

    async def let_go(self, owned: ChatPicker) -> None:
        """Stop acting for the chats `owned` picks (a shard about to be given back): from
        now on nothing here starts work for them; the events in hand for them are
        handled to their end; their turn clocks and alarms stop (their deadlines are
        stored); a message or announcement on its way is waited for, the rest dropped
        (the instance that picks them up brings every message up to date from the
        database and sends what is owed); the records and digests of their messages are
        written; what is cached of their games is forgotten. Returns when no background
        work for them runs. They are acted for again only after `pick_up` for them."""
        self.ownership.let_go(owned)
        await self.reactor.let_go(owned)
        await self.timers.let_go(owned)
        waiting = self.alarms.waiting_events().items()
        await self.alarms.cancel(
            [key for key, event in waiting if await self._event_of(event, owned)]
        )
        await self.notices.let_go(owned)
        await self.publisher.let_go(owned)
        await self.votes.let_go(owned)
        await self.tournament_board.let_go(owned)
        await self.tables.let_go(owned)
        log.info("let go of some chats: their games are played by another instance now")

    async def _event_of(self, event: Event, owned: ChatPicker) -> bool:
        """Whether `event` is about one of the chats `owned` picks."""
        chat_id = await self.game_chats.of_event(event)
        return chat_id is not None and owned(chat_id)

    def _after_outage(self) -> None:
        """The database takes changes again after an outage. A press, a computer's move or
        a timeout whose COMMIT was on its way when the connection was lost may have been
        kept though it was reported failed: nobody was shown it, and its game would wait
        for ever (a hand one move behind refuses every press as out of date). So every
        running game is picked up again, as after a restart; a game that shows its
        newest state already sends nothing."""
        if not self._resumed or (self._repickup is not None and not self._repickup.done()):
            return  # not serving yet (the first pickup reads after this), or under way
        if self._pickup is not None and not self._pickup.done():
            return
        self._repickup = asyncio.get_running_loop().create_task(
            self._pick_up_again(), name="pickup-after-outage"
        )

    async def _pick_up_again(self) -> None:
        try:
            await retrying(self.pick_up, log_as="picking the running games up after the outage")
        except Exception:
            log.exception("the running games were not picked up after the outage")

    async def until_picked_up(self) -> None:
        """Until a pickup `resume(after=...)` left running is over (at once if none is)."""
        if self._pickup is not None:
            await asyncio.shield(self._pickup)

    async def _pick_up_after(self, after: Awaitable[object]) -> None:
        await after
        try:
            # Nobody presses again for a game left behind: a database that fails for the
            # moment (locked by a backup) is tried again until it answers.
            await retrying(self.pick_up, log_as="picking up the running games")
        except Exception:
            # Said, not fatal: a press still moves its game on (and picks it up); the
            # others wait for their first update or the next start.
            log.exception("the running games were not picked up")

    async def _open_table(
        self, tournament_id: int, round_no: int, table_no: int, thread_id: int | None
    ) -> None:
        """A tournament's table opened in the topic the front end chose, its commit carried
        out (`TableTopics`)."""
        await self.dispatch(
            self.tournaments.open_table(tournament_id, round_no, table_no, thread_id)
        )

    async def close(self) -> None:
        """Stop the background: a pickup still going, events, turn clocks and alarms
        (shutdown; what they were about is picked up again by the next `resume`), then
        the thinker's pool."""
        for task in (self._pickup, self._repickup):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        await self.reactor.close()
        await self.publisher.announcer.close()  # its sweep
        await self.timers.close()
        await self.notices.close()
        await self.alarms.close()
        await self.thinker.stop()
