"""Dealing a round: shuffle, hands, bazaar, the redeal rule and the first leader.

`deal` shuffles the 28 tiles with the injected generator (C-12), gives each seat
its hand (K-1, T-1) and leaves the rest as the bazaar (C-3) in draw order. A deal
that gives some hand too many doubles (or, as an option, too many tiles of one
suit) is shuffled again (C-11). `first_leader` names the seat that opens the first
round and the tile it must open with (K-3, T-2); in Спортивное each seat first turns a
tile (`Deal.turned`) and `turned_leader` names the seat that opens with any tile (S-2).
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
    `ruleset.bazaar_reserve` tiles can never be drawn (C-6). `turned` is public: the
    tile each seat turned before the first round of a game opened by S-2
    (`Opening.TURNED_TILE`); () in other games and in later rounds. `stacks`: in a game
    played from face-down stacks (Втемную, `GameVariant.face_down`), each hand in the
    order it was dealt, the top (first turned up) first; () in other games.
    """

    hands: tuple[tuple[Tile, ...], ...]  # per seat, sorted
    bazaar: tuple[Tile, ...]
    redeals: int = 0  # how many times C-11 forced a reshuffle before this deal
    turned: tuple[Tile, ...] = ()  # S-2: per seat, the tile it turned
    stacks: tuple[tuple[Tile, ...], ...] = ()  # Втемную: per seat, top first


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


def deal(ruleset: Ruleset, players: int, rng: random.Random, *, first: bool = False) -> Deal:
    """Shuffle with `rng` (`rng.shuffle`, one call per attempt) and deal, repeating
    while C-11 demands a redeal; `Deal.redeals` counts the repeats.

    Seat `s` gets the shuffled tiles `s*n .. s*n+n-1` (n the hand size), the rest is
    the bazaar in draw order. For the `first` round of a game opened by S-2
    (`Opening.TURNED_TILE`), one more shuffle comes before: seat `s` turns the shuffled
    tile `s` (`Deal.turned`), the tiles go back and the set is shuffled and dealt. In a
    game played from face-down stacks each seat's stack is its tiles in the shuffled
    order (`Deal.stacks`).
    """
    size = ruleset.hand_size(players)
    tiles = list(ALL_TILES)
    turned: tuple[Tile, ...] = ()
    if first and ruleset.opening is Opening.TURNED_TILE:
        rng.shuffle(tiles)
        turned = tuple(tiles[:players])
    for redeals in range(MAX_REDEALS + 1):
        rng.shuffle(tiles)
        masks = [mask_of_tiles(tiles[seat * size : (seat + 1) * size]) for seat in range(players)]
        if not redeal_masks(ruleset, masks):
            hands = tuple(map(tiles_in, masks))
            stacks: tuple[tuple[Tile, ...], ...] = ()
            if ruleset.game.face_down:
                stacks = tuple(tuple(tiles[s * size : (s + 1) * size]) for s in range(players))
            return Deal(hands, tuple(tiles[players * size :]), redeals, turned, stacks)
    raise DominoError(
        f"{MAX_REDEALS} redeals in a row: the redeal rule of this ruleset (C-11) is met"
        " by almost every deal"
    )


def _opening_doubles(opening: Opening, blank_may_open: bool) -> tuple[Tile, ...]:
    if opening is Opening.LOWEST_DOUBLE_FROM_ONE:  # K-3
        return tuple(double(pip) for pip in (1, 2, 3, 4, 5, 6, 0))
    if opening is Opening.LOWEST_DOUBLE:  # B-1: 0-0 or the nearest double
        return tuple(double(pip) for pip in range(7))
    # T-2: 6-6, 5-5, ... 0-0, unless 0-0 may not open
    doubles = tuple(double(pip) for pip in range(6, -1, -1))
    return doubles if blank_may_open else doubles[:-1]


_OPENING_DOUBLES = {
    (opening, blank): _opening_doubles(opening, blank)
    for opening in (Opening.LOWEST_DOUBLE_FROM_ONE, Opening.HIGHEST_DOUBLE, Opening.LOWEST_DOUBLE)
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
    (`_tile_rank`). B-1 (`Opening.LOWEST_DOUBLE`): 0-0, 1-1 ... 6-6, else the lowest
    tile (by value, a tie by the lower higher half: 1-2 before 0-3). Only the hands
    are searched, never the bazaar.
    """
    return first_leader_masks(ruleset, [mask_of_tiles(hand) for hand in hands])


def first_leader_masks(ruleset: Ruleset, masks: Sequence[int]) -> tuple[int, Tile]:
    """`first_leader` on hands given as bitmasks."""
    if ruleset.opening is Opening.TURNED_TILE:
        raise DominoError("the first leader of S-2 comes from the turned tiles: turned_leader")
    if ruleset.opening is Opening.RANDOM_LEADER:
        raise DominoError("the first leader of F-1 is drawn by lot (Round.start): name the leader")
    for candidate in _OPENING_DOUBLES[ruleset.opening, ruleset.blank_may_open]:
        bit = candidate.bit
        for seat, mask in enumerate(masks):
            if mask & bit:
                return seat, candidate
    best: tuple[int, Tile] | None = None
    lowest = ruleset.opening is Opening.LOWEST_DOUBLE  # B-1: else the lowest tile
    for seat, mask in enumerate(masks):
        for t in tiles_in(mask):
            if t is BLANK_DOUBLE and not ruleset.blank_may_open:
                continue
            if (
                best is None
                or (not lowest and _tile_rank(t) > _tile_rank(best[1]))
                or (lowest and _tile_rank(t) < _tile_rank(best[1]))
            ):
                best = seat, t
    if best is None:
        raise DominoError("no tile in any hand may open the round")
    return best


def turned_leader(turned: Sequence[Tile], players: int) -> int:
    """S-2: the seat whose turned tile is the highest: by value, a tie by the higher half
    (`_tile_rank`: 4-6 beats 5-5, both 10, as its higher half is 6). Two different tiles
    never tie on both, so one seat leads."""
    if len(turned) != players or len(set(turned)) != players:
        raise DominoError(f"S-2 needs {players} different turned tiles, one per seat, not {turned}")
    return max(range(players), key=lambda seat: _tile_rank(turned[seat]))
