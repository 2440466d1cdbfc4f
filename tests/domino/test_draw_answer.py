"""A computer's answer to a draw offer (`domino.ai.draw`): it agrees when its side is
behind on the public score, in the game's own sense of points."""

from __future__ import annotations

import dataclasses

import pytest

from domino.ai.draw import answer_draw
from domino.match import Match
from domino.rules import CLASSIC, KOZEL, Ruleset
from domino.sheet import Account
from domino.views import MatchView


def view_with(ruleset: Ruleset, *recorded: int, teams: bool = False) -> MatchView:
    rules = ruleset.with_options(teams=True) if teams else ruleset
    match = Match.new(rules, 4 if teams else len(recorded), 1)
    view = match.view(0)
    return dataclasses.replace(view, scores=tuple(Account(recorded=p) for p in recorded))


@pytest.mark.parametrize(
    ("ruleset", "points", "seat", "accept", "gap"),
    [
        (KOZEL, (40, 10, 25), 0, True, 30),  # most points in Козёл: behind
        (KOZEL, (40, 10, 25), 1, False, -15),  # fewest: ahead
        (KOZEL, (20, 20), 0, False, 0),  # level: plays on
        (CLASSIC, (40, 10, 25), 1, True, 30),  # fewest where points are good: behind
        (CLASSIC, (40, 10, 25), 0, False, -15),
    ],
)
def test_a_computer_agrees_only_when_its_side_is_behind(
    ruleset: Ruleset, points: tuple[int, ...], seat: int, accept: bool, gap: int
) -> None:
    answer = answer_draw(view_with(ruleset, *points), seat)
    assert (answer.accept, answer.gap) == (accept, gap)
    assert answer.reason == ("behind" if accept else "not_behind")


def test_partners_judge_by_their_sides_score() -> None:
    view = view_with(KOZEL, 50, 30, teams=True)
    assert answer_draw(view, 0).accept and answer_draw(view, 2).accept
    assert not answer_draw(view, 1).accept
