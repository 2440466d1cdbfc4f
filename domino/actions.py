"""What a seat can do on its turn, and what everybody sees happen.

Actions are what a player asks for (`Play`, `PlayDoubles`, `Close`, `Draw`, `Knock`,
`EndTurn`, `Flip`); events are what the table records, as public history (a `PlayDoubles`
records one `Played` per double, a `Close` one `Closed`, an `EndTurn` one `Ended`, a
`Flip` a `Played` or a `Flipped`). A `Drew` event never names the tile: only the drawing
seat's own view learns it (`RoundView.drawn`).
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
    """Several doubles in one turn (M-3 Морской козёл, O-2 Осёл): each of `plays` lays a
    different double on a different end that was open when the turn began; from two up to
    the game's `GameVariant.max_doubles`, offered only by games that allow more than one."""

    plays: tuple[Play, ...]

    def __str__(self) -> str:
        return "+".join(map(str, self.plays))


@dataclass(frozen=True, slots=True)
class Close:
    """O-3 (Осёл): lay the double that fits the open end `end` face down; no tile goes on
    that end for the rest of the round. Offered only by games that allow it
    (`GameVariant.may_close`)."""

    tile: Tile
    end: End

    def __str__(self) -> str:
        return f"c{self.tile}{self.end.value}"


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


@dataclass(frozen=True, slots=True)
class EndTurn:
    """End a turn of several tiles («✔️ Сходить») after laying at least one, in the games
    where a mover may lay any number of tiles in a turn (section V: Блиц, Крест;
    `GameVariant.many_per_turn`)."""

    def __str__(self) -> str:
        return "e"


@dataclass(frozen=True, slots=True)
class Flip:
    """Втемную (section V): turn up the top tile of one's face-down stack; it is laid on
    the open end it fits, or goes under the stack (and a bazaar tile goes face down on
    top); one that fits two ends waits for its owner's `Play` on one of them (`TurnedUp`).
    The only move of a seat whose tiles lie face down (`GameVariant.face_down`)."""

    def __str__(self) -> str:
        return "f"


Action = Play | PlayDoubles | Close | Draw | Knock | EndTurn | Flip

DRAW = Draw()
KNOCK = Knock()
END_TURN = EndTurn()
FLIP = Flip()


def parse_action(text: str) -> Action:
    """Read back `str(action)`: `p2-5L`, `p3-3` (opening), `p2-2L+p5-5R+p6-6U`, `c3-3L`,
    `d`, `k`, `e`, `f`."""
    if "+" in text:
        parts = [parse_action(part) for part in text.split("+")]
        plays = tuple(part for part in parts if isinstance(part, Play) and part.end)
        if len(plays) == len(parts):
            return PlayDoubles(plays)
        raise DominoError(f"cannot read an action from {text!r}")
    if text == "d":
        return DRAW
    if text == "k":
        return KNOCK
    if text == "e":
        return END_TURN
    if text == "f":
        return FLIP
    if text.startswith("p") and len(text) in (4, 5):
        end = End(text[4]) if len(text) == 5 else None
        return Play(Tile.parse(text[1:4]), end)
    if text.startswith("c") and len(text) == 5:
        return Close(Tile.parse(text[1:4]), End(text[4]))
    raise DominoError(f"cannot read an action from {text!r}")


@dataclass(frozen=True, slots=True)
class Played:
    seat: int
    tile: Tile
    end: End | None


@dataclass(frozen=True, slots=True)
class Closed:
    """O-3: `seat` laid `tile` face down on `end`, which is closed from now on."""

    seat: int
    tile: Tile
    end: End


@dataclass(frozen=True, slots=True)
class Drew:
    seat: int


@dataclass(frozen=True, slots=True)
class Knocked:
    seat: int


@dataclass(frozen=True, slots=True)
class Ended:
    """Section V: `seat` ended a turn of several tiles (`EndTurn`) before laying all it could."""

    seat: int


@dataclass(frozen=True, slots=True)
class Flipped:
    """Втемную: `seat` turned up `tile` from its face-down stack and it fitted no open end:
    it went under the stack (everyone saw it), and if `drew`, a bazaar tile went face
    down on top, unseen by anyone. (A turned-up tile that fits is a `Played`.)"""

    seat: int
    tile: Tile
    drew: bool


@dataclass(frozen=True, slots=True)
class TurnedUp:
    """Втемную: `seat` turned up `tile` from its face-down stack and it fits two open ends
    (everyone saw it): the turn stays, and its owner lays it on the end they choose (the
    `Played` that follows; `Ruleset.flip_choice`)."""

    seat: int
    tile: Tile


Event = Played | Closed | Drew | Knocked | Ended | Flipped | TurnedUp
