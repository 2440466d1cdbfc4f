"""«Спортивное домино» (S-1 .. S-7): the rules one by one with worked examples on crafted
deals, then whole seeded matches, replay and the stored form."""

from __future__ import annotations

import json
import random

import pytest

from domino.__main__ import main
from domino.actions import DRAW, KNOCK, Knock, Knocked, Play, Played, parse_action
from domino.deal import Deal, deal, turned_leader
from domino.errors import BadRuleset, DominoError, IllegalMove, NotYourTurn
from domino.match import Match, round_rng
from domino.players import GreedyPlayer, RandomPlayer
from domino.rating import classic_rating_gains
from domino.round import Round
from domino.rules import KOZEL, Opening, Ruleset, Scoring, Variant
from domino.scoring import initial_scores, score_round, sides_for
from domino.simulate import play_match
from domino.sport import SPORT
from domino.tiles import ALL_TILES, DOUBLES_MASK, Tile, mask_of
from domino.variants import VARIANTS, Sport, find_variant
from domino.views import Account, OutcomeKind, RoundOutcome

T = Tile.parse


def hands(*texts: str) -> tuple[tuple[Tile, ...], ...]:
    return tuple(tuple(T(t) for t in text.split()) for text in texts)


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(T(t) for t in text.split())


def crafted(turned: str, *texts: str) -> Round:
    """The first round of Спортивное from given hands (all 28 tiles, no bazaar)."""
    return Round.from_deal(SPORT, 4, Deal(hands(*texts), (), turned=tiles(turned)))


def play(round_: Round, log: str) -> None:
    for text in log.split():
        round_.apply(parse_action(text))


def score(kind: OutcomeKind, seat: int, values: tuple[int, ...]) -> tuple[int, ...]:
    outcome = RoundOutcome(kind, seat, values)
    return score_round(SPORT, 1, outcome, initial_scores(SPORT, 2)).points


# A going out with passes (S-3, S-4): seat 3 turned 6-6 and leads; seat 3 goes out.
OUT_TURNED = "0-6 2-3 1-5 6-6"
OUT_HANDS = (
    "0-0 0-4 1-3 2-4 2-6 5-5 6-6",
    "0-3 0-6 1-2 2-3 2-5 4-4 4-5",
    "0-1 1-4 2-2 3-3 3-6 4-6 5-6",
    "0-2 0-5 1-1 1-5 1-6 3-4 3-5",
)
OUT_LOG = (
    "p1-5 p1-3L p2-3L p5-6R p0-2L p0-0L p0-6L p3-6L p3-4L p2-4L p1-2L p4-6R p1-1L p0-4R"
    " p0-3R p1-4L p3-5R p5-5R p4-5L k p0-5L k p2-5R p0-1L p1-6L"
)

# A fish the fisherman's pair loses (S-5): seat 2 blocks the table, 0+2 hold more.
FISH_TURNED = "2-4 3-4 2-3 1-1"
FISH_HANDS = (
    "0-1 0-3 2-2 2-4 3-4 3-6 5-5",
    "0-0 0-2 0-6 1-2 1-5 2-3 2-6",
    "1-3 1-4 1-6 3-3 3-5 4-5 5-6",
    "0-4 0-5 1-1 2-5 4-4 4-6 6-6",
)
FISH_LOG = "p0-6 p1-6R p1-1R p0-1L p1-2L p1-3R p2-5L p3-4R p1-5L p1-4R"

# A fish with equal pair totals (S-5): a draw.
TIE_TURNED = "3-6 2-2 0-2 4-4"
TIE_HANDS = (
    "1-1 1-3 1-4 2-3 2-4 3-3 4-6",
    "0-4 1-2 2-2 2-6 3-4 3-5 4-4",
    "0-0 0-1 1-5 1-6 2-5 3-6 5-6",
    "0-2 0-3 0-5 0-6 4-5 5-5 6-6",
)
TIE_LOG = "p2-3 p2-6L p3-6L p0-3L p3-3R p3-4R p0-1L p4-5R p1-3L p3-5R"


def test_the_game_is_registered_with_its_names_and_default_ruleset() -> None:
    game = find_variant("sport")
    assert isinstance(game, Sport) and game is SPORT.game and game.ruleset is SPORT
    assert game in VARIANTS and find_variant(Variant.SPORT) is game
    assert (game.name_key, game.rules_key) == (
        "variant.sport",
        "rules.sport",
    )
    assert (SPORT.scoring, SPORT.opening, SPORT.target) == (
        Scoring.SPORT,
        Opening.TURNED_TILE,
        200,
    )
    assert not game.points_are_bad and not game.rule_of_13
    assert (game.max_doubles, game.may_close) == (1, False)  # one tile per turn
    assert dict(game.choices) == {"target": (200, 100, 300)}


# --- S-1: exactly four players in fixed pairs, seven tiles each, no bazaar -----------------


def test_s1_four_players_in_pairs_partners_opposite() -> None:
    assert dict(SPORT.hand_sizes) == {4: 7} and SPORT.teams
    assert sides_for(SPORT, 4) == ((0, 2), (1, 3))
    for players in (2, 3, 5):
        with pytest.raises(BadRuleset, match="4"):
            Match.new(SPORT, players, seed=1)


def test_s1_the_pairs_cannot_be_switched_off() -> None:
    game = find_variant("sport")
    assert not game.offers("teams") and game.offers("target")
    with pytest.raises(BadRuleset, match=r"exactly 4 players in two pairs \(S-1\)"):
        SPORT.with_options(teams=False)
    with pytest.raises(BadRuleset, match="S-1"):
        SPORT.with_options(hand_sizes={2: 7, 4: 7})
    stored = {**SPORT.to_dict(), "teams": False}
    with pytest.raises(BadRuleset, match="S-1"):
        Ruleset.from_dict(stored)
    assert Ruleset.from_dict(json.loads(json.dumps(SPORT.to_dict()))) == SPORT


def test_s1_all_28_tiles_are_dealt_and_there_is_no_bazaar() -> None:
    for seed in range(20):
        round_ = Match.new(SPORT, 4, seed).round
        assert [len(round_.hand(seat)) for seat in range(4)] == [7, 7, 7, 7]
        assert round_.bazaar_size == round_.drawable == 0 and round_.deal.bazaar == ()


def test_c11_a_hand_of_five_doubles_is_dealt_again_after_the_turned_tiles() -> None:
    """The choice written on `SPORT`: C-11's redeal applies; the turned tiles come from
    the first shuffle, before any redeal."""
    redealt = 0
    for seed in range(400):
        dealt = deal(SPORT, 4, random.Random(seed), first=True)
        assert all((mask_of(hand) & DOUBLES_MASK).bit_count() < 5 for hand in dealt.hands)
        shuffled = list(ALL_TILES)
        random.Random(seed).shuffle(shuffled)
        assert dealt.turned == tuple(shuffled[:4])
        redealt += dealt.redeals > 0
    assert redealt  # some of these deals met the rule


# --- S-2: the first leader turns the highest tile and opens with any tile -----------------


def test_s2_the_highest_turned_tile_leads_ties_by_the_higher_half() -> None:
    assert turned_leader(tiles("0-6 2-3 1-5 6-6"), 4) == 3  # 6-6: 12
    assert turned_leader(tiles("3-4 1-6 2-5 0-0"), 4) == 1  # all 7: 1-6 has the 6
    assert turned_leader(tiles("5-5 4-6 0-1 2-2"), 4) == 1  # 10: 4-6's 6 beats 5-5's 5
    assert turned_leader(tiles("1-2 0-0 0-3 0-1"), 4) == 2  # 3: 0-3's 3 beats 1-2's 2
    with pytest.raises(DominoError, match="4 different turned tiles"):
        turned_leader(tiles("0-0 0-1 0-1 1-2"), 4)
    with pytest.raises(DominoError, match="4 different turned tiles"):
        turned_leader(tiles("0-0 0-1 1-2"), 4)


def test_s2_the_leader_opens_with_any_tile() -> None:
    round_ = crafted(OUT_TURNED, *OUT_HANDS)
    assert (round_.leader, round_.turn, round_.opening_tile) == (3, 3, None)
    assert round_.turned == tiles(OUT_TURNED)
    assert round_.legal_actions() == tuple(Play(t) for t in round_.hand(3))
    for t in round_.hand(3):
        assert round_.is_legal(Play(t), 3)
    with pytest.raises(NotYourTurn):
        round_.apply(Play(T("0-0")), 0)  # seat 0 turned 0-6: not the leader


def test_s2_the_turned_tiles_come_from_the_seed_and_are_public() -> None:
    for seed in range(30):
        match = Match.new(SPORT, 4, seed)
        again = Match.new(SPORT, 4, seed)
        turned = match.round.turned
        assert turned == again.round.turned and len(set(turned)) == 4
        assert match.round.deal.turned == turned
        assert match.round.leader == turned_leader(turned, 4) and match.round.opening_tile is None
        # The round's rng turns them: its first shuffle, then the deal's own.
        shuffled = list(ALL_TILES)
        round_rng(seed, 1).shuffle(shuffled)
        assert turned == tuple(shuffled[:4])
        for seat in (None, 0, 1, 2, 3):
            assert match.view(seat).round.turned == turned
    assert len({Match.new(SPORT, 4, seed).round.turned for seed in range(30)}) > 1


def test_s2_later_rounds_are_led_by_who_went_out_or_the_fisherman() -> None:
    kinds = {OutcomeKind.WENT_OUT: 0, OutcomeKind.FISH: 0}
    for seed in range(12):
        match = Match.new(SPORT, 4, seed)
        play_match(match, [GreedyPlayer()] * 4)
        for round_no, result in enumerate(match.results[:-1], 2):
            kinds[result.outcome.kind] += 1
            first = next(entry for entry in match.log if entry.round_no == round_no)
            assert first.seat == result.outcome.seat
            assert isinstance(first.action, Play) and first.action.end is None
        assert match.round_no > 1 and match.round.turned == ()
    assert all(kinds.values())  # both ways of ending a round led a next one


def test_s2_only_a_first_round_of_the_game_has_turned_tiles() -> None:
    dealt = Deal(hands(*OUT_HANDS), (), turned=tiles(OUT_TURNED))
    with pytest.raises(DominoError, match="only the first round"):
        Round.from_deal(SPORT, 4, dealt, leader=2)
    with pytest.raises(DominoError, match="only the first round"):
        Round.from_deal(KOZEL, 4, dealt)
    with pytest.raises(DominoError, match="turned tiles"):
        Round.from_deal(SPORT, 4, Deal(hands(*OUT_HANDS), ()))
    later = Round.start(SPORT, 4, random.Random(3), leader=2)
    assert later.turned == () and later.view(None).turned == () and later.leader == 2
    for game in VARIANTS:
        if game is not find_variant("sport"):
            players = 4 if 4 in game.ruleset.hand_sizes else game.ruleset.min_players
            assert Match.new(game.ruleset, players, 7).view(None).round.turned == ()


# --- S-3: a player with no tile that fits passes ------------------------------------------


def test_s3_with_nothing_that_fits_the_player_passes() -> None:
    round_ = crafted(OUT_TURNED, *OUT_HANDS)
    before_pass, _ = OUT_LOG.split(" k ", 1)
    play(round_, before_pass)
    # Both ends show 5; seat 2 holds no 5.
    assert [pip for _, pip in round_.layout.open_ends()] == [5, 5]
    assert round_.turn == 2 and round_.hand(2) == tiles("0-1 2-2 3-3")
    assert round_.legal_actions() == (KNOCK,)
    with pytest.raises(IllegalMove, match="knock"):
        round_.apply(DRAW, 2)
    assert round_.apply(KNOCK, 2) == Knocked(2)
    assert round_.turn == 3 and round_.hand(2) == tiles("0-1 2-2 3-3")
    with pytest.raises(IllegalMove, match=r"you hold 0-5, which fits: you must play it \(C-5\)"):
        round_.apply(KNOCK, 3)  # a pass only with nothing that fits


# --- S-4: going out: the winning pair writes all tiles left in all hands ------------------


def test_s4_worked_example_the_partners_tiles_count_too() -> None:
    # Seat 0 goes out; its partner (seat 2) still holds 7 pips, the others 10 and 5.
    assert score(OutcomeKind.WENT_OUT, 0, (0, 10, 7, 5)) == (22, 0)
    assert score(OutcomeKind.WENT_OUT, 3, (4, 9, 0, 0)) == (0, 13)
    # A lone 0-0 is worth its pips: nothing.
    assert score(OutcomeKind.WENT_OUT, 1, (0, 0, 0, 12)) == (0, 12)


def test_s4_a_crafted_round_played_to_going_out() -> None:
    round_ = crafted(OUT_TURNED, *OUT_HANDS)
    play(round_, OUT_LOG)
    outcome = round_.outcome
    assert outcome == RoundOutcome(OutcomeKind.WENT_OUT, 3, (20, 8, 10, 0))
    assert sum(isinstance(e, Played) for e in round_.history) == 23
    assert [e.seat for e in round_.history if isinstance(e, Knocked)] == [2, 0]
    result = score_round(
        SPORT, 1, outcome, initial_scores(SPORT, 2), 0, [round_.hand(s) for s in range(4)]
    )
    assert result.points == (0, 38)  # 20 + 8 + 10: seat 1's own 8 as well
    assert result.after == (Account(0, 0, True), Account(38, 0, True))
    assert (result.eggs_before, result.eggs_after, result.eggs_taken_by) == (0, 0, None)


# --- S-5: fish: the pair with the lower total writes all; equal totals: a draw ---------------


def test_s5_worked_example_the_lower_pair_writes_every_hand() -> None:
    # Seat 1 blocks; 0+2 hold 9 + 3 = 12, 1+3 hold 4 + 6 = 10: 1+3 write 22.
    assert score(OutcomeKind.FISH, 1, (9, 4, 3, 6)) == (0, 22)
    # The fisherman's pair holds more: the other pair writes.
    assert score(OutcomeKind.FISH, 1, (2, 9, 3, 6)) == (20, 0)


def test_s5_a_crafted_fish_that_the_fishermans_pair_loses() -> None:
    round_ = crafted(FISH_TURNED, *FISH_HANDS)
    assert round_.leader == 1  # 3-4: 7, the highest of 2-4, 3-4, 2-3 and 1-1
    play(round_, FISH_LOG)
    outcome = round_.outcome
    assert outcome == RoundOutcome(OutcomeKind.FISH, 2, (32, 15, 34, 39))
    assert round_.layout.open_ends()[0][1] == round_.layout.open_ends()[1][1] == 1
    result = score_round(SPORT, 1, outcome, initial_scores(SPORT, 2))
    assert result.points == (0, 120)  # 0+2: 66 against 1+3: 54; all four hands written


def test_s5_a_crafted_fish_with_equal_totals_is_a_draw() -> None:
    round_ = crafted(TIE_TURNED, *TIE_HANDS)
    assert round_.leader == 0  # 3-6 is the highest: 9
    play(round_, TIE_LOG)
    outcome = round_.outcome
    assert outcome == RoundOutcome(OutcomeKind.FISH, 1, (23, 19, 31, 35))  # 54 against 54
    before = (Account(40, 0, True), Account(77, 0, True))
    result = score_round(SPORT, 4, outcome, before)
    assert result.points == (0, 0) and result.after == before
    assert (result.eggs_before, result.eggs_after, result.eggs_taken_by) == (0, 0, None)


def test_s5_a_drawn_fish_carries_nothing_into_the_next_round() -> None:
    with pytest.raises(DominoError, match="no eggs"):
        score_round(SPORT, 2, RoundOutcome(OutcomeKind.FISH, 1, (5, 4, 3, 4)), (Account(),) * 2, 8)


# --- S-6: the first pair to the target wins; a drawn match cannot arise ---------------------


def test_s6_the_first_pair_to_200_wins_and_partners_share_the_rating() -> None:
    match = Match.new(SPORT, 4, seed=2026)
    play_match(match, [GreedyPlayer(), RandomPlayer(random.Random(1))] * 2)
    assert match.over and len(match.winners) == 1 and match.losers == ()
    winner = match.winners[0]
    assert match.scores[winner].recorded >= 200 > match.scores[1 - winner].recorded
    for result in match.results:
        written = [p for p in result.points if p]
        assert len(written) <= 1  # one pair writes, or nobody (a drawn fish)
        if written:
            assert written[0] == sum(result.outcome.hand_values)
    points = match.seat_points()
    assert points[0] == points[2] and points[1] == points[3]
    gains = match.rating()
    assert gains == classic_rating_gains(points) and gains[0] == gains[2]
    assert gains[winner] > gains[1 - winner]


def test_s6_the_target_is_an_option() -> None:
    ruleset = SPORT.with_options(target=100)
    match = Match.new(ruleset, 4, seed=5)
    play_match(match, [GreedyPlayer()] * 4)
    assert max(account.recorded for account in match.scores) >= 100
    assert len(match.winners) == 1


@pytest.mark.parametrize("seed", range(8))
def test_s6_no_match_ends_drawn(seed: int) -> None:
    """The choice written on `Sport`: only one pair writes in a round, so one pair wins."""
    match = Match.new(SPORT.with_options(target=100), 4, seed)
    play_match(match, [RandomPlayer(random.Random(seed))] * 4)
    assert len(match.winners) == 1


# --- S-7: K-12's turn times are on by default ---------------------------------------------


def test_s7_turn_times_are_on_by_default_only_in_this_game() -> None:
    assert find_variant("sport").turn_timing
    assert [game.key for game in VARIANTS if game.turn_timing] == [Variant.SPORT]


# --- whole matches: replay, the stored form, the command line -------------------------------


def test_a_seeded_match_replays_from_its_seed_and_log() -> None:
    match = Match.new(SPORT, 4, seed=77)
    play_match(match, [GreedyPlayer()] * 4)
    again = Match.replay(SPORT, 4, 77, match.log)
    assert again == match and again.round_no > 1 and again.round.turned == ()
    first = Match.replay(SPORT, 4, 77, [e for e in match.log if e.round_no == 1][:5])
    assert first.round.turned == Match.new(SPORT, 4, 77).round.turned != ()
    assert Match.replay(SPORT, 4, 77, [e.action for e in match.log]) == match


def test_the_stored_form_round_trips_mid_first_round_and_after_the_end() -> None:
    match = Match.new(SPORT, 4, seed=31)
    player = GreedyPlayer()
    for _ in range(6):
        seat = match.turn
        assert seat is not None
        match.apply(player.choose(match.view(seat)), seat)
    text = match.to_json()
    assert json.loads(text)["ruleset"]["variant"] == "sport"
    back = Match.from_json(text)
    assert back == match and back.round.turned == match.round.turned != ()
    assert back.view(None).round.turned == match.round.turned
    play_match(match, [player] * 4)
    play_match(back, [player] * 4)
    assert back == match
    finished = Match.from_json(match.to_json())
    assert finished == match and finished.to_json() == match.to_json()
    assert finished.finished_round is not None


def test_the_command_line_simulates_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--variant", "sport", "--matches", "4", "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("variant: sport (teams 0+2 vs 1+3), 4 players")
    assert "target 200" in text
    assert main(["simulate", "--variant", "sport", "--matches", "1", "--no-teams"]) == 2
    assert "S-1" in capsys.readouterr().err


def test_a_pass_is_the_only_action_without_a_fitting_tile_in_every_dealt_round() -> None:
    """S-3 on random play: with no bazaar, a seat that cannot play always knocks."""
    rng = random.Random(5)
    for _ in range(40):
        round_ = Round.start(SPORT, 4, rng)
        while round_.turn is not None:
            legal = round_.legal_actions()
            layout = round_.layout
            if layout.table_mask and not round_.hand_mask(round_.turn) & layout.fit_mask:
                assert legal == (KNOCK,)
            else:
                assert not any(isinstance(action, Knock) for action in legal)
            round_.apply(legal[int(rng.random() * len(legal))])


def reference_playout(round_: Round, rng: random.Random) -> RoundOutcome | None:
    """The playout policy spelled out with the public API, on a copy."""
    sim = round_.copy()
    while sim.turn is not None:
        legal = sim.legal_actions()
        sim.apply(legal[0] if legal[0] is KNOCK else legal[int(rng.random() * len(legal))])
    return sim.outcome


@pytest.mark.parametrize("seed", range(40))
def test_the_playout_kernel_opens_with_any_tile_as_the_public_api_would(seed: int) -> None:
    """S-2's any-tile opening (and a later round's) in the mask kernel: the same game,
    and the round itself untouched."""
    for leader in (None, seed % 4):
        round_ = Round.start(SPORT, 4, random.Random(seed), leader=leader)
        before = round_.copy()
        outcome = round_.playout(random.Random(seed))
        assert outcome == reference_playout(round_, random.Random(seed))
        assert round_ == before and round_.layout.is_empty
