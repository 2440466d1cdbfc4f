"""Computer players: they see only their own `RoundView`, never the `Round`.

A player is anything with `choose(view) -> Action`; the view's `legal` tuple is the
menu, so a player can never pick an illegal action or peek at another hand.
"""

from __future__ import annotations

import random
from typing import Protocol

from domino.actions import Action, Play
from domino.errors import NotYourTurn
from domino.geometry import End
from domino.views import RoundView

_END_ORDER = {end: rank for rank, end in enumerate(End)}


class Player(Protocol):
    """Chooses an action for the seat whose view it is given."""

    def choose(self, view: RoundView) -> Action: ...


def _menu(view: RoundView) -> tuple[Action, ...]:
    if not view.legal:
        raise NotYourTurn(
            f"seat {view.seat} has no action to choose: it is seat {view.turn}'s turn"
            if view.turn is not None
            else "the round is over: there is no action to choose"
        )
    return view.legal


class RandomPlayer:
    """Picks uniformly among the legal actions, with the injected generator (C-12)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: RoundView) -> Action:
        legal = _menu(view)
        return legal[self.rng.randrange(len(legal))]

    def __repr__(self) -> str:
        return "RandomPlayer()"


class GreedyPlayer:
    """Plays the heaviest playable tile to keep the hand's points low.

    Ties are broken deterministically: a double before a non-double of the same
    value (doubles are the hardest to place later), then the higher high half, then
    the end in `End` order (LEFT, RIGHT, UP, DOWN). With no tile to play it draws or
    knocks, whichever is the one legal action.
    """

    def choose(self, view: RoundView) -> Action:
        legal = _menu(view)
        best: Play | None = None
        best_key = (-1, False, -1, 0)
        for action in legal:
            if isinstance(action, Play):
                t = action.tile
                key = (
                    t.value,
                    t.is_double,
                    t.high,
                    -_END_ORDER[action.end] if action.end is not None else 0,
                )
                if key > best_key:
                    best, best_key = action, key
        return best if best is not None else legal[0]

    def __repr__(self) -> str:
        return "GreedyPlayer()"
