"""The Telegram front end as the core's dispatcher sees it (`bot.app.effects.FrontEnd`):
each commit's changes shown through the publisher (the lobby, the table, the hands,
the announcements), the vote board, and the tournaments' board and tables' topics."""

from __future__ import annotations

from collections.abc import Sequence

from bot.app.effects import ClosedHand, HandAsked, PendingChoice
from bot.telegram.publisher import Publisher
from bot.telegram.tournament_board import TableTopics, TournamentBoard
from bot.telegram.vote_board import VoteBoard
from i18n import t
from storage.records import GameRecord, TableDue


class TelegramFrontEnd:
    def __init__(
        self,
        publisher: Publisher,
        votes: VoteBoard,
        tournaments: TournamentBoard,
        tables: TableTopics,
    ) -> None:
        self.publisher = publisher
        self.votes = votes
        self.tournaments = tournaments
        self.tables = tables

    def show(self, game: GameRecord, *, group: bool = True) -> None:
        self.publisher.show(game, group=group)

    def show_hand(self, game_id: int, seat: int) -> None:
        self.publisher.show_hand(game_id, seat)

    def redraw_hand(self, game_id: int, seat: int) -> None:
        self.publisher.redraw_hand(game_id, seat)

    def reload(self, game_id: int) -> None:
        self.publisher.reload(game_id)

    def announce(self) -> None:
        self.publisher.announce()

    def topic_reopened(self, chat_id: int, thread_id: int | None) -> None:
        self.publisher.topic_reopened(chat_id, thread_id)

    async def close_hand(self, closed: ClosedHand) -> None:
        text = t(closed.key, closed.lang)
        await self.publisher.close_hand(closed.game, closed.seat, closed.user_id, text)

    async def bring_hand(self, asked: HandAsked) -> None:
        await self.publisher.bring_hand(asked.game_id, asked.seat, press=asked.press)

    async def show_choice(self, pending: PendingChoice) -> None:
        await self.publisher.show_end_choice(pending.game, pending.seat, pending.choice)

    def show_vote(self, vote_id: int) -> None:
        self.votes.show(vote_id)

    def show_tournament(self, tournament_id: int) -> None:
        self.tournaments.show(tournament_id)

    async def open_tables(self, due: Sequence[TableDue]) -> None:
        """Each table in a forum topic of its own where the bot may make one
        («🏆 Тур 2 · стол 1»), else in the tournament's topic."""
        await self.tables.open(due)
