"""Computer players' benchmark: the ladder's figures, decision times, the hard level under
load, and an outside player.

    .venv/bin/python bench/ai.py [--quick] [--scale F] [--jobs N] [--seed S]

One run each, printed with their 95% intervals, n and the levels' targets:

1. 4-player Козёл, one focal player against three of another level, козёл rate (par
   25%): medium vs 3 greedy (target at most 17%), hard vs 3 medium (17%), hard vs 3
   greedy (12%); Козёл 2x2, the hard pair against a greedy pair (35%, par 50%). Paired
   deals by `domino.ladder`: each match seed is played once per seating, the focal
   player in every seat (or the focal pair at 0+2 and at 1+3); the interval is
   Wilson's at the effective n from the variance between the deals, since the
   seatings of a deal are not independent. Easy against 3 greedy is run too, for its
   decision times.
2. Decision time per level (median, p95; CPU and wall ms), every decision of those
   ladder runs, one process per job.
3. The hard level at 50 concurrent games through the bot's own thinker
   (`bot.app.thinker.Thinker`: its process pool, two workers by default, and its deadline,
   medium deciding when the answer is late): 50 Козёл matches at once, in each a
   person (greedy, after a think time of 1-5 s) and three hard computers; the time
   from request to decision (wall ms, median and p95) and the share of fallbacks.
4. The `dominoes` package 6.1.0's `probabilistic_alphabeta` on its own game, four
   players in pairs, 7 tiles each, no bazaar: `peer_player` (below) on paired deals
   (the same hands with the teams swapped), team points won by ours and theirs.
5. The other games, each at its default table: medium vs greedy and hard vs medium
   (the loss rate, and the win rate where points are good), with their decision times;
   where moves score in play (All Fives, threes and fives) medium vs easy as well.

In this order, so that a run cut short has the targeted figures; `--only` picks parts.

The adapter (`match_view`, `to_move`): a `dominoes.Game` is translated into one of our
matches of «Спортивное» (S-1 .. S-5), the ruleset nearest to that game, and our player
is given that match's view of its seat only. The package's game and Спортивное agree on
the table (4 players in pairs, partners opposite, 7 tiles each, no bazaar, one line),
on play (a player who cannot play passes, S-3; when both ends show the same pip a tile
is offered on one end only, as in our `LineLayout`, see
tests/domino/test_crosscheck_dominoes.py) and on the round's points (going out: the
pair writes every pip left in all hands, S-4; a block: the pair with fewer pips writes
all of them, equal totals write nothing, S-5). What differs: the package plays single
games, the deals here are ours (a seeded shuffle, the leader by the deal's number,
who opens with any tile: S-2's turned tiles and C-11's redeal are not used), and our
player values a position by its match chance to 200 from 0-0 (S-6), while the package's
players count the game's points only. Their player: `bota_gorda` (the heaviest tile)
for the first `--peer-start` moves, then `probabilistic_alphabeta` with
`--peer-samples` sampled hands each a full alpha-beta search ordered by `bota_gorda`
(the package's default, every possible hand from move 0, takes minutes per move).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.append(str(Path(__file__).resolve().parent.parent))

from domino.actions import KNOCK, Action, Play
from domino.deal import Deal
from domino.geometry import End
from domino.ladder import (
    LadderReport,
    Matchup,
    deal_seed,
    format_estimate,
    loss_name,
    make_player,
    matchup,
    mean_interval,
    percent,
    percentile,
    run_ladder,
    seat_seed,
)
from domino.match import Match
from domino.round import Round
from domino.sport import SPORT
from domino.tiles import ALL_TILES, Tile, tile
from domino.variants import VARIANTS
from domino.views import MatchView


@dataclass(frozen=True, slots=True)
class Figure:
    """One ladder figure: a matchup, its target and its size."""

    title: str
    matchup: Matchup
    target: float | None  # the loss rate the level must stay under; None: timing only
    deals: int  # paired deals at scale 1
    quick: int  # paired deals with --quick


FIGURES = (
    Figure(
        "4-player Козёл, medium vs 3 greedy", matchup("kozel", "medium", "greedy"), 0.17, 1500, 12
    ),
    Figure("4-player Козёл, hard vs 3 medium", matchup("kozel", "hard", "medium"), 0.17, 240, 3),
    Figure("4-player Козёл, hard vs 3 greedy", matchup("kozel", "hard", "greedy"), 0.12, 240, 3),
    Figure(
        "Козёл 2x2, hard pair vs greedy pair",
        matchup("kozel", "hard", "greedy", pairs=True),
        0.35,
        300,
        3,
    ),
    Figure("4-player Козёл, easy vs 3 greedy", matchup("kozel", "easy", "greedy"), None, 100, 4),
)
"""The figures with targets (Козёл), and easy for its decision times."""


HARD_DEALS = {"osel": 10}  # Осёл's spinner has no fast kernel: ~20 s CPU a deal for hard
"""Paired deals of hard vs medium per game at scale 1, where not 30 (All Fives, whose
play-outs score every move: ~6 s a 4-player deal)."""


def _game_figures() -> tuple[Figure, ...]:
    figures = []
    for game in VARIANTS[1:]:
        key = game.key.value
        # Where moves score in play (F-3) greedy never looks at the points on the ends, so
        # medium is measured against easy, which takes the points it sees, as well.
        against_easy = (("medium", "easy", 200, 2),) if game.scores_in_play else ()
        for focal, field, deals, quick in (
            ("medium", "greedy", 200, 2),
            *against_easy,
            ("hard", "medium", HARD_DEALS.get(key, 30), 1),
        ):
            chosen = matchup(key, focal, field)
            table = "2x2" if chosen.pairs else f"{chosen.players}-player"
            title = f"{table} {key}, {focal} vs {field}"
            figures.append(Figure(title, chosen, None, deals, quick))
    return tuple(figures)


GAME_FIGURES = _game_figures()
"""The other games at their default tables (the level applies to every game)."""

PEER_DEALS = 160  # paired deals against the package's player at scale 1 (hard)
PEER_MEDIUM_DEALS = 60  # the same for medium
PEER_QUICK = 2
LOAD_GAMES = 50
LOAD_SECONDS = 60.0
LOAD_QUICK_SECONDS = 10.0
THINK = (1.0, 5.0)  # seconds a person takes for a move in the load run (uniform)


# --- the ladder --------------------------------------------------------------------------


def report_figure(figure: Figure, report: LadderReport) -> None:
    estimate = report.lost
    line = format_estimate(f"{figure.title}: {loss_name(figure.matchup)}", estimate, report.par)
    if figure.target is not None:
        met = "met" if estimate.share <= figure.target else "NOT met"
        upper = "" if estimate.interval.high <= figure.target else ", the interval reaches past it"
        line += f"; target at most {percent(figure.target)}: {met}{upper}"
    print(line, flush=True)
    if report.won is not None:
        print("  " + format_estimate("win rate", report.won, report.par), flush=True)
    print(
        f"  rounds per match {report.rounds_per_match:.2f}; {report.seconds:.0f} s wall,"
        f" {report.jobs} job(s)",
        flush=True,
    )


def report_times(cpu: dict[str, list[float]], wall: dict[str, list[float]]) -> None:
    print("decision time per level (every decision of the ladder runs just above):")
    for level in ("random", "greedy", "easy", "medium", "hard"):
        if level not in cpu:
            continue
        c, w = cpu[level], wall[level]
        print(
            f"  {level:<6} median {percentile(c, 0.5) * 1e3:.2f} ms CPU / "
            f"{percentile(w, 0.5) * 1e3:.2f} ms wall, p95 {percentile(c, 0.95) * 1e3:.2f} ms CPU"
            f" / {percentile(w, 0.95) * 1e3:.2f} ms wall, max {max(w) * 1e3:.1f} ms wall"
            f" (n = {len(c)} decisions)",
            flush=True,
        )


# --- the hard level under load -------------------------------------------------------------


async def load_run(games: int, seconds: float, seed: int) -> None:
    """`games` Козёл matches at once, each a person (greedy after a think time) and three
    hard computers deciding through the bot's thinker, for `seconds` of wall time."""
    from bot.app.thinker import DEFAULT_BUDGET, DEFAULT_MARGIN, DEFAULT_WORKERS, Thinker
    from domino.ai import Level
    from domino.players import GreedyPlayer
    from domino.rules import KOZEL

    thinker = Thinker()
    await thinker.start()
    rng = random.Random(seed)
    person = GreedyPlayer()
    waits: list[float] = []
    began = time.monotonic()
    stop_at = began + seconds

    async def table(number: int) -> None:
        match = Match.new(KOZEL, 4, deal_seed(seed, number))
        while time.monotonic() < stop_at:
            seat = match.turn
            if seat is None:
                match = Match.new(KOZEL, 4, rng.getrandbits(64))
                continue
            view = match.view(seat)
            if seat == 0:
                await asyncio.sleep(rng.uniform(*THINK))
                action = person.choose(view)
            else:
                asked = time.monotonic()
                action = (await thinker.decide(view, Level.HARD)).action
                waits.append(time.monotonic() - asked)
            match.apply(action, seat)

    await asyncio.gather(*(table(number) for number in range(games)))
    fallbacks = thinker.fallbacks
    await thinker.stop()
    elapsed = time.monotonic() - began
    print(
        f"hard at {games} concurrent games (bot.app.thinker: {DEFAULT_WORKERS} worker(s), deadline"
        f" {DEFAULT_BUDGET * 1e3:.0f} ms + {DEFAULT_MARGIN * 1e3:.0f} ms margin, a person"
        f" thinking {THINK[0]:g}-{THINK[1]:g} s and 3 hard computers per game),"
        f" {elapsed:.0f} s wall, {load_average()}:"
    )
    if not waits:
        print("  no hard decision was asked", flush=True)
        return
    print(
        f"  request to decision: median {percentile(waits, 0.5) * 1e3:.1f} ms, p95"
        f" {percentile(waits, 0.95) * 1e3:.1f} ms, max {max(waits) * 1e3:.1f} ms wall"
        f" (n = {len(waits)} decisions, {len(waits) / elapsed:.1f} per s); late, decided by"
        f" medium: {fallbacks} ({percent(fallbacks / len(waits))})",
        flush=True,
    )


# --- the outside player: the `dominoes` package --------------------------------------------


def to_tile(domino: Any) -> Tile:
    return tile(domino.first, domino.second)


def match_view(game: Any, seat: int) -> MatchView:
    """The `dominoes.Game` as one of our «Спортивное» matches, seen from `seat`.

    The game's moves are replayed from its first player: a pass (None) is our knock
    (S-3), a domino on the left end (True) is played on our LEFT end, the first one on
    no end. The hands dealt are the hands now plus what each seat has played. The
    match is at 0-0 in its first round; our player gets its seat's view only."""
    played: list[list[Tile]] = [[] for _ in range(4)]
    mover = game.starting_player
    for move in game.moves:
        if move is not None:
            played[mover].append(to_tile(move[0]))
        mover = (mover + 1) % 4
    hands = tuple(tuple(sorted([to_tile(d) for d in game.hands[s]] + played[s])) for s in range(4))
    round_ = Round.from_deal(SPORT, 4, Deal(hands, ()), leader=game.starting_player)
    for move in game.moves:
        if move is None:
            round_.apply(KNOCK)
        else:
            domino, left = move
            end = None if not round_.layout.placements else (End.LEFT if left else End.RIGHT)
            round_.apply(Play(to_tile(domino), end))
    return Match(SPORT, 4, 0, round_=round_).view(seat)


def to_move(action: Action, dominoes: Any) -> tuple[Any, bool]:
    """Our play as the package's move: (domino, True for the left end or the first)."""
    if not isinstance(action, Play):
        raise ValueError(f"the package's game has only plays, not {action}")
    return dominoes.Domino(action.tile.low, action.tile.high), action.end is not End.RIGHT


def our_move(game: Any, player: Any, dominoes: Any) -> tuple[Any, bool]:
    """What our `player` plays at the game's turn, seeing only its seat's view."""
    move = to_move(player.choose(match_view(game, game.turn)), dominoes)
    if move not in game.valid_moves:
        raise AssertionError(f"our player chose {move}, not one of {game.valid_moves}")
    return move


def peer_player(dominoes: Any, start_move: int, samples: int) -> Any:
    """The package's player: its move for a game (`bota_gorda`, then from `start_move`
    on `probabilistic_alphabeta` over `samples` sampled hands, ordered by `bota_gorda`)."""
    players = dominoes.players
    search = players.probabilistic_alphabeta(
        start_move=start_move, sample_size=samples, player=players.bota_gorda
    )

    def move(game: Any) -> tuple[Any, bool]:
        players.bota_gorda(game)
        search(game)
        chosen: tuple[Any, bool] = game.valid_moves[0]
        return chosen

    return move


def new_game(dominoes: Any, hands: Sequence[Sequence[Tile]], starting: int) -> Any:
    """A `dominoes.Game` of these hands, `starting` to lay any domino."""
    dealt = [dominoes.Hand([dominoes.Domino(t.low, t.high) for t in hand]) for hand in hands]
    valid = tuple((d, True) for d in dealt[starting])
    return dominoes.Game(dominoes.Board(), dealt, [], starting, valid, starting, None)


def peer_deal(seed: int, index: int) -> tuple[tuple[tuple[Tile, ...], ...], int]:
    """Deal `index`: four hands of 7 from a seeded shuffle, and the seat that leads."""
    tiles = list(ALL_TILES)
    random.Random(deal_seed(seed, index)).shuffle(tiles)
    return tuple(tuple(sorted(tiles[7 * s : 7 * s + 7])) for s in range(4)), index % 4


@dataclass(frozen=True, slots=True)
class PeerResult:
    """One deal played twice, ours at 0+2 and then at 1+3: the points each team won."""

    ours: int
    theirs: int
    ours_games: int  # games that ours won (points > 0)
    theirs_games: int
    ours_cpu: tuple[float, ...]
    theirs_cpu: tuple[float, ...]


def play_peer_deal(args: tuple[str, int, int, int, int]) -> PeerResult:
    level, seed, index, start_move, samples = args
    import dominoes  # type: ignore[import-untyped]

    hands, starting = peer_deal(seed, index)
    peer = peer_player(dominoes, start_move, samples)
    ours = theirs = ours_games = theirs_games = 0
    ours_cpu: list[float] = []
    theirs_cpu: list[float] = []
    for team in (0, 1):
        random.seed(deal_seed(seed, index) + team)  # the package samples with `random`
        match_seed = deal_seed(seed, index)
        players = {s: make_player(level, seat_seed(match_seed, s)) for s in range(team, 4, 2)}
        game = new_game(dominoes, hands, starting)
        while game.result is None:
            began = time.process_time()
            if game.turn % 2 == team:
                move = our_move(game, players[game.turn], dominoes)
                ours_cpu.append(time.process_time() - began)
            else:
                move = peer(game)
                theirs_cpu.append(time.process_time() - began)
            game.make_move(*move)
        points = game.result.points if team == 0 else -game.result.points
        ours += max(points, 0)
        theirs += max(-points, 0)
        ours_games += points > 0
        theirs_games += points < 0
    return PeerResult(ours, theirs, ours_games, theirs_games, tuple(ours_cpu), tuple(theirs_cpu))


def peer_run(level: str, deals: int, seed: int, jobs: int, start_move: int, samples: int) -> None:
    import multiprocessing

    try:
        import dominoes
    except ImportError:
        print("dominoes: not installed (pip install dominoes==6.1.0): no outside player")
        return
    began = time.perf_counter()
    tasks = [(level, seed, index, start_move, samples) for index in range(deals)]
    if jobs > 1:
        with multiprocessing.get_context("forkserver").Pool(jobs) as pool:
            results = pool.map(play_peer_deal, tasks, chunksize=1)
    else:
        results = [play_peer_deal(task) for task in tasks]
    seconds = time.perf_counter() - began
    ours = sum(r.ours for r in results)
    theirs = sum(r.theirs for r in results)
    diff, interval = mean_interval([r.ours - r.theirs for r in results])
    games = 2 * deals
    version = getattr(dominoes, "__version__", "6.1.0")
    print(
        f"{level} vs dominoes {version} probabilistic_alphabeta (bota_gorda for the first"
        f" {start_move} moves, {samples} sampled hands), its game (4 in pairs, 7 tiles, no"
        f" bazaar) as Спортивное; {deals} deals x 2 (teams swapped) = {games} games,"
        f" {seconds:.0f} s wall:"
    )
    ratio = f"{ours / theirs:.2f}" if theirs else "inf"
    print(
        f"  team points won: ours {ours}, theirs {theirs} (ratio {ratio}); games won: ours"
        f" {sum(r.ours_games for r in results)}, theirs {sum(r.theirs_games for r in results)},"
        f" drawn {games - sum(r.ours_games + r.theirs_games for r in results)}"
    )
    print(
        f"  ours - theirs per deal (2 games): {diff:+.1f} points (95% CI {interval.low:+.1f}"
        f" to {interval.high:+.1f}, n = {deals} deals)",
        flush=True,
    )
    ours_cpu = [t for r in results for t in r.ours_cpu]
    theirs_cpu = [t for r in results for t in r.theirs_cpu]
    for name, times in ((level, ours_cpu), ("theirs", theirs_cpu)):
        print(
            f"  decision time, {name}: median {percentile(times, 0.5) * 1e3:.2f} ms, p95"
            f" {percentile(times, 0.95) * 1e3:.2f} ms CPU (n = {len(times)})",
            flush=True,
        )


def load_average() -> str:
    """The machine's load (other processes slow the wall times, not the CPU times)."""
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (1 min), {five:.1f} (5 min)"


# --- main --------------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of about a minute")
    parser.add_argument(
        "--scale", type=float, default=1.0, help="multiply every number of deals (not --quick)"
    )
    parser.add_argument("--jobs", type=int, default=2, help="processes for the ladder and peer")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--peer-start", type=int, default=8, help="moves before their search")
    parser.add_argument("--peer-samples", type=int, default=10, help="their sampled hands")
    parser.add_argument(
        "--only",
        choices=("ladder", "load", "peer", "games"),
        action="append",
        help="run only these parts (repeatable); default: all",
    )
    args = parser.parse_args(argv)
    parts = set(args.only or ("ladder", "load", "peer", "games"))
    started = time.perf_counter()

    def size(full: int, quick: int) -> int:
        return quick if args.quick else max(1, math.ceil(full * args.scale))

    print(
        f"bench/ai.py: seed {args.seed}, {args.jobs} job(s){', quick' if args.quick else ''};"
        f" {os.cpu_count()} cores, {load_average()}"
    )

    def ladder(figures: Sequence[Figure]) -> None:
        cpu: dict[str, list[float]] = {}
        wall: dict[str, list[float]] = {}
        for figure in figures:
            report = run_ladder(
                figure.matchup,
                size(figure.deals, figure.quick),
                args.seed,
                args.jobs,
                progress=sys.stderr,
            )
            report_figure(figure, report)
            for level, times in report.cpu_times.items():
                cpu.setdefault(level, []).extend(times)
            for level, times in report.wall_times.items():
                wall.setdefault(level, []).extend(times)
        report_times(cpu, wall)

    # The targeted figures first: a run cut short still has them.
    if "ladder" in parts:
        ladder(FIGURES)
    if "load" in parts:
        seconds = LOAD_QUICK_SECONDS if args.quick else LOAD_SECONDS
        asyncio.run(load_run(LOAD_GAMES, seconds, args.seed))
    if "peer" in parts:
        for level, full in (("hard", PEER_DEALS), ("medium", PEER_MEDIUM_DEALS)):
            peer_run(
                level,
                size(full, PEER_QUICK),
                args.seed,
                args.jobs,
                args.peer_start,
                args.peer_samples,
            )
    if "games" in parts:
        print("the other games, at their default tables:", flush=True)
        ladder(GAME_FIGURES)
    print(f"total: {time.perf_counter() - started:.0f} s wall; {load_average()}")


if __name__ == "__main__":
    main()
