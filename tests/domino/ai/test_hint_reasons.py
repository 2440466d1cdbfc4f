"""A hint's reason is true for the game it is given in, and claims no more than the
search's sample supports.

Every reason the hint can give (the hard level's, and the medium level's where it stands
in: a search out of time, `domino.ai.search._fallback`) is checked over all thirteen
games against what RULES.md says each game scores: the pips left in hand count for the
holder (K-6, O-5), go to the round's winner (T-4, M-1, S-4, F-5, the children's games
scored as Классика), or never count (Bergen B-1, Дубли B-2)."""

from __future__ import annotations

import random
import time

import pytest

from domino.ai import Decision, Level, computer
from domino.ai.heuristic import DEFAULT_WEIGHTS, _Position, shed_reason
from domino.ai.search import LIKELY, LIKELY_WORLDS, HardPlayer, _searched_reason
from domino.match import Match
from domino.tiles import TILE_VALUE
from domino.variants import VARIANTS, find_variant
from domino.views import MatchView

GAMES = tuple(game.key.value for game in VARIANTS)
NO_PIPS = ("bergen", "dubli")  # B-1, B-2: a round's end scores no pips left in hand
SHED = ("heavy", "heavy_to_winner")


def test_thirteen_games() -> None:
    assert len(GAMES) == 13


@pytest.mark.parametrize("key", GAMES)
def test_the_pips_left_in_hand_are_told_as_the_game_scores_them(key: str) -> None:
    game = find_variant(key)
    reason = shed_reason(game)
    if key in NO_PIPS:
        assert reason is None
    elif game.points_are_bad:  # K-6: the holder's own points
        assert reason == "heavy"
    else:  # the round's winner writes them
        assert reason == "heavy_to_winner"


def _decisions(key: str, *, late: bool) -> list[Decision]:
    """Two rounds of `key` (four players in Спортивное, else two), every seat asking the
    hard level with few worlds, or with its deadline passed (`late`: the medium level's
    choice stands in); the decisions on turns with a choice."""
    game = find_variant(key)
    match = Match.new(game.ruleset, 4 if key == "sport" else 2, 11)
    found: list[Decision] = []
    steps = 0
    while not match.over and match.round_no <= 2 and steps < 300:
        seat = match.turn
        assert seat is not None
        view = match.view(seat)
        if match.round.face_down(seat) or len(view.round.legal) == 1:
            match.apply(view.round.legal[0], seat)
            continue
        deadline = time.monotonic() - 1.0 if late else None
        player = HardPlayer(random.Random(steps), worlds=4, deadline=deadline)
        decision = player.decide(view)
        assert player.searched == (0 if late else 4) or decision.reason == "go_out"
        found.append(decision)
        match.apply(decision.action, seat)
        steps += 1
    return found


@pytest.mark.parametrize("late", [False, True], ids=["searched", "out_of_time"])
@pytest.mark.parametrize("key", GAMES)
def test_every_reason_a_hint_gives_is_true_for_its_game(key: str, late: bool) -> None:
    game = find_variant(key)
    decisions = _decisions(key, late=late)
    assert decisions
    for decision in decisions:
        reason = decision.reason
        if reason in SHED:  # the pips shed, as this game counts them
            assert reason == shed_reason(game), (key, decision)
        if reason in ("scores", "safe_ends"):  # F-3, B-1, B-2: moves score in play
            assert game.scores_in_play, (key, decision)
        if reason == "block_leader":  # a leader to hold back: where points are good
            assert not game.points_are_bad, (key, decision)
        if reason == "close":
            assert game.may_close, (key, decision)
        if reason.startswith("search"):  # no figure a few play-outs cannot support
            assert not late and decision.args["worlds"] == 4
            assert reason == "search", (key, decision)  # 4 worlds say nothing of the match


@pytest.mark.parametrize("key", NO_PIPS)
def test_bergen_and_dubli_out_of_time_never_tell_of_pips(key: str) -> None:
    """The defect a newcomer met: with no time to search, «тяжёлую кость лучше сбросить:
    очки на руке идут в счёт» in games whose rounds score no pips."""
    reasons = [d.reason for d in _decisions(key, late=True)]
    assert reasons and not set(reasons) & {*SHED}


def _view_with_a_choice(key: str = "classic") -> MatchView:
    match = Match.new(find_variant(key).ruleset, 2, 3)
    while len(match.legal_actions()) < 2:
        match.apply(match.legal_actions()[0])
    seat = match.turn
    assert seat is not None
    return match.view(seat)


def test_a_likely_match_is_said_only_from_enough_worlds_that_agree() -> None:
    """`search_likely` needs `LIKELY_WORLDS` worlds whose mean, less two standard errors,
    is at least `LIKELY`; else the move's reason says nothing of the match."""
    view = _view_with_a_choice()
    action = view.round.legal[0]
    few = _searched_reason(view, action, [1.0] * (LIKELY_WORLDS - 1))
    assert few.reason != "search_likely"
    enough = _searched_reason(view, action, [1.0] * LIKELY_WORLDS)
    assert enough.reason == "search_likely" and enough.args["chance"] == 100
    # A mean above LIKELY, but too spread for its lower bound to be.
    spread = ([0.0] + [1.0] * 9) * (LIKELY_WORLDS // 10)  # one world in ten lost
    assert sum(spread) / len(spread) > LIKELY
    assert _searched_reason(view, action, spread).reason != "search_likely"
    agreeing = [LIKELY + 0.15, LIKELY + 0.05] * LIKELY_WORLDS
    likely = _searched_reason(view, action, agreeing)
    assert likely.reason == "search_likely" and likely.args["chance"] >= 100 * LIKELY


def test_a_searched_move_the_medium_level_also_chooses_keeps_its_reason() -> None:
    view = _view_with_a_choice()
    medium = computer(Level.MEDIUM).decide(view)
    kept = _searched_reason(view, medium.action, [0.5, 0.4, 0.6])
    assert kept == medium
    other = next(a for a in view.round.legal if a != medium.action)
    chosen = _searched_reason(view, other, [0.5, 0.4, 0.6])
    assert chosen.reason == "search" and "chance" not in chosen.args


def test_a_block_in_dubli_is_valued_by_the_doubles_held_not_the_pips() -> None:
    """B-2: a hand left without doubles scores 1 at the end, whatever its pips."""
    view = _view_with_a_choice("dubli")
    position = _Position(view, DEFAULT_WEIGHTS)
    hand = list(view.round.hand)
    plain = sorted((t for t in hand if not t.is_double), key=lambda t: TILE_VALUE[t.index])
    doubles = [t for t in hand if t.is_double]
    if len(plain) < 2 or not doubles:
        pytest.skip("the deal gives no hand to compare")
    light, heavy = plain[0].bit, plain[-1].bit
    assert TILE_VALUE[plain[0].index] < TILE_VALUE[plain[-1].index]
    assert position._fish_value(light) == position._fish_value(heavy)
    assert position._fish_value(light) > position._fish_value(light | doubles[0].bit)
