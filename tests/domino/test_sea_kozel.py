"""«Морской козёл» (M-1 .. M-6): the rules one by one, then whole seeded matches."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from domino.__main__ import main
from domino.actions import Play, PlayDoubles, Played, parse_action
from domino.deal import Deal
from domino.errors import DominoError, IllegalMove
from domino.geometry import End
from domino.match import LoggedAction, Match
from domino.players import GreedyPlayer, RandomPlayer
from domino.round import Round
from domino.rules import Ruleset, Variant
from domino.scoring import initial_scores, score_round
from domino.sea_kozel import SEA_KOZEL, hand_value
from domino.simulate import play_match
from domino.tiles import ALL_TILES, FULL_SET_MASK, SET_SIZE, Tile
from domino.variants import SeaKozel, find_variant
from domino.views import Account, OutcomeKind, RoundOutcome, RoundResult

T = Tile.parse
SINGLES = SEA_KOZEL.with_options(teams=False)


def out(seat: int, *hand_values: int) -> RoundOutcome:
    return RoundOutcome(OutcomeKind.WENT_OUT, seat, hand_values)


def fish(seat: int, *hand_values: int) -> RoundOutcome:
    return RoundOutcome(OutcomeKind.FISH, seat, hand_values)


def hands(*texts: str) -> tuple[tuple[Tile, ...], ...]:
    return tuple(tuple(T(t) for t in text.split()) for text in texts)


def pips(hand: tuple[Tile, ...]) -> int:
    return sum(t.value for t in hand)


def score(
    ruleset: Ruleset, kind: OutcomeKind, seat: int, texts: tuple[str, ...], eggs: int = 0
) -> RoundResult:
    tiles = hands(*texts)
    outcome = RoundOutcome(kind, seat, tuple(map(pips, tiles)))
    sides = 2 if ruleset.teams and len(texts) == 4 else len(texts)
    return score_round(ruleset, 1, outcome, initial_scores(ruleset, sides), eggs, tiles)


def test_the_game_is_registered_with_its_names_options_and_default_ruleset() -> None:
    game = find_variant("sea_kozel")
    assert isinstance(game, SeaKozel) and game is SEA_KOZEL.game and game.ruleset is SEA_KOZEL
    assert (game.name_key, game.rules_key) == (
        "variant.sea_kozel",
        "rules.sea_kozel",
    )
    assert dict(game.choices) == {"target": (125, 101)}  # M-6
    assert (game.points_are_bad, game.rule_of_13) == (False, False)
    assert SEA_KOZEL.target == 125 and SEA_KOZEL.teams  # M-6, M: 1v1 or 2x2
    assert (SEA_KOZEL.min_players, SEA_KOZEL.max_players, SEA_KOZEL.hand_size(4)) == (2, 4, 7)
    with pytest.raises(DominoError, match="2-4 players, not 3"):
        SEA_KOZEL.hand_size(3)
    assert initial_scores(SEA_KOZEL, 2) == (Account(0, 0, True),) * 2


def test_the_ruleset_round_trips_through_json() -> None:
    for ruleset in (SEA_KOZEL, SINGLES.with_options(target=101)):
        data = json.loads(json.dumps(ruleset.to_dict()))
        assert data["variant"] == "sea_kozel" and data["scoring"] == "sea_kozel"
        assert Ruleset.from_dict(data) == ruleset
        assert Ruleset.from_dict(data).game is find_variant(Variant.SEA_KOZEL)


def test_m1_the_winner_writes_the_losers_hands_from_25_up() -> None:
    result = score(SEA_KOZEL, OutcomeKind.WENT_OUT, 0, ("", "5-6 4-4", "1-2", "6-6 3-4"))
    assert result.points == (19 + 19, 0)  # the partner's 1-2 never counts
    assert result.after == (Account(38, 0, True), Account(0, 0, True))
    small = score(SINGLES, OutcomeKind.WENT_OUT, 1, ("5-6 4-4 2-3", ""))
    assert small.points == (0, 0)  # 19 + 5 = 24 < 25: not written
    assert small.after == (Account(0, 0, True),) * 2
    exact = score(SINGLES, OutcomeKind.WENT_OUT, 1, ("5-6 4-4 2-4", ""))
    assert exact.points == (0, 25)
    four = score(SINGLES, OutcomeKind.WENT_OUT, 2, ("5-6", "4-4", "", "2-3"))
    assert four.points == (0, 0, 0, 0)  # 11 + 8 + 5 = 24 < 25


def test_m1_on_a_fish_the_lower_hand_writes_the_others() -> None:
    result = score(SINGLES, OutcomeKind.FISH, 0, ("5-6 6-6 3-4", "0-1"))
    assert result.points == (0, 30)  # the fisherman's hand is higher: seat 1 writes
    teams = score(SEA_KOZEL, OutcomeKind.FISH, 3, ("5-6 4-5", "0-1", "4-6", "2-3"))
    assert teams.points == (0, 30)  # 20 + 10 against 1 + 5
    four = score(SINGLES, OutcomeKind.FISH, 0, ("5-6 4-5", "0-1", "4-6 2-2", "2-3"))
    assert four.points == (0, 20 + 14 + 5, 0, 0)


def test_m2_a_lone_blank_25_a_lone_six_50_both_75() -> None:
    assert hand_value(hands("0-0")[0]) == 25
    assert hand_value(hands("6-6")[0]) == 50
    assert hand_value(hands("0-0 6-6")[0]) == 75
    assert hand_value(hands("6-6 0-1")[0]) == 13  # not alone: plain pips
    assert hand_value(hands("0-0 1-1")[0]) == 2
    assert hand_value(()) == 0
    assert score(SINGLES, OutcomeKind.WENT_OUT, 0, ("", "0-0")).points == (25, 0)
    assert score(SINGLES, OutcomeKind.WENT_OUT, 0, ("", "6-6")).points == (50, 0)
    assert score(SINGLES, OutcomeKind.WENT_OUT, 1, ("0-0 6-6", "")).points == (0, 75)
    # On a fish too: the lone 6-6 is 50, higher than 5-6 4-5 (20).
    assert score(SINGLES, OutcomeKind.FISH, 0, ("6-6", "5-6 4-5")).points == (0, 50)


def test_m2_needs_the_tiles_not_only_the_pips() -> None:
    with pytest.raises(DominoError, match="M-2"):
        score_round(SINGLES, 1, out(0, 0, 12), initial_scores(SINGLES, 2))


def test_m5_a_tied_fish_makes_eggs_the_next_winner_takes() -> None:
    tied = score(SINGLES, OutcomeKind.FISH, 1, ("5-6", "4-6 0-1"))
    assert tied.points == (0, 0) and tied.after == tied.before
    assert (tied.eggs_after, tied.eggs_taken_by) == (22, None)
    again = score(SINGLES, OutcomeKind.FISH, 0, ("2-3", "1-4"), eggs=22)
    assert (again.points, again.eggs_after) == ((0, 0), 32)  # the eggs grow
    taken = score(SINGLES, OutcomeKind.WENT_OUT, 1, ("1-2", ""), eggs=22)
    assert taken.points == (0, 25) and (taken.eggs_after, taken.eggs_taken_by) == (0, 1)
    short = score(SINGLES, OutcomeKind.WENT_OUT, 1, ("0-1", ""), eggs=22)
    assert short.points == (0, 0)  # 1 + 22 < 25: nothing written, the eggs carry on
    assert (short.eggs_after, short.eggs_taken_by) == (22, None)


def test_m1_a_winner_below_25_is_too_few_never_a_draw() -> None:
    game = SEA_KOZEL.game
    small_fish = score(SINGLES, OutcomeKind.FISH, 0, ("5-5", "3-3"))  # seat 1 wins 10
    assert small_fish.points == (0, 0) and not small_fish.eggs_after
    assert game.too_few(small_fish) and not game.drawn(small_fish)
    small_out = score(SINGLES, OutcomeKind.WENT_OUT, 1, ("5-6 4-4 2-3", ""))
    assert game.too_few(small_out) and not game.drawn(small_out)
    short = score(SINGLES, OutcomeKind.WENT_OUT, 1, ("0-1", ""), eggs=22)
    assert game.too_few(short)  # the eggs carry on untouched
    tied = score(SINGLES, OutcomeKind.FISH, 1, ("5-6", "4-6 0-1"))  # M-5: eggs
    assert not game.too_few(tied) and not game.drawn(tied)
    written = score(SINGLES, OutcomeKind.WENT_OUT, 1, ("5-6 4-4 2-4", ""))
    assert not game.too_few(written) and not game.drawn(written)


def test_a_tied_fish_nobody_writes_is_a_draw_where_there_is_no_minimum() -> None:
    tied = RoundResult(
        1, fish(0, 9, 9), (Account(0, 0, True),) * 2, (0, 0), (Account(0, 0, True),) * 2, 0, 0, None
    )
    for key in ("classic", "sport"):
        game = find_variant(key)
        assert game.drawn(tied) and not game.too_few(tied)
    assert not SEA_KOZEL.game.drawn(tied)


def opened(ruleset: Ruleset, first: str, second: str) -> Round:
    """A two-seat round seat 0 opens with the first tile of `first` (any tile may open)."""
    tiles = hands(first, second)
    bazaar = tuple(t for t in ALL_TILES if t not in tiles[0] + tiles[1])
    rnd = Round.from_deal(ruleset, 2, Deal(tiles, bazaar, 0), leader=0)
    rnd.apply(Play(tiles[0][0]))
    return rnd


def test_m3_two_doubles_that_fit_both_ends_go_down_in_one_turn() -> None:
    rnd = opened(SINGLES, "2-5 1-1 1-3", "2-2 5-5 1-2 3-3")
    pairs = [a for a in rnd.legal_actions() if isinstance(a, PlayDoubles)]
    assert [str(a) for a in pairs] == ["p2-2L+p5-5R"]
    assert [str(a) for a in rnd.legal_actions() if isinstance(a, Play)] == [
        "p1-2L",
        "p2-2L",
        "p5-5R",
    ]
    event = rnd.apply(pairs[0], 1)
    assert event == Played(1, T("5-5"), End.RIGHT)
    assert rnd.history[-2:] == (Played(1, T("2-2"), End.LEFT), event)
    assert rnd.hand(1) == hands("1-2 3-3")[0] and rnd.turn == 0 and rnd.turn_no == 2
    assert rnd.layout.pips == (2, 5)


def test_m3_the_action_reads_back_from_its_text() -> None:
    action = PlayDoubles((Play(T("2-2"), End.LEFT), Play(T("5-5"), End.RIGHT)))
    assert str(action) == "p2-2L+p5-5R" and parse_action(str(action)) == action
    assert LoggedAction.parse("3:1:p2-2L+p5-5R") == LoggedAction(3, 1, action)
    for text in ("p2-2+p5-5R", "p2-2L+d", "p2-2L+c5-5R", "p2-2L+"):
        with pytest.raises(DominoError, match="cannot read an action"):
            parse_action(text)


def test_m3_is_refused_with_its_reason() -> None:
    both = PlayDoubles((Play(T("2-2"), End.LEFT), Play(T("5-5"), End.RIGHT)))
    kozel = opened(find_variant("kozel").ruleset, "2-5 1-1 1-3", "2-2 5-5 1-2 3-3")
    assert not any(isinstance(a, PlayDoubles) for a in kozel.legal_actions())
    with pytest.raises(IllegalMove, match="M-3"):
        kozel.apply(both, 1)
    rnd = opened(SINGLES, "2-5 1-1 1-3", "2-2 5-5 1-2 3-3")
    refused = {
        "p2-2L+p5-5L": "a different open end",
        "p2-2L+p1-2L": "only different doubles",
        "p2-2L+p2-2R": "only different doubles",
        "p2-2L+p3-3R": "3-3 does not fit",
        "p2-2L+p5-5R+p3-3L": "from 2 to 2 doubles",
        "p5-5R+p2-2L": "in the order of their ends",
    }
    for text, reason in refused.items():
        assert not rnd.is_legal(parse_action(text), 1)
        with pytest.raises(IllegalMove, match=reason):
            rnd.apply(parse_action(text), 1)
    assert rnd.turn == 1 and rnd.turn_no == 1  # refused actions change nothing
    with pytest.raises(IllegalMove, match="do not hold 5-5"):
        opened(SINGLES, "2-5 1-1 1-3 5-5", "2-2 1-2 3-3").apply(both, 1)


def test_m3_and_m4_going_out_on_two_doubles_with_the_0_0() -> None:
    rnd = opened(SINGLES, "0-6 1-1 1-2", "6-6 0-0")
    (pair,) = (a for a in rnd.legal_actions() if isinstance(a, PlayDoubles))
    assert str(pair) == "p0-0L+p6-6R"  # the 0-0 named first, laid last
    rnd.apply(pair, 1)
    assert rnd.outcome == out(1, 5, 0)
    last = rnd.history[-1]
    assert isinstance(last, Played) and last.tile == T("0-0")  # the 0-0 goes down last
    before = initial_scores(SINGLES, 2)
    result = score_round(SINGLES, 1, rnd.outcome, before, 0, hands("1-1 1-2", ""), last.tile)
    assert result.after[1].recorded == 125  # «голый козёл»


def test_m3_in_whole_matches_replays_and_round_trips() -> None:
    used = 0
    for seed in range(12):
        match = whole_match(SINGLES, 2, seed, kind="random")
        used += sum(isinstance(entry.action, PlayDoubles) for entry in match.log)
        assert Match.replay(SINGLES, 2, seed, match.log) == match
        assert Match.from_json(match.to_json()) == match
    assert used


def test_m4_going_out_on_0_0_writes_the_winner_up_to_the_target() -> None:
    before = (Account(40, 0, True), Account(120, 0, True))
    outcome = out(0, 0, 3)
    naked = score_round(SINGLES, 4, outcome, before, 0, hands("", "1-2"), T("0-0"))
    assert naked.points == (85, 0) and naked.after[0] == Account(125, 0, True)
    plain = score_round(SINGLES, 4, outcome, before, 0, hands("", "1-2"), T("0-1"))
    assert plain.points == (0, 0)  # 3 < 25 (M-1)
    ahead = (Account(110, 0, True), Account(0, 0, True))
    big = score_round(SINGLES, 4, out(0, 0, 22), ahead, 30, hands("", "6-6 5-5"), T("0-0"))
    assert big.points == (22 + 30, 0)  # more than the 15 it needed: the round's sum
    assert (big.eggs_after, big.eggs_taken_by) == (0, 0)
    on_fish = score_round(SINGLES, 4, fish(0, 0, 3), before, 0, hands("0-0", "1-2"), T("0-0"))
    assert on_fish.points == (0, 25)  # no M-4 on a fish: the lone 0-0 is 25 (M-2)


def last_tiles(match: Match) -> dict[int, Tile]:
    """The tile that ended each finished round (the last action of a round is a play)."""
    ended: dict[int, Tile] = {}
    for entry in match.log:
        action = entry.action
        if isinstance(action, Play):
            ended[entry.round_no] = action.tile
    return ended


@pytest.mark.parametrize(("ruleset", "players"), [(SINGLES, 2), (SEA_KOZEL, 4)])
def test_m4_a_match_ends_when_a_side_goes_out_on_0_0(ruleset: Ruleset, players: int) -> None:
    found = 0
    for seed in range(40):
        match = whole_match(ruleset, players, seed)
        ended = last_tiles(match)
        for result in match.results:
            if result.outcome.kind is OutcomeKind.WENT_OUT and ended[result.round_no] == T("0-0"):
                found += 1
                assert result is match.results[-1] and match.over
                assert match.winners == (match.side_of(result.outcome.seat),)
                assert result.before[match.winners[0]].recorded < ruleset.target
                assert match.scores[match.winners[0]].recorded >= ruleset.target
                assert Match.from_json(match.to_json()) == match
    assert found


def test_k3_the_lowest_double_opens_the_first_round() -> None:
    first = hands("0-0 2-2 0-1 0-2 0-3 0-4 0-5")[0]
    second = hands("1-1 3-3 0-6 1-2 1-3 1-4 1-5")[0]
    bazaar = tuple(t for t in ALL_TILES if t not in first + second)
    opening = Round.from_deal(SINGLES, 2, Deal((first, second), bazaar, 0))
    assert (opening.leader, opening.opening_tile) == (1, T("1-1"))
    assert [str(a) for a in opening.legal_actions()] == ["p1-1"]


def whole_match(ruleset: Ruleset, players: int, seed: int, kind: str = "greedy") -> Match:
    rng = random.Random(seed)
    table = [GreedyPlayer() if kind == "greedy" else RandomPlayer(rng) for _ in range(players)]
    return play_match(Match.new(ruleset, players, seed), table)


def test_m6_the_match_ends_when_a_side_writes_125_and_it_wins() -> None:
    match = whole_match(SEA_KOZEL, 4, seed=7)
    assert match.over and match.losers == () and len(match.winners) == 1
    (winner,) = match.winners
    assert match.scores[winner].recorded >= 125
    assert all(a.recorded < 125 for side, a in enumerate(match.scores) if side != winner)
    assert match.rating() == find_variant("sea_kozel").rating_gains(match.seat_points())
    shorter = whole_match(SEA_KOZEL.with_options(target=101), 4, seed=7)
    assert shorter.over and max(a.recorded for a in shorter.scores) >= 101


@pytest.mark.parametrize(
    ("ruleset", "players", "kind"),
    [
        (SINGLES, 2, "greedy"),
        (SINGLES, 2, "random"),
        (SEA_KOZEL, 4, "greedy"),
        (SEA_KOZEL, 4, "random"),
        (SINGLES, 4, "greedy"),
    ],
)
@pytest.mark.parametrize("seed", range(6))
def test_whole_seeded_matches(ruleset: Ruleset, players: int, kind: str, seed: int) -> None:
    rng = random.Random(seed)
    table = [GreedyPlayer() if kind == "greedy" else RandomPlayer(rng) for _ in range(players)]
    match = Match.new(ruleset, players, seed)
    while not match.over:
        rnd = match.round
        seen, count = rnd.layout.table_mask, rnd.layout.table_mask.bit_count()
        for seat in range(players):
            assert not seen & rnd.hand_mask(seat)
            seen |= rnd.hand_mask(seat)
            count += rnd.hand_mask(seat).bit_count()
        assert count + rnd.bazaar_size == SET_SIZE
        assert (FULL_SET_MASK ^ seen).bit_count() == rnd.bazaar_size
        seat = match.turn
        assert seat is not None
        match.apply(table[seat].choose(match.view(seat)), seat)
    for result in match.results:
        assert result.after == tuple(
            Account(b.recorded + p, 0, True)
            for b, p in zip(result.before, result.points, strict=True)
        )
        assert sum(1 for p in result.points if p) <= 1  # only the winner writes (M-1)
        assert all(  # M-1's minimum, except M-4 writing the winner up to the target
            p == 0 or p >= 25 or account.recorded == ruleset.target
            for p, account in zip(result.points, result.after, strict=True)
        )
    assert Match.replay(ruleset, players, seed, match.log) == match
    assert Match.from_json(match.to_json()) == match
    assert json.loads(match.to_json())["ruleset"]["variant"] == "sea_kozel"


def test_a_stored_match_loads_mid_round_and_between_rounds() -> None:
    match = Match.new(SEA_KOZEL, 4, seed=11)
    player = GreedyPlayer()
    while not match.results:
        match.apply(player.choose(match.view(match.turn)))
        loaded = Match.from_json(match.to_json())
        assert loaded == match and loaded.legal_actions() == match.legal_actions()
    for _ in range(5):
        match.apply(player.choose(match.view(match.turn)))
    assert Match.from_json(match.to_json()) == match


def test_simulate_runs_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--variant", "sea_kozel", "--players", "4", "--no-teams", "--matches", "20"]
    assert main([*argv, "--seed", "1", "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("variant: sea_kozel (individual), 4 players")
    assert "winner per seat" in text
    assert main(["simulate", "--variant", "sea_kozel", "--players", "2", "--matches", "5"]) == 0


def test_a_stored_match_with_two_doubles_loads_as_written() -> None:
    """A 2x2 match saved mid-round 7 (format 2), with two `PlayDoubles` in its log."""
    text = (Path(__file__).parent / "stored" / "sea_kozel4_teams_mid_round_v2.json").read_text()
    stored = json.loads(text)
    match = Match.from_json(text)
    log = [LoggedAction.parse(entry) for entry in stored["log"]]
    assert match == Match.replay(SEA_KOZEL, 4, stored["seed"], log)
    assert (match.round_no, match.over, len(match.results)) == (7, False, 6)
    assert [a.recorded for a in match.scores] == [70, 27]
    assert sum(isinstance(entry.action, PlayDoubles) for entry in match.log) == 2
    assert match.to_json() == text.strip()
