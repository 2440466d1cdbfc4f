"""Computer players against hand-built views: they choose from `view.legal` only."""

from __future__ import annotations

import random

import pytest

from domino.actions import DRAW, KNOCK, Action, Close, Play, PlayDoubles
from domino.errors import NotYourTurn
from domino.geometry import End, Placement
from domino.players import GreedyPlayer, Player, RandomPlayer
from domino.rules import KOZEL
from domino.tiles import Tile
from domino.views import Account, LayoutView, MatchView, RoundView


def t(text: str) -> Tile:
    return Tile.parse(text)


def view(
    legal: tuple[Action, ...], *, hand: tuple[str, ...] = (), turn: int | None = 0
) -> MatchView:
    centre = Placement(t("3-4"), None, 3, 4, 0)
    layout = LayoutView(
        placements=(centre,),
        open_ends=((End.LEFT, 3), (End.RIGHT, 4)),
        arms=((End.LEFT, ()), (End.RIGHT, ())),
        spinner=None,
    )
    round_view = RoundView(
        seat=0,
        players=2,
        hand=tuple(t(x) for x in hand),
        hand_counts=(len(hand), 6),
        bazaar_size=14,
        drawable=14,
        layout=layout,
        turn=turn,
        turn_no=1,
        history=(),
        drawn=(),
        legal=legal,
        outcome=None,
    )
    return MatchView(
        ruleset=KOZEL,
        players=2,
        round_no=1,
        round=round_view,
        sides=((0,), (1,)),
        scores=(Account(), Account()),
        eggs=0,
        results=(),
        over=False,
        losers=(),
        winners=(),
    )


def play(tile: str, end: End) -> Play:
    return Play(t(tile), end)


def test_greedy_plays_the_heaviest_tile() -> None:
    legal = (play("1-3", End.LEFT), play("4-6", End.RIGHT), play("3-5", End.LEFT))
    assert GreedyPlayer().choose(view(legal, hand=("1-3", "4-6", "3-5"))) == play("4-6", End.RIGHT)


def test_greedy_prefers_a_double_of_equal_value_then_the_higher_half() -> None:
    legal: tuple[Action, ...] = (
        play("2-4", End.RIGHT),
        play("3-3", End.LEFT),
        play("1-5", End.LEFT),
    )
    assert GreedyPlayer().choose(view(legal)) == play("3-3", End.LEFT)
    legal = (play("2-4", End.RIGHT), play("1-5", End.LEFT))
    assert GreedyPlayer().choose(view(legal)) == play("1-5", End.LEFT)


def test_greedy_breaks_an_end_tie_by_end_order() -> None:
    legal = (play("3-4", End.RIGHT), play("3-4", End.LEFT))
    assert GreedyPlayer().choose(view(legal)) == play("3-4", End.LEFT)


def test_greedy_lays_several_doubles_when_they_shed_the_most() -> None:
    both = PlayDoubles((play("3-3", End.LEFT), play("4-4", End.RIGHT)))
    legal: tuple[Action, ...] = (play("3-3", End.LEFT), play("4-4", End.RIGHT), both)
    assert GreedyPlayer().choose(view(legal, hand=("3-3", "4-4", "0-1"))) == both
    small = PlayDoubles((play("0-0", End.LEFT), play("1-1", End.RIGHT)))
    legal = (play("0-0", End.LEFT), play("1-1", End.RIGHT), play("3-6", End.LEFT), small)
    assert GreedyPlayer().choose(view(legal, hand=("0-0", "1-1", "3-6"))) == play("3-6", End.LEFT)


def test_greedy_closes_an_end_only_it_could_not_follow() -> None:
    """O-3: closing sheds as much as laying the double face up; it is chosen when the
    mover holds no other tile of that pip (the end would serve only the others)."""
    shut = Close(t("4-4"), End.RIGHT)
    legal = (play("4-4", End.RIGHT), shut)
    assert GreedyPlayer().choose(view(legal, hand=("4-4", "0-1"))) == shut
    assert GreedyPlayer().choose(view(legal, hand=("4-4", "1-4"))) == play("4-4", End.RIGHT)
    heavier = (*legal, play("4-6", End.RIGHT))
    chosen = GreedyPlayer().choose(view(heavier, hand=("4-4", "4-6")))
    assert chosen == play("4-6", End.RIGHT)


@pytest.mark.parametrize("only", [DRAW, KNOCK])
def test_greedy_draws_or_knocks_when_that_is_all_it_can_do(only: Action) -> None:
    assert GreedyPlayer().choose(view((only,), hand=("0-0",))) == only


def test_random_player_is_reproducible_and_picks_only_legal_actions() -> None:
    legal = (play("1-3", End.LEFT), play("4-6", End.RIGHT), play("3-5", End.LEFT))
    one, two = RandomPlayer(random.Random(7)), RandomPlayer(random.Random(7))
    picks = [one.choose(view(legal)) for _ in range(200)]
    assert picks == [two.choose(view(legal)) for _ in range(200)]
    assert set(picks) == set(legal)


@pytest.mark.parametrize("player", [GreedyPlayer(), RandomPlayer(random.Random(1))])
def test_players_refuse_a_view_without_a_turn(player: Player) -> None:
    with pytest.raises(NotYourTurn):
        player.choose(view((), turn=1))
    with pytest.raises(NotYourTurn, match="over"):
        player.choose(view((), turn=None))
