"""Втемную (section V, `domino.children`): face-down stacks turned up one a turn (`Flip`),
the tile that fits nowhere going under the stack, the last three turned up, the fish
won by its fisherman, and whole matches replayed from their logs with nothing of a
face-down stack in any view."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domino.actions import END_TURN, FLIP, Flip, Flipped, Play, Played, TurnedUp, parse_action
from domino.ai import computer
from domino.ai.knowledge import knowledge
from domino.ai.sampling import Sampler
from domino.children import DARK, score_dark_round
from domino.deal import Deal
from domino.errors import DominoError, IllegalMove
from domino.geometry import End
from domino.layout import new_layout
from domino.match import Match
from domino.players import GreedyPlayer
from domino.round import FACE_UP, Round
from domino.rules import CLASSIC, LayoutKind, RoundEnd, Ruleset
from domino.tiles import ALL_TILES, Tile, tile
from domino.variants import find_variant
from domino.views import Account, OutcomeKind, RoundOutcome
from tests.domino.test_bergen import finished


def stack(*pairs: tuple[int, int]) -> tuple[Tile, ...]:
    return tuple(tile(a, b) for a, b in pairs)


def rest(*stacks: tuple[Tile, ...]) -> tuple[Tile, ...]:
    used = {t for s in stacks for t in s}
    return tuple(t for t in ALL_TILES if t not in used)


SEAT0 = stack((3, 4), (0, 0), (3, 6), (1, 1), (2, 2), (5, 5), (0, 1))
SEAT1 = stack((0, 2), (4, 6), (1, 2), (1, 3), (1, 4), (1, 5), (1, 6))


LEVELS = ["easy", "medium", "hard"]


CHOOSING = DARK.with_options(flip_choice=True)
"""Втемную where a tile turned up that fits both ends waits for its owner's choice."""


def two_stacks(ruleset: Ruleset = CHOOSING) -> Round:
    """Two players, 7 tiles each, the stacks top first as above; the bazaar is the other
    14 tiles in index order (0-3 drawn first, then 0-4, 0-5 ...); seat 0 leads."""
    hands = tuple(tuple(sorted(s, key=lambda t: t.index)) for s in (SEAT0, SEAT1))
    deal = Deal(hands, rest(SEAT0, SEAT1), stacks=(SEAT0, SEAT1))
    return Round.from_deal(ruleset, 2, deal, leader=0)


def test_the_deal_gives_7_or_5_face_down_tiles_and_a_bazaar_and_the_leader_is_drawn() -> None:
    for players, size in ((2, 7), (3, 5), (4, 5)):
        leaders = set()
        for seed in range(12):
            match = Match.new(DARK, players, seed)
            rnd = match.round
            assert all(len(rnd.stack(s)) == size for s in range(players))
            assert rnd.bazaar_size == 28 - players * size
            assert all(set(rnd.stack(s)) == set(rnd.hand(s)) for s in range(players))
            leaders.add(rnd.turn)
        assert len(leaders) > 1  # drawn by lot (F-1's opening), not always seat 0


def test_a_face_down_owner_sees_no_tile_of_its_own_and_may_only_turn_one_up() -> None:
    rnd = two_stacks()
    mine = rnd.view(0)
    assert mine.hand == () and mine.drawn == () and mine.face_down == (True, True)
    assert mine.legal == (FLIP,) and rnd.legal_actions() == (FLIP,)
    assert mine.hand_counts == (7, 7)
    assert rnd.view(None).hand == () and rnd.view(1).legal == ()
    with pytest.raises(IllegalMove, match="face down"):
        rnd.apply(Play(tile(3, 4)), 0)
    assert rnd.turn_no == 0  # refused: nothing changed


def test_turns_lay_the_top_tile_where_it_fits_or_put_it_under_the_stack() -> None:
    """1. Seat 0 turns up 3-4: it opens the table (ends 3 and 4).
    2. Seat 1 turns up 0-2: it fits neither 3 nor 4, so it goes under seat 1's stack and
       the bazaar's first tile (0-3) goes face down on top; the turn passes.
    3. Seat 0 turns up 0-0: under its stack, 0-4 on top.
    4. Seat 1 turns up 0-3 (the tile it drew blind): it fits the 3 on the LEFT.
    5. Seat 0 turns up 0-4: it fits the LEFT's 0 and the RIGHT's 4. Turned up, it is
       the player's to lay («выкладывают на поле»): the turn stays while they choose,
       offered both ends and nothing else, and everyone sees the tile turned up. Laid
       on the RIGHT, the ends are 0 and 0."""
    rnd = two_stacks()
    assert rnd.apply(FLIP, 0) == Played(0, tile(3, 4), None)
    assert rnd.layout.open_ends() == ((End.LEFT, 3), (End.RIGHT, 4))
    assert rnd.apply(FLIP, 1) == Flipped(1, tile(0, 2), True)
    assert rnd.stack(1)[0] == tile(0, 3) and rnd.stack(1)[-1] == tile(0, 2)
    assert rnd.hand_mask(1).bit_count() == 8 and rnd.turn == 0
    assert rnd.view(1).drawn == ()  # drawn face down: seen by nobody
    assert rnd.apply(FLIP, 0) == Flipped(0, tile(0, 0), True)
    assert rnd.stack(0)[0] == tile(0, 4)
    assert rnd.apply(FLIP, 1) == Played(1, tile(0, 3), End.LEFT)
    assert rnd.apply(FLIP, 0) == TurnedUp(0, tile(0, 4))
    choice = (Play(tile(0, 4), End.LEFT), Play(tile(0, 4), End.RIGHT))
    assert rnd.turn == 0 and rnd.legal_actions() == choice
    assert rnd.view(0).legal == choice and rnd.view(0).hand == ()
    assert rnd.view(1).turned_up == rnd.view(None).turned_up == tile(0, 4)
    assert rnd.face_down(0) and tile(0, 4) not in rnd.stack(0)
    for refused in (FLIP, Play(tile(0, 0), End.LEFT)):
        with pytest.raises(IllegalMove, match="you turned up 0-4: choose the end"):
            rnd.apply(refused, 0)
    copied = rnd.copy()
    assert copied == rnd and copied.turned_up == tile(0, 4)
    assert rnd.apply(choice[1], 0) == Played(0, tile(0, 4), End.RIGHT)
    assert rnd.layout.open_ends() == ((End.LEFT, 0), (End.RIGHT, 0))
    assert rnd.turned_up is None and rnd.view(1).turned_up is None
    assert rnd.turn == 1 and rnd.bazaar_size == 12
    assert [str(e) for e in rnd.history[1:3]] == [
        "Flipped(seat=1, tile=Tile(0-2), drew=True)",
        "Flipped(seat=0, tile=Tile(0-0), drew=True)",
    ]


def test_without_the_choice_a_tile_that_fits_two_ends_goes_on_the_first() -> None:
    """Without `flip_choice` (every game of Втемную stored before it: its stored ruleset
    has no such option) step 5 above goes LEFT, the first end it fits, and the turn
    passes."""
    stored_before = DARK.with_options(flip_choice=False)
    assert DARK.flip_choice and "flip_choice" not in stored_before.to_dict()
    rnd = two_stacks(stored_before)
    for _ in range(4):
        rnd.apply(FLIP)
    assert rnd.apply(FLIP, 0) == Played(0, tile(0, 4), End.LEFT)
    assert rnd.layout.open_ends() == ((End.LEFT, 4), (End.RIGHT, 4)) and rnd.turn == 1


def test_the_last_stacked_tile_laid_by_choice_turns_the_rest_up() -> None:
    """2-6 and 6-3 on the table (ends 2 and 3); seat 0's stack of 4 has 2-3 on top, which
    fits both ends. Laid on the LEFT by its owner's choice (ends 3 and 3), 3 tiles are
    left and are turned up for seat 0; the turn passes. A computer's whole turn
    (`Match.take_turn`'s loop) chooses the end too, as does a stored position
    (`Round.from_position`'s `turned_up`)."""
    stack0 = stack((2, 3), (5, 6), (0, 0), (1, 1))
    stack1 = stack((4, 4), (4, 5), (2, 4), (1, 4), (0, 4))
    layout = new_layout(LayoutKind.LINE)
    layout.place(tile(2, 6), None)
    layout.place(tile(3, 6), End.RIGHT)
    hands = [sum(t.bit for t in s) for s in (stack0, stack1)]
    bazaar = rest(stack0, stack1, (tile(2, 6), tile(3, 6)))
    rnd = Round.from_position(CHOOSING, 2, hands, bazaar, layout, 0, stacks=[stack0, stack1])
    assert rnd.apply(FLIP, 0) == TurnedUp(0, tile(2, 3))
    resumed = Round.from_position(
        CHOOSING, 2, hands, bazaar, layout, 0, stacks=[stack0[1:], stack1], turned_up=tile(2, 3)
    )
    assert resumed.legal_actions() == rnd.legal_actions()
    assert rnd.apply(Play(tile(2, 3), End.LEFT), 0) == Played(0, tile(2, 3), End.LEFT)
    assert not rnd.face_down(0) and rnd.view(0).hand == (tile(0, 0), tile(1, 1), tile(5, 6))
    assert rnd.turn == 1 and not rnd.mid_turn


@pytest.mark.parametrize("level", LEVELS)
def test_a_computer_turn_lays_the_tile_it_turned_up_on_an_end_it_chooses(level: str) -> None:
    """Whole matches in which some turned-up tile fitted two ends: the turn
    (`Match.take_turn`) ends only once it is laid."""
    seen = 0
    for seed in range(3):
        match = Match.new(CHOOSING, 2, seed)
        players = [computer(level, seed=seat) for seat in range(2)]
        while not match.over:
            seat = match.turn
            assert seat is not None
            before = len(match.log)
            match.take_turn(seat, players[seat])
            turn = match.log[before:]
            seen += len(turn) > 1 and turn[0].action is FLIP  # turned up, then laid
            assert match.round.turned_up is None
    assert seen


def position(stack0: tuple[Tile, ...], stack1: tuple[Tile, ...], table: Tile) -> Round:
    """Seat 0 to move with `stack0`, seat 1 holding `stack1`, `table` alone on the table
    (low half LEFT) and the rest in the bazaar, both stacks face down."""
    layout = new_layout(LayoutKind.LINE)
    layout.place(table, None)
    hands = [sum(t.bit for t in s) for s in (stack0, stack1)]
    bazaar = rest(stack0, stack1, (table,))
    return Round.from_position(DARK, 2, hands, bazaar, layout, 0, stacks=[stack0, stack1])


def test_three_tiles_left_are_turned_up_for_their_owner_who_then_lays_several() -> None:
    """Seat 0's stack of 4 is 2-3 on top. On 2-6 it goes LEFT and 3 are left, so they are
    turned up: seat 0 sees 0-0, 1-1 and 5-6 (the others still see a count). The turn
    passes all the same, though 5-6 fits. On its next turn seat 0 chooses: it lays 5-6,
    and as 0-0 and 1-1 fit neither 3 nor 5, the turn passes by itself (as in Блиц)."""
    stack0 = stack((2, 3), (5, 6), (0, 0), (1, 1))
    stack1 = stack((4, 4), (4, 5), (2, 4), (1, 4), (0, 4))
    rnd = position(stack0, stack1, tile(2, 6))
    assert rnd.apply(FLIP, 0) == Played(0, tile(2, 3), End.LEFT)
    assert not rnd.face_down(0) and rnd.stack(0) == ()
    assert rnd.view(0).hand == (tile(0, 0), tile(1, 1), tile(5, 6))
    assert rnd.view(0).face_down == (False, True) and rnd.view(1).hand == ()
    assert rnd.turn == 1 and not rnd.mid_turn
    assert len(rnd.view(0).hand) == FACE_UP
    rnd.apply(FLIP, 1)  # 4-4 fits nowhere (ends 3 and 6): under the stack, a draw
    assert rnd.turn == 0
    assert FLIP not in rnd.legal_actions()
    with pytest.raises(IllegalMove, match="face up"):
        rnd.apply(FLIP, 0)
    rnd.apply(Play(tile(5, 6), End.RIGHT), 0)
    assert rnd.turn == 1 and not rnd.mid_turn


def test_flip_is_refused_in_the_other_games_and_reads_back_as_f() -> None:
    rnd = Round.start(CLASSIC, 2, random.Random(1))
    with pytest.raises(IllegalMove, match="only in Втемную"):
        rnd.apply(FLIP)
    assert str(FLIP) == "f" and parse_action("f") is FLIP and isinstance(FLIP, Flip)


def test_a_deal_whose_stacks_are_not_its_hands_is_refused() -> None:
    hands = tuple(tuple(sorted(s, key=lambda t: t.index)) for s in (SEAT0, SEAT1))
    deal = Deal(hands, rest(SEAT0, SEAT1), stacks=(SEAT1, SEAT0))
    with pytest.raises(DominoError, match="stack"):
        Round.from_deal(DARK, 2, deal, leader=0)


def test_the_fisherman_wins_the_fish_and_writes_the_others_pips() -> None:
    """The source: the one who made the fish wins. Seat 1's tile blocked the table;
    seat 0 holds fewer pips (2), but seat 1 writes 2 + 7 = 9 and opens the next round."""
    outcome = RoundOutcome(OutcomeKind.FISH, 1, (2, 9, 7))
    sides = ((0,), (1,), (2,))
    before = (Account(opened=True),) * 3
    result = score_dark_round(RoundEnd(DARK, 1, outcome, before, 0, (2, 9, 7), sides))
    assert result.points == (0, 9, 0)
    dark = find_variant("dark")
    assert dark.next_leader(DARK, outcome, None) == 1
    went_out = RoundOutcome(OutcomeKind.WENT_OUT, 2, (4, 9, 0))
    end = RoundEnd(DARK, 1, went_out, before, 0, (4, 9, 0), sides)
    assert score_dark_round(end).points == (0, 0, 13)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([2, 3, 4]))
def test_whole_matches_replay_and_no_view_shows_a_face_down_tile(seed: int, players: int) -> None:
    """A match of greedy and random players ends at the target and replays from its log
    (`Flip` as `f`). At every step: a face-down seat's only move is `FLIP`, no view
    holds a tile of a face-down stack, a turned-up hand has at most `FACE_UP` tiles
    plus what its owner drew since, and what each seat knows (`knowledge`) leaves
    worlds to sample, the real one among them."""
    match = finished("dark", seed, players)
    assert max(a.recorded for a in match.scores) >= match.ruleset.target
    replayed = Match.new(match.ruleset, players, seed)
    rng = random.Random(seed)
    flips = 0
    for entry in match.log:
        rnd = replayed.round
        for seat in range(players):
            view = replayed.view(seat)
            if rnd.face_down(seat):
                assert view.round.hand == () and view.round.face_down[seat]
                hidden = set(rnd.stack(seat))
                for other in range(players):
                    assert not hidden & set(replayed.view(other).round.hand)
            if seat == rnd.turn:
                Sampler(knowledge(view)).sample(rng)
        if rnd.face_down(entry.seat) and rnd.turned_up is None:
            assert replayed.view(entry.seat).round.legal == (FLIP,)
        elif rnd.turned_up is not None:  # turned up, fitting two ends: its owner lays it
            assert {type(a) for a in replayed.view(entry.seat).round.legal} == {Play}
        replayed.apply(parse_action(str(entry.action)), entry.seat)
        flips += entry.action is FLIP
    assert replayed.results == match.results and replayed.scores == match.scores
    assert flips > 0


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_every_computer_level_plays_whole_matches(level: str) -> None:
    """The hard level searches worlds whose face-down stacks it shuffles (nobody knows
    their order); easy and medium turn up and lay as the rules let them."""
    match = Match.new(DARK, 3, 11)
    players = [computer(level, seed=seat) for seat in range(3)]
    while not match.over:
        seat = match.turn
        assert seat is not None
        match.take_turn(seat, players[seat])
    assert match.winners


def test_a_turn_after_turning_up_may_end_by_choice() -> None:
    """Once turned up the hand plays as in Блиц: after a tile that leaves another one
    fitting, `END_TURN` is offered."""
    stack0 = stack((2, 3), (3, 5), (5, 5), (1, 1))
    stack1 = stack((4, 4), (4, 5), (2, 4), (1, 4), (0, 4))
    rnd = position(stack0, stack1, tile(2, 6))
    rnd.apply(FLIP, 0)  # 2-3 LEFT: ends 3 and 6, 3-5, 5-5, 1-1 turned up
    rnd.apply(FLIP, 1)  # 4-4 under the stack
    rnd.apply(Play(tile(3, 5), End.LEFT), 0)  # ends 5 and 6: 5-5 still fits
    assert rnd.turn == 0 and rnd.mid_turn and END_TURN in rnd.legal_actions()


def test_a_match_stored_while_a_turned_up_tile_waits_reads_back_waiting() -> None:
    """The choice is an action of the log like any play: a match stored between the
    `Flip` and the `Play` replays to the same waiting turn and plays on to its end."""
    waited = 0
    for seed in range(6):
        match = Match.new(CHOOSING, 2, seed)
        player = GreedyPlayer()
        while not match.over:
            if match.round.turned_up is not None:
                back = Match.from_json(match.to_json())
                assert back == match and back.round.turned_up == match.round.turned_up
                assert back.view(match.turn).round.legal == match.view(match.turn).round.legal
                waited += 1
            match.apply(player.choose(match.view(match.turn)))
        assert Match.from_json(match.to_json()) == match
    assert waited
