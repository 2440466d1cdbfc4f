"""The use cases behind /top, /stats and /history: read the records, build the screen.

Everything here only reads. A press names its game and page (and, for a score sheet,
the match; for /stats, the person), never a state kept between presses, so an old
button keeps working; a game that does not exist, a page that does not exist, or a
match of another chat, is refused with a `Refusal` and changes nothing.

Which game a command shows (issue 13): the group's default game (`ChatSettings.
default_game`; in a private chat the registry's first game) when it has records there
(for /stats: records of that person), else the first game in the registry's order
that has; with no records at all, the default game's empty screen. A row of buttons
switches to the other games with records.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass

from aiogram.types import InlineKeyboardMarkup

from bot.app.usecases import Refusal
from bot.telegram import stats_view as view
from bot.telegram.callbacks import TopScope
from domino.errors import UnknownVariant
from domino.rules import Variant
from domino.variants import VARIANTS, GameVariant, find_variant
from i18n import Lang
from storage import stats
from storage.repo import Reader

MAX_PAGE = 10_000  # far past any real list; keeps a forged number out of SQLite's range
MAX_GAME_ID = 2**63 - 1  # SQLite's largest integer


@dataclass(frozen=True, slots=True)
class Screen:
    """A message to send or to edit into: HTML text and its buttons."""

    text: str
    keyboard: InlineKeyboardMarkup | None = None


@dataclass(frozen=True, slots=True)
class Chat:
    """Where a command was given: a group (`id`, `title`) or a private chat."""

    id: int
    title: str | None
    is_group: bool


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


class StatsService:
    def __init__(self, db: Reader, *, page_size: int = view.PAGE_SIZE) -> None:
        self.db = db
        self.page_size = page_size

    def _check_page(self, page: int) -> int:
        if not 1 <= page <= MAX_PAGE:
            raise Refusal("alert.no_such_page")
        return (page - 1) * self.page_size

    def _check_found(self, page: int, total: int) -> None:
        if not view.page_exists(page, total, self.page_size):
            raise Refusal("alert.no_such_page")

    async def top(
        self,
        chat: Chat,
        lang: Lang,
        *,
        game: str | None = None,
        preferred: str | None = None,
        scope: TopScope = TopScope.PLAYERS,
        page: int = 1,
    ) -> Screen:
        """The group's leaderboard (players, or pairs of team games) of `game` (None: the
        command's, `opening_game` of `preferred`), page `page`."""
        offset = self._check_page(page)
        chosen = None if game is None else known_game(game)
        games = await stats.games_of_group(self.db, chat.id)
        shown = opening_game(preferred, games) if chosen is None else chosen
        key, size = shown.key, self.page_size
        if scope is TopScope.PLAYERS:
            players = await stats.leaderboard(self.db, chat.id, game=key, offset=offset, limit=size)
            self._check_found(page, players.total)
            text = view.leaderboard_text(players, chat.title, shown, lang)
            if not players.total and not games:
                return Screen(text)
            return Screen(text, view.top_keyboard(players, key, scope, games, lang))
        pairs = await stats.pair_leaderboard(self.db, chat.id, game=key, offset=offset, limit=size)
        self._check_found(page, pairs.total)
        return Screen(
            view.pairs_text(pairs, chat.title, shown, lang),
            view.top_keyboard(pairs, key, scope, games, lang),
        )

    async def player(
        self,
        user_id: int,
        name: str,
        chat: Chat,
        lang: Lang,
        *,
        preferred: str | None = None,
    ) -> Screen:
        """A person's stats (/stats) at `opening_game` of `preferred`: in this group, or
        across all groups from a private chat. `name` is how Telegram names them now, for
        the answer when nothing is recorded."""
        scope = chat.id if chat.is_group else None
        games = await stats.games_of_player(self.db, user_id, scope)
        found = None
        if games:
            shown = opening_game(preferred, games)
            found = await stats.player_stats(self.db, user_id, scope, game=shown.key)
        if found is None:
            return Screen(view.no_stats_text(name, chat.is_group, lang))
        return self._player_screen(found, games, chat, lang)

    async def player_game(self, user_id: int, chat: Chat, lang: Lang, *, game: str) -> Screen:
        """A person's stats in `game` (a press on their /stats). A game they have no
        record of is refused: no button offers it."""
        shown = known_game(game)
        scope = chat.id if chat.is_group else None
        found = await stats.player_stats(self.db, user_id, scope, game=shown.key)
        if found is None:
            raise Refusal("alert.no_such_game")
        games = await stats.games_of_player(self.db, user_id, scope)
        return self._player_screen(found, games, chat, lang)

    def _player_screen(
        self, found: stats.PlayerStats, games: Sequence[Variant], chat: Chat, lang: Lang
    ) -> Screen:
        return Screen(
            view.player_stats_text(found, chat.title, lang),
            view.stats_keyboard(found.game, games, found.user_id, lang),
        )

    async def history(
        self,
        chat: Chat,
        lang: Lang,
        *,
        game: str | None = None,
        preferred: str | None = None,
        page: int = 1,
    ) -> Screen:
        """The group's last matches of `game` (None: the command's), newest first."""
        offset = self._check_page(page)
        chosen = None if game is None else known_game(game)
        games = await stats.games_of_group(self.db, chat.id)
        shown = opening_game(preferred, games) if chosen is None else chosen
        entries = await stats.history(
            self.db, chat.id, game=shown.key, offset=offset, limit=self.page_size
        )
        self._check_found(page, entries.total)
        return Screen(
            view.history_text(entries, chat.title, shown, lang),
            view.history_keyboard(entries, shown.key, games, lang),
        )

    async def sheet(self, chat: Chat, game: str, match_id: int, page: int, lang: Lang) -> Screen:
        """One match's score sheet, if it was a match of `game` played in this chat;
        "back" returns to that game's list at `page`."""
        self._check_page(page)
        shown = known_game(game)
        if not 1 <= match_id <= MAX_GAME_ID:
            raise Refusal("alert.no_such_match")
        sheet = await stats.match_sheet(self.db, match_id)
        if sheet is None or sheet.chat_id != chat.id or sheet.variant is not shown.key:
            raise Refusal("alert.no_such_match")
        return Screen(view.sheet_text(sheet, lang), view.sheet_keyboard(shown.key, page, lang))
