"""Dealing a round: shuffle, hands, bazaar, the redeal rule and the first leader.

`deal` shuffles the 28 tiles with the injected generator (C-12), gives each seat
its hand (K-1, T-1) and leaves the rest as the bazaar (C-3) in draw order. A deal
that gives some hand too many doubles (or, as an option, too many tiles of one
suit) is shuffled again (C-11). `first_leader` names the seat that opens the first
round and the tile it must open with (K-3, T-2).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from domino._core import mask_of_tiles, tiles_in
from domino.errors import DominoError
from domino.rules import Opening, Ruleset
from domino.tiles import (
    ALL_TILES,
    BLANK_DOUBLE,
    DOUBLES_MASK,
    SUIT_MASK,
    Tile,
    double,
)

MAX_REDEALS = 1000
"""C-11 reshuffles before `deal` gives up (a ruleset whose redeal rule is nearly always
met, such as `redeal_suit=2`, would otherwise loop for ever)."""


@dataclass(frozen=True)
class Deal:
    """The tiles of one round before the first move.

    `bazaar` is in draw order: `bazaar[0]` is drawn first, and the last
    `ruleset.bazaar_reserve` tiles can never be drawn (C-6).
    """

    hands: tuple[tuple[Tile, ...], ...]  # per seat, sorted
    bazaar: tuple[Tile, ...]
    redeals: int = 0  # how many times C-11 forced a reshuffle before this deal


def needs_redeal(ruleset: Ruleset, hands: Iterable[Iterable[Tile]]) -> bool:
    """C-11: some hand holds `redeal_doubles` or more doubles, or (option)
    `redeal_suit` or more tiles of one suit (a double counts once in its suit)."""
    return redeal_masks(ruleset, [mask_of_tiles(hand) for hand in hands])


def redeal_masks(ruleset: Ruleset, masks: Iterable[int]) -> bool:
    """`needs_redeal` on hands given as bitmasks."""
    doubles, suit = ruleset.redeal_doubles, ruleset.redeal_suit
    for mask in masks:
        if doubles and (mask & DOUBLES_MASK).bit_count() >= doubles:
            return True
        if suit and any((mask & suit_mask).bit_count() >= suit for suit_mask in SUIT_MASK):
            return True
    return False


def deal(ruleset: Ruleset, players: int, rng: random.Random) -> Deal:
    """Shuffle with `rng` (`rng.shuffle`, one call per attempt) and deal, repeating
    while C-11 demands a redeal; `Deal.redeals` counts the repeats.

    Seat `s` gets the shuffled tiles `s*n .. s*n+n-1` (n the hand size), the rest is
    the bazaar in draw order.
    """
    size = ruleset.hand_size(players)
    tiles = list(ALL_TILES)
    for redeals in range(MAX_REDEALS + 1):
        rng.shuffle(tiles)
        masks = [mask_of_tiles(tiles[seat * size : (seat + 1) * size]) for seat in range(players)]
        if not redeal_masks(ruleset, masks):
            return Deal(tuple(map(tiles_in, masks)), tuple(tiles[players * size :]), redeals)
    raise DominoError(
        f"{MAX_REDEALS} redeals in a row: the redeal rule of this ruleset (C-11) is met"
        " by almost every deal"
    )


def _opening_doubles(opening: Opening, blank_may_open: bool) -> tuple[Tile, ...]:
    if opening is Opening.LOWEST_DOUBLE_FROM_ONE:  # K-3
        return tuple(double(pip) for pip in (1, 2, 3, 4, 5, 6, 0))
    # T-2: 6-6, 5-5, ... 0-0, unless 0-0 may not open
    doubles = tuple(double(pip) for pip in range(6, -1, -1))
    return doubles if blank_may_open else doubles[:-1]


_OPENING_DOUBLES = {
    (opening, blank): _opening_doubles(opening, blank)
    for opening in Opening
    for blank in (True, False)
}
"""The doubles that open a first round, in order of precedence (K-3, T-2)."""


def _tile_rank(tile: Tile) -> tuple[int, int]:
    """K-3 / T-2 highest tile: by value, ties by the higher half (5-6, 4-6, 3-6, 4-5...)."""
    return tile.value, tile.high


def first_leader(ruleset: Ruleset, hands: Sequence[Iterable[Tile]]) -> tuple[int, Tile]:
    """The seat that opens the first round and the tile it must open with.

    K-3 (`Opening.LOWEST_DOUBLE_FROM_ONE`): 1-1, 2-2 ... 6-6, then 0-0; T-2
    (`Opening.HIGHEST_DOUBLE`): 6-6, 5-5 ... 0-0 (0-0 skipped when
    `blank_may_open` is off). With no such double in any hand, the highest tile
    (`_tile_rank`). Only the hands are searched, never the bazaar.
    """
    return first_leader_masks(ruleset, [mask_of_tiles(hand) for hand in hands])


def first_leader_masks(ruleset: Ruleset, masks: Sequence[int]) -> tuple[int, Tile]:
    """`first_leader` on hands given as bitmasks."""
    for candidate in _OPENING_DOUBLES[ruleset.opening, ruleset.blank_may_open]:
        bit = candidate.bit
        for seat, mask in enumerate(masks):
            if mask & bit:
                return seat, candidate
    best: tuple[int, Tile] | None = None
    for seat, mask in enumerate(masks):
        for t in tiles_in(mask):
            if t is BLANK_DOUBLE and not ruleset.blank_may_open:
                continue
            if best is None or _tile_rank(t) > _tile_rank(best[1]):
                best = seat, t
    if best is None:
        raise DominoError("no tile in any hand may open the round")
    return best
