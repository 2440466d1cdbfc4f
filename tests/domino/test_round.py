"""Scripted rounds: opening, choices, drawing, knocking, going out, fish, errors, views.

Positions are crafted with `Round.from_deal`, so every case states its tiles.
"""

from __future__ import annotations

import random

import pytest

from domino.actions import DRAW, KNOCK, Drew, Knocked, Play, Played
from domino.deal import Deal
from domino.errors import DominoError, IllegalMove, NotYourTurn, RoundOver
from domino.geometry import End
from domino.round import Round
from domino.rules import CLASSIC, KOZEL, LayoutKind, Ruleset
from domino.tiles import ALL_TILES, Tile
from domino.views import OutcomeKind, RoundOutcome

L, R = End.LEFT, End.RIGHT


def t(text: str) -> Tile:
    return Tile.parse(text)


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(t(x) for x in text.split())


def crafted(hands: list[str], head: str = "", tail: str = "") -> Deal:
    """Hands as given; the bazaar is `head`, then every other tile, then `tail`."""
    held = [tiles(hand) for hand in hands]
    first, last = tiles(head), tiles(tail)
    taken = {x for hand in held for x in hand} | set(first) | set(last)
    middle = tuple(x for x in ALL_TILES if x not in taken)
    return Deal(tuple(held), first + middle + last, 0)


def play(round_: Round, text: str, end: End | None = None) -> None:
    round_.apply(Play(t(text), end))


# The textbook fish: both ends 0 and all seven 0s down after ten plays (C-8).
TEXTBOOK = crafted(["1-2 0-2 0-3 0-4 5-6 1-1 2-2", "0-1 0-0 3-4 0-5 0-6 3-3 4-4"])
TEXTBOOK_MOVES = [
    ("1-2", None),
    ("0-1", L),
    ("0-2", R),
    ("0-0", L),
    ("0-3", L),
    ("3-4", L),
    ("0-4", L),
    ("0-5", L),
    ("5-6", L),
    ("0-6", L),
]


# ----------------------------------------------------------------------- opening


def test_first_round_leader_must_open_with_1_1() -> None:
    round_ = Round.from_deal(KOZEL, 2, TEXTBOOK)  # seat 0 holds 1-1 (K-3)
    assert (round_.leader, round_.opening_tile, round_.turn) == (0, t("1-1"), 0)
    assert round_.legal_actions() == (Play(t("1-1")),)
    with pytest.raises(IllegalMove, match=r"first round opens with 1-1 \(K-3\)"):
        play(round_, "1-2")
    with pytest.raises(IllegalMove, match="opens with a play"):
        round_.apply(DRAW)
    with pytest.raises(IllegalMove, match="without an end"):
        play(round_, "1-1", L)


def test_classic_first_leader_opens_with_the_highest_double() -> None:
    round_ = Round.from_deal(CLASSIC, 2, TEXTBOOK)  # T-2: 6-6 is in the bazaar, 4-4 in seat 1
    assert (round_.leader, round_.opening_tile) == (1, t("4-4"))
    assert round_.legal_actions() == (Play(t("4-4")),)


def test_a_given_leader_opens_with_any_tile() -> None:
    round_ = Round.from_deal(KOZEL, 2, TEXTBOOK, leader=1)  # K-4
    assert round_.opening_tile is None and round_.turn == 1
    assert round_.legal_actions() == tuple(Play(x) for x in sorted(TEXTBOOK.hands[1]))


# ------------------------------------------------------------------ choices, C-5


def test_a_tile_fitting_both_ends_gives_two_plays_and_equal_ends_one() -> None:
    round_ = Round.from_deal(KOZEL, 2, crafted(["2-5 0-0 1-1", "2-2 2-6 5-6 0-1"]), leader=0)
    play(round_, "2-5")
    # 2-2 fits LEFT (2); 2-6 fits LEFT; 5-6 fits RIGHT (5); 0-1 fits nothing.
    assert round_.legal_actions() == (Play(t("2-2"), L), Play(t("2-6"), L), Play(t("5-6"), R))
    play(round_, "2-6", L)  # ends 6 and 5
    assert round_.turn == 0
    with pytest.raises(IllegalMove, match="does not fit the open ends 6 and 5"):
        play(round_, "0-0", L)
    both = Round.from_deal(KOZEL, 2, crafted(["3-3 0-0", "1-3 3-4"]), leader=0)
    play(both, "3-3")  # both ends show 3: each fitting tile is offered on LEFT only
    assert both.legal_actions() == (Play(t("1-3"), L), Play(t("3-4"), L))
    with pytest.raises(IllegalMove, match="both ends show 3: play 1-3 on the LEFT end"):
        play(both, "1-3", R)


def test_a_tile_fitting_two_different_ends_is_offered_on_both() -> None:
    round_ = Round.from_deal(KOZEL, 2, crafted(["1-2 0-0 5-5", "0-1 0-2 3-3"]), leader=0)
    play(round_, "1-2")  # ends 1 and 2
    assert round_.legal_actions() == (Play(t("0-1"), L), Play(t("0-2"), R))
    play(round_, "0-1", L)
    play(round_, "0-0", L)  # ends 0 and 2
    assert round_.legal_actions() == (Play(t("0-2"), L), Play(t("0-2"), R))


# ------------------------------------------------------------ drawing, C-6 / K-5

SIXES_DEAL_HANDS = ["6-6 0-6 1-6 2-6 3-6 4-6 0-0", "1-1 1-2 2-2 0-3 1-3 2-3 3-3"]


def sixes_round(reserve: int, five_six_from_end: int) -> Round:
    """Seat 0 opens 6-6; seat 1 holds no 6; the only 6 left, 5-6, lies in the bazaar
    `five_six_from_end` places from its bottom (1 = the very last tile)."""
    rest = [x for x in ALL_TILES if x not in {y for h in SIXES_DEAL_HANDS for y in tiles(h)}]
    rest.remove(t("5-6"))
    rest.insert(len(rest) + 1 - five_six_from_end, t("5-6"))
    dealt = Deal(tuple(tiles(h) for h in SIXES_DEAL_HANDS), tuple(rest), 0)
    round_ = Round.from_deal(KOZEL.with_options(bazaar_reserve=reserve), 2, dealt, leader=0)
    play(round_, "6-6")
    return round_


def test_draw_one_at_a_time_then_the_drawn_tile_must_be_played() -> None:
    round_ = Round.from_deal(
        KOZEL,
        2,
        crafted(SIXES_DEAL_HANDS, head="0-4 0-5 5-6"),
        leader=0,
    )
    play(round_, "6-6")
    assert round_.turn == 1 and round_.legal_actions() == (DRAW,)
    with pytest.raises(IllegalMove, match="bazaar has 14 tile"):
        round_.apply(KNOCK)
    assert round_.apply(DRAW) == Drew(1)
    assert round_.turn == 1 and round_.turn_no == 2  # the turn stays with the drawer
    round_.apply(DRAW)
    assert round_.legal_actions() == (DRAW,)
    round_.apply(DRAW)  # 5-6 fits
    assert round_.drawn(1) == tiles("0-4 0-5 5-6")
    assert round_.legal_actions() == (Play(t("5-6"), L),)
    for action in (DRAW, KNOCK):
        with pytest.raises(IllegalMove, match="you drew 5-6, which fits: you must play it"):
            round_.apply(action)
    with pytest.raises(IllegalMove, match="0-4 does not fit the open ends 6 and 6"):
        play(round_, "0-4", L)
    play(round_, "5-6", L)
    assert round_.turn == 0
    assert round_.bazaar_size == 11
    assert round_.history[-4:] == (Drew(1), Drew(1), Drew(1), Played(1, t("5-6"), L))


@pytest.mark.parametrize(
    ("reserve", "from_end", "draws", "then_plays"),
    [(0, 1, 14, True), (1, 1, 13, False), (1, 2, 13, True), (2, 2, 12, False), (2, 1, 12, False)],
)
def test_draw_until_playable_respects_the_bazaar_reserve(
    reserve: int, from_end: int, draws: int, then_plays: bool
) -> None:
    round_ = sixes_round(reserve, from_end)
    count = 0
    while round_.legal_actions() == (DRAW,):
        round_.apply(DRAW, seat=1)
        count += 1
    assert count == draws
    assert round_.drawable == 0 or then_plays
    assert round_.bazaar_size == 14 - draws
    if then_plays:
        assert round_.legal_actions() == (Play(t("5-6"), L),)
    else:
        assert round_.legal_actions() == (KNOCK,)  # C-7: nothing drawable is left
        with pytest.raises(IllegalMove, match=f"last {14 - draws} bazaar tile"):
            round_.apply(DRAW)
        assert round_.apply(KNOCK) == Knocked(1)
        assert round_.turn == 0 and not round_.over


def test_knock_with_no_bazaar() -> None:
    hands = ["1-1 1-2 0-0 0-1 0-2 0-3 0-4", "3-3 3-4 3-5 3-6 4-4 4-5 4-6", "", ""]
    rest = [x for x in ALL_TILES if x not in tiles(hands[0] + " " + hands[1])]
    hands[2] = " ".join(map(str, rest[:7]))
    hands[3] = " ".join(map(str, rest[7:]))
    round_ = Round.from_deal(KOZEL, 4, crafted(hands))
    play(round_, "1-1")
    assert round_.turn == 1 and round_.legal_actions() == (KNOCK,)
    with pytest.raises(IllegalMove, match="the bazaar is empty: knock"):
        round_.apply(DRAW)
    assert round_.apply(KNOCK) == Knocked(1)
    assert round_.turn == 2


def test_draw_while_holding_a_playable_tile_is_refused() -> None:
    round_ = Round.from_deal(KOZEL, 2, TEXTBOOK)
    play(round_, "1-1")
    with pytest.raises(IllegalMove, match="you hold 0-1, which fits: you must play it"):
        round_.apply(DRAW)
    round_ = Round.from_deal(KOZEL, 2, TEXTBOOK, leader=1)
    play(round_, "0-0")
    with pytest.raises(IllegalMove, match="you hold 0-2, 0-3 and 0-4, which fit: you must play"):
        round_.apply(KNOCK)


# ---------------------------------------------------------------- round end, C-8


def play_script(round_: Round, moves: list[tuple[str, End | None]]) -> None:
    for text, end in moves:
        assert not round_.over
        play(round_, text, end)


def test_textbook_fish_both_ends_equal_all_seven_down() -> None:
    round_ = Round.from_deal(KOZEL, 2, TEXTBOOK, leader=0)
    play_script(round_, TEXTBOOK_MOVES)  # it checks the round is not over before each play
    assert round_.outcome == RoundOutcome(OutcomeKind.FISH, 1, (2 + 4, 6 + 8))
    assert round_.over and round_.turn is None and round_.legal_actions() == ()
    assert round_.layout.open_ends() == ((L, 0), (R, 0))
    assert round_.drawable == 14  # declared at once: nobody draws a bazaar that cannot help


def test_fish_with_undrawable_zeros_in_the_reserve() -> None:
    hands = ["1-2 0-2 0-3 0-4 1-1 2-2 1-3", "0-1 0-0 3-4 3-3 4-4 5-5 6-6"]
    reserved = Round.from_deal(
        KOZEL.with_options(bazaar_reserve=2), 2, crafted(hands, tail="0-5 0-6"), leader=0
    )
    play_script(reserved, TEXTBOOK_MOVES[:7])  # both ends 0; 0-5 and 0-6 are undrawable
    assert reserved.outcome == RoundOutcome(OutcomeKind.FISH, 0, (2 + 4 + 4, 6 + 8 + 10 + 12))
    drawable = Round.from_deal(KOZEL, 2, crafted(hands, tail="0-5 0-6"), leader=0)
    play_script(drawable, TEXTBOOK_MOVES[:7])
    assert not drawable.over  # without the reserve 0-5 can still be drawn
    assert drawable.legal_actions() == (DRAW,)


def test_fish_with_different_ends_found_in_seeded_rounds() -> None:
    """With every tile live a line cannot block on two different pips (each suit has
    eight halves, an even number, and one of them would show at an end); with a
    bazaar reserve it can, and the mask test must find it."""
    ruleset = KOZEL.with_options(bazaar_reserve=2)
    rng = random.Random(5)
    found = 0
    for _ in range(200):
        round_ = Round.start(ruleset, 2, rng)
        while not round_.over:
            round_.apply(rng.choice(round_.legal_actions()))
        ends = round_.layout.open_ends()
        if round_.outcome and round_.outcome.kind is OutcomeKind.FISH and ends[0][1] != ends[1][1]:
            found += 1
            pips = {pip for _, pip in ends}
            live = [x for seat in range(2) for x in round_.hand(seat)]
            live += list(round_.deal.bazaar[len(round_.deal.bazaar) - round_.bazaar_size :][:-2])
            assert not any(x.has(pip) for x in live for pip in pips)
            assert all(round_.hand(seat) for seat in range(2))
            if found == 5:
                break
    assert found == 5


def test_blocking_with_the_last_tile_is_going_out_not_fish() -> None:
    dealt = crafted(["1-2 0-2 0-3 0-4 5-6 1-1 2-2", "0-1 0-0 3-4 0-5 0-6"])
    round_ = Round.from_deal(KOZEL, 2, dealt, leader=0)
    play_script(round_, TEXTBOOK_MOVES)
    assert round_.outcome == RoundOutcome(OutcomeKind.WENT_OUT, 1, (6, 0))


def test_hand_values_are_plain_sums() -> None:
    round_ = Round.from_deal(KOZEL, 2, crafted(["1-1 0-0", "1-2 3-3 4-5"]), leader=0)
    play(round_, "1-1")
    play(round_, "1-2", L)
    assert round_.hand_values() == (0, 15)  # a lone 0-0 is 0 here; its special value is scoring's


# ------------------------------------------------------------------------ errors


def test_precise_errors_and_refusals_change_nothing() -> None:
    round_ = Round.from_deal(KOZEL, 2, TEXTBOOK, leader=0)
    play(round_, "1-2")  # ends 1 and 2; seat 1 to move
    before = round_.copy()
    cases: list[tuple[type[DominoError], str, object, int | None]] = [
        (NotYourTurn, "seat 1's turn, not seat 0's", Play(t("0-1"), L), 0),
        (IllegalMove, "you do not hold 5-6", Play(t("5-6"), L), None),
        (IllegalMove, "3-4 does not fit the open ends 1 and 2", Play(t("3-4"), L), 1),
        (
            IllegalMove,
            "0-1 does not fit the RIGHT end, which shows 2; it fits the LEFT",
            Play(t("0-1"), R),
            None,
        ),
        (IllegalMove, "choose an end for 0-1", Play(t("0-1")), None),
        (IllegalMove, "you hold 0-1, which fits", DRAW, None),
        (IllegalMove, "you hold 0-1, which fits", KNOCK, 1),
    ]
    for error, message, action, seat in cases:
        assert not round_.is_legal(action, seat)  # type: ignore[arg-type]
        with pytest.raises(error, match=message):
            round_.apply(action, seat)  # type: ignore[arg-type]
        assert round_ == before
    assert round_.is_legal(Play(t("0-1"), L))


def test_round_over_refuses_every_action() -> None:
    round_ = Round.from_deal(KOZEL, 2, TEXTBOOK, leader=0)
    play_script(round_, TEXTBOOK_MOVES)
    finished = round_.copy()
    for action in (Play(t("1-1"), L), DRAW, KNOCK):
        with pytest.raises(RoundOver):
            round_.apply(action)
        with pytest.raises(RoundOver):
            round_.apply(action, seat=0)
    assert round_ == finished


def test_from_deal_refuses_broken_deals() -> None:
    with pytest.raises(DominoError, match="exactly once"):
        Round.from_deal(KOZEL, 2, Deal((tiles("1-1"), tiles("2-2")), tiles("1-1"), 0))
    with pytest.raises(DominoError, match="3 hands for 2 players"):
        Round.from_deal(KOZEL, 2, crafted(["1-1", "2-2", "3-3"]))
    with pytest.raises(DominoError, match="no seat 5"):
        Round.from_deal(KOZEL, 2, TEXTBOOK, leader=5)
    with pytest.raises(DominoError, match="not 5"):
        Round.from_deal(KOZEL, 5, TEXTBOOK)


# ------------------------------------------------------------------------- views


def test_views_show_own_tiles_only() -> None:
    round_ = Round.from_deal(KOZEL, 2, crafted(SIXES_DEAL_HANDS, head="0-4 5-6"), leader=0)
    play(round_, "6-6")
    round_.apply(DRAW)
    mine = round_.view(1)
    assert mine.hand == tuple(sorted(tiles(SIXES_DEAL_HANDS[1] + " 0-4")))
    assert mine.drawn == (t("0-4"),)
    assert mine.legal == (DRAW,)
    assert mine.hand_counts == (6, 8)
    assert (mine.bazaar_size, mine.drawable, mine.turn, mine.turn_no) == (13, 13, 1, 2)
    assert mine.history == (Played(0, t("6-6"), None), Drew(1))
    other = round_.view(0)
    assert other.hand == tuple(sorted(tiles(SIXES_DEAL_HANDS[0])[1:]))
    assert other.drawn == () and other.legal == ()
    public = round_.view(None)
    assert public.hand == () and public.drawn == () and public.legal == ()
    assert public.layout.open_ends == ((L, 6), (R, 6))
    assert public.hand_counts == mine.hand_counts
    with pytest.raises(DominoError, match="no seat 2"):
        round_.view(2)


# ----------------------------------------------------------------------- playout


@pytest.mark.parametrize(
    ("ruleset", "players"),
    [
        (KOZEL, 4),
        (KOZEL.with_options(bazaar_reserve=2), 2),
        (CLASSIC, 3),
        (KOZEL.with_options(layout=LayoutKind.SPINNER), 3),
    ],
)
def test_playout_ends_the_round_on_a_copy(ruleset: Ruleset, players: int) -> None:
    rng = random.Random(3)
    for _ in range(30):
        round_ = Round.start(ruleset, players, rng)
        if rng.random() < 0.5:
            round_.apply(rng.choice(round_.legal_actions()))
        before = round_.copy()
        outcome = round_.playout(rng)
        assert round_ == before
        assert sum(outcome.hand_values) <= 168
        if outcome.kind is OutcomeKind.WENT_OUT:
            assert outcome.hand_values[outcome.seat] == 0
        else:
            assert all(outcome.hand_values[seat] >= 0 for seat in range(players))


def test_playout_of_a_finished_round_is_its_outcome() -> None:
    round_ = Round.from_deal(KOZEL, 2, TEXTBOOK, leader=0)
    play_script(round_, TEXTBOOK_MOVES)
    assert round_.playout(random.Random(1)) == round_.outcome
