"""Elo against hand-computed cases (domino.elo)."""

from __future__ import annotations

import pytest

from domino.elo import START, expected, places, updated
from domino.errors import DominoError

# 1 / (1 + 10 ** (-200 / 400)): a 1600 player's chance against a 1400 one
E_200 = 0.7597469266479578
# 1 / (1 + 10 ** (-100 / 400))
E_100 = 0.6400649998028851


def test_expected_is_symmetric_and_even_for_equals() -> None:
    assert expected(1500, 1500) == 0.5
    assert expected(1600, 1400) == pytest.approx(E_200)
    assert expected(1400, 1600) == pytest.approx(1 - E_200)


def test_two_equal_players_the_winner_takes_half_of_k() -> None:
    assert updated((START, START), (0, 1)) == pytest.approx((1516, 1484))


def test_two_players_the_favourite_wins_little() -> None:
    gain = 32 * (1 - E_200)  # 7.688
    assert updated((1600, 1400), (0, 1)) == pytest.approx((1600 + gain, 1400 - gain))
    assert gain == pytest.approx(7.688, abs=1e-3)


def test_a_draw_moves_the_favourite_down() -> None:
    loss = 32 * (0.5 - E_200)  # -8.312
    assert updated((1600, 1400), (0, 0)) == pytest.approx((1600 + loss, 1400 - loss))
    assert updated((1500, 1500), (0, 0)) == (1500, 1500)


def test_four_equal_players_each_pair_weighs_k_over_three() -> None:
    # first: three wins of 0.5 * 32/3; second: two wins and a loss; and so on
    third = 32 / 3 * 0.5
    assert updated((START,) * 4, (0, 1, 2, 3)) == pytest.approx(
        (1516, 1500 + third, 1500 - third, 1484)
    )


def test_three_players_with_a_tie_for_second() -> None:
    # the two second places draw with each other and lose 0.5 * 16 to the first
    assert updated((START,) * 3, (0, 1, 1)) == pytest.approx((1516, 1492, 1492))


def test_teammates_are_not_opponents() -> None:
    # 0+2 beat 1+3; each person met two opponents, each pair weighs 32/2
    assert updated((START,) * 4, (0, 1, 0, 1), (0, 1, 0, 1)) == pytest.approx(
        (1516, 1484, 1516, 1484)
    )


def test_teams_with_unequal_ratings() -> None:
    # 1600 and 1400 beat two 1500s: 1600 gains 16 * 2 * (1 - E_100), 1400 gains
    # 16 * 2 * E_100; each loser loses 16 * (E(1500, 1600) + E(1500, 1400)) = 16
    after = updated((1600, 1500, 1400, 1500), (0, 1, 0, 1), (0, 1, 0, 1))
    assert after == pytest.approx((1600 + 32 * (1 - E_100), 1484, 1400 + 32 * E_100, 1484))
    assert after[0] == pytest.approx(1611.518, abs=1e-3)
    assert after[2] == pytest.approx(1420.482, abs=1e-3)
    assert sum(after) == pytest.approx(6000)


def test_places_by_points() -> None:
    assert places((30, 13, 32), fewer_is_better=True) == (1, 0, 2)
    assert places((30, 13, 32), fewer_is_better=False) == (1, 2, 0)
    assert places((10, 10, 20), fewer_is_better=True) == (0, 0, 1)
    assert places((40, 20, 40, 20), fewer_is_better=True) == (1, 0, 1, 0)


def test_whoever_abandoned_is_last_whatever_their_points() -> None:
    assert places((30, 13, 5), fewer_is_better=True, last={2}) == (1, 0, 2)
    assert places((30, 13, 32), fewer_is_better=False, last={2}) == (0, 1, 2)
    # a team: both partners share the last place
    assert places((40, 20, 40, 20), fewer_is_better=True, last={1, 3}) == (0, 1, 0, 1)


def test_bad_input_is_refused_precisely() -> None:
    with pytest.raises(DominoError, match="seat 3 is not among 3 players"):
        places((1, 2, 3), fewer_is_better=True, last={3})
    with pytest.raises(DominoError, match="3 ratings need as many places"):
        updated((START,) * 3, (0, 1))
