"""Tables, rounds and the round-robin schedule (docs/tournaments.md, «Formats»).

Deterministic: no randomness, so a stored tournament draws the same schedule again.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

from domino.errors import DominoError

ROUND_ROBIN_MIN = 2
ROUND_ROBIN_MAX = 8


@dataclass(frozen=True, slots=True)
class Table:
    """Entrant numbers (0-based, in sign-up order) in seat order."""

    entrants: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Round:
    """Round `number` (1-based): its tables and the entrants without one."""

    number: int
    tables: tuple[Table, ...]
    byes: tuple[int, ...]


def seating(entrants: int, table_size: int) -> tuple[int, int]:
    """How many tables of `table_size` a round has among `entrants`, and how many byes.

    Every table is full; whoever is left over has a bye. Fewer entrants than a table
    seats sit at one smaller table (never fewer than 2).
    """
    if not 2 <= table_size <= 4:
        raise DominoError(f"a table seats 2, 3 or 4 entrants, not {table_size}")
    if entrants < 2:
        raise DominoError(f"a tournament needs at least 2 entrants, not {entrants}")
    if entrants < table_size:
        return 1, 0
    return divmod(entrants, table_size)


def round_robin(entrants: int, table_size: int) -> tuple[Round, ...]:
    """The whole round-robin schedule: every two entrants meet at least once.

    Tables of 2: the circle method, entrant 0 fixed and the others turning round it, so
    every two meet exactly once: n - 1 rounds for even n; for odd n a blank seat makes
    it n rounds, and whoever faces the blank has that round's bye.

    Tables of 3-4: greedy. Each round is, among every way to seat the round, the first
    that brings together the most pairs not met yet, while the byes stay even (nobody
    has two byes more than anyone else). The rounds it takes, for 2..8 entrants:
    tables of 3: 1, 1, 3, 4, 4, 5, 6; tables of 4: 1, 1, 1, 3, 3, 5, 3; against a bound
    of the pairs to meet over the pairs a round seats: 1, 1, 2, 4, 3, 4, 5 and 1, 1, 1,
    2, 3, 4, 3 (for 4 at tables of 3 and 5 at tables of 4, two rounds leave the two who
    sat out unmet, and 6 at tables of 3 cannot do better than 6 + 4 + 4 new pairs).
    """
    if not ROUND_ROBIN_MIN <= entrants <= ROUND_ROBIN_MAX:
        raise DominoError(
            f"round robin takes {ROUND_ROBIN_MIN} to {ROUND_ROBIN_MAX} entrants, not {entrants}"
        )
    seating(entrants, table_size)
    if table_size == 2:
        return _circle(entrants)
    return _greedy(entrants, table_size)


def _circle(entrants: int) -> tuple[Round, ...]:
    blank = -1
    ring = list(range(entrants)) + ([blank] if entrants % 2 else [])
    size = len(ring)
    rounds = []
    for number in range(1, size):
        tables = []
        byes = []
        for i in range(size // 2):
            pair = (ring[i], ring[size - 1 - i])
            if blank in pair:
                byes.append(max(pair))
            else:
                tables.append(Table(tuple(sorted(pair))))
        rounds.append(Round(number, tuple(tables), tuple(byes)))
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return tuple(rounds)


def _greedy(entrants: int, table_size: int) -> tuple[Round, ...]:
    tables, bye_count = seating(entrants, table_size)
    size = min(table_size, entrants)
    unmet = {frozenset(pair) for pair in combinations(range(entrants), 2)}
    byes_had = [0] * entrants
    candidates = list(_seatings(tuple(range(entrants)), tables, size, bye_count))
    rounds: list[Round] = []
    while unmet:
        best: Round | None = None
        best_new = -1
        for seats, byes in candidates:
            after = list(byes_had)
            for entrant in byes:
                after[entrant] += 1
            if max(after) - min(after) > 1:
                continue
            new = sum(
                1 for table in seats for pair in combinations(table, 2) if frozenset(pair) in unmet
            )
            if new > best_new:
                best_new = new
                best = Round(len(rounds) + 1, tuple(Table(t) for t in seats), byes)
        if best is None:  # pragma: no cover - a bye set within one of the fewest always exists
            raise DominoError("no round keeps the byes even")
        for table in best.tables:
            unmet -= {frozenset(pair) for pair in combinations(table.entrants, 2)}
        for entrant in best.byes:
            byes_had[entrant] += 1
        rounds.append(best)
    return tuple(rounds)


def _seatings(
    entrants: tuple[int, ...], tables: int, size: int, byes: int
) -> Iterator[tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]]:
    """Every round among `entrants`: `byes` of them sit out, the rest fill `tables`
    tables of `size`, each table sorted and the tables ordered by their first seat."""
    for sitting_out in combinations(reversed(entrants), byes):
        rest = tuple(e for e in entrants if e not in sitting_out)
        for seats in _partitions(rest, size):
            yield seats, tuple(sorted(sitting_out))


def _partitions(entrants: Sequence[int], size: int) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Every way to split `entrants` (a multiple of `size` of them) into tables of
    `size`, each table in the given order: the first entrant left heads the next table."""
    if not entrants:
        yield ()
        return
    head, rest = entrants[0], entrants[1:]
    for others in combinations(rest, size - 1):
        left = [e for e in rest if e not in others]
        for tail in _partitions(left, size):
            yield ((head, *others), *tail)
