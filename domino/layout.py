"""Layouts: where the played tiles lie and which ends are open (C-4, C-10).

Callers see `End`, `Placement` and the `Layout` interface only; `LineLayout` is the
two-ended line of Козёл and Классика, and a spinner layout (C-10) implements the
same interface with the ends `UP` and `DOWN` as well, so nobody outside this module
needs to know which one a round uses.

Geometry convention (used by `render/`): the first tile of a round is the centre;
its `low` half faces LEFT and its `high` half faces RIGHT (a spinner double: all
four sides). Every later tile lies on one arm, `chain(end)` lists that arm from the
centre outward, and for each placed tile `inner` is the half touching its
neighbour towards the centre, `outer` the half facing away (equal for doubles,
which lie across the line).
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

    @property
    def is_double(self) -> bool:
        return self.tile.is_double
