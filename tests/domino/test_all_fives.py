"""All Fives / Muggins and threes and fives (F-1 .. F-6), rule by rule.

The counts in the docstrings are worked by hand from F-3: the outer half of each end
tile, both halves of a double lying across an end, the spinner's both halves while it
is itself an end.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domino.actions import DRAW, KNOCK, Play, Played, parse_action
from domino.all_fives import (
    ALL_FIVES,
    THREES_AND_FIVES,
    end_count,
    end_halves,
    move_points,
    nearest_five,
)
from domino.deal import Deal
from domino.errors import DominoError
from domino.geometry import End
from domino.layout import FirstDoubleLayout, new_layout
from domino.match import Match, round_rng
from domino.players import GreedyPlayer, RandomPlayer
from domino.round import Round
from domino.rules import LayoutKind, Opening, RoundEnd, Ruleset
from domino.scoring import initial_scores, sides_for
from domino.tiles import ALL_TILES, Tile
from domino.variants import AllFives, ThreesAndFives, find_variant
from domino.views import OutcomeKind, RoundOutcome

T = Tile.parse


def laid(*moves: str) -> FirstDoubleLayout:
    """A F-2 table from moves like `5-5` (the first tile) and `5-2R`."""
    layout = FirstDoubleLayout()
    for move in moves:
        layout.place(T(move[:3]), End(move[3]) if len(move) == 4 else None)
    return layout


def count(*moves: str) -> int:
    return end_count(laid(*moves).view())


def hands(*texts: str) -> tuple[tuple[Tile, ...], ...]:
    return tuple(tuple(T(t) for t in text.split()) for text in texts)


def crafted(ruleset, *texts: str, leader: int = 0) -> Round:  # type: ignore[no-untyped-def]
    """A round of `ruleset` from given hands, the rest of the set as the bazaar in order."""
    dealt = hands(*texts)
    used = {t for hand in dealt for t in hand}
    bazaar = tuple(t for t in ALL_TILES if t not in used)
    return Round.from_deal(ruleset, len(dealt), Deal(dealt, bazaar), leader=leader)


# --- the games ----------------------------------------------------------------------------


def test_the_games_are_registered_with_their_options() -> None:
    fives, threes = find_variant("all_fives"), find_variant("threes_and_fives")
    assert isinstance(fives, AllFives) and isinstance(threes, ThreesAndFives)
    assert fives.ruleset is ALL_FIVES and threes.ruleset is THREES_AND_FIVES
    assert fives.scores_in_play and threes.scores_in_play
    assert not find_variant("kozel").scores_in_play
    assert not fives.points_are_bad and not fives.rule_of_13
    assert ALL_FIVES.target == 250 and fives.choices["target"] == (250, 200, 300)  # F-6
    # F-6 by default; the pub's board (61, 121) the lobby's other reading.
    assert THREES_AND_FIVES.target == 250
    assert threes.choices["target"] == (250, 200, 300, 61, 121)
    assert ALL_FIVES.layout is LayoutKind.FIRST_DOUBLE  # F-2
    assert ALL_FIVES.opening is Opening.RANDOM_LEADER  # F-1


def test_f1_two_players_get_seven_tiles_three_or_four_get_five() -> None:
    assert dict(ALL_FIVES.hand_sizes) == {2: 7, 3: 5, 4: 5}
    for players, size in ((2, 7), (3, 5), (4, 5)):
        round_ = Match.new(ALL_FIVES, players, seed=players).round
        assert [len(round_.hand(s)) for s in range(players)] == [size] * players
        assert round_.bazaar_size == 28 - players * size


def test_f1_the_first_leader_is_drawn_by_lot_and_opens_with_any_tile() -> None:
    leaders = set()
    for seed in range(40):
        match = Match.new(ALL_FIVES, 3, seed)
        leader = match.round.leader
        leaders.add(leader)
        assert match.turn == leader
        assert match.round.opening_tile is None
        assert set(match.legal_actions()) == {Play(t, None) for t in match.round.hand(leader)}
        # The lot comes from the seed (C-12): the same seed, the same leader.
        assert Match.new(ALL_FIVES, 3, seed).round.leader == leader
    assert leaders == {0, 1, 2}


def test_f1_a_round_from_a_deal_needs_its_leader_named() -> None:
    with pytest.raises(DominoError, match="drawn by lot"):
        Round.from_deal(ALL_FIVES, 2, Deal(hands("0-0", "0-1"), ALL_TILES[2:]))


def test_f1_the_winner_of_a_round_opens_the_next() -> None:
    game = find_variant("all_fives")
    went_out = RoundOutcome(OutcomeKind.WENT_OUT, 2, (5, 9, 0))
    assert game.next_leader(ALL_FIVES, went_out, None) == 2
    fish = RoundOutcome(OutcomeKind.FISH, 0, (12, 3, 8))
    assert game.next_leader(ALL_FIVES, fish, None) == 1  # the lowest hand wins the fish
    tied = RoundOutcome(OutcomeKind.FISH, 0, (3, 3, 8))
    assert game.next_leader(ALL_FIVES, tied, None) == 0  # a tied fish: the fisherman


# --- F-2: the first double is the spinner -------------------------------------------------


def test_f2_a_double_that_opens_is_the_spinner() -> None:
    layout = laid("5-5")
    assert layout.spinner is not None and layout.spinner.tile == T("5-5")
    assert layout.open_ends() == ((End.LEFT, 5), (End.RIGHT, 5))
    layout.place(T("2-5"), End.RIGHT)
    assert [end for end, _ in layout.open_ends()] == [End.LEFT, End.RIGHT]
    layout.place(T("3-5"), End.LEFT)  # both sides taken: UP and DOWN open (C-10)
    assert layout.open_ends() == ((End.LEFT, 3), (End.RIGHT, 2), (End.UP, 5), (End.DOWN, 5))


def test_f2_the_first_double_played_later_is_an_off_centre_spinner() -> None:
    layout = laid("2-4", "4-4R")
    spinner = layout.spinner
    assert spinner is not None and spinner.tile == T("4-4") and spinner.end is End.RIGHT
    assert [end for end, _ in layout.open_ends()] == [End.LEFT, End.RIGHT]
    layout.place(T("2-2"), End.LEFT)  # a later double is an ordinary one
    assert layout.spinner is spinner
    layout.place(T("1-4"), End.RIGHT)  # a tile beyond the spinner: UP and DOWN open
    assert layout.open_ends() == ((End.LEFT, 2), (End.RIGHT, 1), (End.UP, 4), (End.DOWN, 4))
    layout.place(T("4-6"), End.UP)
    assert dict(layout.open_ends())[End.UP] == 6
    assert layout.kind is LayoutKind.FIRST_DOUBLE and new_layout(layout.kind) == FirstDoubleLayout()
    assert layout.copy() == layout and layout.copy().spinner is spinner


def test_f2_a_line_without_doubles_has_no_spinner() -> None:
    layout = laid("2-4", "4-6R", "1-2L")
    assert layout.spinner is None
    assert [end for end, _ in layout.open_ends()] == [End.LEFT, End.RIGHT]


def test_osel_keeps_its_spinner_only_when_the_round_opens_with_a_double() -> None:
    layout = new_layout(LayoutKind.SPINNER)
    layout.place(T("2-4"), None)
    layout.place(T("4-4"), End.RIGHT)
    assert layout.spinner is None  # C-10 in Осёл: only the opening double spins


# --- F-2's option «Straight»: only the first tile can be the spinner ----------------------

STRAIGHT = ALL_FIVES.with_options(layout=LayoutKind.SPINNER)


def test_f2_straight_is_a_lobby_choice_of_both_games_and_is_stored() -> None:
    for game in (find_variant("all_fives"), find_variant("threes_and_fives")):
        assert game.choices["layout"] == (LayoutKind.FIRST_DOUBLE, LayoutKind.SPINNER)
        straight = game.ruleset.with_options(layout=LayoutKind.SPINNER)
        assert straight.to_dict()["layout"] == "spinner"
        assert Ruleset.from_dict(straight.to_dict()) == straight
    match = Match.new(STRAIGHT, 2, seed=5)
    match.apply(match.legal_actions()[0])
    again = Match.from_json(match.to_json())
    assert again == match and again.ruleset.layout is LayoutKind.SPINNER


def test_f2_straight_a_double_opening_is_the_spinner() -> None:
    """Straight, 5-5 opens: the spinner, 10 (seat 0 scores 10). 2-5 on its right: the
    spinner is still the left end, 10 + 2 = 12 (nothing). 3-5 on its left: only the arms'
    ends, 3 + 2 = 5 (seat 0 scores 5), and UP and DOWN open on the spinner's 5. 0-5 up:
    3 + 2 + 0 = 5 (seat 1 scores 5)."""
    opening = crafted(
        STRAIGHT, "5-5 3-5 0-0 0-1 0-2 0-3 1-1", "2-5 0-5 1-2 1-3 1-4 2-2 2-3", leader=0
    )
    match = Match(STRAIGHT, 2, seed=1, round_=opening)
    counts = []
    for action in ("p5-5", "p2-5R", "p3-5L", "p0-5U"):
        match.apply(parse_action(action))
        counts.append(end_count(match.round.layout.view()))
        if action == "p3-5L":
            layout = match.round.layout.view()
            assert layout.spinner is not None and layout.spinner.tile == T("5-5")
            assert dict(layout.open_ends) == {End.LEFT: 3, End.RIGHT: 2, End.UP: 5, End.DOWN: 5}
    assert counts == [10, 12, 5, 5]
    assert [a.recorded for a in match.scores] == [15, 5]


def straight_or_not(ruleset):  # type: ignore[no-untyped-def]
    """2-4 opens, 4-4 goes on its right, 1-4 beyond the double; seat 1 then holds 4-6 and
    nothing with a 2 or a 1."""
    opening = crafted(
        ruleset, "2-4 1-4 0-0 0-1 0-2 0-3 0-5", "4-4 4-6 3-3 3-5 5-5 5-6 6-6", leader=0
    )
    match = Match(ruleset, 2, seed=1, round_=opening)
    counts = []
    for action in ("p2-4", "p4-4R", "p1-4R"):
        match.apply(parse_action(action))
        counts.append(end_count(match.round.layout.view()))
    return match, counts


def test_f2_straight_a_later_double_counts_while_it_is_an_end_but_never_spins() -> None:
    """Straight, 2-4 opens: 2 + 4 = 6, a plain line for the whole round. 4-4 on the right
    lies across the end: 2 + 8 = 10 (seat 1 scores 10), but it is no spinner. 1-4 beyond
    it: 2 + 1 = 3, and the ends stay 2 and 1, so seat 1's 4-6 fits nowhere: it draws."""
    match, counts = straight_or_not(STRAIGHT)
    assert counts == [6, 10, 3]
    assert [a.recorded for a in match.scores] == [0, 10]
    layout = match.round.layout.view()
    assert layout.spinner is None
    assert layout.open_ends == ((End.LEFT, 2), (End.RIGHT, 1))
    assert match.legal_actions() == (DRAW,)


def test_f2_the_same_table_without_straight_spins_the_first_double() -> None:
    """The default (F-2: the first double played spins): the same moves count the same,
    6, 10 and 3 (the new UP and DOWN arms are empty and count nothing), but 4-4 is an
    off-centre spinner: with 1-4 beyond it UP and DOWN open on its 4, and seat 1 lays 4-6
    there: 2 + 1 + 6 = 9."""
    match, counts = straight_or_not(ALL_FIVES)
    assert counts == [6, 10, 3]
    layout = match.round.layout.view()
    assert layout.spinner is not None and layout.spinner.tile == T("4-4")
    assert dict(layout.open_ends) == {End.LEFT: 2, End.RIGHT: 1, End.UP: 4, End.DOWN: 4}
    assert Play(T("4-6"), End.UP) in match.legal_actions()
    match.apply(parse_action("p4-6U"))
    assert end_count(match.round.layout.view()) == 9


def test_f2_straight_whole_matches_spin_only_an_opening_double() -> None:
    """Greedy matches under Straight: a spinner, when there is one, is the round's first
    tile, and the ends still add up as `end_halves` shows them."""
    spun = plain = 0
    for seed in range(6):
        match = Match.new(STRAIGHT.with_options(target=100), 3, seed)
        player = GreedyPlayer()
        while not match.over:
            layout = match.round.layout.view()
            if layout.spinner is not None:
                assert layout.spinner is layout.centre and layout.spinner.tile.is_double
                spun += 1
            elif layout.centre is not None:
                assert not {End.UP, End.DOWN} & {end for end, _ in layout.open_ends}
                plain += 1
            halves = end_halves(layout)
            assert sum(halves[end] * pip for end, pip in layout.open_ends) == end_count(layout)
            seat = match.turn
            assert seat is not None
            match.apply(player.choose(match.view(seat)), seat)
    assert spun and plain


# --- F-3: counting the ends ---------------------------------------------------------------


def test_f3_the_spinner_counts_both_halves_until_both_its_sides_are_taken() -> None:
    """5-5 alone: 10. With 5-2 on its right: the spinner is still the left end, 10 + 2 =
    12. With 5-3 on its left too: only the arms' ends, 3 + 2 = 5. 5-1 up: 3 + 2 + 1 = 6;
    the empty DOWN arm counts nothing."""
    assert count("5-5") == 10
    assert count("5-5", "2-5R") == 12
    assert count("5-5", "2-5R", "3-5L") == 5
    assert count("5-5", "2-5R", "3-5L", "1-5U") == 6


def test_f3_a_double_across_an_end_counts_both_halves() -> None:
    """6-4 opens: 6 + 4 = 10. 4-4 on the left (the first double: the spinner, an end):
    8 + 6 = 14. 6-6 on the right (an ordinary double): 8 + 12 = 20."""
    assert count("4-6") == 10
    assert count("4-6", "4-4L") == 14
    assert count("4-6", "4-4L", "6-6R") == 20


def test_f3_an_off_centre_spinner_stops_counting_once_a_tile_lies_beyond_it() -> None:
    """2-4, 4-4 right: 2 + 8 = 10. 4-1 beyond it: 2 + 1 = 3 (UP and DOWN open, empty).
    4-3 up: 2 + 1 + 3 = 6."""
    assert count("2-4", "4-4R") == 10
    assert count("2-4", "4-4R", "1-4R") == 3
    assert count("2-4", "4-4R", "1-4R", "3-4U") == 6


def test_f3_only_multiples_of_five_score_in_all_fives() -> None:
    assert [move_points(n) for n in (0, 3, 5, 10, 12, 15, 20, 25)] == [0, 0, 5, 10, 0, 15, 20, 25]


def test_f3_threes_and_fives_add_a_third_and_a_fifth() -> None:
    """15 is both: 3 + 5 = 8; 9 scores 3, 10 scores 2, 30 scores 10 + 6 = 16, 7 nothing."""
    assert [move_points(n, threes=True) for n in (3, 5, 7, 9, 10, 15, 30)] == [1, 1, 0, 3, 2, 8, 16]


def test_f3_the_mover_scores_at_once_in_a_match() -> None:
    """Seat 0 opens 5-5 (10 points), seat 1 plays 0-5 right (5-5 still the left end:
    10 + 0 = 10), seat 0 plays 5-6 left (6 + 0 = 6: nothing)."""
    opening = crafted(
        ALL_FIVES, "5-5 5-6 1-1 1-2 1-3 1-4 2-2", "0-5 0-0 0-1 0-2 0-3 0-4 0-6", leader=0
    )
    match = Match(ALL_FIVES, 2, seed=1, round_=opening)
    match.apply(parse_action("p5-5"))
    assert [a.recorded for a in match.scores] == [10, 0]
    view = match.view(None)
    assert view.scored is not None and (view.scored.seat, view.scored.points) == (0, 10)
    assert view.round_points == (10, 0)
    match.apply(parse_action("p0-5R"))
    assert [a.recorded for a in match.scores] == [10, 10]
    match.apply(parse_action("p5-6L"))
    assert [a.recorded for a in match.scores] == [10, 10]
    assert match.view(None).scored.seat == 1  # the last move that scored


# --- F-4: draw until playable -------------------------------------------------------------


def test_f4_draw_until_playable_then_knock_when_the_bazaar_is_empty() -> None:
    round_ = crafted(ALL_FIVES, "6-6 0-0", "1-1 1-2", leader=0)
    round_.apply(parse_action("p6-6"))
    assert round_.legal_actions() == (DRAW,)  # 1-1, 1-2 do not fit a 6
    drawn = 0
    while round_.legal_actions() == (DRAW,):
        round_.apply(DRAW)
        drawn += 1
    assert drawn >= 1 and any(isinstance(a, Play) for a in round_.legal_actions())
    assert ALL_FIVES.bazaar_reserve == 0  # F-4 names no reserve: the whole bazaar may be drawn
    assert KNOCK not in round_.legal_actions()


# --- F-5: the round's end -----------------------------------------------------------------


def test_f5_rounding_is_to_the_nearest_five() -> None:
    assert [nearest_five(n) for n in (0, 2, 3, 7, 8, 12, 13, 25)] == [0, 0, 5, 5, 10, 10, 15, 25]


def score(
    game_key: str, kind: OutcomeKind, seat: int, values: tuple[int, ...], teams=False, target=None
):  # type: ignore[no-untyped-def]
    game = find_variant(game_key)
    ruleset = game.ruleset.with_options(teams=teams, target=target or game.ruleset.target)
    sides = sides_for(ruleset, len(values))
    outcome = RoundOutcome(kind, seat, values)
    start = initial_scores(ruleset, len(sides))
    return game.score_round(RoundEnd(ruleset, 1, outcome, start, 0, values, sides)).points


def test_f5_going_out_scores_the_others_hands_rounded_to_five() -> None:
    """Seat 1 goes out; the others hold 9 and 14: 23 -> 25."""
    assert score("all_fives", OutcomeKind.WENT_OUT, 1, (9, 0, 14)) == (0, 25, 0)
    # In pairs the partner's hand does not count against the winners: 7 + 4 = 11 -> 10.
    assert score("all_fives", OutcomeKind.WENT_OUT, 0, (0, 7, 30, 4), teams=True) == (10, 0)


def test_f5_a_fish_scores_the_lowest_hand_the_differences() -> None:
    """Hands 4, 10, 16: the 4 scores (10 - 4) + (16 - 4) = 18 -> 20; a tie scores nothing."""
    assert score("all_fives", OutcomeKind.FISH, 2, (4, 10, 16)) == (20, 0, 0)
    assert score("all_fives", OutcomeKind.FISH, 2, (4, 4, 16)) == (0, 0, 0)


def test_f5_threes_and_fives_score_the_round_end_as_f5_says() -> None:
    """Section F makes threes and fives F-3's count with F-5's round end: the others hold
    23 pips, rounded to 25, which seat 1 scores; a fish of 4, 10, 16 scores 20."""
    assert score("threes_and_fives", OutcomeKind.WENT_OUT, 1, (9, 0, 14)) == (0, 25, 0)
    assert score("threes_and_fives", OutcomeKind.FISH, 2, (4, 10, 16)) == (20, 0, 0)


@pytest.mark.parametrize("target", [61, 121])
def test_f5_threes_and_fives_on_the_pubs_board_score_the_round_end_in_fives(
    target: int,
) -> None:
    """A match to 61 or 121 is the English pub game: 23 pips -> 25, that is 5 points."""
    assert score("threes_and_fives", OutcomeKind.WENT_OUT, 1, (9, 0, 14), target=target) == (
        0,
        5,
        0,
    )


def test_threes_and_fives_rating_is_scaled_by_its_board() -> None:
    """Reaching the target is worth 10 on either board; a stored match to 61 keeps it."""
    threes = find_variant("threes_and_fives")
    assert threes.rating_gains((250, 100)) == (10, 4)
    assert threes.rating_gains((61, 24), target=61) == (10, 4)
    assert threes.rating_gains((121, 24), target=121) == (20, 4)


def test_f5_a_round_line_holds_the_points_scored_in_play_and_at_the_end() -> None:
    match = Match.new(ALL_FIVES, 2, seed=3)
    while not match.results:
        match.apply(GreedyPlayer().choose(match.view(match.turn)))
    result = match.results[0]
    assert result.outcome.kind is not OutcomeKind.REACHED
    # Round 1 again, move by move, adding up F-3's points of each play.
    round_ = Round.start(ALL_FIVES, 2, round_rng(3, 1))
    in_play = [0, 0]
    for entry in match.log:
        if entry.round_no == 1:
            event = round_.apply(entry.action, entry.seat)
            if isinstance(event, Played):
                in_play[entry.seat] += move_points(end_count(round_.layout.view()))
    game = find_variant("all_fives")
    values = result.outcome.hand_values
    end = game.score_round(
        RoundEnd(ALL_FIVES, 1, result.outcome, result.before, 0, values, sides_for(ALL_FIVES, 2))
    )
    assert result.before == initial_scores(ALL_FIVES, 2)
    assert result.points == (in_play[0] + end.points[0], in_play[1] + end.points[1])
    assert tuple(a.recorded for a in result.after) == result.points
    assert sum(end.points) > 0 and sum(in_play) > 0


# --- F-6: the match, which may end in the middle of a round -------------------------------


def finished(seed: int, players: int = 2, ruleset=ALL_FIVES) -> Match:  # type: ignore[no-untyped-def]
    match = Match.new(ruleset, players, seed)
    rng = random.Random(seed)
    bots = [GreedyPlayer() if rng.random() < 0.5 else RandomPlayer(rng) for _ in range(players)]
    while not match.over:
        seat = match.turn
        assert seat is not None
        match.apply(bots[seat].choose(match.view(seat)), seat)
    return match


def test_f6_a_move_that_reaches_the_target_ends_the_match_mid_round() -> None:
    match = next(
        m
        for m in (finished(seed) for seed in range(60))
        if m.results[-1].outcome.kind is OutcomeKind.REACHED
    )
    result = match.results[-1]
    last = match.log[-1]
    assert result.outcome.seat == last.seat and isinstance(last.action, Play)
    assert match.winners == (match.side_of(last.seat),)
    assert match.scores[match.winners[0]].recorded >= ALL_FIVES.target
    ended = match.finished_round
    assert ended is not None and ended.outcome == result.outcome
    assert all(ended.hand(seat) for seat in range(match.players))  # nobody went out
    assert result.outcome.hand_values == tuple(
        sum(t.value for t in ended.hand(s)) for s in range(match.players)
    )
    # The stopped round is stored and read back, and replayed the same way.
    assert Match.from_json(match.to_json()) == match
    assert Match.replay(ALL_FIVES, 2, match.seed, match.log) == match
    assert match.ended_round(match.round_no).outcome == result.outcome
    with pytest.raises(DominoError):
        match.apply(match.round.legal_actions()[0] if match.round.legal_actions() else KNOCK)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([2, 3, 4]), st.booleans(), st.booleans())
def test_points_in_play_are_what_the_ends_say_after_each_move(
    seed: int, players: int, threes: bool, teams: bool
) -> None:
    """Replaying a whole match, each move's gain is F-3's count of the table it left."""
    ruleset = (THREES_AND_FIVES if threes else ALL_FIVES).with_options(
        teams=teams and players == 4, target=120 if not threes else 40
    )
    match = finished(seed, players, ruleset)
    replay = Match.new(ruleset, players, seed)
    for entry in match.log:
        round_no = replay.round_no
        before = tuple(a.recorded for a in replay.scores)
        event = replay.apply(entry.action, entry.seat)
        if replay.round_no != round_no or (
            replay.over and replay.results[-1].outcome.kind is not OutcomeKind.REACHED
        ):
            continue  # a round's end adds F-5's points as well
        gained = sum(a.recorded for a in replay.scores) - sum(before)
        if isinstance(event, Played):
            layout = replay.round.layout.view()
            assert gained == move_points(end_count(layout), threes=threes)
        else:
            assert gained == 0
    assert replay == match
    totals = [sum(r.points[side] for r in match.results) for side in range(len(match.sides))]
    assert totals == [a.recorded for a in match.scores]


def test_end_halves_add_up_to_the_end_count_over_whole_matches() -> None:
    """`end_halves` (what the caption's «6+6» and the picture's badges show) adds up to
    `end_count` at every position of a thousand-odd moves of All Fives."""
    checked = 0
    for seed in range(8):
        match = Match.new(ALL_FIVES, 4, seed)
        player = GreedyPlayer()
        while not match.over and match.round_no <= 2:
            layout = match.round.layout.view()
            halves = end_halves(layout)
            assert set(halves) == {end for end, _ in layout.open_ends}
            assert sum(halves[end] * pip for end, pip in layout.open_ends) == end_count(layout)
            checked += 1
            seat = match.turn
            assert seat is not None
            match.apply(player.choose(match.view(seat)), seat)
    assert checked > 200
