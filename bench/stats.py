"""How fast /top, /stats and /history answer with 10,000 recorded matches in one group.

    .venv/bin/python bench/stats.py [--matches 10000] [--people 10] [--other-groups 3]
                                    [--repeat 200] [--db PATH] [--plans]

Builds a database file from the empty schema (a temporary one unless ``--db``): a
pool of real matches is played out by greedy computer players (Козёл for 2, 3 and 4,
Козёл in teams, Классика; a few cut short), then ``--matches`` games of ``--people``
people in the main group are counted by ``bot.app.standings.score`` and recorded through
``storage.stats.record_match``, as the bot records them, in one transaction: each game
takes a pool match and a random choice of the people for its seats; one in five has a
computer at the table from the start (no Elo), one in twenty is abandoned (the K-11
timeout rule). Each of ``--other-groups`` groups gets a tenth as many matches among
some of the same people and others, so the overall totals are not the main group's.

Every board, /stats and /history reads one game: the queries below read
Козёл's (four in six of the pool's matches) unless they say Классика; "games of group"
is which games have records, asked by every command.

Then each query runs ``--repeat`` times and the median and p95 wall time of the call
are printed in ms: this is the time the bot waits for it, the SQLite work plus the
hop to aiosqlite's thread, so it bounds the database time from above. ``--plans``
prints SQLite's query plans too.

Goal: each under 50 ms. Every query is an index search (``--plans``).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.app import standings
from domino.match import Match
from domino.players import GreedyPlayer
from domino.rules import CLASSIC, KOZEL, Ruleset, Variant
from domino.simulate import play_match
from storage import repo, stats
from storage.connect import open_database
from storage.db import Database
from storage.records import (
    Abandonment,
    ChatRecord,
    Ending,
    GameRecord,
    GameStatus,
    SeatRecord,
    UserRecord,
)

GROUP = -100_000_001
FIRST_USER = 1_000
STARTED = datetime(2026, 1, 1, tzinfo=UTC)


def pool(seed: int) -> list[tuple[Match, Match | None]]:
    """Real matches to reuse: (the whole match, a cut-short copy or None)."""
    kinds: list[tuple[Ruleset, int]] = [
        (KOZEL, 2),
        (KOZEL, 3),
        (KOZEL, 4),
        (KOZEL.with_options(teams=True), 4),
        (CLASSIC, 2),
        (CLASSIC, 3),
    ]
    greedy = GreedyPlayer()
    found = []
    for index in range(60):
        ruleset, players = kinds[index % len(kinds)]
        whole = play_match(Match.new(ruleset, players, seed + index), [greedy] * players)
        cut = Match.replay(ruleset, players, seed + index, whole.log[: len(whole.log) // 2])
        found.append((whole, None if cut.over else cut))
    return found


def make_game(
    game_id: int,
    chat_id: int,
    people: Sequence[int],
    matches: Sequence[tuple[Match, Match | None]],
    rng: random.Random,
) -> GameRecord:
    whole, cut = rng.choice(matches)
    seated: list[int | None] = list(rng.sample(people, whole.players))
    if rng.random() < 0.2:
        seated[rng.randrange(whole.players)] = None
    seats = tuple(
        SeatRecord(seat, user_id, f"Игрок {user_id}" if user_id else "🤖 Бот")
        for seat, user_id in enumerate(seated)
    )
    ended = STARTED + timedelta(minutes=30 * game_id)
    game = GameRecord(
        id=game_id,
        chat_id=chat_id,
        status=GameStatus.FINISHED,
        creator_id=people[0],
        ruleset=whole.ruleset,
        seats_wanted=whole.players,
        seats=seats,
        match=whole,
        started_at=ended - timedelta(minutes=25),
        ended_at=ended,
        ending=Ending.FINISHED,
    )
    person_seats = [s.seat for s in seats if s.user_id is not None]
    if cut is not None and rng.random() < 0.05:
        culprit = rng.choice(person_seats)
        return dataclasses.replace(
            game,
            status=GameStatus.CANCELLED,
            ending=Ending.CANCELLED,
            match=cut,
            abandonment=Abandonment(culprit, Ending.TIMEOUT, cut.seat_points()),
        )
    return game


async def build(db: Database, args: argparse.Namespace) -> tuple[int, float]:
    rng = random.Random(args.seed)
    matches = pool(args.seed)
    main_people = list(range(FIRST_USER, FIRST_USER + args.people))
    others = list(range(FIRST_USER + args.people, FIRST_USER + args.people + 30))
    plan: list[tuple[int, list[int], int]] = [(GROUP, main_people, args.matches)]
    for index in range(args.other_groups):
        people = main_people[: args.people // 2] + others[index * 10 : index * 10 + 10]
        plan.append((GROUP - 1 - index, people, args.matches // 10))
    started = time.perf_counter()
    recorded = 0
    async with db.transaction() as tx:
        for user_id in main_people + others:
            await repo.upsert_user(tx, UserRecord(user_id, f"Игрок {user_id}", "Ёжиков 🦔"))
        for chat_id, _, _ in plan:
            await repo.upsert_chat(tx, ChatRecord(chat_id, "supergroup", f"Группа {chat_id}"))
        game_id = 0
        for chat_id, people, count in plan:
            for _ in range(count):
                game_id += 1
                game = make_game(game_id, chat_id, people, matches, rng)
                scored = standings.score(game)
                assert scored is not None  # every game made here counts
                recorded += await stats.record_match(tx, game, scored)
    return recorded, time.perf_counter() - started


async def timed(call: Callable[[], Awaitable[object]], repeat: int) -> tuple[float, float]:
    """Median and p95 wall time of `call` in ms."""
    await call()  # warm the page cache and the statement cache
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        await call()
        times.append((time.perf_counter() - started) * 1000)
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.95))]


PLANNED = {
    "leaderboard": "SELECT * FROM stat_players WHERE scope = ? AND game = 'kozel'"
    " ORDER BY rating DESC, matches, elo DESC, user_id LIMIT 10",
    "pair board": "SELECT * FROM stat_pairs WHERE scope = ? AND game = 'kozel'"
    " ORDER BY rating DESC, matches, user_lo, user_hi LIMIT 10",
    "best (group)": "SELECT game_id FROM stat_seats WHERE user_id = ? AND chat_id = ?"
    " AND variant = 'kozel' AND rating_gain = (SELECT MAX(rating_gain) FROM stat_seats"
    " WHERE user_id = ? AND chat_id = ? AND variant = 'kozel') ORDER BY game_id DESC LIMIT 1",
    "worst (all)": "SELECT game_id FROM stat_seats WHERE user_id = ? AND variant = 'kozel'"
    " AND rating_gain = (SELECT MIN(rating_gain) FROM stat_seats WHERE user_id = ?"
    " AND variant = 'kozel') ORDER BY game_id DESC LIMIT 1",
    "history": "SELECT * FROM stat_matches WHERE chat_id = ? AND variant = 'kozel'"
    " ORDER BY ended_at DESC, game_id DESC LIMIT 10 OFFSET 990",
    "games of group": "SELECT 1 FROM stat_matches WHERE chat_id = ? AND variant = 'classic'"
    " LIMIT 1",
}


async def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--people", type=int, default=10)
    parser.add_argument("--other-groups", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", type=Path, help="database file (default: a temporary one)")
    parser.add_argument("--plans", action="store_true", help="print SQLite's query plans")
    args = parser.parse_args(argv)
    if args.people < 4:
        parser.error("--people must be at least 4 (a table of four)")
    with tempfile.TemporaryDirectory() as folder:
        path = args.db or Path(folder) / "stats.sqlite3"
        db = await open_database(path)
        try:
            recorded, seconds = await build(db, args)
            print(
                f"build: {recorded} matches recorded in {seconds:.1f} s"
                f" ({seconds / max(recorded, 1) * 1000:.2f} ms each), {path}"
            )
            kozel, classic = Variant.KOZEL, Variant.CLASSIC
            board = await stats.leaderboard(db, GROUP, game=kozel, limit=1)
            user_id = board.rows[0].user_id
            history = await stats.history(db, GROUP, game=kozel, limit=1)
            game_id = history.rows[0].game_id
            last_page = max(0, (history.total - 1) // 10 * 10)
            queries: list[tuple[str, Callable[[], Awaitable[object]]]] = [
                ("games of group", lambda: stats.games_of_group(db, GROUP)),
                ("games of player", lambda: stats.games_of_player(db, user_id, GROUP)),
                ("leaderboard (group, page 1)", lambda: stats.leaderboard(db, GROUP, game=kozel)),
                ("leaderboard (Классика)", lambda: stats.leaderboard(db, GROUP, game=classic)),
                ("leaderboard (overall, page 1)", lambda: stats.leaderboard(db, 0, game=kozel)),
                (
                    "pair_leaderboard (group)",
                    lambda: stats.pair_leaderboard(db, GROUP, game=kozel),
                ),
                (
                    "player_stats (group)",
                    lambda: stats.player_stats(db, user_id, GROUP, game=kozel),
                ),
                (
                    "player_stats (overall)",
                    lambda: stats.player_stats(db, user_id, None, game=kozel),
                ),
                ("history (page 1)", lambda: stats.history(db, GROUP, game=kozel)),
                (
                    "history (page 100)",
                    lambda: stats.history(db, GROUP, game=kozel, offset=990),
                ),
                (
                    "history (last page)",
                    lambda: stats.history(db, GROUP, game=kozel, offset=last_page),
                ),
                ("match_sheet", lambda: stats.match_sheet(db, game_id)),
            ]
            print(f"{'query':32} {'median ms':>10} {'p95 ms':>8}")
            for name, call in queries:
                median, p95 = await timed(call, args.repeat)
                print(f"{name:32} {median:10.2f} {p95:8.2f}")
            if args.plans:
                params = {
                    "leaderboard": (GROUP,),
                    "pair board": (GROUP,),
                    "best (group)": (user_id, GROUP, user_id, GROUP),
                    "worst (all)": (user_id, user_id),
                    "history": (GROUP,),
                    "games of group": (GROUP,),
                }
                for name, sql in PLANNED.items():
                    rows = await db.fetch_all(f"EXPLAIN QUERY PLAN {sql}", params[name])
                    print(f"{name}: " + "; ".join(row["detail"] for row in rows))
        finally:
            await db.close()


if __name__ == "__main__":
    asyncio.run(main())
