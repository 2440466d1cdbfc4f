"""The records behind /top, /stats and /history: which game a screen shows, which page,
and whether a press may see it. Everything here only reads.

A press names its game and page (and, for a score sheet, the match; for /stats, the
person), never a state kept between presses, so an old button keeps working; a game
that does not exist, a page that does not exist, or a match of another chat, is refused
with a `Refusal` and changes nothing.

Which game a command shows: the group's default game (`ChatSettings.default_game`; in a
private chat the registry's first game) when it has records there (for /stats: records
of that person), else the first game in the registry's order that has; with no records
at all, the default game's empty screen. Each answer lists the games with records, for
the buttons that switch to them.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass
from typing import Generic, TypeVar

from bot.app.usecases.base import Refusal
from domino.errors import UnknownVariant
from domino.rules import Variant
from domino.variants import VARIANTS, GameVariant, find_variant
from storage import stats
from storage.repo import Reader
from storage.stats import HistoryEntry, LeaderRow, MatchSheet, PairRow, PlayerStats

MAX_PAGE = 10_000  # far past any real list; keeps a forged number out of SQLite's range
MAX_GAME_ID = 2**63 - 1  # SQLite's largest integer
PAGE_SIZE = 10  # rows on a page

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Chat:
    """Where a command was given: a group (`id`, `title`) or a private chat."""

    id: int
    title: str | None
    is_group: bool


@dataclass(frozen=True, slots=True)
class Board(Generic[T]):
    """One page of a group's list (`rows`) of `game`, and the games it has records of."""

    rows: stats.Page[T]
    game: GameVariant
    games: tuple[Variant, ...]


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """A person's record (`found`, in its game) and the games they have records of."""

    found: PlayerStats
    games: tuple[Variant, ...]


@dataclass(frozen=True, slots=True)
class Sheet:
    """One match's score sheet, of `game`."""

    sheet: MatchSheet
    game: GameVariant


def page_exists(page: int, total: int, size: int = PAGE_SIZE) -> bool:
    """Page 1 always exists (it may be empty); others only while they hold rows."""
    return page == 1 or 1 < page <= -(-total // size)


def known_game(key: str) -> GameVariant:
    """The game a press names; a key no game has (forged, or of a game this version
    no longer offers) is refused."""
    try:
        return find_variant(key)
    except UnknownVariant:
        raise Refusal("alert.no_such_game") from None


def opening_game(preferred: str | None, games: Sequence[Variant]) -> GameVariant:
    """The game a command opens at (see the module doc): `preferred` if it has records
    (`games`), else the first that has, else `preferred` (the registry's first game when
    None or unknown)."""
    default = VARIANTS[0]
    if preferred is not None:
        with suppress(UnknownVariant):
            default = find_variant(preferred)
    if default.key in games or not games:
        return default
    return find_variant(games[0])


class Stats:
    """The stats' queries, each checked: a game, a page, a match the press may see."""

    def __init__(self, db: Reader, *, page_size: int = PAGE_SIZE) -> None:
        self.db = db
        self.page_size = page_size

    def _offset(self, page: int) -> int:
        if not 1 <= page <= MAX_PAGE:
            raise Refusal("alert.no_such_page")
        return (page - 1) * self.page_size

    def _found(self, page: int, rows: stats.Page[T]) -> stats.Page[T]:
        if not page_exists(page, rows.total, self.page_size):
            raise Refusal("alert.no_such_page")
        return rows

    async def _group_game(
        self, chat: Chat, game: str | None, preferred: str | None
    ) -> tuple[GameVariant, tuple[Variant, ...]]:
        """The game a group's list shows (`game` named by a press, else the command's) and
        the games the group has records of."""
        chosen = None if game is None else known_game(game)
        games = await stats.games_of_group(self.db, chat.id)
        return (opening_game(preferred, games) if chosen is None else chosen), games

    async def top_players(
        self, chat: Chat, *, game: str | None = None, preferred: str | None = None, page: int = 1
    ) -> Board[LeaderRow]:
        """The group's leaderboard of `game` (None: the command's, `opening_game` of
        `preferred`), page `page`."""
        offset = self._offset(page)
        shown, games = await self._group_game(chat, game, preferred)
        rows = await stats.leaderboard(
            self.db, chat.id, game=shown.key, offset=offset, limit=self.page_size
        )
        return Board(self._found(page, rows), shown, games)

    async def top_pairs(
        self, chat: Chat, *, game: str | None = None, preferred: str | None = None, page: int = 1
    ) -> Board[PairRow]:
        """The group's leaderboard of pairs in `game`'s team play, page `page`."""
        offset = self._offset(page)
        shown, games = await self._group_game(chat, game, preferred)
        rows = await stats.pair_leaderboard(
            self.db, chat.id, game=shown.key, offset=offset, limit=self.page_size
        )
        return Board(self._found(page, rows), shown, games)

    async def history(
        self, chat: Chat, *, game: str | None = None, preferred: str | None = None, page: int = 1
    ) -> Board[HistoryEntry]:
        """The group's last matches of `game` (None: the command's), newest first."""
        offset = self._offset(page)
        shown, games = await self._group_game(chat, game, preferred)
        rows = await stats.history(
            self.db, chat.id, game=shown.key, offset=offset, limit=self.page_size
        )
        return Board(self._found(page, rows), shown, games)

    async def player(
        self, user_id: int, chat: Chat, *, preferred: str | None = None
    ) -> PlayerRecord | None:
        """A person's stats (/stats) at `opening_game` of `preferred`: in this group, or
        across all groups from a private chat. None when nothing is recorded."""
        scope = chat.id if chat.is_group else None
        games = await stats.games_of_player(self.db, user_id, scope)
        if not games:
            return None
        shown = opening_game(preferred, games)
        found = await stats.player_stats(self.db, user_id, scope, game=shown.key)
        return None if found is None else PlayerRecord(found, games)

    async def player_game(self, user_id: int, chat: Chat, *, game: str) -> PlayerRecord:
        """A person's stats in `game` (a press on their /stats). A game they have no
        record of is refused: no button offers it."""
        shown = known_game(game)
        scope = chat.id if chat.is_group else None
        found = await stats.player_stats(self.db, user_id, scope, game=shown.key)
        if found is None:
            raise Refusal("alert.no_such_game")
        return PlayerRecord(found, await stats.games_of_player(self.db, user_id, scope))

    async def sheet(self, chat: Chat, game: str, match_id: int, page: int) -> Sheet:
        """One match's score sheet, if it was a match of `game` played in this chat
        (`page`: the list's page it was opened from, checked like any page)."""
        self._offset(page)
        shown = known_game(game)
        if not 1 <= match_id <= MAX_GAME_ID:
            raise Refusal("alert.no_such_match")
        sheet = await stats.match_sheet(self.db, match_id)
        if sheet is None or sheet.chat_id != chat.id or sheet.variant is not shown.key:
            raise Refusal("alert.no_such_match")
        return Sheet(sheet, shown)
