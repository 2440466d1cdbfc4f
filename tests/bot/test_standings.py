"""How a game that ended counts in the standings (`bot.app.standings.score`), by value: real
matches played out by greedy computer players, no database."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from functools import cache

import pytest

from bot.app.standings import abandonment_gains, score
from domino import elo
from domino.match import Match
from domino.players import GreedyPlayer
from domino.rating import classic_rating_gains, rating_gains
from domino.rules import CLASSIC, KOZEL, Ruleset, Variant
from domino.simulate import play_match
from domino.variants import find_variant
from domino.views import OutcomeKind
from storage.records import (
    Abandonment,
    Ending,
    GameRecord,
    GameStatus,
    ScoredMatch,
    ScoredPair,
    SeatRecord,
)

ALEX, MASHA, OLYA, PETYA = 11, 12, 13, 14
NO_THIRTEEN = KOZEL.with_options(open_threshold=0)
TEAMS = KOZEL.with_options(teams=True)


def played(ruleset: Ruleset, players: int, seed: int, moves: int | None = None) -> Match:
    """A real match between greedy computer players: to its end, or its first `moves`
    (`score` never changes a match, so each is played once)."""
    return _played(json.dumps(ruleset.to_dict(), sort_keys=True), players, seed, moves)


@cache
def _played(ruleset: str, players: int, seed: int, moves: int | None) -> Match:
    greedy = GreedyPlayer()
    match = Match.new(Ruleset.from_dict(json.loads(ruleset)), players, seed)
    if moves is None:
        return play_match(match, [greedy] * players)
    for _ in range(moves):
        seat = match.turn
        assert seat is not None
        match.apply(greedy.choose(match.view(seat)), seat)
    return match


def game(
    match: Match | None,
    people: Sequence[int | None],
    *,
    status: GameStatus = GameStatus.FINISHED,
    ending: Ending | None = None,
    abandonment: Abandonment | None = None,
) -> GameRecord:
    """A game record around `match`; None in `people` is a computer from the start."""
    seats = tuple(
        SeatRecord(seat, user_id, f"Игрок {user_id}" if user_id else "🤖 Бот")
        for seat, user_id in enumerate(people)
    )
    if ending is None:
        ending = Ending.FINISHED if status is GameStatus.FINISHED else Ending.CANCELLED
    return GameRecord(
        id=1,
        chat_id=-1001,
        status=status,
        creator_id=ALEX,
        ruleset=match.ruleset if match else KOZEL,
        seats_wanted=len(people),
        seats=seats,
        match=match,
        ending=ending,
        abandonment=abandonment,
    )


def scored(record: GameRecord) -> ScoredMatch:
    found = score(record)
    assert found is not None
    return found


def column(match: ScoredMatch, name: str) -> list[object]:
    return [getattr(seat, name) for seat in match.seats]


# What counts -------------------------------------------------------------------------


def test_a_game_without_a_match_or_cancelled_by_nobody_does_not_count() -> None:
    cut_short = played(KOZEL, 3, 56, moves=30)
    people = (ALEX, MASHA, OLYA)
    assert score(game(None, people)) is None
    assert score(game(cut_short, people, status=GameStatus.CANCELLED)) is None
    assert score(game(cut_short, people, status=GameStatus.PLAYING)) is None


def test_parts_that_disagree_are_refused() -> None:
    finished = played(KOZEL, 3, 56)
    with pytest.raises(ValueError, match=r"seats \[0, 1\] do not match 3 players"):
        score(game(finished, (ALEX, MASHA)))
    with pytest.raises(ValueError, match="surrender but names no abandonment"):
        score(game(played(KOZEL, 3, 56, moves=40), (ALEX, MASHA, OLYA), ending=Ending.SURRENDER))
    with pytest.raises(ValueError, match="finished but its match is not over"):
        score(game(played(KOZEL, 3, 56, moves=40), (ALEX, MASHA, OLYA)))
    short = Abandonment(0, Ending.TIMEOUT, (1, 2))
    with pytest.raises(ValueError, match="the abandonment has 2 points for 3 players"):
        score(game(finished, (ALEX, MASHA, OLYA), abandonment=short))


# A match played to its end -----------------------------------------------------------


def test_kozel_counts_the_goat_the_k11_gains_and_not_goat_as_good() -> None:
    match = played(KOZEL, 3, 56)
    assert match.seat_points() == (124, 25, 0)
    result = scored(game(match, (ALEX, MASHA, OLYA)))
    assert (result.game, result.ending, result.culprit) == (Variant.KOZEL, Ending.FINISHED, None)
    assert column(result, "rating_gain") == [1, 8, 10] == list(rating_gains((124, 25, 0)))
    assert column(result, "goat") == [True, False, False]
    assert column(result, "won") == [False, False, True]
    assert column(result, "good") == [False, True, True]  # points are bad: not козёл is good
    assert column(result, "points") == [124, 25, 0]
    assert result.elo_places == elo.places((124, 25, 0), fewer_is_better=True) == (2, 1, 0)
    assert result.pairs == ()


def test_classic_counts_the_fewest_points_last_and_a_win_as_good() -> None:
    match = played(CLASSIC, 3, 5)
    points = match.seat_points()
    result = scored(game(match, (ALEX, MASHA, OLYA)))
    assert result.game is Variant.CLASSIC
    assert column(result, "goat") == [p == min(points) for p in points]
    assert column(result, "won") == [p == max(points) for p in points]
    assert column(result, "good") == column(result, "won")
    assert column(result, "rating_gain") == list(classic_rating_gains(points))
    assert result.elo_places == elo.places(points, fewer_is_better=False)


def test_a_computer_from_the_start_keeps_the_match_out_of_elo() -> None:
    result = scored(game(played(KOZEL, 3, 56), (OLYA, None, PETYA)))
    assert result.elo_places is None
    assert column(result, "rating_gain") == [1, 8, 10]  # the rating counts as ever


def test_rounds_are_credited_to_the_seat_and_eggs_to_its_side() -> None:
    match = played(KOZEL, 4, 3)
    result = scored(game(match, (ALEX, MASHA, OLYA, PETYA)))
    for seat in result.seats:
        results = match.results
        assert seat.went_out == sum(
            r.outcome.kind is OutcomeKind.WENT_OUT and r.outcome.seat == seat.seat for r in results
        )
        assert seat.fish_made == sum(
            r.outcome.kind is OutcomeKind.FISH and r.outcome.seat == seat.seat for r in results
        )
        assert seat.eggs_taken == sum(r.eggs_taken_by == match.side_of(seat.seat) for r in results)


def test_partners_are_one_pair_keyed_by_their_ids() -> None:
    match = played(TEAMS, 4, 7)
    assert match.sides == ((0, 2), (1, 3))
    gains, points = match.rating(), match.seat_points()
    result = scored(game(match, (OLYA, MASHA, ALEX, PETYA)))  # Olya+Alex, Masha+Petya
    assert result.pairs == tuple(
        ScoredPair(ids, gains[side], side in match.losers, result.seats[side].won, points[side])
        for side, ids in enumerate(((ALEX, OLYA), (MASHA, PETYA)))
    )
    with_bot = scored(game(match, (OLYA, MASHA, None, PETYA)))
    assert [pair.user_ids for pair in with_bot.pairs] == [(MASHA, PETYA)]


# A match somebody abandoned ---------------------------------------------------------


def test_k11_timeout_rule_puts_the_culprit_last_whatever_the_points() -> None:
    """Alex timed out with 32; Masha with 30 gains 1, Olya with 13 gains 2 (K-11)."""
    match = played(NO_THIRTEEN, 4, 163, moves=181)
    assert match.seat_points() == (30, 47, 13, 32) and not match.over
    timed_out = Abandonment(3, Ending.TIMEOUT, match.seat_points())
    record = game(
        match, (MASHA, PETYA, OLYA, ALEX), status=GameStatus.CANCELLED, abandonment=timed_out
    )
    result = scored(record)
    assert (result.ending, result.culprit) == (Ending.TIMEOUT, 3)
    assert column(result, "rating_gain") == [1, 1, 2, 0]
    assert column(result, "goat") == [False, False, False, True]
    assert column(result, "good") == [True, True, True, False]
    assert result.elo_places == (1, 2, 0, 3)  # Оля, Маша, Петя, then Alex
    assert column(result, "won") == [False, False, True, False]


def test_a_finished_match_keeps_its_ending_but_is_scored_from_the_abandonment() -> None:
    partial = played(NO_THIRTEEN, 4, 163, moves=181)
    whole = played(NO_THIRTEEN, 4, 163)
    left = Abandonment(3, Ending.LEFT, partial.seat_points(), rounds=len(partial.results))
    result = scored(game(whole, (MASHA, PETYA, OLYA, ALEX), abandonment=left))
    assert (result.ending, result.culprit) == (Ending.FINISHED, 3)
    assert column(result, "rating_gain") == [1, 1, 2, 0]
    assert column(result, "goat") == [False, False, False, True]
    # Alex made a fish and went out in the 7 rounds before he left; the computer made
    # another fish in his seat in round 8: not his.
    outcomes = [(r.outcome.kind, r.outcome.seat) for r in whole.results]
    assert outcomes[:7].count((OutcomeKind.FISH, 3)) == 1 and (OutcomeKind.FISH, 3) in outcomes[7:]
    assert (result.seats[3].went_out, result.seats[3].fish_made) == (1, 1)
    # Without knowing when he left, every round is his.
    unknown = dataclasses.replace(left, rounds=None)
    every = scored(game(whole, (MASHA, PETYA, OLYA, ALEX), abandonment=unknown))
    assert every.seats[3].fish_made == outcomes.count((OutcomeKind.FISH, 3)) > 1


def test_a_surrender_makes_the_surrenderer_the_goat() -> None:
    match = played(KOZEL, 3, 56, moves=40)
    gave_up = Abandonment(1, Ending.SURRENDER, match.seat_points())
    result = scored(game(match, (ALEX, MASHA, OLYA), ending=Ending.SURRENDER, abandonment=gave_up))
    assert (result.ending, result.culprit) == (Ending.SURRENDER, 1)
    assert column(result, "goat") == [False, True, False]
    assert result.seats[1].rating_gain == 0


def test_classic_mirrors_the_timeout_rule_and_the_leader_wins() -> None:
    match = played(CLASSIC, 3, 5, moves=104)
    assert match.seat_points() == (0, 35, 88)
    timed_out = Abandonment(1, Ending.TIMEOUT, match.seat_points())
    result = scored(
        game(match, (ALEX, MASHA, OLYA), status=GameStatus.CANCELLED, abandonment=timed_out)
    )
    assert column(result, "rating_gain") == [1, 0, 5]
    assert column(result, "goat") == [False, True, False]
    assert column(result, "won") == [False, False, True]  # Оля led when Маша left
    assert column(result, "good") == column(result, "won")
    assert result.elo_places == (1, 2, 0)


def test_a_later_surrenderer_gains_nothing_and_wins_nothing() -> None:
    match = played(CLASSIC, 3, 5, moves=104)  # (0, 35, 88): Оля leads
    timed_out = Abandonment(0, Ending.TIMEOUT, match.seat_points())
    then_gave_up = timed_out.given_up_by(2)
    assert abandonment_gains(timed_out, CLASSIC.game) == (0, 4, 9)
    assert abandonment_gains(then_gave_up, CLASSIC.game) == (0, 4, 0)
    result = scored(
        game(match, (ALEX, MASHA, OLYA), status=GameStatus.CANCELLED, abandonment=then_gave_up)
    )
    assert (result.culprit, column(result, "goat")) == (0, [True, False, False])
    assert column(result, "rating_gain") == [0, 4, 0]
    assert column(result, "won") == [False, False, False]  # Оля led, but gave up
    assert result.elo_places == (2, 1, 0)  # places still by the points then


def test_a_team_culprit_takes_the_partner_down_and_their_pair_gains_nothing() -> None:
    match = played(TEAMS, 4, 7, moves=44)
    assert match.seat_points() == (0, 88, 0, 88)
    quit_ = Abandonment(2, Ending.LEFT, match.seat_points())
    result = scored(
        game(match, (ALEX, MASHA, OLYA, PETYA), status=GameStatus.CANCELLED, abandonment=quit_)
    )
    assert result.ending is Ending.LEFT
    assert column(result, "goat") == [True, False, True, False]
    assert column(result, "rating_gain") == [1, 1, 0, 1]  # the partner gains 1 (K-11)
    assert {pair.user_ids: (pair.rating_gain, pair.goat) for pair in result.pairs} == {
        (ALEX, OLYA): (0, True),
        (MASHA, PETYA): (1, False),
    }


def test_abandonment_gains_are_the_games_own() -> None:
    left = Abandonment(1, Ending.LEFT, (40, 62, 10))
    kozel = find_variant("kozel")
    assert abandonment_gains(left, kozel) == kozel.abandoned_rating_gains((40, 62, 10), 1)


def test_a_draw_gains_nobody_rating_has_no_goat_nor_winner_and_is_one_place() -> None:
    match = played(KOZEL, 3, 56, moves=20)
    drawn = scored(game(match, (ALEX, MASHA, OLYA), ending=Ending.DRAW))
    assert drawn.ending is Ending.DRAW and drawn.culprit is None
    assert column(drawn, "rating_gain") == [0, 0, 0]
    assert column(drawn, "goat") == [False, False, False]
    assert column(drawn, "won") == [False, False, False]
    assert column(drawn, "drawn") == [True, True, True]
    assert drawn.elo_places == (0, 0, 0)  # a draw between every two sides
    with_bot = scored(game(match, (ALEX, None, OLYA), ending=Ending.DRAW))
    assert with_bot.elo_places is None
