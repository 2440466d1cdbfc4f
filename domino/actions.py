"""What a seat can do on its turn, and what everybody sees happen.

Actions are what a player asks for (`Play`, `Draw`, `Knock`); events are what the
table records, as public history. A `Drew` event never names the tile: only the
drawing seat's own view learns it (`RoundView.drawn`).
"""

from __future__ import annotations

from dataclasses import dataclass

from domino.errors import DominoError
from domino.geometry import End
from domino.tiles import Tile


@dataclass(frozen=True, slots=True)
class Play:
    """Lay `tile` on the open end `end`; the first tile of a round has `end=None`."""

    tile: Tile
    end: End | None = None

    def __str__(self) -> str:
        return f"p{self.tile}{self.end.value if self.end else ''}"


@dataclass(frozen=True, slots=True)
class Draw:
    """Take one tile from the bazaar (C-6); allowed only with no playable tile."""

    def __str__(self) -> str:
        return "d"


@dataclass(frozen=True, slots=True)
class Knock:
    """Knock ("стучу"): pass with no playable tile and nothing left to draw (C-7)."""

    def __str__(self) -> str:
        return "k"


Action = Play | Draw | Knock

DRAW = Draw()
KNOCK = Knock()


def parse_action(text: str) -> Action:
    """Read back `str(action)`: `p2-5L`, `p3-3` (opening), `d`, `k`."""
    if text == "d":
        return DRAW
    if text == "k":
        return KNOCK
    if text.startswith("p") and len(text) in (4, 5):
        end = End(text[4]) if len(text) == 5 else None
        return Play(Tile.parse(text[1:4]), end)
    raise DominoError(f"cannot read an action from {text!r}")


@dataclass(frozen=True, slots=True)
class Played:
    seat: int
    tile: Tile
    end: End | None


@dataclass(frozen=True, slots=True)
class Drew:
    seat: int


@dataclass(frozen=True, slots=True)
class Knocked:
    seat: int


Event = Played | Drew | Knocked
