"""Swiss pairing (domino.tournament.swiss) against rounds worked by hand."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domino.errors import DominoError
from domino.tournament import (
    Bye,
    Format,
    Round,
    TableResult,
    bye_half_points,
    standings,
    swiss_round,
    swiss_rounds_allowed,
)
from domino.tournament.standings import met_pairs
from domino.tournament.swiss import _greedy


def won(round: int, winner: int, loser: int, margin: float = 0.0) -> TableResult:
    return TableResult(round, (winner, loser), (0, 1), (margin, -margin))


def drawn(round: int, *entrants: int) -> TableResult:
    return TableResult(round, entrants, (0,) * len(entrants), (0.0,) * len(entrants))


def ranked(round: int, entrants: tuple[int, ...], margins: tuple[float, ...]) -> TableResult:
    """A table whose entrants finished in the order given."""
    return TableResult(round, entrants, tuple(range(len(entrants))), margins)


def tables(round: Round) -> list[tuple[int, ...]]:
    return [table.entrants for table in round.tables]


def repeats(round: Round, results: list[TableResult]) -> int:
    met = {frozenset(p) for result in results for p in combinations(result.entrants, 2)}
    return sum(
        1 for table in round.tables for p in combinations(table.entrants, 2) if frozenset(p) in met
    )


def test_eight_entrants_three_rounds_by_score_groups() -> None:
    # Round 1: nobody has played; everyone level, listed by entrant number: 0-1, 2-3, ...
    first = swiss_round(1, range(8), 2, [], [])
    assert tables(first) == [(0, 1), (2, 3), (4, 5), (6, 7)]
    assert first.byes == ()
    results = [won(1, 0, 1, 30), won(1, 3, 2, 20), won(1, 4, 5, 10), won(1, 7, 6, 5)]

    # Round 2: winners 0, 3, 4, 7 on 1 point, none met, Buchholz 0 each: by margin
    # (30, 20, 10, 5); the losers likewise 6 (-5), 5 (-10), 2 (-20), 1 (-30).
    # Top down: 0-3, 4-7, 6-5, 2-1; none met before.
    second = swiss_round(2, range(8), 2, results, [])
    assert tables(second) == [(0, 3), (4, 7), (6, 5), (2, 1)]
    results += [won(2, 0, 3, 10), won(2, 7, 4, 40), won(2, 6, 5, 15), drawn(2, 2, 1)]

    # After round 2, in halves: 0: 4, 7: 4; 3: 2, 4: 2, 6: 2; 1: 1, 2: 1; 5: 0.
    # 2 points: 0 and 7 have not met; Buchholz 0: 1 (1) + 3 (2) = 3, 7: 6 (2) + 4 (2) = 4
    #   -> 7, 0
    # 1 point: 3, 4, 6, none met; Buchholz 3: 2 (1) + 0 (4) = 5, 4: 5 (0) + 7 (4) = 4,
    #   6: 7 (4) + 5 (0) = 4; 4 and 6 by margin (4: 10 - 40 = -30, 6: -5 + 15 = +10)
    #   -> 3, 6, 4
    # ½ point: 1 and 2 drew (head to head 1 each); Buchholz 1: 0 (4) + 2 (1) = 5,
    #   2: 3 (2) + 1 (1) = 3 -> 1, 2
    # 0 points: 5.
    lines = standings(8, Format.SWISS, results)
    assert [line.entrant for line in lines] == [7, 0, 3, 6, 4, 1, 2, 5]
    assert [line.buchholz for line in lines] == [4, 3, 5, 4, 4, 5, 3, 4]

    # Round 3, top down: 7 met 6 and 4, takes 0; 3 met 2 and 0, takes 6; 4 met 5 and 7,
    # takes 1; 2 and 5 have not met.
    third = swiss_round(3, range(8), 2, results, [])
    assert tables(third) == [(7, 0), (3, 6), (4, 1), (2, 5)]
    assert third.number == 3
    assert repeats(third, results) == 0


def test_backtracking_avoids_a_repeat_the_top_down_draw_would_make() -> None:
    # Six entrants, every match drawn: all level, listed by entrant number.
    # Met: 0-1, 2-3, 4-5 (round 1); 0-2, 1-4, 3-5 (round 2).
    # Top down without looking back: 0 takes 3 (1 and 2 met), 1 takes 2, leaving 4-5,
    # who met. Backtracking: 1 takes 5 instead (3 is taken, 4 met), leaving 2-4.
    results = [drawn(1, 0, 1), drawn(1, 2, 3), drawn(1, 4, 5)]
    results += [drawn(2, 0, 2), drawn(2, 1, 4), drawn(2, 3, 5)]
    third = swiss_round(3, range(6), 2, results, [])
    assert tables(third) == [(0, 3), (1, 5), (2, 4)]
    assert repeats(third, results) == 0


def test_a_repeat_only_when_none_can_be_avoided_and_as_few_as_can_be() -> None:
    # 0 has met everyone: one repeat is forced, and one is enough (0-1, 2-3).
    results = [won(1, 0, 1), won(2, 0, 2), won(3, 0, 3)]
    fourth = swiss_round(4, range(4), 2, results, [])
    assert tables(fourth) == [(0, 1), (2, 3)]
    assert repeats(fourth, results) == 1


def test_everyone_met_everyone_still_draws_a_round() -> None:
    results = [drawn(1, 0, 1), drawn(1, 2, 3), drawn(2, 0, 2), drawn(2, 1, 3)]
    results += [drawn(3, 0, 3), drawn(3, 1, 2)]
    assert tables(swiss_round(4, range(4), 2, results, [])) == [(0, 1), (2, 3)]


def test_the_bye_goes_to_the_lowest_ranked_without_one() -> None:
    # Round 1 of three: 2 is last (by entrant number), sits out.
    first = swiss_round(1, range(3), 2, [], [])
    assert (tables(first), first.byes) == ([(0, 1)], (2,))
    results = [won(1, 0, 1)]
    byes = [Bye(1, 2, 2)]
    # Round 2: 0 and 2 on 1 point (the bye is a win), 1 on none: 1 sits out.
    second = swiss_round(2, range(3), 2, results, byes)
    assert (tables(second), second.byes) == ([(0, 2)], (1,))
    results.append(won(2, 2, 0))
    byes.append(Bye(2, 1, 2))
    # Round 3: 2 on 2 points; 0 and 1 on 1, 0 ahead on head to head (beat 1). 1 is last
    # but has had a bye, so 0 sits out.
    third = swiss_round(3, range(3), 2, results, byes)
    assert (tables(third), third.byes) == ([(2, 1)], (0,))


def test_once_everyone_had_a_bye_the_lowest_ranked_sits_out_again() -> None:
    results = [won(1, 0, 1), won(2, 2, 0), won(3, 2, 1)]
    byes = [Bye(1, 2, 2), Bye(2, 1, 2), Bye(3, 0, 2)]
    # points: 2: 6 halves, 0: 4, 1: 2 -> 1 sits out
    assert swiss_round(4, range(3), 2, results, byes).byes == (1,)


def test_the_withdrawn_are_not_paired() -> None:
    # 0 beat 1 and 2 beat 3; then 2 withdrew. Three active: 0 (1 point), then 1 and 3
    # (level on everything, by entrant number). The bye would go to 3, the lowest, but
    # that leaves 0-1, who met: the bye goes one up, to 1, and 0 meets 3.
    results = [won(1, 0, 1), won(1, 2, 3)]
    second = swiss_round(2, [0, 1, 3], 2, results, [])
    assert (tables(second), second.byes) == ([(0, 3)], (1,))


def test_tables_of_three_group_by_standing() -> None:
    # Round 1: (0, 1, 2), (3, 4, 5), (6, 7, 8); each finishes in seat order.
    first = swiss_round(1, range(9), 3, [], [])
    assert tables(first) == [(0, 1, 2), (3, 4, 5), (6, 7, 8)]
    results = [
        ranked(1, (0, 1, 2), (30, 3, -33)),
        ranked(1, (3, 4, 5), (20, 2, -22)),
        ranked(1, (6, 7, 8), (10, 1, -11)),
    ]
    # The firsts on 2 points (0, 3, 6 by margin), the seconds on 1 (1, 4, 7), the lasts
    # on 0 (8, 5, 2: margins -11, -22, -33); Buchholz is equal within each group.
    # Top down, none met: the firsts together, the seconds together, the lasts together.
    second = swiss_round(2, range(9), 3, results, [])
    assert tables(second) == [(0, 3, 6), (1, 4, 7), (8, 5, 2)]
    assert repeats(second, results) == 0


def test_tables_of_four_with_a_bye_and_forced_repeats() -> None:
    # Nine at tables of 4: two tables, 8 (the last) sits out.
    first = swiss_round(1, range(9), 4, [], [])
    assert (tables(first), first.byes) == ([(0, 1, 2, 3), (4, 5, 6, 7)], (8,))
    results = [
        ranked(1, (0, 1, 2, 3), (30, 10, -10, -30)),
        ranked(1, (4, 5, 6, 7), (20, 5, -5, -20)),
    ]
    byes = [Bye(1, 8, 3)]
    # Points (halves): 0 and 4: 6; 1 and 5: 4; 8 (bye): 3; 2 and 6: 2; 3 and 7: 0.
    # Buchholz is level within each pair (0-4, 1-5, 2-6, 3-7: their opponents took
    # 6 halves between them), so margin: 0, 4, 1, 5, 8, 6, 2, 7, 3.
    # 3 is the lowest without a bye. The eight left come from two tables of round 1
    # (0 1 2 and 4 5 6 7) and 8: two tables of four hold at least 3 repeats (2 + 2 from
    # the two tables at one, 8 with 1 + 2 at the other), whoever sits out.
    # Top down: 0 takes 4 1 5 (0-1, 4-5); 8 6 2 7 (6-7).
    second = swiss_round(2, range(9), 4, results, byes)
    assert second.byes == (3,)
    assert tables(second) == [(0, 4, 1, 5), (8, 6, 2, 7)]
    assert repeats(second, results) == 3


def test_the_same_input_gives_the_same_round_whatever_the_order_of_active() -> None:
    results = [drawn(1, 0, 1), drawn(1, 2, 3), drawn(1, 4, 5)]
    results += [drawn(2, 0, 2), drawn(2, 1, 4), drawn(2, 3, 5)]
    once = swiss_round(3, [0, 1, 2, 3, 4, 5], 2, results, [])
    assert swiss_round(3, [5, 3, 1, 4, 2, 0], 2, results, []) == once
    assert swiss_round(3, range(6), 2, list(reversed(results)), []) == once


@pytest.mark.parametrize(
    ("entrants", "table_size", "allowed"),
    [
        (8, 2, range(1, 8)),
        (2, 2, range(1, 2)),
        (32, 2, range(1, 32)),
        (8, 3, range(1, 5)),  # 7 others, 2 a round
        (8, 4, range(1, 4)),  # 7 others, 3 a round
        (3, 4, range(1, 2)),  # one table of 3
    ],
)
def test_swiss_rounds_allowed(entrants: int, table_size: int, allowed: range) -> None:
    assert swiss_rounds_allowed(entrants, table_size) == allowed


@pytest.mark.parametrize(("entrants", "table_size"), [(1, 2), (33, 2), (8, 5)])
def test_swiss_rounds_out_of_range(entrants: int, table_size: int) -> None:
    with pytest.raises(DominoError):
        swiss_rounds_allowed(entrants, table_size)


def test_swiss_round_refuses_bad_input() -> None:
    with pytest.raises(DominoError):
        swiss_round(0, range(4), 2, [], [])
    with pytest.raises(DominoError):
        swiss_round(1, [0, 0, 1], 2, [], [])
    with pytest.raises(DominoError):
        swiss_round(1, [0], 2, [], [])


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[int, int, int, list[int]]:
    entrants = draw(st.integers(min_value=2, max_value=16))
    table_size = draw(st.integers(min_value=2, max_value=4))
    rounds = draw(st.sampled_from(swiss_rounds_allowed(entrants, table_size)))
    places = draw(st.lists(st.integers(0, 3), min_size=entrants * rounds * 4))
    return entrants, table_size, rounds, places


@settings(max_examples=80, deadline=None)
@given(tournaments())
def test_a_whole_swiss_tournament_seats_everyone_and_avoids_repeats(
    setup: tuple[int, int, int, list[int]],
) -> None:
    """Played out with arbitrary places: every round seats each entrant once, at full
    tables, the byes stay even, and the same input draws the same round. At tables of 2
    no round up to n / 2 repeats a meeting: until then everyone has not met at least
    half of the others, so a draw without a repeat exists (Dirac), and the search must
    find it."""
    entrants, table_size, rounds, places = setup
    size = min(table_size, entrants)
    results: list[TableResult] = []
    byes: list[Bye] = []
    draws = iter(places)
    for number in range(1, rounds + 1):
        round = swiss_round(number, range(entrants), table_size, results, byes)
        seated = [entrant for table in round.tables for entrant in table.entrants]
        assert sorted(seated + list(round.byes)) == list(range(entrants))
        assert all(len(table.entrants) == size for table in round.tables)
        if table_size == 2 and number <= entrants // 2:
            assert repeats(round, results) == 0
        assert swiss_round(number, range(entrants), table_size, results, byes) == round
        for table in round.tables:
            taken = tuple(next(draws) for _ in table.entrants)
            results.append(TableResult(number, table.entrants, taken, (0.0,) * len(taken)))
        byes += [Bye(number, entrant, 2) for entrant in round.byes]
    counts = [sum(1 for bye in byes if bye.entrant == e) for e in range(entrants)]
    assert max(counts) - min(counts) <= 1


@pytest.mark.parametrize("table_size", [2, 3, 4])
def test_a_draw_never_repeats_more_than_the_plain_top_down_draw(table_size: int) -> None:
    """32 entrants, every round allowed, seeded random places: where the bounded search
    runs out (tables of 3 and 4 late on), the round is still no worse than drawing top
    down without backtracking with the same byes (`_greedy`, the draw the search must
    beat)."""
    rng = random.Random(table_size)
    entrants = range(32)
    results: list[TableResult] = []
    byes: list[Bye] = []
    halves = bye_half_points(Format.SWISS, table_size)
    for number in swiss_rounds_allowed(32, table_size):
        drawn_round = swiss_round(number, entrants, table_size, results, byes)
        ranked_now = [line.entrant for line in standings(32, Format.SWISS, results, byes)]
        _, plain_repeats = _greedy(ranked_now, drawn_round.byes, table_size, met_pairs(results))
        assert repeats(drawn_round, results) <= plain_repeats, number
        for table in drawn_round.tables:
            places = list(range(len(table.entrants)))
            rng.shuffle(places)
            margins = tuple(0.0 for _ in table.entrants)
            results.append(TableResult(number, table.entrants, tuple(places), margins))
        byes += [Bye(number, entrant, halves) for entrant in drawn_round.byes]
