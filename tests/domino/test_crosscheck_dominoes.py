"""Cross-check against the PyPI package `dominoes` 6.1.0 (a dev dependency).

It implements exactly our 4-player, no-bazaar line game (must play if you can,
passes automatic, block when nobody can play): Козёл with 4 players. We replay the
same deals with the same random choices in both engines and compare positions, not
points: the legal moves at every decision, who knocks (its recorded passes), how
and when the round ends, and the pips left in each hand.

Its conventions, read from its source: the first domino is laid as given, so
`Domino(low, high)` shows `low` on the left and `high` on the right, as our
`LineLayout`; `(domino, True)` is the left end; when both ends show the same pip it
offers a fitting domino on the left only, as we do.
"""

from __future__ import annotations

import random

import pytest

dominoes = pytest.importorskip("dominoes")

from domino.actions import KNOCK, Action, Knocked, Play, Played  # noqa: E402
from domino.geometry import End  # noqa: E402
from domino.round import Round  # noqa: E402
from domino.rules import KOZEL  # noqa: E402
from domino.tiles import Tile, tile  # noqa: E402
from domino.views import OutcomeKind  # noqa: E402

ROUNDS = 8000


def to_domino(t: Tile) -> object:
    return dominoes.Domino(t.low, t.high)


def to_play(move: tuple[object, bool]) -> Play:
    d, left = move
    return Play(tile(d.first, d.second), End.LEFT if left else End.RIGHT)  # type: ignore[attr-defined]


def to_move(event: Played | Knocked) -> tuple[object, bool] | None:
    if isinstance(event, Knocked):
        return None
    return to_domino(event.tile), event.end is not End.RIGHT


def imposed_game(round_: Round) -> object:
    """A `dominoes.Game` holding our deal, at our opening position."""
    hands = [dominoes.Hand([to_domino(t) for t in round_.hand(seat)]) for seat in range(4)]
    if round_.opening_tile is not None:  # K-3: the opener must lay this tile
        valid = ((to_domino(round_.opening_tile), True),)
    else:  # K-4: a given leader lays any tile
        valid = tuple((d, True) for d in hands[round_.leader])
    return dominoes.Game(dominoes.Board(), hands, [], round_.leader, valid, round_.leader, None)


def legal_from_game(game: object) -> set[Play]:
    plays = {to_play(move) for move in game.valid_moves}  # type: ignore[attr-defined]
    if not game.board:  # type: ignore[attr-defined]
        return {Play(p.tile, None) for p in plays}
    return plays


def test_same_deals_same_choices_same_positions() -> None:
    rng = random.Random(20260101)
    outcomes = {OutcomeKind.WENT_OUT: 0, OutcomeKind.FISH: 0}
    knocks = 0
    for number in range(ROUNDS):
        leader = None if number % 2 == 0 else rng.randrange(4)
        ours = Round.start(KOZEL, 4, rng, leader=leader)
        game = imposed_game(ours)
        while not ours.over:
            legal: tuple[Action, ...] = ours.legal_actions()
            if legal == (KNOCK,):
                ours.apply(KNOCK)  # the other engine passes on its own
                continue
            assert game.turn == ours.turn  # type: ignore[attr-defined]
            assert set(legal) == legal_from_game(game)
            assert len(legal) == len(game.valid_moves)  # type: ignore[attr-defined]
            action = rng.choice(legal)
            assert isinstance(action, Play)
            ours.apply(action)
            game.make_move(to_domino(action.tile), action.end is not End.RIGHT)  # type: ignore[attr-defined]
        outcome = ours.outcome
        result = game.result  # type: ignore[attr-defined]
        assert outcome is not None and result is not None
        assert result.won == (outcome.kind is OutcomeKind.WENT_OUT)
        assert result.player == outcome.seat
        assert [to_move(e) for e in ours.history] == game.moves  # type: ignore[attr-defined]
        pips = [sum(d.first + d.second for d in hand) for hand in game.hands]  # type: ignore[attr-defined]
        assert tuple(pips) == outcome.hand_values
        outcomes[outcome.kind] += 1
        knocks += sum(isinstance(e, Knocked) for e in ours.history)
    # both kinds of ending, and passes, were exercised
    assert min(outcomes.values()) > ROUNDS // 10
    assert knocks > ROUNDS
