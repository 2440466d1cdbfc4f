"""How a game that ended counts in the standings: whether it counts at all, its rating
gains, its козёл, its winners, good and bad matches for the streaks, the places Elo is
moved by, the rounds each seat is credited with, and the pairs. A pure function of the
game record (`score`); `storage.stats.record_match` stores what it returns, and keeps
the running totals, Elo and the streaks from it.

The rules themselves are the engine's, asked of the game's object (`ruleset.game`):
rating gains in `domino.rating` (K-11, and its mirror where points are good), the
козёл of a finished Козёл match (K-10), whether points are good or bad, the Elo method
in `domino.elo`. What is decided here is how the standings count a match:

- Counted: a game with a match whose status is FINISHED (ending FINISHED or
  SURRENDER), and a CANCELLED game that has an `abandonment` (a person timed out, left
  or gave up; the first of them is the culprit, `GameRecord.abandonment`). Not counted
  (`score` is None): a game cancelled without an abandonment, a game without a match.
- The stored ending is the game's `ending`; a cancelled game counted because of its
  abandonment gets the abandonment's reason (TIMEOUT, LEFT, SURRENDER) instead. The
  culprit is the abandonment's seat, whatever the ending.
- Rating: `Match.rating()` of a finished match; after an abandonment,
  `GameVariant.abandoned_rating_gains` of every seat's points at that moment (K-11's
  timeout rule), however the match went on, and nothing for a person who gave up after
  it (`abandonment_gains`: a surrenderer gains no rating, whoever is the culprit, and
  no win: see Places).
- Козёл of a match: with an abandonment, the culprit's side (the culprit, and the
  partner in team play); this is how a surrender makes the surrenderer козёл. Without
  one, the game's last place (`GameVariant.last_sides`): in Козёл the match's козёл
  (`Match.losers`), in Классика the side(s) with the fewest points. A SURRENDER
  without an abandonment is refused (ValueError): it cannot say who gave up.
- Places: by final points (fewer is better where `GameVariant.points_are_bad`, more
  where they are good), or after an abandonment by the points then, with the culprit's
  side last (`elo.places`). A win is first place (shared by equal points); so a
  finished game where points are good is won by its winners, and a match somebody
  abandoned by whoever led then, never the culprit's side, nor the side of a person
  who surrendered after the culprit.
- Elo: only matches without a computer seat from the start, from the places.
- Went out: rounds the seat went out. Fish made: rounds ended by fish with the seat as
  the рыбак. Eggs taken: rounds in which the seat's side took carried eggs (K-9). A
  round stopped where a move reached the target (F-6) is neither. A person who left
  the match (/leave) is not credited with what the computer did in their seat in the
  rounds that ended after (`Abandonment.played_for`; a record that does not say when
  they left credits every round).
- Final points: `Match.seat_points()` when the game ended (a team's points for both
  partners).
- Pairs: in team play, two people on one side are one pair whatever their seats,
  keyed (lower user id, higher user id). The pair gains the smaller of the partners'
  gains (the same amount, except that a culprit's pair gains 0).
- A draw by agreement (ending DRAW, a FINISHED game without an abandonment: an offer
  is refused once somebody abandoned the match): no rating gain for anyone, no козёл,
  no winner, every seat drawn; Elo counts it as a draw between every two sides (one
  shared place); the streaks stay as they were.
- Streaks: where points are bad a good match is one not in last place (not козёл);
  where they are good, a win.
"""

from __future__ import annotations

from collections.abc import Sequence

from domino import elo
from domino.match import Match
from domino.variants import GameVariant
from domino.views import OutcomeKind
from storage.records import (
    Abandonment,
    Ending,
    GameRecord,
    GameStatus,
    ScoredMatch,
    ScoredPair,
    ScoredSeat,
)


def abandonment_gains(
    abandonment: Abandonment, game: GameVariant, target: int | None = None
) -> tuple[int, ...]:
    """Every seat's rating gain for a match to `target` that `abandonment` scores: K-11's
    timeout rule from that moment (`GameVariant.abandoned_rating_gains`, on the scale a
    finished match to that target gains on), and nothing for a person who gave up after
    the culprit."""
    gains = game.abandoned_rating_gains(abandonment.points, abandonment.seat, target=target)
    if abandonment.surrendered is None:
        return gains
    return tuple(0 if seat == abandonment.surrendered else g for seat, g in enumerate(gains))


def score(game: GameRecord) -> ScoredMatch | None:
    """How `game` counts, or None if it does not count at all (see the module's
    docstring). Raises ValueError for a game whose parts disagree (its seats and its
    players, a surrender without an abandonment, a finished game whose match is not
    over)."""
    match = game.match
    if match is None:
        return None
    abandonment = game.abandonment
    if game.status is GameStatus.FINISHED:
        ending = game.ending or Ending.FINISHED
    elif game.status is GameStatus.CANCELLED and abandonment is not None:
        ending = abandonment.reason
    else:
        return None
    seat_numbers = sorted(s.seat for s in game.seats)
    if seat_numbers != list(range(match.players)):
        raise ValueError(
            f"game {game.id}: seats {seat_numbers} do not match {match.players} players"
        )
    variant = match.ruleset.game
    points = match.seat_points()
    if abandonment is not None:
        if len(abandonment.points) != match.players:
            raise ValueError(
                f"game {game.id}: the abandonment has {len(abandonment.points)} points"
                f" for {match.players} players"
            )
        gains = abandonment_gains(abandonment, variant, match.ruleset.target)
        goat_sides: tuple[int, ...] = (match.side_of(abandonment.seat),)
        last = match.sides[goat_sides[0]]
        place_points = abandonment.points
    elif ending is Ending.DRAW:
        gains = tuple(0 for _ in range(match.players))
        goat_sides = ()
        last = ()
        place_points = tuple(0 for _ in range(match.players))
    elif ending is Ending.SURRENDER:
        raise ValueError(f"game {game.id} ended by surrender but names no abandonment")
    elif not match.over:
        raise ValueError(f"game {game.id} is finished but its match is not over")
    else:
        gains = match.rating()
        goat_sides = variant.last_sides(match.scores)
        last = ()
        place_points = points
    went_out, fish_made, eggs_taken = _credits(match, abandonment)
    places = elo.places(place_points, fewer_is_better=variant.points_are_bad, last=last)
    goat = [match.side_of(seat) in goat_sides for seat in range(match.players)]
    drawn = ending is Ending.DRAW and abandonment is None
    won = [place == 0 and not drawn for place in places]
    if abandonment is not None and abandonment.surrendered is not None:
        # A person who gave up after the culprit abandoned wins nothing, their partner
        # neither, however the points stood (as they gain no rating).
        gave_up = match.side_of(abandonment.surrendered)
        won = [w and match.side_of(seat) != gave_up for seat, w in enumerate(won)]
    good = [not g for g in goat] if variant.points_are_bad else won
    seats = tuple(
        ScoredSeat(
            seat=record.seat,
            user_id=record.user_id,
            name=record.name,
            side=match.side_of(record.seat),
            points=points[record.seat],
            goat=goat[record.seat],
            won=won[record.seat],
            good=good[record.seat],
            rating_gain=gains[record.seat],
            went_out=went_out[record.seat],
            fish_made=fish_made[record.seat],
            eggs_taken=eggs_taken[match.side_of(record.seat)],
            drawn=drawn,
        )
        for record in sorted(game.seats, key=lambda s: s.seat)
    )
    with_computer = any(seat.user_id is None for seat in seats)
    return ScoredMatch(
        game=variant.key,
        ending=ending,
        culprit=abandonment.seat if abandonment is not None else None,
        seats=seats,
        pairs=_pairs(seats),
        elo_places=None if with_computer else places,
    )


def _credits(
    match: Match, abandonment: Abandonment | None
) -> tuple[list[int], list[int], list[int]]:
    """Rounds each seat went out and made a fish in, and rounds each side took carried
    eggs in; a person who left is not credited with the computer's rounds after."""
    went_out = [0] * match.players
    fish_made = [0] * match.players
    eggs_taken = [0] * len(match.sides)
    for round_no, result in enumerate(match.results, start=1):
        if abandonment is not None and abandonment.played_for(result.outcome.seat, round_no):
            pass  # the computer's, after the person left (/leave): not theirs
        elif result.outcome.kind is OutcomeKind.WENT_OUT:
            went_out[result.outcome.seat] += 1
        elif result.outcome.kind is OutcomeKind.FISH:
            fish_made[result.outcome.seat] += 1
        if result.eggs_taken_by is not None:
            eggs_taken[result.eggs_taken_by] += 1
    return went_out, fish_made, eggs_taken


def _pairs(seats: Sequence[ScoredSeat]) -> tuple[ScoredPair, ...]:
    """Team play: each two partners who are both people, with the smaller of their
    gains; their козёл, win and points are their side's."""
    by_side: dict[int, list[ScoredSeat]] = {}
    for seat in seats:
        by_side.setdefault(seat.side, []).append(seat)
    pairs = []
    for partners in by_side.values():
        if len(partners) != 2:
            continue
        first, second = partners
        if first.user_id is None or second.user_id is None:
            continue
        low, high = sorted((first.user_id, second.user_id))
        pairs.append(
            ScoredPair(
                user_ids=(low, high),
                rating_gain=min(first.rating_gain, second.rating_gain),
                goat=first.goat,
                won=first.won,
                points=first.points,
            )
        )
    return tuple(pairs)
