"""«Спортивное домино» (S-1 .. S-7): two pairs, the winning pair writes every tile left,
the first pair to 200 wins.

Pure functions and the default options that the game object (`domino.variants.Sport`)
calls; the round is the common one: the first leader comes from the tiles the seats
turned (S-2, `domino.deal.deal` and `domino.deal.turned_leader`), there is no bazaar
(S-1), so a player with no tile that fits knocks (`domino.actions.Knock`, «пас», S-3),
and C-8 ends the round by going out or by fish.
Where section S of RULES.md is silent, the choice is written once, in the docstring of
the value or function that makes it: `SPORT` (the redeal rule, turn times, S-1, S-7),
`score_sport_round` (the partner's hand, a drawn fish, S-4, S-5) and
`domino.variants.Sport` (the drawn match that cannot arise, S-6).
"""

from __future__ import annotations

from domino.errors import DominoError
from domino.rules import Opening, RoundEnd, Ruleset, Scoring, Variant
from domino.scoring import lowest_side_wins, side_totals, written_result
from domino.views import RoundResult

SPORT = Ruleset(
    variant=Variant.SPORT,
    scoring=Scoring.SPORT,
    opening=Opening.TURNED_TILE,  # S-2
    hand_sizes={4: 7},  # S-1: all 28 tiles are dealt, no bazaar
    teams=True,  # S-1: partners opposite, 0+2 against 1+3
    target=200,  # S-6
    open_threshold=0,  # the rule of 13 is Козёл's
    lone_blank=0,  # a lone 0-0 counts its pips (S-4 sums the tiles)
)
"""«Спортивное»'s default options.

S-1 fixes four players in two pairs: `Ruleset.validate` refuses a Спортивное ruleset
without teams or for another number of players, and the lobby offers only the target.
Choices where S is silent: C-11's redeal (a hand of five doubles or more) applies, as
in every game of the common model, and it is checked after the turned tiles went back
and the set was shuffled again; K-12's turn times are on by default (S-7,
`GameVariant.turn_timing`).
"""


def score_sport_round(end: RoundEnd) -> RoundResult:
    """S-4, S-5: the pair that went out, or on a fish the pair with the lower hand
    total, writes the sum of all tiles left in all four hands; nobody else writes.

    Choices where S is silent:
    - "all tiles left in all hands" (S-4) includes the hand of the winner's partner:
      the pair writes its own tiles too;
    - a fish whose pair totals are equal is a draw (S-5): nobody writes and nothing is
      carried to the next round (no eggs, which are Козёл's, K-9); `end.eggs` must be 0.
    """
    if end.eggs:
        raise DominoError("Спортивное has no eggs: a drawn fish carries nothing (S-5)")
    winner = lowest_side_wins(end.outcome, end.values, end.sides)
    points = [0] * len(end.sides)
    if winner is not None:
        points[winner] = sum(side_totals(end.values, end.sides))
    return written_result(end.round_no, end.outcome, end.before, points)
