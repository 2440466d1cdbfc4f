"""Match records, ratings and the queries behind /top, /stats and /history.

`record_match(tx, game, scored)` is called in the transaction that ends a game, with the
game as the standings count it (`ScoredMatch`, from `bot.app.standings.score`: its козёл,
its winners, its rating gains, Elo's places, the rounds each seat is credited with;
nothing of that is decided here). It stores the match (seats, every round, final
points, козёл, rating, Elo) and brings the running totals up to date, so every query
here is a handful of indexed reads. A second call for the same game records nothing
and returns False.

What is kept, and how:

- Per game: every record carries its game's key (`GameVariant.key`, the `variant`
  column), and the running totals, the ratings and Elo are kept per game (each person
  has one row per scope and game). Every board, /stats and /history reads one game;
  `games_of_group` and `games_of_player` say which games have records.
- Scopes: a person's totals, their Elo and a pair's totals are kept per group (scope
  `chat_id`) and for all groups together (scope 0).
- Elo: a match with places (`ScoredMatch.elo_places`) moves the ratings each scope
  holds by the engine's method (`domino.elo.updated`; a person's first match starts
  from `elo.START`); each seat keeps its Elo before and after. A match without places
  leaves Elo as it was.
- Streak: the latest matches in a row alike, from each seat's `good`: > 0 good ones,
  < 0 bad ones.
- Final points: the average on the boards is over recorded matches.
- Pairs (`ScoredMatch.pairs`): one row per two partners, keyed (lower user id, higher
  user id).
- Names: people are shown under their name as last seen (the `users` table, which the
  bot updates on every update it sees, `bot.app.people.People.seen`), in the boards,
  stats and history alike, also after they left the group; the seat's name at the
  time is the fallback and is what computers are shown under.
- Boards: rating (desc), then matches (fewer first: the same rating in fewer
  matches), then Elo (desc, none last), then user id. `place` is the 1-based position
  over the whole board. Scope `chat_id` is a group; 0 is all groups together.
- Hints (`storage.hints`): each seat's «💡 Подсказка» count is copied into its
  `stat_seats` row and added to the person's totals (`PlayerStats.hints`). A hint
  changes nothing else: not the rating, not Elo, not a place or a streak; it is only
  shown.
- /stats: best match is the one with the largest rating gain, worst the smallest (the
  latest of equals).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, fields
from datetime import UTC, datetime
from typing import Generic, TypeVar

from domino import elo
from domino.rules import Variant
from domino.variants import VARIANTS
from domino.views import OutcomeKind
from storage.db import Transaction
from storage.hints import hint_counts
from storage.records import Ending, GameRecord, ScoredMatch, ScoredSeat
from storage.repo import Reader, now

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
    goats: int  # matches the person was last (козёл)
    fish_made: int
    avg_points: float
    wins: int = 0  # matches in first place

    @property
    def not_goat_share(self) -> float:
        """Share of matches not козёл, 0..1 (0 with no matches)."""
        return (self.matches - self.goats) / self.matches if self.matches else 0.0

    @property
    def win_share(self) -> float:
        """Share of matches won, 0..1 (0 with no matches)."""
        return self.wins / self.matches if self.matches else 0.0


@dataclass(frozen=True, slots=True)
class PairRow:
    place: int
    user_ids: tuple[int, int]  # low, high
    names: tuple[str, str]  # in the order of user_ids
    rating: int
    matches: int
    goats: int
    avg_points: float
    wins: int = 0

    @property
    def not_goat_share(self) -> float:
        return (self.matches - self.goats) / self.matches if self.matches else 0.0

    @property
    def win_share(self) -> float:
        return self.wins / self.matches if self.matches else 0.0


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
    streak: int  # > 0: good matches in a row (latest first); < 0: bad ones; 0: none
    game: Variant
    wins: int
    hints: int = 0  # «💡 Подсказка» presses counted (one per turn at most)
    draws: int = 0  # matches ended drawn by agreement


@dataclass(frozen=True, slots=True)
class HistoryPlayer:
    name: str
    user_id: int | None  # None: a computer player
    points: int
    goat: bool
    rating_gain: int
    won: bool = False


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    game_id: int
    ended_at: datetime
    variant: Variant
    ending: Ending
    rounds: int
    players: tuple[HistoryPlayer, ...]  # in seat order
    number: int  # the group's match of this game it was, counted from 1 (`match_number`)


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
    number: int  # as in the group's history (`HistoryEntry.number`)


# Recording ---------------------------------------------------------------------


def _utc(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def _time(text: str) -> datetime:
    return datetime.fromisoformat(text)


async def record_match(tx: Transaction, game: GameRecord, scored: ScoredMatch) -> bool:
    """Record `game`, which has just ended, as `scored` counts it
    (`bot.app.standings.score`), in the caller's transaction. Returns True if it was
    recorded now, False if it was recorded before."""
    match = game.match
    if match is None:
        raise ValueError(f"game {game.id} has no match to record")
    ended_at = _utc(game.ended_at) or _utc(now())
    inserted = await tx.execute(
        """
        INSERT INTO stat_matches (
            game_id, chat_id, variant, ruleset, target, teams, sides, ending, culprit_seat,
            rounds, elo_counted, started_at, ended_at
        ) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT DO NOTHING
        """,
        (
            game.id,
            game.chat_id,
            scored.game.value,
            json.dumps(match.ruleset.to_dict()),
            match.ruleset.target,
            int(match.ruleset.teams),
            json.dumps([list(side) for side in match.sides]),
            scored.ending.value,
            scored.culprit,
            len(match.results),
            int(scored.elo_places is not None),
            _utc(game.started_at),
            ended_at,
        ),
    )
    if inserted != 1:
        return False
    await tx.execute_many(
        """
        INSERT INTO stat_rounds (
            game_id, round_no, outcome, seat, points, totals, eggs_before, eggs_after,
            eggs_taken_by
        ) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        """,
        [
            (
                game.id,
                result.round_no,
                result.outcome.kind.value,
                result.outcome.seat,
                json.dumps(list(result.points)),
                json.dumps([account.recorded for account in result.after]),
                result.eggs_before,
                result.eggs_after,
                result.eggs_taken_by,
            )
            for result in match.results
        ],
    )
    hints = await hint_counts(tx, game.id)
    elo_of = await _update_players(tx, game.chat_id, scored, hints)
    await tx.execute_many(
        """
        INSERT INTO stat_seats (
            game_id, seat, user_id, chat_id, variant, name, side, points, goat, won,
            rating_gain, went_out, fish_made, eggs_taken, elo_before, elo_after,
            elo_all_before, elo_all_after, hints
        ) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """,
        [
            (
                game.id,
                s.seat,
                s.user_id,
                game.chat_id,
                scored.game.value,
                s.name,
                s.side,
                s.points,
                int(s.goat),
                int(s.won),
                s.rating_gain,
                s.went_out,
                s.fish_made,
                s.eggs_taken,
                *elo_of.get(s.seat, (None, None, None, None)),
                hints.get(s.seat, 0),
            )
            for s in scored.seats
        ],
    )
    await _update_pairs(tx, game.chat_id, scored)
    return True


@dataclass(frozen=True, slots=True)
class _Totals:
    """A person's running totals in one scope (a group, or 0 for all groups) and game."""

    matches: int = 0
    rating: int = 0
    goats: int = 0
    wins: int = 0
    points_sum: int = 0
    went_out: int = 0
    fish_made: int = 0
    eggs_taken: int = 0
    elo: float | None = None
    streak: int = 0
    hints: int = 0
    draws: int = 0

    def plus(self, s: ScoredSeat, elo_after: float | None, hints: int) -> _Totals:
        """With one more match: the seat's `s`, Elo `elo_after` and `hints` counted."""
        return _Totals(
            matches=self.matches + 1,
            rating=self.rating + s.rating_gain,
            goats=self.goats + int(s.goat),
            wins=self.wins + int(s.won),
            points_sum=self.points_sum + s.points,
            went_out=self.went_out + s.went_out,
            fish_made=self.fish_made + s.fish_made,
            eggs_taken=self.eggs_taken + s.eggs_taken,
            elo=elo_after,
            streak=self.streak
            if s.drawn
            else max(self.streak, 0) + 1
            if s.good
            else min(self.streak, 0) - 1,
            hints=self.hints + hints,
            draws=self.draws + int(s.drawn),
        )


def _or_start(rating: float | None) -> float:
    return elo.START if rating is None else rating


_TOTALS = tuple(field.name for field in fields(_Totals))


async def _update_players(
    tx: Transaction, chat_id: int, scored: ScoredMatch, hints: dict[int, int]
) -> dict[int, tuple[float | None, ...]]:
    """Add the match to each person's totals of its game in the group and overall;
    return each person's seat's Elo in that game (group before, after, overall before,
    after; None if the match does not count for Elo)."""
    people = [s for s in scored.seats if s.user_id is not None]
    if not people:
        return {}
    rows = await tx.fetch_all(
        f"SELECT scope, user_id, {', '.join(_TOTALS)} FROM stat_players"
        f" WHERE scope IN (?, 0) AND game = ? AND user_id IN ({', '.join('?' * len(people))})",
        (chat_id, scored.game.value, *(s.user_id for s in people)),
    )
    found = {
        (row["scope"], row["user_id"]): _Totals(*(row[name] for name in _TOTALS)) for row in rows
    }
    elo_of: dict[int, list[float | None]] = {s.seat: [] for s in people}
    writes = []
    for scope in (chat_id, 0):
        before = {s.seat: found.get((scope, s.user_id), _Totals()) for s in people}
        after_elo = {seat: totals.elo for seat, totals in before.items()}
        if scored.elo_places is not None:  # given only when every seat is a person
            ratings = [_or_start(before[s.seat].elo) for s in scored.seats]
            new = elo.updated(ratings, scored.elo_places, [s.side for s in scored.seats])
            for s in scored.seats:
                elo_of[s.seat] += [ratings[s.seat], new[s.seat]]
                after_elo[s.seat] = new[s.seat]
        else:
            for s in people:
                elo_of[s.seat] += [None, None]
        for s in people:
            totals = before[s.seat].plus(s, after_elo[s.seat], hints.get(s.seat, 0))
            values = (getattr(totals, name) for name in _TOTALS)
            writes.append((scope, s.user_id, scored.game.value, *values, s.name))
    await tx.execute_many(
        f"""
        INSERT INTO stat_players (scope, user_id, game, {", ".join(_TOTALS)}, name)
        VALUES ({", ".join("?" * (len(_TOTALS) + 4))})
        ON CONFLICT (scope, user_id, game) DO UPDATE SET
            {", ".join(f"{name} = excluded.{name}" for name in (*_TOTALS, "name"))}
        """,
        writes,
    )
    return {seat: tuple(values) for seat, values in elo_of.items()}


async def _update_pairs(tx: Transaction, chat_id: int, scored: ScoredMatch) -> None:
    """Add the match to each pair of partners (in the match's game)."""
    writes = [
        (
            scope,
            *pair.user_ids,
            scored.game.value,
            pair.rating_gain,
            int(pair.goat),
            int(pair.won),
            pair.points,
        )
        for pair in scored.pairs
        for scope in (chat_id, 0)
    ]
    if writes:
        await tx.execute_many(
            """
            INSERT INTO stat_pairs (
                scope, user_lo, user_hi, game, matches, rating, goats, wins, points_sum
            ) VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?)
            ON CONFLICT (scope, user_lo, user_hi, game) DO UPDATE SET
                matches = stat_pairs.matches + 1, rating = stat_pairs.rating + excluded.rating,
                goats = stat_pairs.goats + excluded.goats, wins = stat_pairs.wins + excluded.wins,
                points_sum = stat_pairs.points_sum + excluded.points_sum
            """,
            writes,
        )


# Reading -----------------------------------------------------------------------


def _shown(users: str, fallback: str) -> str:
    """SQL for a person's name as last seen (UserRecord.display_name) from the `users`
    row aliased `users`, or `fallback` when the bot never saw them."""
    return (
        f"COALESCE({users}.first_name || COALESCE(' ' || NULLIF({users}.last_name, ''), ''),"
        f" {fallback})"
    )


def _check_page(offset: int, limit: int) -> None:
    if offset < 0 or limit < 1:
        raise ValueError(f"a page needs offset >= 0 and limit >= 1, not {offset} and {limit}")


async def games_of_group(db: Reader, chat_id: int) -> tuple[Variant, ...]:
    """The games with a recorded match in the group, in the registry's order (one seek
    in the history index per game)."""
    exists = "EXISTS (SELECT 1 FROM stat_matches WHERE chat_id = ? AND variant = ?)"
    row = await db.fetch_one(
        f"SELECT {', '.join([exists] * len(VARIANTS))}",
        [value for game in VARIANTS for value in (chat_id, game.key.value)],
    )
    assert row is not None, "a SELECT without FROM gives one row"
    return tuple(game.key for index, game in enumerate(VARIANTS) if row[index])


async def games_of_player(db: Reader, user_id: int, chat_id: int | None) -> tuple[Variant, ...]:
    """The games a person has a recorded match of, in one group (None: in any), in the
    registry's order."""
    rows = await db.fetch_all(
        "SELECT game FROM stat_players WHERE scope = ? AND user_id = ?",
        (0 if chat_id is None else chat_id, user_id),
    )
    found = {row["game"] for row in rows}
    return tuple(game.key for game in VARIANTS if game.key.value in found)


async def leaderboard(
    db: Reader, chat_id: int, *, game: Variant, offset: int = 0, limit: int = 10
) -> Page[LeaderRow]:
    """The group's board of one game (chat_id 0: all groups), `limit` rows from `offset`."""
    _check_page(offset, limit)
    total = await db.fetch_one(
        "SELECT COUNT(*) FROM stat_players WHERE scope = ? AND game = ?", (chat_id, game.value)
    )
    rows = await db.fetch_all(
        f"""
        SELECT p.user_id, p.rating, p.elo, p.matches, p.goats, p.wins, p.fish_made,
               p.points_sum, {_shown("u", "p.name")} AS shown
        FROM stat_players p LEFT JOIN users u ON u.id = p.user_id
        WHERE p.scope = ? AND p.game = ?
        ORDER BY p.rating DESC, p.matches, p.elo DESC NULLS LAST, p.user_id
        LIMIT ? OFFSET ?
        """,
        (chat_id, game.value, limit, offset),
    )
    return Page(
        rows=tuple(
            LeaderRow(
                place=offset + index + 1,
                user_id=row["user_id"],
                name=row["shown"],
                rating=row["rating"],
                elo=None if row["elo"] is None else round(row["elo"]),
                matches=row["matches"],
                goats=row["goats"],
                fish_made=row["fish_made"],
                avg_points=row["points_sum"] / row["matches"],
                wins=row["wins"],
            )
            for index, row in enumerate(rows)
        ),
        total=total[0] if total else 0,
        offset=offset,
        limit=limit,
    )


async def pair_leaderboard(
    db: Reader, chat_id: int, *, game: Variant, offset: int = 0, limit: int = 10
) -> Page[PairRow]:
    """The group's board of partners in one game's team play (chat_id 0: all groups)."""
    _check_page(offset, limit)
    total = await db.fetch_one(
        "SELECT COUNT(*) FROM stat_pairs WHERE scope = ? AND game = ?", (chat_id, game.value)
    )
    rows = await db.fetch_all(
        f"""
        SELECT p.user_lo, p.user_hi, p.rating, p.matches, p.goats, p.wins, p.points_sum,
               {_shown("u", "lo.name")} AS name_lo,
               {_shown("v", "hi.name")} AS name_hi
        FROM stat_pairs p
        LEFT JOIN users u ON u.id = p.user_lo
        LEFT JOIN users v ON v.id = p.user_hi
        LEFT JOIN stat_players lo
               ON lo.scope = p.scope AND lo.user_id = p.user_lo AND lo.game = p.game
        LEFT JOIN stat_players hi
               ON hi.scope = p.scope AND hi.user_id = p.user_hi AND hi.game = p.game
        WHERE p.scope = ? AND p.game = ?
        ORDER BY p.rating DESC, p.matches, p.user_lo, p.user_hi
        LIMIT ? OFFSET ?
        """,
        (chat_id, game.value, limit, offset),
    )
    return Page(
        rows=tuple(
            PairRow(
                place=offset + index + 1,
                user_ids=(row["user_lo"], row["user_hi"]),
                names=(row["name_lo"] or "?", row["name_hi"] or "?"),
                rating=row["rating"],
                matches=row["matches"],
                goats=row["goats"],
                avg_points=row["points_sum"] / row["matches"],
                wins=row["wins"],
            )
            for index, row in enumerate(rows)
        ),
        total=total[0] if total else 0,
        offset=offset,
        limit=limit,
    )


async def player_stats(
    db: Reader, user_id: int, chat_id: int | None, *, game: Variant
) -> PlayerStats | None:
    """A person's stats in one game in one group (chat_id None: across all groups);
    None if they have no recorded match of it there."""
    scope = 0 if chat_id is None else chat_id
    row = await db.fetch_one(
        f"""
        SELECT p.*, {_shown("u", "p.name")} AS shown
        FROM stat_players p LEFT JOIN users u ON u.id = p.user_id
        WHERE p.scope = ? AND p.user_id = ? AND p.game = ?
        """,
        (scope, user_id, game.value),
    )
    if row is None:
        return None
    return PlayerStats(
        user_id=user_id,
        name=row["shown"],
        chat_id=chat_id,
        matches=row["matches"],
        rating=row["rating"],
        elo=None if row["elo"] is None else round(row["elo"]),
        goats=row["goats"],
        went_out=row["went_out"],
        fish_made=row["fish_made"],
        eggs_taken=row["eggs_taken"],
        best=await _extreme_match(db, user_id, chat_id, game, "MAX"),
        worst=await _extreme_match(db, user_id, chat_id, game, "MIN"),
        streak=row["streak"],
        game=game,
        wins=row["wins"],
        hints=row["hints"],
        draws=row["draws"],
    )


async def _extreme_match(
    db: Reader, user_id: int, chat_id: int | None, game: Variant, extreme: str
) -> MatchLine | None:
    """The latest of the person's matches of `game` with the largest (MAX) or smallest
    (MIN) rating gain: two seeks in the index (user_id[, chat_id], variant, rating_gain,
    game_id)."""
    scope = "" if chat_id is None else " AND chat_id = ?"
    where = f"user_id = ?{scope} AND variant = ?"
    params = (user_id, game.value) if chat_id is None else (user_id, chat_id, game.value)
    row = await db.fetch_one(
        f"""
        SELECT s.game_id, s.chat_id, s.points, s.rating_gain, s.goat, m.ended_at
        FROM stat_seats s JOIN stat_matches m ON m.game_id = s.game_id
        WHERE s.{where.replace(" AND ", " AND s.")}
          AND s.rating_gain = (SELECT {extreme}(rating_gain) FROM stat_seats WHERE {where})
        ORDER BY s.game_id DESC
        LIMIT 1
        """,
        (*params, *params),
    )
    if row is None:
        return None
    return MatchLine(
        game_id=row["game_id"],
        chat_id=row["chat_id"],
        ended_at=_time(row["ended_at"]),
        points=row["points"],
        rating_gain=row["rating_gain"],
        goat=bool(row["goat"]),
    )


async def history(
    db: Reader, chat_id: int, *, game: Variant, offset: int = 0, limit: int = 10
) -> Page[HistoryEntry]:
    """The group's recorded matches of one game, the latest first, each with its number
    among them (`match_number`): the latest is number `total`."""
    _check_page(offset, limit)
    total = await db.fetch_one(
        "SELECT COUNT(*) FROM stat_matches WHERE chat_id = ? AND variant = ?",
        (chat_id, game.value),
    )
    rows = await db.fetch_all(
        """
        SELECT game_id, ended_at, variant, ending, rounds FROM stat_matches
        WHERE chat_id = ? AND variant = ?
        ORDER BY ended_at DESC, game_id DESC LIMIT ? OFFSET ?
        """,
        (chat_id, game.value, limit, offset),
    )
    players = await _players_of(db, [row["game_id"] for row in rows])
    count = total[0] if total else 0
    return Page(
        rows=tuple(
            HistoryEntry(
                game_id=row["game_id"],
                ended_at=_time(row["ended_at"]),
                variant=Variant(row["variant"]),
                ending=Ending(row["ending"]),
                rounds=row["rounds"],
                players=players.get(row["game_id"], ()),
                number=count - offset - index,
            )
            for index, row in enumerate(rows)
        ),
        total=count,
        offset=offset,
        limit=limit,
    )


async def _players_of(db: Reader, game_ids: Sequence[int]) -> dict[int, tuple[HistoryPlayer, ...]]:
    if not game_ids:
        return {}
    marks = ", ".join("?" * len(game_ids))
    rows = await db.fetch_all(
        f"""
        SELECT s.game_id, s.user_id, s.points, s.goat, s.won, s.rating_gain,
               CASE WHEN s.user_id IS NULL THEN s.name
                    ELSE {_shown("u", "s.name")} END AS shown
        FROM stat_seats s LEFT JOIN users u ON u.id = s.user_id
        WHERE s.game_id IN ({marks}) ORDER BY s.game_id, s.seat
        """,
        tuple(game_ids),
    )
    found: dict[int, list[HistoryPlayer]] = {}
    for row in rows:
        found.setdefault(row["game_id"], []).append(
            HistoryPlayer(
                name=row["shown"],
                user_id=row["user_id"],
                points=row["points"],
                goat=bool(row["goat"]),
                rating_gain=row["rating_gain"],
                won=bool(row["won"]),
            )
        )
    return {game_id: tuple(players) for game_id, players in found.items()}


async def match_number(db: Reader, chat_id: int, game: Variant, ended_at: str, game_id: int) -> int:
    """Which of the group's recorded matches of `game` the one that ended at `ended_at`
    (as stored) was, counted from 1 in the order they ended (ties by id), as /history
    lists them: only recorded matches count, never a lobby closed unplayed, another
    game's match or another group's, so the list and the sheet say the same number."""
    row = await db.fetch_one(
        """
        SELECT COUNT(*) FROM stat_matches
        WHERE chat_id = ? AND variant = ?
          AND (ended_at < ? OR (ended_at = ? AND game_id <= ?))
        """,
        (chat_id, game.value, ended_at, ended_at, game_id),
    )
    return row[0] if row else 0


async def match_sheet(db: Reader, game_id: int) -> MatchSheet | None:
    """One recorded match round by round; None if no such match was recorded."""
    row = await db.fetch_one("SELECT * FROM stat_matches WHERE game_id = ?", (game_id,))
    if row is None:
        return None
    players = await _players_of(db, [game_id])
    rounds = await db.fetch_all(
        "SELECT * FROM stat_rounds WHERE game_id = ? ORDER BY round_no", (game_id,)
    )
    variant = Variant(row["variant"])
    number = await match_number(db, row["chat_id"], variant, row["ended_at"], game_id)
    return MatchSheet(
        game_id=game_id,
        chat_id=row["chat_id"],
        variant=variant,
        target=row["target"],
        teams=bool(row["teams"]),
        started_at=_time(row["started_at"]) if row["started_at"] else None,
        ended_at=_time(row["ended_at"]),
        ending=Ending(row["ending"]),
        players=players.get(game_id, ()),
        sides=tuple(tuple(side) for side in json.loads(row["sides"])),
        rounds=tuple(
            SheetRound(
                round_no=r["round_no"],
                outcome=OutcomeKind(r["outcome"]),
                seat=r["seat"],
                points=tuple(json.loads(r["points"])),
                totals=tuple(json.loads(r["totals"])),
                eggs_after=r["eggs_after"],
            )
            for r in rounds
        ),
        number=number,
    )
