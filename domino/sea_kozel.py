"""«Морской козёл» (M-1 .. M-6): the round's winner writes the losers' hands, the first to
125 wins.

Pure functions and the default options that the game object (`domino.variants.SeaKozel`)
calls; the round itself (deal, K-3 opening, C-6 drawing, C-8 fish) is the common one,
with M-3's two doubles in one turn (`domino.actions.PlayDoubles`, offered by
`domino.round.Round.legal_actions` where `GameVariant.max_doubles` is 2).
Where section M of RULES.md is silent, the choice is written once, in the docstring of
the function or value that makes it: `SEA_KOZEL` (players and teams, M),
`hand_value` (the special values on a fish too, M-2) and `score_sea_kozel_round`
(the winner of a fish, eggs, the minimum of 25 and "голый козёл", M-1, M-4, M-5).
"""

from __future__ import annotations

from collections.abc import Sequence

from domino.errors import DominoError
from domino.rules import Opening, RoundEnd, Ruleset, Scoring, Variant
from domino.scoring import lowest_side_wins, side_totals, written_result
from domino.tiles import BLANK_DOUBLE, SIX_DOUBLE, Tile
from domino.views import OutcomeKind, RoundOutcome, RoundResult

MIN_WRITTEN = 25
"""M-1: a round's points are written only from this sum up."""

LONE_BLANK = 25
"""M-2: a `0-0` left alone in a hand."""

LONE_SIX = 50
"""M-2: a `6-6` left alone in a hand."""

BLANK_AND_SIX = 75
"""M-2: a hand of exactly `0-0` and `6-6`."""

SEA_KOZEL = Ruleset(
    variant=Variant.SEA_KOZEL,
    scoring=Scoring.SEA_KOZEL,
    opening=Opening.LOWEST_DOUBLE_FROM_ONE,  # M: the lowest double opens, as K-3
    hand_sizes={2: 7, 4: 7},
    teams=True,
    target=125,  # M-6
    open_threshold=0,  # the rule of 13 is Козёл's
    lone_blank=LONE_BLANK,
)
"""«Морской козёл»'s default options.

Choices (section M says "1v1 or 2x2 teams, 7 tiles each"): two or four players; with
four, teams are the default, and four single players (`teams=False`) are accepted as in
K-1, each writing for themselves. Later rounds are opened, with any tile, by whoever went
out or made the fish, as in Козёл (K-4), which this game follows where M says nothing.
"""


def hand_value(hand: Sequence[Tile]) -> int:
    """One hand's value at the end of a round (M-2, C-9): a lone `0-0` 25, a lone `6-6`
    50, exactly `0-0` and `6-6` 75, else the pips; an empty hand 0.

    Choice (M-2 does not say when it applies): these values count on a fish as after
    going out, both to find the lower hand and in the sum written, as one number per
    hand (the same choice as `domino.scoring.hand_value`).
    """
    tiles = set(hand)
    if len(tiles) == len(hand):
        if tiles == {BLANK_DOUBLE}:
            return LONE_BLANK
        if tiles == {SIX_DOUBLE}:
            return LONE_SIX
        if tiles == {BLANK_DOUBLE, SIX_DOUBLE}:
            return BLANK_AND_SIX
    return sum(tile.value for tile in hand)


def seat_values(outcome: RoundOutcome, hands: Sequence[Sequence[Tile]] | None) -> tuple[int, ...]:
    """Each seat's `hand_value`. M-2 needs the tiles: a lone `6-6` and `5-6, 0-1` have
    the same pips, so without `hands` the values cannot be told (`DominoError`)."""
    if hands is None:
        raise DominoError("Морской козёл scores the tiles left (M-2): give the hands")
    if len(hands) != len(outcome.hand_values):
        raise DominoError(
            f"{len(hands)} hands given for a round of {len(outcome.hand_values)} players"
        )
    return tuple(hand_value(hand) for hand in hands)


def score_sea_kozel_round(end: RoundEnd) -> RoundResult:
    """M-1, M-4, M-5 for sides: the round's winner writes the losers' hands if they make
    at least `MIN_WRITTEN`; nobody else writes. `end.last_tile` is the tile whose play
    ended the round (M-4 needs it; None when not known).

    Choices where M is silent:
    - the round's winner (M-1) is the side that went out; on a fish the side with the
      lower hand total (`domino.scoring.lowest_side_wins`), and a fish tied for the
      lowest has no winner: nobody writes and the round makes eggs (M-5);
    - the eggs of a tied fish (M-5) are the total of all hands, as in Козёл (K-9); a
      further tied fish adds its total to them;
    - the next round's winner adds the eggs to the losers' hands, and M-1's minimum
      applies to that sum; a sum below it writes nothing and the eggs carry on to the
      round after (they are never lost), as does a round that ties again;
    - going out with `0-0` as the last tile ("голый козёл", M-4) wins the match by
      writing the winner up to the target (at least what the round gives it, eggs taken
      as above even below 25): the match then ends by M-6's own check, and the score
      sheet, the winners, the rating and a stored match all follow from the accounts;
    - with more than two sides (four single players), the winner writes every
      other side's hand, and a fish tied for the lowest makes eggs whoever else is higher.
    """
    outcome, before, eggs, values, sides = end.outcome, end.before, end.eggs, end.values, end.sides
    totals = side_totals(values, sides)
    winner = lowest_side_wins(outcome, values, sides)
    points = [0] * len(sides)
    eggs_after, eggs_taken_by = eggs, None
    if winner is None:
        eggs_after = eggs + sum(totals)
    else:
        written = sum(totals) - totals[winner] + eggs
        naked = outcome.kind is OutcomeKind.WENT_OUT and end.last_tile == BLANK_DOUBLE
        if naked:
            written = max(written, end.ruleset.target - before[winner].recorded)
        if naked or written >= MIN_WRITTEN:
            points[winner] = written
            eggs_after, eggs_taken_by = 0, (winner if eggs else None)
    return written_result(
        end.round_no,
        outcome,
        before,
        points,
        eggs_before=eggs,
        eggs_after=eggs_after,
        eggs_taken_by=eggs_taken_by,
    )
