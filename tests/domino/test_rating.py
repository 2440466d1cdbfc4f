"""K-11 rating gains, with exact half-up rounding."""

from __future__ import annotations

import pytest

from domino.errors import DominoError
from domino.rating import (
    abandoned_rating_gains,
    classic_rating_gains,
    rating_gains,
    round_half_up_ratio,
    round_half_up_tenth,
    timeout_rating_gains,
)
from domino.rules import Variant
from domino.variants import GameVariant, find_variant


def game_of(key: Variant) -> GameVariant:
    return find_variant(key.value)


def test_k11_worked_example_25_points_gain_8() -> None:
    assert rating_gains((25,)) == (8,)


@pytest.mark.parametrize(
    ("numerator", "rounded"), [(75, 8), (74, 7), (5, 1), (4, 0), (0, 0), (-4, 0), (-15, -1)]
)
def test_round_half_up_tenth(numerator: int, rounded: int) -> None:
    assert round_half_up_tenth(numerator) == rounded


def test_k11_gains_are_at_least_one() -> None:
    assert rating_gains((0, 95, 96, 101, 180)) == (10, 1, 1, 1, 1)


def test_k11_timeout_worked_example() -> None:
    # Alex timed out with 32: Masha (30) gains 1, Olya (13) gains 2, Alex nothing.
    masha, alex, olya = 30, 32, 13
    assert timeout_rating_gains((masha, alex, olya), timed_out_seat=1) == (1, 0, 2)


def test_k11_timeout_player_with_more_points_than_the_leaver_still_gains_one() -> None:
    assert timeout_rating_gains((10, 60, 75), timed_out_seat=0) == (0, 1, 1)


def test_k11_timeout_seat_must_exist() -> None:
    with pytest.raises(DominoError):
        timeout_rating_gains((10, 20), timed_out_seat=2)


def test_classic_rating_mirrors_k11() -> None:
    assert classic_rating_gains((104, 25, 0)) == (10, 3, 1)


def test_abandoned_kozel_match_is_the_timeout_rule() -> None:
    assert abandoned_rating_gains([30, 47, 13, 32], 3) == timeout_rating_gains([30, 47, 13, 32], 3)


def test_abandoned_classic_match_mirrors_the_timeout_rule() -> None:
    # Классика: points are good; leading the culprit (40) by 35 gains 4, trailing gains 1.
    assert abandoned_rating_gains([75, 20, 40], 2, points_are_bad=False) == (4, 1, 0)


@pytest.mark.parametrize(
    ("numerator", "denominator", "rounded"),
    [
        (75, 10, 8),
        (-15, 10, -1),
        (125, 25, 5),
        (124, 25, 5),
        (122, 25, 5),
        (37, 25, 1),
        (12, 25, 0),
    ],
)
def test_round_half_up_ratio(numerator: int, denominator: int, rounded: int) -> None:
    assert round_half_up_ratio(numerator, denominator) == rounded
    if denominator == 10:
        assert round_half_up_ratio(numerator, 10) == round_half_up_tenth(numerator)


def test_a_ratio_needs_a_positive_denominator() -> None:
    with pytest.raises(DominoError):
        round_half_up_ratio(1, 0)


@pytest.mark.parametrize(
    ("key", "points", "gains"),
    [
        # All Fives to 250: the winner at 255 gains 10, the loser at 120 gains 5.
        (Variant.ALL_FIVES, (255, 120), (10, 5)),
        # Threes and fives to 250 (F-6): 255 and 120 (its pub board to 61: test_all_fives).
        (Variant.THREES_AND_FIVES, (255, 120), (10, 5)),
        # Bergen to 15: 16 and 7 (4.7).
        (Variant.BERGEN, (16, 7), (11, 5)),
        # Дубли to 10: 10 and 4, not 1 and 1; nothing still gains 1.
        (Variant.DUBLI, (10, 4, 0), (10, 4, 1)),
        # Классика keeps its scale of 100.
        (Variant.CLASSIC, (104, 25, 0), (10, 3, 1)),
    ],
)
def test_games_that_run_to_other_totals_scale_the_rating_by_their_target(
    key: Variant, points: tuple[int, ...], gains: tuple[int, ...]
) -> None:
    assert game_of(key).rating_gains(points) == gains


def test_an_abandoned_duble_match_scales_the_timeout_rule_by_its_target() -> None:
    # Leading the culprit (2) by 6 of Дубли's 10 is worth 6; trailing still gains 1.
    assert game_of(Variant.DUBLI).abandoned_rating_gains([8, 1, 2], 2) == (6, 1, 0)
