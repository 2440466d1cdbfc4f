"""Tiles (C-1): parsing, printing, interning and the bitmask helpers."""

from __future__ import annotations

import pytest

from domino.tiles import (
    ALL_TILES,
    BLANK_DOUBLE,
    DOUBLES_MASK,
    FULL_SET_MASK,
    SET_TOTAL,
    SIX_DOUBLE,
    SUIT_MASK,
    TILE_VALUE,
    BadTile,
    Tile,
    iter_tiles,
    mask_of,
    mask_value,
    tile,
    tiles_of,
)


def test_the_set_has_28_tiles_adding_up_to_168() -> None:
    assert len(ALL_TILES) == 28
    assert sum(t.value for t in ALL_TILES) == SET_TOTAL == 168
    assert [t.index for t in ALL_TILES] == list(range(28))
    assert sum(t.is_double for t in ALL_TILES) == 7


@pytest.mark.parametrize("t", ALL_TILES, ids=str)
def test_str_and_parse_round_trip(t: Tile) -> None:
    assert str(t) == f"{t.low}-{t.high}"
    assert Tile.parse(str(t)) is t
    assert Tile.parse(f"{t.high}-{t.low}") is t


@pytest.mark.parametrize("text", ["2-5", "5-2", "2:5", "2|5", "25", " 2/5 "])
def test_parse_accepts_the_common_spellings(text: str) -> None:
    assert Tile.parse(text) is tile(2, 5)


@pytest.mark.parametrize("text", ["", "2-", "2-7", "a-b", "2-5-1", "7"])
def test_parse_refuses_what_is_not_a_tile(text: str) -> None:
    with pytest.raises(BadTile):
        Tile.parse(text)


def test_tiles_are_interned_and_ordered_low_high() -> None:
    assert tile(5, 2) is tile(2, 5)
    assert tile(2, 5).low == 2 and tile(2, 5).high == 5
    assert sorted([tile(3, 3), tile(0, 6), tile(1, 2)]) == [tile(0, 6), tile(1, 2), tile(3, 3)]
    assert BLANK_DOUBLE is tile(0, 0) and SIX_DOUBLE is tile(6, 6)


def test_other_half() -> None:
    assert tile(2, 5).other(2) == 5
    assert tile(2, 5).other(5) == 2
    assert tile(4, 4).other(4) == 4
    with pytest.raises(BadTile, match="no half 3"):
        tile(2, 5).other(3)


def test_suit_masks_hold_the_seven_tiles_of_each_pip() -> None:
    for pip in range(7):
        members = tiles_of(SUIT_MASK[pip])
        assert len(members) == 7
        assert all(t.has(pip) for t in members)
    assert mask_of(t for t in ALL_TILES if t.is_double) == DOUBLES_MASK
    assert mask_of(ALL_TILES) == FULL_SET_MASK


def test_mask_round_trip_and_values() -> None:
    hand = (tile(0, 0), tile(2, 5), tile(6, 6))
    mask = mask_of(hand)
    assert tiles_of(mask) == hand
    assert tuple(iter_tiles(mask)) == hand
    assert mask_value(mask) == 0 + 7 + 12
    assert mask_value(FULL_SET_MASK) == 168
    assert TILE_VALUE[tile(3, 4).index] == 7
