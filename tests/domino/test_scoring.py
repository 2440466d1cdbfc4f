"""Scoring (K-6 .. K-10, T-4 .. T-6): the worked examples exactly, then every option."""

from __future__ import annotations

import pytest

from domino.errors import DominoError
from domino.rules import CLASSIC, KOZEL, FishMode, Ruleset
from domino.scoring import (
    classic_round_winner,
    hand_value,
    initial_scores,
    match_deciders,
    next_leader,
    score_round,
    seat_values,
    sides_for,
)
from domino.tiles import Tile
from domino.views import Account, OutcomeKind, RoundOutcome

WENT_OUT = OutcomeKind.WENT_OUT
FISH = OutcomeKind.FISH


def out(seat: int, *values: int) -> RoundOutcome:
    return RoundOutcome(WENT_OUT, seat, values)


def fish(fisherman: int, *values: int) -> RoundOutcome:
    return RoundOutcome(FISH, fisherman, values)


def rem(n: int) -> Account:
    """An unopened account with `n` remembered points ("+n")."""
    return Account(0, n, False)


def rec(n: int) -> Account:
    """An open account with `n` recorded points."""
    return Account(n, 0, True)


NONE = Account()
MASHA, ALEX, OLYA, SERG = range(4)


def tiles(*texts: str) -> tuple[Tile, ...]:
    return tuple(Tile.parse(t) for t in texts)


# --- K-8 and K-9: the worked examples of RULES.md -------------------------------------


def test_k8_worked_example_masha_goes_out() -> None:
    before = (rem(19), NONE, rem(7), rem(4))
    result = score_round(KOZEL, 1, out(MASHA, 0, 3, 13, 5), before)
    assert result.points == (0, 3, 13, 5)
    assert result.after == (rem(0), rem(3), rec(20), rem(9))
    assert result.eggs_after == 0 and result.eggs_taken_by is None


def test_k9_worked_example_fish_max_takes_all() -> None:
    before = (NONE, NONE, rem(7), NONE)
    result = score_round(KOZEL, 1, fish(ALEX, 2, 3, 13, 5), before)
    assert result.points == (0, 0, 23, 0)
    assert result.after == (rem(0), rem(0), rec(30), rem(0))


def test_k9_fish_resets_the_remembered_points_of_everyone_else() -> None:
    before = (rem(5), rem(9), rem(7), rec(40))
    result = score_round(KOZEL, 3, fish(SERG, 2, 3, 13, 5), before)
    assert result.after == (rem(0), rem(0), rec(30), rec(40))


def test_k9_eggs_carry_twice_then_one_player_takes_them() -> None:
    # Round 1: a fish with a tie for the most: nobody records, 24 eggs carry over.
    start = (rem(5), NONE, rem(7), rec(30))
    r1 = score_round(KOZEL, 1, fish(MASHA, 8, 8, 3, 5), start)
    assert r1.points == (0, 0, 0, 0)
    assert r1.after == start  # remembered points stay as they were
    assert (r1.eggs_before, r1.eggs_after, r1.eggs_taken_by) == (0, 24, None)

    # Round 2: Olya goes out, Alex and Serg tie for the most: the eggs carry on and
    # the round itself is scored as usual.
    r2 = score_round(KOZEL, 2, out(OLYA, 4, 9, 0, 9), r1.after, eggs=r1.eggs_after)
    assert r2.points == (4, 9, 0, 9)
    assert r2.after == (rem(9), rem(9), rem(0), rec(39))
    assert (r2.eggs_before, r2.eggs_after, r2.eggs_taken_by) == (24, 24, None)

    # Round 3: Alex is the single top scorer: 24 eggs join his 6 (K-7 on the sum).
    r3 = score_round(KOZEL, 3, out(SERG, 2, 6, 1, 0), r2.after, eggs=r2.eggs_after)
    assert r3.points == (2, 30, 1, 0)
    assert r3.after == (rem(11), rec(39), rem(1), rec(39))
    assert (r3.eggs_before, r3.eggs_after, r3.eggs_taken_by) == (24, 0, ALEX)


def test_k9_tied_fish_joins_carried_eggs_and_the_next_fish_takes_all() -> None:
    r1 = score_round(KOZEL, 1, fish(ALEX, 10, 10, 2, 1), (NONE,) * 4)
    assert r1.eggs_after == 23
    r2 = score_round(KOZEL, 2, fish(OLYA, 1, 7, 7, 3), r1.after, eggs=r1.eggs_after)
    assert r2.eggs_after == 23 + 18 and r2.eggs_taken_by is None
    assert r2.after == (NONE,) * 4
    r3 = score_round(KOZEL, 3, fish(SERG, 1, 2, 3, 4), r2.after, eggs=r2.eggs_after)
    assert r3.points == (0, 0, 0, 10 + 41)
    assert r3.after == (rem(0), rem(0), rem(0), rec(51))
    assert (r3.eggs_after, r3.eggs_taken_by) == (0, SERG)


def test_k9_eggs_lifted_into_an_open_account_by_a_small_score() -> None:
    # 3 points alone would be remembered; with 20 eggs the sum opens the account.
    result = score_round(KOZEL, 2, out(MASHA, 0, 3, 1, 2), (rem(4),) * 4, eggs=20)
    assert result.points == (0, 23, 1, 2)
    assert result.after == (rem(0), rec(27), rem(5), rem(6))


# --- K-7: the rule of 13 (open_threshold) ----------------------------------------------


@pytest.mark.parametrize(
    ("threshold", "expected"),
    [
        (0, (rec(0), rec(3), rec(12), rec(25))),
        (13, (rem(0), rem(3), rem(12), rec(25))),
        (25, (rem(0), rem(3), rem(12), rec(25))),
    ],
)
def test_k7_open_threshold(threshold: int, expected: tuple[Account, ...]) -> None:
    ruleset = KOZEL.with_options(open_threshold=threshold)
    before = initial_scores(ruleset, 4)
    assert all(a.opened == (threshold == 0) for a in before)
    result = score_round(ruleset, 1, out(MASHA, 0, 3, 12, 25), before)
    assert result.after == expected


def test_k7_threshold_25_keeps_13_remembered_and_opens_at_25() -> None:
    ruleset = KOZEL.with_options(open_threshold=25)
    result = score_round(ruleset, 2, out(MASHA, 0, 13, 24, 25), (rem(6),) * 4)
    assert result.after == (rem(0), rem(19), rem(30), rec(31))


def test_k7_open_account_records_small_points_directly() -> None:
    result = score_round(KOZEL, 5, out(ALEX, 2, 0, 1, 12), (rec(40), rec(50), rem(3), rec(7)))
    assert result.after == (rec(42), rec(50), rem(4), rec(19))


def test_k7_going_out_with_an_unopened_account_loses_remembered_points() -> None:
    result = score_round(KOZEL, 2, out(OLYA, 5, 5, 0, 5), (rem(3), rem(3), rem(12), rem(3)))
    assert result.after[OLYA] == rem(0)


def test_k7_going_out_with_an_open_account_keeps_it() -> None:
    result = score_round(KOZEL, 2, out(OLYA, 5, 5, 0, 5), (rem(3), rem(3), rec(44), rem(3)))
    assert result.after[OLYA] == rec(44)


# --- K-6: the lone 0-0 -----------------------------------------------------------------


@pytest.mark.parametrize("lone_blank", [10, 25, 0])
def test_k6_lone_blank_on_going_out(lone_blank: int) -> None:
    ruleset = KOZEL.with_options(lone_blank=lone_blank, open_threshold=0)
    result = score_round(ruleset, 1, out(MASHA, 0, 0, 7), initial_scores(ruleset, 3))
    assert result.points == (0, lone_blank, 7)


@pytest.mark.parametrize(("on_fish", "expected"), [(True, 10), (False, 0)])
def test_k6_lone_blank_on_fish_option(on_fish: bool, expected: int) -> None:
    ruleset = KOZEL.with_options(lone_blank_on_fish=on_fish, fish=FishMode.EACH)
    result = score_round(ruleset, 1, fish(ALEX, 0, 7, 20), (NONE,) * 3)
    assert result.points == (expected, 7, 20)


def test_k6_lone_blank_from_the_hands_and_from_the_sums_agree() -> None:
    outcome = out(ALEX, 0, 0, 9)
    hands = (tiles("0-0"), (), tiles("4-5"))
    assert seat_values(KOZEL, outcome, hands) == seat_values(KOZEL, outcome) == (10, 0, 9)
    assert hand_value(KOZEL, tiles("0-0", "0-1"), fish=False) == 1


def test_k6_lone_blank_can_make_the_fish_taker() -> None:
    # With the lone 0-0 worth 10 on a fish, Masha (0-0 alone) has the most.
    result = score_round(KOZEL, 1, fish(ALEX, 0, 7, 9), (NONE,) * 3)
    assert result.points == (26, 0, 0)


# --- K-9: the three fish modes ---------------------------------------------------------


def test_k9_fish_each_scores_everyone_own_hand() -> None:
    ruleset = KOZEL.with_options(fish=FishMode.EACH)
    before = (rem(5), rem(9), rem(7), rec(40))
    result = score_round(ruleset, 1, fish(ALEX, 2, 3, 13, 5), before)
    assert result.points == (2, 3, 13, 5)
    assert result.after == (rem(7), rem(12), rec(20), rec(45))


def test_k9_fish_each_tie_makes_no_eggs() -> None:
    ruleset = KOZEL.with_options(fish=FishMode.EACH)
    result = score_round(ruleset, 1, fish(ALEX, 8, 8, 1), (NONE,) * 3)
    assert result.eggs_after == 0
    assert result.after == (rem(8), rem(8), rem(1))


def test_k9_fisherman_takes_all() -> None:
    ruleset = KOZEL.with_options(fish=FishMode.FISHERMAN_TAKES_ALL)
    before = (rem(5), rem(9), rem(7), rec(40))
    result = score_round(ruleset, 1, fish(ALEX, 2, 3, 13, 5), before)
    assert result.points == (0, 23, 0, 0)
    assert result.after == (rem(0), rec(32), rem(0), rec(40))


def test_k9_fisherman_takes_all_small_total_stays_remembered() -> None:
    ruleset = KOZEL.with_options(fish=FishMode.FISHERMAN_TAKES_ALL)
    result = score_round(ruleset, 1, fish(MASHA, 2, 3, 4), (rem(1), rem(1), rem(1)))
    assert result.after == (rem(10), rem(0), rem(0))


def test_k9_fisherman_takes_all_tie_makes_no_eggs() -> None:
    ruleset = KOZEL.with_options(fish=FishMode.FISHERMAN_TAKES_ALL)
    result = score_round(ruleset, 1, fish(MASHA, 9, 9, 1), (NONE,) * 3)
    assert result.eggs_after == 0 and result.points == (19, 0, 0)


# --- K-1: teams ------------------------------------------------------------------------

TEAMS = KOZEL.with_options(teams=True)


def test_k1_sides() -> None:
    assert sides_for(TEAMS, 4) == ((0, 2), (1, 3))
    assert sides_for(TEAMS, 3) == ((0,), (1,), (2,))
    assert sides_for(KOZEL, 4) == ((0,), (1,), (2,), (3,))
    with pytest.raises(DominoError):
        sides_for(KOZEL, 5)


def test_k1_partner_hand_does_not_count_when_going_out() -> None:
    # Seat 0 goes out; partner seat 2 still holds 30 pips, which do not count.
    result = score_round(TEAMS, 1, out(0, 0, 6, 30, 8), (NONE, NONE))
    assert result.points == (0, 14)
    assert result.after == (rem(0), rec(14))


def test_k1_team_fish_compares_team_totals() -> None:
    # Seat 2 alone has the most (12), but team 1+3 has the larger total (7 + 9).
    result = score_round(TEAMS, 1, fish(0, 2, 7, 12, 9), (rem(3), NONE))
    assert result.points == (0, 30)
    assert result.after == (rem(0), rec(30))


def test_k1_team_fish_tie_makes_eggs() -> None:
    result = score_round(TEAMS, 1, fish(0, 2, 7, 12, 7), (NONE, NONE))
    assert result.eggs_after == 28 and result.after == (NONE, NONE)


def test_k1_team_lone_blank_counts_per_hand() -> None:
    result = score_round(TEAMS, 1, out(1, 0, 0, 5, 9), (NONE, NONE))
    assert result.points == (15, 0)


# --- K-10: match end -------------------------------------------------------------------


@pytest.mark.parametrize("target", [101, 125])
def test_k10_target(target: int) -> None:
    ruleset = KOZEL.with_options(target=target)
    assert match_deciders(ruleset, (rec(target - 1), rec(3))) == ()
    assert match_deciders(ruleset, (rec(target), rec(3))) == (0,)


def test_k10_remembered_points_never_count() -> None:
    assert match_deciders(KOZEL, (rem(150), rec(100))) == ()


def test_k10_several_over_the_target_the_most_is_the_goat() -> None:
    assert match_deciders(KOZEL, (rec(105), rec(120), rec(40))) == (1,)


def test_k10_several_equal_are_all_goats() -> None:
    assert match_deciders(KOZEL, (rec(110), rec(110), rec(40), rec(101))) == (0, 1)


def test_k10_match_ends_in_a_round_scored_from_below() -> None:
    before = (rec(90), rec(80), rec(5), rec(0))
    result = score_round(KOZEL, 9, out(SERG, 19, 30, 2, 0), before)
    assert match_deciders(KOZEL, result.after) == (1,)


# --- K-4 / T-2: who opens the next round -----------------------------------------------


def test_k4_next_leader_is_who_went_out_or_the_fisherman() -> None:
    assert next_leader(KOZEL, out(2, 5, 5, 0, 5)) == 2
    assert next_leader(KOZEL, fish(3, 1, 2, 30, 4)) == 3


def test_t2_next_leader_is_the_round_winner() -> None:
    assert next_leader(CLASSIC, out(1, 5, 0, 5)) == 1
    assert next_leader(CLASSIC, fish(0, 9, 4, 6)) == 1
    assert next_leader(CLASSIC, fish(0, 4, 4, 6)) == 0  # tie: the fisherman
    assert next_leader(CLASSIC, fish(2, 9, 4, 4)) == 2  # tie: the fisherman
    classic_teams = CLASSIC.with_options(teams=True)
    assert next_leader(classic_teams, fish(0, 9, 3, 9, 1)) == 3
    assert next_leader(classic_teams, fish(1, 9, 2, 9, 2)) == 1
    assert next_leader(classic_teams, fish(0, 9, 2, 9, 2)) == 1


# --- Классика T-4 .. T-6 ---------------------------------------------------------------


def test_t4_going_out_scores_the_opponents_hands() -> None:
    before = initial_scores(CLASSIC, 3)
    result = score_round(CLASSIC, 1, out(1, 12, 0, 7), before)
    assert result.points == (0, 19, 0)
    assert result.after == (rec(0), rec(19), rec(0))


def test_t4_lone_blank_in_a_losers_hand_counts_25() -> None:
    result = score_round(CLASSIC, 1, out(0, 0, 0, 7), initial_scores(CLASSIC, 3))
    assert result.points == (32, 0, 0)


def test_t4_held_double_six_counts_50_when_the_option_is_on() -> None:
    outcome = out(0, 0, 15, 3)
    hands = ((), tiles("6-6", "1-2"), tiles("0-3"))
    plain = score_round(CLASSIC, 1, outcome, initial_scores(CLASSIC, 3), hands=hands)
    assert plain.points == (18, 0, 0)
    ruleset = CLASSIC.with_options(held_double_six=50)
    held = score_round(ruleset, 1, outcome, initial_scores(ruleset, 3), hands=hands)
    assert held.points == (56, 0, 0)
    with pytest.raises(DominoError, match="held_double_six"):
        score_round(ruleset, 1, outcome, initial_scores(ruleset, 3))


def test_t5_fish_lowest_scores_the_others_minus_own() -> None:
    result = score_round(CLASSIC, 1, fish(2, 9, 4, 11), initial_scores(CLASSIC, 3))
    assert result.points == (0, 9 + 11 - 4, 0)


def test_t5_fish_tie_for_lowest_scores_nobody() -> None:
    before = (rec(10), rec(20), rec(30))
    result = score_round(CLASSIC, 1, fish(2, 4, 4, 11), before)
    assert result.points == (0, 0, 0)
    assert result.after == before
    assert classic_round_winner(CLASSIC, fish(2, 4, 4, 11), (4, 4, 11)) is None


def test_t5_a_lone_blank_is_the_lowest_hand_and_wins_the_fish() -> None:
    # The worked example: a two-player fish, 0-0 against 3-3. The 0-0 holds no
    # pip, the lowest hand, and scores 6 - 0; compared as 25 it lost and the 3-3 scored 19.
    hands = (tiles("0-0"), tiles("3-3"))
    result = score_round(CLASSIC, 1, fish(1, 0, 6), initial_scores(CLASSIC, 2), hands=hands)
    assert result.points == (6, 0)
    assert next_leader(CLASSIC, fish(1, 0, 6), hands) == 0
    assert score_round(CLASSIC, 1, fish(1, 0, 6), initial_scores(CLASSIC, 2)).points == (6, 0)


def test_t5_a_lone_blank_counts_25_in_a_losing_sides_hand() -> None:
    # Pairs: 0-0 alone and 6-6 5-5 (22 pips) against 1-2 and 2-3 (8): the lower pair
    # wins and writes the losers' hands with the lone 0-0 as 25, less its own 8.
    ruleset = CLASSIC.with_options(teams=True)
    hands = (tiles("0-0"), tiles("1-2"), tiles("5-5", "6-6"), tiles("2-3"))
    outcome = fish(3, 0, 3, 22, 5)
    result = score_round(ruleset, 1, outcome, initial_scores(ruleset, 2), hands=hands)
    assert result.points == (0, 25 + 22 - 8)
    assert next_leader(ruleset, outcome, hands) == 1


@pytest.mark.parametrize(
    ("by_pips", "on_fish", "points"),
    [
        (True, True, (12, 0, 0)),
        (True, False, (12, 0, 0)),
        (False, True, (0, 25 + 9 - 3, 0)),  # as stored before T-5 was read by the pips
        (False, False, (12, 0, 0)),
    ],
)
def test_t5_lone_blank_on_fish(by_pips: bool, on_fish: bool, points: tuple[int, ...]) -> None:
    ruleset = CLASSIC.with_options(lone_blank_on_fish=on_fish, fish_by_pips=by_pips)
    result = score_round(ruleset, 1, fish(1, 0, 3, 9), initial_scores(ruleset, 3))
    assert result.points == points


def test_t_classic_teams_going_out_and_fish() -> None:
    ruleset = CLASSIC.with_options(teams=True)
    went = score_round(ruleset, 1, out(3, 4, 6, 5, 0), initial_scores(ruleset, 2))
    assert went.points == (0, 9)
    fished = score_round(ruleset, 1, fish(0, 4, 6, 5, 2), initial_scores(ruleset, 2))
    assert fished.points == (0, 9 - 8)


@pytest.mark.parametrize("target", [100, 150])
def test_t6_first_to_the_target_wins(target: int) -> None:
    ruleset = CLASSIC.with_options(target=target)
    assert match_deciders(ruleset, (rec(target - 1), rec(0))) == ()
    assert match_deciders(ruleset, (rec(target + 3), rec(target), rec(2))) == (0,)
    assert match_deciders(ruleset, (rec(target + 3), rec(target + 3))) == (0, 1)


def test_classic_has_no_eggs() -> None:
    with pytest.raises(DominoError, match="eggs"):
        score_round(CLASSIC, 1, out(0, 0, 3, 4), initial_scores(CLASSIC, 3), eggs=5)


def test_score_round_refuses_mismatched_accounts() -> None:
    with pytest.raises(DominoError, match="accounts"):
        score_round(KOZEL, 1, out(0, 0, 3, 4), (NONE, NONE))
    with pytest.raises(DominoError, match="negative"):
        score_round(KOZEL, 1, out(0, 0, 3, 4), (NONE,) * 3, eggs=-1)


def test_t5_a_classic_ruleset_stored_before_reading_by_pips_keeps_its_rule() -> None:
    stored = CLASSIC.to_dict()
    assert stored.pop("fish_by_pips") is True
    before = Ruleset.from_dict(stored)
    assert not before.fish_by_pips and before.to_dict() == stored
    result = score_round(before, 1, fish(1, 0, 6), initial_scores(before, 2))
    assert result.points == (0, 19)
