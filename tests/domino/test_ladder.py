"""The ladder (`domino.ladder`, `python -m domino ladder`) and bench/ai.py's adapter to
the `dominoes` package: paired deals, figures independent of the jobs, honest intervals,
players given their seat's view only, legal moves in the package's game."""

from __future__ import annotations

import functools
import importlib.util
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from domino.actions import Action
from domino.errors import DominoError
from domino.ladder import (
    LEVELS,
    Matchup,
    clustered_estimate,
    deal_results,
    format_ladder,
    matchup,
    play_match,
    run_ladder,
    seat_seed,
    wilson,
)
from domino.match import Match
from domino.players import GreedyPlayer
from domino.rules import KOZEL
from domino.variants import VARIANTS
from domino.views import MatchView

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("variant", "players", "pairs"),
    [("kozel", 2, False), ("kozel", 3, False), ("kozel", 4, False), ("kozel", 4, True)],
)
def test_every_seat_is_the_focal_side_once_per_deal(
    variant: str, players: int, pairs: bool
) -> None:
    chosen = matchup(variant, "hard", "greedy", players=players, pairs=pairs)
    seatings = chosen.seatings()
    assert len(seatings) == (2 if pairs else players)
    focal_seats = [
        [seat for seat, level in enumerate(seating) if level == "hard"] for seating in seatings
    ]
    assert sorted(seat for seats in focal_seats for seat in seats) == list(range(players))
    for number, seats in enumerate(focal_seats):
        assert chosen.focal_seat(number) in seats


@pytest.mark.parametrize(
    ("variant", "players", "pairs", "level"),
    [
        ("kozel", 4, False, "greedy"),
        ("kozel", 3, False, "random"),
        ("kozel", 4, True, "greedy"),
        ("classic", 3, False, "greedy"),
        ("sea_kozel", 2, False, "random"),
        ("osel", 4, False, "greedy"),
        ("sport", 4, True, "random"),
    ],
)
def test_a_focal_level_equal_to_the_field_scores_par_exactly(
    variant: str, players: int, pairs: bool, level: str
) -> None:
    """Seats are seeded by seat, not by level, so every seating of a deal plays the
    same match and the focal side's shares of it add up to exactly one."""
    chosen = matchup(variant, level, level, players=players, pairs=pairs)
    results = list(deal_results(chosen, 2, seed=5))
    for result in results:
        assert len(result.lost) == len(chosen.seatings())
        assert sum(result.lost) == pytest.approx(1.0)
        assert len(set(result.rounds)) == 1  # the same match in every seating
        if not VARIANTS_BY_KEY[variant].points_are_bad:
            assert sum(result.won) == pytest.approx(1.0)
    estimate = clustered_estimate([result.lost for result in results])
    assert estimate.share == pytest.approx(1 / len(chosen.seatings()))
    assert estimate.share in estimate.interval


VARIANTS_BY_KEY = {variant.key.value: variant for variant in VARIANTS}


def _comparable(chosen: Matchup, deals: int, jobs: int) -> list[tuple[object, ...]]:
    return [
        (r.index, r.lost, r.won, r.rounds, {level: len(t) for level, t in r.cpu.items()})
        for r in deal_results(chosen, deals, seed=11, jobs=jobs)
    ]


def test_results_do_not_depend_on_the_jobs() -> None:
    chosen = matchup("kozel", "medium", "random")
    assert _comparable(chosen, 5, jobs=1) == _comparable(chosen, 5, jobs=2)


def test_the_focal_side_gets_its_losses_and_the_field_does_not() -> None:
    """Greedy against random players, a lopsided matchup, scores well under par: the
    loss counted is the focal side's, not any seat's."""
    report = run_ladder(matchup("kozel", "greedy", "random"), 4, seed=3)
    assert report.lost.share < report.par


class SpyPlayer:
    """Greedy, and checks that it is given its own seat's view of the match only."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.views = 0

    def choose(self, view: MatchView) -> Action:
        assert type(view) is MatchView
        assert view.round.seat == self.seat and view.round.turn == self.seat
        self.views += 1
        return GreedyPlayer().choose(view)


def test_players_are_given_their_seat_view_only() -> None:
    spies = [SpyPlayer(seat) for seat in range(4)]
    cpu: dict[str, list[float]] = {"spy": []}
    wall: dict[str, list[float]] = {"spy": []}
    match = play_match(Match.new(KOZEL, 4, 9), spies, ["spy"] * 4, cpu, wall)
    assert match.over
    assert sum(spy.views for spy in spies) == len(match.log) == len(cpu["spy"])


def test_seat_seeds_depend_on_the_match_and_the_seat() -> None:
    seeds = {seat_seed(match, seat) for match in range(3) for seat in range(4)}
    assert len(seeds) == 12


@pytest.mark.parametrize("n", [1, 3, 10, 57.5, 400, 10_000])
def test_wilson_interval_contains_the_share(n: float) -> None:
    for share in (0.0, 0.01, 0.17, 0.25, 0.5, 0.99, 1.0):
        interval = wilson(share, n)
        assert 0.0 <= interval.low <= share <= interval.high <= 1.0
        assert interval.high - interval.low > 0


def test_clustered_interval_contains_the_estimate_and_widens_with_spread() -> None:
    rng = random.Random(4)
    for _ in range(50):
        groups = [[float(rng.random() < 0.3) for _ in range(4)] for _ in range(rng.randint(2, 30))]
        estimate = clustered_estimate(groups)
        assert estimate.share in estimate.interval
        assert estimate.matches == 4 * len(groups)
    # Deals whose seatings all agree carry the information of one match each...
    agreeing = clustered_estimate([[1.0] * 4] * 5 + [[0.0] * 4] * 15)
    # ...deals whose seatings split count more.
    splitting = clustered_estimate(
        [[1.0, 0.0, 0.0, 0.0]] * 10 + [[1.0, 1.0, 0.0, 0.0]] * 5 + [[0.0] * 4] * 5
    )
    assert agreeing.share == splitting.share == 0.25
    assert agreeing.effective == pytest.approx(19.0)  # p(1-p) over the variance of the mean
    assert splitting.effective > agreeing.effective
    width = agreeing.interval.high - agreeing.interval.low
    assert width > splitting.interval.high - splitting.interval.low
    # No spread between the deals (identical players): never more than the matches.
    even = clustered_estimate([[1.0, 0.0, 0.0, 0.0]] * 3)
    assert even.effective == even.matches == 12
    assert even.interval == wilson(0.25, 12)
    # Deals that split more evenly than independent matches would: still at most n.
    assert splitting.effective == splitting.matches
    # None lost: Wilson's at the number of deals, not a zero-width interval.
    none = clustered_estimate([[0.0] * 4] * 10)
    assert none.interval.low == 0.0 and none.interval.high == pytest.approx(wilson(0, 10).high)


def test_matchup_refuses_what_cannot_be_played() -> None:
    with pytest.raises(DominoError):
        matchup("kozel", "grandmaster", "greedy")
    with pytest.raises(DominoError):
        matchup("kozel", "hard", "greedy", players=3, pairs=True)
    with pytest.raises(DominoError):
        matchup("sport", "hard", "greedy", players=3)
    assert matchup("sport", "hard", "greedy").pairs  # S-1: Спортивное is pairs only
    assert set(LEVELS) == {"random", "greedy", "easy", "medium", "hard"}


def test_the_report_names_the_figures() -> None:
    report = run_ladder(matchup("classic", "greedy", "random", players=3), 2, seed=2)
    text = format_ladder(report)
    for promised in (
        "loss rate (last place)",
        "win rate",
        "95% CI",
        "par 33.3%",
        "n = 6 matches on 2 deals",
        "rounds per match",
        "decision time, greedy: median",
        "ms CPU",
        "ms wall",
        "p95",
    ):
        assert promised in text


def test_the_command_line_prints_the_figures() -> None:
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "domino",
            "ladder",
            "--matches",
            "4",
            "--focal",
            "greedy",
            "--field",
            "random",
            "--jobs",
            "2",
            "--no-progress",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    out = run.stdout
    assert "ladder: kozel, 4 players, individual: greedy vs 3 x random" in out
    assert "deals: 4, each played 4 times" in out and "16 matches" in out
    assert "козёл rate: " in out and "par 25.0%" in out and "95% CI" in out
    assert "rounds per match: " in out
    assert "decision time, greedy: median" in out and "decision time, random" in out
    assert run.stderr == ""


def test_the_command_line_refuses_a_bad_table() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "domino", "ladder", "--players", "3", "--pairs", "--matches", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2 and "pairs need four players" in run.stderr


# --- bench/ai.py's adapter to the `dominoes` package ------------------------------------------


@functools.cache
def bench_ai() -> ModuleType:
    """bench/ai.py, which is no package's module."""
    spec = importlib.util.spec_from_file_location("bench_ai", ROOT / "bench" / "ai.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("level", ["hard", "medium", "greedy"])
def test_the_adapter_plays_only_legal_moves_in_the_packages_game(level: str) -> None:
    dominoes = pytest.importorskip("dominoes")
    ai = bench_ai()
    from domino.ladder import make_player

    games = 2 if level == "hard" else 6
    for index in range(games):
        hands, starting = ai.peer_deal(7, index)
        game = ai.new_game(dominoes, hands, starting)
        ours = {seat: make_player(level, seat) for seat in (index % 2, index % 2 + 2)}
        moves = 0
        while game.result is None:
            if game.turn in ours:
                view = ai.match_view(game, game.turn)
                assert view.round.turn == game.turn and view.round.seat == game.turn
                assert len(view.round.hand) == len(game.hands[game.turn])
                move = ai.our_move(game, ours[game.turn], dominoes)
                assert move in game.valid_moves
                moves += 1
            else:
                dominoes.players.random(game)
                move = game.valid_moves[0]
            game.make_move(*move)
        assert moves > 0
        # Our engine, fed the same moves, ends the game the same way.
        final = ai.match_view(game, 0).round
        assert final.outcome is not None
        assert final.outcome.seat == game.result.player
        pips = tuple(sum(d.first + d.second for d in hand) for hand in game.hands)
        assert final.outcome.hand_values == pips


def test_the_adapter_shows_the_seat_its_own_hand_and_counts_of_the_others() -> None:
    dominoes = pytest.importorskip("dominoes")
    ai = bench_ai()
    hands, starting = ai.peer_deal(3, 1)
    game = ai.new_game(dominoes, hands, starting)
    for _ in range(5):
        dominoes.players.random(game)
        game.make_move(*game.valid_moves[0])
    view = ai.match_view(game, game.turn)
    own = sorted(ai.to_tile(d) for d in game.hands[game.turn])
    assert list(view.round.hand) == own
    assert view.round.hand_counts == tuple(len(hand) for hand in game.hands)
    assert view.ruleset.variant.value == "sport" and view.sides == ((0, 2), (1, 3))
    legal = {ai.to_move(action, dominoes) for action in view.round.legal}
    assert legal == set(game.valid_moves)
