"""Match records, K-11 rating, Elo and the stats queries, on whole matches played out
by computer players against a temporary database file."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.app import standings
from domino import elo
from domino.match import Match
from domino.players import GreedyPlayer
from domino.rating import classic_rating_gains, rating_gains
from domino.rules import CLASSIC, KOZEL, Ruleset, Variant
from domino.simulate import play_match
from domino.views import OutcomeKind
from storage import repo, stats
from storage.connect import open_database
from storage.db import Database, Transaction
from storage.records import (
    Abandonment,
    ChatRecord,
    Ending,
    GameRecord,
    GameStatus,
    SeatRecord,
    UserRecord,
)

GROUP = -1001
OTHER_GROUP = -1002
ALEX, MASHA, OLYA, PETYA = 11, 12, 13, 14
NAMES = {ALEX: "Alex", MASHA: "Маша", OLYA: "Оля 🌸", PETYA: "Петя"}
START = datetime(2026, 11, 1, 18, 0, tzinfo=UTC)

K, C = Variant.KOZEL, Variant.CLASSIC
NO_THIRTEEN = KOZEL.with_options(open_threshold=0)
TEAMS = KOZEL.with_options(teams=True)


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_database(tmp_path / "bot.sqlite3")
    async with database.transaction() as tx:
        for chat_id in (GROUP, OTHER_GROUP):
            await repo.upsert_chat(tx, ChatRecord(chat_id, "supergroup", "Дворик"))
        for user_id, name in NAMES.items():
            await repo.upsert_user(tx, UserRecord(user_id, name))
    yield database
    await database.close()


_PLAYED: dict[tuple[str, int, int, int | None], Match] = {}


def played(ruleset: Ruleset, players: int, seed: int, moves: int | None = None) -> Match:
    """A real match between greedy computer players: to its end, or its first `moves`.
    Kept for the other tests (stats never change a match)."""
    key = (json.dumps(ruleset.to_dict(), sort_keys=True), players, seed, moves)
    if key not in _PLAYED:
        _PLAYED[key] = _play(ruleset, players, seed, moves)
    return _PLAYED[key]


def _play(ruleset: Ruleset, players: int, seed: int, moves: int | None) -> Match:
    greedy = GreedyPlayer()
    match = Match.new(ruleset, players, seed)
    if moves is None:
        return play_match(match, [greedy] * players)
    for _ in range(moves):
        seat = match.turn
        assert seat is not None
        match.apply(greedy.choose(match.view(seat)), seat)
    return match


def game(
    game_id: int,
    match: Match,
    people: Sequence[int | None],
    *,
    chat_id: int = GROUP,
    status: GameStatus = GameStatus.FINISHED,
    ending: Ending | None = None,
    abandonment: Abandonment | None = None,
) -> GameRecord:
    """A game record around `match`; None in `people` is a computer from the start."""
    seats = tuple(
        SeatRecord(seat, user_id, NAMES.get(user_id, f"Игрок {user_id}") if user_id else "🤖 Бот")
        for seat, user_id in enumerate(people)
    )
    if ending is None:
        ending = Ending.FINISHED if status is GameStatus.FINISHED else Ending.CANCELLED
    return GameRecord(
        id=game_id,
        chat_id=chat_id,
        status=status,
        creator_id=ALEX,
        ruleset=match.ruleset,
        seats_wanted=len(people),
        seats=seats,
        match=match,
        started_at=START + timedelta(hours=game_id),
        ended_at=START + timedelta(hours=game_id, minutes=30),
        ending=ending,
        abandonment=abandonment,
    )


async def record(db: Database, *games: GameRecord) -> list[bool]:
    """Record each game as the bot does, counted by its standings (False: it does not
    count, or was recorded before)."""
    async with db.transaction() as tx:
        return [await record_one(tx, g) for g in games]


async def record_one(tx: Transaction, game: GameRecord) -> bool:
    scored = standings.score(game)
    return scored is not None and await stats.record_match(tx, game, scored)


async def rating_of(
    db: Database, user_id: int, chat_id: int | None = GROUP, game: Variant = Variant.KOZEL
) -> int:
    found = await stats.player_stats(db, user_id, chat_id, game=game)
    assert found is not None
    return found.rating


# K-11 ---------------------------------------------------------------------------


async def test_k11_25_points_gain_8(db: Database) -> None:
    match = played(KOZEL, 3, 56)
    assert match.seat_points() == (124, 25, 0)  # a real match that ends with 25 for seat 1
    assert await record(db, game(1, match, (ALEX, MASHA, OLYA))) == [True]
    board = await stats.leaderboard(db, GROUP, game=K)
    assert [(r.name, r.rating, r.goats, r.avg_points) for r in board.rows] == [
        ("Оля 🌸", 10, 0, 0.0),
        ("Маша", 8, 0, 25.0),
        ("Alex", 1, 1, 124.0),  # (100 - 124) / 10 is negative: the minimum 1
    ]
    assert [r.place for r in board.rows] == [1, 2, 3]
    assert board.rows[2].not_goat_share == 0.0 and board.rows[0].not_goat_share == 1.0


async def test_k11_timeout_rule(db: Database) -> None:
    """Alex timed out with 32; Masha with 30 gains 1, Olya with 13 gains 2 (K-11)."""
    match = played(NO_THIRTEEN, 4, 163, moves=181)  # a real match, three rounds in
    assert match.seat_points() == (30, 47, 13, 32) and not match.over
    timed_out = Abandonment(3, Ending.TIMEOUT, match.seat_points())
    cancelled = game(
        1, match, (MASHA, PETYA, OLYA, ALEX), status=GameStatus.CANCELLED, abandonment=timed_out
    )
    assert await record(db, cancelled) == [True]
    assert [await rating_of(db, u) for u in (MASHA, PETYA, OLYA, ALEX)] == [1, 1, 2, 0]
    alex = await stats.player_stats(db, ALEX, GROUP, game=K)
    assert alex is not None and alex.goats == 1 and alex.streak == -1
    entry = (await stats.history(db, GROUP, game=K)).rows[0]
    assert entry.ending is Ending.TIMEOUT
    assert [(p.name, p.goat, p.rating_gain) for p in entry.players] == [
        ("Маша", False, 1),
        ("Петя", False, 1),
        ("Оля 🌸", False, 2),
        ("Alex", True, 0),
    ]
    # Elo: places by the points then, Alex last whatever his points: Оля, Маша, Петя, Alex
    expected = elo.updated((elo.START,) * 4, (1, 2, 0, 3))
    for user_id, rating in zip((MASHA, PETYA, OLYA, ALEX), expected, strict=True):
        found = await stats.player_stats(db, user_id, GROUP, game=K)
        assert found is not None and found.elo == round(rating)


async def test_a_match_finished_after_someone_left_is_scored_by_the_timeout_rule(
    db: Database,
) -> None:
    partial = played(NO_THIRTEEN, 4, 163, moves=181)
    whole = played(NO_THIRTEEN, 4, 163)
    left = Abandonment(3, Ending.LEFT, partial.seat_points(), rounds=len(partial.results))
    assert Abandonment.from_dict(left.to_dict()) == left
    assert await record(db, game(1, whole, (MASHA, PETYA, OLYA, ALEX), abandonment=left))
    assert [await rating_of(db, u) for u in (MASHA, PETYA, OLYA, ALEX)] == [1, 1, 2, 0]
    sheet = await stats.match_sheet(db, 1)
    assert sheet is not None and sheet.ending is Ending.FINISHED
    assert [p.goat for p in sheet.players] == [False, False, False, True]
    # Alex made a fish and went out in the 7 rounds before he left; the computer made
    # another fish in his seat in round 8: not his.
    outcomes = [(r.outcome.kind, r.outcome.seat) for r in whole.results]
    assert outcomes[:7].count((OutcomeKind.FISH, 3)) == 1 and (OutcomeKind.FISH, 3) in outcomes[7:]
    alex = await stats.player_stats(db, ALEX, GROUP, game=K)
    assert alex is not None and (alex.went_out, alex.fish_made) == (1, 1)


# What is recorded ---------------------------------------------------------------


async def test_record_match_is_idempotent(db: Database) -> None:
    finished = game(1, played(KOZEL, 3, 56), (ALEX, MASHA, OLYA))
    assert await record(db, finished, finished) == [True, False]
    assert await record(db, finished) == [False]
    masha = await stats.player_stats(db, MASHA, GROUP, game=K)
    assert masha is not None and (masha.matches, masha.rating) == (1, 8)
    assert (await stats.history(db, GROUP, game=K)).total == 1


async def test_cancelled_without_abandonment_and_lobbies_are_not_counted(db: Database) -> None:
    match = played(KOZEL, 3, 56, moves=30)
    cancelled = game(1, match, (ALEX, MASHA, OLYA), status=GameStatus.CANCELLED)
    lobby = dataclasses.replace(cancelled, id=2, match=None)
    playing = dataclasses.replace(cancelled, id=3, status=GameStatus.PLAYING, ending=None)
    assert await record(db, cancelled, lobby, playing) == [False, False, False]
    assert (await stats.leaderboard(db, GROUP, game=K)).total == 0
    assert (await stats.history(db, GROUP, game=K)).total == 0
    assert await stats.player_stats(db, ALEX, GROUP, game=K) is None
    assert await stats.match_sheet(db, 1) is None


async def test_surrender_makes_the_surrenderer_the_goat(db: Database) -> None:
    match = played(KOZEL, 3, 56, moves=40)
    points = match.seat_points()
    surrendered = game(
        1,
        match,
        (ALEX, MASHA, OLYA),
        ending=Ending.SURRENDER,
        abandonment=Abandonment(1, Ending.SURRENDER, points),
    )
    assert await record(db, surrendered) == [True]
    entry = (await stats.history(db, GROUP, game=K)).rows[0]
    assert entry.ending is Ending.SURRENDER
    assert [p.goat for p in entry.players] == [False, True, False]
    assert [p.rating_gain for p in entry.players][1] == 0
    anonymous = dataclasses.replace(surrendered, id=2, abandonment=None)
    with pytest.raises(ValueError, match="surrender but names no abandonment"):
        await record(db, anonymous)


async def test_a_team_culprit_takes_the_partner_down_as_goat(db: Database) -> None:
    match = played(TEAMS, 4, 7, moves=44)  # two rounds in: (0, 88, 0, 88)
    assert match.seat_points() == (0, 88, 0, 88)
    quit_ = Abandonment(2, Ending.LEFT, match.seat_points())
    gone = game(
        1, match, (ALEX, MASHA, OLYA, PETYA), status=GameStatus.CANCELLED, abandonment=quit_
    )
    assert await record(db, gone) == [True]
    entry = (await stats.history(db, GROUP, game=K)).rows[0]
    assert entry.ending is Ending.LEFT
    assert [p.goat for p in entry.players] == [True, False, True, False]
    pairs = await stats.pair_leaderboard(db, GROUP, game=K)
    # the culprit's pair gains the culprit's 0; the other pair the K-11 timeout amount
    assert {r.user_ids: (r.rating, r.goats) for r in pairs.rows} == {
        (ALEX, OLYA): (0, 1),
        (MASHA, PETYA): (1, 0),
    }


# Козёл, Классика, Elo -----------------------------------------------------------


async def test_kozel_goat_rating_and_round_counts_follow_the_match(db: Database) -> None:
    match = played(KOZEL, 4, 3)
    assert await record(db, game(1, match, (ALEX, MASHA, OLYA, PETYA))) == [True]
    gains = rating_gains(match.seat_points())
    for seat, user_id in enumerate((ALEX, MASHA, OLYA, PETYA)):
        found = await stats.player_stats(db, user_id, GROUP, game=K)
        assert found is not None
        results = match.results
        assert found.rating == gains[seat]
        assert found.goats == int(match.side_of(seat) in match.losers)
        assert found.went_out == sum(
            r.outcome.kind is OutcomeKind.WENT_OUT and r.outcome.seat == seat for r in results
        )
        assert found.fish_made == sum(
            r.outcome.kind is OutcomeKind.FISH and r.outcome.seat == seat for r in results
        )
        assert found.eggs_taken == sum(r.eggs_taken_by == match.side_of(seat) for r in results)


async def test_classic_goat_is_the_last_place(db: Database) -> None:
    match = played(CLASSIC, 3, 5)
    points = match.seat_points()
    assert await record(db, game(1, match, (ALEX, MASHA, OLYA))) == [True]
    entry = (await stats.history(db, GROUP, game=C)).rows[0]
    assert entry.variant is Variant.CLASSIC
    assert [p.goat for p in entry.players] == [p == min(points) for p in points]
    assert [p.won for p in entry.players] == [p == max(points) for p in points]
    assert [p.rating_gain for p in entry.players] == list(classic_rating_gains(points))
    # Классика: more points place higher in Elo
    expected = elo.updated((elo.START,) * 3, elo.places(points, fewer_is_better=False))
    found = await stats.player_stats(db, ALEX, None, game=C)
    assert found is not None and found.elo == round(expected[0])


async def test_classic_mirrors_the_timeout_rule(db: Database) -> None:
    match = played(CLASSIC, 3, 5, moves=104)  # four rounds in
    assert match.seat_points() == (0, 35, 88)
    gave_up = Abandonment(1, Ending.TIMEOUT, match.seat_points())
    cancelled = game(
        1, match, (ALEX, MASHA, OLYA), status=GameStatus.CANCELLED, abandonment=gave_up
    )
    assert await record(db, cancelled) == [True]
    # points are good: max(1, round_half_up((points - 35) / 10)): 0 -> 1, 88 -> 5
    assert [await rating_of(db, u, game=C) for u in (ALEX, MASHA, OLYA)] == [1, 0, 5]
    entry = (await stats.history(db, GROUP, game=C)).rows[0]
    assert [p.goat for p in entry.players] == [False, True, False]
    assert [p.won for p in entry.players] == [False, False, True]  # Оля led when Маша left
    expected = elo.updated((elo.START,) * 3, (1, 2, 0))  # Оля, Alex, then Маша, who timed out
    masha = await stats.player_stats(db, MASHA, GROUP, game=C)
    assert masha is not None and masha.elo == round(expected[1]) < 1500


async def test_elo_two_people_and_none_with_a_computer(db: Database) -> None:
    match = played(KOZEL, 2, 1)
    loser = match.losers[0]
    people = (ALEX, MASHA)
    with_bot = game(2, played(KOZEL, 3, 56), (OLYA, None, PETYA))
    assert await record(db, game(1, match, people), with_bot) == [True, True]
    for scope in (GROUP, None):
        for seat, user_id in enumerate(people):
            found = await stats.player_stats(db, user_id, scope, game=K)
            assert found is not None and found.elo == (1484 if seat == loser else 1516)
    petya = await stats.player_stats(db, PETYA, GROUP, game=K)
    assert petya is not None and petya.elo is None and petya.rating == 10
    board = await stats.leaderboard(db, GROUP, game=K)
    assert len(board.rows) == 4  # the computer has no row


async def test_group_and_overall_totals_are_kept_apart(db: Database) -> None:
    first = game(1, played(KOZEL, 2, 1), (ALEX, MASHA))
    second = game(2, played(KOZEL, 2, 2), (ALEX, MASHA), chat_id=OTHER_GROUP)
    assert await record(db, first, second) == [True, True]
    here = await stats.player_stats(db, ALEX, GROUP, game=K)
    there = await stats.player_stats(db, ALEX, OTHER_GROUP, game=K)
    overall = await stats.player_stats(db, ALEX, None, game=K)
    assert here and there and overall
    assert (here.matches, there.matches, overall.matches) == (1, 1, 2)
    assert overall.rating == here.rating + there.rating
    assert overall.chat_id is None and here.chat_id == GROUP
    assert (await stats.leaderboard(db, 0, game=K)).total == 2  # 0: all groups
    assert [e.game_id for e in (await stats.history(db, OTHER_GROUP, game=K)).rows] == [2]


# Pairs, names, pages, /stats ----------------------------------------------------


async def test_pairs_are_the_same_two_people_whatever_their_seats(db: Database) -> None:
    match = played(TEAMS, 4, 7)
    first = game(1, match, (ALEX, MASHA, OLYA, PETYA))  # Alex+Olya against Masha+Petya
    second = game(2, match, (MASHA, OLYA, PETYA, ALEX))  # Masha+Petya against Olya+Alex
    assert await record(db, first, second) == [True, True]
    pairs = await stats.pair_leaderboard(db, GROUP, game=K)
    assert pairs.total == 2
    by_ids = {row.user_ids: row for row in pairs.rows}
    assert set(by_ids) == {(ALEX, OLYA), (MASHA, PETYA)}
    assert by_ids[(ALEX, OLYA)].names == ("Alex", "Оля 🌸")
    gains = match.rating()
    alex_olya = by_ids[(ALEX, OLYA)]
    assert alex_olya.matches == 2
    assert alex_olya.rating == gains[0] + gains[1]  # seats 0+2, then seats 1+3
    assert alex_olya.goats == int(0 in match.losers) + int(1 in match.losers)


async def test_names_are_the_last_seen_ones(db: Database) -> None:
    assert await record(db, game(1, played(KOZEL, 3, 56), (ALEX, MASHA, OLYA)))
    async with db.transaction() as tx:  # Маша renames herself, then leaves the group
        await repo.upsert_user(tx, UserRecord(MASHA, "Мария", "Иванова 👑"))
    board = await stats.leaderboard(db, GROUP, game=K)
    assert "Мария Иванова 👑" in [row.name for row in board.rows]
    found = await stats.player_stats(db, MASHA, GROUP, game=K)
    assert found is not None and found.name == "Мария Иванова 👑"
    sheet = await stats.match_sheet(db, 1)
    assert sheet is not None and sheet.players[1].name == "Мария Иванова 👑"


async def test_paging(db: Database) -> None:
    people = list(range(100, 112))
    async with db.transaction() as tx:
        for user_id in people:
            await repo.upsert_user(tx, UserRecord(user_id, f"Игрок {user_id}"))
    games = [
        game(index + 1, played(KOZEL, 3, seed), people[index * 3 : index * 3 + 3])
        for index, seed in enumerate((56, 1, 2, 3))
    ]
    assert await record(db, *games) == [True] * 4
    first = await stats.leaderboard(db, GROUP, limit=5, game=K)
    last = await stats.leaderboard(db, GROUP, offset=10, limit=5, game=K)
    assert (first.total, first.pages, first.page_no, first.has_prev, first.has_next) == (
        12,
        3,
        1,
        False,
        True,
    )
    assert (last.page_no, last.has_prev, last.has_next) == (3, True, False)
    assert [r.place for r in last.rows] == [11, 12]
    ratings = [r.rating for r in first.rows] + [r.rating for r in last.rows]
    assert ratings == sorted(ratings, reverse=True)
    every = (await stats.leaderboard(db, GROUP, limit=50, game=K)).rows
    assert len({r.user_id for r in every}) == 12
    recent = await stats.history(db, GROUP, offset=1, limit=2, game=K)
    assert [e.game_id for e in recent.rows] == [3, 2] and recent.total == 4
    with pytest.raises(ValueError, match="limit >= 1"):
        await stats.history(db, GROUP, limit=0, game=K)


async def test_streak_best_and_worst(db: Database) -> None:
    # Alex (seat 0) is козёл in the 3rd, 4th, 6th, 7th and 8th: three in a row at the end
    seeds = (8, 3, 1, 2, 4, 5, 6, 7)
    games = [game(i + 1, played(KOZEL, 2, seed), (ALEX, MASHA)) for i, seed in enumerate(seeds)]
    assert await record(db, *games) == [True] * len(games)
    lines = [
        (g.id, g.match.seat_points()[0], g.match.rating()[0], 0 in g.match.losers)
        for g in games
        if g.match
    ]
    goats = [goat for *_, goat in lines]
    latest = goats[-1]
    run = len(goats) - next((i + 1 for i in reversed(range(len(goats))) if goats[i] != latest), 0)
    found = await stats.player_stats(db, ALEX, GROUP, game=K)
    assert found is not None
    assert found.streak == (-run if latest else run) == -3
    assert found.goats == sum(goats) and found.matches == len(games)
    best_gain = max(gain for _, _, gain, _ in lines)
    worst_gain = min(gain for _, _, gain, _ in lines)
    best_id = max(i for i, _, gain, _ in lines if gain == best_gain)
    worst_id = max(i for i, _, gain, _ in lines if gain == worst_gain)
    assert found.best is not None and found.worst is not None
    assert (found.best.game_id, found.best.rating_gain) == (best_id, best_gain) == (1, 10)
    assert (found.worst.game_id, found.worst.rating_gain) == (worst_id, worst_gain) == (8, 1)
    assert found.best.ended_at == games[best_id - 1].ended_at
    assert found.worst.goat == lines[worst_id - 1][3]


async def test_the_match_sheet_is_the_match_round_by_round(db: Database) -> None:
    match = played(TEAMS, 4, 7)
    assert await record(db, game(1, match, (ALEX, MASHA, OLYA, PETYA)))
    sheet = await stats.match_sheet(db, 1)
    assert sheet is not None
    assert (sheet.variant, sheet.target, sheet.teams) == (Variant.KOZEL, 101, True)
    assert sheet.sides == ((0, 2), (1, 3))
    assert sheet.started_at == START + timedelta(hours=1)
    assert len(sheet.rounds) == len(match.results)
    for line, result in zip(sheet.rounds, match.results, strict=True):
        assert (line.round_no, line.outcome, line.seat) == (
            result.round_no,
            result.outcome.kind,
            result.outcome.seat,
        )
        assert line.points == result.points
        assert line.totals == tuple(a.recorded for a in result.after)
        assert line.eggs_after == result.eggs_after
    assert sheet.rounds[-1].totals == tuple(a.recorded for a in match.scores)


# Per game -----------------------------------------------------------------------


async def test_each_game_has_its_own_board_history_ratings_and_elo(db: Database) -> None:
    kozel = played(KOZEL, 2, 1)
    classic = played(CLASSIC, 3, 5)
    assert await record(
        db, game(1, kozel, (ALEX, MASHA)), game(2, classic, (ALEX, MASHA, OLYA))
    ) == [True, True]
    assert await stats.games_of_group(db, GROUP) == (K, C)
    assert await stats.games_of_group(db, OTHER_GROUP) == ()
    assert await stats.games_of_player(db, OLYA, GROUP) == (C,)
    assert await stats.games_of_player(db, ALEX, None) == (K, C)
    assert await stats.games_of_player(db, PETYA, None) == ()

    kozel_board = await stats.leaderboard(db, GROUP, game=K)
    assert {r.user_id: (r.matches, r.rating) for r in kozel_board.rows} == {
        ALEX: (1, kozel.rating()[0]),
        MASHA: (1, kozel.rating()[1]),
    }
    classic_board = await stats.leaderboard(db, GROUP, game=C)
    winners = {seat for side in classic.winners for seat in classic.sides[side]}
    assert {r.user_id: (r.matches, r.rating, r.wins) for r in classic_board.rows} == {
        user: (1, classic.rating()[seat], int(seat in winners))
        for seat, user in enumerate((ALEX, MASHA, OLYA))
    }
    assert [e.game_id for e in (await stats.history(db, GROUP, game=K)).rows] == [1]
    assert [e.game_id for e in (await stats.history(db, GROUP, game=C)).rows] == [2]

    # Elo per game: Классика's starts from 1500 whatever Козёл did before it.
    places = elo.places(classic.seat_points(), fewer_is_better=False)
    expected = elo.updated((elo.START,) * 3, places)
    for scope in (GROUP, None):
        for seat, user in enumerate((ALEX, MASHA, OLYA)):
            found = await stats.player_stats(db, user, scope, game=C)
            assert found is not None and found.elo == round(expected[seat])
            assert found.game is C and found.best is not None and found.best.game_id == 2
        alex = await stats.player_stats(db, ALEX, scope, game=K)
        assert alex is not None and alex.elo in (1484, 1516) and alex.matches == 1
        assert alex.best is not None and alex.best.game_id == 1
    assert await stats.player_stats(db, OLYA, GROUP, game=K) is None


async def test_where_points_are_good_the_streak_counts_wins(db: Database) -> None:
    seeds = (1, 2, 3, 4, 5, 6)
    games = [game(i + 1, played(CLASSIC, 2, s), (ALEX, MASHA)) for i, s in enumerate(seeds)]
    assert await record(db, *games) == [True] * len(games)
    won = [0 in g.match.winners for g in games if g.match]
    latest = won[-1]
    run = len(won) - next((i + 1 for i in reversed(range(len(won))) if won[i] != latest), 0)
    found = await stats.player_stats(db, ALEX, GROUP, game=C)
    assert found is not None
    assert (found.wins, found.matches) == (sum(won), len(won))
    assert found.streak == (run if latest else -run)
    pairs_of_kozel = await stats.pair_leaderboard(db, GROUP, game=K)
    assert pairs_of_kozel.total == 0


async def test_pairs_are_kept_per_game(db: Database) -> None:
    teams = played(TEAMS, 4, 7)
    assert await record(db, game(1, teams, (ALEX, MASHA, OLYA, PETYA)))
    assert (await stats.pair_leaderboard(db, GROUP, game=K)).total == 2
    assert (await stats.pair_leaderboard(db, GROUP, game=C)).total == 0
    rows = (await stats.pair_leaderboard(db, GROUP, game=K)).rows
    winners = elo.places(teams.seat_points(), fewer_is_better=True)
    assert {r.user_ids: r.wins for r in rows} == {
        (ALEX, OLYA): int(winners[0] == 0),
        (MASHA, PETYA): int(winners[1] == 0),
    }


async def test_history_and_sheet_number_a_match_alike_among_the_groups_own(
    db: Database,
) -> None:
    """A match is numbered among the group's recorded matches of its game, in the order
    they ended: ids taken by a lobby closed unplayed, another group's match or another
    game's do not count, and the list and the sheet say the same number."""
    async with db.transaction() as tx:  # a lobby closed unplayed takes game id 1
        lobby = await repo.create_game(
            tx, chat_id=GROUP, creator_id=ALEX, ruleset=KOZEL, seats_wanted=2
        )
    assert lobby.id == 1
    assert (
        await record(
            db,
            game(2, played(KOZEL, 2, 1), (ALEX, MASHA)),
            game(3, played(KOZEL, 2, 2), (ALEX, MASHA), chat_id=OTHER_GROUP),
            game(4, played(CLASSIC, 3, 5), (ALEX, MASHA, OLYA)),
            game(5, played(KOZEL, 2, 3), (ALEX, MASHA)),
            game(6, played(KOZEL, 2, 4), (ALEX, MASHA)),
        )
        == [True] * 5
    )
    listed = await stats.history(db, GROUP, game=K)
    assert [(e.game_id, e.number) for e in listed.rows] == [(6, 3), (5, 2), (2, 1)]
    paged = await stats.history(db, GROUP, game=K, offset=1, limit=1)
    assert [(e.game_id, e.number) for e in paged.rows] == [(5, 2)]
    assert [e.number for e in (await stats.history(db, GROUP, game=C)).rows] == [1]
    assert [e.number for e in (await stats.history(db, OTHER_GROUP, game=K)).rows] == [1]
    for game_id, number in ((2, 1), (5, 2), (6, 3), (4, 1), (3, 1)):
        sheet = await stats.match_sheet(db, game_id)
        assert sheet is not None and sheet.number == number, game_id


async def test_a_draw_is_its_own_column_changes_no_rating_and_is_an_elo_draw(
    db: Database,
) -> None:
    won = game(1, played(KOZEL, 2, 1), (ALEX, MASHA))
    assert await record(db, won) == [True]
    before = {u: await stats.player_stats(db, u, GROUP, game=K) for u in (ALEX, MASHA)}
    drawn = game(2, played(KOZEL, 2, 2, moves=10), (ALEX, MASHA), ending=Ending.DRAW)
    assert await record(db, drawn) == [True]
    for user_id in (ALEX, MASHA):
        found, earlier = await stats.player_stats(db, user_id, GROUP, game=K), before[user_id]
        assert found is not None and earlier is not None
        assert (found.matches, found.draws) == (2, 1)
        assert (found.rating, found.goats, found.wins) == (
            earlier.rating,
            earlier.goats,
            earlier.wins,
        )
        assert found.streak == earlier.streak
        assert found.elo is not None and earlier.elo is not None
    # An Elo draw moves the higher rating down and the lower one up, by the same amount.
    after = [await stats.player_stats(db, u, GROUP, game=K) for u in (ALEX, MASHA)]
    moved = [a.elo - b.elo for a, b in zip(after, before.values(), strict=True)]  # type: ignore[union-attr,operator]
    assert moved[0] == -moved[1] and moved[0] != 0
