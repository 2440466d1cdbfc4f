"""Match records, ratings and the queries behind /top, /stats and /history.

Skeleton of the API; the bodies follow in the next commits.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Generic, TypeVar

from domino.rules import Variant
from domino.views import OutcomeKind
from storage.db import Transaction
from storage.records import Ending, GameRecord
from storage.repo import Reader

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Page(Generic[T]):
    """One page of a longer list: `rows` start at `offset`; `total` rows exist in all."""

    rows: tuple[T, ...]
    total: int
    offset: int
    limit: int

    @property
    def has_prev(self) -> bool:
        return self.offset > 0

    @property
    def has_next(self) -> bool:
        return self.offset + self.limit < self.total

    @property
    def page_no(self) -> int:
        """1-based number of this page."""
        return self.offset // self.limit + 1

    @property
    def pages(self) -> int:
        """How many pages there are (at least 1, even for an empty list)."""
        return max(1, -(-self.total // self.limit))


@dataclass(frozen=True, slots=True)
class LeaderRow:
    place: int  # 1-based over the whole group
    user_id: int
    name: str  # as last seen
    rating: int  # K-11, accumulated
    elo: int | None  # None: no Elo match yet
    matches: int
    goats: int  # matches the person was козёл
    fish_made: int
    avg_points: float

    @property
    def not_goat_share(self) -> float:
        """Share of matches not козёл, 0..1 (0 with no matches)."""
        return (self.matches - self.goats) / self.matches if self.matches else 0.0


@dataclass(frozen=True, slots=True)
class PairRow:
    place: int
    user_ids: tuple[int, int]  # low, high
    names: tuple[str, str]  # in the order of user_ids
    rating: int
    matches: int
    goats: int
    avg_points: float

    @property
    def not_goat_share(self) -> float:
        return (self.matches - self.goats) / self.matches if self.matches else 0.0


@dataclass(frozen=True, slots=True)
class MatchLine:
    """One match from one player's point of view."""

    game_id: int
    chat_id: int
    ended_at: datetime
    points: int
    rating_gain: int
    goat: bool


@dataclass(frozen=True, slots=True)
class PlayerStats:
    user_id: int
    name: str
    chat_id: int | None  # None: across all groups
    matches: int
    rating: int
    elo: int | None
    goats: int
    went_out: int
    fish_made: int
    eggs_taken: int
    best: MatchLine | None
    worst: MatchLine | None
    streak: int  # > 0: matches in a row not козёл (latest first); < 0: козёл in a row; 0: none


@dataclass(frozen=True, slots=True)
class HistoryPlayer:
    name: str
    user_id: int | None  # None: a computer player
    points: int
    goat: bool
    rating_gain: int


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    game_id: int
    ended_at: datetime
    variant: Variant
    ending: Ending
    rounds: int
    players: tuple[HistoryPlayer, ...]  # in seat order


@dataclass(frozen=True, slots=True)
class SheetRound:
    round_no: int
    outcome: OutcomeKind
    seat: int  # who went out / the рыбак
    points: tuple[int, ...]  # per side, this round
    totals: tuple[int, ...]  # per side, after this round
    eggs_after: int


@dataclass(frozen=True, slots=True)
class MatchSheet:
    game_id: int
    chat_id: int
    variant: Variant
    target: int
    teams: bool
    started_at: datetime | None
    ended_at: datetime
    ending: Ending
    players: tuple[HistoryPlayer, ...]  # in seat order
    sides: tuple[tuple[int, ...], ...]  # seats per side
    rounds: tuple[SheetRound, ...]


async def record_match(tx: Transaction, game: GameRecord) -> bool:
    raise NotImplementedError


async def leaderboard(
    db: Reader, chat_id: int, *, offset: int = 0, limit: int = 10
) -> Page[LeaderRow]:
    raise NotImplementedError


async def pair_leaderboard(
    db: Reader, chat_id: int, *, offset: int = 0, limit: int = 10
) -> Page[PairRow]:
    raise NotImplementedError


async def player_stats(db: Reader, user_id: int, chat_id: int | None) -> PlayerStats | None:
    raise NotImplementedError


async def history(
    db: Reader, chat_id: int, *, offset: int = 0, limit: int = 10
) -> Page[HistoryEntry]:
    raise NotImplementedError


async def match_sheet(db: Reader, game_id: int) -> MatchSheet | None:
    raise NotImplementedError
