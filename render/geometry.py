"""Where every tile of the table lies: pure geometry, no pixels drawn.

`table_geometry(layout, area)` computes, for a `LayoutView` and the rectangle of
the table on the canvas, the rectangle of every placed tile and which pip sits in
which half of it. The drawing code only paints what this module decided, and the
tests check this module's answer (no overlap, inside the table, neighbours touch
at equal halves) without looking at a single pixel.

Conventions (see `domino.layout`): the first tile of a round is the centre, its
`low` half faces LEFT and its `high` half faces RIGHT; a double lies across the
line. Measures are in whole pixels and multiples of the unit `u`: a tile is
`4u x 2u` (a half is a `2u` square), a double across a horizontal arm is `2u`
wide and `4u` tall.

Each arm is laid by a small turtle in the arm's own frame: it runs outward along
the arm's direction, and when the table edge comes near it makes a U-turn of two
corner tiles toward its advance side (clockwise of its direction: RIGHT goes on
below, LEFT above) and runs back, snaking like the tiles on a real table. A line
layout gives each of its two arms one half of the table. A spinner layout (C-10)
is drawn as a cross whose four arms snake in four quadrants: RIGHT below right,
LEFT above left, DOWN straight down to the edge and then in rows to the left
(rising toward the centre), UP straight up and then in rows to the right; so
variants with spinners need no drawing code of their own.
Rows of one arm lie `5u` apart, so doubles of neighbouring rows never touch.

If the layout does not fit at the preferred unit, the unit shrinks until it does:
all 28 tiles always fit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from domino.geometry import End, Placement
from domino.views import LayoutView

DEFAULT_UNIT = 26
"""Half the short side of a tile in pixels, when the layout fits at that size."""
MIN_UNIT = 4

Vec = tuple[int, int]

_VECTOR: dict[End, Vec] = {
    End.RIGHT: (1, 0),
    End.DOWN: (0, 1),
    End.LEFT: (-1, 0),
    End.UP: (0, -1),
}
_CROSS_ORDER = (End.LEFT, End.RIGHT, End.UP, End.DOWN)


class RenderError(ValueError):
    """A picture cannot be drawn from the given input (the message says why)."""


class Orientation(StrEnum):
    HORIZONTAL = "horizontal"  # long side along x: halves left and right
    VERTICAL = "vertical"  # long side along y: halves top and bottom


@dataclass(frozen=True, slots=True, order=True)
class Rect:
    """A closed rectangle `[x0, x1] x [y0, y1]` in canvas pixels."""

    x0: int
    y0: int
    x1: int
    y1: int

    @property
    def width(self) -> int:
        return self.x1 - self.x0

    @property
    def height(self) -> int:
        return self.y1 - self.y0

    @property
    def centre(self) -> tuple[float, float]:
        return ((self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2)

    def overlaps(self, other: Rect) -> bool:
        """Whether the interiors meet (sharing an edge is not overlapping)."""
        return (
            self.x0 < other.x1 and other.x0 < self.x1 and self.y0 < other.y1 and other.y0 < self.y1
        )

    def contains(self, other: Rect) -> bool:
        return (
            self.x0 <= other.x0
            and self.y0 <= other.y0
            and other.x1 <= self.x1
            and other.y1 <= self.y1
        )

    def contact(self, other: Rect) -> Rect | None:
        """The common boundary segment of two non-overlapping rectangles, if it has length."""
        if self.overlaps(other):
            return None
        x0, x1 = max(self.x0, other.x0), min(self.x1, other.x1)
        y0, y1 = max(self.y0, other.y0), min(self.y1, other.y1)
        if x0 > x1 or y0 > y1:
            return None
        if (x0 == x1) == (y0 == y1):  # a point, or no contact at all
            return None
        return Rect(x0, y0, x1, y1)


@dataclass(frozen=True, slots=True)
class HalfBox:
    """One half of a placed tile: its square and the pip it shows."""

    rect: Rect
    pip: int


@dataclass(frozen=True, slots=True)
class TileBox:
    """Where one placed tile lies and which pip is in which half.

    `inner` is the half touching the previous tile of its arm (for the centre: the
    half facing LEFT), `outer` the half facing away; for a double lying across the
    line both show the same pip and `inner` is its top or left half.
    """

    placement: Placement
    rect: Rect
    orientation: Orientation
    inner: HalfBox
    outer: HalfBox

    @property
    def halves(self) -> tuple[HalfBox, HalfBox]:
        """The halves in reading order: left then right, or top then bottom."""
        a, b = self.inner, self.outer
        return (a, b) if (a.rect.x0, a.rect.y0) <= (b.rect.x0, b.rect.y0) else (b, a)


@dataclass(frozen=True, slots=True)
class EndMark:
    """An open end: where the next tile would go, for a badge with its number."""

    end: End
    pip: int
    point: tuple[int, int]  # middle of the outer edge of the arm's last tile
    direction: Vec  # the way the next tile would be laid


@dataclass(frozen=True, slots=True)
class TableGeometry:
    """The computed table: tile boxes in play order, arms from the centre outward."""

    area: Rect
    unit: int
    tiles: tuple[TileBox, ...]  # in play order (seq 0, 1, ...)
    arms: tuple[tuple[End, tuple[TileBox, ...]], ...]  # each arm from the centre outward
    ends: tuple[EndMark, ...]  # the open ends, in the order of `LayoutView.open_ends`
    cross: bool  # drawn as a spinner cross (C-10)
    spinner: int | None = None  # the spinner's `Placement.seq` (C-10), in the cross's middle

    @property
    def centre(self) -> TileBox | None:
        return next((box for box in self.tiles if box.placement.seq == 0), None)


@dataclass(frozen=True, slots=True)
class _Step:
    """One tile of an arm as seen walking outward: which pip touches, which faces out."""

    placement: Placement
    inner: int
    outer: int


def _dot(p: Vec, d: Vec) -> int:
    return p[0] * d[0] + p[1] * d[1]


def _cw(d: Vec) -> Vec:
    """`d` turned a quarter clockwise on screen (y grows downward)."""
    return (-d[1], d[0])


def _neg(d: Vec) -> Vec:
    return (-d[0], -d[1])


def _span(p: Vec, d: Vec, s0: int, s1: int, e: Vec, t0: int, t1: int) -> Rect:
    """The rectangle `p + s*d + t*e` for `s` in `[s0, s1]` and `t` in `[t0, t1]`."""
    xs = [p[0] + s * d[0] + t * e[0] for s in (s0, s1) for t in (t0, t1)]
    ys = [p[1] + s * d[1] + t * e[1] for s in (s0, s1) for t in (t0, t1)]
    return Rect(min(xs), min(ys), max(xs), max(ys))


def _orientation(rect: Rect) -> Orientation:
    return Orientation.HORIZONTAL if rect.width >= rect.height else Orientation.VERTICAL


def _box(step: _Step, rect: Rect, inner: Rect, outer: Rect) -> TileBox:
    return TileBox(
        placement=step.placement,
        rect=rect,
        orientation=_orientation(rect),
        inner=HalfBox(inner, step.inner),
        outer=HalfBox(outer, step.outer),
    )


class _Turtle:
    """Lays one arm outward from `origin`, snaking back and forth between two limits.

    An arm may first lead off in another direction (`lead`: the UP and DOWN arms of
    a cross go straight away from the spinner first) until `lead_limit`, then turns
    once into `run`. Limits are measured along `run`: running outward the tiles
    stay below `forward_limit`, running back above `back_limit`; both keep one unit
    spare for a double laid across the turn. A tile goes straight on while at least
    `8u` remain (room for it, a following double and a corner), else it turns.
    """

    def __init__(
        self,
        origin: Vec,
        run: Vec,
        unit: int,
        forward_limit: int,
        back_limit: int,
        lead: Vec | None = None,
        lead_limit: int = 0,
    ) -> None:
        self.point = origin
        self.run = run
        self.advance = _cw(run)
        self.heading = run  # the way the current row runs: `run` or its opposite
        self.direction = lead or run  # the way the next tile is laid
        self.leading = lead is not None
        self.lead_limit = lead_limit
        self.unit = unit
        self.forward_limit = forward_limit
        self.back_limit = back_limit
        self.turning = False  # between the two corners of a U-turn
        self.after_double = False  # the last tile laid was a double, lying across

    def room(self) -> int:
        if self.leading:
            return self.lead_limit - _dot(self.point, self.direction)
        along = _dot(self.point, self.run)
        if self.heading == self.run:
            return self.forward_limit - along
        return along - self.back_limit

    def lay(self, step: _Step) -> TileBox:
        u, p, d = self.unit, self.point, self.direction
        if step.placement.is_double:
            # Across the way it is laid: 2u along, 4u wide; both halves show the same pip.
            e = _cw(d)
            rect = _span(p, d, 0, 2 * u, e, -2 * u, 2 * u)
            first = _span(p, d, 0, 2 * u, e, -2 * u, 0)
            second = _span(p, d, 0, 2 * u, e, 0, 2 * u)
            inner, outer = sorted((first, second))
            self.point = (p[0] + 2 * u * d[0], p[1] + 2 * u * d[1])
            self.after_double = True
            return _box(step, rect, inner, outer)
        # A corner flush with a double across would touch it with both its halves.
        flush = 0 if self.after_double else u
        self.after_double = False
        if self.turning:
            self.turning = False
            self.heading = _neg(self.heading)
            return self._corner(step, self.heading, offset=flush)
        if self.room() >= 8 * u:
            e = _cw(d)
            rect = _span(p, d, 0, 4 * u, e, -u, u)
            inner = _span(p, d, 0, 2 * u, e, -u, u)
            outer = _span(p, d, 2 * u, 4 * u, e, -u, u)
            self.point = (p[0] + 4 * u * d[0], p[1] + 4 * u * d[1])
            return _box(step, rect, inner, outer)
        if self.leading:
            self.leading = False
            return self._corner(step, self.run, offset=flush)
        self.turning = True
        return self._corner(step, self.advance, offset=0)

    def _corner(self, step: _Step, new: Vec, offset: int) -> TileBox:
        """A tile turning the arm toward `new`: 2u along the old way, 4u along the new.

        Its inner half lies beside the previous tile's outer half; `offset` is how far
        it reaches back across the old line (0: it starts on the line, a half-unit
        step; `u`: flush with the previous tile).
        """
        u, p, d = self.unit, self.point, self.direction
        rect = _span(p, d, 0, 2 * u, new, -offset, 4 * u - offset)
        inner = _span(p, d, 0, 2 * u, new, -offset, 2 * u - offset)
        outer = _span(p, d, 0, 2 * u, new, 2 * u - offset, 4 * u - offset)
        self.point = (
            p[0] + u * d[0] + (4 * u - offset) * new[0],
            p[1] + u * d[1] + (4 * u - offset) * new[1],
        )
        self.direction = new
        return _box(step, rect, inner, outer)


def _max_along(area: Rect, d: Vec) -> int:
    """The largest `_dot(point, d)` over the area."""
    return max(_dot((x, y), d) for x in (area.x0, area.x1) for y in (area.y0, area.y1))


def _steps(arm: Sequence[Placement]) -> list[_Step]:
    return [_Step(p, p.inner, p.outer) for p in arm]


def _reversed_steps(arm: Sequence[Placement]) -> list[_Step]:
    """Tiles walked toward the centre instead of away from it: halves swap roles."""
    return [_Step(p, p.outer, p.inner) for p in reversed(arm)]


def _arms(layout: LayoutView, centre: Placement) -> tuple[_Step, dict[End, list[_Step]]]:
    """The tile drawn in the middle and each arm walked outward from it.

    In a line that is the centre tile and the LEFT and RIGHT arms as they are. In a
    spinner layout the spinner goes in the middle, whichever tile opened the round
    (F-2: the first double played may come later): the arm holding it is split
    there, and the part toward the old centre, the centre tile and the arm beyond
    become the spinner's opposite arm.
    """
    spinner = layout.spinner
    arms = {end: list(layout.chain(end)) for end in _CROSS_ORDER}
    if spinner is None or spinner.seq == centre.seq:
        steps = {end: _steps(arm) for end, arm in arms.items()}
        return _Step(centre, centre.inner, centre.outer), steps
    host = next((end for end, arm in arms.items() if spinner in arm), None)
    if host not in (End.LEFT, End.RIGHT):
        raise RenderError(f"the spinner {spinner.tile} lies on no horizontal arm of the layout")
    arm = arms[host]
    k = arm.index(spinner)
    opposite = End.LEFT if host is End.RIGHT else End.RIGHT
    # Walking from the spinner back to the centre, the centre is entered by the half
    # facing `host`: for host RIGHT that is its right half, which `Placement` calls outer.
    centre_step = (
        _Step(centre, centre.outer, centre.inner)
        if host is End.RIGHT
        else _Step(centre, centre.inner, centre.outer)
    )
    steps = {
        host: _steps(arm[k + 1 :]),
        opposite: [*_reversed_steps(arm[:k]), centre_step, *_steps(arms[opposite])],
        End.UP: _steps(arms[End.UP]),
        End.DOWN: _steps(arms[End.DOWN]),
    }
    return _Step(spinner, spinner.inner, spinner.outer), steps


def _try_layout(
    layout: LayoutView, area: Rect, unit: int
) -> tuple[list[TileBox], dict[End, list[TileBox]], dict[End, tuple[Vec, Vec]]] | None:
    centre = layout.centre
    if centre is None:
        return [], {}, {}
    u = unit
    middle, arm_steps = _arms(layout, centre)
    cross = layout.spinner is not None
    cx = (area.x0 + area.x1) // 2
    cy = (area.y0 + area.y1) // 2
    if middle.placement.is_double:
        rect = Rect(cx - u, cy - 2 * u, cx + u, cy + 2 * u)
        inner, outer = Rect(cx - u, cy - 2 * u, cx + u, cy), Rect(cx - u, cy, cx + u, cy + 2 * u)
    else:
        rect = Rect(cx - 2 * u, cy - u, cx + 2 * u, cy + u)
        inner, outer = Rect(cx - 2 * u, cy - u, cx, cy + u), Rect(cx, cy - u, cx + 2 * u, cy + u)
    boxes = [_box(middle, rect, inner, outer)]
    arm_boxes: dict[End, list[TileBox]] = {}
    tips: dict[End, tuple[Vec, Vec]] = {}
    gap = u
    for end in _CROSS_ORDER:
        if end in (End.UP, End.DOWN) and not cross:
            if arm_steps[end]:
                raise RenderError(f"arm {end.name} has tiles but the layout has no spinner")
            continue
        out = _VECTOR[end]
        reach = abs(_dot((rect.width // 2, rect.height // 2), out))
        origin = (cx + reach * out[0], cy + reach * out[1])
        if not cross:
            turtle = _Turtle(
                origin, out, u, _max_along(area, out) - u, -_max_along(area, _neg(out)) + u
            )
        elif end in (End.LEFT, End.RIGHT):
            # Rows go away from the centre; back-runs keep clear of the UP/DOWN band.
            back_limit = _dot((cx, cy), out) + 2 * u + gap + u
            turtle = _Turtle(origin, out, u, _max_along(area, out) - u, back_limit)
        else:
            # Straight out to the edge, then rows toward the centre in the next quadrant.
            run = _cw(out)
            back_limit = _dot((cx, cy), run) + 2 * u + gap + u
            turtle = _Turtle(
                origin,
                run,
                u,
                _max_along(area, run) - u,
                back_limit,
                lead=out,
                lead_limit=_max_along(area, out) - u,
            )
        laid = [turtle.lay(step) for step in arm_steps[end]]
        arm_boxes[end] = laid
        boxes.extend(laid)
        tips[end] = (turtle.point, turtle.direction)
    for box in boxes:
        if not area.contains(box.rect):
            return None
    linked = {
        frozenset((arm[i - 1].placement.seq if i else boxes[0].placement.seq, box.placement.seq))
        for arm in arm_boxes.values()
        for i, box in enumerate(arm)
    }
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            if a.rect.overlaps(b.rect):
                return None
            # Tiles that are not neighbours must not even touch, or they would read as linked.
            if (
                a.rect.contact(b.rect)
                and frozenset((a.placement.seq, b.placement.seq)) not in linked
            ):
                return None
    boxes.sort(key=lambda box: box.placement.seq)
    return boxes, arm_boxes, tips


def table_geometry(layout: LayoutView, area: Rect, unit: int = DEFAULT_UNIT) -> TableGeometry:
    """Place every tile of `layout` inside `area`, at `unit` or the largest unit that fits.

    Raises `RenderError` if the layout cannot fit even at `MIN_UNIT` (the area is far
    too small) or if its arms contradict each other.
    """
    for u in range(unit, MIN_UNIT - 1, -1):
        found = _try_layout(layout, area, u)
        if found is None:
            continue
        boxes, arm_boxes, tips = found
        ends = []
        for end, pip in layout.open_ends:
            if end in tips:
                point, direction = tips[end]
                ends.append(EndMark(end, pip, point, direction))
        arms = tuple((end, tuple(arm)) for end, arm in arm_boxes.items())
        spinner = layout.spinner
        cross = spinner is not None
        seq = None if spinner is None else spinner.seq
        return TableGeometry(area, u, tuple(boxes), arms, tuple(ends), cross, seq)
    raise RenderError(
        f"{len(layout.placements)} tiles do not fit in a {area.width}x{area.height} px table"
    )
