"""Computer players: they see only their own seat's `MatchView`, never the `Match`.

A player is anything with `choose(view) -> Action`, where `view` is `Match.view(seat)`;
the round's `legal` tuple is the menu, so a player can never pick an illegal action or
peek at another hand.
"""

from __future__ import annotations

import random
from typing import Protocol

from domino.actions import Action, Close, Play, PlayDoubles
from domino.errors import NotYourTurn
from domino.geometry import End
from domino.tiles import Tile
from domino.views import MatchView, RoundView

_END_ORDER = {end: rank for rank, end in enumerate(End)}


class Player(Protocol):
    """Chooses an action for the seat whose view it is given."""

    def choose(self, view: MatchView) -> Action: ...


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

    def choose(self, view: MatchView) -> Action:
        legal = _menu(view.round)
        return legal[self.rng.randrange(len(legal))]

    def __repr__(self) -> str:
        return "RandomPlayer()"


class GreedyPlayer:
    """Sheds the most points it can, to keep the hand's points low.

    The move that takes the most pips out of the hand wins: one tile, or several doubles
    at once (M-3, O-2). Closing an end with a double (O-3) sheds as much as laying it face
    up, so it is chosen over that play when it helps: when the mover holds no other tile
    of that pip, the end would serve only the others and is closed; otherwise the end is
    kept open for the mover's own tiles. Remaining ties are broken deterministically: a
    double before a non-double of the same value (doubles are the hardest to place
    later), then the higher high half, then the end in `End` order (LEFT, RIGHT, UP,
    DOWN). With no tile to play it draws or knocks, whichever is the one legal action.
    """

    def choose(self, view: MatchView) -> Action:
        legal = _menu(view.round)
        best: Action | None = None
        best_key = (-1, 0, False, -1, 0)
        for action in legal:
            key = _greedy_key(action, view.round.hand)
            if key is not None and key > best_key:
                best, best_key = action, key
        return best if best is not None else legal[0]

    def __repr__(self) -> str:
        return "GreedyPlayer()"


def _greedy_key(action: Action, hand: tuple[Tile, ...]) -> tuple[int, int, bool, int, int] | None:
    """`GreedyPlayer`'s rank of a play (higher is better); None for a draw or a knock:
    (pips shed, the close preference, a double, the high half, the earlier end)."""
    if isinstance(action, Play):
        t = action.tile
        end = -_END_ORDER[action.end] if action.end is not None else 0
        return (t.value, 0, t.is_double, t.high, end)
    if isinstance(action, PlayDoubles):
        tiles = [play.tile for play in action.plays]
        return (sum(t.value for t in tiles), 0, True, max(t.high for t in tiles), 0)
    if isinstance(action, Close):
        t = action.tile
        others = any(other != t and other.has(t.high) for other in hand)
        return (t.value, -1 if others else 1, True, t.high, -_END_ORDER[action.end])
    return None
