"""Swiss pairing (docs/tournaments.md, «Formats»): each round drawn by standing after the
last one ends.

Tables are drawn top-down (as in the Monrad system): the best-ranked entrant not yet
seated sits with the next best-ranked ones it has not met, so tables gather entrants
of one score group as far as they can. When that would leave the ones further down
only repeat meetings, the draw backtracks; a repeat is accepted only when no draw
avoids it, and then as few as can be. The search is bounded (`SEARCH_LIMIT` tables
tried, under 0.2 s for 32 entrants, `bench/tournament.py`): past it, the
fewest repeats found so far, and never more than the plain top-down draw without
backtracking leaves (`_greedy`), which the search starts from as the draw to beat.
Deterministic: the same results give the same round.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from domino.errors import DominoError
from domino.tournament.schedule import Round, Table, seating
from domino.tournament.standings import Bye, Format, TableResult, met_pairs, standings

SWISS_MIN = 2
SWISS_MAX = 32
SEARCH_LIMIT = 20_000  # tables tried before the search settles for the best so far


def swiss_rounds_allowed(entrants: int, table_size: int) -> range:
    """The rounds a Swiss tournament may be set to: 1 up to the rounds it takes an
    entrant to meet everyone at best (n - 1 at tables of 2, ⌈(n - 1) / 2⌉ at tables of
    3, ⌈(n - 1) / 3⌉ at tables of 4)."""
    if not SWISS_MIN <= entrants <= SWISS_MAX:
        raise DominoError(f"Swiss takes {SWISS_MIN} to {SWISS_MAX} entrants, not {entrants}")
    seating(entrants, table_size)
    others = min(table_size, entrants) - 1
    return range(1, math.ceil((entrants - 1) / others) + 1)


def swiss_round(
    number: int,
    active: Sequence[int],
    table_size: int,
    results: Sequence[TableResult],
    byes: Sequence[Bye],
) -> Round:
    """Round `number` among the `active` entrants (the caller leaves out the withdrawn),
    ranked by `standings` of `results` and `byes` so far.

    The byes go to the lowest-ranked active entrants with the fewest byes so far (none
    yet, while someone has none); among them, higher up only when that makes fewer
    repeat meetings.
    """
    if number < 1:
        raise DominoError(f"rounds are numbered from 1, not {number}")
    if len(set(active)) != len(active) or any(entrant < 0 for entrant in active):
        raise DominoError(f"active entrants must be different entrant numbers, not {active}")
    if not SWISS_MIN <= len(active) <= SWISS_MAX:
        raise DominoError(f"Swiss pairs {SWISS_MIN} to {SWISS_MAX} entrants, not {len(active)}")
    _, bye_count = seating(len(active), table_size)
    size = min(table_size, len(active))

    known = [*active, *(e for result in results for e in result.entrants)]
    known += [bye.entrant for bye in byes]
    lines = standings(max(known) + 1, Format.SWISS, results, byes)
    rank = {line.entrant: index for index, line in enumerate(lines)}
    ranked = sorted(active, key=rank.__getitem__)
    met = met_pairs(results)

    byes_had = Counter(bye.entrant for bye in byes)
    candidates = sorted(ranked, key=lambda entrant: (byes_had[entrant], -rank[entrant]))
    due = sorted(byes_had[entrant] for entrant in candidates[:bye_count])
    bye_sets = [
        sitting_out
        for sitting_out in combinations(candidates, bye_count)
        if sorted(byes_had[entrant] for entrant in sitting_out) == due
    ]

    # The plain top-down draw (no backtracking) is the draw to beat: the search never
    # settles for more repeats than it has.
    greedy, greedy_repeats = _greedy(ranked, bye_sets[0], size, met)
    # Fewest repeats first: none, then one more at a time, while the search is within
    # its limit; past it, the best draw a last, bounded search finds below the greedy's.
    tried = 0
    for ceiling in range(greedy_repeats):
        if tried > SEARCH_LIMIT:
            break
        search = _Search(size, met, ceiling + 1, SEARCH_LIMIT - tried)
        found = search.draw(ranked, bye_sets)
        if found is not None:
            return Round(number, *found)
        tried += search.tried
    if greedy_repeats > 0 and tried > SEARCH_LIMIT:
        found = _Search(size, met, greedy_repeats, SEARCH_LIMIT).draw(ranked, bye_sets)
        if found is not None:
            return Round(number, *found)
    return Round(number, *greedy)


def _greedy(
    ranked: Sequence[int], sitting_out: tuple[int, ...], size: int, met: set[frozenset[int]]
) -> tuple[tuple[tuple[Table, ...], tuple[int, ...]], int]:
    """Top-down without backtracking: the best-ranked entrant left heads a table, and
    each seat goes to the best-ranked one left who adds the fewest repeats to it. The
    draw (tables, byes) and its repeats."""
    left = [entrant for entrant in ranked if entrant not in sitting_out]
    tables: list[Table] = []
    repeats = 0
    while left:
        table = [left.pop(0)]
        while left and len(table) < size:
            added = [sum(1 for s in table if frozenset((e, s)) in met) for e in left]
            pick = added.index(min(added))  # the first (best-ranked) of the fewest
            repeats += added[pick]
            table.append(left.pop(pick))
        tables.append(Table(tuple(table)))
    return (tuple(tables), tuple(sorted(sitting_out))), repeats


class _Search:
    """Branch and bound, top-down: the best-ranked entrant left heads a table, with the
    next best-ranked ones first. Only a draw with fewer repeats than `best_repeats` (at
    first the ceiling) replaces the best, so the best is the first (by ranking) of the
    fewest repeats, or, once `limit` tables were tried, the best so far.
    """

    def __init__(self, size: int, met: set[frozenset[int]], ceiling: float, limit: int) -> None:
        self.size = size
        self.met_with: dict[int, int] = {}  # entrant -> bit set of the entrants it met
        for pair in met:
            first, second = tuple(pair)
            self.met_with[first] = self.met_with.get(first, 0) | 1 << second
            self.met_with[second] = self.met_with.get(second, 0) | 1 << first
        self.best_repeats = ceiling
        self.limit = limit
        self.tried = 0

    def draw(
        self, ranked: Sequence[int], bye_sets: Sequence[tuple[int, ...]]
    ) -> tuple[tuple[Table, ...], tuple[int, ...]] | None:
        """The best tables and byes within the ceiling, trying the byes in order."""
        best = None
        for sitting_out in bye_sets:
            left = tuple(entrant for entrant in ranked if entrant not in sitting_out)
            found = self._seat(left, 0, [])
            if found is not None:
                best = (tuple(Table(table) for table in found), tuple(sorted(sitting_out)))
            if self.best_repeats == 0 or self.tried > self.limit:
                break
        return best

    def _seat(
        self, left: tuple[int, ...], repeats: int, seated: list[tuple[int, ...]]
    ) -> list[tuple[int, ...]] | None:
        """The best draw of `left` below `best_repeats`, after `seated` with `repeats`."""
        if not left:
            self.best_repeats = repeats
            return list(seated)
        if repeats + self._forced(left) >= self.best_repeats:
            return None
        found = None
        head, rest = left[0], left[1:]
        for others in combinations(rest, self.size - 1):
            if self.tried > self.limit and self.best_repeats < math.inf:
                break
            self.tried += 1
            table = (head, *others)
            more = sum(1 for a, b in combinations(table, 2) if self.met_with.get(a, 0) >> b & 1)
            if repeats + more >= self.best_repeats:
                continue
            remaining = tuple(e for e in rest if e not in others)
            better = self._seat(remaining, repeats + more, [*seated, table])
            if better is not None:
                found = better
                if self.best_repeats == 0:
                    break
        return found

    def _forced(self, left: tuple[int, ...]) -> int:
        """At least this many repeats among `left`: each entrant with fewer unmet ones
        left than a table's other seats has a repeat at its table, one per two such."""
        everyone = 0
        for entrant in left:
            everyone |= 1 << entrant
        short = sum(
            1
            for entrant in left
            if (everyone & ~self.met_with.get(entrant, 0)).bit_count() - 1 < self.size - 1
        )
        return (short + 1) // 2
