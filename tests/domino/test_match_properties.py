"""Invariants of whole seeded matches (hypothesis): Козёл and Классика, 2-4 players, teams."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from domino.match import Match
from domino.players import GreedyPlayer, Player, RandomPlayer
from domino.rules import CLASSIC, KOZEL, FishMode, Ruleset
from domino.scoring import match_deciders, score_round
from domino.tiles import FULL_SET_MASK, SET_SIZE

LEAK_CHECK_EVERY = 9  # actions between the (costly) full-text leak checks


@st.composite
def setups(draw: st.DrawFn) -> tuple[Ruleset, int, int, tuple[str, ...]]:
    base = draw(st.sampled_from([KOZEL, CLASSIC]))
    players = draw(st.integers(2, 4))
    options: dict[str, object] = {"teams": players == 4 and draw(st.booleans())}
    if base is KOZEL:
        options["fish"] = draw(st.sampled_from(list(FishMode)))
        options["open_threshold"] = draw(st.sampled_from([0, 13, 25]))
        options["target"] = draw(st.sampled_from([41, 101]))
    else:
        options["held_double_six"] = draw(st.sampled_from([0, 50]))
        options["target"] = draw(st.sampled_from([60, 100]))
    kinds = tuple(draw(st.sampled_from(["greedy", "random"])) for _ in range(players))
    return base.with_options(**options), players, draw(st.integers(0, 2**64 - 1)), kinds


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


def check_views(match: Match, *, full: bool) -> None:
    rnd = match.round
    hidden_by_seat = {seat: set(rnd.hand(seat)) for seat in range(match.players)}
    bazaar = set(rnd.deal.bazaar[len(rnd.deal.bazaar) - rnd.bazaar_size :])
    for seat in [None, *range(match.players)]:
        view = match.view(seat)
        assert view.round.hand == (rnd.hand(seat) if seat is not None else ())
        assert view.round.hand_counts == tuple(len(hidden_by_seat[s]) for s in hidden_by_seat)
        assert set(view.round.drawn) <= set(view.round.hand) | {
            p.tile for p in view.round.layout.placements
        }
        assert (view.round.legal != ()) == (seat is not None and seat == match.turn)
        if full:
            text = repr(view)
            # The check below can see a tile: the viewer's own tiles are there.
            assert all(repr(t) in text for t in view.round.hand)
            secret = set(bazaar)
            for other, tiles in hidden_by_seat.items():
                if other != seat:
                    secret |= tiles
            for t in secret:
                assert repr(t) not in text, f"{t} of another hand leaks into seat {seat}'s view"


@settings(max_examples=120, deadline=None)
@given(setups())
def test_whole_match_invariants(setup: tuple[Ruleset, int, int, tuple[str, ...]]) -> None:
    ruleset, players, seed, kinds = setup
    table = seat_players(kinds, seed)
    match = Match.new(ruleset, players, seed)
    steps = 0
    while not match.over:
        seat = match.turn
        assert seat is not None
        before, eggs, results = match.scores, match.eggs, len(match.results)
        round_no = match.round_no
        match.apply(table[seat].choose(match.round.view(seat)), seat)
        steps += 1
        check_tiles_accounted_for(match)
        if len(match.results) == results:
            # Points change only at the end of a round.
            assert (match.scores, match.eggs, match.round_no) == (before, eggs, round_no)
        else:
            ended = match.finished_round
            assert ended is not None and ended.outcome is not None
            hands = tuple(ended.hand(s) for s in range(players))
            expected = score_round(ruleset, round_no, ended.outcome, before, eggs, hands)
            assert match.results[-1] == expected
            assert (match.scores, match.eggs) == (expected.after, expected.eggs_after)
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
        match.apply(table[seat].choose(match.round.view(seat)), seat)
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
