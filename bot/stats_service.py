"""The use cases behind /top, /stats and /history: read the records, build the screen.

Everything here only reads. A press names its page (and, for a score sheet, the
match), never a state kept between presses, so an old button keeps working; a page
that does not exist, or a match of another chat, is refused with a `Refusal` and
changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from aiogram.types import InlineKeyboardMarkup

from bot import stats_view as view
from bot.callbacks import TopScope
from bot.i18n import Lang
from bot.usecases import Refusal
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
        self, chat: Chat, lang: Lang, scope: TopScope = TopScope.PLAYERS, page: int = 1
    ) -> Screen:
        """The group's leaderboard (players, or pairs of team games), page `page`."""
        offset = self._check_page(page)
        if scope is TopScope.PLAYERS:
            players = await stats.leaderboard(self.db, chat.id, offset=offset, limit=self.page_size)
            self._check_found(page, players.total)
            text = view.leaderboard_text(players, chat.title, lang)
            if not players.total:
                return Screen(text)
            return Screen(text, view.top_keyboard(players, scope, lang))
        pairs = await stats.pair_leaderboard(self.db, chat.id, offset=offset, limit=self.page_size)
        self._check_found(page, pairs.total)
        return Screen(
            view.pairs_text(pairs, chat.title, lang), view.top_keyboard(pairs, scope, lang)
        )

    async def player(self, user_id: int, name: str, chat: Chat, lang: Lang) -> Screen:
        """A person's stats: in this group, or across all groups from a private chat.
        `name` is how Telegram names them now, for the answer when nothing is recorded."""
        found = await stats.player_stats(self.db, user_id, chat.id if chat.is_group else None)
        if found is None or not found.matches:
            return Screen(view.no_stats_text(name, chat.is_group, lang))
        return Screen(view.player_stats_text(found, chat.title, lang))

    async def history(self, chat: Chat, lang: Lang, page: int = 1) -> Screen:
        """The group's last matches, newest first, page `page`."""
        offset = self._check_page(page)
        entries = await stats.history(self.db, chat.id, offset=offset, limit=self.page_size)
        self._check_found(page, entries.total)
        return Screen(view.history_text(entries, chat.title, lang), view.history_keyboard(entries))

    async def sheet(self, chat: Chat, game_id: int, page: int, lang: Lang) -> Screen:
        """One match's score sheet, if it was played in this chat; "back" returns to `page`."""
        self._check_page(page)
        if not 1 <= game_id <= MAX_GAME_ID:
            raise Refusal("alert.no_such_match")
        sheet = await stats.match_sheet(self.db, game_id)
        if sheet is None or sheet.chat_id != chat.id:
            raise Refusal("alert.no_such_match")
        return Screen(view.sheet_text(sheet, lang), view.sheet_keyboard(page, lang))
