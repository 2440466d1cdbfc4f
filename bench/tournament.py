"""Tournament engine benchmark: what drawing a Swiss round costs, and how many repeat
meetings it leaves, against plain top-down pairing (Monrad without backtracking, the
peer: the simplest Swiss draw), on the same standings in the same run.

    .venv/bin/python bench/tournament.py [--tournaments N] [--repeats K] [--quick]

For 8, 16 and 32 entrants at tables of 2, 3 and 4, N whole Swiss tournaments (every
round the format allows) are played with seeded random places; each round is drawn by
`domino.tournament.swiss_round` and, from the same results, by the peer. Printed per
size: the draw's time per round (p50 and max over every round, best of K repeats of
the whole run, in ms of this process's CPU), the peer's, their ratio, and the repeat
meetings each left over all the rounds (the peer's draw is not played on: both are
scored on ours' results). Also `standings` of a whole 32-entrant tournament and the
round robin's schedule for 8 at each table size.

A draw runs inside the transaction that ends a round's last table, on the bot's event
loop: its max is how long the loop stalls once a round.
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import time
from collections.abc import Callable, Sequence

from domino.tournament import (
    Bye,
    Format,
    Round,
    Table,
    TableResult,
    bye_half_points,
    round_robin,
    standings,
    swiss_round,
    swiss_rounds_allowed,
)
from domino.tournament.schedule import seating
from domino.tournament.standings import met_pairs

SIZES = (8, 16, 32)
TABLES = (2, 3, 4)


def peer_round(
    number: int, active: Sequence[int], table_size: int, results: Sequence[TableResult]
) -> Round:
    """Top-down pairing without backtracking: by standing, each table the best-ranked
    entrant left with the next best-ranked it has not met (anyone, if all were met);
    the lowest-ranked sit the round out."""
    ranked = [line.entrant for line in standings(max(active) + 1, Format.SWISS, results)]
    ranked = [e for e in ranked if e in set(active)]
    _, byes_count = seating(len(ranked), table_size)
    left = ranked[: len(ranked) - byes_count]
    met = met_pairs(results)
    tables = []
    while left:
        table = [left.pop(0)]
        while len(table) < len(left) + len(table) and len(table) < table_size:
            fresh = [e for e in left if all(frozenset((e, s)) not in met for s in table)]
            pick = fresh[0] if fresh else left[0]
            left.remove(pick)
            table.append(pick)
        tables.append(Table(tuple(table)))
    return Round(number, tuple(tables), tuple(ranked[len(ranked) - byes_count :]))


def repeats(round_: Round, results: Sequence[TableResult]) -> int:
    met = met_pairs(results)
    return sum(
        1
        for table in round_.tables
        for i, a in enumerate(table.entrants)
        for b in table.entrants[i + 1 :]
        if frozenset((a, b)) in met
    )


def play(round_: Round, rng: random.Random) -> list[TableResult]:
    results = []
    for table in round_.tables:
        places = list(range(len(table.entrants)))
        rng.shuffle(places)
        margins = tuple(float(rng.randint(-30, 30)) for _ in table.entrants)
        results.append(TableResult(round_.number, table.entrants, tuple(places), margins))
    return results


def timed(work: Callable[[], object]) -> tuple[float, object]:
    start = time.process_time()
    value = work()
    return (time.process_time() - start) * 1000, value


def swiss_run(
    n: int, k: int, tournaments: int, seed: int
) -> tuple[list[float], list[float], int, int]:
    """Times (ms) of our draws and the peer's, and the repeats each left."""
    ours_ms: list[float] = []
    peer_ms: list[float] = []
    ours_repeats = peer_repeats = 0
    rng = random.Random(seed)
    halves = bye_half_points(Format.SWISS, k)
    for _ in range(tournaments):
        results: list[TableResult] = []
        byes: list[Bye] = []
        active = list(range(n))
        for number in swiss_rounds_allowed(n, k):
            spent, drawn = timed(functools.partial(swiss_round, number, active, k, results, byes))
            assert isinstance(drawn, Round)
            ours_ms.append(spent)
            peer_spent, peer = timed(functools.partial(peer_round, number, active, k, results))
            assert isinstance(peer, Round)
            peer_ms.append(peer_spent)
            ours_repeats += repeats(drawn, results)
            peer_repeats += repeats(peer, results)
            results += play(drawn, rng)
            byes += [Bye(number, e, halves) for e in drawn.byes]
    return ours_ms, peer_ms, ours_repeats, peer_repeats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tournaments", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="1 tournament, 1 repeat")
    args = parser.parse_args()
    tournaments, repeat = (1, 1) if args.quick else (args.tournaments, args.repeats)
    print(f"Swiss draws: {tournaments} tournaments a size, every round allowed, best of {repeat}")
    print(
        f"{'entrants':>8} {'table':>5} {'rounds':>6} | {'ours p50':>9} {'ours max':>9}"
        f" | {'peer p50':>9} {'peer max':>9} | {'ratio p50':>9} | {'repeats ours/peer':>17}"
    )
    for n in SIZES:
        for k in TABLES:
            best: tuple[list[float], list[float], int, int] | None = None
            for _ in range(repeat):
                run = swiss_run(n, k, tournaments, seed=n * 10 + k)
                if best is None or max(run[0]) < max(best[0]):
                    best = run
            assert best is not None
            ours, peer, ours_rep, peer_rep = best
            p50, peer_p50 = statistics.median(ours), statistics.median(peer)
            print(
                f"{n:>8} {k:>5} {len(swiss_rounds_allowed(n, k)):>6} |"
                f" {p50:>6.2f} ms {max(ours):>6.1f} ms |"
                f" {peer_p50:>6.2f} ms {max(peer):>6.1f} ms |"
                f" {p50 / max(peer_p50, 1e-3):>7.1f} × | {ours_rep:>8} / {peer_rep:<7}"
            )
    rng = random.Random(7)
    results: list[TableResult] = []
    for number in swiss_rounds_allowed(32, 2):
        drawn = swiss_round(number, range(32), 2, results, ())
        results += play(drawn, rng)
    spent = min(timed(lambda: standings(32, Format.SWISS, results))[0] for _ in range(repeat))
    print(f"standings of 32 entrants after {len(results)} tables: {spent:.2f} ms")
    for k in TABLES:
        spent, schedule = timed(functools.partial(round_robin, 8, k))
        assert isinstance(schedule, tuple)
        print(f"round robin of 8 at tables of {k}: {len(schedule)} rounds in {spent:.2f} ms")


if __name__ == "__main__":
    main()
