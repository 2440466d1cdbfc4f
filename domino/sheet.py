"""The score sheet: how a round ended, each side's account and a round's line on it.

Plain frozen records below the rules: a game (`domino.rules.GameVariant`) scores a
round's `RoundOutcome` into a `RoundResult`, and views (`domino.views`) show them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class OutcomeKind(StrEnum):
    WENT_OUT = "went_out"  # C-8 (a): "вышел" / "домино"
    FISH = "fish"  # C-8 (b): "рыба"
    REACHED = "reached"  # F-6: a move scored the match's target in play; the round stops


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
