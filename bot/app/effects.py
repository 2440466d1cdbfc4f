"""What must happen once a use case's transaction has committed, as a value.

A use case loads, checks, changes and saves in one transaction and returns
`Done(value, effects)`: the answer for the person, and the `Effects` the commit calls
for (messages to bring up to date, announcements to send, the next turn's clock, the
computer players' move, a vote's message and clock). `EffectDispatcher` is the one
place that carries them out, so a use case never reaches into the publisher, the
timers or the computer players, and nothing is shown that was not committed.
"""

from __future__ import annotations

from collections.abc import Awaitable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Generic, Protocol, TypeVar

from bot.app.inbox import ComputersDue, VoteExpired
from bot.telegram.callbacks import HandMenu
from domino.tiles import Tile
from storage.records import GameRecord, GameStatus
from storage.votes import Vote

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class ClosedHand:
    """A person's hand message that keeps only `text` (they left, or asked for a new one)."""

    game: GameRecord
    seat: int
    user_id: int
    text: str


@dataclass(frozen=True, slots=True)
class EndChoice:
    """The hand of `seat` shows a choice instead of its tiles: on which end to lay `tile`
    (it fits several), or a menu of moves (several doubles at once, an end to close)."""

    game: GameRecord
    seat: int
    tile: Tile | HandMenu


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
    end_choice: EndChoice | None = None
    announcements: bool = False  # rows of the outbox were committed
    votes: tuple[int, ...] = ()  # votes whose message to bring up to date
    vote_clocks: tuple[Vote, ...] = ()  # open votes whose expiry to wait for
    # Games changed behind the caches (a moved chat; a database that went back): the
    # records shown next are taken as they come, whatever their version.
    reloaded: tuple[int, ...] = ()
    moved_chat: tuple[int, int] | None = None  # (old, new): a group became a supergroup

    def __add__(self, other: Effects) -> Effects:
        return Effects(
            games=self.games + other.games,
            hands_only=self.hands_only + other.hands_only,
            hands=self.hands + other.hands,
            redrawn=self.redrawn + other.redrawn,
            closed_hands=self.closed_hands + other.closed_hands,
            end_choice=other.end_choice or self.end_choice,
            announcements=self.announcements or other.announcements,
            votes=self.votes + other.votes,
            vote_clocks=self.vote_clocks + other.vote_clocks,
            reloaded=self.reloaded + other.reloaded,
            moved_chat=other.moved_chat or self.moved_chat,
        )


NOTHING = Effects()


@dataclass(frozen=True, slots=True)
class Done(Generic[T]):
    """A use case's result: `value` for the person who asked, `effects` for the dispatcher."""

    value: T
    effects: Effects = field(default=NOTHING)


# What the dispatcher drives, as it uses them (bot.telegram.publisher, bot.app.timers,
# bot.telegram.votes, bot.app.alarms, bot.app.group_settings provide them).


class Messages(Protocol):
    def show(self, game: GameRecord, *, group: bool = True) -> None: ...
    def show_hand(self, game_id: int, seat: int) -> None: ...
    def redraw_hand(self, game_id: int, seat: int) -> None: ...
    def reload(self, game_id: int) -> None: ...
    def announce(self) -> None: ...
    async def close_hand(self, game: GameRecord, seat: int, user_id: int, text: str) -> None: ...
    async def show_end_choice(self, game: GameRecord, seat: int, tile: Tile | HandMenu) -> None: ...


class Clocks(Protocol):
    def follow(self, game: GameRecord) -> None: ...
    def forget(self, game_id: int) -> None: ...


class VoteMessages(Protocol):
    def show(self, vote_id: int) -> None: ...


class Alarms(Protocol):
    def set(self, key: object, delay: float, event: ComputersDue | VoteExpired) -> None: ...


class ChatMoves(Protocol):
    def chat_moved(self, old_id: int, new_id: int) -> None: ...


class EffectDispatcher:
    """Carries out the effects of committed use cases, in one order: hands closed first,
    caches of moved games dropped, then the games shown, the hands, the end choice, the
    votes, and the announcements last."""

    def __init__(
        self,
        messages: Messages,
        clocks: Clocks,
        alarms: Alarms,
        votes: VoteMessages,
        chats: ChatMoves,
        *,
        computer_delay: float,
    ) -> None:
        self.messages = messages
        self.clocks = clocks
        self.alarms = alarms
        self.votes = votes
        self.chats = chats
        self.computer_delay = computer_delay  # seconds a computer "thinks" before moving

    async def __call__(self, work: Awaitable[Done[T]]) -> T:
        """Run a use case and carry out its effects; its value for the person."""
        done = await work
        await self.carry_out(done.effects)
        return done.value

    async def carry_out(self, effects: Effects) -> None:
        for closed in effects.closed_hands:
            await self.messages.close_hand(closed.game, closed.seat, closed.user_id, closed.text)
        if effects.moved_chat is not None:
            self.chats.chat_moved(*effects.moved_chat)
        for game_id in effects.reloaded:
            self.messages.reload(game_id)
            self.clocks.forget(game_id)
        for game in effects.games:
            self.messages.show(game)
            self._follow(game)
        for game in effects.hands_only:
            self.messages.show(game, group=False)
            self._follow(game)
        for game_id, seat in effects.hands:
            self.messages.show_hand(game_id, seat)
        for game_id, seat in effects.redrawn:
            self.messages.redraw_hand(game_id, seat)
        if effects.end_choice is not None:
            choice = effects.end_choice
            await self.messages.show_end_choice(choice.game, choice.seat, choice.tile)
        for vote_id in effects.votes:
            self.votes.show(vote_id)
        for vote in effects.vote_clocks:
            wait = (vote.expires_at - datetime.now(UTC)).total_seconds()
            self.alarms.set(("vote", vote.id), max(0.0, wait), VoteExpired(vote.id))
        if effects.announcements:
            self.messages.announce()

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
