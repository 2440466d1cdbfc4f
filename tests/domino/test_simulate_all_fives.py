"""The simulator in the games where moves score in play (All Fives, threes and fives,
F-3): the points per tile played, the share of tiles that score, how rounds end (the
target reached in mid-round, F-6), with the plain players and the computer levels."""

from __future__ import annotations

import pytest

from domino.__main__ import main
from domino.errors import DominoError
from domino.rules import KOZEL
from domino.simulate import PLAYER_KINDS, format_report, simulate
from domino.variants import find_variant

IN_PLAY = ("target reached in play", "points in play", "points made in play")


@pytest.mark.parametrize("key", ["all_fives", "threes_and_fives"])
@pytest.mark.parametrize("kind", ["greedy", "medium"])
def test_the_points_made_in_play_are_counted(key: str, kind: str) -> None:
    ruleset = find_variant(key).ruleset
    report = simulate(ruleset, 2, 4, seed=3, kinds=(kind,))
    again = simulate(ruleset, 2, 4, seed=3, kinds=(kind,))
    assert (report.plays, report.scoring_plays, report.play_points) == (
        again.plays,
        again.scoring_plays,
        again.play_points,
    )
    assert report.went_out_rounds + report.fish_rounds + report.reached_rounds == report.rounds
    assert report.reached_rounds <= report.matches  # F-6: only a match's last round
    assert 0 < report.scoring_plays < report.plays
    # a score is at least 5 in All Fives, 1 in threes and fives (a count of 3)
    assert report.play_points >= (5 if key == "all_fives" else 1) * report.scoring_plays
    assert report.play_points <= sum(report.final_points)  # the rest came at rounds' ends
    assert sum(report.decided) >= report.matches
    text = format_report(report)
    for line in IN_PLAY:
        assert line in text


def test_medium_scores_more_per_tile_than_greedy() -> None:
    """Greedy sheds pips and never looks at the ends; medium goes for the points."""
    ruleset = find_variant("all_fives").ruleset
    greedy = simulate(ruleset, 2, 6, seed=5, kinds=("greedy",))
    medium = simulate(ruleset, 2, 6, seed=5, kinds=("medium",))
    assert medium.play_points / medium.plays > greedy.play_points / greedy.plays


def test_other_games_print_no_in_play_lines() -> None:
    report = simulate(KOZEL, 4, 3, seed=1)
    assert (report.reached_rounds, report.plays, report.scoring_plays, report.play_points) == (
        0,
        0,
        0,
        0,
    )
    text = format_report(report)
    assert not any(line in text for line in IN_PLAY)


def test_the_computer_levels_are_player_kinds() -> None:
    assert {"easy", "medium", "hard"} <= set(PLAYER_KINDS)
    with pytest.raises(DominoError, match="player kind"):
        simulate(KOZEL, 2, 1, seed=1, kinds=("expert",))


@pytest.mark.parametrize("key", ["all_fives", "threes_and_fives"])
def test_command_line_prints_in_play_lines(key: str, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--variant", key, "--matches", "3", "--players-kind", "easy,medium"]
    assert main([*args, "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert f"variant: {key} " in out and "4 players: easy,medium,easy,medium" in out
    for line in (*IN_PLAY, "rounds per match", "going out rate", "fish rate", "winner per seat"):
        assert line in out
