"""K-12 turn time per case, and the fixed turn timers, on crafted positions."""

from __future__ import annotations

import pytest

from domino.actions import DRAW, Play
from domino.deal import Deal
from domino.geometry import End
from domino.match import Match
from domino.round import Round
from domino.rules import KOZEL
from domino.tiles import ALL_TILES, Tile
from domino.timing import (
    SPORT_COULD_FISH,
    SPORT_ONE_MOVE,
    SPORT_SEVERAL_MOVES,
    TurnTimer,
    could_make_fish,
    sport_seconds,
)

L, R = End.LEFT, End.RIGHT


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(Tile.parse(x) for x in text.split())


def crafted(hands: list[str]) -> Deal:
    held = [tiles(hand) for hand in hands]
    taken = {x for hand in held for x in hand}
    return Deal(tuple(held), tuple(x for x in ALL_TILES if x not in taken), 0)


# The textbook fish (C-8): both ends 0 and all seven 0s down after the tenth play.
TEXTBOOK = crafted(["1-2 0-2 0-3 0-4 5-6 1-1 2-2", "0-1 0-0 3-4 0-5 0-6 3-3 4-4"])
TEXTBOOK_MOVES = [
    ("1-2", None),
    ("0-1", L),
    ("0-2", R),
    ("0-0", L),
    ("0-3", L),
    ("3-4", L),
    ("0-4", L),
    ("0-5", L),
    ("5-6", L),
]


def textbook_after(moves: int) -> Round:
    rnd = Round.from_deal(KOZEL, 2, TEXTBOOK, leader=0)
    for tile, end in TEXTBOOK_MOVES[:moves]:
        rnd.apply(Play(Tile.parse(tile), end))
    return rnd


def test_k12_exactly_one_move_gets_5_s() -> None:
    rnd = textbook_after(1)  # seat 1 holds one tile that fits: 0-1 on the 1
    assert rnd.legal_actions() == (Play(Tile.parse("0-1"), L),)
    assert not could_make_fish(rnd)
    assert sport_seconds(rnd) == SPORT_ONE_MOVE == 5.0


def test_k12_a_forced_opening_is_one_move() -> None:
    rnd = Round.from_deal(KOZEL, 2, TEXTBOOK)  # K-3: the holder of 1-1 must open with it
    assert len(rnd.legal_actions()) == 1
    assert sport_seconds(rnd) == 5.0


def test_k12_a_forced_draw_is_one_move() -> None:
    rnd = Round.from_deal(KOZEL, 2, crafted(["1-1 5-5", "2-2 2-3"]))
    rnd.apply(Play(Tile.parse("1-1"), None))
    assert rnd.legal_actions() == (DRAW,)
    assert sport_seconds(rnd) == 5.0


def test_k12_several_moves_get_20_s() -> None:
    rnd = textbook_after(2)  # seat 0 on ends 0 and 2: 0-2 either way, 0-3, 0-4, 2-2
    assert len(rnd.legal_actions()) > 1
    assert not could_make_fish(rnd)
    assert sport_seconds(rnd) == SPORT_SEVERAL_MOVES == 20.0


def test_k12_a_move_that_could_make_fish_gets_60_s() -> None:
    rnd = textbook_after(9)  # seat 1: 0-6 on the left makes the textbook fish, on the right not
    assert set(rnd.legal_actions()) == {Play(Tile.parse("0-6"), L), Play(Tile.parse("0-6"), R)}
    assert could_make_fish(rnd)
    assert sport_seconds(rnd) == SPORT_COULD_FISH == 60.0
    assert rnd.outcome is None and rnd.turn == 1, "the position itself is left untouched"


def test_going_out_on_a_blocked_table_is_not_fish() -> None:
    # Seat 1's last tile 0-6 would block the table, but emptying the hand goes out (C-8 a).
    deal = crafted(["1-2 0-2 0-3 0-4 5-6 1-1 2-2", "0-1 0-0 3-4 0-5 0-6"])
    rnd = Round.from_deal(KOZEL, 2, deal, leader=0)
    for tile, end in TEXTBOOK_MOVES:
        rnd.apply(Play(Tile.parse(tile), end))
    assert rnd.hand(1) == (Tile.parse("0-6"),)
    assert not could_make_fish(rnd)
    assert sport_seconds(rnd) == SPORT_SEVERAL_MOVES


def test_a_finished_round_has_no_turn_time() -> None:
    rnd = textbook_after(9)
    rnd.apply(Play(Tile.parse("0-6"), L))
    assert rnd.over
    assert sport_seconds(rnd) is None


@pytest.mark.parametrize(
    ("timer", "seconds"),
    [
        (TurnTimer.OFF, None),
        (TurnTimer.S30, 30.0),
        (TurnTimer.S60, 60.0),
        (TurnTimer.S120, 120.0),
        (TurnTimer.S300, 300.0),
        (TurnTimer.SPORT, 5.0),  # the first move of a match is the forced opening (K-3)
    ],
)
def test_each_timer_setting(timer: TurnTimer, seconds: float | None) -> None:
    match = Match.new(KOZEL, 4, seed=7)
    assert timer.seconds_for(match) == seconds
    assert TurnTimer(timer.value) is timer


def test_no_time_once_the_match_is_over() -> None:
    match = Match.new(KOZEL.with_options(target=1), 2, seed=3)
    while not match.over:
        match.apply(match.legal_actions()[0])
    assert TurnTimer.S60.seconds_for(match) is None
    assert TurnTimer.SPORT.seconds_for(match) is None
