"""Migration 008: a database made by migrations 001-007, with recorded
matches, upgrades to per-game totals and keeps every row and every value. The totals
kept so far are Козёл's (the only game the bot played before); each seat gains its
match's game and whether it took first place."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.app import standings
from domino.match import Match
from domino.players import GreedyPlayer
from domino.rules import KOZEL, Variant
from domino.simulate import play_match
from storage import stats
from storage.connect import open_database
from storage.db import bundled_migrations
from storage.records import Ending, GameRecord, GameStatus, SeatRecord

GROUP, OTHER = -1001, -1002
ALEX, MASHA, OLYA, PETYA = 11, 12, 13, 14
NOW = "2026-11-01T18:00:00.000000+00:00"

# Three matches as the stats of migrations 003-007 recorded them: Alex and Маша in
# GROUP (Alex the козёл), the four in teams in GROUP (Оля left: her side is козёл and
# cannot win, though its 40 points are fewer), Alex and Петя in OTHER.
MATCHES = [
    # game_id, chat_id, variant, target, teams, sides, ending, culprit, rounds, elo_counted
    (1, GROUP, "kozel", 101, 0, "[[0], [1]]", "finished", None, 3, 1),
    (2, GROUP, "kozel", 101, 1, "[[0, 2], [1, 3]]", "left", 2, 2, 1),
    (3, OTHER, "kozel", 101, 0, "[[0], [1]]", "finished", None, 4, 1),
]
SEATS = [
    # game_id, seat, user_id, chat_id, name, side, points, goat, rating_gain, went_out,
    # fish_made, eggs_taken, elo_before, elo_after, elo_all_before, elo_all_after
    (1, 0, ALEX, GROUP, "Alex", 0, 104, 1, 1, 1, 0, 0, 1500.0, 1484.0, 1500.0, 1484.0),
    (1, 1, MASHA, GROUP, "Маша", 1, 37, 0, 6, 2, 1, 1, 1500.0, 1516.0, 1500.0, 1516.0),
    (2, 0, ALEX, GROUP, "Alex", 0, 40, 1, 0, 1, 0, 0, 1484.0, 1470.0, 1484.0, 1470.0),
    (2, 1, MASHA, GROUP, "Маша", 1, 60, 0, 4, 0, 0, 0, 1516.0, 1530.0, 1516.0, 1530.0),
    (2, 2, OLYA, GROUP, "Оля", 0, 40, 1, 0, 0, 1, 0, 1500.0, 1486.0, 1500.0, 1486.0),
    (2, 3, PETYA, GROUP, "Петя", 1, 60, 0, 4, 1, 0, 0, 1500.0, 1514.0, 1500.0, 1514.0),
    (3, 0, ALEX, OTHER, "Alex", 0, 20, 0, 8, 3, 0, 0, 1500.0, 1516.0, 1470.0, 1487.0),
    (3, 1, PETYA, OTHER, "Петя", 1, 101, 1, 1, 1, 1, 0, 1500.0, 1484.0, 1514.0, 1497.0),
]
# scope, user_id, matches, rating, goats, points_sum, went_out, fish_made, eggs_taken,
# elo, streak, name
PLAYERS = [
    (GROUP, ALEX, 2, 1, 2, 144, 2, 0, 0, 1470.0, -2, "Alex"),
    (GROUP, MASHA, 2, 10, 0, 97, 2, 1, 1, 1530.0, 2, "Маша"),
    (GROUP, OLYA, 1, 0, 1, 40, 0, 1, 0, 1486.0, -1, "Оля"),
    (GROUP, PETYA, 1, 4, 0, 60, 1, 0, 0, 1514.0, 1, "Петя"),
    (OTHER, ALEX, 1, 8, 0, 20, 3, 0, 0, 1516.0, 1, "Alex"),
    (OTHER, PETYA, 1, 1, 1, 101, 1, 1, 0, 1484.0, -1, "Петя"),
    (0, ALEX, 3, 9, 2, 164, 5, 0, 0, 1487.0, 1, "Alex"),
    (0, MASHA, 2, 10, 0, 97, 2, 1, 1, 1530.0, 2, "Маша"),
    (0, OLYA, 1, 0, 1, 40, 0, 1, 0, 1486.0, -1, "Оля"),
    (0, PETYA, 2, 5, 1, 161, 2, 1, 0, 1497.0, -1, "Петя"),
]
PAIRS = [  # scope, user_lo, user_hi, matches, rating, goats, points_sum
    (GROUP, ALEX, OLYA, 1, 0, 1, 40),
    (GROUP, MASHA, PETYA, 1, 4, 0, 60),
    (0, ALEX, OLYA, 1, 0, 1, 40),
    (0, MASHA, PETYA, 1, 4, 0, 60),
]
# First place: Маша in game 1 (37 < 104); Маша and Петя in game 2 (the culprit's side
# never wins); Alex in game 3.
WON = {(1, 1), (2, 1), (2, 3), (3, 0)}
WINS = {  # (scope, user): wins
    (GROUP, ALEX): 0,
    (GROUP, MASHA): 2,
    (GROUP, OLYA): 0,
    (GROUP, PETYA): 1,
    (OTHER, ALEX): 1,
    (OTHER, PETYA): 0,
    (0, ALEX): 1,
    (0, MASHA): 2,
    (0, OLYA): 0,
    (0, PETYA): 1,
}


async def old_database(path: Path) -> None:
    """The schema of migrations 001-007 with the rows above, as the old bot wrote them."""
    db = await open_database(path, [m for m in bundled_migrations() if m.version <= 7])
    try:
        assert await db.user_version() == 7
        async with db.transaction() as tx:
            await tx.execute_many(
                "INSERT INTO stat_matches (game_id, chat_id, variant, ruleset, target, teams,"
                " sides, ending, culprit_seat, rounds, elo_counted, started_at, ended_at)"
                " VALUES (?, ?, ?, '{}', ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(*m, NOW, NOW) for m in MATCHES],
            )
            await tx.execute_many(
                f"INSERT INTO stat_seats VALUES ({', '.join('?' * 16)})",
                SEATS,
            )
            await tx.execute_many(
                "INSERT INTO stat_rounds VALUES (?, 1, 'went_out', 0, '[0, 5]', '[0, 5]', 0, 0,"
                " NULL)",
                [(m[0],) for m in MATCHES],
            )
            await tx.execute_many(
                f"INSERT INTO stat_players VALUES ({', '.join('?' * 12)})", PLAYERS
            )
            await tx.execute_many("INSERT INTO stat_pairs VALUES (?, ?, ?, ?, ?, ?, ?)", PAIRS)
    finally:
        await db.close()


def rows(found: list[Any]) -> list[tuple[Any, ...]]:
    return [tuple(row) for row in found]


async def test_migration_8_keeps_every_record_and_makes_the_totals_kozels(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bot.sqlite3"
    await old_database(path)
    db = await open_database(path)
    try:
        assert await db.user_version() == bundled_migrations()[-1].version
        matches = await db.fetch_all(
            "SELECT game_id, chat_id, variant, target, teams, sides, ending, culprit_seat,"
            " rounds, elo_counted FROM stat_matches ORDER BY game_id"
        )
        assert rows(matches) == MATCHES
        assert len(await db.fetch_all("SELECT * FROM stat_rounds")) == len(MATCHES)
        old_columns = (
            "game_id, seat, user_id, chat_id, name, side, points, goat, rating_gain,"
            " went_out, fish_made, eggs_taken, elo_before, elo_after, elo_all_before,"
            " elo_all_after"
        )
        seats = await db.fetch_all(f"SELECT {old_columns} FROM stat_seats ORDER BY game_id, seat")
        assert rows(seats) == SEATS
        added = await db.fetch_all(
            "SELECT game_id, seat, variant, won FROM stat_seats ORDER BY game_id, seat"
        )
        assert rows(added) == [
            (game, seat, "kozel", int((game, seat) in WON)) for game, seat, *_ in SEATS
        ]
        players = await db.fetch_all(
            "SELECT scope, user_id, matches, rating, goats, points_sum, went_out, fish_made,"
            " eggs_taken, elo, streak, name, game, wins FROM stat_players"
        )
        assert sorted(rows(players)) == sorted((*p, "kozel", WINS[(p[0], p[1])]) for p in PLAYERS)
        pairs = await db.fetch_all(
            "SELECT scope, user_lo, user_hi, matches, rating, goats, points_sum, game, wins"
            " FROM stat_pairs"
        )
        assert sorted(rows(pairs)) == sorted(
            (*p, "kozel", int(p[1:3] == (MASHA, PETYA))) for p in PAIRS
        )
        indexes = {
            row["name"]
            for row in await db.fetch_all(
                "SELECT indexname AS name FROM pg_indexes WHERE schemaname = current_schema()"
                if db.dialect == "postgres"
                else "SELECT name FROM sqlite_master WHERE type = 'index'"
            )
        }
        assert {
            "stat_players_board",
            "stat_pairs_board",
            "stat_matches_game_history",
            "stat_seats_user_chat_game",
            "stat_seats_user_game",
        } <= indexes
        assert not {"stat_matches_history", "stat_seats_user_chat", "stat_seats_user"} & indexes

        # The boards read the migrated totals as Козёл's; no other game has any.
        board = await stats.leaderboard(db, GROUP, game=Variant.KOZEL)
        assert [(r.name, r.rating, r.matches, r.wins) for r in board.rows] == [
            ("Маша", 10, 2, 2),
            ("Петя", 4, 1, 1),
            ("Alex", 1, 2, 0),
            ("Оля", 0, 1, 0),
        ]
        assert (await stats.leaderboard(db, GROUP, game=Variant.CLASSIC)).total == 0
        assert await stats.games_of_group(db, GROUP) == (Variant.KOZEL,)
        alex = await stats.player_stats(db, ALEX, None, game=Variant.KOZEL)
        assert alex is not None and (alex.matches, alex.elo, alex.streak) == (3, 1487, 1)
        assert alex.best is not None and alex.best.game_id == 3

        # A match recorded after the upgrade adds to them.
        match = play_match(Match.new(KOZEL, 2, 1), [GreedyPlayer()] * 2)
        seats = (SeatRecord(0, ALEX, "Alex"), SeatRecord(1, MASHA, "Маша"))
        game = GameRecord(4, GROUP, GameStatus.FINISHED, ALEX, KOZEL, 2, seats, match=match,
                          ending=Ending.FINISHED)  # fmt: skip
        async with db.transaction() as tx:
            scored = standings.score(game)
            assert scored is not None and await stats.record_match(tx, game, scored)
        masha = await stats.player_stats(db, MASHA, GROUP, game=Variant.KOZEL)
        assert masha is not None and masha.matches == 3
        assert masha.rating == 10 + match.rating()[1]
    finally:
        await db.close()
