"""A matchup harness for computer players: one level against another on paired deals.

`run_ladder` plays a focal level against a field level. Every match seed is played
once per seating, with the deals kept and the seats turned: the focal player in each
seat in turn (individual play), or the focal pair at 0+2 and then at 1+3 (pairs,
K-1, S-1). Each round of a match is dealt from the match seed and the round number
alone (C-12), so every seating holds the same hands seat for seat in every round,
and the luck of the deal falls on the focal player and on the field alike. A seat's
generator is seeded from the match seed and the seat, whoever sits there, so a focal
level equal to the field plays the very same match in every seating and scores par
exactly.

What is measured: the focal side's match-loss rate (the козёл or осёл where points
are bad, K-10, O-6; elsewhere the last place, fewest points) and, where points are
good, its win rate; par (one side's share); a 95% interval; rounds per match; and
each level's decision time, CPU and wall. A match two sides lose (or win) together
counts half to each (a third among three), so the shares of a match add up to one
and par is exactly one over the number of sides.

The seatings of one deal are not independent (that is the point of pairing them), so
the interval is not the plain Wilson interval of all the matches: it is the Wilson
interval at the effective number of matches that gives the variance seen between the
deals' means (Kish's design effect). Players get only the seat's view
(`Match.view(seat)`), never the match. `--jobs` spreads the deals over processes;
every deal's results depend on its seed only, so the figures do not depend on it.
"""

from __future__ import annotations

import hashlib
import math
import multiprocessing
import random
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TextIO

from domino.actions import Action
from domino.ai import computer
from domino.errors import DominoError
from domino.match import Match
from domino.players import GreedyPlayer, Player, RandomPlayer
from domino.rules import Ruleset
from domino.variants import find_variant
from domino.views import MatchView

LEVELS = ("random", "greedy", "easy", "medium", "hard")
"""The players a ladder seats: the two plain ones of `domino.players` and the
computer levels of `domino.ai`."""

Z95 = 1.959963984540054  # the normal quantile of a two-sided 95% interval
PROGRESS_AFTER = 1.0  # seconds: shorter runs print no progress bar
BAR_WIDTH = 30


def make_player(level: str, seed: int) -> Player:
    """A player of `level` (one of `LEVELS`) with its generator seeded by `seed`."""
    if level == "greedy":
        return GreedyPlayer()
    if level == "random":
        return RandomPlayer(random.Random(seed))
    if level not in LEVELS:
        raise DominoError(f"no level {level!r}; the levels are {', '.join(LEVELS)}")
    return computer(level, seed=seed)


@dataclass(frozen=True, slots=True)
class Matchup:
    """Who plays whom, in which game: plain data, so it crosses to worker processes."""

    variant: str  # a key of `domino.variants.VARIANTS`
    players: int
    pairs: bool  # four players in 2x2, partners opposite (K-1): pair against pair
    focal: str  # a level of `LEVELS`
    field: str

    @property
    def ruleset(self) -> Ruleset:
        return find_variant(self.variant).ruleset.with_options(teams=self.pairs)

    def seatings(self) -> tuple[tuple[str, ...], ...]:
        """Each seat's level, per seating: the focal player in each seat in turn, or the
        focal pair at 0+2 and then at 1+3."""
        if self.pairs:
            first = tuple(self.focal if seat % 2 == 0 else self.field for seat in range(4))
            second = tuple(self.field if seat % 2 == 0 else self.focal for seat in range(4))
            return first, second
        return tuple(
            tuple(self.focal if seat == focal else self.field for seat in range(self.players))
            for focal in range(self.players)
        )

    def focal_seat(self, seating: int) -> int:
        """A seat of the focal side in seating number `seating`."""
        return seating


def matchup(
    variant: str,
    focal: str,
    field: str,
    *,
    players: int | None = None,
    pairs: bool | None = None,
) -> Matchup:
    """A checked `Matchup`: the game's default table size (four where it allows) and
    its default of pairs with four players, unless given."""
    game = find_variant(variant)
    base = game.ruleset
    if players is None:
        players = 4 if 4 in base.hand_sizes else base.max_players
    if pairs is None:
        pairs = base.teams and players == 4
    if pairs and players != 4:
        raise DominoError(f"pairs need four players, not {players}")
    for level in (focal, field):
        if level not in LEVELS:
            raise DominoError(f"no level {level!r}; the levels are {', '.join(LEVELS)}")
    chosen = Matchup(game.key.value, players, pairs, focal, field)
    chosen.ruleset.hand_size(players)  # refuses a table the game is not played at
    return chosen


def deal_seed(seed: int, index: int) -> int:
    """The match seed of deal `index` of a ladder run with `seed`."""
    digest = hashlib.sha256(f"domino-ladder:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def seat_seed(match_seed: int, seat: int) -> int:
    """The seed of the player at `seat` in the match `match_seed`, whatever its level."""
    digest = hashlib.sha256(f"domino-ladder-seat:{match_seed}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


@dataclass(frozen=True, slots=True)
class DealResult:
    """One deal played in every seating: per seating, the focal side's share of the
    loss and of the win (0..1, ties split) and the rounds played; per level, the CPU
    and wall seconds of each decision."""

    index: int
    lost: tuple[float, ...]
    won: tuple[float, ...]
    rounds: tuple[int, ...]
    cpu: dict[str, list[float]]
    wall: dict[str, list[float]]


def _share(side: int, deciders: Sequence[int]) -> float:
    return 1.0 / len(deciders) if side in deciders else 0.0


def play_match(
    match: Match,
    players: Sequence[Player],
    levels: Sequence[str],
    cpu: dict[str, list[float]],
    wall: dict[str, list[float]],
) -> Match:
    """Let `players` (one per seat, of `levels`) play `match` to its end, each given its
    seat's view only; each decision's CPU and wall seconds are added under its level."""
    process_time, perf_counter = time.process_time, time.perf_counter
    while True:
        seat = match.turn
        if seat is None:
            return match
        view: MatchView = match.view(seat)
        began_cpu, began_wall = process_time(), perf_counter()
        action: Action = players[seat].choose(view)
        cpu[levels[seat]].append(process_time() - began_cpu)
        wall[levels[seat]].append(perf_counter() - began_wall)
        match.apply(action, seat)


def play_deal(chosen: Matchup, seed: int, index: int) -> DealResult:
    """Deal `index` of a run with `seed`, played once in every seating."""
    ruleset = chosen.ruleset
    game = ruleset.game
    match_seed = deal_seed(seed, index)
    cpu: dict[str, list[float]] = {chosen.focal: [], chosen.field: []}
    wall: dict[str, list[float]] = {chosen.focal: [], chosen.field: []}
    lost: list[float] = []
    won: list[float] = []
    rounds: list[int] = []
    for number, levels in enumerate(chosen.seatings()):
        players = [
            make_player(level, seat_seed(match_seed, seat)) for seat, level in enumerate(levels)
        ]
        match = Match.new(ruleset, chosen.players, match_seed)
        play_match(match, players, levels, cpu, wall)
        side = match.side_of(chosen.focal_seat(number))
        if game.points_are_bad:
            losers = match.losers
            winners: tuple[int, ...] = ()
        else:
            losers = game.last_sides(match.scores)
            winners = match.winners
        lost.append(_share(side, losers))
        won.append(_share(side, winners))
        rounds.append(len(match.results))
    return DealResult(index, tuple(lost), tuple(won), tuple(rounds), cpu, wall)


# --- intervals ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Interval:
    low: float
    high: float

    def __contains__(self, value: float) -> bool:
        return self.low <= value <= self.high


def wilson(share: float, n: float, z: float = Z95) -> Interval:
    """The Wilson score interval of a proportion `share` observed in `n` trials (`n` may
    be an effective, non-integer count); the whole range when there are none."""
    if n <= 0:
        return Interval(0.0, 1.0)
    if math.isinf(n):
        return Interval(share, share)
    z2 = z * z
    centre = (share + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(share * (1 - share) / n + z2 / (4 * n * n))
    # Rounding must not put the estimate outside its own interval.
    return Interval(max(0.0, min(centre - half, share)), min(1.0, max(centre + half, share)))


@dataclass(frozen=True, slots=True)
class Estimate:
    """A proportion estimated from deal groups: the mean, the number of matches, the
    effective number (matches that would give the same variance were they independent)
    and the 95% interval (Wilson at the effective number)."""

    share: float
    matches: int
    deals: int
    effective: float
    interval: Interval


def clustered_estimate(groups: Sequence[Sequence[float]], z: float = Z95) -> Estimate:
    """The mean share over `groups` (the seatings of each deal, 0..1 each) with a 95%
    interval that treats the deals, not the matches, as the independent draws.

    The variance of the mean is the variance between the deals' means over their
    number; the effective number of matches is p(1-p) over it, and the interval is
    Wilson's at that number. Pairing may well make the variance smaller than that of as
    many independent matches, but a few deals can show too little spread by chance, so
    the effective number is never taken above the number of matches (nor above the
    number of deals when every match was lost, or none)."""
    if not groups:
        raise DominoError("an estimate needs at least one deal")
    means = [statistics.fmean(group) for group in groups]
    matches = sum(len(group) for group in groups)
    share = statistics.fmean(means)
    deals = len(means)
    variance = statistics.variance(means) / deals if deals > 1 else math.inf
    spread = share * (1 - share)
    if spread == 0:
        effective = float(deals)
    elif variance == 0:
        effective = float(matches)
    else:
        effective = min(float(matches), spread / variance)
    return Estimate(share, matches, deals, effective, wilson(share, effective, z))


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, Interval]:
    """The mean of independent `values` and its normal 95% interval."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, Interval(-math.inf, math.inf)
    half = z * statistics.stdev(values) / math.sqrt(len(values))
    return mean, Interval(mean - half, mean + half)


def percentile(values: Sequence[float], share: float) -> float:
    """The `share` quantile (0..1) by the nearest-rank method; nan when there is none."""
    ordered = sorted(values)
    if not ordered:
        return math.nan
    rank = max(0, min(len(ordered) - 1, math.ceil(share * len(ordered)) - 1))
    return ordered[rank]


# --- a run ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Timing:
    """One level's decision times in milliseconds."""

    level: str
    decisions: int
    cpu_median: float
    cpu_p95: float
    wall_median: float
    wall_p95: float


def timing(level: str, cpu: Sequence[float], wall: Sequence[float]) -> Timing:
    return Timing(
        level,
        len(cpu),
        percentile(cpu, 0.5) * 1e3,
        percentile(cpu, 0.95) * 1e3,
        percentile(wall, 0.5) * 1e3,
        percentile(wall, 0.95) * 1e3,
    )


@dataclass(frozen=True, slots=True)
class LadderReport:
    matchup: Matchup
    seed: int
    jobs: int
    seconds: float  # wall time of the whole run
    points_are_bad: bool
    sides: int
    seatings: int
    lost: Estimate
    won: Estimate | None  # where points are good
    rounds_per_match: float
    timings: tuple[Timing, ...] = field(default=())
    # Every decision's CPU and wall seconds per level, to merge runs (`bench/ai.py`).
    cpu_times: dict[str, list[float]] = field(default_factory=dict, repr=False)
    wall_times: dict[str, list[float]] = field(default_factory=dict, repr=False)

    @property
    def par(self) -> float:
        return 1.0 / self.sides


def _play_deals(args: tuple[Matchup, int, Sequence[int]]) -> list[DealResult]:
    chosen, seed, indices = args
    return [play_deal(chosen, seed, index) for index in indices]


def deal_results(
    chosen: Matchup,
    deals: int,
    seed: int,
    jobs: int = 1,
    *,
    progress: Callable[[int], None] | None = None,
) -> Iterator[DealResult]:
    """Every deal's results in the order of the deals, played in `jobs` processes."""
    if jobs <= 1:
        for index in range(deals):
            yield play_deal(chosen, seed, index)
            if progress is not None:
                progress(index + 1)
        return
    batch = max(1, min(8, deals // (jobs * 8)))
    batches = [
        (chosen, seed, range(start, min(deals, start + batch))) for start in range(0, deals, batch)
    ]
    done = 0
    with multiprocessing.get_context("forkserver").Pool(jobs) as pool:
        for results in pool.imap(_play_deals, batches):
            yield from results
            done += len(results)
            if progress is not None:
                progress(done)


def run_ladder(
    chosen: Matchup,
    deals: int,
    seed: int,
    jobs: int = 1,
    *,
    progress: TextIO | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> LadderReport:
    """Play `deals` paired deals of `chosen` and sum them up. With `progress`, a text
    progress bar is written there once the run has lasted `PROGRESS_AFTER` seconds."""
    if deals < 1:
        raise DominoError(f"play at least one deal, not {deals}")
    if jobs < 1:
        raise DominoError(f"jobs must be at least 1, not {jobs}")
    start = clock()
    shown = [start]

    def show(done: int) -> None:
        now = clock()
        if (
            progress is not None
            and now - start >= PROGRESS_AFTER
            and (now - shown[0] >= 0.2 or done == deals)
        ):
            shown[0] = now
            filled = BAR_WIDTH * done // deals
            progress.write(f"\r[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {done}/{deals} deals")
            progress.flush()

    results = list(deal_results(chosen, deals, seed, jobs, progress=show))
    if progress is not None and shown[0] != start:
        progress.write("\n")
        progress.flush()
    ruleset = chosen.ruleset
    game = ruleset.game
    cpu: dict[str, list[float]] = {}
    wall: dict[str, list[float]] = {}
    for result in results:
        for level, times in result.cpu.items():
            cpu.setdefault(level, []).extend(times)
        for level, times in result.wall.items():
            wall.setdefault(level, []).extend(times)
    rounds = [r for result in results for r in result.rounds]
    sides = 2 if chosen.pairs else chosen.players
    return LadderReport(
        matchup=chosen,
        seed=seed,
        jobs=jobs,
        seconds=clock() - start,
        points_are_bad=game.points_are_bad,
        sides=sides,
        seatings=len(chosen.seatings()),
        lost=clustered_estimate([result.lost for result in results]),
        won=None if game.points_are_bad else clustered_estimate([r.won for r in results]),
        rounds_per_match=statistics.fmean(rounds),
        timings=tuple(timing(level, cpu[level], wall[level]) for level in cpu),
        cpu_times=cpu,
        wall_times=wall,
    )


# --- text -------------------------------------------------------------------------------------


def percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def format_estimate(name: str, estimate: Estimate, par: float) -> str:
    """One figure: `козёл rate: 15.2% (95% CI 13.1%-17.4%, n = 4000 matches on 1000
    deals, effective n 2890; par 25.0%)`."""
    low, high = estimate.interval.low, estimate.interval.high
    return (
        f"{name}: {percent(estimate.share)} (95% CI {percent(low)}-{percent(high)},"
        f" n = {estimate.matches} matches on {estimate.deals} deals, effective n"
        f" {estimate.effective:.0f};"
        f" par {percent(par)})"
    )


def format_timings(timings: Sequence[Timing]) -> list[str]:
    return [
        f"decision time, {t.level}: median {t.cpu_median:.2f} ms CPU / {t.wall_median:.2f} ms"
        f" wall, p95 {t.cpu_p95:.2f} ms CPU / {t.wall_p95:.2f} ms wall (n = {t.decisions})"
        for t in timings
    ]


def loss_name(chosen: Matchup) -> str:
    """What a lost match is called in the game: козёл (K-10), осёл (O-6), last place."""
    game = find_variant(chosen.variant)
    if not game.points_are_bad:
        return "loss rate (last place)"
    return "осёл rate" if chosen.variant == "osel" else "козёл rate"


def format_ladder(report: LadderReport) -> str:
    """The lines `python -m domino ladder` prints."""
    m = report.matchup
    table = "pairs 0+2 vs 1+3" if m.pairs else "individual"
    focal = f"{m.focal} pair" if m.pairs else m.focal
    field_ = f"a {m.field} pair" if m.pairs else f"{m.players - 1} x {m.field}"
    seating = (
        "the focal pair at 0+2, then at 1+3" if m.pairs else "the focal player in each seat in turn"
    )
    lines = [
        f"ladder: {m.variant}, {m.players} players, {table}: {focal} vs"
        f" {field_}; seed {report.seed}",
        f"deals: {report.lost.deals}, each played {report.seatings} times ({seating}):"
        f" {report.lost.matches} matches in {report.seconds:.1f} s, {report.jobs} job(s)",
        format_estimate(loss_name(m), report.lost, report.par),
    ]
    if report.won is not None:
        lines.append(format_estimate("win rate", report.won, report.par))
    lines += [
        "interval: Wilson's at the effective n, the matches that would give the variance"
        " seen between the deals' means (the seatings of one deal are not independent),"
        " at most n",
        f"rounds per match: {report.rounds_per_match:.2f}",
        *format_timings(report.timings),
    ]
    return "\n".join(lines)
