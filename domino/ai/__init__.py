"""Computer players at three levels, and the reason each gives for its move.

Every level is a `Computer`: it is given one seat's `MatchView` (never the match or the
round, so it cannot read a hidden hand) and returns a `Decision`: a legal action of
`view.round.legal` and the reason a hint shows for it (one of `REASONS`, the suffix of
the text key `hint-reason-<reason>`, with `args` for the text). `computer(level)` builds
one: easy and medium are heuristics (`domino.ai.heuristic`), hard searches over the
hands it cannot see (`domino.ai.search`). A fixed `seed` makes every level
reproducible: the same view gives the same decision (the hard level: as long as its
`deadline` does not cut the search short).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Protocol

from domino.actions import Action
from domino.errors import DominoError
from domino.views import MatchView


class Level(StrEnum):
    """How strong a computer seat plays (🤖 Лёгкий / Средний / Сильный)."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


REASONS: tuple[str, ...] = (
    "only",  # one legal action
    "go_out",  # the move empties the hand (C-8 a)
    "double",  # a double while it can still be placed
    "heavy",  # shed the heaviest tile (K-6: points left in hand are bad)
    "keep_suits",  # keep tiles that follow on the ends
    "block",  # shut a suit an opponent lacks
    "block_leader",  # hold back the side that leads
    "fish_win",  # make a fish the mover's side wins (C-8 b, K-9)
    "avoid_fish",  # keep the table open where a fish would lose
    "draw",  # nothing fits: draw (C-6)
    "knock",  # nothing fits and nothing to draw (C-7)
    "close",  # close an end face down (O-3)
    "search",  # the best by sampled play-outs (args: chance, worlds)
    "scores",  # the move scores on the ends now (F-3; args: points)
    "safe_ends",  # leaves ends on which the next opponent can hardly score (F-3)
)
"""Why a computer chose its move: the suffix of the hint's text key `hint-reason-<reason>`."""

_NO_ARGS: Mapping[str, int] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Decision:
    """A computer's move and why (`reason` one of `REASONS`, `args` its numbers, e.g.
    `{"chance": 23, "worlds": 120}` for "search")."""

    action: Action
    reason: str
    args: Mapping[str, int] = field(default_factory=lambda: _NO_ARGS)

    def __post_init__(self) -> None:
        if self.reason not in REASONS:
            raise DominoError(f"unknown reason {self.reason!r}; the reasons are {REASONS}")


class Computer(Protocol):
    """A computer player of any level: it sees one seat's view only."""

    def decide(self, view: MatchView) -> Decision: ...

    def choose(self, view: MatchView) -> Action: ...


_CLASSES: Mapping[Level, tuple[str, str]] = MappingProxyType(
    {
        Level.EASY: ("domino.ai.heuristic", "EasyPlayer"),
        Level.MEDIUM: ("domino.ai.heuristic", "MediumPlayer"),
        Level.HARD: ("domino.ai.search", "HardPlayer"),
    }
)


def computer(
    level: Level | str, *, seed: int | None = None, deadline: float | None = None
) -> Computer:
    """A computer of `level` with its own generator (seeded with `seed`; None: fresh).

    `deadline`: an absolute `time.monotonic()` after which the hard level stops
    searching and returns its best so far; None: its own budget. The heuristic levels
    never search, so they ignore it.
    """
    try:
        chosen = Level(level)
    except ValueError:
        raise DominoError(
            f"no computer level {level!r}; the levels are {', '.join(Level)}"
        ) from None
    module_name, class_name = _CLASSES[chosen]
    # Imported when asked for: the levels import this module for `Decision`.
    cls = getattr(importlib.import_module(module_name), class_name)
    rng = random.Random(seed)
    if chosen is Level.HARD:
        player: Computer = cls(rng, deadline=deadline)
    else:
        player = cls(rng)
    return player


__all__ = ["REASONS", "Computer", "Decision", "Level", "computer"]
