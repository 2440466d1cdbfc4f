"""bench/instances.py, bench/e2e.py's shard mode: the `--instances` counts as given, and
the search for the games held (`--held`), against a capacity known in advance."""

from __future__ import annotations

import math

import pytest

from bench.instances import HELD_P99, CapacitySearch, Step, instance_counts


def test_instance_counts_are_read_with_commas_or_spaces_each_once() -> None:
    assert instance_counts(["1,2"]) == [1, 2]
    assert instance_counts(["1", "2"]) == [1, 2]
    assert instance_counts(["2", "1,2,"]) == [2, 1]
    for wrong in (["0"], [","], ["two"]):
        with pytest.raises(ValueError):
            instance_counts(wrong)


def step(games: int, capacity: int) -> Step:
    """A run of `games` on a bot that answers in time up to `capacity` games."""
    p99 = HELD_P99 / 2 if games <= capacity else math.inf
    return Step(games, p99, games / 10, 5.0, 1.0, 0.3, 0.9)


@pytest.mark.parametrize("capacity", [1, 24, 25, 137, 300, 1000])
def test_the_search_ends_within_its_precision_of_the_capacity(capacity: int) -> None:
    search = CapacitySearch(start=25, most=12)
    while (games := search.next_games()) is not None:
        assert games not in [s.games for s in search.steps], "a count tried twice"
        search.record(step(games, capacity))
    held, failed = search.held, search.not_held
    assert held is not None and failed is not None
    assert held.games <= capacity < failed.games
    assert failed.games - held.games <= max(1, math.ceil(held.games * search.precision))


def test_the_search_stops_after_its_most_steps() -> None:
    search = CapacitySearch(start=1, most=4)
    while (games := search.next_games()) is not None:
        search.record(step(games, 10_000))
    assert [s.games for s in search.steps] == [1, 2, 4, 8]
    assert search.not_held is None
