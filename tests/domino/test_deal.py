"""Dealing (C-3, C-11) and the first leader (K-3, T-2, S-2)."""

from __future__ import annotations

import random
from collections.abc import MutableSequence, Sequence
from typing import Any

import pytest

from domino.deal import Deal, deal, first_leader, needs_redeal, turned_leader
from domino.errors import DominoError
from domino.rules import CLASSIC, KOZEL, Ruleset
from domino.sport import SPORT
from domino.tiles import ALL_TILES, Tile, mask_of


def hands(*texts: str) -> tuple[tuple[Tile, ...], ...]:
    """`hands("1-1 2-3", "4-4")`: one string of tiles per seat."""
    return tuple(tuple(Tile.parse(x) for x in text.split()) for text in texts)


def t(text: str) -> Tile:
    return Tile.parse(text)


# --------------------------------------------------------------- first leader: K-3


def test_k3_holder_of_1_1_opens_with_it() -> None:
    assert first_leader(KOZEL, hands("0-0 6-6 2-2", "3-4 1-1", "5-5")) == (1, t("1-1"))


@pytest.mark.parametrize(
    ("doubles", "expected"),
    [
        ("2-2 3-3 4-4 5-5 6-6 0-0", "2-2"),
        ("3-3 4-4 5-5 6-6 0-0", "3-3"),
        ("4-4 5-5 6-6 0-0", "4-4"),
        ("5-5 6-6 0-0", "5-5"),
        ("6-6 0-0", "6-6"),
        ("0-0", "0-0"),
    ],
)
def test_k3_falls_back_through_2_2_to_6_6_then_0_0(doubles: str, expected: str) -> None:
    # The doubles sit in seat 2; seats 0 and 1 hold only non-doubles.
    dealt = hands("0-1 2-6", "3-5 4-6", doubles)
    assert first_leader(KOZEL, dealt) == (2, t(expected))


def test_k3_double_in_another_seat_is_found_in_order() -> None:
    assert first_leader(KOZEL, hands("0-0 6-6", "4-5 3-3", "2-6")) == (1, t("3-3"))


def test_k3_no_double_highest_tile_opens() -> None:
    assert first_leader(KOZEL, hands("0-1 4-5", "5-6 0-2", "3-6")) == (1, t("5-6"))


@pytest.mark.parametrize(
    ("seat_tiles", "expected"),
    [
        (("4-6", "3-6", "4-5"), "4-6"),  # value 10 beats 9
        (("2-6", "3-6", "4-5"), "3-6"),  # 9 ties with 4-5: the higher half 6 wins
        (("2-6", "3-5", "4-5"), "4-5"),
        (("1-6", "2-5", "3-4"), "1-6"),  # all 7: 6 is the highest half
        (("2-5", "3-4", "0-1"), "2-5"),
    ],
)
def test_highest_tile_ties_broken_by_the_higher_half(
    seat_tiles: tuple[str, str, str], expected: str
) -> None:
    dealt = hands(*seat_tiles)
    seat, opening = first_leader(KOZEL, dealt)
    assert opening == t(expected)
    assert seat == seat_tiles.index(expected)
    assert first_leader(CLASSIC, dealt) == (seat, opening)  # T-2 uses the same order


def test_the_bazaar_is_not_searched() -> None:
    # 2 players: 1-1 lies in the bazaar, so the lowest double in a hand opens.
    dealt = hands("0-1 5-5", "4-4 2-3")
    assert first_leader(KOZEL, dealt) == (1, t("4-4"))


# --------------------------------------------------------------- first leader: T-2


@pytest.mark.parametrize(
    ("doubles", "expected"),
    [
        ("0-0 1-1 2-2 3-3 4-4 5-5 6-6", "6-6"),
        ("0-0 1-1 2-2 3-3 4-4 5-5", "5-5"),
        ("0-0 1-1 2-2 3-3 4-4", "4-4"),
        ("0-0 1-1 2-2 3-3", "3-3"),
        ("0-0 1-1 2-2", "2-2"),
        ("0-0 1-1", "1-1"),
        ("0-0", "0-0"),
    ],
)
def test_t2_highest_double_opens(doubles: str, expected: str) -> None:
    assert first_leader(CLASSIC, hands("2-3 4-6", doubles)) == (1, t(expected))


def test_t2_blank_may_not_open_skips_0_0_for_the_highest_tile() -> None:
    ruleset = CLASSIC.with_options(blank_may_open=False)
    dealt = hands("0-0 1-2", "2-6 3-4")
    assert first_leader(CLASSIC, dealt) == (0, t("0-0"))
    assert first_leader(ruleset, dealt) == (1, t("2-6"))
    assert first_leader(ruleset, hands("0-0 3-3", "2-6")) == (0, t("3-3"))


# ------------------------------------------------------------------- deal, C-11


@pytest.mark.parametrize(
    ("ruleset", "players"),
    [(KOZEL, 2), (KOZEL, 3), (KOZEL, 4), (CLASSIC, 2), (CLASSIC, 3), (CLASSIC, 5)],
)
def test_deal_gives_each_tile_once(ruleset: Ruleset, players: int) -> None:
    dealt = deal(ruleset, players, random.Random(7))
    size = ruleset.hand_size(players)
    assert [len(hand) for hand in dealt.hands] == [size] * players
    assert all(list(hand) == sorted(hand) for hand in dealt.hands)
    every = [tile for hand in dealt.hands for tile in hand] + list(dealt.bazaar)
    assert sorted(every) == list(ALL_TILES)
    assert len(dealt.bazaar) == 28 - players * size


def test_same_seed_same_deal() -> None:
    assert deal(KOZEL, 3, random.Random(11)) == deal(KOZEL, 3, random.Random(11))
    assert deal(KOZEL, 3, random.Random(11)) != deal(KOZEL, 3, random.Random(12))


def test_needs_redeal_five_doubles() -> None:
    four = hands("0-0 1-1 2-2 3-3 0-1 0-2 0-3", "4-4")
    five = hands("0-0 1-1 2-2 3-3 4-4 0-1 0-2", "5-5")
    assert not needs_redeal(KOZEL, four)
    assert needs_redeal(KOZEL, five)
    assert not needs_redeal(KOZEL.with_options(redeal_doubles=0), five)


def test_needs_redeal_suit_option() -> None:
    six_of_fours = hands("0-4 1-4 2-4 3-4 4-4 4-5 0-1", "2-2")
    assert not needs_redeal(KOZEL, six_of_fours)
    assert needs_redeal(KOZEL.with_options(redeal_suit=6), six_of_fours)
    assert not needs_redeal(KOZEL.with_options(redeal_suit=7), six_of_fours)


class ScriptedShuffle(random.Random):
    """A generator whose `shuffle` lays the tiles out in scripted orders, one per call."""

    def __init__(self, orders: Sequence[Sequence[Tile]]) -> None:
        super().__init__(0)
        self.orders = list(orders)
        self.calls = 0

    def shuffle(self, x: MutableSequence[Any]) -> None:
        x[:] = self.orders[self.calls]
        self.calls += 1


def order(first_hand: str, second_hand: str) -> list[Tile]:
    """A full order of the 28 tiles starting with two given 7-tile hands."""
    head = [t(x) for x in (first_hand + " " + second_hand).split()]
    return head + [tile for tile in ALL_TILES if tile not in head]


def test_redeal_with_a_crafted_sequence() -> None:
    five_doubles = order("0-0 1-1 2-2 3-3 4-4 0-1 0-2", "0-3 0-4 0-5 0-6 1-2 1-3 1-4")
    fine = order("0-1 0-2 0-3 0-4 0-5 0-6 1-1", "1-2 1-3 1-4 1-5 1-6 2-2 2-3")
    rng = ScriptedShuffle([five_doubles, fine])
    dealt = deal(KOZEL, 2, rng)
    assert rng.calls == 2
    assert dealt.redeals == 1
    assert dealt.hands[0] == tuple(fine[:7])
    assert dealt.hands[1] == tuple(fine[7:14])
    assert dealt.bazaar == tuple(fine[14:])  # draw order kept as shuffled


def test_redeal_suit_option_with_a_crafted_sequence() -> None:
    six_of_ones = order("0-1 1-1 1-2 1-3 1-4 1-5 2-2", "0-0 0-2 0-3 0-4 0-5 0-6 2-3")
    rng = ScriptedShuffle([six_of_ones, six_of_ones])
    assert deal(KOZEL, 2, ScriptedShuffle([six_of_ones])).redeals == 0
    with pytest.raises(IndexError):  # the suit rule asks for a third order the script lacks
        deal(KOZEL.with_options(redeal_suit=6), 2, rng)
    assert rng.calls == 2


def test_redeal_with_a_seeded_rng_counts_and_never_leaves_five_doubles() -> None:
    rng = random.Random(2024)
    deals = [deal(KOZEL, 2, rng) for _ in range(400)]
    assert sum(d.redeals for d in deals) > 0  # 5+ doubles in 7 tiles: about 1 deal in 130
    for d in deals:
        assert not needs_redeal(KOZEL, d.hands)
    strict = KOZEL.with_options(redeal_doubles=3)
    strict_deals = [deal(strict, 4, rng) for _ in range(50)]
    assert sum(d.redeals for d in strict_deals) > 50  # most 4x7 deals have a 3-double hand
    assert all(max(sum(x.is_double for x in hand) for hand in d.hands) < 3 for d in strict_deals)


def test_a_rule_met_by_every_deal_gives_up_with_a_clear_error() -> None:
    with pytest.raises(DominoError, match="redeals in a row"):
        deal(KOZEL.with_options(redeal_suit=1), 2, random.Random(1))


def test_deal_is_a_frozen_value() -> None:
    dealt = Deal(hands("1-1"), (), 0)
    with pytest.raises(AttributeError):
        dealt.redeals = 3  # type: ignore[misc]
    assert mask_of(dealt.hands[0]) == t("1-1").bit


# ------------------------------------------------------------ turned tiles: S-2


def test_s2_the_first_deal_turns_a_tile_per_seat_from_the_first_shuffle() -> None:
    turning = order("6-6 0-1 2-3 4-5 0-0 1-1 2-2", "3-3 4-4 5-5 0-2 0-3 0-4 0-5")
    fine = order("0-1 0-2 0-3 0-4 0-5 0-6 1-1", "1-2 1-3 1-4 1-5 1-6 2-2 2-3")
    rng = ScriptedShuffle([turning, fine])
    dealt = deal(SPORT, 4, rng, first=True)
    assert rng.calls == 2  # the turned tiles go back and the set is shuffled again
    assert dealt.turned == (t("6-6"), t("0-1"), t("2-3"), t("4-5"))
    assert dealt.hands[0] == tuple(fine[:7]) and dealt.bazaar == ()
    assert turned_leader(dealt.turned, 4) == 0


def test_s2_only_the_first_deal_of_a_game_opened_by_turned_tiles_turns_any() -> None:
    assert deal(SPORT, 4, random.Random(4)).turned == ()  # a later round
    for ruleset, players in [(KOZEL, 4), (CLASSIC, 3)]:
        first = deal(ruleset, players, random.Random(9), first=True)
        assert first == deal(ruleset, players, random.Random(9))  # the same shuffles
        assert first.turned == ()


def test_s2_the_first_leader_of_turned_tiles_is_not_searched_in_the_hands() -> None:
    with pytest.raises(DominoError, match="turned_leader"):
        first_leader(SPORT, hands("1-1", "2-2", "3-3", "4-4"))
