"""The heuristic levels: legal moves only, in every game and table; the seat's
view only; reproducible; a reason from REASONS; and the obvious move in positions made
for it (go out, avoid the fish that loses, take the one that wins, shed a double)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domino.actions import Action, Close, Draw, Knock, Play, PlayDoubles
from domino.ai import REASONS, Computer, Decision, Level, computer
from domino.ai.heuristic import EasyPlayer, MediumPlayer
from domino.deal import Deal
from domino.geometry import End
from domino.match import LoggedAction, Match
from domino.players import GreedyPlayer, Player, RandomPlayer
from domino.round import Round
from domino.rules import KOZEL, Ruleset
from domino.tiles import ALL_TILES, Tile
from domino.variants import VARIANTS
from domino.views import OutcomeKind

TABLES: tuple[tuple[str, int, bool], ...] = tuple(
    (game.key.value, players, teams)
    for game in VARIANTS
    for players in (2, 3, 4)
    for teams in (False, True)
    if players in game.ruleset.hand_sizes
    and (not teams or players == 4)
    and (game.key.value != "sport" or teams)
)
"""(game, players, pairs) for every table a game allows: 2-4 players, pairs with four."""


def ruleset_for(key: str, teams: bool) -> Ruleset:
    game = next(g for g in VARIANTS if g.key.value == key)
    return game.ruleset.with_options(teams=teams)


def levels(seed: int) -> tuple[Computer, ...]:
    return (EasyPlayer(random.Random(seed)), MediumPlayer(random.Random(seed)))


def positions(key: str, players: int, teams: bool, seed: int, moves: int) -> Iterator[Match]:
    """The seat to move's positions along a seeded match whose moves mix random, greedy
    and both levels' choices, up to `moves` actions."""
    match = Match.new(ruleset_for(key, teams), players, seed)
    rng = random.Random(seed)
    table: tuple[Player, ...] = (RandomPlayer(rng), GreedyPlayer(), *levels(seed))
    for _ in range(moves):
        if match.over:
            return
        seat = match.turn
        assert seat is not None
        yield match
        match.apply(table[rng.randrange(len(table))].choose(match.view(seat)), seat)


@settings(max_examples=25, deadline=None)
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 2**32), moves=st.integers(1, 120))
def test_every_level_plays_only_legal_moves_with_a_known_reason(
    table: tuple[str, int, bool], seed: int, moves: int
) -> None:
    key, players, teams = table
    for match in positions(key, players, teams, seed, moves):
        view = match.view(match.turn)
        for player in levels(seed):
            decision = player.decide(view)
            assert decision.action in view.round.legal
            assert decision.reason in REASONS
            assert player.choose(view) in view.round.legal


@pytest.mark.parametrize("table", TABLES, ids=lambda t: f"{t[0]}-{t[1]}{'-pairs' if t[2] else ''}")
def test_whole_matches_of_each_level_against_greedy_end(table: tuple[str, int, bool]) -> None:
    key, players, teams = table
    for level in (Level.EASY, Level.MEDIUM):
        match = Match.new(ruleset_for(key, teams), players, 7)
        seats = [computer(level, seed=1) if s % 2 == 0 else GreedyPlayer() for s in range(players)]
        while not match.over and match.round_no <= 6:
            seat = match.turn
            assert seat is not None
            view = match.view(seat)
            action = seats[seat].choose(view)
            assert action in view.round.legal
            match.apply(action, seat)


def test_the_same_view_and_seed_give_the_same_decision() -> None:
    for match in positions("osel", 3, False, 11, 80):
        view = match.view(match.turn)
        for level in (Level.EASY, Level.MEDIUM):
            first = computer(level, seed=5)
            again = computer(level, seed=5)
            assert [first.decide(view) for _ in range(3)] == [again.decide(view) for _ in range(3)]


def scrambled(match: Match, rng: random.Random) -> Match | None:
    """The match with two hidden tiles swapped (between two other hands, or a hand and
    the bazaar) and the round replayed: None when the swap does not fit its history or
    would change what the seat to move sees."""
    seat = match.turn
    assert seat is not None
    deal = match.round.deal
    round_no = match.round_no
    places = [
        ("hand", s, i) for s in range(match.players) if s != seat for i in range(len(deal.hands[s]))
    ]
    places += [("bazaar", 0, i) for i in range(len(deal.bazaar))]
    if len(places) < 2:
        return None
    a, b = rng.sample(places, 2)
    if a[0] == b[0] == "hand" and a[1] == b[1]:
        return None  # the same hand: nothing changes
    hands = [list(hand) for hand in deal.hands]
    bazaar = list(deal.bazaar)

    def get(place: tuple[str, int, int]) -> Tile:
        kind, s, i = place
        return hands[s][i] if kind == "hand" else bazaar[i]

    def put(place: tuple[str, int, int], tile: Tile) -> None:
        kind, s, i = place
        if kind == "hand":
            hands[s][i] = tile
        else:
            bazaar[i] = tile

    first, second = get(a), get(b)
    put(a, second)
    put(b, first)
    leader = None if round_no == 1 else match.round.leader
    try:
        new_deal = Deal(
            tuple(tuple(sorted(h)) for h in hands), tuple(bazaar), deal.redeals, deal.turned
        )
        round_ = Round.from_deal(match.ruleset, match.players, new_deal, leader=leader)
        other = Match(
            match.ruleset,
            match.players,
            match.seed,
            round_=round_,
            round_no=round_no,
            results=match.results,
        )
        for entry in match.log:
            if entry.round_no == round_no:
                other.apply(entry.action, entry.seat)
    except Exception:  # the swap broke the history (a knock or a forced opening)
        return None
    if other.view(seat) != match.view(seat):
        return None
    return other


@pytest.mark.parametrize(
    "table", [("kozel", 2, False), ("kozel", 4, False), ("osel", 3, False), ("classic", 4, True)]
)
def test_decisions_read_only_the_seats_view(table: tuple[str, int, bool]) -> None:
    """Matches whose hidden hands and bazaar differ, with the same view for the seat to
    move, get the same decision: nothing hidden is read."""
    key, players, teams = table
    rng = random.Random(3)
    checked = 0
    for match in positions(key, players, teams, 21, 60):
        seat = match.turn
        assert seat is not None
        other = None
        for _ in range(20):
            other = scrambled(match, rng)
            if other is not None:
                break
        if other is None:
            continue
        assert other.round.hand_mask(seat) == match.round.hand_mask(seat)
        assert any(
            other.round.hand_mask(s) != match.round.hand_mask(s) for s in range(players)
        ) or (other.round.deal.bazaar != match.round.deal.bazaar)
        for level in (Level.EASY, Level.MEDIUM):
            assert computer(level, seed=9).decide(match.view(seat)) == computer(
                level, seed=9
            ).decide(other.view(seat))
        checked += 1
    assert checked >= 10


def t(text: str) -> Tile:
    return Tile.parse(text)


def test_both_levels_go_out_whenever_a_move_empties_the_hand() -> None:
    seen = 0
    for key, players, teams in TABLES:
        for match in positions(key, players, teams, 5, 400):
            view = match.view(match.turn)
            hand = set(view.round.hand)
            outs = [a for a in view.round.legal if set(laid(a)) == hand]
            if not outs or len(view.round.legal) == 1:
                continue
            seen += 1
            for player in levels(1):
                decision = player.decide(view)
                assert decision.action in outs
                assert decision.reason == "go_out"
    assert seen >= 10


def laid(action: Action) -> tuple[Tile, ...]:
    if isinstance(action, Play | Close):
        return (action.tile,)
    if isinstance(action, PlayDoubles):
        return tuple(play.tile for play in action.plays)
    return ()


def kozel_position(log: str, seed: int) -> Match:
    """A 4-player Козёл match at a seeded deal after the logged actions."""
    return Match.replay(KOZEL, 4, seed, [LoggedAction.parse(entry) for entry in log.split()])


def fish_taker(match: Match, action: Action) -> tuple[int, ...]:
    """The points each side records if the seat to move plays `action`, which must end
    the round in a fish."""
    after = Match.replay(match.ruleset, match.players, match.seed, [*match.log])
    after.apply(action, match.turn)
    result = after.results[-1]
    assert result.outcome.kind is OutcomeKind.FISH
    return result.points


# K-9 рыба на одного: seat 0 holds 2-2 2-5 3-3 4-6 against two, two and three tiles; 1-2
# on the left would close the table (every 1 and 2 is down) with 18 pips left in its hand,
# the most, so it would take the whole 50.
LOSING_FISH = (
    155,
    "1:3:p1-1 1:0:p1-6L 1:1:p6-6L 1:2:p4-6L 1:3:p4-4L 1:0:p4-5L 1:1:p1-5R 1:2:p3-5L"
    " 1:3:p3-6L 1:0:p5-6L 1:1:p2-5L 1:2:p0-2L 1:3:p0-0L 1:0:p0-3L 1:1:p0-5R 1:2:p1-3L"
    " 1:3:p1-4L 1:0:k 1:1:p2-4L 1:2:p0-1R 1:3:k",
)

# Seat 3 holds 0-1 0-3 1-5: 0-3 on the right closes the table with 7 pips left in its
# hand, while the three others hold 77 between them: one of them takes it all.
WINNING_FISH = (
    21,
    "1:0:p1-1 1:1:k 1:2:p1-3L 1:3:p3-5L 1:0:p2-5L 1:1:p2-4L 1:2:p1-2R 1:3:p2-3R 1:0:p1-4L"
    " 1:1:p3-4R 1:2:p0-4R 1:3:p1-6L 1:0:p0-6L 1:1:p0-5L 1:2:p5-6L 1:3:p3-6L 1:0:k 1:1:p3-3L"
    " 1:2:p0-0R",
)


def test_medium_avoids_a_fish_it_would_take_whole() -> None:
    seed, log = LOSING_FISH
    match = kozel_position(log, seed)
    seat = match.turn
    assert seat == 0
    losing = Play(t("1-2"), End.LEFT)
    assert fish_taker(match, losing)[seat] == 50
    decision = MediumPlayer(random.Random(0)).decide(match.view(seat))
    assert decision.action != losing
    assert decision.reason == "avoid_fish"


def test_medium_makes_a_fish_somebody_else_takes() -> None:
    seed, log = WINNING_FISH
    match = kozel_position(log, seed)
    seat = match.turn
    assert seat == 3
    fish = Play(t("0-3"), End.RIGHT)
    points = fish_taker(match, fish)
    assert points[seat] == 0 and sum(points) == 70
    decision = MediumPlayer(random.Random(0)).decide(match.view(seat))
    assert decision == Decision(fish, "fish_win")


def test_medium_sheds_a_double_before_a_tile_of_the_same_pips() -> None:
    mine = [t(x) for x in ("4-4", "3-5", "0-1", "0-2", "1-2", "6-6", "0-6")]
    theirs = [t(x) for x in ("3-4", "1-1", "1-3", "2-2", "2-5", "5-5", "1-6")]
    bazaar = tuple(x for x in ALL_TILES if x not in mine and x not in theirs)
    deal = Deal((tuple(sorted(mine)), tuple(sorted(theirs))), bazaar)
    match = Match(KOZEL, 2, 0, round_=Round.from_deal(KOZEL, 2, deal, leader=1), round_no=2)
    match.apply(Play(t("3-4"), None), 1)
    decision = MediumPlayer(random.Random(0)).decide(match.view(0))
    assert decision == Decision(Play(t("4-4"), End.RIGHT), "double")


def test_one_legal_action_is_told_as_such() -> None:
    for match in positions("kozel", 2, False, 2, 200):
        view = match.view(match.turn)
        if len(view.round.legal) != 1:
            continue
        action = view.round.legal[0]
        expected = {Draw: "draw", Knock: "knock"}.get(type(action), "only")
        for player in levels(0):
            assert player.decide(view) == Decision(action, expected)
