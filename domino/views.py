"""What one seat (or the public, e.g. the group chat) may know about a match.

A view is a frozen snapshot built by the engine (`Match.view(seat)`,
`Match.public_view()`). It holds the viewer's own hand and nothing of any other
hand or of the bazaar's order: other seats appear as tile counts only. Renderers
and the bot build everything they show from views, so hidden information cannot
leak through them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from domino.actions import Action, Event
from domino.geometry import End, Placement
from domino.rules import Ruleset
from domino.tiles import Tile


class OutcomeKind(StrEnum):
    WENT_OUT = "went_out"  # C-8 (a): "вышел" / "домино"
    FISH = "fish"  # C-8 (b): "рыба"
    REACHED = "reached"  # F-6: a move scored the match's target in play; the round stops


@dataclass(frozen=True, slots=True)
class Scored:
    """A move that scored as it was played (F-3): who, how many points, and the sum of
    the open ends that scored them."""

    seat: int
    points: int
    count: int


@dataclass(frozen=True, slots=True)
class RoundOutcome:
    """How a round ended (C-8)."""

    kind: OutcomeKind
    seat: int  # who went out, the fisherman ("рыбак") who placed the blocking tile, or
    # the mover whose points reached the target (F-6)
    hand_values: tuple[int, ...]  # per seat, pips left in hand as plain sums (C-9, no specials)


@dataclass(frozen=True, slots=True)
class Account:
    """One side's score (a seat, or a team in team play).

    Козёл (K-7): `recorded` counts toward the target; `remembered` are points kept
    aside ("+N") until the account is `opened`. Классика uses `recorded` only.
    """

    recorded: int = 0
    remembered: int = 0
    opened: bool = False


@dataclass(frozen=True, slots=True)
class RoundResult:
    """One finished round's line on the score sheet (K-8 style: before, round, after)."""

    round_no: int  # 1-based
    outcome: RoundOutcome
    before: tuple[Account, ...]  # per side
    points: tuple[int, ...]  # per side: the round's points as counted for it (incl. eggs taken)
    after: tuple[Account, ...]  # per side
    eggs_before: int  # K-9: eggs carried into this round
    eggs_after: int  # eggs carried out of it (0 unless this round tied again)
    eggs_taken_by: int | None  # side that took the carried eggs in this round, if any


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
