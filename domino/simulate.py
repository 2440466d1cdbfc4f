"""Whole matches between computer players, for statistics and speed measurements.

`simulate` plays `matches` seeded matches and returns a `SimulationReport`;
`format_report` turns it into the lines `python -m domino simulate` prints. Each
match's seed is derived from the run's seed, so a run is reproducible.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TextIO

from domino.errors import DominoError
from domino.match import Match
from domino.players import GreedyPlayer, Player, RandomPlayer
from domino.rules import Ruleset
from domino.views import OutcomeKind

PLAYER_KINDS = ("greedy", "random")
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
    fish_rounds: int  # rounds that ended in a fish (C-8 b)
    egg_rounds: int  # rounds that made or added to eggs (K-9)
    matches_with_eggs: int
    final_points: tuple[int, ...]  # per seat, the sum over matches of its side's final points
    decided: tuple[int, ...]  # per seat: matches it lost as козёл (Козёл) or won (Классика)

    @property
    def matches_per_second(self) -> float:
        return self.matches / self.seconds if self.seconds > 0 else float("inf")


def match_seed(seed: int, index: int) -> int:
    """The seed of the `index`-th match of a run with `seed`."""
    digest = hashlib.sha256(f"domino-simulate:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def make_players(kinds: Sequence[str], rng: random.Random) -> tuple[Player, ...]:
    """One player per seat from names in `PLAYER_KINDS`."""
    players: list[Player] = []
    for kind in kinds:
        if kind == "greedy":
            players.append(GreedyPlayer())
        elif kind == "random":
            players.append(RandomPlayer(rng))
        else:
            raise DominoError(
                f"unknown player kind {kind!r}; choose from {', '.join(PLAYER_KINDS)}"
            )
    return tuple(players)


def play_match(match: Match, players: Sequence[Player]) -> Match:
    """Let `players` (one per seat) play `match` to its end, each seeing its own view."""
    while True:
        seat = match.turn
        if seat is None:
            return match
        match.apply(players[seat].choose(match.round.view(seat)), seat)


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

    start = clock()
    last_shown = None
    rounds = fish_rounds = egg_rounds = with_eggs = actions = 0
    min_rounds, max_rounds = 1 << 30, 0
    final_points = [0] * players
    decided = [0] * players
    for index in range(matches):
        match_rng = match_seed(seed, index)
        table = make_players(seat_kinds, random.Random(match_rng))
        match = play_match(Match.new(ruleset, players, match_rng), table)
        results = match.results
        rounds += len(results)
        min_rounds = min(min_rounds, len(results))
        max_rounds = max(max_rounds, len(results))
        actions += len(match.log)
        fish_rounds += sum(r.outcome.kind is OutcomeKind.FISH for r in results)
        eggs_made = sum(r.eggs_after > r.eggs_before for r in results)
        egg_rounds += eggs_made
        with_eggs += eggs_made > 0
        deciders = match.losers if ruleset.game.points_are_bad else match.winners
        for seat, points in enumerate(match.seat_points()):
            final_points[seat] += points
            if match.side_of(seat) in deciders:
                decided[seat] += 1
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
        fish_rounds=fish_rounds,
        egg_rounds=egg_rounds,
        matches_with_eggs=with_eggs,
        final_points=tuple(final_points),
        decided=tuple(decided),
    )


def _show_progress(out: TextIO, done: int, total: int) -> None:
    filled = BAR_WIDTH * done // total
    out.write(f"\r[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {done}/{total} matches")
    out.flush()


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "n/a"


def format_report(report: SimulationReport) -> str:
    """The report as the lines `python -m domino simulate` prints."""
    r = report
    rules = r.ruleset
    mode = "teams 0+2 vs 1+3" if rules.teams and r.players == 4 else "individual"
    decided_name = "козёл" if rules.game.points_are_bad else "winner"
    lines = [
        f"variant: {rules.variant} ({mode}), {r.players} players:"
        f" {','.join(r.kinds)}; target {rules.target}; seed {r.seed}",
        f"matches: {r.matches} in {r.seconds:.2f} s = {r.matches_per_second:.1f} matches/s"
        f" ({r.actions / r.seconds if r.seconds > 0 else float('inf'):.0f} actions/s)",
        f"rounds per match: {r.rounds / r.matches:.2f} (min {r.min_rounds}, max {r.max_rounds})",
        f"fish rate: {_percent(r.fish_rounds, r.rounds)} of rounds",
        f"eggs rate: {_percent(r.egg_rounds, r.rounds)} of rounds,"
        f" {_percent(r.matches_with_eggs, r.matches)} of matches",
        "mean final points: "
        + ", ".join(f"seat {s} {p / r.matches:.1f}" for s, p in enumerate(r.final_points)),
        f"{decided_name} per seat: "
        + ", ".join(f"seat {s} {_percent(n, r.matches)}" for s, n in enumerate(r.decided)),
    ]
    return "\n".join(lines)
