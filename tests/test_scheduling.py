"""How tests/conftest.py orders the suite for pytest-xdist's work stealing."""

from __future__ import annotations

from tests.conftest import spread_slow

# A test's name -> the seconds it is marked slow for; the rest are quick (None).
MARKED = {"a": 300.0, "b": 200.0, "c": 150.0, "d": 100.0, "e": 60.0, "f": 30.0}


def first_slices(order: list[str], workers: int) -> list[list[str]]:
    """The slices worksteal hands the workers at the start: len // nodes remaining each."""
    slices, start = [], 0
    for worker in range(workers):
        size = (len(order) - start) // (workers - worker)
        slices.append(order[start : start + size])
        start += size
    return slices


def test_each_worker_begins_with_its_share_of_the_slow_tests() -> None:
    quick = [f"q{n}" for n in range(40)]
    items = [*quick[:10], "f", "a", *quick[10:25], "c", "e", "b", *quick[25:], "d"]
    order = spread_slow(items, 4, MARKED.get)
    assert sorted(order) == sorted(items)  # nothing lost, nothing twice
    slices = first_slices(order, 4)
    slow_of = [[name for name in part if name in MARKED] for part in slices]
    # Longest first, each to the slice with the least slow time so far, at its head.
    assert slow_of == [["a"], ["b"], ["c", "f"], ["d", "e"]]
    for part, slow in zip(slices, slow_of, strict=True):
        assert part[: len(slow)] == slow
    # The quick ones keep their order.
    assert [name for name in order if name not in MARKED] == quick


def test_one_worker_runs_the_slow_tests_first_longest_first() -> None:
    items = ["q1", "d", "q2", "a", "q3"]
    assert spread_slow(items, 1, MARKED.get) == ["a", "d", "q1", "q2", "q3"]


def test_a_full_slice_takes_no_more_slow_tests() -> None:
    items = ["f", "e", "d", "c", "b", "a"]
    order = spread_slow(items, 3, MARKED.get)
    # "f" would go to the third slice (c + d = 250 s, the least), but it holds two already.
    assert first_slices(order, 3) == [["a", "f"], ["b", "e"], ["c", "d"]]
