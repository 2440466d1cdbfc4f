"""K-11: rating gains for a finished or abandoned match; Козёл's rule, mirrored for
Классика (a choice, written at `classic_rating_gains` and `abandoned_rating_gains`).

Exact integer arithmetic: `round_half_up(n / 10)` for an integer `n` is
`(n + 5) // 10`, so 7.5 becomes 8 and no float ever rounds the wrong way.
"""

from __future__ import annotations

from collections.abc import Sequence

from domino.errors import DominoError


def round_half_up_tenth(numerator: int) -> int:
    """`numerator / 10` rounded half up (towards +infinity at .5): 75 -> 8, -15 -> -1."""
    return (numerator + 5) // 10


def round_half_up_ratio(numerator: int, denominator: int) -> int:
    """`numerator / denominator` rounded half up, exactly: (75, 10) -> 8, (-15, 10) -> -1,
    (125, 25) -> 5; `denominator` is positive."""
    if denominator <= 0:
        raise DominoError(f"a ratio needs a positive denominator, not {denominator}")
    return (2 * numerator + denominator) // (2 * denominator)


def rating_gains(points: Sequence[int]) -> tuple[int, ...]:
    """K-11: each player of a finished match gains `max(1, round_half_up((100 - points) / 10))`.

    Example: 25 points give 7.5, rounded to 8.
    """
    return tuple(max(1, round_half_up_tenth(100 - p)) for p in points)


def timeout_rating_gains(
    points: Sequence[int], timed_out_seat: int, *, scale: int = 100
) -> tuple[int, ...]:
    """K-11 for a match aborted because `timed_out_seat` ran out of time.

    That player gains nothing; every other player gains
    `max(1, round_half_up((timed_out_points - points) / 10))`. Example: Alex timed out
    with 32; Masha with 30 gains 1, Olya with 13 gains 2. A game whose points run to
    another `scale` than Козёл's 100 divides by `scale / 10` instead (`classic_rating_gains`).
    """
    if not 0 <= timed_out_seat < len(points):
        raise DominoError(f"seat {timed_out_seat} is not among {len(points)} players")
    timed_out_points = points[timed_out_seat]
    return tuple(
        0
        if seat == timed_out_seat
        else max(1, round_half_up_ratio(10 * (timed_out_points - p), scale))
        for seat, p in enumerate(points)
    )


def abandoned_rating_gains(
    points: Sequence[int], culprit: int, *, points_are_bad: bool = True, scale: int = 100
) -> tuple[int, ...]:
    """K-11's timeout rule for a match someone abandoned (timed out, left, gave up).

    Choice: K-11 names only a timeout; leaving (/leave) and giving up (/surrender) are
    scored the same way, with `culprit` the first person to abandon the match and
    `points` every seat's points at that moment (the match may be played out after it).
    In team play the culprit's partner holds the same points, so gains 1 (their pair
    gains 0: `storage.stats`).

    Козёл (`points_are_bad`): exactly `timeout_rating_gains`. Классика, where points are
    good, mirrors it: every other player gains `max(1, round_half_up((points[i] -
    points[culprit]) / 10))`, so whoever led the culprit by most gains most (divided by
    `scale / 10` in games whose points run to another scale, `classic_rating_gains`).
    """
    signed = points if points_are_bad else [-p for p in points]
    return timeout_rating_gains(signed, culprit, scale=scale)


def classic_rating_gains(points: Sequence[int], *, scale: int = 100) -> tuple[int, ...]:
    """Rating for a finished Классика match, where points are good.

    RULES.md gives K-11 for Козёл only; Классика mirrors it: each player gains
    `max(1, round_half_up(points / 10))`, so the winner near 100 gains about 10 and
    a player with nothing still gains 1.

    Choice for the games whose matches run to other totals (All Fives to 250, threes and
    fives to 61, Bergen to 15, Дубли to 10): their default target is the `scale` in place
    of Классика's 100, so a player gains `max(1, round_half_up(10 * points / scale))`:
    reaching the default target is worth 10 in every game, half of it 5 (Дубли's 10 to 4
    gives 10 and 4, not 1 and 1).
    """
    return tuple(max(1, round_half_up_ratio(10 * p, scale)) for p in points)
