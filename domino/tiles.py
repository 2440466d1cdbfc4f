"""Tiles of the double-six set (C-1) and their compact bitmask form.

A `Tile` is the readable type every caller sees; inside the hot paths a set of
tiles is an `int` bitmask where bit `tile.index` stands for the tile. `SUIT_MASK[n]`
is the mask of the seven tiles that carry the pip `n`, so "which tiles of this hand
fit an end showing 4" is `hand & SUIT_MASK[4]`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import ClassVar

from domino.errors import DominoError

MAX_PIP = 6
SET_SIZE = 28
SET_TOTAL = 168  # C-1: the pips of the whole set add up to 168.


class BadTile(DominoError):
    """A tile written in a form we cannot read, or with pips outside 0..6."""


@dataclass(frozen=True, slots=True, order=True)
class Tile:
    """One tile `low-high` with `0 <= low <= high <= 6` (C-1).

    Tiles are interned: `tile(a, b)` and `Tile.parse` always return the same object
    for the same tile, so identity and equality agree and hashing is cheap.
    """

    low: int
    high: int
    index: int

    _BY_PIPS: ClassVar[dict[tuple[int, int], Tile]] = {}

    @property
    def value(self) -> int:
        """Pips on the tile (C-1)."""
        return self.low + self.high

    @property
    def is_double(self) -> bool:
        return self.low == self.high

    @property
    def bit(self) -> int:
        return 1 << self.index

    def has(self, pip: int) -> bool:
        return pip in (self.low, self.high)

    def other(self, pip: int) -> int:
        """The half opposite to `pip` (for a double, `pip` itself)."""
        if pip == self.low:
            return self.high
        if pip == self.high:
            return self.low
        raise BadTile(f"tile {self} has no half {pip}")

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Read `"2-5"` (also `"5-2"`, `"2:5"`, `"2|5"`, `"25"`) into a tile."""
        cleaned = text.strip()
        for sep in ("-", ":", "|", "/"):
            cleaned = cleaned.replace(sep, "")
        if len(cleaned) != 2 or not cleaned.isdigit():
            raise BadTile(f"cannot read a tile from {text!r}; write it as 2-5")
        return tile(int(cleaned[0]), int(cleaned[1]))

    def __str__(self) -> str:
        return f"{self.low}-{self.high}"

    def __repr__(self) -> str:
        return f"Tile({self.low}-{self.high})"

    def __reduce__(self) -> tuple[object, tuple[int, int]]:
        """Unpickled (e.g. back from the computers' process pool) as the interned tile,
        so identity and equality still agree on the other side."""
        return (tile, (self.low, self.high))


def _build() -> tuple[Tile, ...]:
    tiles: list[Tile] = []
    for low in range(MAX_PIP + 1):
        for high in range(low, MAX_PIP + 1):
            t = Tile(low, high, len(tiles))
            Tile._BY_PIPS[(low, high)] = t
            Tile._BY_PIPS[(high, low)] = t
            tiles.append(t)
    return tuple(tiles)


ALL_TILES: tuple[Tile, ...] = _build()
"""The 28 tiles in index order: 0-0, 0-1, ... 0-6, 1-1, ... 6-6."""

FULL_SET_MASK = (1 << SET_SIZE) - 1

SUIT_MASK: tuple[int, ...] = tuple(
    sum(t.bit for t in ALL_TILES if t.has(pip)) for pip in range(MAX_PIP + 1)
)
"""`SUIT_MASK[n]`: the bitmask of the seven tiles carrying pip `n` ("масть" n)."""

DOUBLES_MASK = sum(t.bit for t in ALL_TILES if t.is_double)

TILE_VALUE: tuple[int, ...] = tuple(t.value for t in ALL_TILES)
"""`TILE_VALUE[i]`: pips of the tile with index `i`, for loops over masks."""


def tile(a: int, b: int) -> Tile:
    """The tile with halves `a` and `b`, in either order."""
    try:
        return Tile._BY_PIPS[(a, b)]
    except KeyError:
        raise BadTile(f"no tile {a}-{b} in a double-six set") from None


def mask_of(tiles: Iterable[Tile]) -> int:
    mask = 0
    for t in tiles:
        mask |= t.bit
    return mask


def tiles_of(mask: int) -> tuple[Tile, ...]:
    """The tiles of a bitmask in index order (lowest first)."""
    return tuple(iter_tiles(mask))


def iter_tiles(mask: int) -> Iterator[Tile]:
    while mask:
        low_bit = mask & -mask
        yield ALL_TILES[low_bit.bit_length() - 1]
        mask ^= low_bit


def mask_value(mask: int) -> int:
    """Sum of pips of the tiles in `mask` (C-9 before any special values)."""
    total = 0
    while mask:
        low_bit = mask & -mask
        total += TILE_VALUE[low_bit.bit_length() - 1]
        mask ^= low_bit
    return total


def double(pip: int) -> Tile:
    return tile(pip, pip)


BLANK_DOUBLE = double(0)
"""`0-0`, "мыло"/"пустышка"."""
SIX_DOUBLE = double(6)
