"""Engine benchmark: random rounds against the PyPI package `dominoes` 6.1.0, and the
time a press spends loading its stored match.

    .venv/bin/python bench/engine.py [--rounds N] [--game-rounds M] [--repeats K] [--quick]
                                     [--against REV]

Both engines play the same game (Козёл with 4 players x 7 tiles, no bazaar, one
line), dealt and played at random, in the same run on the same machine; each
figure is the best of K repeats, in CPU time of this process (other processes on a
shared machine count less), the runs interleaved (ours, theirs, ours, ...) so that
a busy moment falls on all of them alike. Ours is measured twice: `Round.start`
followed by `Round.playout` (the mask kernel computer players use), and `Round.start`
followed by a loop of `legal_actions()` / `apply()` through the public API.

Per game: the same two figures for every game in `domino.variants.VARIANTS`, each with
its default options and four players where it allows them, dealt and played at random
in the same run (M rounds per timed run, best of K). A first round is dealt each time
(K-3, T-2, S-2's turned tiles); the mask kernel plays the line games of one tile per
turn, the others (several doubles in one turn, M-3 and O-2; a spinner, O-1) step
through `legal_actions` and `apply`.

Load per press: every press loads its game, so `Match.from_json` of a 15-round
match (Козёл for 4, greedy players, one action before the end of round 15) must
stay under `LOAD_BUDGET_MS`. The figure is the mean over K runs.

`--quick`: a smoke run of a few seconds (300 rounds, 30 per game, 2 repeats).
`--against REV`: the same benchmark as REV wrote it, run in a `git worktree` of REV
(its own script on its own engine) beside this tree's, the two printed side by side
(`bench/_against.py`); REV's script is given the same options, or none if it does not
know them, or those of `--against-args "..."`. An earlier engine is never driven by this
script: its API moves on, and an older engine lacks what a newer script calls. Some
earlier revisions' scripts compare with c88a6ad by default: give them
`--against-args "--compare-with REV"` (REV against itself there).
"""

from __future__ import annotations

import argparse
import functools
import random
import shlex
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _against import side_by_side, without  # noqa: E402

from domino.match import LoggedAction, Match  # noqa: E402
from domino.players import GreedyPlayer  # noqa: E402
from domino.round import Round  # noqa: E402
from domino.rules import KOZEL, Ruleset  # noqa: E402
from domino.variants import VARIANTS  # noqa: E402

LOAD_BUDGET_MS = 1.0
LOAD_ROUNDS = 15


def best_time(run: Callable[[], None], repeats: int) -> float:
    """CPU seconds of the fastest of `repeats` runs."""
    return best_times([run], repeats)[0]


def best_times(runs: Sequence[Callable[[], None]], repeats: int) -> list[float]:
    """CPU seconds of the fastest of `repeats` runs of each of `runs`, taken in turns."""
    best = [float("inf")] * len(runs)
    for _ in range(repeats):
        for index, run in enumerate(runs):
            start = time.process_time()
            run()
            best[index] = min(best[index], time.process_time() - start)
    return best


def ours_playout(rounds: int, rng: random.Random) -> None:
    for _ in range(rounds):
        Round.start(KOZEL, 4, rng).playout(rng)


def ours_public_api(rounds: int, rng: random.Random) -> None:
    for _ in range(rounds):
        round_ = Round.start(KOZEL, 4, rng)
        while round_.turn is not None:
            legal = round_.legal_actions()
            round_.apply(legal[int(rng.random() * len(legal))])


def game_playout(ruleset: Ruleset, players: int, rounds: int, rng: random.Random) -> None:
    for _ in range(rounds):
        Round.start(ruleset, players, rng).playout(rng)


def game_public_api(ruleset: Ruleset, players: int, rounds: int, rng: random.Random) -> None:
    for _ in range(rounds):
        round_ = Round.start(ruleset, players, rng)
        while round_.turn is not None:
            legal = round_.legal_actions()
            round_.apply(legal[int(rng.random() * len(legal))])


def rounds_per_s(seconds: float, rounds: int) -> str:
    return f"{rounds / seconds:,.0f} rounds/s ({seconds / rounds * 1e6:.1f} µs/round)"


def report_games(rounds: int, repeats: int) -> None:
    """Rounds per second of every game, through the playout and the public API, all
    measured in turns (`best_times`)."""
    tables = [
        (game, 4 if 4 in game.ruleset.hand_sizes else game.ruleset.max_players) for game in VARIANTS
    ]
    runs = [
        functools.partial(run, game.ruleset, players, rounds, random.Random(1))
        for game, players in tables
        for run in (game_playout, game_public_api)
    ]
    seconds = best_times(runs, repeats)
    print(
        f"per game, default options, best of {repeats} runs of {rounds} rounds, CPU time"
        " (start + playout | start + legal_actions/apply):"
    )
    for index, (game, players) in enumerate(tables):
        playout, api = seconds[2 * index : 2 * index + 2]
        print(
            f"  {game.key.value:<16} ({players} players):"
            f" {rounds_per_s(playout, rounds)} | {rounds_per_s(api, rounds)}"
        )


def theirs(rounds: int, dominoes: object) -> None:
    game_new = dominoes.Game.new  # type: ignore[attr-defined]
    choice = random.choice
    for _ in range(rounds):
        game = game_new(starting_domino=None, starting_player=0)
        while game.result is None:
            game.make_move(*choice(game.valid_moves))


def mid_round_positions(count: int, rng: random.Random) -> list[Round]:
    """Rounds after 6 to 12 random actions that are still going on."""
    positions: list[Round] = []
    while len(positions) < count:
        round_ = Round.start(KOZEL, 4, rng)
        for _ in range(rng.randint(6, 12)):
            if round_.over:
                break
            round_.apply(rng.choice(round_.legal_actions()))
        if not round_.over:
            positions.append(round_)
    return positions


def per_call_us(run: Callable[[], None], calls: int, repeats: int) -> float:
    return best_time(run, repeats) / calls * 1e6


def stored_match(rounds: int) -> str:
    """`to_json` of a Козёл match for 4 played greedily (target out of reach) and stopped
    one action before the end of round `rounds`: the heaviest press of such a match.
    Uses only what every engine version has, so the earlier one builds the same match."""
    ruleset = KOZEL.with_options(target=10_000)
    player = GreedyPlayer()
    match = Match.new(ruleset, 4, seed=2026)
    while match.round_no <= rounds:
        seat = match.turn
        assert seat is not None
        match.apply(player.choose(match.view(seat)), seat)
    log: list[LoggedAction] = [entry for entry in match.log if entry.round_no <= rounds]
    return Match.replay(ruleset, 4, match.seed, log[:-1]).to_json()


def load_ms(rounds: int, repeats: int, loads: int = 200) -> float:
    """CPU milliseconds per `Match.from_json` of `stored_match(rounds)`: the mean of
    `repeats` runs of `loads` loads. CPU time, so that other processes sharing the
    machine do not count: what a press costs the bot's own process."""
    text = stored_match(rounds)
    runs = []
    for _ in range(repeats):
        start = time.process_time()
        for _ in range(loads):
            Match.from_json(text)
        runs.append((time.process_time() - start) / loads * 1e3)
    return statistics.fmean(runs)


def report_loads(repeats: int) -> None:
    ours = load_ms(LOAD_ROUNDS, repeats)
    verdict = "within" if ours < LOAD_BUDGET_MS else "OVER"
    print(
        f"load per press ({LOAD_ROUNDS}-round match, Match.from_json, CPU, mean of {repeats} runs):"
        f" {ours:.3f} ms, {verdict} the {LOAD_BUDGET_MS:g} ms budget"
    )


def report_rounds(name: str, seconds: float, rounds: int) -> float:
    us = seconds / rounds * 1e6
    print(f"{name}: {rounds / seconds:,.0f} rounds/s ({us:.1f} µs/round)")
    return us


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5000, help="rounds per timed run")
    parser.add_argument(
        "--game-rounds", type=int, default=1000, help="rounds per timed run of each game"
    )
    parser.add_argument("--repeats", type=int, default=5, help="timed runs; the best counts")
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    parser.add_argument(
        "--against", metavar="REV", help="REV's own bench/engine.py beside this one's"
    )
    parser.add_argument(
        "--against-args",
        metavar="ARGS",
        help="the options for REV's script, if not ours (one string)",
    )
    args = parser.parse_args()
    if args.against:
        ours = without(without(sys.argv[1:], "--against"), "--against-args")
        options = None if args.against_args is None else shlex.split(args.against_args)
        sys.exit(side_by_side(args.against, "engine.py", ours, options))
    if args.quick:
        args.rounds, args.game_rounds, args.repeats = 300, 30, 2
    rounds, repeats = args.rounds, args.repeats
    report_loads(repeats)

    print(
        f"Козёл, 4 players x 7 tiles, no bazaar; best of {repeats} runs of {rounds} rounds,"
        " CPU time"
    )
    rng = random.Random(1)
    runs = [lambda: ours_playout(rounds, rng), lambda: ours_public_api(rounds, rng)]
    try:
        import dominoes
    except ImportError:
        dominoes = None
    else:
        random.seed(1)
        runs.append(lambda: theirs(rounds, dominoes))
    seconds = best_times(runs, repeats)
    playout_us = report_rounds("ours (start + playout)", seconds[0], rounds)
    api_us = report_rounds("ours (start + legal_actions/apply)", seconds[1], rounds)
    if dominoes is None:
        print("dominoes: not installed (pip install dominoes==6.1.0) - no comparison")
    else:
        version = getattr(dominoes, "__version__", "6.1.0")
        theirs_us = report_rounds(f"dominoes {version}", seconds[2], rounds)
        print(f"ratio (dominoes / ours, playout): {theirs_us / playout_us:.2f}")
        print(f"ratio (dominoes / ours, public API): {theirs_us / api_us:.2f}")

    report_games(args.game_rounds, repeats)

    positions = mid_round_positions(2000, random.Random(2))

    def all_legal() -> None:
        for position in positions:
            position.legal_actions()

    print(f"legal_actions mid-round: {per_call_us(all_legal, len(positions), repeats):.2f} µs")

    plays = [(p, p.legal_actions()[0]) for p in positions]
    copies: list[list[Round]] = [[p.copy() for p in positions] for _ in range(repeats)]
    times: list[float] = []
    for batch in copies:
        start = time.process_time()
        for copy, (_, action) in zip(batch, plays, strict=True):
            copy.apply(action)
        times.append(time.process_time() - start)
    print(f"apply (first legal action) mid-round: {min(times) / len(plays) * 1e6:.2f} µs")

    def all_copies() -> None:
        for position in positions:
            position.copy()

    print(f"copy mid-round: {per_call_us(all_copies, len(positions), repeats):.2f} µs")

    def all_playouts() -> None:
        playout_rng = random.Random(3)
        for position in positions:
            position.playout(playout_rng)

    print(f"playout from mid-round: {per_call_us(all_playouts, len(positions), repeats):.1f} µs")


if __name__ == "__main__":
    main()
