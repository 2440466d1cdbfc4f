"""domino.ai.search.HardPlayer: legal, blind to hidden hands, reproducible, anytime."""

from __future__ import annotations

import contextlib
import random
import time

import pytest

from domino.ai import Decision, Level, computer
from domino.ai.search import HardPlayer, MatchValue, _clearly_better, race, round_gain
from domino.errors import DominoError
from domino.match import Match
from domino.round import Round
from domino.rules import Ruleset
from domino.scoring import sides_for
from domino.variants import VARIANTS, find_variant
from domino.views import Account, MatchView


def _cases() -> list[tuple[Ruleset, int]]:
    cases = [(g.ruleset, p) for g in VARIANTS for p in sorted(g.ruleset.hand_sizes) if p <= 4]
    cases.append((find_variant("kozel").ruleset.with_options(teams=True), 4))
    return cases


def _ids(case: object) -> str:
    if isinstance(case, Ruleset):
        return f"{case.variant}{'-teams' if case.teams else ''}"
    return str(case)


@pytest.mark.parametrize(("ruleset", "players"), _cases(), ids=_ids)
def test_only_legal_actions(ruleset: Ruleset, players: int) -> None:
    """Every seat hard (few worlds) through two rounds: each action is legal and
    each reason one the hints know (Decision checks it)."""
    player = HardPlayer(random.Random(3), worlds=2)
    match = Match.new(ruleset, players, 17)
    while not match.over and match.round_no <= 2:
        seat = match.round.turn
        assert seat is not None
        view = match.view(seat)
        decision = player.decide(view)
        assert isinstance(decision, Decision)
        assert decision.action in view.round.legal
        if len(view.round.legal) > 1 and decision.reason == "search":
            assert decision.args == {"worlds": 2}  # no chance shown from two worlds
        match.apply(decision.action, seat)


def _decision_point(players: int = 4, seed: int = 5) -> tuple[Match, int]:
    """A Козёл match (no bazaar) some moves in, at a seat with a choice."""
    match = Match.new(find_variant("kozel").ruleset, players, seed)
    rng = random.Random(seed)
    for _ in range(6):
        legal = match.legal_actions()
        match.apply(legal[rng.randrange(len(legal))])
    while len(match.legal_actions()) < 2:
        match.apply(match.legal_actions()[0])
    seat = match.round.turn
    assert seat is not None
    return match, seat


def _scrambled(match: Match, seat: int) -> Match:
    """The same match for `seat`, with the other hands shuffled among themselves."""
    round_ = match.round
    others = [s for s in range(match.players) if s != seat]
    pool = [t for s in others for t in round_.hand(s)]
    random.Random(99).shuffle(pool)
    hands = [round_.hand_mask(s) for s in range(match.players)]
    for s in others:
        size = hands[s].bit_count()
        hands[s] = sum(t.bit for t in pool[:size])
        del pool[:size]
    fake = Round.from_position(
        match.ruleset, match.players, hands, (), round_.layout, seat, turn_no=round_.turn_no
    )
    fake._history = list(round_.history)  # the public history as it was
    other = Match(
        match.ruleset,
        match.players,
        seed=1,
        round_=fake,
        round_no=match.round_no,
        results=match.results,
    )
    assert [fake.hand_mask(s) for s in others] != [round_.hand_mask(s) for s in others]
    return other


def test_never_reads_a_hidden_hand() -> None:
    """Two matches that differ only in the other hands give the seat the same view,
    and the same seed gives the same decision on both."""
    match, seat = _decision_point()
    other = _scrambled(match, seat)
    view: MatchView = match.view(seat)
    assert other.view(seat) == view
    first = HardPlayer(random.Random(11), worlds=8).decide(view)
    second = HardPlayer(random.Random(11), worlds=8).decide(other.view(seat))
    assert first == second


def test_reproducible_for_a_seed() -> None:
    match, seat = _decision_point(seed=8)
    view = match.view(seat)
    first, *others = [computer(Level.HARD, seed=42).decide(view) for _ in range(3)]
    assert all(other == first for other in others)


def test_forced_moves_return_at_once() -> None:
    match = Match.new(find_variant("kozel").ruleset, 4, 1)
    seat = match.round.turn
    assert seat is not None
    player = HardPlayer(random.Random(0))
    decision = player.decide(match.view(seat))  # K-3: the opening double is forced
    assert decision.reason == "only" and player.searched == 0


def test_respects_its_deadline() -> None:
    """A deadline already past: a legal action, no world searched; one 20 ms away:
    fewer worlds than the 100,000 it would search without."""
    match, seat = _decision_point(seed=9)
    view = match.view(seat)
    late = HardPlayer(random.Random(1), deadline=time.monotonic() - 1)
    assert late.decide(view).action in view.round.legal
    assert late.searched == 0
    soon = HardPlayer(random.Random(1), worlds=100_000, deadline=time.monotonic() + 0.02)
    assert soon.decide(view).action in view.round.legal
    assert soon.searched < 100_000


def test_a_rival_must_beat_the_medium_choice_clearly() -> None:
    """The searched move replaces the medium level's choice only when their paired
    difference over the same worlds is more than one standard error above zero."""
    favourite = [0.5, 0.6, 0.4, 0.7, 0.5, 0.6]
    assert _clearly_better([v + 0.05 for v in favourite], favourite)  # always better
    noisy = [0.9, 0.2, 0.8, 0.3, 0.9, 0.3]  # a little better on average, all over the place
    assert sum(noisy) > sum(favourite)
    assert not _clearly_better(noisy, favourite)
    assert not _clearly_better(favourite, favourite)


def test_a_rounds_gain_is_measured_for_every_game_and_its_unit() -> None:
    """Every game's default has a measured gain a round for one against one (a match to
    10 valued as if a round gave 8 read a small lead as a won match); threes and fives on
    the pub game's board scores its round's end in fives, so a round gains less there."""
    for game in VARIANTS:
        players = 4 if game.key.value == "sport" else 2
        sides = 2
        assert round_gain(game.ruleset, players, sides) != (8.0, 200.0), game
    threes = find_variant("threes_and_fives").ruleset
    pub = threes.with_options(target=61)
    assert round_gain(pub, 2, 2)[0] < round_gain(threes, 2, 2)[0]
    all_fives = find_variant("all_fives").ruleset
    assert round_gain(all_fives.with_options(target=200), 2, 2) == round_gain(all_fives, 2, 2)


def test_a_rounds_gain_is_measured_at_every_table_of_every_game() -> None:
    """Every table a game is played at (each size it deals for, four in pairs where it
    may be so played) has its own measured gain a round, not the fallback's."""
    for game in VARIANTS:
        for players in game.ruleset.hand_sizes:
            tables = [game.ruleset]
            if players == 4:
                with contextlib.suppress(DominoError):  # pairs fixed either way (S-1)
                    tables.append(game.ruleset.with_options(teams=not game.ruleset.teams))
            for rules in tables:
                sides = len(sides_for(rules, players))
                assert round_gain(rules, players, sides) != (8.0, 200.0), (game, players, sides)


def test_match_value_orders_accounts() -> None:
    """K-10: being nearer the target is worse where points are bad, better elsewhere."""
    kozel = find_variant("kozel").ruleset
    near = MatchValue(kozel, 4, 4, 0)
    far_from = [Account(90, 0, True), Account(40, 0, True), Account(40, 0, True), Account(40)]
    close = [Account(40, 0, True), Account(90, 0, True), Account(40, 0, True), Account(40)]
    assert near(far_from, 0) < near(close, 0)
    assert near([Account(101, 0, True), *close[1:]], 0) == 0.0
    sport = MatchValue(find_variant("sport").ruleset, 4, 2, 0)
    assert sport([Account(150, 0, True), Account(50, 0, True)], 0) > 0.5
    chances = race([10, 50, 50], 10.0, 100.0)
    assert abs(sum(chances) - 1) < 1e-9 and chances[0] > chances[1]


def _stepped(round_: Round) -> tuple[object, tuple[int, ...], int]:
    """`Round.greedy_playout`'s policy stepped through the public API."""
    from domino.round import _greedy_rank

    while round_.outcome is None:
        legal = round_.legal_actions()
        best = legal[0]
        for action in legal[1:]:
            if _greedy_rank(action) > _greedy_rank(best):
                best = action
        round_.apply(best)
    last = round_.history[-1]
    assert hasattr(last, "tile")
    hands = tuple(round_.hand_mask(s) for s in range(round_.players))
    return round_.outcome, hands, last.tile.index


@pytest.mark.parametrize("variant", ["kozel", "classic", "sea_kozel", "sport"])
def test_the_line_kernel_plays_the_greedy_policy(variant: str) -> None:
    """`_core.line_greedy_playout` plays the game the greedy policy plays through the
    API (M-3's two doubles included), from many mid-round positions."""
    ruleset = find_variant(variant).ruleset
    rng = random.Random(variant)
    for seed in range(40):
        players = rng.choice(sorted(p for p in ruleset.hand_sizes if p <= 4))
        match = Match.new(ruleset, players, seed)
        for _ in range(rng.randrange(1, 12)):
            legal = match.legal_actions()
            match.apply(legal[rng.randrange(len(legal))])
            if match.round_no > 1 or match.over:
                break
        if match.round_no > 1 or match.over:
            continue
        fresh = match.round.copy()
        assert fresh.greedy_playout() == _stepped(match.round.copy())
        assert match.round.copy().greedy_playout(smart=True)[0].kind is not None
