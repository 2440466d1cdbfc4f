"""The ladder measures the levels in the games where moves score in play (F-3): win and
loss rates on paired deals, and the command line's lines for them."""

from __future__ import annotations

import pytest

from domino.__main__ import main
from domino.ladder import format_ladder, matchup, run_ladder


@pytest.mark.parametrize("key", ["all_fives", "threes_and_fives"])
def test_a_ladder_of_medium_against_easy_runs(key: str) -> None:
    chosen = matchup(key, "medium", "easy", players=2)
    report = run_ladder(chosen, 3, seed=1)
    assert report.won is not None and report.lost.matches == 6 == report.won.matches
    assert report.won.share + report.lost.share == pytest.approx(1.0)  # two sides, no ties
    assert {t.level for t in report.timings} == {"medium", "easy"}
    text = format_ladder(report)
    assert "win rate" in text and "loss rate (last place)" in text


def test_the_command_line_ladders_hard_on_all_fives(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["ladder", "--variant", "all_fives", "--players", "2", "--focal", "hard"]
    assert main([*args, "--field", "medium", "--matches", "1", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "ladder: all_fives, 2 players" in out and "decision time, hard" in out
