"""Points, byes and tie-breaks against hand-worked cases (domino.tournament.standings)."""

from __future__ import annotations

import pytest

from domino.errors import DominoError
from domino.tournament import (
    Bye,
    Format,
    Line,
    TableResult,
    bye_half_points,
    points_text,
    standings,
    table_half_points,
)


def won(round: int, winner: int, loser: int, margin: float = 0.0) -> TableResult:
    """A table of 2 that `winner` won by `margin`."""
    return TableResult(round, (winner, loser), (0, 1), (margin, -margin))


def drawn(round: int, *entrants: int) -> TableResult:
    return TableResult(round, entrants, (0,) * len(entrants), (0.0,) * len(entrants))


def order(lines: tuple[Line, ...]) -> list[tuple[int, int]]:
    """(entrant, place) best first."""
    return [(line.entrant, line.place) for line in lines]


def line_of(lines: tuple[Line, ...], entrant: int) -> Line:
    return next(line for line in lines if line.entrant == entrant)


# -- points at one table --------------------------------------------------------------


def test_a_table_of_two_a_win_is_two_halves_a_draw_one_each() -> None:
    assert table_half_points(won(1, 3, 5)) == {3: 2, 5: 0}
    assert table_half_points(drawn(1, 3, 5)) == {3: 1, 5: 1}


def test_a_table_of_three_gives_two_halves_for_each_one_finished_above() -> None:
    # first beats two (4), second beats one (2), third none
    result = TableResult(1, (4, 1, 7), (1, 0, 2), (0.0, 0.0, 0.0))
    assert table_half_points(result) == {1: 4, 4: 2, 7: 0}
    # two level second: each beats nobody, 1 half from the other
    level = TableResult(1, (4, 1, 7), (1, 0, 1), (0.0, 0.0, 0.0))
    assert table_half_points(level) == {1: 4, 4: 1, 7: 1}


def test_a_table_of_four_places_give_three_two_one_nothing() -> None:
    result = TableResult(1, (0, 1, 2, 3), (3, 2, 1, 0), (0.0,) * 4)
    assert table_half_points(result) == {0: 0, 1: 2, 2: 4, 3: 6}
    # places (0, 0, 1, 2): the two first take 2 + 2 from the others and 1 from each other
    shared = TableResult(1, (0, 1, 2, 3), (0, 0, 1, 2), (0.0,) * 4)
    assert table_half_points(shared) == {0: 5, 1: 5, 2: 2, 3: 0}


def test_a_drawn_match_puts_everyone_level() -> None:
    assert table_half_points(drawn(1, 0, 1, 2)) == {0: 2, 1: 2, 2: 2}
    assert table_half_points(drawn(1, 0, 1, 2, 3)) == {0: 3, 1: 3, 2: 3, 3: 3}


def test_one_absentee_at_a_table_of_two_loses_by_forfeit() -> None:
    # the places say nothing once someone is absent: the absentee takes 0
    result = TableResult(1, (0, 1), (0, 0), (0.0, 0.0), absent=frozenset({0}))
    assert table_half_points(result) == {0: 0, 1: 2}


def test_one_absentee_at_a_table_of_four_the_present_are_ranked_by_their_match() -> None:
    # 0, 1, 2 played (places 0, 1, 2 among themselves), 3 absent:
    # 0 takes 2 + 2 from 1 and 2, and 2 from 3 = 6; 1: 2 + 2 = 4; 2: 2; 3: 0
    result = TableResult(1, (0, 1, 2, 3), (0, 1, 2, 3), (5.0, 0.0, -5.0, 0.0), frozenset({3}))
    assert table_half_points(result) == {0: 6, 1: 4, 2: 2, 3: 0}


def test_two_absentees_take_nothing_from_each_other() -> None:
    # 0 beat 1; each of them takes 2 from each absentee; 2 and 3 nothing at all
    result = TableResult(1, (0, 1, 2, 3), (0, 1, 2, 2), (0.0,) * 4, frozenset({2, 3}))
    assert table_half_points(result) == {0: 6, 1: 4, 2: 0, 3: 0}


def test_nobody_present_nobody_scores() -> None:
    result = TableResult(1, (0, 1, 2), (0, 0, 0), (0.0,) * 3, frozenset({0, 1, 2}))
    assert table_half_points(result) == {0: 0, 1: 0, 2: 0}
    lines = standings(3, Format.ROUND_ROBIN, [result])
    assert all(line.played == 0 and line.firsts == 0 for line in lines)


def test_a_result_must_be_consistent() -> None:
    with pytest.raises(DominoError):
        TableResult(1, (0, 1), (0,), (0.0, 0.0))
    with pytest.raises(DominoError):
        TableResult(1, (0, 0), (0, 1), (0.0, 0.0))
    with pytest.raises(DominoError):
        TableResult(1, (0, 1), (0, 1), (0.0, 0.0), frozenset({2}))
    with pytest.raises(DominoError, match="not among 2"):
        standings(2, Format.SWISS, [won(1, 0, 2)])


# -- byes ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("format", "table_size", "halves"),
    [
        (Format.ROUND_ROBIN, 2, 0),
        (Format.ROUND_ROBIN, 3, 0),
        (Format.ROUND_ROBIN, 4, 0),
        (Format.SWISS, 2, 2),  # a win
        (Format.SWISS, 3, 2),  # (4 + 2 + 0) / 3 halves: 1 point
        (Format.SWISS, 4, 3),  # (6 + 4 + 2 + 0) / 4 halves: 1½
    ],
)
def test_a_bye_is_worth(format: Format, table_size: int, halves: int) -> None:
    assert bye_half_points(format, table_size) == halves


def test_a_bye_needs_a_real_table_size() -> None:
    with pytest.raises(DominoError):
        bye_half_points(Format.SWISS, 5)


def test_a_bye_counts_in_points_not_in_played_nor_firsts() -> None:
    lines = standings(3, Format.SWISS, [won(1, 0, 1)], [Bye(1, 2, 2)])
    assert line_of(lines, 2).half_points == 2
    assert line_of(lines, 2).played == 0
    assert line_of(lines, 2).firsts == 0
    assert line_of(lines, 0).played == 1
    assert line_of(lines, 0).firsts == 1


def test_firsts_count_shared_firsts_and_forfeit_wins_but_played_only_matches() -> None:
    results = [
        TableResult(1, (0, 1, 2), (0, 0, 1), (0.0,) * 3),  # 0 and 1 share first
        TableResult(2, (0, 2), (1, 0), (0.0, 0.0), frozenset({2})),  # 2 absent: 0 wins
        # A table of 3 with one absent: the two present played a match (a computer sat
        # in for the absent), so it counts as played for both.
        TableResult(3, (0, 1, 2), (1, 0, 2), (0.0,) * 3, frozenset({2})),
    ]
    lines = standings(3, Format.ROUND_ROBIN, results)
    # 0: firsts in rounds 1 and 2 (the forfeit), matches in rounds 1 and 3 (not 2, where
    # nobody else came); 1: first in rounds 1 and 3; 2: one match, in round 1.
    assert [(line_of(lines, e).firsts, line_of(lines, e).played) for e in range(3)] == [
        (2, 2),
        (2, 2),
        (0, 1),
    ]


# -- tie-breaks -----------------------------------------------------------------------


def test_head_to_head_decides_before_margin() -> None:
    # Round robin of 4, tables of 2, all played:
    #   0 beat 1 (+1), 0 beat 3 (+1), 2 beat 0 (+5)   -> 0: 4 halves, margin 1 + 1 - 5 = -3
    #   1 beat 2 (+20), 1 beat 3 (+20)                -> 1: 4 halves, margin -1 + 40 = 39
    #   3 beat 2 (+1)                                 -> 2: 2 halves, margin -20 - 1 + 5 = -16
    #                                                    3: 2 halves, margin 1 - 1 - 20 = -20
    # 0 and 1 level on 2 points, they met: 0 took 2 halves from 1, so 0 is first though
    # 1 has the better margin; 3 took 2 halves from 2, so 3 is third, margin or not.
    results = [
        won(1, 0, 1, 1),
        won(1, 3, 2, 1),
        won(2, 0, 3, 1),
        won(2, 1, 2, 20),
        won(3, 2, 0, 5),
        won(3, 1, 3, 20),
    ]
    lines = standings(4, Format.ROUND_ROBIN, results)
    assert order(lines) == [(0, 1), (1, 2), (3, 3), (2, 4)]
    assert [line.head_to_head for line in lines] == [2, 0, 2, 0]
    assert [line.half_points for line in lines] == [4, 4, 2, 2]
    assert [line.margin for line in lines] == [-3, 39, -20, -16]
    assert all(line.buchholz is None for line in lines)


def test_head_to_head_is_not_applied_when_the_tied_did_not_all_meet() -> None:
    # Two rounds of six, tables of 2:
    #   round 1: 0 beat 1 (+1), 2 beat 3 (+50), 4 beat 5 (+1)
    #   round 2: 4 beat 0 (+1), 1 beat 3 (+2), 5 beat 2 (+10)
    # points: 4 has 2; 0, 1, 2, 5 have 1 each; 3 none.
    # The four on 1 point: 0-1, 1-5 and 5-2 met, 0-2 did not: no head to head.
    # Margins: 2 +40, 5 +9, 1 +1, 0 0: that order. (Head to head among them would have
    # put 2, who lost to 5, last of the four.)
    results = [
        won(1, 0, 1, 1),
        won(1, 2, 3, 50),
        won(1, 4, 5, 1),
        won(2, 4, 0, 1),
        won(2, 1, 3, 2),
        won(2, 5, 2, 10),
    ]
    lines = standings(6, Format.ROUND_ROBIN, results)
    assert order(lines) == [(4, 1), (2, 2), (5, 3), (1, 4), (0, 5), (3, 6)]
    assert all(line.head_to_head is None for line in lines)
    assert [line.margin for line in lines] == [2, 40, 9, 1, 0, -52]


def test_head_to_head_is_not_applied_to_two_who_have_not_met_yet() -> None:
    # Round robin of 4, two rounds played: 0 beat 3, 1 drew 2; 0 drew 2, 1 beat 3.
    # 0 and 1 on 1½ each, not met yet: the margin (0: +5, 1: +8) puts 1 first.
    results = [
        won(1, 0, 3, 5),
        drawn(1, 1, 2),
        drawn(2, 0, 2),
        won(2, 1, 3, 8),
    ]
    lines = standings(4, Format.ROUND_ROBIN, results)
    assert order(lines) == [(1, 1), (0, 2), (2, 3), (3, 4)]
    assert [line.half_points for line in lines] == [3, 3, 2, 0]
    assert [line.head_to_head for line in lines] == [None, None, None, None]


# Two Swiss rounds of six, tables of 2:
#   round 1: 0 beat 1 (+10), 2 beat 3 (+10), 4 beat 5 (+30)
#   round 2: 0 beat 2 (+5), 4 beat 1 (+20), 3 drew 5
# points (halves): 0: 4, 4: 4, 2: 2, 3: 1, 5: 1, 1: 0
# margins: 0: +15, 4: +50, 2: +5, 3: -10, 5: -30, 1: -30
# Buchholz: 0 met 1 (0) and 2 (2) = 2; 4 met 5 (1) and 1 (0) = 1;
#           3 met 2 (2) and 5 (1) = 3; 5 met 4 (4) and 3 (1) = 5;
#           2 met 3 (1) and 0 (4) = 5; 1 met 0 (4) and 4 (4) = 8
BUCHHOLZ_RESULTS = [
    won(1, 0, 1, 10),
    won(1, 2, 3, 10),
    won(1, 4, 5, 30),
    won(2, 0, 2, 5),
    won(2, 4, 1, 20),
    drawn(2, 3, 5),
]


def test_buchholz_decides_in_swiss() -> None:
    # 0 and 4 have not met: Buchholz 2 against 1 puts 0 first, though 4's margin is better.
    # 3 and 5 drew (head to head 1 each): Buchholz 5 against 3 puts 5 ahead.
    lines = standings(6, Format.SWISS, BUCHHOLZ_RESULTS)
    assert order(lines) == [(0, 1), (4, 2), (2, 3), (5, 4), (3, 5), (1, 6)]
    assert [line.buchholz for line in lines] == [2, 1, 5, 5, 3, 8]
    assert [line.head_to_head for line in lines] == [None, None, None, 1, 1, None]


def test_buchholz_does_not_count_in_round_robin_margin_decides() -> None:
    # The same results ranked as round robin: no Buchholz, so the margin decides:
    # 4 (+50) before 0 (+15), 3 (-10) before 5 (-30).
    lines = standings(6, Format.ROUND_ROBIN, BUCHHOLZ_RESULTS)
    assert order(lines) == [(4, 1), (0, 2), (2, 3), (3, 4), (5, 5), (1, 6)]
    assert all(line.buchholz is None for line in lines)


def test_byes_are_no_opponent_for_buchholz() -> None:
    # 0 beat 1 and had a bye; 1's Buchholz is 0's 4 halves, 0's is 1's nothing
    lines = standings(2, Format.SWISS, [won(1, 0, 1)], [Bye(2, 0, 2)])
    assert [(line.entrant, line.buchholz) for line in lines] == [(0, 0), (1, 4)]


def test_a_full_tie_shares_the_place() -> None:
    # 0 beat 3; 1 and 2 drew (head to head 1 each), same margin 0: they share 2nd,
    # and 3 is 4th, not 3rd.
    lines = standings(4, Format.ROUND_ROBIN, [won(1, 0, 3, 10), drawn(1, 1, 2)])
    assert order(lines) == [(0, 1), (1, 2), (2, 2), (3, 4)]


def test_level_margins_are_level_whatever_the_float_sum() -> None:
    # 0.1 + 0.2 is not 0.3 in floats; the ranking still calls it level
    results = [
        TableResult(1, (0, 1), (0, 0), (0.1, 0.3)),
        TableResult(2, (0, 1), (0, 0), (0.2, 0.0)),
    ]
    assert order(standings(2, Format.ROUND_ROBIN, results)) == [(0, 1), (1, 1)]


def test_the_withdrawn_keep_their_results_are_flagged_and_rank_last() -> None:
    # 2 beat both, then withdrew: 2 points kept, but ranked after 0 and 1 (level at 0,
    # sharing first among those still in), so nobody out of it can win it.
    lines = standings(3, Format.ROUND_ROBIN, [won(1, 2, 0), won(1, 2, 1)], withdrawn={2})
    assert order(lines) == [(0, 1), (1, 1), (2, 3)]
    assert [line.withdrawn for line in lines] == [False, False, True]
    assert lines[2].half_points == 4


def test_no_results_everyone_shares_first_in_entrant_order() -> None:
    assert order(standings(3, Format.SWISS, [])) == [(0, 1), (1, 1), (2, 1)]


# -- text -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("halves", "text"), [(0, "0"), (1, "½"), (2, "1"), (3, "1½"), (24, "12"), (25, "12½")]
)
def test_points_text(halves: int, text: str) -> None:
    assert points_text(halves) == text


def test_points_are_never_negative() -> None:
    with pytest.raises(DominoError):
        points_text(-1)
