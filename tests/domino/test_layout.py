"""Layouts (C-4, C-10): geometry, open ends, choices and the JSON round trip."""

from __future__ import annotations

import pytest

from domino.errors import IllegalMove
from domino.geometry import End, Placement
from domino.layout import LineLayout, SpinnerLayout
from domino.tiles import SUIT_MASK, Tile


def t(text: str) -> Tile:
    return Tile.parse(text)


def test_first_tile_low_half_left_high_half_right() -> None:
    line = LineLayout()
    assert line.open_ends() == () and line.end_masks() == () and line.is_empty
    placement = line.place(t("2-5"), None)
    assert placement == Placement(t("2-5"), None, inner=2, outer=5, seq=0)
    assert line.open_ends() == ((End.LEFT, 2), (End.RIGHT, 5))
    assert line.table_mask == t("2-5").bit


def test_tiles_turn_to_match_the_end_they_touch() -> None:
    line = LineLayout()
    line.place(t("2-5"), None)
    left = line.place(t("1-2"), End.LEFT)
    right = line.place(t("5-6"), End.RIGHT)
    assert (left.inner, left.outer, left.seq) == (2, 1, 1)
    assert (right.inner, right.outer, right.seq) == (5, 6, 2)
    assert line.open_ends() == ((End.LEFT, 1), (End.RIGHT, 6))
    view = line.view()
    assert view.chain(End.LEFT) == (left,)
    assert view.chain(End.RIGHT) == (right,)
    assert view.centre is not None and view.centre.tile == t("2-5")
    assert view.last == right and view.spinner is None


def test_a_double_lies_across_and_shows_its_pip() -> None:
    line = LineLayout()
    line.place(t("3-4"), None)
    double = line.place(t("4-4"), End.RIGHT)
    assert double.is_double and (double.inner, double.outer) == (4, 4)
    assert line.open_ends() == ((End.LEFT, 3), (End.RIGHT, 4))


def test_ends_for_lists_each_fitting_end_and_one_when_both_show_the_same_pip() -> None:
    line = LineLayout()
    line.place(t("2-5"), None)
    assert line.ends_for(t("2-2")) == (End.LEFT,)
    assert line.ends_for(t("0-2")) == (End.LEFT,)
    assert line.ends_for(t("5-6")) == (End.RIGHT,)
    assert line.ends_for(t("3-4")) == ()
    same = LineLayout()
    same.place(t("3-3"), None)
    assert same.open_ends() == ((End.LEFT, 3), (End.RIGHT, 3))
    assert same.ends_for(t("1-3")) == (End.LEFT,)
    assert same.end_masks() == ((End.LEFT, SUIT_MASK[3]),)
    assert same.fit_mask == SUIT_MASK[3]


def test_place_refuses_what_does_not_fit_and_changes_nothing() -> None:
    line = LineLayout()
    line.place(t("2-5"), None)
    before = line.copy()
    with pytest.raises(IllegalMove, match="3-4 does not fit the LEFT end, which shows 2"):
        line.place(t("3-4"), End.LEFT)
    with pytest.raises(IllegalMove, match="choose an end"):
        line.place(t("2-3"), None)
    with pytest.raises(IllegalMove, match="end UP is not open"):
        line.place(t("2-3"), End.UP)
    with pytest.raises(IllegalMove, match="already on the table"):
        line.place(t("2-5"), End.LEFT)
    assert line == before
    with pytest.raises(IllegalMove, match="takes no end"):
        LineLayout().place(t("1-1"), End.LEFT)


def test_copy_is_independent() -> None:
    line = LineLayout()
    line.place(t("2-5"), None)
    copy = line.copy()
    copy.place(t("5-5"), End.RIGHT)
    assert len(line.placements) == 1 and len(copy.placements) == 2
    assert line != copy


def test_spinner_opens_up_and_down_after_both_sides() -> None:
    spinner = SpinnerLayout()
    spinner.place(t("5-5"), None)
    assert spinner.open_ends() == ((End.LEFT, 5), (End.RIGHT, 5))
    assert spinner.ends_for(t("2-5")) == (End.LEFT, End.RIGHT)  # a spinner offers each end
    spinner.place(t("2-5"), End.LEFT)
    assert [end for end, _ in spinner.open_ends()] == [End.LEFT, End.RIGHT]
    spinner.place(t("5-6"), End.RIGHT)
    assert spinner.open_ends() == ((End.LEFT, 2), (End.RIGHT, 6), (End.UP, 5), (End.DOWN, 5))
    up = spinner.place(t("3-5"), End.UP)
    assert (up.inner, up.outer) == (5, 3)
    view = spinner.view()
    assert view.spinner is not None and view.spinner.tile == t("5-5")
    assert view.chain(End.UP) == (up,)
    assert view.chain(End.DOWN) == ()


def test_spinner_layout_without_an_opening_double_is_a_line() -> None:
    spinner = SpinnerLayout()
    spinner.place(t("1-2"), None)
    spinner.place(t("1-1"), End.LEFT)
    spinner.place(t("2-2"), End.RIGHT)
    assert spinner.spinner is None
    assert spinner.open_ends() == ((End.LEFT, 1), (End.RIGHT, 2))


def test_a_double_laid_face_down_closes_a_line_end() -> None:
    """O-3 on a line: the other end is then offered alone, even when it shows the same pip."""
    line = LineLayout()
    line.place(t("2-2"), None)
    assert line.end_masks() == ((End.LEFT, SUIT_MASK[2]),)  # equal ends: LEFT only
    line.place(t("2-5"), End.LEFT)
    closed = line.place(t("5-5"), End.LEFT, closed=True)
    assert closed == Placement(t("5-5"), End.LEFT, 5, 5, 2, closed=True)
    assert line.open_ends() == ((End.RIGHT, 2),) and line.closed_ends == (End.LEFT,)
    assert line.end_masks() == ((End.RIGHT, SUIT_MASK[2]),)
    assert line.fit_mask == SUIT_MASK[2] and line.ends_for(t("0-5")) == ()
    view = line.view()
    assert view.closed_ends == (End.LEFT,) and view.chain(End.LEFT)[-1] is closed
    with pytest.raises(IllegalMove, match=r"the end LEFT is closed \(O-3\)"):
        line.place(t("0-5"), End.LEFT)
    copy = line.copy()
    copy.place(t("2-6"), End.RIGHT)
    assert line.closed_ends == copy.closed_ends and line.open_ends() == ((End.RIGHT, 2),)
    line.place(t("1-2"), End.RIGHT)
    assert line.open_ends() == ((End.RIGHT, 1),)
    assert repr(line) == "LineLayout(2-2 2-5L c5-5L 1-2R)"


def test_only_a_double_that_fits_an_open_end_closes_it() -> None:
    line = LineLayout()
    with pytest.raises(IllegalMove, match="it closes nothing"):
        line.place(t("3-3"), None, closed=True)
    line.place(t("3-4"), None)
    with pytest.raises(IllegalMove, match="only a double closes an end"):
        line.place(t("3-5"), End.LEFT, closed=True)
    with pytest.raises(IllegalMove, match="4-4 does not fit the LEFT end"):
        line.place(t("4-4"), End.LEFT, closed=True)
    assert not line.closed_ends and len(line.placements) == 1
    line.place(t("3-3"), End.LEFT, closed=True)
    line.place(t("4-4"), End.RIGHT, closed=True)
    assert line.open_ends() == () and line.end_masks() == () and line.fit_mask == 0
    assert line.closed_ends == (End.LEFT, End.RIGHT)


def test_closing_on_a_spinner() -> None:
    """O-3 with C-10: a closed side is that side's tile, so the spinner opens UP and
    DOWN once the other side has one; a closed UP keeps DOWN open and is not reopened."""
    spinner = SpinnerLayout()
    spinner.place(t("4-4"), None)
    spinner.place(t("2-4"), End.LEFT)
    spinner.place(t("2-2"), End.LEFT, closed=True)
    assert spinner.open_ends() == ((End.RIGHT, 4),)
    spinner.place(t("4-6"), End.RIGHT)
    assert spinner.open_ends() == ((End.RIGHT, 6), (End.UP, 4), (End.DOWN, 4))
    spinner.place(t("1-4"), End.UP)
    spinner.place(t("1-1"), End.UP, closed=True)
    assert spinner.open_ends() == ((End.RIGHT, 6), (End.DOWN, 4))
    assert spinner.closed_ends == (End.LEFT, End.UP)
    assert [end for end, _ in spinner.arms()] == [End.LEFT, End.RIGHT, End.UP, End.DOWN]
    assert [p.tile for p in spinner.view().chain(End.UP)] == [t("1-4"), t("1-1")]
    with pytest.raises(IllegalMove, match=r"the end UP is closed \(O-3\)"):
        spinner.place(t("1-5"), End.UP)
    copy = spinner.copy()
    copy.place(t("6-6"), End.RIGHT, closed=True)
    assert spinner.closed_ends == (End.LEFT, End.UP)
    assert copy.closed_ends == (End.LEFT, End.RIGHT, End.UP)
    assert copy != spinner
