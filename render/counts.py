"""What the table shows of points scored in play: the move that just scored, and where
the open ends are summed (F-3) what each of them counts.

The engine sums the open ends (`domino.all_fives.end_count`); a picture needs that sum
end by end, to write on each end's badge what it adds. `end_counts` splits it the way
F-3 counts it, so the badges always add up to the engine's sum. Whether a game scores
in play, and what a move scores, the game object says (`GameVariant.scores_in_play`,
`move_points`).
"""

from __future__ import annotations

from domino.actions import Played
from domino.geometry import End
from domino.views import LayoutView, MatchView, Scored

_SIDES = (End.LEFT, End.RIGHT)


def scores_in_play(view: MatchView) -> bool:
    """Whether the game's moves score as they are played (F-3)."""
    return view.ruleset.game.scores_in_play


def sums_ends(view: MatchView) -> bool:
    """Whether a move scores by the sum of the open ends (F-3: Пятёрки, Тройки и
    пятёрки), so that each end's badge shows what it counts and a note the sum; other
    games that score in play (Bergen's equal ends, B-1) keep the pips on the badges."""
    return view.ruleset.game.sums_ends


def end_counts(layout: LayoutView) -> dict[End, int | None]:
    """Each open end and what it adds to the sum of the open ends (F-3); None for an
    open arm of the spinner with no tile yet, which counts nothing.

    As `domino.all_fives.end_count` counts: the outer half of an end tile, both halves
    of a double lying across an end, and the spinner both halves while it is itself an
    end. A double that opened the round and has nothing on either side yet is both
    ends at once: each of its sides counts one half, so together they count both.
    """
    centre = layout.centre
    if centre is None:
        return {}
    empty_sides = [end for end, _ in layout.open_ends if end in _SIDES and not layout.chain(end)]
    counts: dict[End, int | None] = {}
    for end, pip in layout.open_ends:
        arm = layout.chain(end)
        if arm:
            counts[end] = 2 * pip if arm[-1].tile.is_double else pip
        elif end not in _SIDES:
            counts[end] = None
        elif not centre.tile.is_double or len(empty_sides) > 1:
            counts[end] = pip
        else:
            counts[end] = 2 * pip
    return counts


def last_scored(view: MatchView) -> Scored | None:
    """`view.scored` while the move that scored it is still the last on the table: the
    last tile played is the scorer's and the table counts what scored (draws and knocks
    after it change nothing on the table). A later move that scored nothing would leave
    a count that scores nothing, so it never passes for the scoring one."""
    scored = view.scored
    if scored is None or not scores_in_play(view):
        return None
    plays = [event for event in view.round.history if type(event) is Played]
    if not plays or plays[-1].seat != scored.seat:
        return None
    layout = view.round.layout
    if view.ruleset.game.move_points(view.ruleset, layout) != (scored.points, scored.count):
        return None
    return scored
