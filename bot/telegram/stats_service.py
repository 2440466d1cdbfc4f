"""/top, /stats and /history as Telegram shows them: the core's records (`bot.app.stats`:
which game, which page, checked) written as a screen of HTML text and buttons."""

from __future__ import annotations

from dataclasses import dataclass

from aiogram.types import InlineKeyboardMarkup

from bot.app.stats import MAX_PAGE as MAX_PAGE
from bot.app.stats import Chat as Chat
from bot.app.stats import PlayerRecord, Stats
from bot.telegram import stats_view as view
from bot.telegram.callbacks import TopScope
from bot.telegram.presenter.tournament import marks_of
from bot.telegram.stats_history import tournaments_lines
from bot.telegram.stats_player import tournament_marks
from i18n import Lang
from storage import repo
from storage import tournaments as tournament_store
from storage.repo import Reader

TOURNAMENTS_IN_HISTORY = 3  # the group's last finished tournaments /history names


@dataclass(frozen=True, slots=True)
class Screen:
    """A message to send or to edit into: HTML text and its buttons."""

    text: str
    keyboard: InlineKeyboardMarkup | None = None


class StatsService:
    """The stats screens; a refused press raises the core's `Refusal`."""

    def __init__(self, db: Reader, *, page_size: int = view.PAGE_SIZE) -> None:
        self.db = db
        self.stats = Stats(db, page_size=page_size)

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
        command's, opening at `preferred`), page `page`."""
        if scope is TopScope.PLAYERS:
            players = await self.stats.top_players(chat, game=game, preferred=preferred, page=page)
            rows, shown, games = players.rows, players.game, players.games
            text = view.leaderboard_text(rows, chat.title, shown, lang)
            if not rows.total and not games:
                return Screen(text)
            return Screen(text, view.top_keyboard(rows, shown.key, scope, games, lang))
        pairs = await self.stats.top_pairs(chat, game=game, preferred=preferred, page=page)
        return Screen(
            view.pairs_text(pairs.rows, chat.title, pairs.game, lang),
            view.top_keyboard(pairs.rows, pairs.game.key, scope, pairs.games, lang),
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
        """A person's stats (/stats): in this group, or across all groups from a private
        chat. `name` is how Telegram names them now, for the answer when nothing is
        recorded."""
        record = await self.stats.player(user_id, chat, preferred=preferred)
        marks = await self._tournament_marks(user_id, chat, lang)
        if record is None:
            return Screen(view.no_stats_text(name, chat.is_group, lang) + marks)
        screen = self._player_screen(record, chat, lang)
        return Screen(screen.text + marks, screen.keyboard)

    async def _tournament_marks(self, user_id: int, chat: Chat, lang: Lang) -> str:
        """«🏆 Турниров: 3, побед: 1» on its own line, in a group where the person played
        a finished tournament; "" elsewhere."""
        if not chat.is_group:
            return ""
        played, won = marks_of(
            await tournament_store.finished_with_person(self.db, chat.id, user_id), user_id
        )
        return "\n" + tournament_marks(played, won, lang) if played else ""

    async def player_game(self, user_id: int, chat: Chat, lang: Lang, *, game: str) -> Screen:
        """A person's stats in `game` (a press on their /stats)."""
        record = await self.stats.player_game(user_id, chat, game=game)
        return self._player_screen(record, chat, lang)

    @staticmethod
    def _player_screen(record: PlayerRecord, chat: Chat, lang: Lang) -> Screen:
        found = record.found
        return Screen(
            view.player_stats_text(found, chat.title, lang),
            view.stats_keyboard(found.game, record.games, found.user_id, lang),
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
        board = await self.stats.history(chat, game=game, preferred=preferred, page=page)
        text = view.history_text(board.rows, chat.title, board.game, lang)
        if page == 1 and chat.is_group:
            finished = await tournament_store.finished_of_chat(
                self.db, chat.id, TOURNAMENTS_IN_HISTORY
            )
            text = "\n".join([text, *tournaments_lines(finished, lang)])
        return Screen(text, view.history_keyboard(board.rows, board.game.key, board.games, lang))

    async def sheet(self, chat: Chat, game: str, match_id: int, page: int, lang: Lang) -> Screen:
        """One match's score sheet; "back" returns to that game's list at `page`. Whether
        its last tile decided it (M-4's «голый козёл») the match itself says, as it does
        for the announcement at its end (`Match.won_by_last_tile`)."""
        shown = await self.stats.sheet(chat, game, match_id, page)
        record = await repo.load_game(self.db, match_id)
        match = None if record is None else record.match
        last_tile_won = match is not None and match.won_by_last_tile()
        return Screen(
            view.sheet_text(shown.sheet, lang, last_tile_won=last_tile_won),
            view.sheet_keyboard(shown.game.key, page, lang),
        )
