"""Elo for multiplayer matches, as pairwise games among the people of a match.

Choices, as the seeds' online platforms make them:

- Everyone starts at `START` (1500); `K` is 32.
- A match of n players is scored as pairwise games between every two players on
  different sides, ordered by their place: the better place wins the pair, an equal
  place is a draw. Teammates are not opponents.
- Each pair's result is weighted `K / opponents`, where `opponents` is how many
  players the player met (n - 1 without teams; 2 in a 4-player team game), so one
  match moves a rating by at most K whatever its size.
- Every change is computed from the ratings before the match, so the order of the
  pairs does not matter. Ratings are kept as floats; round only to show them.

Which matches count (none with a computer seat) and who is last after an abandonment
are the caller's choices (`storage.stats`); `places` helps with the latter.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence

from domino.errors import DominoError

START = 1500.0
K = 32.0


def expected(rating: float, opponent: float) -> float:
    """The chance that `rating` beats `opponent` (a draw counting half)."""
    return 1.0 / (1.0 + math.pow(10.0, (opponent - rating) / 400.0))


def places(
    points: Sequence[int], *, fewer_is_better: bool, last: Collection[int] = ()
) -> tuple[int, ...]:
    """Each player's place from final points: 0 is best; equal points share a place.

    Козёл: fewer points are better; Классика: more. Players in `last` (a person who
    abandoned the match, and their partner) are placed below everyone else, whatever
    their points, sharing one place among themselves.
    """
    for seat in last:
        if not 0 <= seat < len(points):
            raise DominoError(f"seat {seat} is not among {len(points)} players")

    def key(seat: int) -> tuple[bool, int]:
        score = points[seat] if fewer_is_better else -points[seat]
        return (seat in last, 0 if seat in last else score)

    keys = sorted({key(seat) for seat in range(len(points))})
    return tuple(keys.index(key(seat)) for seat in range(len(points)))


def updated(
    ratings: Sequence[float],
    place_of: Sequence[int],
    sides: Sequence[int] | None = None,
    *,
    k: float = K,
) -> tuple[float, ...]:
    """The ratings after one match: `place_of` as from `places()` (lower is better),
    `sides[i]` the side of player i (None: everyone on their own side)."""
    count = len(ratings)
    if len(place_of) != count or (sides is not None and len(sides) != count):
        raise DominoError(
            f"{count} ratings need as many places and sides,"
            f" not {len(place_of)} and {count if sides is None else len(sides)}"
        )
    side = list(range(count)) if sides is None else list(sides)
    result = []
    for i in range(count):
        opponents = [j for j in range(count) if side[j] != side[i]]
        if not opponents:
            result.append(float(ratings[i]))
            continue
        weight = k / len(opponents)
        change = 0.0
        for j in opponents:
            score = 1.0 if place_of[i] < place_of[j] else 0.5 if place_of[i] == place_of[j] else 0.0
            change += weight * (score - expected(ratings[i], ratings[j]))
        result.append(ratings[i] + change)
    return tuple(result)
