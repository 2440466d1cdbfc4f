"""Where a tile lies on the table: the open ends (`End`), a placed tile (`Placement`) and
the table as placed (`LayoutView`).

A leaf of the engine: actions name an end, views show placements and layouts make
them, so these types depend on tiles only. How layouts place tiles (the centre, the
arms, `inner` and `outer`) is told in `domino.layout`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from domino.tiles import Tile


class End(StrEnum):
    LEFT = "L"
    RIGHT = "R"
    UP = "U"
    DOWN = "D"


@dataclass(frozen=True, slots=True)
class Placement:
    """One tile on the table."""

    tile: Tile
    end: End | None  # the arm it lies on; None for the first tile (the centre)
    inner: int  # the half touching the tile before it on its arm (centre: the LEFT half)
    outer: int  # the half facing outward, open while it is the arm's last tile
    seq: int  # 0 for the first tile of the round, then 1, 2, ... in play order
    closed: bool = False  # O-3: a double laid face down; its arm takes no more tiles

    @property
    def is_double(self) -> bool:
        return self.tile.is_double


@dataclass(frozen=True, slots=True)
class LayoutView:
    """The table as placed: the centre tile and each arm outward, plus open ends."""

    placements: tuple[Placement, ...]  # in play order (seq 0, 1, ...)
    open_ends: tuple[tuple[End, int], ...]  # (end, pip showing) for each end open now
    arms: tuple[tuple[End, tuple[Placement, ...]], ...]  # each arm from the centre outward
    spinner: Placement | None  # the tile open on four sides (C-10), None in a line
    closed_ends: tuple[End, ...] = ()  # O-3: ends closed by a face-down double, in End order

    @property
    def centre(self) -> Placement | None:
        return self.placements[0] if self.placements else None

    @property
    def last(self) -> Placement | None:
        return self.placements[-1] if self.placements else None

    def chain(self, end: End) -> tuple[Placement, ...]:
        for arm_end, arm in self.arms:
            if arm_end is end:
                return arm
        return ()
