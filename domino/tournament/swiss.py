"""Swiss pairing (docs/tournaments.md, «Formats»): each round drawn by standing after the
last one ends.

Tables are drawn top-down (as in the Monrad system): the best-ranked entrant not yet
seated sits with the next best-ranked ones it has not met, so tables gather entrants
of one score group as far as they can. When that would leave the ones further down
only repeat meetings, the draw backtracks; a repeat is accepted only when no draw
avoids it, and then as few as the search finds. Deterministic: the same results give
the same round.
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
SEARCH_LIMIT = 50_000  # tables tried per number of repeats allowed, before allowing one more


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
    yet, while someone has none); among them, higher up only when that avoids a repeat
    meeting.
    """
    if number < 1:
        raise DominoError(f"rounds are numbered from 1, not {number}")
    if len(set(active)) != len(active) or any(entrant < 0 for entrant in active):
        raise DominoError(f"active entrants must be different entrant numbers, not {active}")
    if not SWISS_MIN <= len(active) <= SWISS_MAX:
        raise DominoError(f"Swiss pairs {SWISS_MIN} to {SWISS_MAX} entrants, not {len(active)}")
    tables, bye_count = seating(len(active), table_size)
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

    most_repeats = tables * math.comb(size, 2)
    for allowed in range(most_repeats + 1):
        search = _Search(size, met, SEARCH_LIMIT if allowed < most_repeats else math.inf)
        for sitting_out in bye_sets:
            left = tuple(entrant for entrant in ranked if entrant not in sitting_out)
            try:
                seats = search.seat(left, allowed)
            except _SearchExhausted:
                break
            if seats is not None:
                return Round(
                    number, tuple(Table(table) for table in seats), tuple(sorted(sitting_out))
                )
    raise DominoError("no draw found")  # pragma: no cover - the last pass takes any draw


class _SearchExhausted(Exception):
    """The search tried its limit of tables; the caller allows one more repeat."""


class _Search:
    """Depth-first, top-down: the best-ranked entrant left heads a table, with the next
    best-ranked ones that keep the repeats within what is allowed."""

    def __init__(self, size: int, met: set[frozenset[int]], limit: float) -> None:
        self.size = size
        self.met = met
        self.limit = limit
        self.tried = 0

    def seat(self, left: tuple[int, ...], allowed: int) -> list[tuple[int, ...]] | None:
        if not left:
            return []
        head, rest = left[0], left[1:]
        for others in combinations(rest, self.size - 1):
            self.tried += 1
            if self.tried > self.limit:
                raise _SearchExhausted
            table = (head, *others)
            repeats = sum(1 for pair in combinations(table, 2) if frozenset(pair) in self.met)
            if repeats > allowed:
                continue
            tail = self.seat(tuple(e for e in rest if e not in others), allowed - repeats)
            if tail is not None:
                return [table, *tail]
        return None
