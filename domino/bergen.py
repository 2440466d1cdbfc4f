"""Bergen (B-1) and «Дубли» (B-2): points for doubles and for matching ends, in play.

Both are played on a line (C-4, doubles lie across). The first round is opened with
`0-0` or the nearest double, else the lowest tile (B-1, `Opening.LOWEST_DOUBLE`); later
rounds by whoever won the last one, with any tile. A player draws only when unable to
play, and the last two bazaar tiles are never drawn (`bazaar_reserve` 2); a round
nobody can play on is blocked (C-8's fish). `Match` adds each move's points as it is
played (`bergen_points`, `dubli_points`) and ends the match as soon as a side reaches
the target (`OutcomeKind.REACHED`, as in All Fives); a finished round adds the points
of its end (`score_bergen_round`, `score_dubli_round`).

Where section B of RULES.md is silent, the choice is written once, in the docstring of
the value or function that makes it: `BERGEN` and `DUBLI` (hand sizes, targets, pairs,
who opens later rounds), `ends` (what lies at an end), `score_bergen_round` (a tie on
a block), `score_dubli_round` (the one who went out and "no doubles").
"""

from __future__ import annotations

from collections.abc import Sequence

from domino.geometry import End
from domino.rules import LayoutKind, Opening, RoundEnd, Ruleset, Scoring, Sides, Variant
from domino.scoring import side_of, written_result
from domino.tiles import Tile
from domino.views import LayoutView, OutcomeKind, RoundOutcome, RoundResult

BERGEN = Ruleset(
    variant=Variant.BERGEN,
    scoring=Scoring.BERGEN,
    opening=Opening.LOWEST_DOUBLE,  # B-1
    layout=LayoutKind.LINE,
    hand_sizes={2: 6, 3: 6, 4: 5},  # B-1
    bazaar_reserve=2,  # B-1: the last two bazaar tiles are never drawn
    target=15,  # B-1: 15 for two players (10 for three: `Bergen.table_targets`)
    open_threshold=0,
    lone_blank=0,
)
"""Bergen's default options.

Choices where B-1 is silent: four players play to 15, as two do (three to 10, as B-1
says: `domino.variants.Bergen.table_targets`; the other value is a lobby choice at every
table); four players may play in pairs as in K-1, a pair scoring as one side;
later rounds are opened by the round's winner with any tile (as K-4); C-11's redeal
applies as in every game of the common model."""

DUBLI = BERGEN.with_options(variant=Variant.DUBLI, hand_sizes={2: 7, 3: 5, 4: 5}, target=10)
"""«Дубли»'s default options: B-2 names only its scoring; its text (seeds/002) deals «по
правилам традиционного домино»: two players get 7 tiles, three or four 5, and a bazaar
is left.

Choices: the round is Bergen's (its opening, the two bazaar tiles never drawn, the
block); the match is to 10 points (15 a lobby choice), the first to reach it wins."""


def ends(layout: LayoutView) -> tuple[tuple[int, Tile], tuple[int, Tile]] | None:
    """The pip shown at the LEFT and the RIGHT end of a line and the tile lying there
    (the opening tile while its arm is empty); None before the first tile."""
    centre = layout.centre
    if centre is None:
        return None
    pips = dict(layout.open_ends)
    shown = []
    for end in (End.LEFT, End.RIGHT):
        arm = layout.chain(end)
        shown.append((pips[end], arm[-1].tile if arm else centre.tile))
    return shown[0], shown[1]


def header(layout: LayoutView) -> int:
    """B-1's headers after a move: 0 while the ends differ; 2 for a double-header (both
    ends equal; the opening double alone is one); 3 for a triple-header (one end a
    double lying across, the other end the same number)."""
    shown = ends(layout)
    if shown is None:
        return 0
    (left, left_tile), (right, right_tile) = shown
    if left != right:
        return 0
    if left_tile is not right_tile and (left_tile.is_double or right_tile.is_double):
        return 3
    return 2


def bergen_points(layout: LayoutView) -> int:
    """B-1: what the move that left the table as `layout` scores: its header (opening
    with a double scores 2, a double-header 2, a triple-header 3)."""
    return header(layout)


def dubli_points(layout: LayoutView) -> int:
    """B-2: laying a double 1; after the move both ends equal 1, or 2 when one of them
    is a double and the other shows the same number. Choice: the two add up (a double
    laid to make a triple-header scores 1 + 2 = 3; the opening double 1 + 1 = 2)."""
    last = layout.last
    if last is None:
        return 0
    laid = 1 if last.tile.is_double else 0
    return laid + {0: 0, 2: 1, 3: 2}[header(layout)]


def _doubles_held(hands: Sequence[Sequence[Tile]]) -> list[list[Tile]]:
    return [[tile for tile in hand if tile.is_double] for hand in hands]


def score_bergen_round(end: RoundEnd) -> RoundResult:
    """B-1's round end: 2 points to the side that went out; on a block 2 points to the
    one player holding no double; if several hold none, to the lowest hand among them;
    if all hold doubles, to the holder of the lowest double (a block without
    `end.hands` scores nothing here). The points scored in play are not here: `Match`
    adds them.

    Choice: a tie for the lowest hand on a block scores nothing (as a tied fish)."""
    outcome, sides, hands = end.outcome, end.sides, end.hands
    points = [0] * len(sides)
    if outcome.kind is OutcomeKind.WENT_OUT:
        points[side_of(sides, outcome.seat)] = 2
    elif outcome.kind is OutcomeKind.FISH and hands:
        winner = _block_winner(end.values, hands)
        if winner is not None:
            points[side_of(sides, winner)] = 2
    return written_result(end.round_no, outcome, end.before, points)


def _block_winner(values: Sequence[int], hands: Sequence[Sequence[Tile]]) -> int | None:
    """B-1: the seat that scores a blocked round, or None on a tie."""
    doubles = _doubles_held(hands)
    clean = [seat for seat, held in enumerate(doubles) if not held]
    if len(clean) == 1:
        return clean[0]
    if clean:
        lowest = min(values[seat] for seat in clean)
        best = [seat for seat in clean if values[seat] == lowest]
        return best[0] if len(best) == 1 else None
    return min(range(len(hands)), key=lambda seat: min(t.value for t in doubles[seat]))


def score_dubli_round(end: RoundEnd) -> RoundResult:
    """B-2's round end: going out 2; each player left with tiles but no double 1 (none
    without `end.hands`).

    Choice: the player who went out scores the 2 for it and not the point for a hand
    without doubles (there is no hand left)."""
    outcome, sides = end.outcome, end.sides
    points = [0] * len(sides)
    if outcome.kind is not OutcomeKind.REACHED:
        if outcome.kind is OutcomeKind.WENT_OUT:
            points[side_of(sides, outcome.seat)] += 2
        for seat, hand in enumerate(end.hands or ()):
            if hand and not any(tile.is_double for tile in hand):
                points[side_of(sides, seat)] += 1
    return written_result(end.round_no, outcome, end.before, points)


def next_leader(outcome: RoundOutcome, values: Sequence[int], sides: Sides) -> int:
    """Who opens the next round (choice, B is silent): who went out; after a block the
    seat with the lowest hand (a tie: the fisherman if among them, else the first)."""
    if outcome.kind is OutcomeKind.WENT_OUT:
        return outcome.seat
    del sides  # the seat, not the side, opens
    lowest = min(values)
    candidates = [seat for seat, value in enumerate(values) if value == lowest]
    return outcome.seat if outcome.seat in candidates else candidates[0]
