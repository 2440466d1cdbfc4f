"""Round and match scoring: pure functions from a round's outcome to the score sheet.

Козёл (K-6 .. K-10) and Классика (T-4 .. T-6), chosen by the game (`ruleset.game`,
`domino.variants`), which calls `score_kozel_round` or `score_classic_round`. Nothing
here knows about turns or layouts: `score_round` gathers a finished round's scoring
inputs into one `RoundEnd` (the `RoundOutcome`, the accounts before the round, the
eggs carried in and, when a rule needs to know which tiles are left, the hands) and
the game turns it into a `RoundResult`.

Where RULES.md is silent or leaves an option, the choice is written once, in the
docstring of the function that makes it: `sides_for` (teams, K-1), `hand_value` (one
value to compare and to add; the lone `0-0` on a fish, C-9), `initial_scores` (accounts
open from the start, K-7), `score_kozel_round` (eggs, K-9), `score_classic_round`
(Классика with teams, T-4, T-5) and `classic_next_leader` (who opens after a fish, T-2).
"""

from __future__ import annotations

from collections.abc import Sequence

from domino.errors import DominoError
from domino.rules import FishMode, RoundEnd, Ruleset, Sides
from domino.tiles import BLANK_DOUBLE, SIX_DOUBLE, Tile
from domino.views import Account, OutcomeKind, RoundOutcome, RoundResult


def sides_for(ruleset: Ruleset, players: int) -> Sides:
    """The seats of each side (K-1, C-2): `((0, 2), (1, 3))` in team play, else one per seat.

    Teams exist only with four players; every rule of this module then applies to sides
    (one account, one hand total per side), in Классика as in Козёл.
    """
    ruleset.hand_size(players)  # refuses a player count the variant does not allow
    if ruleset.teams and players == 4:
        return ((0, 2), (1, 3))
    return tuple((seat,) for seat in range(players))


def side_of(sides: Sides, seat: int) -> int:
    """The index of the side `seat` plays for."""
    for index, seats in enumerate(sides):
        if seat in seats:
            return index
    raise DominoError(f"seat {seat} is not in a match of {sum(map(len, sides))} players")


def initial_scores(ruleset: Ruleset, sides: int) -> tuple[Account, ...]:
    """Empty accounts, one per side.

    Choice: with the rule of 13 off (`open_threshold` 0), and always in Классика (whose
    rules have no rule of 13), every account is open from the start, so nothing is ever
    remembered.
    """
    always_open = not ruleset.game.rule_of_13 or ruleset.open_threshold == 0
    return tuple(Account(opened=always_open) for _ in range(sides))


def hand_value(ruleset: Ruleset, hand: Sequence[Tile], *, fish: bool) -> int:
    """One hand's value at the end of a round (C-9, K-6, T-4).

    A lone `0-0` counts `ruleset.lone_blank` (Козёл 10, Классика 25), on a fish only
    with `lone_blank_on_fish` (the default); with `held_double_six` set, a held `6-6`
    counts that much instead of 12 (never 0). An empty hand (the player went out) is
    worth 0.

    Choice (C-9 gives one value per variant, not when it applies): in Козёл this one
    number is used both for comparing hands (who takes a fish, K-9) and for adding them
    up. Классика (`fish_by_pips`, T-5) compares the pips instead (`compared_values`):
    the lone `0-0` is the lowest hand and wins the fish, and counts 25 only in a
    loser's hand; with `lone_blank_on_fish` off it counts 0 on a fish in any hand.
    """
    if len(hand) == 1 and hand[0] == BLANK_DOUBLE:
        return ruleset.lone_blank if (ruleset.lone_blank_on_fish or not fish) else 0
    total = 0
    for t in hand:
        if t == SIX_DOUBLE and ruleset.held_double_six:
            total += ruleset.held_double_six
        else:
            total += t.value
    return total


def seat_values(
    ruleset: Ruleset, outcome: RoundOutcome, hands: Sequence[Sequence[Tile]] | None = None
) -> tuple[int, ...]:
    """Each seat's hand value (see `hand_value`) for this outcome.

    Without `hands` the values come from `outcome.hand_values` alone: a seat that
    holds tiles but has 0 pips holds exactly the `0-0` (the only blank tile), so the
    lone-blank rule can still be applied; `held_double_six` needs the hands.
    """
    fish = outcome.kind is OutcomeKind.FISH
    if hands is not None:
        if len(hands) != len(outcome.hand_values):
            raise DominoError(
                f"{len(hands)} hands given for a round of {len(outcome.hand_values)} players"
            )
        return tuple(hand_value(ruleset, hand, fish=fish) for hand in hands)
    if ruleset.held_double_six:
        raise DominoError("the held_double_six option needs the hands, not only their sums")
    lone_blank = ruleset.lone_blank if (ruleset.lone_blank_on_fish or not fish) else 0
    values = []
    for seat, pips in enumerate(outcome.hand_values):
        went_out = outcome.kind is OutcomeKind.WENT_OUT and seat == outcome.seat
        values.append(lone_blank if pips == 0 and not went_out else pips)
    return tuple(values)


def compared_values(
    ruleset: Ruleset, outcome: RoundOutcome, values: Sequence[int]
) -> tuple[int, ...]:
    """The hand values a round's winner is found by (T-5): with `fish_by_pips`, the pips
    as they lie (`outcome.hand_values`: a lone `0-0` is 0, the lowest hand), so special
    values count only in the losers' hands; else `values` themselves (`seat_values`).

    Worked example (Классика, two players, a fish): `0-0` against `3-3`; the `0-0` is
    the lower hand and scores 6 - 0 = 6 (compared with its 25, the `3-3` scored 19)."""
    if ruleset.fish_by_pips:
        return outcome.hand_values
    return tuple(values)


def side_totals(values: Sequence[int], sides: Sides) -> tuple[int, ...]:
    """Sum the seat values of each side (K-1: a team's points are its two hands)."""
    return tuple(sum(values[seat] for seat in seats) for seats in sides)


def _single_top(points: Sequence[int]) -> int | None:
    """The one side with the most points, or None when several share the most."""
    most = max(points)
    tops = [index for index, p in enumerate(points) if p == most]
    return tops[0] if len(tops) == 1 else None


def _apply_rule_of_13(
    ruleset: Ruleset, account: Account, points: int, *, went_out: bool
) -> Account:
    """K-7 for one side: record, remember, or open the account.

    An open account records the round's points directly. An unopened one opens when
    the round's points reach `open_threshold` and then records them together with
    everything remembered; below the threshold the points are remembered, except that
    a side that went out while unopened loses its remembered points.
    """
    if account.opened:
        return Account(account.recorded + points, 0, True)
    if points >= ruleset.open_threshold:
        return Account(account.recorded + points + account.remembered, 0, True)
    if went_out:
        return Account(account.recorded, 0, False)
    return Account(account.recorded, account.remembered + points, False)


def score_round(
    ruleset: Ruleset,
    round_no: int,
    outcome: RoundOutcome,
    before: Sequence[Account],
    eggs: int = 0,
    hands: Sequence[Sequence[Tile]] | None = None,
    last_tile: Tile | None = None,
) -> RoundResult:
    """Score one finished round: the score sheet's line for it, as the game
    (`ruleset.game`) scores the round's `RoundEnd`.

    `before` holds one account per side (`sides_for`), `eggs` the K-9 points carried
    into the round, `hands` the tiles left in each seat's hand (needed only for the
    `held_double_six` option and for games that score the tiles; see
    `GameVariant.seat_values`, B-1, B-2), `last_tile` the tile whose play ended the round
    (needed only where the game scores it, M-4).
    """
    players = len(outcome.hand_values)
    sides = sides_for(ruleset, players)
    if len(before) != len(sides):
        raise DominoError(f"{len(before)} accounts given for {len(sides)} sides")
    if eggs < 0:
        raise DominoError(f"eggs cannot be negative, not {eggs}")
    game = ruleset.game
    values = game.seat_values(ruleset, outcome, hands)
    end = RoundEnd(
        ruleset=ruleset,
        round_no=round_no,
        outcome=outcome,
        before=tuple(before),
        eggs=eggs,
        values=values,
        sides=sides,
        last_tile=last_tile,
        hands=hands,
    )
    return game.score_round(end)


def score_kozel_round(end: RoundEnd) -> RoundResult:
    """K-6 .. K-9, for sides (K-1).

    Choices for eggs (K-9): they arise only under `max_takes_all`; under `each` and
    `fisherman_takes_all` a tie for the most is nothing special. Eggs already carried
    are taken, under any fish mode and however the round ends, by the single side with
    the most hand points in the round; with a tie for the most they carry on.
    """
    ruleset, round_no, outcome, before = end.ruleset, end.round_no, end.outcome, end.before
    eggs, values, sides = end.eggs, end.values, end.sides
    went_out_side = side_of(sides, outcome.seat) if outcome.kind is OutcomeKind.WENT_OUT else None
    # K-6 / K-1: the side that went out scores 0; its partner's hand does not count.
    hand_points = list(side_totals(values, sides))
    if went_out_side is not None:
        hand_points[went_out_side] = 0

    points = list(hand_points)
    losing_remembered: set[int] = set()  # K-9: sides whose remembered points reset
    if outcome.kind is OutcomeKind.FISH and ruleset.fish is not FishMode.EACH:
        total = sum(hand_points)
        if ruleset.fish is FishMode.MAX_TAKES_ALL:
            taker = _single_top(hand_points)
            if taker is None:
                # K-9 eggs: a draw; nothing recorded, remembered stay, the total carries.
                return RoundResult(
                    round_no=round_no,
                    outcome=outcome,
                    before=before,
                    points=tuple(0 for _ in sides),
                    after=before,
                    eggs_before=eggs,
                    eggs_after=eggs + total,
                    eggs_taken_by=None,
                )
        else:
            taker = side_of(sides, outcome.seat)
        points = [total if index == taker else 0 for index in range(len(sides))]
        losing_remembered = {index for index in range(len(sides)) if index != taker}

    eggs_taken_by = None
    eggs_after = eggs
    if eggs:
        eggs_taken_by = _single_top(hand_points)
        if eggs_taken_by is not None:
            points[eggs_taken_by] += eggs
            eggs_after = 0

    after = []
    for index, account in enumerate(before):
        if index in losing_remembered:
            after.append(Account(account.recorded, 0, account.opened))
        else:
            after.append(
                _apply_rule_of_13(ruleset, account, points[index], went_out=index == went_out_side)
            )
    return RoundResult(
        round_no=round_no,
        outcome=outcome,
        before=before,
        points=tuple(points),
        after=tuple(after),
        eggs_before=eggs,
        eggs_after=eggs_after,
        eggs_taken_by=eggs_taken_by,
    )


def score_classic_round(end: RoundEnd) -> RoundResult:
    """T-4 (going out) and T-5 (fish); eggs do not exist in Классика.

    Choice for teams (RULES.md describes Классика for single players): a side that goes
    out scores the other side's two hands; on a fish the side totals are compared
    (`classic_round_winner`, on `compared_values`) and the winning side scores the
    others' totals minus its own.
    """
    totals = side_totals(end.values, end.sides)
    compared = compared_values(end.ruleset, end.outcome, end.values)
    winner = classic_round_winner(end.ruleset, end.outcome, compared)
    points = [0] * len(end.sides)
    if winner is not None:
        others = sum(totals) - totals[winner]
        if end.outcome.kind is OutcomeKind.WENT_OUT:
            points[winner] = others  # T-4: the opponents' hands
        else:  # T-5: minus the winner's own, as compared
            points[winner] = others - side_totals(compared, end.sides)[winner]
    return written_result(end.round_no, end.outcome, end.before, points)


def written_result(
    round_no: int,
    outcome: RoundOutcome,
    before: tuple[Account, ...],
    points: Sequence[int],
    *,
    eggs_before: int = 0,
    eggs_after: int = 0,
    eggs_taken_by: int | None = None,
) -> RoundResult:
    """The round's line in a game with no rule of 13 (Классика, Морской козёл,
    Спортивное): every account is open from the start (`initial_scores`) and each side's
    `points` are written to it as they are."""
    after = tuple(
        Account(account.recorded + gained, 0, True)
        for account, gained in zip(before, points, strict=True)
    )
    return RoundResult(
        round_no=round_no,
        outcome=outcome,
        before=before,
        points=tuple(points),
        after=after,
        eggs_before=eggs_before,
        eggs_after=eggs_after,
        eggs_taken_by=eggs_taken_by,
    )


def classic_round_winner(
    ruleset: Ruleset, outcome: RoundOutcome, values: Sequence[int]
) -> int | None:
    """The side that wins a Классика round (T-4, T-5), or None for a tied fish."""
    return lowest_side_wins(outcome, values, sides_for(ruleset, len(values)))


def lowest_side_wins(outcome: RoundOutcome, values: Sequence[int], sides: Sides) -> int | None:
    """The side that went out; on a fish the side with the lowest hand total (`values`
    are the seats' hand values, `seat_values`), or None when several share the lowest
    (T-4, T-5; M-1, M-5)."""
    if outcome.kind is OutcomeKind.WENT_OUT:
        return side_of(sides, outcome.seat)
    totals = side_totals(values, sides)
    lowest = min(totals)
    winners = [index for index, total in enumerate(totals) if total == lowest]
    return winners[0] if len(winners) == 1 else None


def next_leader(
    ruleset: Ruleset, outcome: RoundOutcome, hands: Sequence[Sequence[Tile]] | None = None
) -> int:
    """The seat that opens the next round with any tile (K-4, T-2), as the game says
    (`GameVariant.next_leader`): in Козёл who went out, or the fisherman."""
    return ruleset.game.next_leader(ruleset, outcome, hands)


def classic_next_leader(
    ruleset: Ruleset, outcome: RoundOutcome, hands: Sequence[Sequence[Tile]] | None = None
) -> int:
    """T-2: who went out; on a fish the winning side's seat with the lowest hand (a tie
    inside the side: the fisherman if he is one of them, else the lower seat); on a tied
    fish (T-5, nobody wins) the fisherman opens, as in Козёл.
    """
    if outcome.kind is OutcomeKind.WENT_OUT:
        return outcome.seat
    values = compared_values(ruleset, outcome, seat_values(ruleset, outcome, hands))
    winner = classic_round_winner(ruleset, outcome, values)
    if winner is None:
        return outcome.seat
    seats = sides_for(ruleset, len(values))[winner]
    lowest = min(values[seat] for seat in seats)
    candidates = [seat for seat in seats if values[seat] == lowest]
    return outcome.seat if outcome.seat in candidates else candidates[0]


def match_deciders(ruleset: Ruleset, scores: Sequence[Account]) -> tuple[int, ...]:
    """The sides that end the match now, or () while it goes on (K-10, T-6).

    A side has reached the target when its recorded points (never the remembered
    ones) are at or above it. If several have, only those with the most points
    count; equal ones all do. In Козёл they are the козёл(s), in Классика the winners.
    """
    reached = [index for index, account in enumerate(scores) if account.recorded >= ruleset.target]
    if not reached:
        return ()
    most = max(scores[index].recorded for index in reached)
    return tuple(index for index in reached if scores[index].recorded == most)
