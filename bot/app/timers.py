"""Turn timers: each person's turn gets a deadline; a warning shortly before; then a move.

The effects of every committed change hand the game to `TurnTimers.follow` (as they do
to the publisher). When a person (not a computer) is to move and the group's timer is
on, the turn gets a `TurnClock`: a deadline from the group's settings (K-12 sport
timing or a fixed limit; K-12 in a game with its own turn times, S-7: `turn_seconds`;
times `scale`), stored with the game (`games.turn_deadline`
for `games.turn_move`) so a restarted bot keeps it (`load()`; a deadline already past
fires at once). One asyncio task per game sleeps until the warning moment (25 % of
the limit left, at most 15 s), marks the clock `warned` and emits `TurnWarned` (the
hand's time line and the table caption's "⏳" are redrawn), then sleeps until the
deadline and emits `TurnExpired(game_id, move)` into the inbox: the timeout use case
(`bot.app.usecases.play.Playing.time_out`) moves for the person, which is a no-op if the move
number has moved on meanwhile, so a press just before the deadline wins and nothing is
applied twice.

A new turn replaces the game's task; the settings apply from the next turn, since a
running turn keeps the deadline it started with.

Choice (section V: Блиц, Крест, where a turn lays any number of tiles): a turn of
several tiles is one turn with one deadline, the one it began with; each tile laid
moves the deadline on to the new move number (`carried_deadline`, stored with the move
as any deadline is) without giving the person more time, so a long turn cannot stretch
the table's wait to a limit per tile, and a warning already given stays given. A turn
whose time runs out after a tile was laid just ends there, without a strike
(`bot.app.usecases.play.Playing.time_out`). A draw from the bazaar (C-6) still starts the
clock afresh, as in every game: the drawn tile is a new position to think over.

Lobbies nobody starts close by themselves: a new lobby gets a
deadline from the group's `lobby_timeout` (times `scale`), stored with the game
(`games.lobby_deadline`); `follow` arms one task per lobby, also after a restart, which
emits `LobbyExpired(game_id)` at the deadline (the use case closes the lobby if it is
still one). Time is injected: `clock()` gives seconds since the epoch and
`sleep(seconds)` waits, so tests never sleep for real.

With several instances that all play (`bot.app.ownership`), a clock rings only while
this instance plays its game's chat, and stores its deadline inside that chat's scope
(its shard's fence); `let_go` stops the clocks of the chats another instance takes.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import math
import sqlite3
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from bot.app.group_settings import GroupSettings
from bot.app.inbox import Inbox, LobbyExpired, TurnExpired, TurnWarned
from bot.app.ownership import EVERY_CHAT, Ownership
from domino.match import Match
from domino.timing import TurnTimer
from domino.variants import GameVariant
from storage import repo
from storage.db import Database, is_transient
from storage.records import GameRecord, GameStatus, TurnDeadline

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
        settings: GroupSettings,
        inbox: Inbox,
        *,
        scale: float = 1.0,
        clock: Clock = time.time,
        sleep: Sleep = asyncio.sleep,
        ownership: Ownership = EVERY_CHAT,
    ) -> None:
        self.db = db
        self.settings = settings  # each group's turn timer and lobby timeout
        self.inbox = inbox  # where a warning, a turn's and a lobby's end are told
        self.scale = scale  # TURN_TIME_SCALE: 0.02 turns a 60 s turn into 1.2 s (tests, demos)
        self.clock = clock
        self.sleep = sleep
        self.ownership = ownership  # which chats this instance plays, and their scope
        self._chats: dict[int, int] = {}  # the chat of each game followed and still active
        self._lobby_tasks: dict[int, asyncio.Task[None]] = {}
        self._stored: dict[int, TurnDeadline] = {}  # deadlines read at start, not yet used
        self._clocks: dict[int, TurnClock] = {}
        self._games: dict[int, GameRecord] = {}  # the newest record seen of each game
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._closing = False

    async def load(self) -> None:
        """Read the stored deadlines (at the start, before the games are followed)."""
        self._stored = await repo.turn_deadlines(self.db)

    def follow(self, game: GameRecord) -> None:
        """`game` was just committed (or picked up at a restart): time the turn of the
        person to move, if any, and the lobby's deadline, if it is one."""
        if game.status.active:
            self._chats[game.id] = game.chat_id
        else:
            self._chats.pop(game.id, None)
        self._follow_turn(game)
        self._follow_lobby(game)

    # --- lobbies ----------------------------------------------------------------------

    def lobby_deadline(self, chat_id: int) -> datetime | None:
        """When a lobby opened now in `chat_id` closes unstarted; None: the group set no limit."""
        minutes = self.settings.of(chat_id).lobby_timeout
        if not minutes:
            return None
        seconds = minutes * 60 * self.scale
        return datetime.fromtimestamp(self.clock(), UTC) + timedelta(seconds=seconds)

    def show_up_deadline(self, minutes: int) -> datetime:
        """When a tournament table's lobby opened now closes: its show-up time, on the
        clock (and at the scale) every lobby's deadline is kept by."""
        return datetime.fromtimestamp(self.clock(), UTC) + timedelta(
            seconds=minutes * 60 * self.scale
        )

    def _follow_lobby(self, game: GameRecord) -> None:
        """Wait for the lobby's deadline, once; a game that is no longer a lobby needs no
        waiting."""
        if game.status is not GameStatus.LOBBY or game.lobby_deadline is None or self._closing:
            _cancel(self._lobby_tasks, game.id)
            return
        if game.id not in self._lobby_tasks:
            work = self._close_lobby(game.id, game.chat_id, game.lobby_deadline.timestamp())
            self._lobby_tasks[game.id] = _start(self._lobby_tasks, game.id, "lobby", work)

    async def _close_lobby(self, game_id: int, chat_id: int, deadline: float) -> None:
        await self._sleep_until(deadline)
        if not self._plays(chat_id, game_id):
            return
        log.info("game %s: the lobby's time ran out", game_id)
        self.inbox.emit(LobbyExpired(game_id))

    # --- turns ------------------------------------------------------------------------

    def clock_of(self, game_id: int) -> TurnClock | None:
        return self._clocks.get(game_id)

    def turn_deadline(self, game: GameRecord) -> TurnDeadline | None:
        """The deadline the turn `game` now stands at gets, if a person is to move and
        the group times turns: computed inside the move's transaction and stored by
        the same statement as the move (no second write per move), then followed
        (`follow`) as is."""
        turn = self._person_turn(game)
        if turn is None:
            return None
        match, _ = turn
        carried = carried_deadline(game.turn_deadline, match)
        if carried is not None:
            return carried
        seconds = turn_seconds(self.settings.of(game.chat_id).turn_timer, match)
        if seconds is None:
            return None
        limit = seconds * self.scale
        moment = datetime.fromtimestamp(self.clock() + limit, UTC)
        return TurnDeadline(game.id, len(match.log), moment, limit)

    def _person_turn(self, game: GameRecord) -> tuple[Match, int] | None:
        """The match and the seat to move, if `game` is running with a person to move (a
        turn the timer may time) and the timers are not closing."""
        match = game.match
        if (
            self._closing
            or game.status is not GameStatus.PLAYING
            or match is None
            or match.turn is None
            or game.seats[match.turn].by_computer
        ):
            return None
        return match, match.turn

    def _follow_turn(self, game: GameRecord) -> None:
        previous = self._games.get(game.id)
        if previous is not None and previous.version > game.version:
            return  # an older record arriving late
        turn = self._person_turn(game)
        if turn is None:
            self._stop(game.id)
            if game.status is GameStatus.PLAYING:
                self._games[game.id] = game
            return
        self._games[game.id] = game
        match, seat = turn
        move = len(match.log)
        running = self._clocks.get(game.id)
        if running is not None and running.move == move and running.seat == seat:
            return  # the same turn (another change, such as a notice): its deadline stands
        if (
            running is not None
            and running.seat == seat
            and match.round.mid_turn
            and turn_start(match) <= running.move < move
        ):
            # Section V: another tile of the same turn; the turn's deadline stands.
            clock = dataclasses.replace(running, move=move)
            stored = game.turn_deadline
            persist = stored is None or stored.move != move
            self._clocks[game.id] = clock
            self._replace_task(game.id, self._run(clock, persist))
            return
        now = self.clock()
        stored = self._stored.pop(game.id, None)
        if game.turn_deadline is not None and game.turn_deadline.move == move:
            stored = game.turn_deadline  # stored with the move (`turn_deadline`)
        if stored is not None and stored.move == move:
            deadline, limit, persist = stored.deadline.timestamp(), stored.limit, False
        else:
            seconds = turn_seconds(self.settings.of(game.chat_id).turn_timer, match)
            if seconds is None:
                self._stop(game.id)
                return
            limit = seconds * self.scale
            deadline, persist = now + limit, True
        warn_at = deadline - min(limit * WARN_SHARE, WARN_MAX * self.scale)
        clock = TurnClock(game.id, move, seat, deadline, limit, warn_at)
        self._clocks[game.id] = clock
        self._replace_task(game.id, self._run(clock, persist))

    def _plays(self, chat_id: int, game_id: int) -> bool:
        """Whether this instance still plays the chat (another instance times its games)."""
        if self.ownership.owns(chat_id):
            return True
        log.debug("game %s: its clock is left to the instance that plays chat %s", game_id, chat_id)
        return False

    async def let_go(self, owned: Callable[[int], bool]) -> None:
        """Stop the clocks of the games of the chats `owned` picks (another instance
        times them now, from their stored deadlines)."""
        games = [game_id for game_id, chat_id in self._chats.items() if owned(chat_id)]
        tasks = [
            task
            for game_id in games
            for task in (self._tasks.pop(game_id, None), self._lobby_tasks.pop(game_id, None))
            if task is not None
        ]
        for game_id in games:
            self._clocks.pop(game_id, None)
            self._games.pop(game_id, None)
            self._stored.pop(game_id, None)
            del self._chats[game_id]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def forget(self, game_id: int) -> None:
        """The database holds an older record of the game than the newest seen here (it
        lost changes it had committed): the next `follow` is taken as it comes."""
        self._games.pop(game_id, None)

    def _stop(self, game_id: int) -> None:
        self._clocks.pop(game_id, None)
        self._games.pop(game_id, None)
        self._stored.pop(game_id, None)
        _cancel(self._tasks, game_id)

    def _replace_task(self, game_id: int, work: Coroutine[None, None, None]) -> None:
        _cancel(self._tasks, game_id)
        self._tasks[game_id] = _start(self._tasks, game_id, "turn", work)

    async def _run(self, clock: TurnClock, persist: bool) -> None:
        chat_id = self._chats.get(clock.game_id)
        if chat_id is None:
            await self._ring(clock, persist)
            return
        with self.ownership.acting(chat_id):
            await self._ring(clock, persist, chat_id)

    async def _ring(self, clock: TurnClock, persist: bool, chat_id: int | None = None) -> None:
        game_id = clock.game_id
        try:
            if chat_id is not None and not self._plays(chat_id, game_id):
                return
            if persist:
                await self._persist(clock)
            await self._sleep_until(clock.warn_at)
            if (
                not clock.warned
                and self._clocks.get(game_id) is clock
                and self.clock() < clock.deadline
            ):
                self._clocks[game_id] = dataclasses.replace(clock, warned=True)
                game = self._games.get(game_id)
                if game is not None and (chat_id is None or self._plays(chat_id, game_id)):
                    self.inbox.emit(TurnWarned(game))
            await self._sleep_until(clock.deadline)
            if self._clocks.get(game_id, clock).move != clock.move:
                return
            if chat_id is not None and not self._plays(chat_id, game_id):
                return
            log.info("game %s: the time for move %d ran out", game_id, clock.move)
            self.inbox.emit(TurnExpired(game_id, clock.move))
        finally:
            # The clock goes with its task, unless a new turn replaced both meanwhile.
            current = self._tasks.get(game_id) is asyncio.current_task()
            if current and self._clocks.get(game_id, clock).move == clock.move:
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


def turn_start(match: Match) -> int:
    """The move number the turn in progress began at: the seat to move's own last
    entries in the round's log belong to its turn (its draws from the bazaar, C-6, the
    tiles of a turn of several, section V), since every turn leaves at least one entry."""
    entries = match.log
    start = len(entries)
    while start > 0:
        entry = entries[start - 1]
        if entry.round_no != match.round_no or entry.seat != match.turn:
            break
        start -= 1
    return start


def carried_deadline(deadline: TurnDeadline | None, match: Match) -> TurnDeadline | None:
    """Section V: in the middle of a turn of several tiles (`Round.mid_turn`), the
    turn's deadline as stored for an earlier move of the same turn, moved on to the
    move `match` now stands at (same moment, same limit); None elsewhere."""
    if deadline is None or match.turn is None or not match.round.mid_turn:
        return None
    if not turn_start(match) <= deadline.move < len(match.log):
        return None
    return dataclasses.replace(deadline, move=len(match.log))


def timer_in_force(timer: TurnTimer, game: GameVariant) -> TurnTimer:
    """The timer that times `game` in a group whose setting is `timer`.

    S-7: a game that has turn times of its own (`GameVariant.turn_timing`: Спортивное)
    is timed by K-12 (5 s / 20 s / 60 s, `domino.timing`) whatever limit the group
    picked, since those times are part of its rules as its target is; only a group
    that switched the timer off plays it untimed. Choice: a group's fixed limit is what
    it expects for the games that have no times of their own, and "off" is the one
    setting that says it wants no clock at all."""
    if game.turn_timing and timer is not TurnTimer.OFF:
        return TurnTimer.SPORT
    return timer


def turn_seconds(timer: TurnTimer, match: Match) -> float | None:
    """The time the player to move in `match` gets under the group's `timer`
    (`timer_in_force`); None: no limit."""
    return timer_in_force(timer, match.ruleset.game).seconds_for(match)


def _start(
    tasks: dict[int, asyncio.Task[None]], game_id: int, what: str, work: Coroutine[None, None, None]
) -> asyncio.Task[None]:
    """A game's timer task: a failure is logged, never raised, and once done the task
    leaves `tasks` (unless another replaced it there meanwhile)."""

    async def guarded() -> None:
        try:
            await work
        except Exception:
            log.exception("game %s: the %s timer failed", game_id, what)
        finally:
            if tasks.get(game_id) is asyncio.current_task():
                del tasks[game_id]

    task = asyncio.ensure_future(guarded())
    # Cancelled before its first step (a new turn at once, or a stop), `work` never ran:
    # closed here, it is not reported as "never awaited".
    task.add_done_callback(lambda _: work.close())
    return task


def _cancel(tasks: dict[int, asyncio.Task[None]], game_id: int) -> None:
    task = tasks.pop(game_id, None)
    if task is not None:
        task.cancel()
