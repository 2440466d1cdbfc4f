"""Блиц, Крест and Шестёрка (section V, `domino.children`): turns of several tiles
(`EndTurn`), the deals, the cross, halves adding up to 6, and whole matches replayed
from their logs."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domino.actions import (
    DRAW,
    END_TURN,
    KNOCK,
    Ended,
    Knocked,
    Play,
    Played,
    parse_action,
)
from domino.ai.heuristic import MediumPlayer
from domino.children import BLITZ, CROSS, SHESTERKA
from domino.deal import Deal
from domino.errors import IllegalMove
from domino.geometry import End, Placement
from domino.layout import SumSixLayout, layout_of
from domino.match import Match
from domino.players import GreedyPlayer
from domino.round import Round
from domino.rules import LayoutKind, RoundEnd, Ruleset
from domino.scoring import next_leader
from domino.simulate import format_report, simulate
from domino.tiles import ALL_TILES, Tile, tile
from domino.variants import find_variant
from domino.views import OutcomeKind
from tests.domino.test_bergen import finished


def hand(*pairs: tuple[int, int]) -> tuple[Tile, ...]:
    return tuple(sorted((tile(a, b) for a, b in pairs), key=lambda t: t.index))


def rest(*hands: tuple[Tile, ...]) -> tuple[Tile, ...]:
    used = {t for h in hands for t in h}
    return tuple(t for t in ALL_TILES if t not in used)


def blitz_two(seat0: tuple[Tile, ...]) -> Round:
    """Блиц for two: seat 0 holds `seat0`, seat 1 every other tile (14 each)."""
    other = rest(seat0)
    assert len(seat0) == len(other) == 14
    return Round.from_deal(BLITZ, 2, Deal((seat0, other), ()))


SEAT0 = hand(
    (0, 0), (0, 1), (1, 1), (1, 2), (2, 2), (2, 3), (3, 3),
    (4, 5), (4, 6), (5, 5), (5, 6), (6, 6), (0, 5), (0, 6),
)  # fmt: skip


@pytest.mark.parametrize(("players", "size", "left"), [(2, 14, 0), (3, 9, 1), (4, 7, 0)])
def test_blitz_shares_out_every_tile_equally_with_no_bazaar_to_draw(
    players: int, size: int, left: int
) -> None:
    rnd = Round.start(BLITZ, players, random.Random(5))
    assert all(len(rnd.hand(seat)) == size for seat in range(players))
    assert rnd.bazaar_size == left and rnd.drawable == 0


def test_the_lowest_double_opens_the_first_round_and_its_layer_may_go_on() -> None:
    """0-0 opens (B-1's order, `domino.children`); 0-1 and 0-5, 0-6 still fit, so the
    turn stays with seat 0, who may end it only now that a tile lies."""
    rnd = blitz_two(SEAT0)
    assert rnd.turn == 0 and rnd.opening_tile == tile(0, 0)
    assert END_TURN not in rnd.legal_actions()
    with pytest.raises(IllegalMove, match="after a tile at least"):
        rnd.apply(END_TURN, 0)
    rnd.apply(Play(tile(0, 0)), 0)
    assert rnd.turn == 0 and rnd.mid_turn
    legal = rnd.legal_actions()
    assert legal[-1] is END_TURN
    assert {a.tile for a in legal if isinstance(a, Play)} == {tile(0, 1), tile(0, 5), tile(0, 6)}


def test_a_turn_lays_tiles_one_after_another_each_on_the_table_as_it_stands() -> None:
    """0-0, then 0-1 on the left (ends 1 and 0), then 1-1 on the 1, then 1-2: each
    tile fits the table the last one left; the mover then ends the turn («Сходить»)."""
    rnd = blitz_two(SEAT0)
    for play in (
        Play(tile(0, 0)),
        Play(tile(0, 1), End.LEFT),
        Play(tile(1, 1), End.LEFT),
        Play(tile(1, 2), End.LEFT),
    ):
        assert rnd.turn == 0
        rnd.apply(play, 0)
    assert rnd.mid_turn and len(rnd.hand(0)) == 10
    event = rnd.apply(END_TURN, 0)
    assert event == Ended(0) and rnd.turn == 1 and not rnd.mid_turn
    assert [type(e) for e in rnd.history] == [Played] * 4 + [Ended]


def test_the_turn_passes_by_itself_once_nothing_more_fits() -> None:
    """Seat 0 lays 0-0, 0-1 and 0-5 (ends 1 and 5), runs the left up to 3-3 and the right
    through 4-5, 4-6, 6-6, 5-6 and 5-5: ends 3 and 5, and its last tile 0-6 fits
    neither, so the turn goes to seat 1 without an «Сходить» (no `Ended`)."""
    rnd = blitz_two(SEAT0)
    plays = [
        Play(tile(0, 0)),
        Play(tile(0, 1), End.LEFT),
        Play(tile(0, 5), End.RIGHT),
        Play(tile(1, 1), End.LEFT),
        Play(tile(1, 2), End.LEFT),
        Play(tile(2, 2), End.LEFT),
        Play(tile(2, 3), End.LEFT),
        Play(tile(3, 3), End.LEFT),
        Play(tile(4, 5), End.RIGHT),
        Play(tile(4, 6), End.RIGHT),
        Play(tile(6, 6), End.RIGHT),
        Play(tile(5, 6), End.RIGHT),
        Play(tile(5, 5), End.RIGHT),
    ]
    for play in plays:
        assert rnd.turn == 0, play
        rnd.apply(play, 0)
    # Ends 3 and 5; seat 0 holds only 0-6: nothing fits, the turn went to seat 1.
    assert rnd.hand(0) == (tile(0, 6),)
    assert rnd.turn == 1 and not rnd.mid_turn
    assert not any(isinstance(e, Ended) for e in rnd.history)


def test_mid_turn_a_draw_or_a_knock_is_refused_with_the_reason() -> None:
    rnd = blitz_two(SEAT0)
    rnd.apply(Play(tile(0, 0)), 0)
    for action in (DRAW, KNOCK):
        with pytest.raises(IllegalMove, match="lay another that fits or end the turn"):
            rnd.apply(action, 0)
    assert not rnd.is_legal(KNOCK, 0) and rnd.is_legal(END_TURN, 0)


def test_one_tile_games_refuse_ending_a_turn() -> None:
    match = Match.new(find_variant("kozel").ruleset, 2, 3)
    seat = match.turn
    with pytest.raises(IllegalMove, match="one tile per turn"):
        match.apply(END_TURN, seat)


def test_going_out_in_the_middle_of_a_turn_ends_the_round_and_scores_as_klassika() -> None:
    """Seat 0 lays its whole hand in its first turn, a chain from 0-0 to 6-6 and then
    0-6 on the 6: it went out (C-8 a) and writes seat 1's pips (T-4)."""
    seat0 = hand(
        (0, 0), (0, 1), (1, 1), (1, 2), (2, 2), (2, 3), (3, 3),
        (3, 4), (4, 4), (4, 5), (5, 5), (5, 6), (6, 6), (0, 6),
    )  # fmt: skip
    rnd = blitz_two(seat0)
    rnd.apply(Play(tile(0, 0)), 0)
    chain = [(0, 1), (1, 1), (1, 2), (2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (4, 5), (5, 5)]
    for a, b in [*chain, (5, 6), (6, 6), (0, 6)]:
        assert rnd.turn == 0 and rnd.outcome is None
        rnd.apply(Play(tile(a, b), End.LEFT), 0)
    assert rnd.outcome is not None and rnd.outcome.kind is OutcomeKind.WENT_OUT
    assert rnd.outcome.seat == 0
    pips = sum(t.value for t in rnd.hand(1))
    game = find_variant("blitz")
    before = Match.new(BLITZ, 2, 0).scores
    result = game.score_round(
        RoundEnd(BLITZ, 1, rnd.outcome, before, 0, rnd.outcome.hand_values, ((0,), (1,)))
    )
    assert result.points == (pips, 0)


def test_three_play_blitz_with_one_tile_face_down_knock_when_nothing_fits() -> None:
    rnd = Round.start(BLITZ, 3, random.Random(11))
    assert rnd.bazaar_size == 1 and rnd.drawable == 0
    rng = random.Random(2)
    knocks = 0
    while rnd.outcome is None:
        legal = rnd.legal_actions()
        assert DRAW not in legal
        action = legal[0] if legal[0] is KNOCK else rng.choice(legal)
        knocks += action is KNOCK
        rnd.apply(action)
    assert all(not isinstance(e, Played) or e.tile != rnd.deal.bazaar[0] for e in rnd.history)


def test_the_cross_grows_from_its_opening_double_on_four_sides_with_no_bazaar() -> None:
    """Крест (seeds/002): the lowest double opens and is the cross's centre; once its
    left and right are taken it opens up and down (F-2's spinner); with nothing that
    fits the mover knocks: there is no bazaar to draw from."""
    rng = random.Random(4)
    for seed in range(40):
        match = Match.new(CROSS, 2, seed)
        rnd = match.round
        first = rnd.opening_tile
        assert first is not None and first.is_double
        seen_four = knocked = False
        while match.round_no == 1 and not match.over:
            seat = match.turn
            assert seat is not None
            legal = match.view(seat).round.legal
            assert DRAW not in legal
            action = legal[0] if legal[0] is KNOCK else rng.choice(legal)
            knocked |= action is KNOCK
            match.apply(action, seat)
            if match.round_no != 1:
                break
            seen_four |= len(match.round.layout.open_ends()) == 4
        assert match.ruleset.layout.value == "first_double"
        if seen_four and knocked:
            return
    raise AssertionError("no cross with four open ends and a knock")


@pytest.mark.parametrize(("players", "size", "left"), [(2, 14, 0), (3, 9, 1), (4, 7, 0)])
def test_cross_shares_out_every_tile_equally_and_puts_the_rest_away(
    players: int, size: int, left: int
) -> None:
    """«Перед началом игры фишки делят поровну между игроками, остальные убирают»: Блиц's
    deal; at three the tile left over is never drawn."""
    rnd = Round.start(CROSS, players, random.Random(5))
    assert all(len(rnd.hand(seat)) == size for seat in range(players))
    assert rnd.bazaar_size == left and rnd.drawable == 0


def test_every_cross_round_opens_with_the_youngest_double_the_centre_of_its_cross() -> None:
    """«Игру начинают дублем»: not only the first round. Seat 0 wins round 1 of seed 0
    (the winner opened the next round with any tile before); round 2 is opened by seat 1,
    who holds `0-0`, with it, and that double is the cross's centre. The match is stored
    and read back as it stands before round 2's first tile and in the middle of round 2."""
    match = Match.new(CROSS.with_options(target=500), 2, 0)
    match.autoplay(GreedyPlayer(), lambda seat: True)
    assert match.round_no == 2 and match.results[0].outcome.seat == 0
    rnd = match.round
    assert rnd.turn == 1 and rnd.opening_tile == tile(0, 0)
    opening = rnd.opening_tile
    assert opening is not None and opening.is_double
    holders = [seat for seat in range(2) if opening in rnd.hand(seat)]
    assert holders == [rnd.turn]
    youngest = min((t for s in range(2) for t in rnd.hand(s) if t.is_double), key=lambda t: t.low)
    assert opening == youngest
    assert match.legal_actions() == (Play(opening),)
    assert Match.from_json(match.to_json()) == match
    match.apply(Play(opening), rnd.turn)
    assert match.round.layout.view().centre.tile == opening
    assert Match.from_json(match.to_json()) == match


def test_a_cross_match_stored_before_keeps_its_deal_and_later_openings() -> None:
    """A Крест match stored before its deal was Блиц's (7 tiles each, a bazaar, a later
    round opened by its winner with any tile) reads back under those rules."""
    stored = dict(CROSS.to_dict(), hand_sizes={"2": 7, "3": 7, "4": 7}, bazaar_reserve=0)
    stored["redeal_doubles"] = 5
    assert stored.pop("opening_every_round") is True
    old = Ruleset.from_dict(stored)
    assert not old.opening_every_round and old.to_dict() == stored
    match = Match.new(old, 2, 3)
    assert len(match.round.hand(0)) == 7 and match.round.bazaar_size == 14
    match.autoplay(GreedyPlayer(), lambda seat: True)
    assert match.round_no == 2 and not match.over and match.round.opening_tile is None
    assert match.round.turn == next_leader(old, match.results[0].outcome)
    assert Match.from_json(match.to_json()) == match


@pytest.mark.parametrize(
    ("ruleset", "players", "size"),
    [(SHESTERKA, 2, 7), (SHESTERKA, 3, 5), (SHESTERKA, 4, 5), (SHESTERKA, 5, 4)],
)
def test_shesterka_deals_as_traditional_dominoes(ruleset: Ruleset, players: int, size: int) -> None:
    """«Если игроков двое, они берут по 7 фишек, трое или четверо – по 5, пятеро – по 4»."""
    rnd = Round.start(ruleset, players, random.Random(2))
    assert all(len(rnd.hand(seat)) == size for seat in range(players))
    assert rnd.bazaar_size == 28 - players * size


def test_end_turn_is_stored_and_read_back_as_e() -> None:
    assert str(END_TURN) == "e" and parse_action("e") is END_TURN


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["blitz", "cross"]), st.integers(0, 2**32), st.sampled_from([2, 3, 4]))
def test_whole_matches_replay_from_their_logs_and_turns_hold_several_tiles(
    key: str, seed: int, players: int
) -> None:
    """A match of greedy and random players ends at the target; its log (`EndTurn` as
    `e`) replays to the same match; a turn never mixes seats, and a seat keeps the turn
    after a play only while one of its tiles fits."""
    match = finished(key, seed, players)
    assert max(a.recorded for a in match.scores) >= match.ruleset.target
    replayed = Match.new(match.ruleset, players, seed)
    several = 0
    for entry in match.log:
        action = parse_action(str(entry.action))
        mid_turn = replayed.round.mid_turn
        assert (END_TURN in replayed.view(entry.seat).round.legal) == mid_turn
        replayed.apply(action, entry.seat)
        several += mid_turn and isinstance(action, Play)
        if isinstance(action, Play) and replayed.round_no == entry.round_no and not replayed.over:
            # The turn stays after a play exactly while a tile of the mover's fits.
            rnd = replayed.round
            fits = bool(rnd.hand_mask(entry.seat) & rnd.layout.fit_mask)
            assert (rnd.turn == entry.seat) == fits and rnd.mid_turn == fits
    assert replayed.results == match.results and replayed.scores == match.scores
    assert several > 0  # some turn laid more than one tile


def test_greedy_players_lay_every_tile_they_can_before_the_turn_passes() -> None:
    """`Round.greedy_playout` ranks `EndTurn` below any play: a greedy turn ends only
    when nothing more fits, so no `Ended` is ever in its history."""
    for seed in range(20):
        rnd = Round.start(BLITZ, 4, random.Random(seed))
        rnd.greedy_playout()
        assert not any(isinstance(e, Ended) for e in rnd.history)
        assert any(isinstance(e, Knocked) for e in rnd.history) or rnd.outcome is not None


def test_simulate_counts_the_tiles_of_each_turn() -> None:
    """`python -m domino simulate --variant blitz`: the tiles per turn, the most in one
    turn and the turns ended by choice; greedy players lay all that fits, so none."""
    report = simulate(BLITZ, 2, 5, 7, ("greedy",))
    assert report.laying_turns > 0 and report.turn_tiles >= report.laying_turns
    assert 1 < report.most_in_a_turn <= 14 and report.ended_turns == 0
    mixed = simulate(CROSS, 3, 5, 7, ("random",))
    assert mixed.ended_turns > 0
    assert "tiles per turn: " in format_report(mixed)
    assert "tiles per turn" not in format_report(simulate(find_variant("kozel").ruleset, 2, 1, 7))


def test_in_shesterka_the_touching_halves_add_up_to_six() -> None:
    """Worked by hand: 0-0 opens (ends 0, 0): only a tile with a 6 fits, offered on LEFT
    alone (equal ends); 6-2 goes with its 6 inward and the end shows 2; then a 4 fits
    there (4-1: the end shows 1) and a 6 on the right; 3-3 fits an end showing 3."""
    layout = SumSixLayout()
    layout.place(tile(0, 0), None)
    assert layout.ends_for(tile(2, 6)) == (End.LEFT,)
    assert layout.ends_for(tile(0, 1)) == ()
    placed = layout.place(tile(2, 6), End.LEFT)
    assert (placed.inner, placed.outer) == (6, 2)
    assert layout.open_ends() == ((End.LEFT, 2), (End.RIGHT, 0))
    assert layout.ends_for(tile(1, 4)) == (End.LEFT,)
    assert layout.ends_for(tile(4, 6)) == (End.LEFT, End.RIGHT)
    layout.place(tile(1, 4), End.LEFT)
    layout.place(tile(3, 6), End.RIGHT)
    assert layout.open_ends() == ((End.LEFT, 1), (End.RIGHT, 3))
    assert layout.ends_for(tile(3, 3)) == (End.RIGHT,) and layout.ends_for(tile(5, 5)) == (
        End.LEFT,
    )
    with pytest.raises(IllegalMove):
        layout.place(tile(1, 1), End.LEFT)
    assert layout_of(LayoutKind.SUM_SIX, layout.placements) == layout


def test_a_shesterka_round_offers_only_the_tiles_that_make_six() -> None:
    """Each play the round offers carries `6 - pip` of its end; a tile with only the
    equal half is refused (C-4's match is not Шестёрка's)."""
    for seed in range(30):
        match = Match.new(SHESTERKA, 2, seed)
        seat = match.turn
        assert seat is not None and match.round.opening_tile is not None
        match.apply(Play(match.round.opening_tile), seat)
        rnd = match.round
        pips = dict(rnd.layout.open_ends())
        for action in rnd.legal_actions():
            if isinstance(action, Play):
                assert action.end is not None and action.tile.has(6 - pips[action.end])
        mover = rnd.turn
        assert mover is not None
        equal = [
            t for t in rnd.hand(mover) if t.has(pips[End.LEFT]) and not t.has(6 - pips[End.LEFT])
        ]
        if equal and pips[End.LEFT] != 3 and pips[End.LEFT] == pips[End.RIGHT]:
            with pytest.raises(IllegalMove):
                rnd.apply(Play(equal[0], End.LEFT), mover)
            return
    raise AssertionError("no deal gave a tile with the equal half to refuse")


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([2, 3, 4]))
def test_whole_shesterka_matches_keep_every_touching_pair_at_six(seed: int, players: int) -> None:
    match = finished("shesterka", seed, players)
    assert max(a.recorded for a in match.scores) >= match.ruleset.target
    replayed = Match.new(SHESTERKA, players, seed)
    for entry in match.log:
        replayed.apply(entry.action, entry.seat)
        if replayed.round_no == entry.round_no and isinstance(entry.action, Play):
            placements = replayed.round.layout.placements
            last = placements[-1]
            if last.end is not None:
                arm = [p for p in placements if p.end is last.end]
                before = arm[-2].outer if len(arm) > 1 else _centre_side(placements[0], last.end)
                assert before + last.inner == 6, (placements, last)
    assert replayed.results == match.results


def _centre_side(centre: Placement, end: End) -> int:
    """The pip of the opening tile facing `end`: low LEFT, high RIGHT (`domino.layout`)."""
    return centre.tile.low if end is End.LEFT else centre.tile.high


def test_medium_lays_every_tile_that_fits_before_its_turn_passes() -> None:
    """The medium level never ends a turn early (its docstring has the ladder's figures);
    the hard level may, after searching."""
    for seed in range(5):
        match = Match.new(BLITZ, 4, seed)
        medium = MediumPlayer(random.Random(seed))
        while match.round_no == 1 and not match.over:
            seat = match.turn
            assert seat is not None
            decision = medium.decide(match.view(seat))
            assert decision.action is not END_TURN
            match.apply(decision.action, seat)


def test_take_turn_plays_a_whole_turn_of_several_tiles() -> None:
    """`Match.take_turn` (what a person whose time ran out gets) lays tiles until the
    turn passes or the round ends, not only the first."""
    for seed in range(10):
        match = Match.new(BLITZ, 2, seed)
        seat = match.turn
        assert seat is not None
        match.take_turn(seat, GreedyPlayer())
        assert match.round_no > 1 or match.over or match.turn != seat
        assert not (match.round_no == 1 and match.round.mid_turn)
