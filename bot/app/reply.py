"""What a use case tells the person who asked, as a message key and its values, never
text: each front end says it in the person's language (the Telegram one as a toast, an
alert or a message).

A value is a plain number or string, or one of the domain values below, which a front
end shows in its own way (a tile as `3|5`, a side as its names joined)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from domino.actions import Action
from domino.tiles import Tile
from domino.views import MatchView

EMPTY: Mapping[str, object] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Reply:
    """The answer for the person: the text `key` with its `values` ("" for no text), shown
    as an alert (`alert`) or a short toast, or a link to open (`url`)."""

    key: str = ""
    values: Mapping[str, object] = field(default_factory=lambda: EMPTY)
    alert: bool = False
    url: str | None = None

    @classmethod
    def of(cls, key: str, *, alert: bool = False, **values: object) -> Reply:
        return cls(key, MappingProxyType(dict(values)), alert=alert)


NO_REPLY = Reply()


@dataclass(frozen=True, slots=True)
class Side:
    """A side of the table by its seats' names (partners, or one seat alone)."""

    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SeatScore:
    """One seat of an abandoned match: its points then and the rating it gains (K-11),
    None when the stats give it none."""

    name: str
    points: int
    gain: int | None


@dataclass(frozen=True, slots=True)
class Tiles:
    """Tiles named to their owner (those a draw brought)."""

    tiles: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class TileRefused:
    """A tile pressed on the presser's own turn that cannot be played now: why is read
    from their `view` (a fixed opening, no fit, the ends of Шестёрка, a face-down stack)."""

    view: MatchView


@dataclass(frozen=True, slots=True)
class Hint:
    """The computer's choice for the presser's turn: `action` on their `view`, and its
    `reason` (`domino.ai.REASONS`) with the reason's numbers."""

    view: MatchView
    action: Action
    reason: str
    args: Mapping[str, int]


@dataclass(frozen=True, slots=True)
class Loser:
    """The losing `side` of a match, said in the word of the game with key `game` (the
    козёл, the осёл, or plainly a loss where points are good)."""

    game: str
    side: Side


def stored(value: object) -> object:
    """A value as a notice's JSON payload keeps it: a side as `{"side": [names]}`, seats'
    scores as `{"scores": [[name, points, gain], ...]}`; numbers and strings as they are."""
    if isinstance(value, Side):
        return {"side": list(value.names)}
    if isinstance(value, tuple) and value and all(isinstance(v, SeatScore) for v in value):
        return {"scores": [[v.name, v.points, v.gain] for v in value if isinstance(v, SeatScore)]}
    return value


def restored(value: object) -> object:
    """A stored notice value read back (`stored`); anything else as it was stored (the
    text rows written before sides and scores were stored as values)."""
    if isinstance(value, dict) and isinstance(value.get("side"), list):
        return Side(tuple(str(name) for name in value["side"]))
    if isinstance(value, dict) and isinstance(value.get("scores"), list):
        return tuple(
            SeatScore(str(name), int(points), None if gain is None else int(gain))
            for name, points, gain in value["scores"]
        )
    return value
