"""Computer players at three levels, and the reason each gives for its move.

Every level is a `Computer`: it is given one seat's `MatchView` (never the match or the
round, so it cannot read a hidden hand) and returns a `Decision`: a legal action of
`view.round.legal` and the reason a hint shows for it (one of `REASONS`, the suffix of
the text key `hint-reason-<reason>`, with `args` for the text). `computer(level)` builds
one: easy and medium are heuristics (`domino.ai.heuristic`), hard searches over the
hands it cannot see (`domino.ai.search`). A fixed `seed` makes every level
reproducible: the same view gives the same decision (the hard level: as long as its
`deadline` does not cut the search short). `Decision` and `REASONS` are in
`domino.ai.decision`, below the levels that return them.
"""

from __future__ import annotations

import random
from enum import StrEnum
from typing import Protocol

from domino.actions import Action
from domino.ai.decision import REASONS, Decision
from domino.ai.heuristic import EasyPlayer, MediumPlayer
from domino.ai.search import HardPlayer
from domino.errors import DominoError
from domino.views import MatchView


class Level(StrEnum):
    """How strong a computer seat plays (🤖 Лёгкий / Средний / Сильный)."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


class Computer(Protocol):
    """A computer player of any level: it sees one seat's view only."""

    def decide(self, view: MatchView) -> Decision: ...

    def choose(self, view: MatchView) -> Action: ...


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
    rng = random.Random(seed)
    if chosen is Level.HARD:
        return HardPlayer(rng, deadline=deadline)
    if chosen is Level.MEDIUM:
        return MediumPlayer(rng)
    return EasyPlayer(rng)


__all__ = ["REASONS", "Computer", "Decision", "Level", "computer"]
