"""All Fives / Muggins (F-1 .. F-6) and its threes-and-fives form: points scored in play.

After every move the open ends are counted (`end_count`, F-3) and a multiple of 5 (or,
in threes and fives, of 3 and of 5) scores for the mover (`move_points`). The round
itself is the common one on a table whose first double is the spinner (F-2,
`domino.layout.FirstDoubleLayout`), with draws until playable and knocks (F-4); the
first round's leader is drawn by lot (F-1, `Opening.RANDOM_LEADER`). `Match` adds the
points of each move as it is played and ends the match as soon as a side reaches the
target, in the middle of a round if need be (F-6, `OutcomeKind.REACHED`); a round that
ends by going out or by fish is scored by `score_round` (F-5).

Where section F of RULES.md is silent, the choice is written once, in the docstring of
the value or function that makes it: `ALL_FIVES` and `THREES_AND_FIVES` (hand sizes,
teams, the redeal, the targets), `end_count` (empty spinner arms), `score_round` (teams,
a tied fish, threes and fives' round end) and `domino.variants.AllFives` (who opens the
next round).
"""

from __future__ import annotations

from domino.geometry import End
from domino.rules import LayoutKind, Opening, RoundEnd, Ruleset, Scoring, Variant
from domino.scoring import lowest_side_wins, side_totals, written_result
from domino.views import LayoutView, OutcomeKind, RoundResult

ALL_FIVES = Ruleset(
    variant=Variant.ALL_FIVES,
    scoring=Scoring.ALL_FIVES,
    opening=Opening.RANDOM_LEADER,  # F-1: any tile opens, the first leader by lot
    layout=LayoutKind.FIRST_DOUBLE,  # F-2
    hand_sizes={2: 7, 3: 5, 4: 5},  # F-1
    target=250,  # F-6
    open_threshold=0,  # the rule of 13 is Козёл's
    lone_blank=0,  # F-5 counts the pips as they are
)
"""All Fives' default options.

Choices where section F is silent: with four players, 2x2 teams (partners opposite) are
an option as in K-1, a team scoring as one side; C-11's redeal (five doubles or more in
a hand) applies as in every game of the common model; the whole bazaar may be drawn
(F-4 names no reserve)."""

THREES_AND_FIVES = ALL_FIVES.with_options(variant=Variant.THREES_AND_FIVES)
"""Threes and fives (F-3's option, section V's «Тройки и пятерки») as a game of its own:
F-3's threes-and-fives count in play, F-5's round end and F-6's target (250; 200 or 300),
as section F makes it.

Choice: the English pub game is the lobby's other reading: a match to 61 or 121
(`PUB_BOARD`, its cribbage board), whose round's end is scored in the same unit as its
small points in play (`score_round`'s `unit` 5)."""

PUB_BOARD = (61, 121)
"""Threes and fives' targets of the English pub game, counted on a cribbage board: a
match to one of them scores the round's end in fives (`domino.variants.ThreesAndFives`)."""


def end_count(layout: LayoutView) -> int:
    """F-3: the sum of the open ends: the outer half of each end tile, both halves of a
    double lying across an end; the spinner counts both halves while it is itself an end
    (until tiles lie on both its sides), then only the tiles at the ends of its arms.

    Worked example (5-5 opens, the spinner): alone it counts 10; with 5-2 on its right
    10 + 2 = 12; with 5-3 on its left as well only the arms' ends count, 3 + 2 = 5.
    Choice: an open UP or DOWN arm with no tile yet counts nothing (F-3 counts tiles).
    """
    centre = layout.centre
    if centre is None:
        return 0
    total = 0
    centre_counted = False
    for end, pip in layout.open_ends:
        arm = layout.chain(end)
        if arm:
            total += 2 * pip if arm[-1].tile.is_double else pip
        elif end in (End.LEFT, End.RIGHT):
            if not centre.tile.is_double:
                total += pip  # that half of the opening tile is the end
            elif not centre_counted:  # a double (the spinner) counts once, both halves
                total += 2 * pip
                centre_counted = True
    return total


def end_halves(layout: LayoutView) -> dict[End, int]:
    """F-3 end by end: how many halves of its pip each open end adds to `end_count`: 1
    for the outer half of an end tile, 2 for a double lying across an end and for the
    spinner while it is itself an end, 0 for an open arm of the spinner with no tile yet.
    A double that opened the round with nothing on either side yet is both ends at once:
    each side counts one half of it. What the caption writes («6+6») and the picture's
    end badges show; `sum(halves * pip)` is `end_count`."""
    centre = layout.centre
    if centre is None:
        return {}
    sides = (End.LEFT, End.RIGHT)
    empty_sides = [end for end, _ in layout.open_ends if end in sides and not layout.chain(end)]
    halves: dict[End, int] = {}
    for end, _ in layout.open_ends:
        arm = layout.chain(end)
        if arm:
            halves[end] = 2 if arm[-1].tile.is_double else 1
        elif end not in sides:
            halves[end] = 0
        elif not centre.tile.is_double or len(empty_sides) > 1:
            halves[end] = 1
        else:
            halves[end] = 2
    return halves


def move_points(count: int, *, threes: bool = False) -> int:
    """F-3: what a move scores when the open ends add up to `count`: the count itself if
    it is a multiple of 5 (All Fives); in threes and fives `count / 3` for a multiple of
    3 plus `count / 5` for a multiple of 5 (15 scores 3 + 5 = 8). Nothing for 0."""
    if count <= 0:
        return 0
    if not threes:
        return count if count % 5 == 0 else 0
    return (count // 3 if count % 3 == 0 else 0) + (count // 5 if count % 5 == 0 else 0)


def nearest_five(points: int) -> int:
    """F-5: `points` rounded to the nearest multiple of 5 (halves up: 12 -> 10, 13 -> 15)."""
    return (points + 2) // 5 * 5


def score_round(end: RoundEnd, *, unit: int = 1) -> RoundResult:
    """F-5: going out, the winner's side scores the pips left in the other sides' hands;
    on a fish the side with the lowest hand total scores the sum of the differences
    between each other side's total and its own; rounded to the nearest 5 and divided by
    `unit` (5 in threes and fives: the round's end then scores in that game's unit,
    25 pips -> 5 points). The points scored in play are not here: `Match` adds them.

    Choices: the partner of a player who went out does not count against the winners
    (their own hand); a fish with several sides tied for the lowest total scores nothing.
    A round ended by reaching the target in play (`OutcomeKind.REACHED`) scores nothing
    more here.
    """
    outcome, values, sides = end.outcome, end.values, end.sides
    points = [0] * len(sides)
    if outcome.kind is not OutcomeKind.REACHED:
        totals = side_totals(values, sides)
        winner = lowest_side_wins(outcome, values, sides)
        if winner is not None:
            if outcome.kind is OutcomeKind.WENT_OUT:
                raw = sum(totals) - totals[winner]
            else:
                raw = sum(total - totals[winner] for total in totals)
            points[winner] = nearest_five(raw) // unit
    return written_result(end.round_no, outcome, end.before, points)
