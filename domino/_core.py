"""The engine's hot path: interned actions and events, and the random playout kernel.

Nothing here is public API. `domino.round` keeps hands as bitmasks (bit `i` is
`ALL_TILES[i]`) and hands out the interned `Play`, `Played`, `Drew` and `Knocked`
objects from these tables, so listing legal moves allocates only the result tuple.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from domino.actions import Drew, Knocked, Play, Played
from domino.geometry import End
from domino.tiles import ALL_TILES, FULL_SET_MASK, SUIT_MASK, Tile

TILE_LOW: tuple[int, ...] = tuple(t.low for t in ALL_TILES)
TILE_HIGH: tuple[int, ...] = tuple(t.high for t in ALL_TILES)

_CHUNK = 7
_CHUNK_TILES: tuple[tuple[tuple[Tile, ...], ...], ...] = tuple(
    tuple(
        tuple(ALL_TILES[base + i] for i in range(_CHUNK) if bits >> i & 1)
        for bits in range(1 << _CHUNK)
    )
    for base in range(0, len(ALL_TILES), _CHUNK)
)


def tiles_in(mask: int) -> tuple[Tile, ...]:
    """`tiles_of(mask)` by table lookup, 7 bits at a time (same result, index order)."""
    a, b, c, d = _CHUNK_TILES
    return a[mask & 127] + b[mask >> 7 & 127] + c[mask >> 14 & 127] + d[mask >> 21 & 127]


def mask_of_tiles(tiles: Iterable[Tile]) -> int:
    """`mask_of(tiles)` without the property call per tile."""
    mask = 0
    for t in tiles:
        mask |= 1 << t.index
    return mask


OPENING_PLAYS: tuple[Play, ...] = tuple(Play(t, None) for t in ALL_TILES)
"""`OPENING_PLAYS[i]`: the first tile of a round, `Play(ALL_TILES[i], None)`."""

PLAYS: dict[End, tuple[Play, ...]] = {end: tuple(Play(t, end) for t in ALL_TILES) for end in End}
"""`PLAYS[end][i]`: `Play(ALL_TILES[i], end)`, one object per tile and end."""

_PLAYED: dict[tuple[int, End | None, int], Played] = {}
_DREW: dict[int, Drew] = {}
_KNOCKED: dict[int, Knocked] = {}


def played(seat: int, end: End | None, index: int) -> Played:
    key = (seat, end, index)
    event = _PLAYED.get(key)
    if event is None:
        event = _PLAYED[key] = Played(seat, ALL_TILES[index], end)
    return event


def drew(seat: int) -> Drew:
    event = _DREW.get(seat)
    if event is None:
        event = _DREW[seat] = Drew(seat)
    return event


def knocked(seat: int) -> Knocked:
    event = _KNOCKED.get(seat)
    if event is None:
        event = _KNOCKED[seat] = Knocked(seat)
    return event


def line_playout(
    hands: list[int],
    left: int,
    right: int,
    turn: int,
    drawable: tuple[int, ...],
    blocked: int,
    rng: random.Random,
) -> tuple[bool, int]:
    """Play a line round (C-4) to its end with uniformly random legal actions.

    `hands` (masks, mutated in place), the pips at the two ends, the seat to move,
    the indices of the tiles still drawable in draw order and `blocked` (tiles on
    the table or in the undrawable bazaar reserve). The position must be after the
    opening and not over. Each decision takes `legal[int(rng.random() * len(legal))]`
    of the plays `Round.legal_actions` would list (a tile fitting two different ends
    counts twice); draws (C-6) and knocks (C-7) are forced and use no randomness.
    So it plays exactly the game that loop would play with the public API, only
    faster. Returns `(went_out, seat)`: who went out, or the fisherman (C-8).
    """
    players = len(hands)
    rand = rng.random
    suit = SUIT_MASK
    low_of = TILE_LOW
    high_of = TILE_HIGH
    open_mask = FULL_SET_MASK ^ blocked  # tiles in some hand or still drawable
    draw_pos = 0
    draw_len = len(drawable)
    while True:
        hand = hands[turn]
        left_mask = suit[left]
        right_mask = suit[right] if left != right else 0
        on_left = hand & left_mask
        on_right = hand & right_mask
        if not (on_left or on_right):
            while draw_pos < draw_len:  # C-6: one tile at a time until one fits
                bit = 1 << drawable[draw_pos]
                draw_pos += 1
                hand |= bit
                if bit & (left_mask | right_mask):
                    on_left = bit & left_mask
                    on_right = bit & right_mask
                    break
            hands[turn] = hand
            if not (on_left or on_right):  # C-7: knock
                turn = (turn + 1) % players
                continue
        # The pick-th of the legal plays in `Round.legal_actions` order: by tile,
        # then LEFT before RIGHT.
        pick = int(rand() * (on_left.bit_count() + on_right.bit_count()))
        both = on_left | on_right
        while True:
            bit = both & -both
            if bit & on_left:
                if not pick:
                    to_left = True
                    break
                pick -= 1
            if bit & on_right:
                if not pick:
                    to_left = False
                    break
                pick -= 1
            both ^= bit
        index = bit.bit_length() - 1
        hand ^= bit
        hands[turn] = hand
        open_mask ^= bit
        low = low_of[index]
        if to_left:
            left = high_of[index] if low == left else low
        else:
            right = high_of[index] if low == right else low
        if not hand:
            return True, turn
        if not (open_mask & (suit[left] | suit[right])):
            return False, turn
        turn = (turn + 1) % players


_DOUBLE_OF: tuple[int, ...] = tuple(
    next(t.index for t in ALL_TILES if t.low == pip and t.high == pip) for pip in range(7)
)
"""`_DOUBLE_OF[pip]`: the index of the double `pip-pip`."""

_SHED_RANK: tuple[int, ...] = tuple(2 * (t.low + t.high) + (t.low == t.high) for t in ALL_TILES)
"""Twice the pips of each tile, plus one for a double: the greedy rollout's rank."""


def line_greedy_playout(
    hands: list[int],
    left: int,
    right: int,
    turn: int,
    drawable: tuple[int, ...],
    blocked: int,
    pairs: bool,
) -> tuple[bool, int, int]:
    """Play a line round (C-4) to its end, every seat shedding its heaviest fitting tile.

    The arguments are `line_playout`'s, without the generator: the policy is fixed.
    Each mover plays the fitting tile of the highest rank (`_SHED_RANK`: the pips, a
    double first among equal pips; then the lowest tile index), on LEFT if it fits
    there; with `pairs` (M-3: two doubles in one turn, left and right ending apart) a
    mover holding both ends' doubles lays them together when they outweigh every
    single tile, the `0-0` last. Draws (C-6) and knocks (C-7) as in `line_playout`.
    Returns `(went_out, seat, last)`: who went out or the fisherman (C-8), and the
    index of the last tile laid (M-4).
    """
    players = len(hands)
    suit = SUIT_MASK
    low_of = TILE_LOW
    high_of = TILE_HIGH
    rank_of = _SHED_RANK
    double_of = _DOUBLE_OF
    open_mask = FULL_SET_MASK ^ blocked
    draw_pos = 0
    draw_len = len(drawable)
    while True:
        hand = hands[turn]
        left_mask = suit[left]
        right_mask = suit[right] if left != right else 0
        fit = hand & (left_mask | right_mask)
        if not fit:
            while draw_pos < draw_len:  # C-6
                bit = 1 << drawable[draw_pos]
                draw_pos += 1
                hand |= bit
                if bit & (left_mask | right_mask):
                    fit = bit
                    break
            hands[turn] = hand
            if not fit:  # C-7
                turn = (turn + 1) % players
                continue
        best = -1
        best_rank = -1
        rest = fit
        while rest:
            bit = rest & -rest
            index = bit.bit_length() - 1
            if rank_of[index] > best_rank:
                best, best_rank = index, rank_of[index]
            rest ^= bit
        if pairs and right_mask:
            one, two = double_of[left], double_of[right]
            if hand >> one & 1 and hand >> two & 1 and rank_of[one] + rank_of[two] - 1 > best_rank:
                hand ^= (1 << one) | (1 << two)
                hands[turn] = hand
                open_mask ^= (1 << one) | (1 << two)
                last = two if one and two else 0  # M-4: a 0-0 goes down last
                if not hand:
                    return True, turn, last
                if not (open_mask & (suit[left] | suit[right])):
                    return False, turn, last
                turn = (turn + 1) % players
                continue
        bit = 1 << best
        hand ^= bit
        hands[turn] = hand
        open_mask ^= bit
        low = low_of[best]
        if left_mask & bit:
            left = high_of[best] if low == left else low
        else:
            right = high_of[best] if low == right else low
        if not hand:
            return True, turn, best
        if not (open_mask & (suit[left] | suit[right])):
            return False, turn, best
        turn = (turn + 1) % players


def _suit_count(mask: int) -> int:
    suit = SUIT_MASK
    return (
        (mask & suit[0] != 0)
        + (mask & suit[1] != 0)
        + (mask & suit[2] != 0)
        + (mask & suit[3] != 0)
        + (mask & suit[4] != 0)
        + (mask & suit[5] != 0)
        + (mask & suit[6] != 0)
    )


def line_smart_playout(
    hands: list[int],
    left: int,
    right: int,
    turn: int,
    drawable: tuple[int, ...],
    blocked: int,
    pairs: bool,
    teams: bool,
) -> tuple[bool, int, int]:
    """`line_greedy_playout` with a policy nearer a careful player's: each mover weighs
    every fitting tile on every end it fits by the pips it sheds (1 a pip), a double
    (+6), the suits its hand keeps (+1.5 each), its tiles that fit the ends left (+1
    each), the chance that the next seat (an opponent) has nothing for those ends
    (+8, +3 while it may still draw) and, with `teams` (K-1, partners opposite), that
    the partner has nothing (-6); going out first. The chances are guessed as a player
    would, from the count of tiles the mover does not see (the others' hands and the
    bazaar), not from the hands. Ties: the lowest tile, LEFT first. Returns as
    `line_greedy_playout`."""
    players = len(hands)
    suit = SUIT_MASK
    low_of = TILE_LOW
    high_of = TILE_HIGH
    double_of = _DOUBLE_OF
    open_mask = FULL_SET_MASK ^ blocked
    draw_pos = 0
    draw_len = len(drawable)
    while True:
        hand = hands[turn]
        left_mask = suit[left]
        right_mask = suit[right] if left != right else 0
        fit = hand & (left_mask | right_mask)
        if not fit:
            while draw_pos < draw_len:  # C-6
                bit = 1 << drawable[draw_pos]
                draw_pos += 1
                hand |= bit
                if bit & (left_mask | right_mask):
                    fit = bit
                    break
            hands[turn] = hand
            if not fit:  # C-7
                turn = (turn + 1) % players
                continue
        next_count = hands[(turn + 1) % players].bit_count()
        partner_count = hands[(turn + 2) % players].bit_count() if teams else 0
        block = 8.0 if draw_pos >= draw_len else 3.0
        hidden = open_mask & ~hand
        hidden_count = hidden.bit_count() or 1
        best_score = -1e9
        best = -1
        best_left = True
        rest = fit
        while rest:
            bit = rest & -rest
            rest ^= bit
            index = bit.bit_length() - 1
            after = hand ^ bit
            low = low_of[index]
            high = high_of[index]
            base = low + high + (6.0 if low == high else 0.0) + 1.5 * _suit_count(after)
            for to_left in (True, False):
                if to_left:
                    if not bit & left_mask:
                        continue
                    nl = high if low == left else low
                    nr = right
                else:
                    if not bit & right_mask:
                        continue
                    nl = left
                    nr = high if low == right else low
                if not after:
                    score = 1e6
                else:
                    ends = suit[nl] | suit[nr]
                    score = base + (after & ends).bit_count()
                    miss = 1.0 - (hidden & ends).bit_count() / hidden_count
                    score += block * miss**next_count
                    if partner_count:
                        score -= 6.0 * miss**partner_count
                if score > best_score:
                    best_score, best, best_left = score, index, to_left
        if pairs and right_mask:
            one, two = double_of[left], double_of[right]
            both = (1 << one) | (1 << two)
            if hand & both == both:
                after = hand ^ both
                ends = left_mask | right_mask
                if not after:
                    score = 1e6
                else:
                    score = 2 * (left + right) + 12.0 + 1.5 * _suit_count(after)
                    score += (after & ends).bit_count()
                    miss = 1.0 - (hidden & ends).bit_count() / hidden_count
                    score += block * miss**next_count
                    if partner_count:
                        score -= 6.0 * miss**partner_count
                if score > best_score:
                    hand ^= both
                    hands[turn] = hand
                    open_mask ^= both
                    last = two if one and two else 0  # M-4: a 0-0 goes down last
                    if not hand:
                        return True, turn, last
                    if not (open_mask & (suit[left] | suit[right])):
                        return False, turn, last
                    turn = (turn + 1) % players
                    continue
        bit = 1 << best
        hand ^= bit
        hands[turn] = hand
        open_mask ^= bit
        low = low_of[best]
        if best_left:
            left = high_of[best] if low == left else low
        else:
            right = high_of[best] if low == right else low
        if not hand:
            return True, turn, best
        if not (open_mask & (suit[left] | suit[right])):
            return False, turn, best
        turn = (turn + 1) % players
