"""`Match`: rounds in a row, scoring, K-4/T-2 leaders, K-10/T-6 end, JSON and replay."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from domino.actions import DRAW, KNOCK, Play
from domino.errors import (
    BadState,
    DominoError,
    IllegalMove,
    MatchOver,
    NotYourTurn,
    StaleAction,
)
from domino.match import FORMAT_VERSION, LoggedAction, Match, round_rng
from domino.players import GreedyPlayer
from domino.rating import classic_rating_gains, rating_gains
from domino.rules import CLASSIC, KOZEL, Ruleset
from domino.scoring import next_leader, score_round
from domino.simulate import play_match
from domino.tiles import Tile
from domino.views import OutcomeKind

GREEDY = (GreedyPlayer(),) * 5


def play_round(match: Match) -> None:
    """Play the current round to its end with greedy players."""
    round_no = match.round_no
    while match.round_no == round_no and not match.over:
        seat = match.turn
        assert seat is not None
        match.apply(GREEDY[seat].choose(match.view(seat)), seat)


def test_new_match_deals_the_first_round_with_the_k3_opener() -> None:
    match = Match.new(KOZEL, 4, seed=11)
    assert (match.round_no, match.results, match.eggs, match.over) == (1, (), 0, False)
    assert match.sides == ((0,), (1,), (2,), (3,))
    assert match.finished_round is None
    opening = match.round.opening_tile
    assert opening is not None and opening in match.round.hand(match.turn or 0)
    assert match.legal_actions() == (Play(opening, None),)


def test_a_seed_reproduces_the_match_and_rounds_are_dealt_independently() -> None:
    a, b = Match.new(KOZEL, 3, seed=5), Match.new(KOZEL, 3, seed=5)
    assert a == b and a.round.deal == b.round.deal
    assert Match.new(KOZEL, 3, seed=6).round.deal != a.round.deal
    assert round_rng(5, 1).random() != round_rng(5, 2).random()
    assert round_rng(5, 2).random() == round_rng(5, 2).random()


def test_without_a_seed_the_match_draws_a_secure_one() -> None:
    seeds = {Match.new(KOZEL, 2).seed for _ in range(3)}
    assert len(seeds) == 3 and all(0 <= s < 2**64 for s in seeds)


def test_refused_actions_change_nothing() -> None:
    match = Match.new(KOZEL, 4, seed=3)
    before = match.to_json()
    mover = match.turn
    assert mover is not None
    with pytest.raises(NotYourTurn):
        match.apply(match.legal_actions()[0], (mover + 1) % 4)
    with pytest.raises(IllegalMove):
        match.apply(DRAW)
    assert match.to_json() == before and match.log == ()


def test_round_end_scores_and_deals_the_next_round_with_the_k4_leader() -> None:
    match = Match.new(KOZEL, 4, seed=2)
    play_round(match)
    assert match.round_no == 2 and len(match.results) == 1
    ended = match.finished_round
    assert ended is not None and ended.outcome is not None
    result = match.results[0]
    hands = tuple(ended.hand(seat) for seat in range(4))
    assert result == score_round(KOZEL, 1, ended.outcome, result.before, 0, hands)
    assert match.scores == result.after and match.eggs == result.eggs_after
    assert match.round.leader == ended.outcome.seat == match.turn
    assert match.round.opening_tile is None  # K-4: any tile
    assert len(match.round.legal_actions()) == 7
    assert match.log[-1].round_no == 1 and match.round.turn_no == 0


def test_ended_round_gives_any_finished_round_as_it_ended() -> None:
    match = Match.new(KOZEL, 3, seed=4)
    play_round(match)
    first = match.finished_round
    play_round(match)
    assert len(match.results) == 2 and first is not None
    assert match.ended_round(2) is match.finished_round  # the last one is kept
    again = match.ended_round(1)
    assert again == first and again.over and again.outcome == match.results[0].outcome
    back = Match.from_json(match.to_json())  # from the stored form: replayed from the log
    assert back.ended_round(1) == first and back.ended_round(2) == match.ended_round(2)
    for missing in (0, 3):
        with pytest.raises(DominoError, match="has not ended"):
            match.ended_round(missing)


def test_after_round_is_the_match_as_it_stood_when_that_round_ended() -> None:
    match = Match.new(KOZEL, 3, seed=4)
    play_round(match)
    at_first_end = match.view(None)
    assert match.after_round(1) is match  # nothing played since
    match.apply(match.legal_actions()[0])
    play_round(match)  # the rest of round 2, and round 3 begun
    match.apply(match.legal_actions()[0])
    then = match.after_round(1)
    assert then.view(None) == at_first_end
    assert then.ended_round(1) == match.ended_round(1)
    assert match.after_round(2).view(None).results == match.results[:2]
    assert len(match.results) == 2 and match.round_no == 3  # the match itself is as it was
    for missing in (0, 3):
        with pytest.raises(DominoError, match="has not ended"):
            match.after_round(missing)


def test_log_names_round_and_seat_and_reads_back() -> None:
    match = Match.new(KOZEL, 2, seed=8)
    play_round(match)
    entry = match.log[0]
    assert entry.round_no == 1 and entry.seat == match.finished_round.leader  # type: ignore[union-attr]
    assert LoggedAction.parse(str(entry)) == entry
    with pytest.raises(BadState):
        LoggedAction.parse("1:x:d")


def whole_match(ruleset: Ruleset, players: int, seed: int) -> Match:
    return play_match(Match.new(ruleset, players, seed), GREEDY)


def test_kozel_match_ends_when_a_side_reaches_the_target() -> None:
    match = whole_match(KOZEL, 4, seed=21)
    assert match.over and match.turn is None and match.legal_actions() == ()
    recorded = [a.recorded for a in match.scores]
    assert max(recorded) >= KOZEL.target
    assert match.losers == tuple(i for i, r in enumerate(recorded) if r == max(recorded))
    assert match.winners == ()
    assert all(max(a.recorded for a in r.after) < KOZEL.target for r in match.results[:-1])
    assert match.finished_round is match.round and match.round.over
    assert match.round_no == len(match.results)
    with pytest.raises(MatchOver):
        match.apply(KNOCK)
    assert match.rating() == rating_gains(recorded)


def test_target_125_takes_longer_than_target_101() -> None:
    short = whole_match(KOZEL, 3, seed=4)
    long = whole_match(KOZEL.with_options(target=125), 3, seed=4)
    assert max(a.recorded for a in long.scores) >= 125
    assert len(long.results) >= len(short.results)


def test_team_match_scores_two_sides_and_partners_share_points() -> None:
    teams = KOZEL.with_options(teams=True)
    match = whole_match(teams, 4, seed=9)
    assert match.sides == ((0, 2), (1, 3)) and len(match.scores) == 2
    points = match.seat_points()
    assert points[0] == points[2] == match.scores[0].recorded
    assert points[1] == points[3] == match.scores[1].recorded
    assert match.side_of(3) == 1
    view = match.view(None)
    assert view.sides == match.sides and view.side_of(2) == 0
    assert match.rating()[0] == match.rating()[2]


def test_classic_match_winner_and_t2_leaders() -> None:
    match = whole_match(CLASSIC, 3, seed=13)
    assert match.over and match.losers == ()
    recorded = [a.recorded for a in match.scores]
    assert match.winners == tuple(i for i, r in enumerate(recorded) if r == max(recorded))
    assert max(recorded) >= CLASSIC.target
    assert match.rating() == classic_rating_gains(recorded)
    replayed = Match.new(CLASSIC, 3, match.seed)
    for result in match.results[:-1]:
        round_no = result.round_no
        entries = [e for e in match.log if e.round_no == round_no]
        for entry in entries:
            replayed.apply(entry.action, entry.seat)
        ended = replayed.finished_round
        assert ended is not None and ended.outcome == result.outcome
        hands = tuple(ended.hand(s) for s in range(3))
        assert replayed.round.leader == next_leader(CLASSIC, result.outcome, hands)
        if result.outcome.kind is OutcomeKind.WENT_OUT:
            assert replayed.round.leader == result.outcome.seat


def test_rating_needs_a_finished_match() -> None:
    with pytest.raises(DominoError, match="not over"):
        Match.new(KOZEL, 2, seed=1).rating()


def test_views_show_only_the_viewers_hand() -> None:
    match = Match.new(KOZEL, 3, seed=30)
    public = match.view(None)
    assert public.round.hand == () and public.round.legal == ()
    for seat in range(3):
        view = match.view(seat)
        assert view.round.hand == match.round.hand(seat)
        assert (view.round.legal != ()) == (seat == match.turn)
        assert (view.scores, view.eggs, view.round_no) == (match.scores, 0, 1)


def test_json_round_trip_mid_match_and_after_the_end() -> None:
    match = Match.new(KOZEL.with_options(teams=True, target=125), 4, seed=17)
    play_round(match)
    play_round(match)
    for _ in range(5):
        match.apply(match.legal_actions()[0])
    text = match.to_json()
    assert json.loads(text)["version"] == FORMAT_VERSION
    back = Match.from_json(text)
    assert back == match and back.to_json() == text
    assert back.finished_round == match.finished_round
    done = play_match(back, GREEDY)
    again = Match.from_json(done.to_json())
    assert again == done and again.over and again.losers == done.losers


def test_json_holds_the_seed_the_log_and_the_results_once() -> None:
    match = Match.new(KOZEL, 2, seed=31)
    play_round(match)  # the next round is dealt and has no action yet
    data = json.loads(match.to_json())
    assert set(data) == {"version", "ruleset", "players", "seed", "results", "log"}
    assert data["log"] == [str(entry) for entry in match.log] and len(data["results"]) == 1
    # A result leaves out what the one before gives: its number, the accounts before it.
    assert set(data["results"][0]) == {"outcome", "points", "after", "eggs"}
    back = Match.from_json(match.to_json())
    assert back == match and back.round.turn_no == 0 and back.finished_round is not None
    assert back.round.deal == match.round.deal and back.round.leader == match.round.leader
    fresh = Match.new(KOZEL, 3, seed=32)
    assert Match.from_json(fresh.to_json()) == fresh


def points_changed(data: dict[str, Any]) -> None:
    data["results"][-1]["points"][0] += 1


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(version=3), "version"),
        (lambda d: d.pop("version"), "version"),
        (lambda d: d.update(players="four"), "integer"),
        (lambda d: d.update(seed=True), "integer"),
        (lambda d: d.update(seed=18), "does not apply"),
        (lambda d: d.update(log=["1:0:zz"]), "action"),
        (lambda d: d.update(log=d["log"][1:]), "does not apply"),
        (lambda d: d.update(log=d["log"][:-1]), "results"),
        (lambda d: d.update(log=[*d["log"], "3:0:d"]), "round 3"),
        (lambda d: d.update(results=[]), "results"),
        (points_changed, "results"),
        (lambda d: d.update(results=d["results"] * 2), "no action of round 2"),
        (lambda d: d.pop("log"), "log"),
    ],
)
def test_from_json_refuses_broken_state(change: object, message: str) -> None:
    match = Match.new(KOZEL, 4, seed=17)
    play_round(match)
    data = json.loads(match.to_json())
    change(data)  # type: ignore[operator]
    with pytest.raises(BadState, match=message):
        Match.from_json(json.dumps(data))


@pytest.mark.parametrize("text", ["{", "[1, 2]", "null"])
def test_from_json_refuses_what_is_not_a_match_object(text: str) -> None:
    with pytest.raises(BadState):
        Match.from_json(text)


def test_replay_from_the_log_or_from_plain_actions() -> None:
    match = Match.new(KOZEL, 4, seed=44)
    play_round(match)
    match.apply(match.legal_actions()[-1])
    assert Match.replay(KOZEL, 4, 44, match.log) == match
    assert Match.replay(KOZEL, 4, 44, [entry.action for entry in match.log]) == match
    wrong_round = [LoggedAction(2, entry.seat, entry.action) for entry in match.log]
    with pytest.raises(BadState, match="round"):
        Match.replay(KOZEL, 4, 44, wrong_round)
    wrong_seat = [LoggedAction(1, (entry.seat + 1) % 4, entry.action) for entry in match.log]
    with pytest.raises(BadState, match="does not apply"):
        Match.replay(KOZEL, 4, 44, wrong_seat)


def test_a_tile_is_a_tile_after_json() -> None:
    match = Match.new(KOZEL, 2, seed=1)
    back = Match.from_json(match.to_json())
    assert all(isinstance(t, Tile) for t in back.round.hand(0))
    assert repr(back).startswith("Match(kozel, 2 players, round 1")


@pytest.mark.parametrize(
    ("ruleset", "players", "hand_size"),
    [
        (KOZEL, 2, 7),
        (KOZEL, 3, 7),
        (KOZEL, 4, 7),
        (CLASSIC, 2, 7),
        (CLASSIC, 3, 5),
        (CLASSIC, 4, 5),
        (CLASSIC, 5, 4),
    ],
)
def test_k1_t1_hand_sizes_and_whole_matches(ruleset: Ruleset, players: int, hand_size: int) -> None:
    match = Match.new(ruleset, players, seed=players)
    assert all(len(match.round.hand(seat)) == hand_size for seat in range(players))
    assert match.round.bazaar_size == 28 - players * hand_size
    done = play_match(match, (GreedyPlayer(),) * players)
    assert done.over and len(done.scores) == players


def test_player_counts_outside_the_variant_are_refused() -> None:
    with pytest.raises(DominoError, match="players"):
        Match.new(KOZEL, 5, seed=1)
    with pytest.raises(DominoError, match="players"):
        Match.new(CLASSIC, 1, seed=1)


def until_a_draw(seed: int) -> Match:
    """A two-player Козёл match played greedily until the seat to move must draw (C-6)."""
    match = Match.new(KOZEL, 2, seed=seed)
    while match.legal_actions() != (DRAW,):
        seat = match.turn
        assert seat is not None
        match.apply(GREEDY[seat].choose(match.view(seat)), seat)
    return match


@pytest.mark.parametrize("seed", range(6))
def test_draw_until_playable_draws_one_at_a_time_until_a_tile_fits(seed: int) -> None:
    match = until_a_draw(seed)
    seat = match.turn
    assert seat is not None
    before, moves = match.round.hand(seat), len(match.log)
    drawn = match.draw_until_playable(seat)
    assert drawn and drawn == tuple(sorted(set(match.round.hand(seat)) - set(before)))
    assert [entry.action for entry in match.log[moves:]] == [DRAW] * len(drawn)
    assert match.turn == seat and DRAW not in match.legal_actions()
    played = [a for a in match.legal_actions() if isinstance(a, Play)]
    if played:  # C-6: the last tile drawn is the only one that fits
        assert {a.tile for a in played} == {match.round.drawn(seat)[-1]}
    else:
        assert match.legal_actions() == (KNOCK,) and match.round.drawable == 0


def test_draw_until_playable_is_refused_like_a_draw() -> None:
    match = Match.new(KOZEL, 2, seed=3)
    seat = match.turn
    assert seat is not None
    before = match.to_json()
    with pytest.raises(IllegalMove):
        match.draw_until_playable(seat)  # the round opens with a play
    with pytest.raises(NotYourTurn):
        match.draw_until_playable(1 - seat)
    assert match.to_json() == before
    with pytest.raises(MatchOver):
        whole_match(KOZEL, 2, seed=3).draw_until_playable(0)


@pytest.mark.parametrize("seed", range(4))
def test_take_turn_draws_then_plays_or_knocks_for_the_seat(seed: int) -> None:
    match = until_a_draw(seed)
    seat = match.turn
    assert seat is not None
    expected = Match.from_json(match.to_json())
    moves = len(match.log)
    while True:  # what a person whose time ran out got before the engine did it
        action = GreedyPlayer().choose(expected.view(seat))
        expected.apply(action, seat)
        if action != DRAW:
            break
    match.take_turn(seat, GreedyPlayer())
    assert match == expected
    actions = [entry.action for entry in match.log[moves:]]
    assert actions[:-1] == [DRAW] * (len(actions) - 1) and actions[-1] != DRAW


def test_take_turn_is_refused_for_a_seat_not_to_move_and_after_the_end() -> None:
    match = Match.new(KOZEL, 4, seed=5)
    seat = match.turn
    assert seat is not None
    match.take_turn(seat, GreedyPlayer())
    assert len(match.log) == 1 and match.turn == (seat + 1) % 4
    with pytest.raises(NotYourTurn):
        match.take_turn(seat, GreedyPlayer())
    with pytest.raises(MatchOver):
        whole_match(KOZEL, 4, seed=5).take_turn(0, GreedyPlayer())


def test_autoplay_moves_while_the_seat_plays_and_stops_at_the_round_end() -> None:
    match = Match.new(KOZEL, 4, seed=12)
    assert match.autoplay(GreedyPlayer(), lambda seat: False) == 0
    first = match.turn
    assert first is not None
    person = (first + 2) % 4
    applied = match.autoplay(GreedyPlayer(), lambda seat: seat != person)
    assert applied == len(match.log) == 2 and match.turn == person
    match.take_turn(person, GreedyPlayer())
    moves = len(match.log)
    applied = match.autoplay(GreedyPlayer(), lambda seat: True)
    assert applied == len(match.log) - moves
    assert match.round_no == 2 and match.round.turn_no == 0  # the next round waits
    played = Match.new(KOZEL, 4, seed=12)
    play_round(played)
    assert match == played
    while not match.over:
        match.autoplay(GreedyPlayer(), lambda seat: True)
    assert match == whole_match(KOZEL, 4, seed=12)
    assert match.autoplay(GreedyPlayer(), lambda seat: True) == 0


def test_an_action_chosen_at_an_earlier_move_is_stale() -> None:
    match = Match.new(KOZEL, 4, seed=6)
    opening = match.legal_actions()[0]
    match.apply(opening, move=0)
    before = match.to_json()
    with pytest.raises(StaleAction, match=r"move 0, but the match is at move 1"):
        match.apply(match.legal_actions()[0], move=0)
    assert match.to_json() == before
    match.apply(match.legal_actions()[0], move=1)
    assert len(match.log) == 2


STORED = Path(__file__).parent / "stored"


@pytest.mark.parametrize(
    ("name", "round_no", "over"),
    [
        ("kozel2_mid_round_v1", 3, False),
        ("kozel3_new_round_v1", 2, False),
        ("classic_teams_over_v1", 6, True),
    ],
)
def test_a_match_stored_by_an_earlier_version_loads(name: str, round_no: int, over: bool) -> None:
    """Matches saved as version 1 (written by the code of c88a6ad) load as the same match
    their seed and log replay, with the scores and the round they were saved with."""
    text = (STORED / f"{name}.json").read_text()
    stored = json.loads(text)
    match = Match.from_json(text)
    ruleset = Ruleset.from_dict(stored["ruleset"])
    log = [LoggedAction.parse(entry) for entry in stored["log"]]
    assert match == Match.replay(ruleset, stored["players"], stored["seed"], log)
    assert (match.round_no, match.over, match.eggs) == (round_no, over, stored["eggs"])
    assert [[a.recorded, a.remembered, a.opened] for a in match.scores] == stored["scores"]
    assert [str(entry) for entry in match.log] == stored["log"]


def test_a_seat_view_pickles_to_an_equal_view_with_the_interned_tiles() -> None:
    """A view crosses to the computers' process pool pickled (bot/app/thinker.py): every game's
    ruleset survives it, and tiles come back as the engine's own interned objects, so an
    action decided there is accepted here (the engine compares tiles by identity)."""
    import pickle

    from domino.variants import VARIANTS

    for variant in VARIANTS:
        players = min(variant.ruleset.hand_sizes)
        match = Match.new(variant.ruleset, players, seed=7)
        view = match.view(match.turn or 0)
        copy = pickle.loads(pickle.dumps(view))
        assert copy == view
        assert all(a is b for a, b in zip(copy.round.hand, view.round.hand, strict=True))
        action = pickle.loads(pickle.dumps(view.round.legal[0]))
        match.apply(action, view.round.seat)
