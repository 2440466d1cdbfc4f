"""Втемную with `flip_choice`: a tile turned up that fits both ends waits for its owner
to choose the end (`TurnedUp`, `RoundView.turned_up`). The computers, which see no tile
of a face-down hand, choose it as the end of a tile they know, never as going out."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from domino.actions import Play, TurnedUp
from domino.ai import Level, computer
from domino.ai.knowledge import knowledge
from domino.ai.sampling import Sampler
from domino.children import DARK
from domino.match import Match

CHOOSING = DARK.with_options(flip_choice=True)
ENDS_REASONS = {"block", "block_leader", "avoid_fish", "fish_win", "search", "search_likely"}
"""What may tell the choice of an end for a given tile: the ends left, a fish, a search."""


def choices(players: int, seeds: range) -> Iterator[Match]:
    """Matches of medium computers, at each turn where a tile turned up waits for its end."""
    for seed in seeds:
        match = Match.new(CHOOSING, players, seed)
        player = computer(Level.MEDIUM, seed=seed)
        while not match.over:
            seat = match.turn
            assert seat is not None
            if match.round.turned_up is not None:
                yield match
            match.apply(player.choose(match.view(seat)), seat)


def test_the_tile_turned_up_is_its_owners_in_every_world() -> None:
    """Whoever looks (the owner, whose tiles lie face down, another seat, the public), the
    tile turned up is in its owner's hand in every world sampled, with the rest of its
    count, and nowhere else."""
    seen = 0
    for match in choices(3, range(4)):
        rnd = match.round
        owner = rnd.turn
        tile = rnd.turned_up
        assert owner is not None and tile is not None
        assert rnd.history[-1] == TurnedUp(owner, tile)
        for seat in (*range(3), None):
            known = knowledge(match.view(seat))
            if known.seat == owner:
                continue
            sampler = Sampler(known)
            rng = random.Random(seen)
            for world in (sampler.sample(rng) for _ in range(8)):
                assert world.hands[owner] & tile.bit
                assert world.hands[owner].bit_count() == rnd.hand_mask(owner).bit_count()
                assert tile.index not in world.bazaar
        seen += 1
    assert seen


@pytest.mark.parametrize("level", list(Level))
def test_every_level_lays_the_tile_on_an_end_and_never_calls_it_going_out(level: Level) -> None:
    """At the choice the legal moves are the tile's two plays; a face-down hand keeps more
    tiles than that one, so no level tells the move as going out, and the medium and
    hard levels (the hint's) tell it by what the ends leave the others."""
    told: set[str] = set()
    for n, match in enumerate(choices(3, range(3))):
        seat = match.turn
        assert seat is not None
        view = match.view(seat)
        assert view.round.hand == () and len(view.round.legal) == 2
        decision = computer(level, seed=n).decide(view)
        assert isinstance(decision.action, Play) and decision.action in view.round.legal
        assert decision.action.tile is match.round.turned_up
        assert decision.reason != "go_out"
        told.add(decision.reason)
    assert told
    if level is not Level.EASY:
        assert told <= ENDS_REASONS
