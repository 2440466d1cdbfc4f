"""Whole matches between computer players, for statistics and speed measurements.

`simulate` plays `matches` seeded matches of any game (`domino.variants`) and returns a
`SimulationReport`; `format_report` turns it into the lines `python -m domino simulate`
prints: rounds per match, how rounds end, rounds nobody scored, eggs, and the points
and the winners or losers per side (a seat, or a pair in team play). Each match's seed
is derived from the run's seed, so a run is reproducible.

Where moves score as they are played (`GameVariant.scores_in_play`: All Fives, threes
and fives, F-3) it counts as well the points made in play per tile played, the share of
tiles played that score, the share of all points made in play, and the rounds stopped
in mid-play by a side reaching the target (F-6, `OutcomeKind.REACHED`). The seats may be
the plain players (`greedy`, `random`) or the computer levels (`easy`, `medium`, `hard`,
`domino.ai`); the greedy player sheds pips and never looks at the points on the ends.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TextIO

from domino.actions import EndTurn, Play
from domino.ai import Level, computer
from domino.errors import DominoError
from domino.match import Match
from domino.players import GreedyPlayer, Player, RandomPlayer
from domino.rules import Ruleset, Sides
from domino.scoring import sides_for
from domino.views import OutcomeKind

PLAYER_KINDS = ("greedy", "random", *(level.value for level in Level))
PROGRESS_AFTER = 1.0  # seconds: shorter runs print no progress bar
PROGRESS_EVERY = 0.2  # seconds between progress bar updates
BAR_WIDTH = 30


@dataclass(frozen=True, slots=True)
class SimulationReport:
    ruleset: Ruleset
    players: int
    kinds: tuple[str, ...]  # the player kind of each seat
    seed: int
    matches: int
    seconds: float  # wall time of the whole run
    rounds: int  # rounds played in all matches
    min_rounds: int
    max_rounds: int
    actions: int  # actions applied in all matches
    went_out_rounds: int  # rounds that ended by going out (C-8 a)
    fish_rounds: int  # rounds that ended in a fish (C-8 b)
    scoreless_rounds: int  # rounds in which no side scored (a drawn fish, eggs, M-1's minimum)
    egg_rounds: int  # rounds that made or added to eggs (K-9)
    matches_with_eggs: int
    sides: Sides  # the seats of each side: one each, or the pairs 0+2 and 1+3
    final_points: tuple[int, ...]  # per side, the sum over matches of its final points
    decided: tuple[int, ...]  # per side: matches it lost (points are bad, K-10) or won
    # Where moves score in play (F-3, F-6); 0 in every other game:
    reached_rounds: int = 0  # rounds stopped in mid-play: a side reached the target
    plays: int = 0  # tiles played
    scoring_plays: int = 0  # tiles played that scored
    play_points: int = 0  # points those plays made
    # Where a turn may lay several tiles (section V); 0 in every other game:
    laying_turns: int = 0  # turns that laid at least one tile
    turn_tiles: int = 0  # tiles those turns laid
    most_in_a_turn: int = 0
    ended_turns: int = 0  # turns ended by choice (`EndTurn`, «✔️ Сходить»)

    @property
    def matches_per_second(self) -> float:
        return self.matches / self.seconds if self.seconds > 0 else float("inf")


def match_seed(seed: int, index: int) -> int:
    """The seed of the `index`-th match of a run with `seed`."""
    digest = hashlib.sha256(f"domino-simulate:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def make_players(kinds: Sequence[str], rng: random.Random) -> tuple[Player, ...]:
    """One player per seat from names in `PLAYER_KINDS` (a computer level seeded from
    `rng`)."""
    players: list[Player] = []
    for kind in kinds:
        if kind == "greedy":
            players.append(GreedyPlayer())
        elif kind == "random":
            players.append(RandomPlayer(rng))
        elif kind in PLAYER_KINDS:
            players.append(computer(kind, seed=rng.getrandbits(64)))
        else:
            raise DominoError(
                f"unknown player kind {kind!r}; choose from {', '.join(PLAYER_KINDS)}"
            )
    return tuple(players)


def play_match(match: Match, players: Sequence[Player], made: list[int] | None = None) -> Match:
    """Let `players` (one per seat) play `match` to its end, each seeing its own view.

    `made`: where moves score in play (F-3), each tile played appends the points it
    made (`GameVariant.move_points` on the table it leaves)."""
    game = match.ruleset.game
    while True:
        seat = match.turn
        if seat is None:
            return match
        action = players[seat].choose(match.view(seat))
        if made is not None and type(action) is Play:
            table = match.round.layout.copy()
            table.place(action.tile, action.end)
            made.append(game.move_points(match.ruleset, table.view())[0])
        match.apply(action, seat)


def simulate(
    ruleset: Ruleset,
    players: int,
    matches: int,
    seed: int,
    kinds: Sequence[str] = ("greedy",),
    *,
    progress: TextIO | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> SimulationReport:
    """Play `matches` whole matches; `kinds` names each seat's player (a shorter list
    repeats). With `progress`, a text progress bar is written there once the run has
    lasted longer than `PROGRESS_AFTER` seconds."""
    if matches < 1:
        raise DominoError(f"simulate at least one match, not {matches}")
    ruleset.hand_size(players)
    if not kinds:
        raise DominoError("name at least one player kind")
    seat_kinds = tuple(kinds[seat % len(kinds)] for seat in range(players))
    make_players(seat_kinds, random.Random(0))  # refuse unknown kinds before starting

    sides = sides_for(ruleset, players)
    start = clock()
    last_shown = None
    rounds = went_out = fish_rounds = reached = scoreless = egg_rounds = with_eggs = actions = 0
    min_rounds, max_rounds = 1 << 30, 0
    final_points = [0] * len(sides)
    decided = [0] * len(sides)
    made: list[int] | None = [] if ruleset.game.scores_in_play else None
    turns = [0, 0, 0, 0]  # laying turns, their tiles, the most in one, ended by choice
    for index in range(matches):
        match_rng = match_seed(seed, index)
        table = make_players(seat_kinds, random.Random(match_rng))
        match = play_match(Match.new(ruleset, players, match_rng), table, made)
        results = match.results
        rounds += len(results)
        min_rounds = min(min_rounds, len(results))
        max_rounds = max(max_rounds, len(results))
        actions += len(match.log)
        if ruleset.game.many_per_turn:
            _count_turns(match, turns)
        went_out += sum(r.outcome.kind is OutcomeKind.WENT_OUT for r in results)
        fish_rounds += sum(r.outcome.kind is OutcomeKind.FISH for r in results)
        reached += sum(r.outcome.kind is OutcomeKind.REACHED for r in results)
        scoreless += sum(not any(r.points) for r in results)
        eggs_made = sum(r.eggs_after > r.eggs_before for r in results)
        egg_rounds += eggs_made
        with_eggs += eggs_made > 0
        deciders = match.losers if ruleset.game.points_are_bad else match.winners
        for side, account in enumerate(match.scores):
            final_points[side] += account.recorded
            decided[side] += side in deciders
        if progress is not None:
            now = clock()
            if now - start >= PROGRESS_AFTER and (
                last_shown is None or now - last_shown >= PROGRESS_EVERY or index + 1 == matches
            ):
                last_shown = now
                _show_progress(progress, index + 1, matches)
    if progress is not None and last_shown is not None:
        progress.write("\n")
        progress.flush()
    return SimulationReport(
        ruleset=ruleset,
        players=players,
        kinds=seat_kinds,
        seed=seed,
        matches=matches,
        seconds=clock() - start,
        rounds=rounds,
        min_rounds=min_rounds,
        max_rounds=max_rounds,
        actions=actions,
        went_out_rounds=went_out,
        fish_rounds=fish_rounds,
        scoreless_rounds=scoreless,
        egg_rounds=egg_rounds,
        matches_with_eggs=with_eggs,
        sides=sides,
        final_points=tuple(final_points),
        decided=tuple(decided),
        reached_rounds=reached,
        plays=len(made or ()),
        scoring_plays=sum(1 for points in made or () if points),
        play_points=sum(made or ()),
        laying_turns=turns[0],
        turn_tiles=turns[1],
        most_in_a_turn=turns[2],
        ended_turns=turns[3],
    )


def _count_turns(match: Match, turns: list[int]) -> None:
    """Section V: add `match`'s turns that laid tiles, their tiles, the most one turn
    laid and the turns ended by choice to `turns` (a run of one seat's plays in a round is
    one turn)."""
    run = 0
    previous = None
    for entry in match.log:
        action = entry.action
        if type(action) is Play:
            same = (
                previous is not None
                and type(previous.action) is Play
                and previous.seat == entry.seat
                and previous.round_no == entry.round_no
            )
            if not same:
                turns[0] += 1
                run = 0
            run += 1
            turns[1] += 1
            turns[2] = max(turns[2], run)
        elif type(action) is EndTurn:
            turns[3] += 1
        previous = entry


def _show_progress(out: TextIO, done: int, total: int) -> None:
    filled = BAR_WIDTH * done // total
    out.write(f"\r[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {done}/{total} matches")
    out.flush()


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "n/a"


def _side_name(seats: tuple[int, ...]) -> str:
    return f"seat {seats[0]}" if len(seats) == 1 else "pair " + "+".join(map(str, seats))


def format_report(report: SimulationReport) -> str:
    """The report as the lines `python -m domino simulate` prints; points and results
    are per side: per seat in individual play, per pair (`0+2`, `1+3`) in team play.
    Where moves score in play (F-3), three lines more: the rounds stopped at the target
    (F-6), the points per tile played and the share of the points made in play."""
    r = report
    rules = r.ruleset
    teams = any(len(seats) > 1 for seats in r.sides)
    mode = "teams 0+2 vs 1+3" if teams else "individual"
    decided_name = "loser" if rules.game.points_are_bad else "winner"
    per = "side" if teams else "seat"
    names = [_side_name(seats) for seats in r.sides]
    lines = [
        f"variant: {rules.variant} ({mode}), {r.players} players:"
        f" {','.join(r.kinds)}; target {rules.target}; seed {r.seed}",
        f"matches: {r.matches} in {r.seconds:.2f} s = {r.matches_per_second:.1f} matches/s"
        f" ({r.actions / r.seconds if r.seconds > 0 else float('inf'):.0f} actions/s)",
        f"rounds per match: {r.rounds / r.matches:.2f} (min {r.min_rounds}, max {r.max_rounds})",
        f"going out rate: {_percent(r.went_out_rounds, r.rounds)} of rounds",
        f"fish rate: {_percent(r.fish_rounds, r.rounds)} of rounds",
    ]
    if rules.game.scores_in_play:
        total = sum(r.final_points)
        lines += [
            f"target reached in play: {_percent(r.reached_rounds, r.rounds)} of rounds"
            " (the match decided in mid-round, F-6)",
            f"points in play: {r.play_points / r.plays if r.plays else 0:.2f} per tile played,"
            f" {_percent(r.scoring_plays, r.plays)} of tiles played score"
            f" ({r.plays / r.rounds if r.rounds else 0:.1f} tiles played per round)",
            f"points made in play: {_percent(r.play_points, total)} of all points"
            " (the rest at the rounds' ends, F-5)",
        ]
    if rules.game.many_per_turn:
        lines.append(
            f"tiles per turn: {r.turn_tiles / r.laying_turns if r.laying_turns else 0:.2f}"
            f" (most {r.most_in_a_turn}), {_percent(r.ended_turns, r.laying_turns)} of turns"
            " ended by choice before laying all that fit (section V)"
        )
    lines += [
        f"scoreless rate: {_percent(r.scoreless_rounds, r.rounds)} of rounds (no side scored)",
        f"eggs rate: {_percent(r.egg_rounds, r.rounds)} of rounds,"
        f" {_percent(r.matches_with_eggs, r.matches)} of matches",
        "mean final points: "
        + ", ".join(f"{n} {p / r.matches:.1f}" for n, p in zip(names, r.final_points, strict=True)),
        f"{decided_name} per {per}: "
        + ", ".join(f"{n} {_percent(d, r.matches)}" for n, d in zip(names, r.decided, strict=True)),
    ]
    return "\n".join(lines)
