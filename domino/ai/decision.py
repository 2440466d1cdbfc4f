"""What a computer decides: a legal action and the reason a hint shows for it.

Below every level (`domino.ai.heuristic`, `domino.ai.search`), which return a
`Decision`, and below `domino.ai`, which builds the levels.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from domino.actions import Action
from domino.errors import DominoError

REASONS: tuple[str, ...] = (
    "only",  # one legal action
    "go_out",  # the move empties the hand (C-8 a)
    "double",  # a double while it can still be placed
    "heavy",  # shed the heaviest tile: points left in hand are the holder's (K-6)
    "heavy_to_winner",  # the same where the round's winner writes them (T-4, M-1, S-4, F-5)
    "keep_suits",  # keep tiles that follow on the ends
    "block",  # leave ends the next opponents likely cannot follow
    "block_leader",  # hold back the side that leads
    "fish_win",  # make a fish the mover's side wins (C-8 b, K-9)
    "avoid_fish",  # keep the table open where a fish would lose
    "draw",  # nothing fits: draw (C-6)
    "knock",  # nothing fits and nothing to draw (C-7)
    "close",  # close an end face down (O-3)
    "search",  # the best by sampled play-outs (args: worlds)
    "search_likely",  # and the match likely won (not козёл) with it (args: worlds, chance)
    "scores",  # the move scores on the ends now (F-3; args: points)
    "safe_ends",  # leaves ends on which the next opponent can hardly score (F-3)
)
"""Why a computer chose its move: the suffix of the hint's text key `hint-reason-<reason>`."""

_NO_ARGS: Mapping[str, int] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Decision:
    """A computer's move and why (`reason` one of `REASONS`, `args` its numbers, e.g.
    `{"worlds": 53}` for "search")."""

    action: Action
    reason: str
    args: Mapping[str, int] = field(default_factory=lambda: _NO_ARGS)

    def __post_init__(self) -> None:
        if self.reason not in REASONS:
            raise DominoError(f"unknown reason {self.reason!r}; the reasons are {REASONS}")
