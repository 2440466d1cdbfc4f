"""Turn timers: each person's turn gets a deadline; a warning shortly before; then a move.

The service hands every committed game to `TurnTimers.touch` (as it does to the
publisher). When a person (not a computer) is to move and the group's timer is on,
the turn gets a `TurnClock`: a deadline from the group's `ChatSettings` (K-12 sport
timing or a fixed limit, times `scale`), stored with the game (`games.turn_deadline`
for `games.turn_move`) so a restarted bot keeps it (`load()`; a deadline already past
fires at once). One asyncio task per game sleeps until the warning moment (25 % of
the limit left, at most 15 s), marks the clock `warned` and asks for the messages to
be redrawn (the hand's time line, the table caption's "⏳"), then sleeps until the
deadline and calls `on_expired(game_id, move)`: the service moves for the person
(`GameService.turn_timed_out`), which is a no-op if the move number has moved on
meanwhile, so a press just before the deadline wins and nothing is applied twice.

A new turn replaces the game's task; the settings apply from the next turn, since a
running turn keeps the deadline it started with.

Lobbies nobody starts close by themselves (issue 11, item 5): a new lobby gets a
deadline from the group's `lobby_timeout` (times `scale`), stored with the game
(`games.lobby_deadline`); `touch_lobby` arms one task per lobby, also after a restart,
which calls `on_lobby_expired(game_id)` at the deadline (the service closes the lobby
if it is still one). Time is injected: `clock()` gives
seconds since the epoch and `sleep(seconds)` waits, so tests never sleep for real.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import math
import sqlite3
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from storage import repo
from storage.db import Database, is_transient
from storage.records import ChatRecord, ChatSettings, GameRecord, GameStatus, TurnDeadline

log = logging.getLogger(__name__)

STRIKES_TO_TAKE_OVER = 3  # timeouts in one match after which a computer takes the seat
WARN_SHARE = 0.25  # the warning comes when this share of the limit is left ...
WARN_MAX = 15.0  # ... but never more than this many (unscaled) seconds before the end

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class TurnClock:
    """The running turn of a game: `seat` must make move number `move` by `deadline`
    (seconds since the epoch); `limit` is the time the turn got; `warned` once the
    warning moment has passed."""

    game_id: int
    move: int
    seat: int
    deadline: float
    limit: float
    warn_at: float
    warned: bool = False

    def seconds_left(self, now: float) -> int:
        """Whole seconds left, rounded up (a turn with 0.4 s left still shows 1 s)."""
        return max(0, math.ceil(self.deadline - now - 1e-9))


class TurnTimers:
    """Deadlines of people's turns, one task per game at most."""

    def __init__(
        self,
        db: Database,
        *,
        scale: float = 1.0,
        clock: Clock = time.time,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.db = db
        self.scale = scale  # TURN_TIME_SCALE: 0.02 turns a 60 s turn into 1.2 s (tests, demos)
        self.clock = clock
        self.sleep = sleep
        # Set by the service: the move for a person whose time ran out, and the redraw of
        # a game's messages at the warning moment.
        self.on_expired: Callable[[int, int], Awaitable[None]] | None = None
        self.on_warning: Callable[[GameRecord], None] | None = None
        self.on_lobby_expired: Callable[[int], Awaitable[None]] | None = None
        self._lobby_tasks: dict[int, asyncio.Task[None]] = {}
        self._settings: dict[int, ChatSettings] = {}  # chats with non-default settings
        self._stored: dict[int, TurnDeadline] = {}  # deadlines read at start, not yet used
        self._clocks: dict[int, TurnClock] = {}
        self._games: dict[int, GameRecord] = {}  # the newest record seen of each game
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._closing = False

    # --- settings ---------------------------------------------------------------------

    async def load(self) -> None:
        """Read every chat's settings and the stored deadlines (at start, before `touch`)."""
        self._settings = await repo.chats_with_settings(self.db)
        self._stored = await repo.turn_deadlines(self.db)

    def settings_of(self, chat_id: int) -> ChatSettings:
        return self._settings.get(chat_id, ChatSettings())

    async def change_settings(self, chat: ChatRecord, settings: ChatSettings) -> None:
        """Store a group's new settings; a turn in progress keeps its deadline."""
        async with self.db.transaction() as tx:
            await repo.upsert_chat(tx, chat)
            await repo.set_chat_settings(tx, chat.id, settings)
        self._settings[chat.id] = settings
        log.info(
            "chat %s: turn timer set to %s, lobbies close after %s min",
            chat.id,
            settings.turn_timer.value,
            settings.lobby_timeout or "no limit",
        )

    def chat_moved(self, old_id: int, new_id: int) -> None:
        """A group became a supergroup: its settings (moved in the database) follow it."""
        settings = self._settings.pop(old_id, None)
        if settings is not None:
            self._settings[new_id] = settings

    # --- lobbies (issue 11, item 5) ---------------------------------------------------

    def lobby_deadline(self, chat_id: int) -> datetime | None:
        """When a lobby opened now in `chat_id` closes unstarted; None: the group set no limit."""
        minutes = self.settings_of(chat_id).lobby_timeout
        if not minutes:
            return None
        seconds = minutes * 60 * self.scale
        return datetime.fromtimestamp(self.clock(), UTC) + timedelta(seconds=seconds)

    def touch_lobby(self, game: GameRecord) -> None:
        """`game` was committed (or picked up at a restart): wait for its lobby's deadline,
        once; a game that is no longer a lobby needs no waiting."""
        if game.status is not GameStatus.LOBBY or game.lobby_deadline is None or self._closing:
            task = self._lobby_tasks.pop(game.id, None)
            if task is not None and task is not asyncio.current_task():
                task.cancel()
            return
        if game.id not in self._lobby_tasks:
            work = self._close_lobby(game.id, game.lobby_deadline.timestamp())
            self._lobby_tasks[game.id] = asyncio.ensure_future(work)

    async def _close_lobby(self, game_id: int, deadline: float) -> None:
        try:
            await self._sleep_until(deadline)
            log.info("game %s: the lobby's time ran out", game_id)
            if self.on_lobby_expired is not None:
                await self.on_lobby_expired(game_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %s: the lobby timer failed", game_id)
        finally:
            if self._lobby_tasks.get(game_id) is asyncio.current_task():
                del self._lobby_tasks[game_id]

    # --- turns ------------------------------------------------------------------------

    def clock_of(self, game_id: int) -> TurnClock | None:
        return self._clocks.get(game_id)

    def touch(self, game: GameRecord) -> None:
        """`game` was just committed: time the turn of the person to move, if any."""
        previous = self._games.get(game.id)
        if previous is not None and previous.version > game.version:
            return  # an older record arriving late
        match = game.match
        if (
            self._closing
            or game.status is not GameStatus.PLAYING
            or match is None
            or match.turn is None
            or game.seats[match.turn].by_computer
        ):
            self._stop(game.id)
            if game.status is GameStatus.PLAYING:
                self._games[game.id] = game
            return
        self._games[game.id] = game
        move, seat = len(match.log), match.turn
        running = self._clocks.get(game.id)
        if running is not None and running.move == move and running.seat == seat:
            return  # the same turn (another change, such as a notice): its deadline stands
        now = self.clock()
        stored = self._stored.pop(game.id, None)
        if stored is not None and stored.move == move:
            deadline, limit, persist = stored.deadline.timestamp(), stored.limit, False
        else:
            seconds = self.settings_of(game.chat_id).turn_timer.seconds_for(match)
            if seconds is None:
                self._stop(game.id)
                return
            limit = seconds * self.scale
            deadline, persist = now + limit, True
        warn_at = deadline - min(limit * WARN_SHARE, WARN_MAX * self.scale)
        clock = TurnClock(game.id, move, seat, deadline, limit, warn_at)
        self._clocks[game.id] = clock
        self._replace_task(game.id, self._run(clock, persist))

    def _stop(self, game_id: int) -> None:
        self._clocks.pop(game_id, None)
        self._games.pop(game_id, None)
        self._stored.pop(game_id, None)
        task = self._tasks.pop(game_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def _replace_task(self, game_id: int, work: Awaitable[None]) -> None:
        old = self._tasks.get(game_id)
        # The expiry itself commits the next turn, so the running task may be the caller.
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        self._tasks[game_id] = asyncio.ensure_future(work)

    async def _run(self, clock: TurnClock, persist: bool) -> None:
        game_id = clock.game_id
        try:
            if persist:
                await self._persist(clock)
            await self._sleep_until(clock.warn_at)
            if self._clocks.get(game_id) is clock and self.clock() < clock.deadline:
                self._clocks[game_id] = dataclasses.replace(clock, warned=True)
                game = self._games.get(game_id)
                if game is not None and self.on_warning is not None:
                    self.on_warning(game)
            await self._sleep_until(clock.deadline)
            if self._clocks.get(game_id, clock).move != clock.move:
                return
            log.info("game %s: the time for move %d ran out", game_id, clock.move)
            if self.on_expired is not None:
                await self.on_expired(game_id, clock.move)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %s: the turn timer failed", game_id)
        finally:
            if self._tasks.get(game_id) is asyncio.current_task():
                del self._tasks[game_id]
                if self._clocks.get(game_id, clock).move == clock.move:
                    self._clocks.pop(game_id, None)

    async def _persist(self, clock: TurnClock) -> None:
        """Store the turn's deadline so a restart keeps it. A database that refuses
        changes for the moment (locked by another process, disk full) does not stop the
        clock: the turn still times out on time, and a restart before the next stored
        deadline gives the person a fresh limit (never a lost turn)."""
        moment = datetime.fromtimestamp(clock.deadline, UTC)
        try:
            await repo.set_turn_deadline(
                self.db, clock.game_id, TurnDeadline(clock.game_id, clock.move, moment, clock.limit)
            )
        except sqlite3.OperationalError as exc:
            if not is_transient(exc):
                raise
            log.warning(
                "game %s: the deadline of move %d is kept in memory only: %s",
                clock.game_id,
                clock.move,
                exc,
            )

    async def _sleep_until(self, moment: float) -> None:
        wait = moment - self.clock()
        if wait > 0:
            await self.sleep(wait)

    async def close(self) -> None:
        """Stop every timer (shutdown); stored deadlines stay for the next start."""
        self._closing = True
        tasks = [
            task
            for task in (*self._tasks.values(), *self._lobby_tasks.values())
            if task is not asyncio.current_task()
        ]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks.clear()
        self._lobby_tasks.clear()
