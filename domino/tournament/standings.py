"""Points, byes and the ranking of a tournament (docs/tournaments.md, «Points and tie-breaks»).

Points are counted in halves, so every sum stays an exact integer: at a table each
entrant takes from each other entrant there 2 halves if it finished above, 1 if level,
0 if below. The standings are recomputed from the stored results every time, never
stored themselves.

Two entrants *met* when they were drawn to the same table, whether or not both showed
up: a forfeit between them is a result between them. Head to head, Buchholz and the
Swiss pairing's "no repeat" all use this one meaning.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import combinations

from domino.errors import DominoError

HALVES_ABOVE = 2
HALVES_LEVEL = 1
MARGIN_DIGITS = 9  # margins are float sums; equal to this many digits counts as level


class Format(StrEnum):
    """How a tournament's rounds are drawn."""

    ROUND_ROBIN = "round_robin"
    SWISS = "swiss"


@dataclass(frozen=True, slots=True)
class TableResult:
    """One table's outcome, as the stats rank its match (`bot.app.standings`).

    `places[i]` is the place of `entrants[i]`, 0 the best, equal numbers level;
    `margins[i]` its match score, more is better (0.0 for an absentee). Entrants in
    `absent` forfeited: their places do not count.
    """

    round: int
    entrants: tuple[int, ...]
    places: tuple[int, ...]
    margins: tuple[float, ...]
    absent: frozenset[int] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        count = len(self.entrants)
        if count < 2 or len(set(self.entrants)) != count:
            raise DominoError(f"a table needs two or more different entrants, not {self.entrants}")
        if len(self.places) != count or len(self.margins) != count:
            raise DominoError(
                f"{count} entrants need as many places and margins,"
                f" not {len(self.places)} and {len(self.margins)}"
            )
        if not self.absent <= set(self.entrants):
            raise DominoError(f"absent {sorted(self.absent)} are not all at {self.entrants}")


@dataclass(frozen=True, slots=True)
class Bye:
    """A round without a table for `entrant`, worth `half_points` (`bye_half_points`)."""

    round: int
    entrant: int
    half_points: int


@dataclass(frozen=True, slots=True)
class Line:
    """One entrant's line of the standings; `place` is 1-based and shared by a full tie."""

    entrant: int
    place: int
    half_points: int
    played: int  # matches played (a table where two or more were present)
    firsts: int
    head_to_head: int | None
    buchholz: int | None
    margin: float
    withdrawn: bool


def table_half_points(result: TableResult) -> dict[int, int]:
    """Each entrant's halves at one table: against each other entrant 2 if above, 1 if
    level, 0 if below. An absentee takes 0 from everyone (and another absentee takes 0
    from it); whoever is present takes 2 from each absentee."""
    return {
        entrant: sum(_halves_against(result, i, j) for j in range(len(result.entrants)) if j != i)
        for i, entrant in enumerate(result.entrants)
    }


def bye_half_points(format: Format, table_size: int) -> int:
    """A bye's worth: nothing in round robin (everyone gets as many); in Swiss a win at
    tables of 2, and at tables of 3-4 the table's average (k - 1 halves: 1 and 1½)."""
    _check_table_size(table_size)
    if format is Format.ROUND_ROBIN:
        return 0
    return HALVES_ABOVE if table_size == 2 else table_size - 1


def points_text(half_points: int) -> str:
    """Halves as people write points: 0, ½, 1, 1½, 12½."""
    if half_points < 0:
        raise DominoError(f"points cannot be negative: {half_points} halves")
    whole, half = divmod(half_points, 2)
    if not half:
        return str(whole)
    return "½" if whole == 0 else f"{whole}½"


def standings(
    entrants: int,
    format: Format,
    results: Sequence[TableResult],
    byes: Sequence[Bye] = (),
    withdrawn: Collection[int] = (),
) -> tuple[Line, ...]:
    """The ranking, best first, the `withdrawn` after everyone still in (their results
    kept): points; then head to head among the tied, only when
    every two of them met; then, in Swiss, Buchholz (the points of every opponent met,
    once per meeting; byes are no opponent); then the sum of margins. Entrants still
    level share the place (1, 2, 2, 4) and are listed by entrant number.

    Head to head is applied once, to each group level on points; it does not split
    again the entrants it left level.
    """
    _check_entrants(entrants, results, byes, withdrawn)
    points = [0] * entrants
    played = [0] * entrants
    firsts = [0] * entrants
    margin = [0.0] * entrants
    for result in results:
        for entrant, halves in table_half_points(result).items():
            points[entrant] += halves
        for entrant, entrant_margin in zip(result.entrants, result.margins, strict=True):
            margin[entrant] += entrant_margin
        present = [i for i, e in enumerate(result.entrants) if e not in result.absent]
        for i in present:
            # A match was played only where two or more were present: a forfeit win
            # alone counts as a first place, not as a match played.
            played[result.entrants[i]] += len(present) >= 2
            if all(result.places[i] <= result.places[j] for j in present):
                firsts[result.entrants[i]] += 1
    for bye in byes:
        points[bye.entrant] += bye.half_points

    tied: dict[int, list[int]] = defaultdict(list)
    for entrant in range(entrants):
        tied[points[entrant]].append(entrant)
    head_to_head: list[int | None] = [None] * entrants
    for group in tied.values():
        if len(group) > 1 and _all_met(group, results):
            for entrant, halves in _halves_among(group, results).items():
                head_to_head[entrant] = halves

    buchholz: list[int | None] = [None] * entrants
    if format is Format.SWISS:
        for entrant in range(entrants):
            buchholz[entrant] = sum(points[o] for o in _opponents(entrant, results))

    gone = set(withdrawn)

    def key(entrant: int) -> tuple[bool, int, int, int, float]:
        # Whoever is out of the tournament ranks after everyone still in it.
        return (
            entrant in gone,
            -points[entrant],
            -(head_to_head[entrant] or 0),
            -(buchholz[entrant] or 0),
            -round(margin[entrant], MARGIN_DIGITS),
        )

    keys = [key(entrant) for entrant in range(entrants)]
    order = sorted(range(entrants), key=lambda entrant: (keys[entrant], entrant))
    return tuple(
        Line(
            entrant=entrant,
            place=1 + sum(1 for other in keys if other < keys[entrant]),
            half_points=points[entrant],
            played=played[entrant],
            firsts=firsts[entrant],
            head_to_head=head_to_head[entrant],
            buchholz=buchholz[entrant],
            margin=margin[entrant],
            withdrawn=entrant in gone,
        )
        for entrant in order
    )


def met_pairs(results: Iterable[TableResult]) -> set[frozenset[int]]:
    """Every two entrants drawn to the same table at least once."""
    return {frozenset(pair) for result in results for pair in combinations(result.entrants, 2)}


def _halves_against(result: TableResult, i: int, j: int) -> int:
    """The halves `entrants[i]` takes from `entrants[j]` at this table."""
    i_absent = result.entrants[i] in result.absent
    j_absent = result.entrants[j] in result.absent
    if i_absent:
        return 0
    if j_absent:
        return HALVES_ABOVE
    if result.places[i] < result.places[j]:
        return HALVES_ABOVE
    return HALVES_LEVEL if result.places[i] == result.places[j] else 0


def _all_met(group: Sequence[int], results: Sequence[TableResult]) -> bool:
    met = met_pairs(results)
    return all(frozenset(pair) in met for pair in combinations(group, 2))


def _halves_among(group: Sequence[int], results: Sequence[TableResult]) -> dict[int, int]:
    """The halves each of `group` took from the others of `group`, over every table."""
    members = set(group)
    halves = dict.fromkeys(group, 0)
    for result in results:
        for i, entrant in enumerate(result.entrants):
            if entrant not in members:
                continue
            for j, other in enumerate(result.entrants):
                if j != i and other in members:
                    halves[entrant] += _halves_against(result, i, j)
    return halves


def _opponents(entrant: int, results: Sequence[TableResult]) -> list[int]:
    """The others at each of `entrant`'s tables, once per table."""
    return [
        other
        for result in results
        if entrant in result.entrants
        for other in result.entrants
        if other != entrant
    ]


def _check_table_size(table_size: int) -> None:
    if not 2 <= table_size <= 4:
        raise DominoError(f"a table seats 2, 3 or 4 entrants, not {table_size}")


def _check_entrants(
    entrants: int,
    results: Sequence[TableResult],
    byes: Sequence[Bye],
    withdrawn: Collection[int],
) -> None:
    seen = [e for result in results for e in result.entrants]
    seen += [bye.entrant for bye in byes]
    seen += list(withdrawn)
    for entrant in seen:
        if not 0 <= entrant < entrants:
            raise DominoError(f"entrant {entrant} is not among {entrants} entrants")
