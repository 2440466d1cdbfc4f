"""Bergen (B-1) and «Дубли» (B-2), rule by rule; the points in the docstrings are
worked by hand from the rules."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domino.actions import DRAW, KNOCK, Played, parse_action
from domino.bergen import BERGEN, DUBLI, bergen_points, dubli_points, header
from domino.deal import Deal, first_leader
from domino.errors import DominoError
from domino.geometry import End
from domino.layout import LineLayout
from domino.match import Match
from domino.players import GreedyPlayer, RandomPlayer
from domino.round import Round
from domino.rules import RoundEnd
from domino.scoring import initial_scores, sides_for
from domino.tiles import ALL_TILES, Tile
from domino.variants import Bergen, Dubli, find_variant
from domino.views import OutcomeKind, RoundOutcome

T = Tile.parse


def line(*moves: str) -> LineLayout:
    layout = LineLayout()
    for move in moves:
        layout.place(T(move[:3]), End(move[3]) if len(move) == 4 else None)
    return layout


def hands(*texts: str) -> tuple[tuple[Tile, ...], ...]:
    return tuple(tuple(T(t) for t in text.split()) for text in texts)


def test_the_games_are_registered() -> None:
    bergen, dubli = find_variant("bergen"), find_variant("dubli")
    assert isinstance(bergen, Bergen) and isinstance(dubli, Dubli)
    assert bergen.ruleset is BERGEN and dubli.ruleset is DUBLI
    assert bergen.scores_in_play and dubli.scores_in_play and not bergen.points_are_bad
    assert dict(BERGEN.hand_sizes) == {2: 6, 3: 6, 4: 5}  # B-1
    assert BERGEN.target == 15 and bergen.choices["target"] == (15, 10)  # B-1
    assert DUBLI.target == 10


@pytest.mark.parametrize(("players", "size"), [(2, 7), (3, 5), (4, 5)])
def test_dubli_deals_as_traditional_dominoes(players: int, size: int) -> None:
    """B-2's text (seeds/002): «Раздача фишек … по правилам традиционного домино»: 7 tiles
    each for two, 5 for three or four; the rest is the bazaar."""
    rnd = Round.start(DUBLI, players, random.Random(1))
    assert all(len(rnd.hand(seat)) == size for seat in range(players))
    assert rnd.bazaar_size == 28 - players * size


def test_b1_opens_with_0_0_or_the_nearest_double_else_the_lowest_tile() -> None:
    assert first_leader(BERGEN, hands("2-2 5-6", "1-1 3-4")) == (1, T("1-1"))
    assert first_leader(BERGEN, hands("0-0 5-6", "1-1 3-4")) == (0, T("0-0"))
    assert first_leader(BERGEN, hands("2-5 5-6", "0-3 3-4", "1-2 4-6")) == (2, T("1-2"))


def test_b1_a_double_header_scores_2_and_a_triple_header_3() -> None:
    """3-3 opens: both ends 3 (a double-header), 2. 3-5 right: 3 and 5, nothing. 5-1
    right: 3 and 1, nothing. 1-3 right: 3 and 3 with the double 3-3 at the left end, a
    triple-header, 3. 3-6 left: 6 and 3, nothing. 6-2 left: 2 and 3. 2-3 left: 3 and 3
    with no double at an end, a double-header, 2."""
    moves = ["3-3", "3-5R", "1-5R", "1-3R", "3-6L", "2-6L", "2-3L"]
    points = [bergen_points(line(*moves[: n + 1]).view()) for n in range(len(moves))]
    assert points == [2, 0, 0, 3, 0, 0, 2]
    assert header(line("2-4", "4-4R", "2-3L", "3-4L").view()) == 3  # 4 and the double 4-4


def test_b2_a_double_laid_scores_1_and_equal_ends_1_or_2() -> None:
    """Дубли: 3-3 opens: a double (1) and both ends equal (1): 2. 3-5 right: nothing.
    5-5 right: a double (1), ends 3 and 5: 1. 2-4, 4-4 right, 2-3 left, 3-4 left: ends 4
    and the double 4-4: 2."""
    assert dubli_points(line("3-3").view()) == 2
    assert dubli_points(line("3-3", "3-5R").view()) == 0
    assert dubli_points(line("3-3", "3-5R", "5-5R").view()) == 1
    assert dubli_points(line("2-4", "4-4R", "2-3L", "3-4L").view()) == 2
    assert dubli_points(line("2-4", "2-3L", "3-4L", "4-4R").view()) == 3  # 1 + 2


def test_b1_the_last_two_bazaar_tiles_are_never_drawn() -> None:
    dealt = hands("6-6 0-0 0-1 0-2 0-3 0-4", "1-1 1-2 1-3 1-4 2-2 2-3")
    used = {t for hand in dealt for t in hand}
    bazaar = tuple(t for t in ALL_TILES if t not in used)
    round_ = Round.from_deal(BERGEN, 2, Deal(dealt, bazaar), leader=0)
    assert BERGEN.bazaar_reserve == 2
    assert round_.drawable == len(bazaar) - 2
    round_.apply(parse_action("p6-6"))
    while round_.legal_actions() == (DRAW,):
        round_.apply(DRAW)
    assert round_.bazaar_size >= 2


def score(key: str, kind: OutcomeKind, seat: int, held: tuple[str, ...]) -> tuple[int, ...]:
    game = find_variant(key)
    tiles = hands(*held)
    values = tuple(sum(t.value for t in hand) for hand in tiles)
    sides = sides_for(game.ruleset, len(tiles))
    outcome = RoundOutcome(kind, seat, values)
    start = initial_scores(game.ruleset, len(sides))
    end = RoundEnd(game.ruleset, 1, outcome, start, 0, values, sides, hands=tiles)
    return game.score_round(end).points


def test_b1_going_out_scores_2() -> None:
    assert score("bergen", OutcomeKind.WENT_OUT, 1, ("2-2 5-6", "", "1-1")) == (0, 2, 0)


def test_b1_a_block_scores_2_for_the_one_hand_without_doubles() -> None:
    assert score("bergen", OutcomeKind.FISH, 0, ("2-2 5-6", "0-1 6-6", "1-3")) == (0, 0, 2)
    # Several without doubles: the lowest hand among them (4 against 7).
    assert score("bergen", OutcomeKind.FISH, 0, ("2-2", "0-4", "1-6")) == (0, 2, 0)
    # Every hand holds a double: the lowest double (1-1).
    assert score("bergen", OutcomeKind.FISH, 0, ("2-2", "1-1 6-6", "3-3")) == (0, 2, 0)
    # A tie for the lowest hand without doubles: nobody.
    assert score("bergen", OutcomeKind.FISH, 0, ("2-2", "0-4", "1-3")) == (0, 0, 0)


def test_b2_going_out_2_and_a_hand_without_doubles_1() -> None:
    assert score("dubli", OutcomeKind.WENT_OUT, 1, ("2-2 5-6", "", "1-3")) == (0, 2, 1)
    assert score("dubli", OutcomeKind.FISH, 1, ("0-5", "4-4", "1-3")) == (1, 0, 1)


def test_the_round_end_needs_the_hands() -> None:
    game = find_variant("bergen")
    outcome = RoundOutcome(OutcomeKind.FISH, 0, (3, 4))
    with pytest.raises(DominoError, match="hands"):
        game.score_round(
            RoundEnd(BERGEN, 1, outcome, initial_scores(BERGEN, 2), 0, (3, 4), ((0,), (1,)))
        )
    went_out = RoundOutcome(OutcomeKind.WENT_OUT, 1, (3, 0))
    start = initial_scores(BERGEN, 2)
    end = RoundEnd(BERGEN, 1, went_out, start, 0, (3, 0), ((0,), (1,)))
    assert game.score_round(end).points == (0, 2)


def test_the_round_after_is_opened_by_its_winner() -> None:
    game = find_variant("bergen")
    assert game.next_leader(BERGEN, RoundOutcome(OutcomeKind.WENT_OUT, 1, (3, 0)), None) == 1
    assert game.next_leader(BERGEN, RoundOutcome(OutcomeKind.FISH, 0, (9, 4, 4)), None) == 1


def finished(key: str, seed: int, players: int) -> Match:
    game = find_variant(key)
    match = Match.new(game.ruleset, players, seed)
    rng = random.Random(seed)
    bots = [GreedyPlayer() if rng.random() < 0.5 else RandomPlayer(rng) for _ in range(players)]
    while not match.over:
        seat = match.turn
        assert seat is not None
        match.apply(bots[seat].choose(match.view(seat)), seat)
    return match


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["bergen", "dubli"]), st.integers(0, 2**32), st.sampled_from([2, 3, 4]))
def test_whole_matches_score_each_move_and_round_as_the_rules_say(
    key: str, seed: int, players: int
) -> None:
    game = find_variant(key)
    match = finished(key, seed, players)
    replay = Match.new(game.ruleset, players, seed)
    for entry in match.log:
        round_no, before = replay.round_no, sum(a.recorded for a in replay.scores)
        event = replay.apply(entry.action, entry.seat)
        gained = sum(a.recorded for a in replay.scores) - before
        if replay.round_no == round_no and not (
            replay.over and replay.results[-1].outcome.kind is not OutcomeKind.REACHED
        ):
            layout = replay.round.layout.view()
            points = game.move_points(game.ruleset, layout)[0] if isinstance(event, Played) else 0
            assert gained == points
    assert replay == match and Match.from_json(match.to_json()) == match
    assert match.winners and all(
        match.scores[side].recorded >= game.ruleset.target for side in match.winners
    )
    assert KNOCK is not None
