"""Round-robin schedules (domino.tournament.schedule): hand-checked small cases, then
every entrant count and table size."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domino.errors import DominoError
from domino.tournament import Round, Table, round_robin


def tables(rounds: tuple[Round, ...]) -> list[list[tuple[int, ...]]]:
    return [[table.entrants for table in round.tables] for round in rounds]


def meetings(rounds: tuple[Round, ...]) -> Counter[frozenset[int]]:
    return Counter(
        frozenset(pair)
        for round in rounds
        for table in round.tables
        for pair in combinations(table.entrants, 2)
    )


def byes_had(rounds: tuple[Round, ...], entrants: int) -> list[int]:
    count = Counter(entrant for round in rounds for entrant in round.byes)
    return [count[entrant] for entrant in range(entrants)]


def check_valid(rounds: tuple[Round, ...], entrants: int, table_size: int) -> None:
    """Every round seats everyone once (at a table or a bye), full tables (one smaller
    table when fewer entrants than a table seats), every pair meets, byes even."""
    size = min(table_size, entrants)
    assert [round.number for round in rounds] == list(range(1, len(rounds) + 1))
    for round in rounds:
        seated = [entrant for table in round.tables for entrant in table.entrants]
        assert sorted(seated + list(round.byes)) == list(range(entrants))
        assert all(len(table.entrants) == size for table in round.tables)
        assert len(round.byes) == (entrants % size if entrants >= size else 0)
    met = meetings(rounds)
    assert set(met) == {frozenset(pair) for pair in combinations(range(entrants), 2)}
    had = byes_had(rounds, entrants)
    assert max(had) - min(had) <= 1


def test_four_at_tables_of_two_by_the_circle() -> None:
    # 0 stays, 1 2 3 turn round it:   0 1      0 3      0 2
    #                                 3 2      2 1      1 3
    # each round pairs the columns: (0, 3) (1, 2); (0, 2) (3, 1); (0, 1) (2, 3)
    rounds = round_robin(4, 2)
    assert tables(rounds) == [[(0, 3), (1, 2)], [(0, 2), (1, 3)], [(0, 1), (2, 3)]]
    assert all(round.byes == () for round in rounds)


def test_five_at_tables_of_two_whoever_faces_the_blank_seat_sits_out() -> None:
    # the ring 0 1 2 3 4 _ : round 1 pairs 0-_, 1-4, 2-3, so 0 sits out; then the ring
    # turns to 0 _ 1 2 3 4: 0-4, _-3, 1-2, and 3 sits out; and so on
    rounds = round_robin(5, 2)
    assert tables(rounds)[:2] == [[(1, 4), (2, 3)], [(0, 4), (1, 2)]]
    assert [round.byes for round in rounds] == [(0,), (3,), (1,), (4,), (2,)]


def test_six_at_tables_of_three_greedy() -> None:
    # Round 1: the first seating, 6 new pairs.
    # Round 2: a table can now hold at most 2 new pairs (two of its three sat together);
    #   the first seating with 2 + 2 is (0, 1, 3) (0-3, 1-3) and (2, 4, 5) (2-4, 2-5).
    # Round 3: left unmet 0-4, 0-5, 1-4, 1-5, 2-3; no two tables of 3 hold more than 3
    #   of them: (0, 1, 4) takes 0-4 and 1-4, (2, 3, 5) takes 2-3.
    # Round 4: 0-5 and 1-5, at (0, 1, 5); the others (2, 3, 4) sit together again.
    # Four rounds is the least: 6 + 4 + 4 pairs at best in three rounds, 15 to meet.
    rounds = round_robin(6, 3)
    assert tables(rounds) == [
        [(0, 1, 2), (3, 4, 5)],
        [(0, 1, 3), (2, 4, 5)],
        [(0, 1, 4), (2, 3, 5)],
        [(0, 1, 5), (2, 3, 4)],
    ]
    assert all(round.byes == () for round in rounds)


def test_five_at_tables_of_four_one_sits_out_each_round() -> None:
    # Three rounds: with two, the two who sat out would never meet.
    # Round 1: 4 sits out (byes are tried from the last entrant down).
    # Round 2: 4 may not sit out again (two byes against none); with 3 out, (0, 1, 2, 4)
    #   meets 0-4, 1-4, 2-4, as many new pairs as any seating.
    # Round 3: 3-4 is the last pair unmet; 2 is the last who has not sat out.
    rounds = round_robin(5, 4)
    assert [round.byes for round in rounds] == [(4,), (3,), (2,)]
    assert tables(rounds) == [[(0, 1, 2, 3)], [(0, 1, 2, 4)], [(0, 1, 3, 4)]]


@pytest.mark.parametrize("entrants", range(3, 9))
def test_tables_of_two_every_pair_meets_exactly_once(entrants: int) -> None:
    rounds = round_robin(entrants, 2)
    check_valid(rounds, entrants, 2)
    assert set(meetings(rounds).values()) == {1}
    if entrants % 2:
        assert len(rounds) == entrants
        assert byes_had(rounds, entrants) == [1] * entrants
    else:
        assert len(rounds) == entrants - 1
        assert all(round.byes == () for round in rounds)


@pytest.mark.parametrize("table_size", [3, 4])
@pytest.mark.parametrize("entrants", range(2, 9))
def test_tables_of_three_and_four_every_pair_meets_and_byes_are_even(
    entrants: int, table_size: int
) -> None:
    check_valid(round_robin(entrants, table_size), entrants, table_size)


@pytest.mark.parametrize(
    ("table_size", "rounds"),
    [(3, [1, 1, 3, 4, 4, 5, 6]), (4, [1, 1, 1, 3, 3, 5, 3])],
)
def test_the_rounds_the_greedy_takes_as_its_docstring_says(
    table_size: int, rounds: list[int]
) -> None:
    assert [len(round_robin(n, table_size)) for n in range(2, 9)] == rounds


def test_fewer_entrants_than_a_table_seats_sit_at_one_table() -> None:
    assert round_robin(3, 4) == (Round(1, (Table((0, 1, 2)),), ()),)
    assert round_robin(2, 3) == (Round(1, (Table((0, 1)),), ()),)


@pytest.mark.parametrize(("entrants", "table_size"), [(1, 2), (9, 2), (4, 1), (4, 5)])
def test_out_of_range(entrants: int, table_size: int) -> None:
    with pytest.raises(ValueError):
        round_robin(entrants, table_size)
    with pytest.raises(DominoError):
        round_robin(entrants, table_size)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=8), st.integers(min_value=2, max_value=4))
def test_round_robin_is_valid_and_replays(entrants: int, table_size: int) -> None:
    rounds = round_robin(entrants, table_size)
    check_valid(rounds, entrants, table_size)
    assert round_robin(entrants, table_size) == rounds
    for round in rounds:
        for table in round.tables:
            assert list(table.entrants) == sorted(table.entrants)
