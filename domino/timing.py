"""How long the player to move may think: the turn timer's choices and K-12 sport timing.

A group picks one `TurnTimer`: no limit, one fixed limit for every turn (the
Telegram default: one generous limit, K-12's last sentence), or sport timing (K-12,
S-7), which depends on the position:

- 60 s when the move could make fish: some legal play would end the round in fish
  (C-8 b) — the weightiest decision, so it wins over the counts below;
- 5 s when exactly one move is possible (one distinct legal action: a single play,
  or a forced draw or knock);
- 20 s when several are possible.

Choice: "distinct legal actions" are `Round.legal_actions()`: one per tile and end
offered, and a line with equal ends offers a tile once (`domino.layout.LineLayout`), so
two moves that give the same table are not counted twice.
"""

from __future__ import annotations

from enum import StrEnum

from domino.actions import Draw, Knock
from domino.match import Match
from domino.round import Round
from domino.views import OutcomeKind

SPORT_ONE_MOVE = 5.0  # K-12: exactly one move is possible
SPORT_SEVERAL_MOVES = 20.0  # K-12: several moves are possible
SPORT_COULD_FISH = 60.0  # K-12: the move could make fish


class TurnTimer(StrEnum):
    """A group's turn-timer setting (stored by its value)."""

    OFF = "off"
    S30 = "30"
    S60 = "60"
    S120 = "120"
    S300 = "300"
    SPORT = "sport"  # K-12

    @property
    def fixed_seconds(self) -> float | None:
        """The limit of a fixed timer; None for OFF and SPORT."""
        if self in (TurnTimer.OFF, TurnTimer.SPORT):
            return None
        return float(self.value)

    def seconds_for(self, match: Match) -> float | None:
        """The time the player to move in `match` gets, in seconds; None: no limit (the
        timer is off, or nobody is to move)."""
        if self is TurnTimer.OFF or match.turn is None:
            return None
        fixed = self.fixed_seconds
        if fixed is not None:
            return fixed
        return sport_seconds(match.round)


# Choice: a group that picked no timer gets one generous fixed limit (K-12's last sentence).
DEFAULT_TURN_TIMER = TurnTimer.S60


def could_make_fish(rnd: Round) -> bool:
    """Whether some legal play of the player to move would end the round in fish (C-8 b).

    A play that empties the hand goes out instead (C-8 a), so it does not count. Every
    way to lay tiles counts: one tile, several doubles (M-3, O-2), a close (O-3).
    """
    for action in rnd.legal_actions():
        if isinstance(action, Draw | Knock):
            continue
        after = rnd.copy()
        after.apply(action)
        if after.outcome is not None and after.outcome.kind is OutcomeKind.FISH:
            return True
    return False


def sport_seconds(rnd: Round) -> float | None:
    """K-12 / S-7: 60 s if a move could make fish, else 5 s for exactly one possible move,
    20 s for several; None when the round is over."""
    legal = rnd.legal_actions()
    if not legal:
        return None
    if could_make_fish(rnd):
        return SPORT_COULD_FISH
    return SPORT_ONE_MOVE if len(legal) == 1 else SPORT_SEVERAL_MOVES
