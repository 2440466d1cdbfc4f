"""Invariants of whole seeded matches (hypothesis), for every game in `VARIANTS` with the
player counts and options it allows: tiles conserved, only legal moves accepted, each
round scored as the game says, hands hidden in the views, replay from seed + log and the
JSON round trip."""

from __future__ import annotations

import contextlib
import dataclasses
import random
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from domino.actions import (
    DRAW,
    KNOCK,
    Action,
    Close,
    Closed,
    Flipped,
    Play,
    PlayDoubles,
    Played,
    TurnedUp,
)
from domino.errors import BadRuleset, DominoError
from domino.geometry import End
from domino.match import Match
from domino.players import GreedyPlayer, Player, RandomPlayer
from domino.rules import Ruleset
from domino.scoring import match_deciders, score_round
from domino.tiles import FULL_SET_MASK, SET_SIZE
from domino.variants import VARIANTS, GameVariant
from domino.views import OutcomeKind

LEAK_CHECK_EVERY = 9  # actions between the (costly) full-text leak checks
REFUSAL_CHECK_EVERY = 3  # actions between tries of moves outside `legal_actions`

# Options a group cannot choose in the lobby but the engine accepts, per game.
EXTRA_OPTIONS: dict[str, dict[str, tuple[Any, ...]]] = {"classic": {"held_double_six": (0, 50)}}


@st.composite
def setups(draw: st.DrawFn) -> tuple[Ruleset, int, int, tuple[str, ...]]:
    """A game, a player count it allows, one value of each of its options (the target
    also a third of the default, for shorter matches), teams where it allows a choice."""
    game: GameVariant = draw(st.sampled_from(VARIANTS))
    base = game.ruleset
    players = draw(st.sampled_from(sorted(base.hand_sizes)))
    options: dict[str, Any] = {"target": draw(st.sampled_from([base.target // 3, base.target]))}
    choices = {**game.choices, **EXTRA_OPTIONS.get(game.key.value, {})}
    for option, values in choices.items():
        if option != "target":
            options[option] = draw(st.sampled_from(values))
    ruleset = base.with_options(**options)
    if players == 4:
        with contextlib.suppress(BadRuleset):  # the game's pairs may be fixed (S-1)
            ruleset = ruleset.with_options(teams=draw(st.booleans()))
    kinds = tuple(draw(st.sampled_from(["greedy", "random"])) for _ in range(players))
    event(f"{game.key.value}, {players} players")
    return ruleset, players, draw(st.integers(0, 2**64 - 1)), kinds


def seat_players(kinds: tuple[str, ...], seed: int) -> tuple[Player, ...]:
    rng = random.Random(seed)
    return tuple(GreedyPlayer() if kind == "greedy" else RandomPlayer(rng) for kind in kinds)


def check_tiles_accounted_for(match: Match) -> None:
    rnd = match.round
    seen = rnd.layout.table_mask
    count = seen.bit_count()
    for seat in range(match.players):
        hand = rnd.hand_mask(seat)
        assert not seen & hand
        seen |= hand
        count += hand.bit_count()
    assert count + rnd.bazaar_size == SET_SIZE
    bazaar = FULL_SET_MASK ^ seen
    assert bazaar.bit_count() == rnd.bazaar_size


def moves_to_try(match: Match, seat: int) -> list[Action]:
    """Moves of every kind with the mover's tiles, most of them not legal now: each tile
    opening, on every end and closing every end (O-3), two doubles at once (M-3, O-2),
    a draw and a knock."""
    hand = match.round.hand(seat)
    moves: list[Action] = [DRAW, KNOCK]
    for t in hand:
        moves.append(Play(t))
        moves.extend(Play(t, end) for end in End)
        if t.is_double:
            moves.extend(Close(t, end) for end in End)
    doubles = [t for t in hand if t.is_double]
    if len(doubles) >= 2:
        moves.append(PlayDoubles((Play(doubles[0], End.LEFT), Play(doubles[1], End.RIGHT))))
    return moves


def check_legal_moves_only(match: Match, seat: int, rng: random.Random) -> None:
    """Every listed move is legal; moves outside the list are refused and change nothing."""
    legal = match.legal_actions()
    assert legal and all(match.round.is_legal(action, seat) for action in legal)
    others = [action for action in moves_to_try(match, seat) if action not in legal]
    log, turn_no = len(match.log), match.round.turn_no
    for action in rng.sample(others, min(3, len(others))):
        assert not match.round.is_legal(action, seat), action
        with pytest.raises(DominoError):
            match.apply(action, seat)
        assert (len(match.log), match.round.turn_no, match.turn) == (log, turn_no, seat)


def check_views(match: Match, *, full: bool) -> None:
    rnd = match.round
    hidden_by_seat = {seat: set(rnd.hand(seat)) for seat in range(match.players)}
    bazaar = set(rnd.deal.bazaar[len(rnd.deal.bazaar) - rnd.bazaar_size :])
    for seat in [None, *range(match.players)]:
        view = match.view(seat)
        sees_own = seat is not None and not rnd.face_down(seat)  # Втемную: face down
        assert view.round.hand == (rnd.hand(seat) if sees_own else ())
        assert view.round.hand_counts == tuple(len(hidden_by_seat[s]) for s in hidden_by_seat)
        assert set(view.round.drawn) <= set(view.round.hand) | {
            p.tile for p in view.round.layout.placements
        }
        assert (view.round.legal != ()) == (seat is not None and seat == match.turn)
        assert view.round.turned == rnd.turned  # S-2: public, and () in other games
        if full:
            # The turned tiles (S-2) are public and went back into the set before the
            # deal: they are left out of the text searched for the others' tiles.
            text = repr(dataclasses.replace(view, round=dataclasses.replace(view.round, turned=())))
            # The check below can see a tile: the viewer's own tiles are there.
            assert all(repr(t) in text for t in view.round.hand)
            secret = set(bazaar)
            for other, tiles in hidden_by_seat.items():
                if other != seat or not sees_own:
                    secret |= tiles
            # Втемную: a tile turned up that fitted nowhere went under its stack in
            # everyone's sight (`Flipped`), and one that fits both ends waits for its
            # owner's choice face up (`TurnedUp`): public, though still in a hand.
            secret -= {e.tile for e in rnd.history if isinstance(e, Flipped | TurnedUp)}
            for t in secret:
                assert repr(t) not in text, f"{t} of another hand leaks into seat {seat}'s view"


@settings(max_examples=120, deadline=None)
@given(setups())
def test_whole_match_invariants(setup: tuple[Ruleset, int, int, tuple[str, ...]]) -> None:
    ruleset, players, seed, kinds = setup
    table = seat_players(kinds, seed)
    match = Match.new(ruleset, players, seed)
    tries = random.Random(seed)
    steps = 0
    while not match.over:
        seat = match.turn
        assert seat is not None
        before, eggs, results = match.scores, match.eggs, len(match.results)
        round_no = match.round_no
        in_play = match.view(None).round_points
        if steps % REFUSAL_CHECK_EVERY == 0:
            check_legal_moves_only(match, seat, tries)
        action = table[seat].choose(match.view(seat))
        assert action in match.legal_actions()
        match.apply(action, seat)
        steps += 1
        check_tiles_accounted_for(match)
        game = ruleset.game
        if len(match.results) == results:
            # Points change only at the end of a round, or by the move's own points (F-3).
            gained = tuple(
                a.recorded - b.recorded for a, b in zip(match.scores, before, strict=True)
            )
            scored = match.view(None).scored
            if not game.scores_in_play or not isinstance(match.round.history[-1], Played):
                assert gained == (0,) * len(before)
            elif any(gained):
                assert scored is not None and scored.seat == seat
                assert gained[match.side_of(seat)] == scored.points == sum(gained)
            assert (match.eggs, match.round_no) == (eggs, round_no)
        else:
            ended = match.finished_round
            assert ended is not None and ended.outcome is not None
            hands = tuple(ended.hand(s) for s in range(players))
            last = ended.history[-1]
            assert isinstance(last, Played | Closed)  # a round ends with a tile laid (C-8)
            start = match.results[-2].after if len(match.results) > 1 else None
            result = match.results[-1]
            if ended.outcome.kind is OutcomeKind.REACHED:  # F-6: stopped at the target
                assert game.scores_in_play and match.over
                scored = match.view(None).scored
                assert scored is not None and scored.seat == seat
                assert sum(result.points) == sum(in_play) + scored.points
            elif not game.scores_in_play:
                expected = score_round(
                    ruleset, round_no, ended.outcome, before, eggs, hands, last.tile
                )
                assert result == expected
                assert (match.scores, match.eggs) == (expected.after, expected.eggs_after)
            if start is not None:
                assert result.before == start
            assert match.scores == result.after
            assert not game.scores_in_play or all(
                b.recorded + p == a.recorded
                for b, p, a in zip(result.before, result.points, result.after, strict=True)
            )
            assert ended.outcome.hand_values == tuple(sum(t.value for t in h) for h in hands)
        # The match ends exactly when a side has reached the target.
        reached = any(a.recorded >= ruleset.target for a in match.scores)
        assert match.over == reached
        if steps % LEAK_CHECK_EVERY == 0 or match.over:
            check_views(match, full=True)
    deciders = match_deciders(ruleset, match.scores)
    assert deciders and deciders == (match.losers or match.winners)

    text = match.to_json()
    back = Match.from_json(text)
    assert back == match and back.to_json() == text
    assert Match.replay(ruleset, players, seed, match.log) == match


@settings(max_examples=60, deadline=None)
@given(setups(), st.integers(0, 400))
def test_json_and_replay_mid_match(
    setup: tuple[Ruleset, int, int, tuple[str, ...]], stop_after: int
) -> None:
    ruleset, players, seed, kinds = setup
    table = seat_players(kinds, seed)
    match = Match.new(ruleset, players, seed)
    for _ in range(stop_after):
        seat = match.turn
        if seat is None:
            break
        match.apply(table[seat].choose(match.view(seat)), seat)
    text = match.to_json()
    back = Match.from_json(text)
    assert back == match and back.to_json() == text
    replayed = Match.replay(ruleset, players, seed, match.log)
    assert replayed == match
    check_views(back, full=False)
    # The restored match plays on exactly like the original.
    for _ in range(20):
        if match.turn is None:
            break
        action = match.legal_actions()[0]
        assert back.apply(action) == match.apply(action)
    assert back == match
