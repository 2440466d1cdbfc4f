"""A computer's answer to a draw offer: it agrees when its side is behind.

Only the public score is judged (each side's recorded points, as the table shows them),
never a hand, so the reason may be logged and told. Behind means: where points are bad
(Козёл), its side has more recorded points than the best other side; where they are good,
fewer. Level or ahead, it plays on: it has more to gain than a draw.
"""

from __future__ import annotations

from dataclasses import dataclass

from domino.views import MatchView


@dataclass(frozen=True, slots=True)
class DrawAnswer:
    """Whether the computer at `seat` agrees, and why: `gap` is how many points its side
    is behind the best other side (0 or less: level or ahead)."""

    seat: int
    accept: bool
    gap: int

    @property
    def reason(self) -> str:
        return "behind" if self.accept else "not_behind"


def answer_draw(view: MatchView, seat: int) -> DrawAnswer:
    """The answer of the computer at `seat` to a draw offered in the match `view`."""
    mine = view.side_of(seat)
    points = [account.recorded for account in view.scores]
    others = [p for side, p in enumerate(points) if side != mine]
    if not others:
        return DrawAnswer(seat, False, 0)
    if view.ruleset.game.points_are_bad:
        gap = points[mine] - min(others)
    else:
        gap = max(others) - points[mine]
    return DrawAnswer(seat, gap > 0, gap)
