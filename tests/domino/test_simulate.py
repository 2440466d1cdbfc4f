"""The simulator: whole matches between computer players, and its command line."""

from __future__ import annotations

import io

import pytest

import domino
from domino.__main__ import main
from domino.errors import DominoError
from domino.rules import CLASSIC, KOZEL
from domino.simulate import format_report, simulate
from domino.variants import VARIANTS, GameVariant

PROMISED = (
    "matches/s",
    "rounds per match",
    "going out rate",
    "fish rate",
    "scoreless rate",
    "eggs rate",
    "mean final points",
)


def test_simulate_is_reproducible_and_counts_consistently() -> None:
    a = simulate(KOZEL, 4, 6, seed=3, kinds=("greedy", "random"))
    b = simulate(KOZEL, 4, 6, seed=3, kinds=("greedy", "random"))
    assert a.kinds == ("greedy", "random", "greedy", "random")
    assert (a.rounds, a.fish_rounds, a.final_points, a.decided) == (
        b.rounds,
        b.fish_rounds,
        b.final_points,
        b.decided,
    )
    assert a.min_rounds <= a.rounds / a.matches <= a.max_rounds
    assert a.went_out_rounds + a.fish_rounds == a.rounds
    assert 0 <= a.egg_rounds <= a.fish_rounds <= a.rounds
    assert a.egg_rounds <= a.scoreless_rounds  # a round that makes eggs scores nothing
    assert a.sides == ((0,), (1,), (2,), (3,)) and len(a.decided) == len(a.final_points) == 4
    assert sum(a.decided) >= a.matches  # every match has at least one козёл
    assert all(p / a.matches >= 0 for p in a.final_points)


def test_simulate_classic_counts_winners() -> None:
    report = simulate(CLASSIC, 3, 4, seed=1)
    assert sum(report.decided) >= 4 and report.egg_rounds == 0
    assert "winner per seat" in format_report(report)


def test_progress_bar_appears_only_for_long_runs() -> None:
    ticks = iter(range(0, 1000, 1))  # a fake clock: one second per reading
    out = io.StringIO()
    simulate(KOZEL, 2, 3, seed=1, progress=out, clock=lambda: float(next(ticks)))
    assert "3/3 matches" in out.getvalue() and out.getvalue().endswith("\n")
    quiet = io.StringIO()
    simulate(KOZEL, 2, 3, seed=1, progress=quiet, clock=lambda: 0.0)
    assert quiet.getvalue() == ""


def test_simulate_refuses_bad_arguments() -> None:
    with pytest.raises(DominoError, match="player kind"):
        simulate(KOZEL, 2, 1, seed=1, kinds=("clever",))
    with pytest.raises(DominoError, match="at least one match"):
        simulate(KOZEL, 2, 0, seed=1)
    with pytest.raises(DominoError):
        simulate(KOZEL, 5, 1, seed=1)


@pytest.mark.parametrize(
    "args",
    [
        ["--variant", "kozel", "--players", "4", "--matches", "5", "--seed", "1"],
        ["--variant", "kozel", "--players", "4", "--teams", "--matches", "3"],
        ["--variant", "classic", "--players", "3", "--matches", "3", "--players-kind", "random"],
        ["--players", "2", "--matches", "2", "--fish", "each", "--open-threshold", "0"],
    ],
)
def test_command_line_prints_the_promised_lines(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["simulate", *args, "--no-progress"]) == 0
    out = capsys.readouterr().out
    for promised in PROMISED:
        assert promised in out
    per = "side" if "--teams" in args else "seat"
    assert (f"loser per {per}" in out) != (f"winner per {per}" in out)
    if "--teams" in args:
        assert "teams 0+2 vs 1+3" in out and "pair 0+2" in out and "pair 1+3" in out


def test_team_play_is_reported_per_pair() -> None:
    report = simulate(KOZEL.with_options(teams=True), 4, 4, seed=2)
    assert report.sides == ((0, 2), (1, 3)) and len(report.decided) == 2
    assert sum(report.decided) >= 4
    text = format_report(report)
    assert "loser per side: pair 0+2 " in text and ", pair 1+3 " in text


@pytest.mark.parametrize("game", VARIANTS, ids=lambda game: game.key.value)
def test_every_game_simulates_with_its_default_table(
    game: GameVariant, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--players` defaults to 4 where the game allows it, `--teams` to the game's own."""
    assert main(["simulate", "--variant", game.key.value, "--matches", "2", "--no-progress"]) == 0
    out = capsys.readouterr().out
    players = 4 if 4 in game.ruleset.hand_sizes else game.ruleset.max_players
    assert f"variant: {game.key.value} " in out and f", {players} players: " in out
    assert ("teams 0+2 vs 1+3" in out) == (game.ruleset.teams and players == 4)
    for promised in PROMISED:
        assert promised in out


def test_command_line_reports_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--players", "9", "--matches", "1"]) == 2
    assert "error:" in capsys.readouterr().err


def test_package_reexports_the_engine() -> None:
    for name in domino.__all__:
        assert hasattr(domino, name), name
    match = domino.Match.new(domino.KOZEL, 2, seed=1)
    assert isinstance(match.view(0).round, domino.RoundView)
