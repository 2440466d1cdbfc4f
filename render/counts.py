"""What the pictures show of points scored in play: the move that just scored, where
the open ends are summed (F-3) what each of them counts, and a round's points taken
apart into those scored in play and those of its end.

The engine sums the open ends (`domino.all_fives.end_count`); a picture needs that sum
end by end: each end's badge shows the pip the next tile must match, and where an end
counts nothing (an empty spinner arm) or other than its pip (a double across it counts
both halves) the picture says so (a muted badge, a tag «=12» beside it). `end_counts`
splits the sum the way F-3 counts it, so the ends' counts always add up to the
engine's sum. Whether a game scores
in play, and what a move scores, the game object says (`GameVariant.scores_in_play`,
`move_points`). What a finished round's moves scored is found as the bot's captions
find it: its tiles laid again in order, the game asked what each play scored.
"""

from __future__ import annotations

from domino.actions import Closed, Played
from domino.all_fives import end_halves
from domino.geometry import End
from domino.layout import new_layout
from domino.round import Round
from domino.views import LayoutView, MatchView, OutcomeKind, RoundResult, Scored

Split = tuple[tuple[int, ...], tuple[int, ...] | None]
"""A round's points per side: those scored in play, and those of its end (or None)."""


def scores_in_play(view: MatchView) -> bool:
    """Whether the game's moves score as they are played (F-3)."""
    return view.ruleset.game.scores_in_play


def sums_ends(view: MatchView) -> bool:
    """Whether a move scores by the sum of the open ends (F-3: Пятёрки, Тройки и
    пятёрки), so that the pictures tell what each end counts (an empty arm's muted
    badge, a tag beside an end that counts other than its pip) and a note the sum; every
    game's badges show the pip to match."""
    return view.ruleset.game.sums_ends


def doubles_count(view: MatchView) -> bool:
    """Whether a hand left at the round's end counts by its doubles (B-1: a block goes to
    the hand without any; B-2: such a hand scores 1), not by its pips (C-9, F-5): the
    games that score in play by other than the sum of the ends. Their pictures do not
    sum a hand's pips, which score nothing there."""
    game = view.ruleset.game
    return game.scores_in_play and not game.sums_ends


def in_play_points(view: MatchView, ended: Round) -> tuple[int, ...]:
    """F-3: what each side's moves scored as they were played in round `ended`: its
    tiles laid again in order (each play or closed double laid one) and the game asked
    what each play scored, as `Match` added it; zeros where nothing scores in play."""
    points = [0] * len(view.sides)
    if not scores_in_play(view):
        return tuple(points)
    ruleset = view.ruleset
    placements = ended.view(None).layout.placements
    layout = new_layout(ruleset.layout)
    laid = 0
    for event in ended.history:
        if not isinstance(event, Played | Closed):
            continue
        placement = placements[laid]
        layout.place(placement.tile, placement.end, closed=placement.closed)
        laid += 1
        if isinstance(event, Played):
            points[view.side_of(event.seat)] += ruleset.game.move_points(ruleset, layout.view())[0]
    return tuple(points)


def split_points(
    view: MatchView, result: RoundResult | None, ended: Round | None = None
) -> Split | None:
    """A round's points per side taken apart: those scored in play (F-3) and those of
    the round's end (F-5, B-1, B-2: `result.points` less the first), the second None
    where the round had no end to score (stopped at the target, F-6, or still played).

    None where the game scores only at the round's end, or where what the round scored
    in play is not known: without the round `ended` only the view's `round_points` tell
    it, which are the current round's (the round still played with no `result`, or the
    match's last round once the match is over)."""
    if not scores_in_play(view):
        return None
    if result is None:
        return (view.round_points or (0,) * len(view.sides)), None
    if ended is not None:
        in_play = in_play_points(view, ended)
    elif view.over and view.round_points and view.results and view.results[-1] == result:
        in_play = view.round_points
    else:
        return None
    if result.outcome.kind is OutcomeKind.REACHED:
        return in_play, None
    return in_play, tuple(total - made for total, made in zip(result.points, in_play, strict=True))


def end_counts(layout: LayoutView) -> dict[End, int | None]:
    """Each open end and what it adds to the sum of the open ends (F-3); None for an
    open arm of the spinner with no tile yet, which counts nothing.

    As `domino.all_fives.end_count` counts: the outer half of an end tile, both halves
    of a double lying across an end, and the spinner both halves while it is itself an
    end. A double that opened the round and has nothing on either side yet is both
    ends at once: each of its sides counts one half, so together they count both.
    """
    halves = end_halves(layout)
    return {end: halves[end] * pip if halves[end] else None for end, pip in layout.open_ends}


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
