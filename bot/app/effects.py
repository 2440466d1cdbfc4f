"""What must happen once a use case's transaction has committed, as a value.

A use case loads, checks, changes and saves in one transaction and returns
`Done(value, effects)`: the answer for the person (a `bot.app.reply.Reply`), and
the `Effects` the commit calls for (messages to bring up to date, announcements to
send, the next turn's clock, the computer players' move, a vote's message and clock).
`EffectDispatcher` is the one place that carries them out, for every front end that
follows the games, so a use case never reaches into a front end, the timers or the
computer players, and nothing is shown that was not committed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Generic, Protocol, TypeVar

from bot.app.inbox import ComputersDue, VoteExpired
from domino.tiles import Tile
from i18n import Lang
from storage.records import GameRecord, GameStatus, TableDue
from storage.votes import Vote

T = TypeVar("T")


class Menu(StrEnum):
    """A choice among several moves of one kind a seat may make at once."""

    DOUBLES = "doubles"  # which doubles to lay together (M-3, O-2)
    CLOSE = "close"  # which end a double closes (O-3)


Choice = Tile | Menu
"""What a seat is choosing: the end to lay a tile that fits several on, or a `Menu`."""


@dataclass(frozen=True, slots=True)
class ClosedHand:
    """A person's hand that is done with: it keeps only the text `key` (they left, or
    asked for a new one), in their language `lang`."""

    game: GameRecord
    seat: int
    user_id: int
    key: str
    lang: Lang


@dataclass(frozen=True, slots=True)
class HandAsked:
    """The person in `seat` asked for their hand inside the game's group («✋ Мои
    кости»): a fresh one at the bottom of the group, for them alone. `press` names the
    front end's request that asked (Telegram's callback query), opaque to the core."""

    game_id: int
    seat: int
    press: str | None = None


@dataclass(frozen=True, slots=True)
class PendingChoice:
    """The person in `seat` is choosing among the moves `choice` names, on their turn."""

    game: GameRecord
    seat: int
    choice: Choice


@dataclass(frozen=True, slots=True)
class Effects:
    """Everything a commit calls for; empty by default, combined with `+`."""

    # Committed games: their messages, the clock of a person's turn or a lobby's
    # deadline, and the computer players if one is to move.
    games: tuple[GameRecord, ...] = ()
    # Committed games whose group is lost: only the hands are brought up to date.
    hands_only: tuple[GameRecord, ...] = ()
    hands: tuple[tuple[int, int], ...] = ()  # (game id, seat): show this hand again
    # (game id, seat): a press found this hand behind its game; edited again whatever
    # its digest says (the message may not show what was last sent to it)
    redrawn: tuple[tuple[int, int], ...] = ()
    closed_hands: tuple[ClosedHand, ...] = ()  # done before anything else is shown
    asked_hands: tuple[HandAsked, ...] = ()  # hands asked for inside their group
    choice: PendingChoice | None = None
    announcements: bool = False  # rows of the outbox were committed
    votes: tuple[int, ...] = ()  # votes whose message to bring up to date
    vote_clocks: tuple[Vote, ...] = ()  # open votes whose expiry to wait for
    # Games changed behind the caches (a moved chat; a database that went back): the
    # records shown next are taken as they come, whatever their version.
    reloaded: tuple[int, ...] = ()
    moved_chat: tuple[int, int] | None = None  # (old, new): a group became a supergroup
    # (chat id, thread id): forum topics reopened, where the games' messages may go again
    reopened_topics: tuple[tuple[int, int | None], ...] = ()
    tournaments: tuple[int, ...] = ()  # tournaments whose message to bring up to date
    tables_due: tuple[TableDue, ...] = ()  # tournament tables for the front ends to open

    def __add__(self, other: Effects) -> Effects:
        return Effects(
            games=self.games + other.games,
            hands_only=self.hands_only + other.hands_only,
            hands=self.hands + other.hands,
            redrawn=self.redrawn + other.redrawn,
            closed_hands=self.closed_hands + other.closed_hands,
            asked_hands=self.asked_hands + other.asked_hands,
            choice=other.choice or self.choice,
            announcements=self.announcements or other.announcements,
            votes=self.votes + other.votes,
            vote_clocks=self.vote_clocks + other.vote_clocks,
            reloaded=self.reloaded + other.reloaded,
            moved_chat=other.moved_chat or self.moved_chat,
            reopened_topics=self.reopened_topics + other.reopened_topics,
            tournaments=self.tournaments + other.tournaments,
            tables_due=self.tables_due + other.tables_due,
        )


NOTHING = Effects()


@dataclass(frozen=True, slots=True)
class Done(Generic[T]):
    """A use case's result: `value` for the person who asked, `effects` for the dispatcher."""

    value: T
    effects: Effects = field(default=NOTHING)


class FrontEnd(Protocol):
    """What a front end (the Telegram one is `TelegramFrontEnd`) shows of the
    commits it follows: each method is told what changed, the front end decides how to
    show it. Every front end that follows the games is given every commit."""

    def show(self, game: GameRecord, *, group: bool = True) -> None:
        """A committed game (`group`: its group's messages too, not only the hands)."""

    def show_hand(self, game_id: int, seat: int) -> None: ...
    def redraw_hand(self, game_id: int, seat: int) -> None:
        """A press found this hand behind its game: shown again whatever was shown last."""

    def reload(self, game_id: int) -> None:
        """The game changed behind any cache: take its next records as they come."""

    def announce(self) -> None:
        """Announcements were committed to the outbox."""

    def topic_reopened(self, chat_id: int, thread_id: int | None) -> None:
        """The forum topic was reopened: its games' messages may be sent there again."""

    async def close_hand(self, closed: ClosedHand) -> None: ...
    async def bring_hand(self, asked: HandAsked) -> None:
        """The hand asked for inside the group, sent before the press is answered."""

    async def show_choice(self, pending: PendingChoice) -> None: ...
    def show_vote(self, vote_id: int) -> None: ...
    def show_tournament(self, tournament_id: int) -> None:
        """The tournament changed: its message is brought up to date."""

    async def open_tables(self, due: Sequence[TableDue]) -> None:
        """Tournament tables are due: each opened (`Tournaments.open_table`), in a topic
        of its own where the front end can make one."""


# What the core keeps in step itself (bot.app.timers, bot.app.alarms,
# bot.app.group_settings provide them).


class Clocks(Protocol):
    def follow(self, game: GameRecord) -> None: ...
    def forget(self, game_id: int) -> None: ...


class Alarms(Protocol):
    def set(self, key: object, delay: float, event: ComputersDue | VoteExpired) -> None: ...


class ChatMoves(Protocol):
    def chat_moved(self, old_id: int, new_id: int) -> None: ...


class EffectDispatcher:
    """Carries out the effects of committed use cases, in one order: hands closed first,
    caches of moved games dropped, reopened topics written to again, then the games
    shown, the hands (those asked for inside a group brought), a pending choice, the
    votes, the tournaments and their tables due, and the announcements last; each step
    for every front end in turn."""

    def __init__(
        self,
        front_ends: Sequence[FrontEnd],
        clocks: Clocks,
        alarms: Alarms,
        chats: ChatMoves,
        *,
        computer_delay: float,
    ) -> None:
        self.front_ends = tuple(front_ends)
        self.clocks = clocks
        self.alarms = alarms
        self.chats = chats
        self.computer_delay = computer_delay  # seconds a computer "thinks" before moving

    async def __call__(self, work: Awaitable[Done[T]]) -> T:
        """Run a use case and carry out its effects; its value for the person."""
        done = await work
        await self.carry_out(done.effects)
        return done.value

    async def carry_out(self, effects: Effects) -> None:
        """Carry out `effects` in the dispatcher's order. The announcements were committed:
        the front ends are told of them even when an earlier step fails (a hand that
        Telegram would not close, a choice it would not show), or nobody would ask for
        them until the next commit that owes one."""
        try:
            await self._carry_out(effects)
        finally:
            if effects.announcements:
                for front in self.front_ends:
                    front.announce()

    async def _carry_out(self, effects: Effects) -> None:
        fronts = self.front_ends
        for closed in effects.closed_hands:
            for front in fronts:
                await front.close_hand(closed)
        if effects.moved_chat is not None:
            self.chats.chat_moved(*effects.moved_chat)
        for game_id in effects.reloaded:
            for front in fronts:
                front.reload(game_id)
            self.clocks.forget(game_id)
        for chat_id, thread_id in effects.reopened_topics:
            for front in fronts:
                front.topic_reopened(chat_id, thread_id)
        for game in effects.games:
            for front in fronts:
                front.show(game)
            self._follow(game)
        for game in effects.hands_only:
            for front in fronts:
                front.show(game, group=False)
            self._follow(game)
        for game_id, seat in effects.hands:
            for front in fronts:
                front.show_hand(game_id, seat)
        for game_id, seat in effects.redrawn:
            for front in fronts:
                front.redraw_hand(game_id, seat)
        for asked in effects.asked_hands:
            for front in fronts:
                await front.bring_hand(asked)
        if effects.choice is not None:
            for front in fronts:
                await front.show_choice(effects.choice)
        for vote_id in effects.votes:
            for front in fronts:
                front.show_vote(vote_id)
        for vote in effects.vote_clocks:
            wait = (vote.expires_at - datetime.now(UTC)).total_seconds()
            self.alarms.set(("vote", vote.id), max(0.0, wait), VoteExpired(vote.id))
        for tournament_id in dict.fromkeys(effects.tournaments):
            for front in fronts:
                front.show_tournament(tournament_id)
        if effects.tables_due:
            due = tuple(dict.fromkeys(effects.tables_due))
            for front in fronts:
                await front.open_tables(due)

    def _follow(self, game: GameRecord) -> None:
        """The game's clocks follow it; a computer to move moves after its pause."""
        self.clocks.follow(game)
        if computer_to_move(game):
            self.alarms.set(("computers", game.id), self.computer_delay, ComputersDue(game.id))


def computer_to_move(game: GameRecord) -> bool:
    """A running game whose next move is a computer's (a computer's seat, or a person's
    the computer plays for)."""
    match = game.match
    if game.status is not GameStatus.PLAYING or match is None or match.turn is None:
        return False
    return game.seats[match.turn].by_computer
