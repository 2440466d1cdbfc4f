"""The table geometry, checked on numbers: no overlap, inside the table, neighbours
touch at equal halves (C-4), for every chain length 1..28, line and spinner cross."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domino.geometry import End, Placement
from domino.match import Match
from domino.players import RandomPlayer
from domino.rules import KOZEL, LayoutKind
from domino.tiles import ALL_TILES, tile
from domino.views import LayoutView
from render import demo
from render.geometry import (
    DEFAULT_UNIT,
    Orientation,
    Rect,
    RenderError,
    table_geometry,
)
from render.table import TABLE_AREA
from tests.render.geometry_checks import check_chain, check_geometry

ARMS = (End.LEFT, End.RIGHT, End.UP, End.DOWN)
LINES = [demo.eulerian_line(0), demo.eulerian_line(4)]


def test_eulerian_line_is_the_whole_set_in_one_valid_chain() -> None:
    for line in LINES:
        assert sorted(tile(a, b) for a, b in line) == sorted(ALL_TILES)
        assert all(line[i][1] == line[i + 1][0] for i in range(len(line) - 1))


@pytest.mark.parametrize("n", range(1, 29))
def test_line_of_every_length_and_every_split(n: int) -> None:
    """All 28 distributions of a chain of n tiles between LEFT and RIGHT (C-4)."""
    for line in LINES:
        for start in sorted({0, 28 - n}):
            links = line[start : start + n]
            for centre in range(n):
                layout = demo.line_layout(links, centre)
                check_chain(layout)
                check_geometry(layout, table_geometry(layout, TABLE_AREA))


def _spinner_distributions(pip: int, n: int) -> list[LayoutView]:
    """Crosses of n tiles around `pip-pip` with the others spread over the four arms
    in several ways: all on one arm (each arm in turn), filled in order, round robin."""
    trail = demo.spinner_arms(pip)
    cuts = demo.returns(trail, pip)
    pieces = demo.split_trail(trail, [cuts[0], cuts[1], (cuts[1] + len(trail)) // 2])
    layouts = []
    wanted = n - 1
    for arm in ARMS:  # everything on one arm
        layouts.append(demo.spinner_layout(pip, {arm: trail[:wanted]}))
    for rotation in range(4):
        order = pieces[rotation:] + pieces[:rotation]
        # filled in order
        left, arms = wanted, {}
        for end, piece in zip(ARMS, order, strict=True):
            arms[end] = piece[: max(0, min(len(piece), left))]
            left -= len(arms[end])
        if left == 0:
            layouts.append(demo.spinner_layout(pip, arms))
        # round robin
        lengths = [0, 0, 0, 0]
        left = wanted
        while left:
            for i, piece in enumerate(order):
                if left and lengths[i] < len(piece):
                    lengths[i] += 1
                    left -= 1
        arms = {end: piece[:k] for end, piece, k in zip(ARMS, order, lengths, strict=True)}
        layouts.append(demo.spinner_layout(pip, arms))
    return layouts


@pytest.mark.parametrize("n", range(1, 29))
def test_spinner_cross_of_every_length(n: int) -> None:
    """C-10: the spinner open on four sides, arms of every length, drawn as a cross."""
    for pip in (0, 3, 6):
        for layout in _spinner_distributions(pip, n):
            check_chain(layout)
            geometry = table_geometry(layout, TABLE_AREA)
            assert geometry.cross
            check_geometry(layout, geometry)


def _off_centre_spinner() -> LayoutView:
    """A line opened with 2-4 whose first double 4-4, on the RIGHT arm, became the spinner
    (as in F-2), with tiles on its UP and DOWN sides too."""
    trail = demo.spinner_arms(4)
    cuts = demo.returns(trail, 4)
    left, right, up, down = demo.split_trail(trail, [cuts[0], cuts[1], cuts[1] + 3])
    chain = [(b, a) for a, b in reversed(left[:6])] + [(4, 4)] + right[:5]
    line = demo.line_layout(chain, 2)  # the centre is the third tile of the chain
    spinner = next(p for p in line.placements if p.tile == tile(4, 4))
    seq = len(line.placements)
    extra: dict[End, tuple[Placement, ...]] = {}
    assert len(up) >= 2 and len(down) >= 2
    for end, links in ((End.UP, up[:4]), (End.DOWN, down[:3])):
        arm = []
        for inner, outer in links:
            arm.append(Placement(tile(inner, outer), end, inner, outer, seq))
            seq += 1
        extra[end] = tuple(arm)
    placements = line.placements + extra[End.UP] + extra[End.DOWN]
    return LayoutView(
        placements=placements,
        open_ends=(
            *line.open_ends,
            *((end, arm[-1].outer if arm else 4) for end, arm in extra.items()),
        ),
        arms=(*line.arms, (End.UP, extra[End.UP]), (End.DOWN, extra[End.DOWN])),
        spinner=spinner,
    )


def test_spinner_off_centre_is_drawn_in_the_middle_of_the_cross() -> None:
    layout = _off_centre_spinner()
    check_chain(layout)
    geometry = table_geometry(layout, TABLE_AREA)
    check_geometry(layout, geometry)
    spinner = next(box for box in geometry.tiles if box.placement == layout.spinner)
    assert spinner.rect.centre == TABLE_AREA.centre
    assert spinner.orientation is Orientation.VERTICAL


def test_the_centre_tile_is_in_the_middle_low_half_left() -> None:
    layout = demo.line_layout([(2, 5), (5, 5), (5, 1)], 0)
    geometry = table_geometry(layout, TABLE_AREA)
    centre = geometry.centre
    assert centre is not None
    assert centre.rect.centre == TABLE_AREA.centre
    assert centre.inner.pip == 2 and centre.inner.rect.x0 < centre.outer.rect.x0
    double = next(box for box in geometry.tiles if box.placement.is_double)
    assert double.orientation is Orientation.VERTICAL  # laid across the line


def test_open_ends_are_marked_beyond_the_last_tiles() -> None:
    layout = demo.line_layout(LINES[0][:9], 4)
    geometry = table_geometry(layout, TABLE_AREA)
    assert [(mark.end, mark.pip) for mark in geometry.ends] == list(layout.open_ends)
    for mark in geometry.ends:
        last = dict(geometry.arms)[mark.end][-1]
        touching = last.outer.rect
        x, y = mark.point
        assert touching.x0 <= x <= touching.x1 and touching.y0 <= y <= touching.y1


def test_empty_layout_has_no_tiles() -> None:
    geometry = table_geometry(LayoutView((), (), (), None), TABLE_AREA)
    assert geometry.tiles == () and geometry.ends == () and geometry.centre is None


def test_small_table_shrinks_the_tiles_and_a_tiny_one_is_refused() -> None:
    layout = demo.line_layout(LINES[0], 14)
    small = Rect(0, 0, 700, 400)
    geometry = table_geometry(layout, small)
    assert geometry.unit < DEFAULT_UNIT
    check_geometry(layout, geometry)
    with pytest.raises(RenderError, match="do not fit in a 40x40 px table"):
        table_geometry(layout, Rect(0, 0, 40, 40))


def test_the_geometry_is_the_same_every_time() -> None:
    layout = demo.line_layout(LINES[1], 20)
    assert table_geometry(layout, TABLE_AREA) == table_geometry(layout, TABLE_AREA)


def _walks(draw: st.DrawFn) -> tuple[list[tuple[int, int]], int]:
    """A random valid chain: a walk over unused tiles, and which of them opened."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    pip = rng.randrange(7)
    unused = set(ALL_TILES)
    links: list[tuple[int, int]] = []
    length = draw(st.integers(1, 28))
    while len(links) < length:
        options = sorted((t for t in unused if t.has(pip)), key=lambda t: t.index)
        if not options:
            break
        chosen = rng.choice(options)
        unused.remove(chosen)
        links.append((pip, chosen.other(pip)))
        pip = chosen.other(pip)
    return links, draw(st.integers(0, len(links) - 1))


@settings(max_examples=150, deadline=None)
@given(st.composite(_walks)())
def test_random_chains_lay_out_cleanly(walk: tuple[Sequence[tuple[int, int]], int]) -> None:
    links, centre = walk
    layout = demo.line_layout(links, centre)
    check_geometry(layout, table_geometry(layout, TABLE_AREA))


@pytest.mark.parametrize("kind", [LayoutKind.LINE, LayoutKind.SPINNER])
def test_real_matches_lay_out_cleanly_after_every_move(kind: LayoutKind) -> None:
    """Seeded matches played by the engine: the geometry holds after every move, and a
    new tile never moves the tiles already down (unless the tiles had to shrink, or a
    spinner appeared and the table became a cross)."""
    for seed in range(3):
        match = Match.new(KOZEL.with_options(layout=kind), 2 + seed, seed=seed)
        rng = random.Random(seed)
        player = RandomPlayer(rng)
        before: dict[int, Rect] = {}
        before_key: tuple[int, int, bool] | None = None
        while not match.over and len(match.results) < 2:
            seat = match.turn
            assert seat is not None
            match.apply(player.choose(match.view(seat)), seat)
            layout = match.view(None).round.layout
            if not layout.placements:
                continue
            geometry = table_geometry(layout, TABLE_AREA)
            check_geometry(layout, geometry)
            key = (len(match.results), geometry.unit, geometry.cross)
            now = {box.placement.seq: box.rect for box in geometry.tiles}
            if key == before_key:
                assert all(now[seq] == rect for seq, rect in before.items())
            before, before_key = now, key
