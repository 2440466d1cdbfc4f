"""What a seat can do on its turn, and what everybody sees happen.

Actions are what a player asks for (`Play`, `PlayDoubles`, `Draw`, `Knock`); events are
what the table records, as public history (a `PlayDoubles` records two `Played`). A
`Drew` event never names the tile: only the drawing seat's own view learns it
(`RoundView.drawn`).
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
class PlayDoubles:
    """M-3 (Морской козёл): lay two doubles in one turn, `first` on one open end and
    `second` on another; offered only by games that allow it
    (`GameVariant.two_doubles`)."""

    first: Play
    second: Play

    def __str__(self) -> str:
        return f"{self.first}+{self.second}"


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


Action = Play | PlayDoubles | Draw | Knock

DRAW = Draw()
KNOCK = Knock()


def parse_action(text: str) -> Action:
    """Read back `str(action)`: `p2-5L`, `p3-3` (opening), `p2-2L+p5-5R`, `d`, `k`."""
    if "+" in text:
        first, _, second = text.partition("+")
        one, other = parse_action(first), parse_action(second)
        if isinstance(one, Play) and isinstance(other, Play) and one.end and other.end:
            return PlayDoubles(one, other)
        raise DominoError(f"cannot read an action from {text!r}")
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
