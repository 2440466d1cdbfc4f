"""Looking at a game from outside its messages (the Mini App): the game its secret
token names, and who the asking person is to it.

A seated person (not gone for good) sees their seat's view; a member of the game's
group, the public view (the table, no hand); anyone else nothing. Membership is asked
of Telegram (`MemberCheck`, from the composition root) and kept briefly in a bounded
cache: an app open on a game asks at each reconnect, and Telegram's getChatMember is
not to be asked at that pace. Nothing here changes a game.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from bot.app.lobby_rules import is_join_token
from bot.app.people import Person
from bot.app.usecases.base import (
    ChatCheck,
    Context,
    MemberCheck,
    Refusal,
    UseCases,
    chat_title,
)
from bot.app.usecases.tournaments import check_drawn
from bot.infra.lru import Lru
from domino.timing import TurnTimer
from i18n import Lang
from storage import repo
from storage.records import GameRecord, GameStatus

MEMBER_SECONDS = 60.0  # how long Telegram's word on a person's membership is kept
MEMBER_CACHE_SIZE = 50_000  # (chat, person) pairs kept


@dataclass(frozen=True, slots=True)
class Seen:
    """What one person may see of one game: `seat` their own (None: the public view, a
    member of the group who holds no seat), whether they could take a seat in the lobby
    (`may_join`), whether the group allows hints, the group's language, title and turn
    timer, and whether they opened the lobby (`controls`: its start and computers)."""

    game: GameRecord
    seat: int | None
    may_join: bool
    hints: bool
    lang: Lang
    chat: str  # the group's title
    timer: TurnTimer  # the group's turn timer (what the lobby says of turns)
    controls: bool = False  # the lobby's creator: may start it and add computers


class Viewing(UseCases):
    """Who sees what of the game a token names."""

    def __init__(
        self,
        context: Context,
        is_member: MemberCheck,
        is_admin: MemberCheck | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(context)
        self.settings = context.settings
        self.is_member = is_member
        self.is_admin = is_admin  # None: nobody is taken for an admin (the tests')
        self.clock = clock
        # (chat id, user id) -> (member?, until when the answer holds)
        self._members: Lru[tuple[int, int], tuple[bool, float]] = Lru(MEMBER_CACHE_SIZE)
        self._titles: Lru[int, tuple[str, float]] = Lru(MEMBER_CACHE_SIZE)  # chat id -> title

    async def game(self, token: str) -> GameRecord:
        """The game `token` names; refused (`api.no_game`) when none does."""
        game = await repo.game_by_join_token(self.db, token) if is_join_token(token) else None
        if game is None:
            raise Refusal("api.no_game")
        return game

    async def load(self, game_id: int) -> GameRecord | None:
        """The game as stored now (an app reloads it when its hand changed)."""
        return await repo.load_game(self.db, game_id)

    async def see(self, token: str, person: Person) -> Seen:
        """What `person` may see of the game `token` names; refused (`api.no_game`,
        `api.not_allowed`) otherwise."""
        return await self.seen(await self.game(token), person)

    async def seen(self, game: GameRecord, person: Person) -> Seen:
        """What `person` may see of `game`; refused (`api.not_allowed`) if nothing."""
        seat = game.seat_of(person.id)
        # A tournament table's lobby is the tournament's: nobody starts it or adds
        # computers, and only the people drawn to it may sit down.
        controls = (
            game.status is GameStatus.LOBBY
            and person.id == game.creator_id
            and game.tournament is None
        )
        if seat is not None and not seat.left:
            return await self._seen(game, seat.seat, may_join=False, controls=controls)
        if not await self.member(game.chat_id, person.id):
            raise Refusal("api.not_allowed")
        may_join = (
            game.status is GameStatus.LOBBY
            and seat is None
            and len(game.seats) < game.seats_wanted
            and not person.anonymous_admin
            and await self._drawn(game, person)
        )
        return await self._seen(game, None, may_join=may_join, controls=controls)

    async def _drawn(self, game: GameRecord, person: Person) -> bool:
        """Whether `person` may sit at `game`'s lobby as far as a tournament is concerned:
        any lobby of no tournament, a tournament table only for those drawn to it."""
        if game.tournament is None:
            return True
        try:
            await check_drawn(self.db, game, person)
        except Refusal:
            return False
        return True

    async def _seen(
        self, game: GameRecord, seat: int | None, *, may_join: bool, controls: bool
    ) -> Seen:
        lang = await self.settings.language_of(game)
        hints = self.settings.hints_allowed(game.chat_id)
        timer = self.settings.of(game.chat_id).turn_timer
        title = await self.title(game.chat_id)
        return Seen(game, seat, may_join, hints, lang, title, timer, controls)

    def admin_check(self, person: Person) -> ChatCheck:
        """Whether `person` is an admin of a chat, as Telegram says now: what the lobby's
        controls ask of whoever is not its creator (`LobbyChanges.may_control`)."""

        async def is_admin(chat_id: int) -> bool:
            return self.is_admin is not None and await self.is_admin(chat_id, person.id)

        return is_admin

    async def title(self, chat_id: int) -> str:
        """The chat's title, read again after `MEMBER_SECONDS`."""
        now = self.clock()
        known = self._titles.get(chat_id)
        if known is not None and known[1] > now:
            return known[0]
        title = await chat_title(self.db, chat_id)
        self._titles[chat_id] = (title, now + MEMBER_SECONDS)
        return title

    async def member(self, chat_id: int, user_id: int) -> bool:
        """Whether the person is in the chat, as Telegram said within `MEMBER_SECONDS`."""
        key = (chat_id, user_id)
        now = self.clock()
        known = self._members.get(key)
        if known is not None and known[1] > now:
            return known[0]
        member = await self.is_member(chat_id, user_id)
        self._members[key] = (member, now + MEMBER_SECONDS)
        return member

    def left(self, chat_id: int, user_id: int) -> None:
        """The person left the chat (Telegram's service message said so): they see
        nothing of its games from now on, whatever Telegram said of them before."""
        self._members[(chat_id, user_id)] = (False, self.clock() + MEMBER_SECONDS)
