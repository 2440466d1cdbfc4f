"""Hand-built, valid layouts for sample pictures and tests.

The engine builds layouts by playing; these builders lay given chains directly, so
the samples and the geometry tests can show any distribution of tiles between
arms, including spinner crosses (C-10) that no ruleset deals yet. Every chain here
is valid: each tile touches its neighbour with an equal half.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from domino.actions import Played
from domino.geometry import End, Placement
from domino.rules import KOZEL, Ruleset
from domino.tiles import ALL_TILES, SET_SIZE, Tile, tile
from domino.views import (
    Account,
    LayoutView,
    MatchView,
    RoundOutcome,
    RoundResult,
    RoundView,
    Scored,
)

Link = tuple[int, int]
"""A tile walked in one direction: (the half met first, the half left open)."""


def eulerian_line(start: int = 0) -> list[Link]:
    """All 28 tiles in one line (every pip has even degree, so the set is one circuit)."""
    unused = set(ALL_TILES)
    stack = [start]
    path: list[int] = []
    while stack:
        pip = stack[-1]
        following = next((t for t in ALL_TILES if t in unused and t.has(pip)), None)
        if following is None:
            path.append(stack.pop())
        else:
            unused.remove(following)
            stack.append(following.other(pip))
    path.reverse()
    return [(path[i], path[i + 1]) for i in range(len(path) - 1)]


def _interleave(arms: Sequence[tuple[End, Sequence[Link]]]) -> list[tuple[End, int]]:
    """Play order: one tile on each arm in turn while any arm has tiles left."""
    order: list[tuple[End, int]] = []
    longest = max((len(links) for _, links in arms), default=0)
    for i in range(longest):
        order.extend((end, i) for end, links in arms if i < len(links))
    return order


def _view(
    centre: Tile,
    centre_halves: Link,
    arms: Sequence[tuple[End, Sequence[Link]]],
    spinner: bool,
) -> LayoutView:
    placed: dict[tuple[End, int], Placement] = {}
    for seq, (end, i) in enumerate(_interleave(arms), start=1):
        inner, outer = dict(arms)[end][i]
        placed[(end, i)] = Placement(tile(inner, outer), end, inner, outer, seq)
    first = Placement(centre, None, centre_halves[0], centre_halves[1], 0)
    chains = tuple((end, tuple(placed[(end, i)] for i in range(len(links)))) for end, links in arms)
    open_ends: list[tuple[End, int]] = []
    for end, chain in chains:
        if chain:
            open_ends.append((end, chain[-1].outer))
        elif end is End.LEFT:
            open_ends.append((end, first.inner))
        else:
            open_ends.append((end, first.outer))
    placements = (first, *sorted(placed.values(), key=lambda p: p.seq))
    return LayoutView(
        placements=placements,
        open_ends=tuple(open_ends),
        arms=chains,
        spinner=first if spinner else None,
    )


def line_layout(links: Sequence[Link], centre: int) -> LayoutView:
    """A line layout of a chain `links` with `links[centre]` played first.

    The tiles before the centre form the LEFT arm, those after it the RIGHT arm; the
    chain is turned round if needed so that the centre's low half faces LEFT.
    """
    if not links:
        return LayoutView((), (), (), None)
    chain = list(links)
    k = centre
    a, b = chain[k]
    if a > b:
        chain = [(y, x) for x, y in reversed(chain)]
        k = len(chain) - 1 - k
        a, b = chain[k]
    left = [(y, x) for x, y in reversed(chain[:k])]
    right = chain[k + 1 :]
    return _view(tile(a, b), (a, b), [(End.LEFT, left), (End.RIGHT, right)], spinner=False)


def spinner_arms(pip: int) -> list[Link]:
    """The 27 tiles other than `pip-pip` as one trail that starts and ends at `pip`."""
    return [link for link in eulerian_line(pip) if link != (pip, pip)]


def spinner_layout(pip: int, arms: Mapping[End, Sequence[Link]]) -> LayoutView:
    """A cross around the spinner `pip-pip` (C-10); every arm must start with `pip`."""
    order = [(end, list(arms.get(end, ()))) for end in (End.LEFT, End.RIGHT, End.UP, End.DOWN)]
    for end, links in order:
        if links and links[0][0] != pip:
            raise ValueError(f"arm {end.name} must start with a {pip}, not {links[0]}")
    return _view(tile(pip, pip), (pip, pip), order, spinner=True)


def split_trail(trail: Sequence[Link], cuts: Sequence[int]) -> list[list[Link]]:
    """Cut a closed trail from `pip` back to `pip` into arms that all start at `pip`.

    The pieces between cuts are walked forward, so every cut but the last must be a
    position where the trail returns to `pip` (see `returns`); the last piece is
    walked backwards from the trail's end, so the last cut may be anywhere.
    """
    pieces: list[list[Link]] = []
    start = 0
    for cut in [*cuts, len(trail)]:
        pieces.append(list(trail[start:cut]))
        start = cut
    *forward, last = pieces
    backward = [(y, x) for x, y in reversed(last)]
    return [*forward, backward]


def returns(trail: Sequence[Link], pip: int) -> list[int]:
    """Positions in `trail` where a tile starts from `pip` (where arms may be cut)."""
    return [i for i, (a, _) in enumerate(trail) if a == pip and i > 0]


def match_view(
    layout: LayoutView,
    players: int = 4,
    *,
    ruleset: Ruleset = KOZEL,
    hand_counts: Sequence[int] | None = None,
    bazaar: int = 0,
    turn: int | None = 0,
    round_no: int = 1,
    scores: Sequence[Account] | None = None,
    eggs: int = 0,
    results: Sequence[RoundResult] = (),
    outcome: RoundOutcome | None = None,
    losers: Sequence[int] = (),
    winners: Sequence[int] = (),
    round_points: Sequence[int] = (),
    scored: Scored | None = None,
) -> MatchView:
    """A public `MatchView` around `layout`, with made-up but consistent counts."""
    teams = ruleset.teams and players == 4
    sides: tuple[tuple[int, ...], ...] = (
        ((0, 2), (1, 3)) if teams else tuple((seat,) for seat in range(players))
    )
    if hand_counts is None:
        left = SET_SIZE - len(layout.placements) - bazaar
        hand_counts = [
            left // players + (1 if seat < left % players else 0) for seat in range(players)
        ]
    round_view = RoundView(
        seat=None,
        players=players,
        hand=(),
        hand_counts=tuple(hand_counts),
        bazaar_size=bazaar,
        drawable=bazaar,
        layout=layout,
        turn=None if outcome is not None else turn,
        turn_no=len(layout.placements),
        history=tuple(Played(p.seq % players, p.tile, p.end) for p in layout.placements),
        drawn=(),
        legal=(),
        outcome=outcome,
    )
    return MatchView(
        ruleset=ruleset.with_options(teams=teams) if teams != ruleset.teams else ruleset,
        players=players,
        round_no=round_no,
        round=round_view,
        sides=sides,
        scores=tuple(scores) if scores is not None else tuple(Account() for _ in sides),
        eggs=eggs,
        results=tuple(results),
        over=bool(losers or winners),
        losers=tuple(losers),
        winners=tuple(winners),
        round_points=tuple(round_points),
        scored=scored,
    )
