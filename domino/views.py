"""What one seat (or the public, e.g. the group chat) may know about a match.

A view is a frozen snapshot built by the engine (`Match.view(seat)`,
`Match.public_view()`). It holds the viewer's own hand and nothing of any other
hand or of the bazaar's order: other seats appear as tile counts only. Renderers
and the bot build everything they show from views, so hidden information cannot
leak through them.

The records a view holds are importable from here too: the score sheet's
(`domino.sheet`: `RoundOutcome`, `Account`, `RoundResult`) and the table as placed
(`domino.geometry.LayoutView`), which live below the rules because the games'
methods (`domino.rules.GameVariant`) take and return them.
"""

from __future__ import annotations

from dataclasses import dataclass

from domino.actions import Action, Event
from domino.geometry import LayoutView
from domino.rules import Ruleset
from domino.sheet import Account, OutcomeKind, RoundOutcome, RoundResult
from domino.tiles import Tile

__all__ = [
    "Account",
    "LayoutView",
    "MatchView",
    "OutcomeKind",
    "RoundOutcome",
    "RoundResult",
    "RoundView",
    "Scored",
]


@dataclass(frozen=True, slots=True)
class Scored:
    """A move that scored as it was played (F-3): who, how many points, and the sum of
    the open ends that scored them."""

    seat: int
    points: int
    count: int


@dataclass(frozen=True, slots=True)
class RoundView:
    """What `seat` may know of the current round (seat None: the public)."""

    seat: int | None
    players: int
    hand: tuple[Tile, ...]  # the viewer's own tiles, sorted; () for the public view
    hand_counts: tuple[int, ...]  # tiles in each seat's hand
    bazaar_size: int  # tiles left in the bazaar
    drawable: int  # of those, how many may still be drawn (C-6 bazaar_reserve)
    layout: LayoutView
    turn: int | None  # seat to move; None once the round is over
    turn_no: int  # number of actions applied so far in this round (for stale-press checks)
    history: tuple[Event, ...]  # public events in order; draws do not name the tile
    drawn: tuple[Tile, ...]  # tiles the viewer drew this round (own view only)
    legal: tuple[Action, ...]  # the viewer's legal actions; () unless it is their turn
    outcome: RoundOutcome | None
    turned: tuple[Tile, ...] = ()  # S-2: the tile each seat turned before the first round
    face_down: tuple[bool, ...] = ()  # Втемную: per seat, its tiles lie face down (hidden
    # from their owner too: `hand` is then ()); () in the other games
    turned_up: Tile | None = None  # Втемную: the mover's tile turned up that fits two
    # ends, public, waiting for its owner's choice (`legal`: its plays on them)


@dataclass(frozen=True, slots=True)
class MatchView:
    """A seat's (or the public's) view of the whole match."""

    ruleset: Ruleset
    players: int
    round_no: int  # 1-based number of the current (or last) round
    round: RoundView
    sides: tuple[tuple[int, ...], ...]  # seats of each side: ((0,), (1,), ...) or ((0, 2), (1, 3))
    scores: tuple[Account, ...]  # per side, now
    eggs: int  # K-9: points carried over, shown as "🥚 +N"
    results: tuple[RoundResult, ...]  # every finished round so far
    over: bool
    losers: tuple[int, ...]  # Козёл: the side(s) that are козёл (K-10); () until over
    winners: tuple[int, ...]  # Классика: the side(s) that won (T-6); () until over
    round_points: tuple[int, ...] = ()  # F-3: per side, points scored in play this round
    scored: Scored | None = None  # F-3: the round's last move that scored, if any

    def side_of(self, seat: int) -> int:
        for index, seats in enumerate(self.sides):
            if seat in seats:
                return index
        raise ValueError(f"seat {seat} is not in this match")
