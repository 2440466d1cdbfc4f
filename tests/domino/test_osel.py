"""«Осёл» (O-1 .. O-6): the rules one by one on crafted deals, then whole seeded matches."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from domino.__main__ import main
from domino.actions import Close, Closed, Play, PlayDoubles, Played, parse_action
from domino.deal import Deal
from domino.errors import DominoError, IllegalMove
from domino.geometry import End
from domino.match import LoggedAction, Match
from domino.osel import OSEL
from domino.players import GreedyPlayer, RandomPlayer
from domino.round import Round
from domino.rules import KOZEL, FishMode, LayoutKind, Opening, Ruleset, Scoring, Variant
from domino.scoring import initial_scores, score_round
from domino.sea_kozel import SEA_KOZEL
from domino.tiles import ALL_TILES, FULL_SET_MASK, SUIT_MASK, Tile
from domino.timing import SPORT_COULD_FISH, could_make_fish, sport_seconds
from domino.variants import Osel, find_variant
from domino.views import Account, OutcomeKind, RoundOutcome

T = Tile.parse
STORED = Path(__file__).parent / "stored" / "osel3_mid_round_v2.json"


def hands(*texts: str) -> tuple[tuple[Tile, ...], ...]:
    return tuple(tuple(T(t) for t in text.split()) for text in texts)


def crafted(ruleset: Ruleset, *texts: str, leader: int | None = 0) -> Round:
    """A round of `len(texts)` seats holding these tiles, the rest in the bazaar."""
    tiles = hands(*texts)
    dealt = {t for hand in tiles for t in hand}
    bazaar = tuple(t for t in ALL_TILES if t not in dealt)
    return Round.from_deal(ruleset, len(texts), Deal(tiles, bazaar, 0), leader=leader)


def apply_all(rnd: Round, *texts: str) -> None:
    for text in texts:
        rnd.apply(parse_action(text))


def four_ends() -> Round:
    """Seat 0 opens the spinner 3-3 and the arms grow until its four ends show 2, 1, 4
    and 5; seat 1, to move, holds the four doubles that fit them and the 6-6."""
    rnd = crafted(OSEL, "3-3 1-3 3-5 0-1 0-2 0-4 0-5", "2-3 3-4 1-1 2-2 4-4 5-5 6-6", leader=0)
    apply_all(rnd, "p3-3", "p2-3L", "p1-3R", "p3-4U", "p3-5D")
    return rnd


def out(seat: int, *hand_values: int) -> RoundOutcome:
    return RoundOutcome(OutcomeKind.WENT_OUT, seat, hand_values)


def fish(seat: int, *hand_values: int) -> RoundOutcome:
    return RoundOutcome(OutcomeKind.FISH, seat, hand_values)


# --- the game object -------------------------------------------------------------------


def test_the_game_is_registered_with_its_names_options_and_default_ruleset() -> None:
    game = find_variant("osel")
    assert isinstance(game, Osel) and game is OSEL.game and game.ruleset is OSEL
    assert (game.key, game.name_key, game.rules_key) == (
        Variant.OSEL,
        "variant.osel",
        "rules.osel",
    )
    assert (game.points_are_bad, game.rule_of_13, game.max_doubles, game.may_close) == (
        True,
        True,
        4,
        True,
    )
    assert dict(game.choices) == {
        "target": (125, 101),
        "open_threshold": (13, 0),
        "fish": (FishMode.EACH, FishMode.MAX_TAKES_ALL, FishMode.FISHERMAN_TAKES_ALL),
    }
    assert (OSEL.scoring, OSEL.opening, OSEL.layout) == (
        Scoring.OSEL,
        Opening.LOWEST_DOUBLE_FROM_ONE,
        LayoutKind.SPINNER,
    )
    assert (OSEL.target, OSEL.open_threshold, OSEL.lone_blank, OSEL.lone_blank_on_fish) == (
        125,
        13,
        10,
        False,
    )
    assert Ruleset.from_dict(OSEL.to_dict()) == OSEL


def test_the_other_games_keep_one_tile_per_turn_or_two_doubles() -> None:
    assert [
        (v.key.value, v.max_doubles, v.may_close)
        for v in map(find_variant, ("kozel", "classic", "sea_kozel"))
    ] == [
        ("kozel", 1, False),
        ("classic", 1, False),
        ("sea_kozel", 2, False),
    ]


# --- O-1: players, deal, the lowest double opens as the spinner -------------------------


@pytest.mark.parametrize(("players", "bazaar"), [(2, 14), (3, 7), (4, 0)])
def test_o1_two_to_four_players_get_seven_tiles_and_the_rest_is_the_bazaar(
    players: int, bazaar: int
) -> None:
    rnd = Round.start(OSEL, players, random.Random(players))
    assert [len(rnd.hand(seat)) for seat in range(players)] == [7] * players
    assert rnd.bazaar_size == bazaar
    for wrong in (1, 5):
        with pytest.raises(DominoError, match="2-4 players"):
            Round.start(OSEL, wrong, random.Random(0))


def test_o1_the_holder_of_the_lowest_non_blank_double_opens_and_it_is_the_spinner() -> None:
    # 1-1 and 2-2 lie in the bazaar, which is not searched (K-3): 3-3 opens; 0-0 comes last.
    rnd = crafted(OSEL, "0-0 4-4 0-1 0-2 0-3 0-4 0-5", "3-3 5-5 0-6 1-2 1-3 1-4 1-5", leader=None)
    assert (rnd.leader, rnd.opening_tile) == (1, T("3-3"))
    assert rnd.legal_actions() == (Play(T("3-3")),)
    with pytest.raises(IllegalMove, match=r"opens with 3-3 \(K-3\)"):
        rnd.apply(Play(T("5-5")), 1)
    rnd.apply(Play(T("3-3")), 1)
    spinner = rnd.layout.spinner
    assert spinner is not None and spinner.tile == T("3-3")
    assert rnd.layout.open_ends() == ((End.LEFT, 3), (End.RIGHT, 3))
    only_blank = crafted(OSEL, "0-0 0-1 0-2 0-3", "1-2 1-3 4-5 5-6", leader=None)
    assert (only_blank.leader, only_blank.opening_tile) == (0, T("0-0"))


def test_o1_the_spinner_opens_up_and_down_once_both_sides_have_a_tile() -> None:
    rnd = crafted(OSEL, "3-3 1-3 3-5 0-1 0-2 0-4 0-5", "2-3 3-4 1-1 2-2 4-4 5-5 6-6", leader=0)
    apply_all(rnd, "p3-3", "p2-3L")
    assert rnd.layout.open_ends() == ((End.LEFT, 2), (End.RIGHT, 3))
    rnd.apply(parse_action("p1-3R"))
    assert rnd.layout.open_ends() == (
        (End.LEFT, 2),
        (End.RIGHT, 1),
        (End.UP, 3),
        (End.DOWN, 3),
    )


def test_o1_with_no_double_dealt_the_highest_tile_opens_a_plain_line() -> None:
    rnd = crafted(OSEL, "0-1 0-2 5-6", "1-2 1-3 4-6", leader=None)
    assert (rnd.leader, rnd.opening_tile) == (0, T("5-6"))
    rnd.apply(Play(T("5-6")))
    assert rnd.layout.spinner is None
    apply_all(rnd, "p4-6R")
    assert rnd.layout.open_ends() == ((End.LEFT, 5), (End.RIGHT, 4))  # no UP, no DOWN


# --- O-2: several doubles at once ------------------------------------------------------


def test_o2_every_set_of_doubles_on_different_open_ends_is_offered_in_order() -> None:
    rnd = four_ends()
    legal = [str(a) for a in rnd.legal_actions()]
    plays = ["p1-1R", "p2-2L", "p4-4U", "p5-5D"]
    sets = [
        "p2-2L+p1-1R",
        "p2-2L+p4-4U",
        "p2-2L+p5-5D",
        "p1-1R+p4-4U",
        "p1-1R+p5-5D",
        "p4-4U+p5-5D",
        "p2-2L+p1-1R+p4-4U",
        "p2-2L+p1-1R+p5-5D",
        "p2-2L+p4-4U+p5-5D",
        "p1-1R+p4-4U+p5-5D",
        "p2-2L+p1-1R+p4-4U+p5-5D",
    ]
    closes = ["c1-1R", "c2-2L", "c4-4U", "c5-5D"]
    assert legal == plays + sets + closes


def test_o2_four_doubles_go_down_in_one_turn_each_with_its_played_event() -> None:
    rnd = four_ends()
    action = parse_action("p2-2L+p1-1R+p4-4U+p5-5D")
    assert isinstance(action, PlayDoubles) and str(action) == "p2-2L+p1-1R+p4-4U+p5-5D"
    event = rnd.apply(action, 1)
    assert rnd.history[-4:] == (
        Played(1, T("2-2"), End.LEFT),
        Played(1, T("1-1"), End.RIGHT),
        Played(1, T("4-4"), End.UP),
        Played(1, T("5-5"), End.DOWN),
    )
    assert event == rnd.history[-1]
    assert rnd.hand(1) == (T("6-6"),) and rnd.turn == 0 and rnd.turn_no == 6
    assert rnd.layout.open_ends() == ((End.LEFT, 2), (End.RIGHT, 1), (End.UP, 4), (End.DOWN, 5))


def test_o2_ends_showing_the_same_pip_give_different_sets_but_never_share_a_double() -> None:
    rnd = crafted(OSEL, "4-4 4-6 4-5 0-1 0-3", "2-4 2-6 2-2 5-5 1-3", leader=0)
    apply_all(rnd, "p4-4", "p2-4L", "p4-6R", "p2-6R", "p4-5U")
    assert rnd.layout.open_ends() == ((End.LEFT, 2), (End.RIGHT, 2), (End.UP, 5), (End.DOWN, 4))
    assert [str(a) for a in rnd.legal_actions()] == [
        "p2-2L",
        "p2-2R",
        "p5-5U",
        "p2-2L+p5-5U",
        "p2-2R+p5-5U",
        "c2-2L",
        "c2-2R",
        "c5-5U",
    ]


def test_o2_going_out_on_doubles_lays_the_0_0_last() -> None:
    rnd = crafted(OSEL, "0-3 1-2", "3-3 0-0", leader=0)
    rnd.apply(Play(T("0-3")))
    (both,) = (a for a in rnd.legal_actions() if isinstance(a, PlayDoubles))
    assert str(both) == "p0-0L+p3-3R"
    rnd.apply(both)
    assert rnd.outcome == out(1, 3, 0)
    assert rnd.history[-2:] == (Played(1, T("3-3"), End.RIGHT), Played(1, T("0-0"), End.LEFT))


def test_o2_is_refused_with_its_reason() -> None:
    rnd = four_ends()
    refused = {
        "p2-2L+p1-1L": "a different open end",
        "p2-2L+p2-3R": "only different doubles",
        "p2-2L+p2-2R": "only different doubles",
        "p2-2L+p6-6R": "6-6 does not fit",
        "p2-2L+p3-3U": "do not hold 3-3",
        "p2-2L+p1-1R+p4-4U+p5-5D+p6-6L": "from 2 to 4 doubles",
        "p1-1R+p2-2L": r"order of their ends \(LEFT, RIGHT, UP, DOWN\): p2-2L\+p1-1R",
    }
    for text, reason in refused.items():
        action = parse_action(text)
        assert not rnd.is_legal(action, 1)
        with pytest.raises(IllegalMove, match=reason):
            rnd.apply(action, 1)
    single = PlayDoubles((Play(T("2-2"), End.LEFT),))
    with pytest.raises(IllegalMove, match="from 2 to 4 doubles"):
        rnd.apply(single, 1)
    assert rnd.turn == 1 and rnd.turn_no == 5  # refused actions change nothing
    kozel = crafted(KOZEL, "2-5 0-1", "2-2 5-5 0-3", leader=0)
    kozel.apply(Play(T("2-5")))
    with pytest.raises(IllegalMove, match=r"M-3.*O-2"):
        kozel.apply(parse_action("p2-2L+p5-5R"))
    sea = crafted(SEA_KOZEL.with_options(teams=False), "3-3 1-3 2-3 0-1", "1-1 2-2 0-2", leader=0)
    apply_all(sea, "p3-3")
    with pytest.raises(IllegalMove, match="from 2 to 2 doubles"):
        sea.apply(parse_action("p1-1L+p2-2R+p0-0U"))


# --- O-3: a double laid face down closes its end ----------------------------------------


def test_o3_a_double_closes_its_end_for_the_rest_of_the_round() -> None:
    rnd = four_ends()
    assert str(Close(T("4-4"), End.UP)) == "c4-4U" and parse_action("c4-4U") == Close(
        T("4-4"), End.UP
    )
    event = rnd.apply(Close(T("4-4"), End.UP), 1)
    assert event == Closed(1, T("4-4"), End.UP) and rnd.history[-1] == event
    layout = rnd.layout
    assert layout.open_ends() == ((End.LEFT, 2), (End.RIGHT, 1), (End.DOWN, 5))
    assert layout.closed_ends == (End.UP,)
    assert [end for end, _ in layout.end_masks()] == [End.LEFT, End.RIGHT, End.DOWN]
    assert layout.fit_mask == SUIT_MASK[2] | SUIT_MASK[1] | SUIT_MASK[5]
    last = layout.placements[-1]
    assert (last.tile, last.end, last.closed, last.inner, last.outer) == (
        T("4-4"),
        End.UP,
        True,
        4,
        4,
    )
    assert not any(p.closed for p in layout.placements[:-1])
    view = rnd.view(None).layout
    assert view.closed_ends == (End.UP,) and view.open_ends == layout.open_ends()
    assert view.chain(End.UP) == (layout.placements[3], last)  # the arm stays on the table
    assert (rnd.turn, T("4-4") in rnd.hand(1)) == (0, False)
    # Nothing goes on a closed end, not even a tile showing its pip.
    assert not any(getattr(a, "end", None) is End.UP for a in rnd.legal_actions())
    with pytest.raises(IllegalMove, match=r"the end UP is closed \(O-3\)"):
        rnd.apply(Play(T("0-4"), End.UP), 0)


def test_o3_a_close_is_offered_beside_the_other_plays_and_is_a_whole_turn() -> None:
    rnd = four_ends()
    legal = rnd.legal_actions()
    assert Play(T("2-2"), End.LEFT) in legal and Close(T("2-2"), End.LEFT) in legal
    rnd.apply(Close(T("2-2"), End.LEFT))
    assert rnd.turn == 0  # the turn passes: one close per turn, alone
    with pytest.raises(DominoError, match="cannot read an action"):
        parse_action("c2-2L+p1-1R")


def test_o3_is_refused_with_its_reason() -> None:
    rnd = four_ends()
    refused = {
        "c2-3L": "only a double closes an end",
        "c6-6L": "6-6 does not fit",
        "c1-1L": "1-1 does not fit the LEFT end, which shows 2",
        "c3-3U": "do not hold 3-3",
    }
    for text, reason in refused.items():
        action = parse_action(text)
        assert not rnd.is_legal(action, 1)
        with pytest.raises(IllegalMove, match=reason):
            rnd.apply(action, 1)
    rnd.apply(parse_action("c2-2L"))
    rnd.apply(parse_action("p0-5D"))
    with pytest.raises(IllegalMove, match=r"the end LEFT is closed \(O-3\)"):
        rnd.apply(parse_action("c1-1L"))
    kozel = crafted(KOZEL, "2-5 0-1", "2-2 0-3", leader=0)
    kozel.apply(Play(T("2-5")))
    assert not any(isinstance(a, Close) for a in kozel.legal_actions())
    with pytest.raises(IllegalMove, match=r"Осёл's \(O-3\)"):
        kozel.apply(parse_action("c2-2L"))


def test_o3_a_spinner_side_that_has_not_opened_cannot_be_closed() -> None:
    rnd = crafted(OSEL, "4-4 2-2 0-1", "2-4 1-5 0-3", leader=0)
    apply_all(rnd, "p4-4", "p2-4L")
    assert [str(a) for a in rnd.legal_actions()] == ["p2-2L", "c2-2L"]
    with pytest.raises(IllegalMove, match="the end UP is not open"):
        rnd.apply(parse_action("c2-2U"))


def test_o3_a_closed_side_counts_as_a_tile_there_for_the_spinner() -> None:
    rnd = crafted(OSEL, "4-4 2-2 0-1 0-6", "2-4 4-5 0-3", leader=0)
    apply_all(rnd, "p4-4", "p2-4L", "c2-2L")
    assert rnd.layout.closed_ends == (End.LEFT,)
    assert rnd.layout.open_ends() == ((End.RIGHT, 4),)  # UP and DOWN wait for RIGHT
    apply_all(rnd, "p4-5R")
    assert rnd.layout.open_ends() == ((End.RIGHT, 5), (End.UP, 4), (End.DOWN, 4))
    assert [end for end, _ in rnd.layout.arms()] == [End.LEFT, End.RIGHT, End.UP, End.DOWN]


def test_o3_going_out_by_closing_is_going_out() -> None:
    rnd = crafted(OSEL, "1-2 3-4 5-6", "1-1", leader=0)
    rnd.apply(Play(T("1-2")))
    assert rnd.legal_actions() == (Play(T("1-1"), End.LEFT), Close(T("1-1"), End.LEFT))
    rnd.apply(Close(T("1-1"), End.LEFT))
    assert rnd.outcome == out(1, 18, 0)
    result = score_round(OSEL, 1, rnd.outcome, initial_scores(OSEL, 2), 0, hands("3-4 5-6", ""))
    assert result.points == (18, 0)


def test_o3_closing_the_last_open_end_is_a_fish_by_the_closer() -> None:
    """C-8 with closed ends: a plain line (no double opened it) whose two ends are both
    closed has no open end, so nothing can be played: fish at once, though the bazaar
    still holds tiles."""
    rnd = crafted(OSEL, "1-2 2-2 0-3", "1-1 0-4 5-6", leader=0)
    apply_all(rnd, "p1-2", "c1-1L")
    assert rnd.layout.open_ends() == ((End.RIGHT, 2),) and not rnd.over
    rnd.apply(parse_action("c2-2R"))
    assert rnd.layout.open_ends() == () and rnd.layout.closed_ends == (End.LEFT, End.RIGHT)
    assert rnd.outcome == fish(0, 3, 15)
    assert rnd.bazaar_size == 28 - 6 and rnd.legal_actions() == ()


def test_o3_k12_gives_the_long_time_when_a_close_could_make_fish() -> None:
    """K-12's sport timing counts a close among the moves that could make fish."""
    rnd = crafted(OSEL, "1-2 2-2 0-3", "1-1 0-4 5-6", leader=0)
    apply_all(rnd, "p1-2", "c1-1L")
    assert rnd.legal_actions() == (Play(T("2-2"), End.RIGHT), Close(T("2-2"), End.RIGHT))
    assert could_make_fish(rnd) and sport_seconds(rnd) == SPORT_COULD_FISH


def test_o3_fish_when_the_only_live_tiles_fit_a_closed_end() -> None:
    """C-8 counts a closed end as blocked: with nothing drawable (the whole bazaar kept
    back), 0-2 would fit the 2 that the closed LEFT end shows, but only RIGHT's 5 is open
    and nobody holds a 5; laid face up, the same 2-2 leaves the round going."""
    no_bazaar = OSEL.with_options(bazaar_reserve=28)
    closed = crafted(no_bazaar, "2-5 0-2", "2-2 1-3", leader=0)
    apply_all(closed, "p2-5", "c2-2L")
    assert closed.outcome == fish(1, 2, 4)
    open_ = crafted(no_bazaar, "2-5 0-2", "2-2 1-3", leader=0)
    apply_all(open_, "p2-5", "p2-2L")
    assert not open_.over and open_.legal_actions() == (Play(T("0-2"), End.LEFT),)


# --- O-4: drawing, knocking, and who opens the next round ------------------------------


def test_o4_draw_until_playable_then_knock_and_the_last_mover_opens_with_any_tile() -> None:
    rnd = crafted(OSEL, "5-6 3-3", "0-1 0-2", leader=0)
    rnd.apply(Play(T("5-6")))
    assert rnd.legal_actions() == (parse_action("d"),)  # C-6: nothing fits, draw
    match = Match.new(OSEL, 3, seed=4)
    player = GreedyPlayer()
    while match.round_no == 1:
        match.apply(player.choose(match.view(match.turn)), match.turn)
    first = match.results[0].outcome
    assert match.round.leader == first.seat and match.round.opening_tile is None
    hand = match.round.hand(first.seat)
    assert match.round.legal_actions() == tuple(Play(t) for t in hand)  # O-4: any tile


# --- O-5: scoring as Козёл with 13; the lone 0-0 only when the round is no fish -------


def test_o5_the_k8_worked_example_holds() -> None:
    before = (
        Account(0, 19, False),
        Account(0, 0, False),
        Account(0, 7, False),
        Account(0, 4, False),
    )
    result = score_round(OSEL, 3, out(0, 0, 3, 13, 5), before)
    assert result.points == (0, 3, 13, 5)
    assert result.after == (
        Account(0, 0, False),
        Account(0, 3, False),
        Account(20, 0, True),
        Account(0, 9, False),
    )


def test_o5_a_lone_0_0_counts_10_after_going_out_and_nothing_on_a_fish() -> None:
    start = initial_scores(OSEL, 3)
    gone = score_round(OSEL, 1, out(0, 0, 0, 3), start, 0, hands("", "0-0", "1-2"))
    assert gone.points == (0, 10, 3)
    on_fish = score_round(OSEL, 1, fish(2, 4, 0, 3), start, 0, hands("1-3", "0-0", "1-2"))
    assert on_fish.points == (4, 0, 3)
    assert score_round(OSEL, 1, fish(2, 4, 0, 3), start).points == (4, 0, 3)  # sums only


def test_o5_a_fish_is_scored_on_everyone_by_default_and_the_k9_modes_are_options() -> None:
    start = (Account(20, 0, True), Account(0, 7, False), Account(0, 0, False))
    each = score_round(OSEL, 2, fish(0, 2, 14, 5), start)
    assert each.points == (2, 14, 5)
    assert each.after == (Account(22, 0, True), Account(21, 0, True), Account(0, 5, False))
    one = score_round(OSEL.with_options(fish=FishMode.MAX_TAKES_ALL), 2, fish(0, 2, 14, 5), start)
    assert one.points == (0, 21, 0) and one.after[1] == Account(28, 0, True)
    fisher = OSEL.with_options(fish=FishMode.FISHERMAN_TAKES_ALL)
    assert score_round(fisher, 2, fish(0, 2, 14, 5), start).points == (21, 0, 0)
    off = OSEL.with_options(open_threshold=0)
    assert initial_scores(off, 2) == (Account(0, 0, True),) * 2


# --- O-6: to 125, the one at 125 or above is the осёл ---------------------------------


def whole_match(ruleset: Ruleset, players: int, seed: int, kind: str) -> Match:
    """A match played to its end by `kind` players, checking the tiles at every step."""
    rng = random.Random(seed)
    table = [GreedyPlayer() if kind == "greedy" else RandomPlayer(rng) for _ in range(players)]
    match = Match.new(ruleset, players, seed)
    while not match.over:
        rnd = match.round
        seen = rnd.layout.table_mask
        for seat in range(players):
            assert not seen & rnd.hand_mask(seat)
            seen |= rnd.hand_mask(seat)
        assert (FULL_SET_MASK ^ seen).bit_count() == rnd.bazaar_size
        mover = match.turn
        assert mover is not None
        match.apply(table[mover].choose(match.view(mover)), mover)
    return match


@pytest.mark.parametrize(
    ("ruleset", "players", "kind"),
    [
        (OSEL, 2, "greedy"),
        (OSEL, 3, "random"),
        (OSEL, 4, "random"),
        (OSEL.with_options(teams=True), 4, "greedy"),
    ],
)
@pytest.mark.parametrize("seed", range(3))
def test_o6_whole_seeded_matches_to_125_replay_and_round_trip(
    ruleset: Ruleset, players: int, kind: str, seed: int
) -> None:
    match = whole_match(ruleset, players, seed, kind)
    recorded = [account.recorded for account in match.scores]
    assert max(recorded) >= 125 and match.winners == ()
    assert match.losers == tuple(i for i, r in enumerate(recorded) if r == max(recorded))
    assert len(match.sides) == (2 if ruleset.teams else players)
    assert match.rating() == tuple(
        max(1, int((100 - points) / 10 + 0.5)) if points <= 100 else 1
        for points in match.seat_points()
    )
    assert Match.replay(ruleset, players, seed, match.log) == match
    assert Match.from_json(match.to_json()) == match
    assert json.loads(match.to_json())["ruleset"]["variant"] == "osel"


def test_o6_matches_use_every_move_of_the_game() -> None:
    """Over a few seeded random matches both O-2 and O-3 turn up (and `whole_match`
    checked the tiles after each of them)."""
    kinds: set[str] = set()
    for seed in range(6):
        match = whole_match(OSEL, 4, seed, "random")
        for entry in match.log:
            action = entry.action
            if isinstance(action, PlayDoubles):
                kinds.add(f"doubles{len(action.plays)}")
            elif isinstance(action, Close):
                kinds.add("close")
    assert {"doubles2", "close"} <= kinds


def test_o6_a_stored_match_with_closed_ends_loads_as_written() -> None:
    """A three-player match saved mid-round (format 2), whose log has closes and sets of
    doubles: it must keep loading to the same state."""
    text = STORED.read_text(encoding="utf-8")
    stored = json.loads(text)
    match = Match.from_json(text)
    log = [LoggedAction.parse(entry) for entry in stored["log"]]
    assert match == Match.replay(OSEL, 3, stored["seed"], log)
    assert any(isinstance(entry.action, Close) for entry in match.log)
    assert any(isinstance(entry.action, PlayDoubles) for entry in match.log)
    assert match.round.layout.closed_ends
    assert not match.over and match.round_no > 1
    assert match.to_json() == text.strip()


def test_simulate_runs_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--variant", "osel", "--players", "3", "--matches", "10"]
    assert main([*argv, "--seed", "1", "--no-progress"]) == 0
    assert capsys.readouterr().out.startswith("variant: osel (individual), 3 players")


def test_a_round_playout_on_the_spinner_steps_through_the_public_moves() -> None:
    rnd = four_ends()
    before = rnd.copy()
    outcome = rnd.playout(random.Random(3))
    assert rnd == before and outcome == rnd.playout(random.Random(3))
