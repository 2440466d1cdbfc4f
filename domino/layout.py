"""Layouts: where the played tiles lie and which ends are open (C-4, C-10).

Callers see the `Layout` interface only, with `End` and `Placement` from
`domino.geometry`; `LineLayout` is the two-ended line of Козёл and Классика, and a
spinner layout (C-10) implements the same interface with the ends `UP` and `DOWN`
as well, so nobody outside this module needs to know which one a round uses.
Either may have ends closed by a double laid face down (O-3, `place(..., closed=True)`):
a closed end is no longer open, and its arm stays on the table.

Geometry convention (used by `render/`): the first tile of a round is the centre;
its `low` half faces LEFT and its `high` half faces RIGHT (a spinner double: all
four sides). Every later tile lies on one arm, `chain(end)` lists that arm from the
centre outward, and for each placed tile `inner` is the half touching its
neighbour towards the centre, `outer` the half facing away (equal for doubles,
which lie across the line).
"""

from __future__ import annotations

import abc
from collections.abc import Iterable
from typing import ClassVar

from domino.errors import BadRuleset, IllegalMove
from domino.geometry import End, Placement
from domino.rules import LayoutKind
from domino.tiles import SUIT_MASK, Tile
from domino.views import LayoutView


class Layout(abc.ABC):
    """The table of one round: the tiles placed so far and the ends still open (C-4).

    A layout checks geometry only (does this tile fit that end); whose turn it is and
    what a player must play is the round's business (`domino.round`). Besides the
    readable methods it keeps plain attributes for the engine's hot path, brought up
    to date by every `place`: `table_mask` (tiles placed) and `fit_mask` (tiles that
    would fit some open end, i.e. every tile carrying a pip an open end shows).
    """

    kind: ClassVar[LayoutKind]
    table_mask: int
    fit_mask: int

    def __init__(self) -> None:
        self._placements: list[Placement] = []
        self._end_masks: tuple[tuple[End, int], ...] = ()
        self._closed: tuple[End, ...] = ()
        self.table_mask = 0
        self.fit_mask = 0

    @property
    def placements(self) -> tuple[Placement, ...]:
        """Every tile on the table, in play order (seq 0, 1, ...)."""
        return tuple(self._placements)

    @abc.abstractmethod
    def open_ends(self) -> tuple[tuple[End, int], ...]:
        """`(end, pip)` for each open end; () before the first tile. Closed ends (O-3)
        are not open."""

    @property
    def closed_ends(self) -> tuple[End, ...]:
        """The ends closed by a double laid face down (O-3), in `End` order."""
        return self._closed

    def end_masks(self) -> tuple[tuple[End, int], ...]:
        """`(end, mask of the tiles that fit it)` for each end a player may choose.

        Ends that would give the same table are offered once (see `LineLayout`).
        """
        return self._end_masks

    @abc.abstractmethod
    def place(self, tile: Tile, end: End | None, *, closed: bool = False) -> Placement:
        """Lay `tile` on `end` (None only for the first tile) and return its placement.

        `closed`: lay the double face down, closing `end` for good (O-3); only a double
        that fits an open end may close it. Raises `IllegalMove` if the tile does not fit
        there (or cannot close it); the layout is then unchanged.
        """

    @abc.abstractmethod
    def copy(self) -> Layout:
        """An independent copy (placements are immutable and shared)."""

    @abc.abstractmethod
    def arms(self) -> tuple[tuple[End, tuple[Placement, ...]], ...]:
        """Each arm's placements from the centre outward (the geometry of `render/`)."""

    @property
    def spinner(self) -> Placement | None:
        """The tile open on four sides (C-10); None in a line."""
        return None

    @property
    def is_empty(self) -> bool:
        return not self.table_mask

    def ends_for(self, tile: Tile) -> tuple[End, ...]:
        """The ends a player may choose for `tile` (C-5); () before the first tile."""
        bit = tile.bit
        return tuple(end for end, mask in self._end_masks if mask & bit)

    def _record(self, placement: Placement, end_masks: tuple[tuple[End, int], ...]) -> None:
        self._placements.append(placement)
        self.table_mask |= 1 << placement.tile.index
        self._end_masks = end_masks
        fit = 0
        for _, mask in end_masks:
            fit |= mask
        self.fit_mask = fit

    def _close(self, end: End) -> None:
        """Add `end` to the closed ends, kept in `End` order."""
        self._closed = tuple(e for e in End if e is end or e in self._closed)

    def _copy_into(self, new: Layout) -> None:
        new._placements = self._placements.copy()
        new._end_masks = self._end_masks
        new._closed = self._closed
        new.table_mask = self.table_mask
        new.fit_mask = self.fit_mask

    def view(self) -> LayoutView:
        return LayoutView(
            placements=self.placements,
            open_ends=self.open_ends(),
            arms=self.arms(),
            spinner=self.spinner,
            closed_ends=self._closed,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Layout):
            return NotImplemented
        return self.kind is other.kind and self._placements == other._placements

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        tiles = " ".join(
            f"{'c' if p.closed else ''}{p.tile}{p.end.value if p.end else ''}"
            for p in self._placements
        )
        return f"{type(self).__name__}({tiles})"


_PLACEMENTS: dict[tuple[int, End | None, int, int, bool], Placement] = {}


def _placement(
    tile: Tile, end: End | None, inner: int, seq: int, closed: bool = False
) -> Placement:
    """Placements are immutable, so equal ones are shared (it saves the hot path time)."""
    key = (tile.index, end, inner, seq, closed)
    placement = _PLACEMENTS.get(key)
    if placement is None:
        placement = _PLACEMENTS[key] = Placement(tile, end, inner, tile.other(inner), seq, closed)
    return placement


def _no_end_error(
    tile: Tile, end: End | None, open_ends: tuple[tuple[End, int], ...], closed: tuple[End, ...]
) -> IllegalMove:
    if end is None:
        return IllegalMove(f"the first tile is already down: choose an end for {tile}")
    pips = dict(open_ends)
    if end in closed:
        return IllegalMove(f"the end {end.name} is closed (O-3): no tile goes there")
    if end not in pips:
        return IllegalMove(f"the end {end.name} is not open on this table")
    return IllegalMove(f"{tile} does not fit the {end.name} end, which shows {pips[end]}")


def _close_error(tile: Tile, end: End | None) -> IllegalMove | None:
    """Why `tile` may not close `end` whatever the table (O-3), or None."""
    if end is None:
        return IllegalMove(f"the first tile {tile} opens the table: it closes nothing")
    if not tile.is_double:
        return IllegalMove(f"only a double closes an end (O-3), and {tile} is not one")
    return None


class LineLayout(Layout):
    """Two open ends, LEFT and RIGHT (C-4); doubles lie across and show their pip.

    The first tile lies with its low half LEFT and its high half RIGHT.

    Choice (C-4 does not say): when both ends show the same pip, a tile that fits is
    offered on LEFT only (`end_masks`): on a line either side gives the same open ends,
    so the choice would only double the moves (and the buttons, and K-12's count of
    moves). `place` still accepts RIGHT then (geometry allows it); the round refuses it.
    Once an end is closed (O-3) the other is offered alone, whatever it shows.
    """

    kind = LayoutKind.LINE
    # Шестёрка (section V): the halves that touch add up to this; 0: they are equal (C-4).
    sums_to: ClassVar[int] = 0

    def __init__(self) -> None:
        super().__init__()
        self._left = -1  # pip showing at the LEFT end; -1 before the first tile
        self._right = -1

    @property
    def pips(self) -> tuple[int, int]:
        """The pips showing at the LEFT and RIGHT ends (-1, -1 before the first tile)."""
        return self._left, self._right

    def open_ends(self) -> tuple[tuple[End, int], ...]:
        if self._left < 0:
            return ()
        ends = ((End.LEFT, self._left), (End.RIGHT, self._right))
        if self._closed:
            return tuple((end, pip) for end, pip in ends if end not in self._closed)
        return ends

    def place(self, tile: Tile, end: End | None, *, closed: bool = False) -> Placement:
        if self.table_mask >> tile.index & 1:
            raise IllegalMove(f"{tile} is already on the table")
        if closed and (error := _close_error(tile, end)):
            raise error
        left, right = self._left, self._right
        shut = self._closed
        total = self.sums_to
        if left < 0:
            if end is not None:
                raise IllegalMove(f"the first tile {tile} opens the table: it takes no end")
            placement = _placement(tile, None, tile.low, 0)
            left, right = tile.low, tile.high
        elif (
            end is End.LEFT
            and tile.has(want := total - left if total else left)
            and end not in shut
        ):
            placement = _placement(tile, end, want, len(self._placements), closed)
            left = placement.outer
        elif (
            end is End.RIGHT
            and tile.has(want := total - right if total else right)
            and end not in shut
        ):
            placement = _placement(tile, end, want, len(self._placements), closed)
            right = placement.outer
        else:
            raise _no_end_error(tile, end, self.open_ends(), shut)
        self._left, self._right = left, right
        if closed and end is not None:
            self._close(end)
        suits = _SUM_SUITS[total] if total else SUIT_MASK
        if self._closed:
            self._record(placement, tuple((e, suits[pip]) for e, pip in self.open_ends()))
        elif left == right:
            self._record(placement, ((End.LEFT, suits[left]),))
        else:
            self._record(placement, ((End.LEFT, suits[left]), (End.RIGHT, suits[right])))
        return placement

    def copy(self) -> LineLayout:
        new = type(self).__new__(type(self))
        self._copy_into(new)
        new._left = self._left
        new._right = self._right
        return new

    def arms(self) -> tuple[tuple[End, tuple[Placement, ...]], ...]:
        if not self._placements:
            return ()
        left = tuple(p for p in self._placements if p.end is End.LEFT)
        right = tuple(p for p in self._placements if p.end is End.RIGHT)
        return ((End.LEFT, left), (End.RIGHT, right))


class SpinnerLayout(Layout):
    """A line whose opening double is a spinner (C-10, Осёл O-1).

    If the first tile is a double it is the spinner: LEFT and RIGHT open first, and
    once both have a tile the spinner opens UP and DOWN as well, showing its pip.
    A first tile that is not a double makes an ordinary line (no spinner). Every open
    end is offered separately, even when two show the same pip: with a spinner the
    choice changes which arms grow.

    Choices for closed ends (O-3): only an open end can be closed, so UP and DOWN
    cannot be closed before they open; a double laid face down on LEFT or RIGHT is that
    arm's tile for C-10, so the spinner opens UP and DOWN once the other side has one too.
    """

    kind = LayoutKind.SPINNER
    any_double: ClassVar[bool] = False
    """F-2: the first double played is the spinner wherever it lies (`FirstDoubleLayout`)."""

    def __init__(self) -> None:
        super().__init__()
        self._ends: dict[End, int] = {}  # open end -> pip showing
        self._spinner: Placement | None = None

    @property
    def spinner(self) -> Placement | None:
        return self._spinner

    def open_ends(self) -> tuple[tuple[End, int], ...]:
        return tuple((end, self._ends[end]) for end in End if end in self._ends)

    def place(self, tile: Tile, end: End | None, *, closed: bool = False) -> Placement:
        if self.table_mask >> tile.index & 1:
            raise IllegalMove(f"{tile} is already on the table")
        if closed and (error := _close_error(tile, end)):
            raise error
        ends = self._ends
        if not self._placements:
            if end is not None:
                raise IllegalMove(f"the first tile {tile} opens the table: it takes no end")
            placement = _placement(tile, None, tile.low, 0)
            ends = self._ends = {End.LEFT: tile.low, End.RIGHT: tile.high}
        elif end is not None and end in ends and tile.has(ends[end]):
            placement = _placement(tile, end, ends[end], len(self._placements), closed)
            if closed:
                del ends[end]
                self._close(end)
            else:
                ends[end] = placement.outer
        else:
            raise _no_end_error(tile, end, self.open_ends(), self._closed)
        if (
            self._spinner is None
            and tile.is_double
            and not closed
            and (placement.end is None or (self.any_double and placement.end in _SIDES))
        ):
            self._spinner = placement
        spinner = self._spinner
        if (
            spinner is not None
            and End.UP not in ends
            and End.UP not in self._closed
            and self._flanked(spinner, placement)
        ):
            ends[End.UP] = ends[End.DOWN] = spinner.tile.low
        self._record(placement, tuple((e, SUIT_MASK[pip]) for e, pip in self.open_ends()))
        return placement

    def _flanked(self, spinner: Placement, placement: Placement) -> bool:
        """Whether tiles now lie on both sides of the spinner (C-10): an opening spinner
        needs one on LEFT and one on RIGHT; one laid on an arm (F-2) touches a tile on
        its inner side already and needs one beyond it, on the same arm."""
        if spinner.end is None:
            arms = {p.end for p in self._placements} | {placement.end}
            return End.LEFT in arms and End.RIGHT in arms
        return placement.end is spinner.end and placement.seq > spinner.seq

    def copy(self) -> SpinnerLayout:
        new = type(self).__new__(type(self))
        self._copy_into(new)
        new._ends = dict(self._ends)
        new._spinner = self._spinner
        return new

    def arms(self) -> tuple[tuple[End, tuple[Placement, ...]], ...]:
        if not self._placements:
            return ()
        ends = [end for end in End if end in self._ends or end in self._closed]
        return tuple((end, tuple(p for p in self._placements if p.end is end)) for end in ends)


_SIDES = (End.LEFT, End.RIGHT)


class SumSixLayout(LineLayout):
    """Шестёрка (section V, `domino.children`): a line where the halves that touch add
    up to 6: an end showing 2 takes a tile with a 4, laid with the 4 inward, and then
    shows the tile's other half; an end showing 3 takes a 3 (so 3-3 goes on a 3), 0 a 6.
    Doubles lie across as in C-4. Equal ends are offered once, as on any line."""

    kind = LayoutKind.SUM_SIX
    sums_to = 6


_SUM_SUITS: dict[int, tuple[int, ...]] = {6: tuple(SUIT_MASK[6 - pip] for pip in range(7))}
"""`_SUM_SUITS[6][n]`: the tiles that fit an end showing `n` when touching halves add up
to 6 (Шестёрка): those carrying `6 - n`."""


class FirstDoubleLayout(SpinnerLayout):
    """F-2 (All Fives): the first double played is the spinner, whether it opens the
    round or is laid later on LEFT or RIGHT (an off-centre spinner). Until then the table
    is a line; the spinner opens UP and DOWN, showing its pip, once a tile lies beyond it
    (its inner side touches the line already). Later doubles lie across as usual."""

    kind = LayoutKind.FIRST_DOUBLE
    any_double = True


def layout_of(kind: LayoutKind, placements: Iterable[Placement]) -> Layout:
    """A layout of `kind` with `placements` laid again in the order given (play order,
    as `LayoutView.placements` lists them; closed ones closed, O-3): the table a view
    shows, for computer players that search from it."""
    layout = new_layout(kind)
    for placement in placements:
        layout.place(placement.tile, placement.end, closed=placement.closed)
    return layout


def new_layout(kind: LayoutKind) -> Layout:
    """An empty layout of the given kind (C-4 line, C-10 spinner, F-2 first double,
    section V's line of halves adding up to 6)."""
    if kind is LayoutKind.LINE:
        return LineLayout()
    if kind is LayoutKind.SPINNER:
        return SpinnerLayout()
    if kind is LayoutKind.FIRST_DOUBLE:
        return FirstDoubleLayout()
    if kind is LayoutKind.SUM_SIX:
        return SumSixLayout()
    raise BadRuleset(f"unknown layout kind {kind!r}")
